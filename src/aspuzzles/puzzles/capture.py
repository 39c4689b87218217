"""Puzzle Quest capture boards: clear an 8x8 match-3 board in the fewest swaps.

A move swaps two orthogonally adjacent cells and is legal only if, right after the
swap, a run of 3+ equal tiles passes through one of the two cells (``s`` and ``S``
match). Resolution marks every run on the board at once, flaming skulls (``S``) blow
up their 8 neighbours (recursively), marked tiles vanish, columns fall, and this
repeats until no run is left. Nothing new falls in.

The simulator below is the independent checker: it replays a move list with these
rules and nothing from the encoding. Python also precomputes what ASP would derive
slowly: the cells a tile can ever occupy, the lines of three, and for every swap the
pairs of cells that make the arriving tile part of a run. It finds a first plan fast
(a beam search, not proved shortest), which the driver has clingo complete under
assumptions, so that the search knows an upper bound at once. And it bounds the moves
a board still needs from below (the sideways travel of its tiles, and with a few moves
left the exact answer, found by trying them: `Lookahead`), which the driver has clingo
apply during the search, as a propagator, to cut plans that cannot finish.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import re
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from clingo import Function, Number, Symbol

from ..errors import InputError, LineReader, is_number
from ..puzzle import Incremental, Puzzle, State, StepBound, Support, json_field
from . import capture_bits as bits

SIZE = 8
EMPTY = "_"
SKULL, FLAMING = "s", "S"
TILES = "ybgrpcsS"
TILE_NAMES = {
    "y": "yellow",
    "b": "blue",
    "g": "green",
    "r": "red",
    "p": "purple star",
    "c": "coin",
    "s": "skull",
    "S": "flaming skull",
}
#: Direction names of the seed, and the (row, column) step each one takes.
DIRECTIONS = {"Up": (-1, 0), "Down": (1, 0), "Left": (0, -1), "Right": (0, 1)}
#: ASP constants for tiles (``S`` is not a constant in ASP, so flaming skulls are ``f``).
ATOM_OF_TILE = {tile: ("f" if tile == FLAMING else tile) for tile in TILES}
TILE_OF_ATOM = {atom: tile for tile, atom in ATOM_OF_TILE.items()}

Board = str  # 64 characters, row by row; row 0 is the top
EMPTY_BOARD: Board = EMPTY * SIZE * SIZE
Cell = tuple[int, int]


@dataclass(frozen=True)
class Move:
    """Swap the tile at (row, col) with its neighbour in ``direction``."""

    row: int
    col: int
    direction: str

    @property
    def target(self) -> Cell:
        step = DIRECTIONS[self.direction]
        return self.row + step[0], self.col + step[1]

    @property
    def cells(self) -> tuple[int, int]:
        """The two cells swapped, as numbers (row * 8 + column): this one, the target."""
        target_row, target_col = self.target
        return self.row * SIZE + self.col, target_row * SIZE + target_col

    def __str__(self) -> str:
        return f"{self.row} {self.col} {self.direction}"


@dataclass(frozen=True)
class CaptureInstance:
    """The starting board as 64 characters, row by row, and after how many moves of a
    plan the simulator takes over refuting boards (0: never; see `Lookahead`)."""

    board: Board
    lookahead: int = 1

    def tiles(self) -> int:
        return sum(tile != EMPTY for tile in self.board)


@dataclass(frozen=True)
class MoveEffect:
    """What one move did: the board after it, and its cascade in figures."""

    board: Board
    removed: int
    phases: int
    explosions: int


@dataclass(frozen=True)
class CaptureSolution:
    """A shortest move list, with the settled board after each move as ASP saw it."""

    moves: tuple[Move, ...]
    boards: tuple[Board, ...]
    #: Proved minimal by the solver (not given by a person, nor found before a time limit).
    shortest: bool = True


# ---------------------------------------------------------------------- parsing
#: The game's own letters (its data files, as extracted by bluddy/puzzle-quest-re), and
#: ours for each. Only ``S`` is spelled in both, and means a plain skull in the game's.
GAME_SPELLING = dict(zip("GRBYSO*X-", "grbyscpS_", strict=True))
#: Letters only the game's spelling uses: one of them in a file means that spelling.
GAME_ONLY = frozenset(GAME_SPELLING) - {"S"}


def parse_capture(text: str, source: str) -> CaptureInstance:
    """Optional ``#`` comment lines, then 8 rows of 8 tiles from ``ybgrpcsS_`` (a row
    may end in a ``#`` comment, as lines of the other puzzles' files may).

    Boards copied from the game's data (``GRBYSO*X-``) are read too, so that game boards
    need no hand conversion; which spelling a file uses shows in the letters only one of
    them has, and a file may not mix the two."""
    entries = _row_entries(text, source)
    game = any(char in GAME_ONLY for _, _, line in entries for char in line)
    rows: list[tuple[int, str]] = []
    for number, start, line in entries:
        if len(rows) == SIZE:
            raise InputError(f"extra row: the board has {SIZE} rows", source, number)
        if len(line) != SIZE:
            raise InputError(f"row has {len(line)} characters, expected {SIZE}", source, number)
        for col, char in enumerate(line):
            problem = _unknown_tile(char, game, f"row {len(rows)}, column {col}")
            if problem:
                raise InputError(problem, source, number, start + col)
        rows.append((number, line))
    if not rows:
        raise InputError(f"empty file: expected {SIZE} rows of {SIZE} tiles", source)
    if len(rows) < SIZE:
        raise InputError(
            f"only {len(rows)} row{'s' if len(rows) > 1 else ''}, expected {SIZE}",
            source,
            rows[-1][0],
        )
    board = "".join(line for _, line in rows)
    if game:
        board = "".join(GAME_SPELLING[char] for char in board)
    if board == EMPTY_BOARD:
        raise InputError("the board holds no tiles: there is nothing to clear", source)
    found = runs(board)
    if found:
        raise InputError(
            f"the board is not settled: it already holds a run ({describe_run(board, found[0])})",
            source,
            rows[found[0][0] // SIZE][0],
        )
    return CaptureInstance(board)


#: A row written as a string, as the game's data lists a board: ``"---SYS--"``.
_QUOTED = re.compile(r'"([^"]*)"')
#: What may surround quoted rows: a list's brackets and separators, and a name it is
#: given (``capture_grid = ["---SYS--"; "---*G*--"; ...];`` in OCaml, or with commas).
_LIST_SYNTAX = re.compile(r"\s*(?:[A-Za-z_]\w*\s*=)?[\s\[\];,]*")


def _row_entries(text: str, source: str) -> list[tuple[int, int, str]]:
    """The board's rows as (line, column of the row's first tile, row): one row per
    line, or, when rows are quoted, every quoted string (several may share a line, as
    in the record of a monster in the game's data). Comment lines are skipped."""
    raw_lines = text.splitlines()
    lines = _grid_lines(LineReader(source).lines(text))
    if not any('"' in line for _, line in lines):
        return [(number, raw_lines[number - 1].index(line) + 1, line) for number, line in lines]
    entries = []
    for number, line in lines:
        outside = _QUOTED.sub(",", line)
        if '"' in outside or not _LIST_SYNTAX.fullmatch(outside):
            message = "expected rows as quoted strings in a list, as in the rest of the file"
            raise InputError(f'{message} ("---SYS--"; "---*G*--"; ...)', source, number)
        start = raw_lines[number - 1].index(line) + 1
        entries += [(number, start + m.start(1), m.group(1)) for m in _QUOTED.finditer(line)]
    return entries


def _grid_lines(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The lines of the ``capture_grid`` field, from its name to the list's ``]``, when
    the text is a monster's whole record from the game's data; all lines otherwise."""
    start = next((k for k, (_, line) in enumerate(lines) if "capture_grid" in line), None)
    if start is None:
        return lines
    end = next((k for k in range(start, len(lines)) if "]" in lines[k][1]), len(lines) - 1)
    first, text = lines[start]
    return [(first, text[text.index("capture_grid") :]), *lines[start + 1 : end + 1]]


def _unknown_tile(char: str, game: bool, where: str) -> str | None:
    """Why ``char`` at ``where`` is no tile in the file's spelling (None if it is one)."""
    ours = TILES + EMPTY
    if not game and char not in ours:
        return f"unknown tile '{char}' at {where} (tiles are {' '.join(ours)})"
    if game and char not in GAME_SPELLING:
        if char in ours:
            return (
                f"tile '{char}' at {where} in a board spelled with the game's letters "
                f"({' '.join(GAME_SPELLING)}): the two spellings cannot be mixed"
            )
        return f"unknown tile '{char}' at {where} (the game's tiles are {' '.join(GAME_SPELLING)})"
    return None


def format_board(board: Board) -> list[str]:
    return [board[row * SIZE : (row + 1) * SIZE] for row in range(SIZE)]


# -------------------------------------------------------------------- simulator
def _lines() -> list[list[int]]:
    """Every row and column, as lists of cell indices in order."""
    rows = [[row * SIZE + col for col in range(SIZE)] for row in range(SIZE)]
    cols = [[row * SIZE + col for row in range(SIZE)] for col in range(SIZE)]
    return rows + cols


LINES = _lines()
NEIGHBOURS8 = [
    [
        (row + dr) * SIZE + col + dc
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= row + dr < SIZE and 0 <= col + dc < SIZE
    ]
    for row in range(SIZE)
    for col in range(SIZE)
]


def match_classes(board: Board) -> str:
    """The board as the classes matching sees: flaming skulls read as skulls."""
    return board.replace(FLAMING, SKULL)


#: Three or more equal classes in a row, empty cells excepted.
RUN = re.compile(rf"([^{EMPTY}])\1\1+")


def runs(board: Board) -> list[list[int]]:
    """Every maximal horizontal or vertical run of 3+ equal (non-empty) tiles, rows first.

    The board is searched as one string of rows and one of columns, and a block of
    equal tiles that runs on into the next line is cut at the line's end: two regex
    scans instead of sixteen, because the breadth-first search and the lookahead call
    this for every phase of every move."""
    classes = match_classes(board)
    found = [
        list(range(first, last))
        for match in RUN.finditer(classes)
        for first, last in _within_lines(match.start(), match.end())
    ]
    columns = "".join([classes[col::SIZE] for col in range(SIZE)])
    return found + [
        [position % SIZE * SIZE + position // SIZE for position in range(first, last)]
        for match in RUN.finditer(columns)
        for first, last in _within_lines(match.start(), match.end())
    ]


def _within_lines(start: int, end: int) -> Iterator[tuple[int, int]]:
    """The parts of 3 or more of a block [start, end) of a string of 8-cell lines that
    lie within one line."""
    while start < end:
        last = min(end, (start // SIZE + 1) * SIZE)
        if last - start >= 3:
            yield start, last
        start = last


def describe_run(board: Board, run: Sequence[int]) -> str:
    """A run for a message, e.g. ``3 x 'r' at row 1, columns 0-2``."""
    (row, col), (last_row, last_col) = divmod(run[0], SIZE), divmod(run[-1], SIZE)
    where = (
        f"row {row}, columns {col}-{last_col}"
        if row == last_row
        else f"column {col}, rows {row}-{last_row}"
    )
    return f"{len(run)} x '{board[run[0]]}' at {where}"


def marked_cells(board: Board) -> tuple[set[int], int]:
    """Cells removed in one phase: all runs, plus what flaming skulls blow up.

    Returns the cells and how many flaming skulls exploded. A marked flaming skull
    marks its 8 neighbours; a flaming skull marked that way explodes too.
    """
    marked = {cell for run in runs(board) for cell in run}
    pending = [cell for cell in marked if board[cell] == FLAMING]
    exploded = set(pending)
    while pending:
        cell = pending.pop()
        for neighbour in NEIGHBOURS8[cell]:
            if board[neighbour] == EMPTY:
                continue
            marked.add(neighbour)
            if board[neighbour] == FLAMING and neighbour not in exploded:
                exploded.add(neighbour)
                pending.append(neighbour)
    return marked, len(exploded)


def columns_of(board: Board) -> list[list[str]]:
    """Each column's tiles from the floor up."""
    rows = range(SIZE - 1, -1, -1)
    return [
        [board[row * SIZE + col] for row in rows if board[row * SIZE + col] != EMPTY]
        for col in range(SIZE)
    ]


def from_columns(columns: Sequence[Sequence[str]]) -> Board:
    """The board whose columns hold these tiles, from the floor up."""
    cells = [EMPTY] * (SIZE * SIZE)
    for col, stack in enumerate(columns):
        for height, tile in enumerate(stack):
            cells[(SIZE - 1 - height) * SIZE + col] = tile
    return "".join(cells)


def fall(board: Board) -> Board:
    """Every column falls: its tiles keep their order and sit at the bottom. (Done on
    strings, a column at a time, and turned back into rows by ``zip``: the breadth-first
    search and the lookahead call this for every phase of every move.)"""
    columns = [board[col::SIZE].replace(EMPTY, "").rjust(SIZE, EMPTY) for col in range(SIZE)]
    return "".join(map("".join, zip(*columns, strict=True)))


def settle(board: Board) -> MoveEffect:
    """Resolve a board after a swap: phase after phase until no run is left."""
    removed = phases = explosions = 0
    while True:
        marked, exploded = marked_cells(board)
        if not marked:
            return MoveEffect(board, removed, phases, explosions)
        phases += 1
        removed += len(marked)
        explosions += exploded
        cells = list(board)
        for cell in marked:
            cells[cell] = EMPTY
        board = fall("".join(cells))


def swapped(board: Board, move: Move) -> Board | None:
    """The board right after the swap (``None`` if the move leaves the board)."""
    if not all(0 <= value < SIZE for value in (move.row, move.col, *move.target)):
        return None
    first, second = move.cells
    cells = list(board)
    cells[first], cells[second] = cells[second], cells[first]
    return "".join(cells)


def in_run(board: Board, cell: int) -> bool:
    """Whether a run of 3+ passes through ``cell`` (checked locally, for speed)."""
    return _in_run(match_classes(board), cell)


def _in_run(classes: str, cell: int) -> bool:
    """`in_run` on a board already read as classes (the move generator's hot loop)."""
    kind = classes[cell]
    if kind == EMPTY:
        return False
    row, col = divmod(cell, SIZE)
    line = classes[row * SIZE : (row + 1) * SIZE]
    if kind * 3 in line[max(col - 2, 0) : col + 3]:
        return True
    line = classes[col::SIZE]
    return kind * 3 in line[max(row - 2, 0) : row + 3]


def illegal_reason(board: Board, move: Move) -> str | None:
    """Why a move is not allowed on a board; ``None`` when it is legal."""
    if move.direction not in DIRECTIONS:
        return f"unknown direction '{move.direction}'"
    if not all(0 <= value < SIZE for value in (move.row, move.col, *move.target)):
        return "it swaps with a cell off the board"
    first, second = move.cells
    if board[first] == EMPTY and board[second] == EMPTY:
        return "both cells are empty"
    if not _swap_makes_run(match_classes(board), *sorted((first, second))):
        return "no run of 3 passes through a swapped cell"
    return None


def _swap_makes_run(classes: str, first: int, second: int) -> bool:
    """Whether swapping cells ``first < second`` of a board read as classes puts a run
    of 3+ through either of them (the test of a legal move)."""
    a, b = classes[first], classes[second]
    after = f"{classes[:first]}{b}{classes[first + 1 : second]}{a}{classes[second + 1 :]}"
    return _in_run(after, first) or _in_run(after, second)


def play(board: Board, move: Move) -> MoveEffect:
    """Make a legal move and resolve it (raises ValueError on an illegal one)."""
    if (reason := illegal_reason(board, move)) is not None:
        raise ValueError(f"illegal move {move}: {reason}")
    after = swapped(board, move)
    assert after is not None
    return settle(after)


def _swap_pairs() -> list[tuple[int, int, Move]]:
    """Every swap inside the board, named by its upper or left cell: (cell, cell, move)."""
    pairs = []
    for row in range(SIZE):
        for col in range(SIZE):
            if col + 1 < SIZE:
                pairs.append((row * SIZE + col, row * SIZE + col + 1, Move(row, col, "Right")))
            if row + 1 < SIZE:
                pairs.append((row * SIZE + col, (row + 1) * SIZE + col, Move(row, col, "Down")))
    return pairs


SWAP_PAIRS = _swap_pairs()
#: The lines of three on the board, as cells.
THREES = [tuple(line[start : start + 3]) for line in LINES for start in range(SIZE - 2)]


def _arrivals(first: int, second: int) -> tuple[tuple[int, int, int], ...]:
    """What makes the swap of ``first`` and ``second`` legal, when their tiles differ:
    (source, u, v), the tile from ``source`` arriving at the other cell completes a run
    with the tiles at u and v (a line of three through its new cell, not through its
    old one)."""
    checks = []
    for source, target in ((first, second), (second, first)):
        for three in THREES:
            if target in three and source not in three:
                u, v = (cell for cell in three if cell != target)
                checks.append((source, u, v))
    return tuple(checks)


SWAP_CHECKS = [
    (first, second, move, _arrivals(first, second)) for first, second, move in SWAP_PAIRS
]


def legal_moves(board: Board) -> list[Move]:
    """Every legal move, each swap named once (by its upper or left cell).

    The same verdicts as `illegal_reason`, from a table of the lines each swap can
    complete, because the breadth-first search and the lookahead call this for every
    board they meet (two equal tiles swapped change nothing: the plain test decides).
    """
    classes = match_classes(board)
    moves = []
    for first, second, move, checks in SWAP_CHECKS:
        if classes[first] == classes[second]:  # the swap leaves the board as it is
            if classes[first] != EMPTY and (_in_run(classes, first) or _in_run(classes, second)):
                moves.append(move)
            continue
        for source, u, v in checks:
            kind = classes[source]
            if kind != EMPTY and classes[u] == kind and classes[v] == kind:
                moves.append(move)
                break
    return moves


def move_between(source: Cell, target: Cell) -> Move:
    """The move that swaps ``source`` with its neighbour ``target``, named from ``source``."""
    step = (target[0] - source[0], target[1] - source[1])
    direction = next(name for name, delta in DIRECTIONS.items() if delta == step)
    return Move(source[0], source[1], direction)


def mover_name(board: Board, first: Cell, second: Cell) -> Move:
    """Name a swap after the tile that forms a run where it lands (as players do:
    ``7 1 Up`` moves the tile at row 7, column 1 up); the upper or left one if both do."""
    candidates = []
    for source, target in ((first, second), (second, first)):
        move = move_between(source, target)
        after = swapped(board, move)
        landing = target[0] * SIZE + target[1]
        if board[source[0] * SIZE + source[1]] != EMPTY and after and in_run(after, landing):
            candidates.append(move)
    if not candidates:  # not a legal swap: name it from its first cell
        return move_between(first, second)
    return min(candidates, key=lambda move: (move.row, move.col))


def replay(board: Board, moves: Iterable[Move]) -> list[MoveEffect]:
    """The outcome of every move in turn (raises ValueError at an illegal one)."""
    outcomes = []
    for number, move in enumerate(moves, start=1):
        try:
            outcome = play(board, move)
        except ValueError as error:
            raise ValueError(f"move {number}: {error}") from None
        outcomes.append(outcome)
        board = outcome.board
    return outcomes


def class_counts(board: Board) -> Counter[str]:
    """How many tiles of each class (skulls of both kinds together) are on the board."""
    counts = Counter(match_classes(board))
    del counts[EMPTY]
    return counts


def dead_reason(board: Board) -> str | None:
    """Why a board can never be cleared, found by counting; ``None`` if it might be.

    Tiles only leave in runs of 3+ or in explosions. Fewer than 3 skulls never match,
    so they never explode; a colour with 1 or 2 tiles left can then only go up in an
    explosion, which needs a flaming skull and 3 skulls to match.
    """
    counts = class_counts(board)
    skulls = counts[SKULL]
    if 0 < skulls < 3:
        return f"{skulls} skull{'s' if skulls > 1 else ''} left: they can never match"
    can_explode = skulls >= 3 and FLAMING in board
    for kind, count in sorted(counts.items()):
        if count < 3 and not can_explode:
            tiles = f"{count} {TILE_NAMES[kind]} tile{'s' if count > 1 else ''}"
            return f"{tiles} left and no flaming skull can clear them"
    return None


# ------------------------------------------------------------------- geometry
def resting_cells(board: Board) -> set[int]:
    """Cells a tile can rest on: at or below its column's first tile. Columns only
    shrink: a tile swapped above a column always completes a run and goes at once."""
    cells = set()
    for col in range(SIZE):
        rows = [row for row in range(SIZE) if board[row * SIZE + col] != EMPTY]
        if rows:
            cells |= {row * SIZE + col for row in range(min(rows), SIZE)}
    return cells


def orthogonal(cell: int) -> list[int]:
    row, col = divmod(cell, SIZE)
    return [
        (row + dr) * SIZE + col + dc
        for dr, dc in DIRECTIONS.values()
        if 0 <= row + dr < SIZE and 0 <= col + dc < SIZE
    ]


def swap_cells(space: set[int]) -> set[int]:
    """Resting cells and the empty cells a tile can be swapped into from them; every
    column keeps a contiguous run of cells down to the floor."""
    cells = set(space)
    for cell in space:
        cells |= set(orthogonal(cell))
    for cell in list(cells):
        row, col = divmod(cell, SIZE)
        cells |= {below * SIZE + col for below in range(row, SIZE)}
    return cells


def triples(cells: set[int]) -> list[tuple[int, int, int]]:
    """Every three cells in a row or column, all within ``cells``."""
    found = []
    for line in LINES:
        for start in range(SIZE - 2):
            three = tuple(line[start : start + 3])
            if all(cell in cells for cell in three):
                found.append(three)
    return found


def phase_bound(board: Board) -> int:
    """Every phase removes a run of 3 of one class: the plan's phases are at most the
    sum over classes of count // 3 (this also bounds the moves)."""
    return sum(count // 3 for count in class_counts(board).values())


def geometry_facts(board: Board) -> list[Symbol]:
    """Cells, columns, falling slots, lines, neighbours and swap patterns."""
    space = resting_cells(board)
    cells = swap_cells(space)
    lines = triples(cells)
    pairs = swappable_pairs(cells, space)
    facts = _cell_facts(cells) + _line_facts(lines)
    for first, second in pairs:
        facts.append(_fact("pair", first, second))
        facts += _forms_facts(second, first, lines, space)
        facts += _forms_facts(first, second, lines, space)
    if board == mirrored_board(board):  # only then does the encoding use mirror images
        facts.append(Function("symmetric", []))
        for first, second in pairs:
            image = sorted((mirror_cell(first), mirror_cell(second)))
            facts.append(_fact("mirror", first, second, *image))
    return facts


def _fact(name: str, *values: int) -> Symbol:
    return Function(name, [Number(value) for value in values])


def _cell_facts(cells: set[int]) -> list[Symbol]:
    """Per cell: its column, the cell below (or the floor), where a tile falling from
    it lands over N-1 tiles, and its 8 neighbours."""
    facts = []
    for cell in sorted(cells):
        row, col = divmod(cell, SIZE)
        facts += [_fact("cell", cell), _fact("col", cell, col)]
        if row == SIZE - 1:
            facts.append(_fact("bottom", cell))
        else:
            facts.append(_fact("below", cell, cell + SIZE))
        for height in range(1, SIZE - row + 1):
            facts.append(_fact("slot", cell, height, (SIZE - height) * SIZE + col))
        facts += [_fact("near8", cell, other) for other in NEIGHBOURS8[cell] if other in cells]
    return facts


def _line_facts(lines: list[tuple[int, int, int]]) -> list[Symbol]:
    facts = []
    for number, three in enumerate(lines):
        facts.append(_fact("line", number, *three))
        facts += [_fact("on", number, cell) for cell in three]
    return facts


def swappable_pairs(cells: set[int], space: set[int]) -> list[tuple[int, int]]:
    """Adjacent cells (the second right of or below the first) that a swap may exchange:
    at least one of them is a resting cell, where a tile can be before the swap."""
    pairs = []
    for first in sorted(cells):
        for second in (first + 1, first + SIZE):
            if second not in cells or (second == first + 1 and first % SIZE == SIZE - 1):
                continue
            if first in space or second in space:
                pairs.append((first, second))
    return pairs


def _forms_facts(
    target: int, source: int, lines: list[tuple[int, int, int]], space: set[int]
) -> list[Symbol]:
    """The lines of three through ``target`` but not ``source`` whose other two cells can
    hold tiles: a tile arriving at ``target`` from ``source`` completes a run there when
    those two match it."""
    facts = []
    for three in lines:
        if target in three and source not in three:
            others = [cell for cell in three if cell != target]
            if all(cell in space for cell in others):
                facts.append(_fact("forms", target, source, *others))
    return facts


def mirror_cell(cell: int) -> int:
    row, col = divmod(cell, SIZE)
    return row * SIZE + SIZE - 1 - col


def mirrored_board(board: Board) -> Board:
    return "".join(board[mirror_cell(cell)] for cell in range(SIZE * SIZE))


# ------------------------------------------------------------- moves still needed
# A lower bound on the moves a board still needs, which the driver has clingo apply
# during its search (`Capture.step_bound`): a partial plan whose board needs more moves
# than its budget leaves is cut there, instead of after trying every way on.
#
# Without explosions, tiles leave only in runs, and a tile changes column only when a
# swap moves it sideways: one column per swap, and one tile of each of at most two
# classes per swap (two tiles of one class never swap: the board would not change).
# So each class must end up, tile by tile, in columns whose counts allow runs, and the
# columns its tiles travel to get there add up to at least its *sideways travel*: the
# least total distance that turns its counts per column into counts that split into
# runs. A plan needs at least the largest class's travel and half the classes' total.
#
# Which counts split into runs: a horizontal run takes one tile from each of 3+
# neighbouring columns, a vertical run 3+ tiles of one column, and a vertical run
# crossing j horizontal runs needs only 3 - j tiles of its own. That is a regular
# property of the 8 counts read left to right (0, 1, 2, or 3 for more: more than 3
# allows nothing that 3 does not), decided by the automaton built below.

#: Column counts as the automaton reads them: 0, 1, 2, and 3 for three or more.
COUNT_LETTERS = 4
#: Horizontal runs crossing one column: two suffice (a test checks more change nothing).
MAX_RUNS_ACROSS = 2

#: A state of the automaton before determinising: the horizontal runs still open, as
#: (runs 1 column long, runs 2 long, runs 3 or more long).
OpenRuns = tuple[int, int, int]


def column_allows(count: int, runs: int) -> bool:
    """Whether ``count`` tiles of a class in one column can all leave when ``runs``
    horizontal runs cross it: each takes one tile, and the rest leave in vertical runs,
    each of which needs 3 tiles of which crossing runs may give up to ``runs``."""
    rest = count - runs
    return rest == 0 or (rest > 0 and rest >= 3 - runs)


def _open_runs_after(state: OpenRuns, count: int, max_runs: int) -> set[OpenRuns]:
    """The open runs after a column holding ``count`` tiles of the class: runs shorter
    than 3 must go on into it, longer ones may stop before it, and new ones may start."""
    short1, short2, long = state
    after = set()
    for going_on in range(long + 1):
        through = short1 + short2 + going_on
        for starting in range(max_runs - through + 1):
            if column_allows(count, through + starting):
                after.add((starting, short1, short2 + going_on))
    return after


def _closed(state: OpenRuns) -> bool:
    """Every open run is long enough to stop here (the board's right edge)."""
    return state[0] == 0 and state[1] == 0


@dataclass(frozen=True)
class Automaton:
    """A deterministic automaton over column counts, its states numbered from 0 (the
    start); the state from which nothing is accepted is left out."""

    steps: dict[tuple[int, int], int]  # (state, count letter) -> state
    accepting: frozenset[int]

    def accepts(self, counts: Sequence[int]) -> bool:
        state: int | None = 0
        for count in counts:
            state = self.steps.get((state, min(count, COUNT_LETTERS - 1)))
            if state is None:
                return False
        return state in self.accepting


def grouping_automaton(max_runs: int = MAX_RUNS_ACROSS) -> Automaton:
    """The minimal automaton accepting the column counts of a class that can leave the
    board in runs without any tile changing column (subset construction, then Moore's
    partition refinement)."""
    start: frozenset[OpenRuns] = frozenset({(0, 0, 0)})
    subsets, steps, pending = {start: 0}, {}, [start]
    while pending:
        subset = pending.pop()
        for count in range(COUNT_LETTERS):
            target = frozenset(
                after for state in subset for after in _open_runs_after(state, count, max_runs)
            )
            if target not in subsets:
                subsets[target] = len(subsets)
                pending.append(target)
            steps[subsets[subset], count] = subsets[target]
    accepting = {number for subset, number in subsets.items() if any(map(_closed, subset))}
    return _minimised(len(subsets), steps, accepting, subsets[frozenset()])


def _minimised(
    size: int, steps: dict[tuple[int, int], int], accepting: set[int], dead: int
) -> Automaton:
    """Merge the states that accept the same words (state 0 stays the start) and drop
    the dead one."""
    block = {state: int(state in accepting) for state in range(size)}
    while True:
        signature = {
            state: (block[state], *(block[steps[state, letter]] for letter in range(COUNT_LETTERS)))
            for state in range(size)
        }
        numbers: dict[tuple[int, ...], int] = {}
        refined = {
            state: numbers.setdefault(signature[state], len(numbers)) for state in range(size)
        }
        if len(numbers) == len(set(block.values())):
            break
        block = refined
    order = sorted(set(refined.values()) - {refined[dead]}, key=lambda b: b != refined[0])
    number = {old: new for new, old in enumerate(order)}
    return Automaton(
        steps={
            (number[refined[state]], letter): number[refined[target]]
            for (state, letter), target in steps.items()
            if refined[target] != refined[dead] and refined[state] != refined[dead]
        },
        accepting=frozenset(number[refined[state]] for state in accepting),
    )


GROUPING = grouping_automaton()
#: Each state's steps, as (count letter, next state), for the sideways-travel search's
#: inner loop (letters after which nothing is accepted left out).
GROUPING_STEPS = {
    state: tuple(
        (letter, GROUPING.steps[state, letter])
        for letter in range(COUNT_LETTERS)
        if (state, letter) in GROUPING.steps
    )
    for state in {state for state, _ in GROUPING.steps} | set(GROUPING.steps.values())
}


#: What `sideways_travel` has found: (counts, blasts) -> (travel, exact), where a travel
#: that is not exact is a lower bound (the search stopped at a cap).
_TRAVEL: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, bool]] = {}

#: Whether counts split into runs as they stand (the automaton's verdict, remembered:
#: the lookahead asks it for every class of every board it meets).
_SPLIT: dict[tuple[int, ...], bool] = {}

#: No explosion anywhere: no tile of any column may vanish outside a run.
NO_BLASTS = (0,) * SIZE


def sideways_travel(counts: tuple[int, ...], cap: int, blasts: tuple[int, ...] = NO_BLASTS) -> int:
    """The least total distance, in columns, that a class's tiles (``counts`` per column)
    must travel to stand in columns whose counts split into runs, when up to
    ``blasts[c]`` of them may instead go up in explosions in column c; ``cap + 1`` when
    that is more than ``cap`` (or impossible: 1 or 2 tiles and nothing to blast them).
    Remembered, since the search meets the same counts on many boards."""
    split = _SPLIT.get(counts)
    if split is None:
        split = _SPLIT[counts] = GROUPING.accepts(counts)
    if split:  # already split into runs: no travel, blasts or not
        return 0
    key = (counts, blasts)
    travel, exact = _TRAVEL.get(key, (0, False))
    if not exact and travel <= cap:
        if cap:
            travel = _travel_within(counts, cap, blasts)
        else:  # no move left: split as the blasts leave it, or more than the cap
            travel = 0 if _split_by_blasts(counts, blasts) else 1
        _TRAVEL[key] = (travel, travel <= cap)
    return min(travel, cap + 1)


def _split_by_blasts(counts: tuple[int, ...], blasts: tuple[int, ...]) -> bool:
    """Whether counts split into runs once up to ``blasts[c]`` tiles of column c go up
    in explosions, no tile moving: `sideways_travel` with a cap of 0, which the
    lookahead asks for every class of every swap on its last move. The automaton runs
    over every count each column may be left with at once (a set of states)."""
    states = {0}
    for count, blast in zip(counts, blasts, strict=True):
        letters = {min(kept, COUNT_LETTERS - 1) for kept in range(max(count - blast, 0), count + 1)}
        states = {
            after
            for state in states
            for letter, after in GROUPING_STEPS[state]
            if letter in letters
        }
        if not states:
            return False
    return not states.isdisjoint(GROUPING.accepting)


def _travel_within(counts: tuple[int, ...], cap: int, blasts: tuple[int, ...]) -> int:
    """`sideways_travel` computed, or ``cap + 1``. Moving tiles between neighbouring
    columns costs one per tile per column crossed, so turning counts a into counts b
    costs the sum over column borders of |tiles left of the border in a - in b| (a
    transport along a line); a tile blasted in column c is one that travels to c and
    stops counting there. The search runs the automaton column by column over
    (automaton state, that difference), keeping the cheapest cost of each; the cap
    keeps it to the few differences that matter."""
    total, limit, last_letter = sum(counts), cap + 1, COUNT_LETTERS - 1
    costs = {(0, 0): 0}  # (automaton state, tiles now left of the border - in b) -> cost
    for count, blast in zip(counts, blasts, strict=True):
        following: dict[tuple[int, int], int] = {}
        for (state, difference), cost in costs.items():
            # Up to this column, less b's so far: `high` with no tile blasted here,
            # `low` with `blast` of them. b's count here is a target t, and what is then
            # still to move across the border is that less t, within the budget. The
            # automaton reads t as a letter (0, 1, 2, 3+), and every t of one letter
            # leads to the same state: one range of differences per letter. (Plain
            # comparisons rather than min and max: this loop is the bound's hot spot.)
            budget, high = cap - cost, difference + count
            low = high - blast
            bottom, top = low - budget, high + budget
            bottom, top = (bottom if bottom > 0 else 0), (top if top < total else total)
            for letter, after in GROUPING_STEPS[state]:
                first = letter if letter > bottom else bottom
                last = letter if letter < last_letter else top
                if first > last or last > top:
                    continue
                start, stop = low - last, high - first
                start, stop = (start if start > -budget else -budget), min(stop, budget)
                for across in range(start, stop + 1):
                    key, spent = (after, across), cost + (across if across >= 0 else -across)
                    if spent < following.get(key, limit):
                        following[key] = spent
        costs = following
    return min(
        (
            cost
            for (state, left), cost in costs.items()
            if left == 0 and state in GROUPING.accepting
        ),
        default=cap + 1,
    )


def column_counts(board: Board) -> dict[str, tuple[int, ...]]:
    """How many tiles of each class (skulls of both kinds together) stand in each column.
    (Counted a column string at a time: the lookahead asks this at every board.)"""
    classes = match_classes(board)
    columns = [classes[col::SIZE] for col in range(SIZE)]
    kinds = sorted(set(classes) - {EMPTY})
    return {kind: tuple(column.count(kind) for column in columns) for kind in kinds}


def _counts_per_column(tiles: Iterable[tuple[int, str]]) -> dict[str, tuple[int, ...]]:
    """Counts per class and column of tiles given as (cell, class)."""
    counts: dict[str, list[int]] = {}
    for cell, kind in tiles:
        counts.setdefault(kind, [0] * SIZE)[cell % SIZE] += 1
    return {kind: tuple(column) for kind, column in counts.items()}


# With flaming skulls: a flaming skull leaves the board only when marked, and a marked
# one explodes, so on a board that clears every flaming skull explodes, once. Its blast
# takes at most 3 tiles from each of the 3 columns around where it then stands (2 from
# its own, besides itself), and it gets there only by swaps, one column per move it is
# in; a swap moves at most one tile of the skull class. So for every choice of where
# each flaming skull goes off (within reach), the classes' travel, with the blasted
# tiles taken out and each flaming skull already where it goes off, must fit; the
# flaming skulls' own steps count with the skulls'.

#: At most this many choices of blast columns are tried one by one; beyond, every
#: flaming skull is let blast in every column it can reach at once (weaker, as sound).
BLAST_CHOICES = 64


def classes_too_far(
    counts: dict[str, tuple[int, ...]], moves: int, flames: Sequence[int] = ()
) -> list[str] | None:
    """Classes whose sideways travel shows that ``moves`` swaps cannot clear the board
    whose ``counts`` per column are given (skulls of both kinds together), with
    flaming skulls in the columns ``flames`` (which must be able to explode: see
    `_may_explode`); ``None`` if the travel allows it. Every flaming skull must go off
    somewhere within ``moves`` columns; the classes returned refute every choice."""
    named: set[str] = set()
    # The classes with the fewest tiles first: they are the likeliest to stand apart.
    counts = dict(sorted(counts.items(), key=lambda item: sum(item[1])))
    for centres, blasts, spent in _blast_choices(flames, moves):
        too_far = _too_far(_flames_moved(counts, flames, centres), moves, blasts, spent)
        if too_far is None:
            return None
        named |= set(too_far)
    return sorted(named)


def _too_far(
    counts: dict[str, tuple[int, ...]], moves: int, blasts: tuple[int, ...], spent: int
) -> list[str] | None:
    """`classes_too_far` for one choice of ``blasts`` (tiles each column may lose),
    which costs the flaming skulls ``spent`` steps: a class that must travel more than
    ``moves`` columns (the skulls with those steps), or the fewest that must travel
    more than ``2 * moves`` together with them."""
    # A cap of `moves` suffices: a class beyond it refutes alone (and the classes after
    # it need not be searched: most choices on a board that cannot clear fall there),
    # and below it the travel is exact for the sum.
    travel = {}
    for kind, column in counts.items():
        travel[kind] = sideways_travel(column, moves, blasts) + (spent if kind == SKULL else 0)
        if travel[kind] > moves:
            return [kind]
    total, chosen = 0, []
    for kind in sorted(travel, key=lambda kind: (-travel[kind], kind)):
        if travel[kind] > moves:
            return [kind]
        total += travel[kind]
        chosen.append(kind)
        if total > 2 * moves:
            return chosen
    return None


def _flames_moved(
    counts: dict[str, tuple[int, ...]], flames: Sequence[int], centres: Sequence[int]
) -> dict[str, tuple[int, ...]]:
    """The counts with each flaming skull moved from its column in ``flames`` to where
    it goes off, in ``centres``."""
    if list(centres) == list(flames):
        return counts
    skulls = list(counts[SKULL])
    for column, centre in zip(flames, centres, strict=True):
        skulls[column] -= 1
        skulls[centre] += 1
    return {**counts, SKULL: tuple(skulls)}


def _blast_choices(
    flames: Sequence[int], moves: int
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...], int]]:
    """Where the flaming skulls in columns ``flames`` may go off within ``moves`` moves,
    the tiles each column may then lose to their blasts, and the steps the skulls take
    to get there. With too many choices, one that lets each blast in every column it can
    reach, the skulls left where they are (no steps)."""
    reach = [range(max(0, col - moves), min(SIZE - 1, col + moves) + 1) for col in flames]
    if math.prod(map(len, reach)) > BLAST_CHOICES:
        yield tuple(flames), _blasts(column for columns in reach for column in columns), 0
        return
    for centres in itertools.product(*reach):
        steps = sum(abs(centre - col) for centre, col in zip(centres, flames, strict=True))
        if steps <= 2 * moves:
            yield centres, _blasts(centres), steps


def _blasts(centres: Iterable[int]) -> tuple[int, ...]:
    """Tiles each column may lose to flaming skulls going off in the columns
    ``centres``: 3 from each side column, 2 from the skull's own besides itself."""
    lost = [0] * SIZE
    for centre in centres:
        for column, tiles in ((centre - 1, 3), (centre, 2), (centre + 1, 3)):
            if 0 <= column < SIZE:
                lost[column] += tiles
    return tuple(min(tiles, SIZE) for tiles in lost)


def can_explode(board: Board) -> bool:
    """Whether an explosion may still happen on ``board``."""
    return _may_explode(FLAMING in board, class_counts(board)[SKULL])


def _may_explode(flaming: bool, skulls: int) -> bool:
    """A flaming skull goes off only when marked: it needs 3 skulls (itself among them)
    to match, or another flaming skull's blast, which needs the same."""
    return flaming and skulls >= 3


def flaming_columns(board: Board) -> list[int]:
    """The column of every flaming skull on ``board``."""
    return [cell % SIZE for cell, tile in enumerate(board) if tile == FLAMING]


def moves_needed(board: Board) -> int | None:
    """The least number of moves that sideways travel allows for clearing ``board``,
    blasts included; ``None`` for a board that counting shows can never be cleared
    (`dead_reason`, or no number of moves up to `phase_bound`, which no plan exceeds:
    every move makes a run)."""
    if dead_reason(board) is not None:
        return None
    counts, flames = column_counts(board), flaming_columns(board)
    for moves in range(phase_bound(board) + 1):
        if classes_too_far(counts, moves, flames) is None:
            return moves
    return None


def refutation(state: State, moves: int, made: int = 0) -> Support | None:
    """Why the board of an encoding's tick (``board``/``flame`` atoms, see
    `Capture.step_bound`), reached in ``made`` moves (which sideways travel does not
    need), cannot be cleared in ``moves`` more moves, as the atoms the
    reason rests on; ``None`` if sideways travel allows it. The reason names the board
    atoms of the classes too far (true and false: they fix the counts per column), and
    with them the skulls' and the flaming skulls' (where explosions can or cannot
    happen)."""
    counts = _counts_per_column(state["board"])
    flames = [cell % SIZE for (cell,) in state["flame"]]
    if not _may_explode(bool(flames), sum(counts.get(SKULL, ()))):
        flames = []
    too_far = classes_too_far(counts, moves, flames)
    if too_far is None:
        return None
    named = set(too_far) | ({SKULL} if state["flame"] else set())
    return lambda name, arguments: name == "flame" or arguments[1] in named


class Lookahead:
    """The bound of `refutation`, and then, for a board reached in ``after`` moves or
    more, the exact answer: the simulator tries every legal move, and every move after
    those, to see whether the board can be emptied in the moves left.

    Why: clasp refutes a move by propagating it and its cascade through every tick
    after it, and learns a clause naming the whole board, about 1-4 ms a move on the
    game boards; the compiled simulator (`_capture_kernel`) plays a move and its cascade
    in well under a microsecond. So clasp keeps only the first move of each plan (which
    the two processes share out: the propagator checks a board only after a move) and
    the simulator answers for the rest. The answer is exact, so the bound stays
    admissible: plans are still the encoding's answer sets, checked; only budgets are
    refuted sooner, and when the simulator finds that a board can be cleared it cuts
    nothing, leaving clasp to find the moves. Its nogood names every board atom of the
    tick (the answer depends on the whole board). Answers are kept per board across
    ticks, paths and budgets, up to ``keep`` boards.

    The search runs in Python (`capture_bits`, sideways travel pruning every board)
    until it has taken ``compile_after`` seconds in all; from then on its last
    `KERNEL_MOVES` moves run compiled. Loading numba costs a process about a second,
    more than the whole search on most boards."""

    def __init__(self, after: int = 1, keep: int = 2_000_000, compile_after: float = 0.5) -> None:
        self.after, self.keep = after, keep
        self.compile_after, self.python_seconds = compile_after, 0.0
        self.deadline = math.inf  # when this question's Python search hands over
        self.last_moves: Any = None  # the compiled search's memory, once it runs
        self.short: dict[bits.Bits, int] = {}  # board -> most moves known not to clear it
        self.enough: dict[bits.Bits, int] = {}  # board -> fewest moves known to clear it
        self.searched = self.refuted = 0

    def __call__(self, state: State, moves: int, made: int = 0) -> Support | None:
        support = refutation(state, moves)
        if support is not None or made < self.after:
            return support
        self.searched += 1
        if self.clears(state_board(state), moves):
            return None
        self.refuted += 1
        return _every_atom

    def clears(self, board: Board, moves: int) -> bool:
        """Whether ``moves`` moves or fewer can empty ``board``."""
        start = time.perf_counter()
        self.deadline = start + self.compile_after - self.python_seconds
        clears = self._clears(bits.from_board(board), moves)
        if self.last_moves is None:
            self.python_seconds += time.perf_counter() - start
        return clears

    def _clears(self, board: bits.Bits, moves: int) -> bool:
        """`clears` on the board as masks: depth first, where sideways travel prunes
        (`_swaps_to_try`, `_last_swaps`), each board's answer remembered; the last
        `KERNEL_MOVES` moves by the compiled search once it runs."""
        if moves <= KERNEL_MOVES:
            if self.last_moves is None and time.perf_counter() >= self.deadline:
                # numba is imported here, not with the module, for the reason above.
                from . import _capture_kernel

                self.last_moves = _capture_kernel.Memory(self.keep)
            if self.last_moves is not None:
                return self.last_moves.clears(board, moves)
        if board == bits.CLEARED:
            return True
        if moves <= self.short.get(board, 0):  # no move at all clears a board with tiles
            return False
        if self.enough.get(board, moves + 1) <= moves:
            return True
        if moves == 1:
            clears = any(bits.settle(after) == bits.CLEARED for after in _last_swaps(board))
        else:
            clears = any(
                self._clears(bits.settle(after), moves - 1) for after in _swaps_to_try(board, moves)
            )
        if len(self.short) + len(self.enough) >= self.keep:
            self.short.clear()
            self.enough.clear()
        if clears:
            self.enough[board] = min(moves, self.enough.get(board, moves))
        else:
            self.short[board] = max(moves, self.short.get(board, 0))
        return clears

    def statistics(self) -> dict[str, int]:
        return {
            "lookahead_boards": self.searched,
            "lookahead_cuts": self.refuted,
            "lookahead_compiled": int(self.last_moves is not None),
        }


#: The moves left from which the compiled search (`_capture_kernel`) takes over: it tries
#: every legal swap with no bound to prune them (it settles a swap faster than Python
#: could compute a bound), so above this many moves the Python search, pruning, calls
#: it for each board it reaches (session 31: 6 against 4 and 5 on the slowest boards).
KERNEL_MOVES = 6


def _swaps_to_try(board: bits.Bits, moves: int) -> Iterator[bits.Bits]:
    """The boards right after each legal swap worth playing, before they settle: none
    when counting and sideways travel show that ``moves`` moves cannot clear ``board``,
    and no vertical swap when ``moves - 1`` more cannot, since a vertical swap changes
    no column's counts and a cascade moves no tile sideways."""
    if bits.dead(board):
        return
    counts, flames = bits.column_counts(board), bits.flaming_columns(board)
    if classes_too_far(counts, moves, flames) is not None:
        return
    across, up = bits.legal_swaps(board)
    for pair in bits.across_pairs(across):
        yield bits.swap(board, pair)
    if classes_too_far(counts, moves - 1, flames) is None:
        for pair in bits.up_pairs(up):
            yield bits.swap(board, pair)


def _last_swaps(board: bits.Bits) -> Iterator[bits.Bits]:
    """The boards right after each legal swap that may empty ``board`` with no move
    after it: after the swap no tile changes column again, so every class's counts
    must split into runs there (sideways travel 0), with the flaming skulls' blasts
    where they stand. A swap changes the counts of two classes at most, so this is
    decided from the board's counts before anything settles: the lookahead's last move
    is where most of its boards are, and settling is what a board costs most."""
    if bits.dead(board):
        return
    counts, flames = bits.column_counts(board), bits.flaming_columns(board)
    if not _may_explode(bool(flames), sum(counts.get(SKULL, ()))):
        flames = []
    blasts = _blasts(flames)
    unsplit = {kind for kind, column in counts.items() if sideways_travel(column, 0, blasts)}
    # A swap changes at most two classes' counts, and the blasts only by carrying a
    # flaming skull sideways (then the bound for one move decides).
    if classes_too_far(counts, 1, flames) is not None if flames else len(unsplit) > 2:
        return
    across, up = bits.legal_swaps(board)
    carrying = bits.touching(across, board[-1])
    for pair in bits.across_pairs(carrying):
        # the swap carries a flaming skull to the next column: its blast moves too
        after = bits.swap(board, pair)
        if classes_too_far(bits.column_counts(after), 0, bits.flaming_columns(after)) is None:
            yield after
    for pair in bits.across_pairs(
        _split_across(board, across & ~carrying, counts, unsplit, blasts)
    ):
        yield bits.swap(board, pair)
    if not unsplit:  # a vertical swap changes no counts
        for pair in bits.up_pairs(up):
            yield bits.swap(board, pair)


def _split_across(
    board: bits.Bits,
    across: int,
    counts: dict[str, tuple[int, ...]],
    unsplit: set[str],
    blasts: tuple[int, ...],
) -> int:
    """The swaps of ``across`` (by left cell) after which every class's counts split into
    runs (with ``blasts``), given the classes ``unsplit`` before them: a swap moves one
    tile of each of its two classes one column, so it must move a tile of every class
    unsplit, and no class may be left unsplit by its tile's step. Each step (class,
    column, side) is judged once for all the swaps that make it."""
    alike = bits.alike(board)  # swaps of two tiles of one class change no counts
    kept = across & ~alike
    for kind in unsplit:
        kept = bits.touching(kept, board[bits.KINDS.index(kind)])
    for kind, mask in zip(bits.KINDS, board, strict=False):
        # tiles of the class moving right from the left cell, or left from the right one
        right, left = bits.moving_right(kept, mask), bits.moving_left(kept, mask)
        for movers, side in ((right, 1), (left, -1)):
            for col in bits.columns_of(movers):
                leaves = col if side == 1 else col + 1
                column = list(counts[kind])
                column[leaves] -= 1
                column[leaves + side] += 1
                if sideways_travel(tuple(column), 0, blasts):
                    kept &= ~(movers & bits.COLUMN[col])
    return kept | (across & alike if not unsplit else 0)


def state_board(state: State) -> Board:
    """The board of an encoding's tick (its ``board`` and ``flame`` atoms)."""
    cells = [EMPTY] * (SIZE * SIZE)
    for cell, kind in state["board"]:
        cells[cell] = TILE_OF_ATOM[kind]
    for (cell,) in state["flame"]:
        cells[cell] = FLAMING
    return "".join(cells)


def _every_atom(name: str, arguments: tuple[Any, ...]) -> bool:
    """The support of a refutation that rests on the whole board."""
    return True


# ---------------------------------------------------------------------- plan hints
#: Boards kept per depth by `quick_plan`, tried in turn until one finds a plan.
BEAM_WIDTHS = (300, 1000)


def lonely_tiles(board: Board) -> int:
    """How many tiles have no partners within reach of a run without moving sideways
    first: fewer than 3 of their class in their column, and no 3-column window around
    them with their class in each column (the encoding's lonely tiles, without its
    exception for explosions). Each needs a swap to carry it or a partner across."""
    return _lonely(column_counts(board))


def _lonely(heights: dict[str, tuple[int, ...]]) -> int:
    """`lonely_tiles` of a board's counts per class and column."""
    lonely = 0
    for counts in heights.values():
        for col, count in enumerate(counts):
            if 0 < count < 3:
                present = [0 <= c < SIZE and counts[c] > 0 for c in range(col - 2, col + 3)]
                windows = (
                    present[0] and present[1],
                    present[1] and present[3],
                    present[3] and present[4],
                )
                if not any(windows):
                    lonely += count
    return lonely


def _promise(board: bits.Bits) -> int:
    """How far a board looks from empty (smaller is better): its tiles, and twice its
    lonely tiles, which are what usually costs extra moves."""
    return bits.occupied(board).bit_count() + 2 * _lonely(bits.column_counts(board))


def quick_plan(board: Board, widths: Sequence[int] = BEAM_WIDTHS) -> tuple[Move, ...] | None:
    """A short plan found in a second or so, not proved shortest; ``None`` if none
    was found: `beam_search` at each width in turn. On the 52 game boards it finds a
    plan for 51 (in 0.01-3 s), of the minimal length wherever that is known."""
    for width in widths:
        plan = beam_search(board, width)
        if plan is not None:
            return plan
    return None


#: Each swap's move, by the mask of its two cells.
MOVE_OF_PAIR = {bits.pair_of(first, second): move for first, second, move in SWAP_PAIRS}


def beam_search(board: Board, width: int) -> tuple[Move, ...] | None:
    """`breadth_first` keeping only the ``width`` boards of each depth with the most
    `_promise`, on bitboards (the moves tried in the same order, so the same plan)."""
    start = bits.from_board(board)
    if start == bits.CLEARED:
        return ()
    if bits.dead(start):
        return None
    layer: dict[bits.Bits, tuple[Move, ...]] = {start: ()}
    seen = {start}
    while layer:  # every move removes tiles, so the layers run out
        following: dict[bits.Bits, tuple[Move, ...]] = {}
        for state, path in layer.items():
            for pair in bits.swap_pairs(state):
                after = bits.settle(bits.swap(state, pair))
                if after == bits.CLEARED:
                    return (*path, MOVE_OF_PAIR[pair])
                if after not in seen and not bits.dead(after):
                    seen.add(after)
                    following[after] = (*path, MOVE_OF_PAIR[pair])
        kept = sorted(following, key=_promise)[:width]
        layer = {state: following[state] for state in kept}
    return None


def breadth_first(board: Board) -> tuple[Move, ...] | None:
    """Depth by depth from ``board``, equal boards merged and dead boards dropped, until
    a move empties the board; ``None`` when no board is left. The first plan is a
    shortest one and ``None`` proves there is none: the benchmark's plain baseline, and
    the tests' independent minimum (on the string simulator alone)."""
    if board == EMPTY_BOARD:
        return ()
    if dead_reason(board) is not None:
        return None
    layer: dict[Board, tuple[Move, ...]] = {board: ()}
    seen = {board}
    while layer:  # every move removes tiles, so the layers run out
        following: dict[Board, tuple[Move, ...]] = {}
        for state, path in layer.items():
            for move in legal_moves(state):
                after = settle(swapped(state, move) or state).board
                if after == EMPTY_BOARD:
                    return (*path, move)
                if after not in seen and dead_reason(after) is None:
                    seen.add(after)
                    following[after] = (*path, move)
        layer = following
    return None


def plan_atoms(board: Board, plan: Sequence[Move]) -> list[Symbol]:
    """A plan as the encoding's answer set names it: ``swap(Tick,A,B)`` for each swap of
    cells A < B at the tick where it is made (a move's cascade takes a tick per phase).
    On a symmetric board the encoding takes the first move from the left half, so a
    plan starting on the right is given as its mirror image."""
    if plan and board == mirrored_board(board):
        image = [mirror_move(move) for move in plan]
        if _swap_of(image[0]) < _swap_of(plan[0]):
            plan = image
    atoms, tick = [], 1
    for move in plan:
        atoms.append(_fact("swap", tick, *_swap_of(move)))
        effect = play(board, move)
        board, tick = effect.board, tick + effect.phases
    return atoms


def _swap_of(move: Move) -> tuple[int, int]:
    """The two cells a move swaps, as the encoding names a swap: the smaller first."""
    first, second = sorted(move.cells)
    return first, second


def mirror_move(move: Move) -> Move:
    """The same move on the board's mirror image (left and right exchanged)."""
    sideways = {"Left": "Right", "Right": "Left"}
    return Move(move.row, SIZE - 1 - move.col, sideways.get(move.direction, move.direction))


# ------------------------------------------------------------------------- puzzle
class Capture(Puzzle[CaptureInstance, CaptureSolution]):
    name = "capture"
    title = "Puzzle Quest capture (fewest swaps to clear a match-3 board)"
    default_instance = "wight.txt"
    # The encoding's #heuristic searches moves in time order (Domain heuristic). One
    # thread: two threads splitting the search win on some boards but gamble (the liche
    # took 5 to 69 s over five runs), because each thread may cut plans off at its own
    # tick and the timeline grows further than one thread needs. clasp's frumpy preset
    # keeps more of what it learns (its deletion policy: a larger first bound on learned
    # clauses, kept 75% at each reduction): a refutation's clauses name whole boards,
    # and boards recur. Session 20, the 52 game boards, 30 s each, the same day: 42
    # minima proved against 39 with clasp's default preset, 33 boards faster, 4 slower.
    clingo_options = ("--heuristic=Domain", "--configuration=frumpy")

    def parse(self, text: str, source: str) -> CaptureInstance:
        return parse_capture(text, source)

    def infeasible(self, instance: CaptureInstance) -> str | None:
        return dead_reason(instance.board)

    def incremental(self, instance: CaptureInstance) -> Incremental:
        bound = max(1, phase_bound(instance.board))
        return Incremental(
            max_steps=bound, max_ticks=bound, unit="moves", step_atom="swap", splits=True
        )

    def facts(self, instance: CaptureInstance) -> list[Symbol]:
        board = instance.board
        facts = [
            Function("bound", [Number(phase_bound(board))]),
            Function("flames", [Number(board.count(FLAMING))]),
        ]
        for kind in sorted({ATOM_OF_TILE[tile] for tile in board if tile != EMPTY}):
            facts.append(Function("kind", [Function(kind)]))
        for cell, tile in enumerate(board):
            if tile != EMPTY:
                facts.append(Function("tile", [Number(cell), Function(ATOM_OF_TILE[tile])]))
        return facts + geometry_facts(board)

    def add_solve_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--lookahead",
            type=int,
            default=CaptureInstance.lookahead,
            metavar="N",
            help="capture: once N moves of a plan are made, the simulator decides inside "
            "the search whether the rest of the budget can clear the board (default "
            "%(default)s; 0: clasp and the sideways-travel bound alone)",
        )

    def configure(self, instance: CaptureInstance, options: dict[str, Any]) -> CaptureInstance:
        lookahead = options.get("lookahead", instance.lookahead)
        if not isinstance(lookahead, int) or lookahead < 0:
            raise InputError(f"--lookahead must be 0 or more, not {lookahead}")
        return replace(instance, lookahead=lookahead)

    def step_bound(self, instance: CaptureInstance) -> StepBound:
        if instance.lookahead == 0:
            refute, statistics = refutation, None
        else:
            lookahead = Lookahead(instance.lookahead)
            refute, statistics = lookahead, lookahead.statistics
        return StepBound(
            state=(("board", 3), ("flame", 2)),
            ready="at_rest",
            made="moves",
            refute=refute,
            statistics=statistics,
        )

    def hints(self, instance: CaptureInstance) -> list[Symbol]:
        plan = quick_plan(instance.board)
        return [] if plan is None else plan_atoms(instance.board, plan)

    def decode(self, instance: CaptureInstance, atoms: Sequence[Symbol]) -> CaptureSolution:
        swaps: dict[int, tuple[int, int]] = {}
        settled: dict[int, list[str]] = {}
        for atom in atoms:
            if atom.match("swap", 3):
                tick, first, second = (argument.number for argument in atom.arguments)
                swaps[tick] = (first, second)
            elif atom.match("settled", 3):
                tick, cell = atom.arguments[0].number, atom.arguments[1].number
                cells = settled.setdefault(tick, [EMPTY] * (SIZE * SIZE))
                cells[cell] = TILE_OF_ATOM[atom.arguments[2].name]
        ticks = sorted(swaps)
        # The board after each move is the settled board before the next one; the
        # last move leaves the board empty (the encoding demands it).
        boards = tuple("".join(settled.get(tick - 1, [EMPTY] * SIZE * SIZE)) for tick in ticks[1:])
        boards += (EMPTY_BOARD,)
        moves = []
        for before, tick in zip((instance.board, *boards), ticks, strict=False):
            first, second = swaps[tick]
            moves.append(mover_name(before, divmod(first, SIZE), divmod(second, SIZE)))
        return CaptureSolution(tuple(moves), boards)

    def check(self, instance: CaptureInstance, solution: CaptureSolution) -> list[str]:
        return check_moves(instance.board, solution.moves, solution.boards or None)

    def unproved(self, solution: CaptureSolution) -> CaptureSolution:
        return replace(solution, shortest=False)

    def parse_solution(self, instance: CaptureInstance, text: str, source: str) -> CaptureSolution:
        """Moves as text (``7 1 Up; 6 3 Right``), or the JSON ``--format json`` prints."""
        if text.lstrip().startswith("{"):
            return super().parse_solution(instance, text, source)
        return CaptureSolution(parse_moves(text, source), (), shortest=False)

    def from_dict(self, instance: CaptureInstance, data: Any, source: str) -> CaptureSolution:
        moves = json_field(data, "moves", source)
        if not isinstance(moves, list) or not all(_is_move(move) for move in moves):
            raise InputError("'moves' must be a list of [row, col, \"Direction\"]", source)
        text = "\n".join(f"{row} {col} {direction}" for row, col, direction in moves)
        try:  # one move per line, so a line number is a move number
            return CaptureSolution(parse_moves(text, source), (), shortest=False)
        except InputError as error:
            where = "" if error.line is None else f"move {error.line}: "
            raise InputError(where + error.message, source) from None

    def to_dict(self, instance: CaptureInstance, solution: CaptureSolution) -> dict[str, Any]:
        return {
            "moves": [[move.row, move.col, move.direction] for move in solution.moves],
            "move_count": len(solution.moves),
            "shortest": solution.shortest,
            "boards": [format_board(board) for board in solution.boards],
        }

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--moves", type=int, default=5, help="moves planted (default 5)")
        parser.add_argument("--kinds", default="ygrs", help="tile kinds to use (default ygrs)")
        parser.add_argument(
            "--flaming", type=int, default=0, help="skulls turned into flaming skulls (default 0)"
        )
        parser.add_argument("--seed", type=int, default=None, help="random seed")

    def generate(self, args: argparse.Namespace) -> str:
        if not 1 <= args.moves <= 21:
            raise InputError("--moves must be from 1 to 21 (64 tiles at 3 a move)")
        if args.flaming < 0:
            raise InputError(f"--flaming must be 0 or more, not {args.flaming}")
        kinds = "".join(dict.fromkeys(args.kinds))  # in the order given, once each
        if not kinds or any(kind not in TILES or kind == FLAMING for kind in kinds):
            raise InputError(f"--kinds takes letters from {TILES[:-1]}, not '{args.kinds}'")
        board = planted_board(args.moves, kinds, random.Random(args.seed))
        board = with_flaming_skulls(board, args.flaming, random.Random(args.seed))
        header = (
            f"# aspuzzles generate capture --moves {args.moves} --kinds {kinds} "
            f"--flaming {args.flaming} --seed {args.seed}\n"
            f"# planted with {args.moves} moves (flaming skulls can change that)\n"
        )
        return header + "\n".join(format_board(board)) + "\n"

    def describe(self, instance: CaptureInstance) -> str:
        counts = Counter(tile for tile in instance.board if tile != EMPTY)
        return f"{instance.tiles()} tiles: " + " ".join(
            f"{tile}x{counts[tile]}" for tile in TILES if counts[tile]
        )

    def template_context(
        self, instance: CaptureInstance, solution: CaptureSolution
    ) -> dict[str, Any]:
        outcomes = replay(instance.board, solution.moves)
        befores = [instance.board] + [outcome.board for outcome in outcomes[:-1]]
        steps = [
            {
                "number": number,
                "move": move,
                "outcome": outcome,
                "before": format_board(before),
                "swapped": [(move.row, move.col), move.target],
            }
            for number, (move, outcome, before) in enumerate(
                zip(solution.moves, outcomes, befores, strict=True), start=1
            )
        ]
        labels = ["start"] + [f"{step['number']}. {step['move']}" for step in steps]
        boards = [format_board(instance.board)] + [format_board(o.board) for o in outcomes]
        return {
            "steps": steps,
            "count": len(solution.moves),
            "shortest": solution.shortest,
            "strip": text_strip(labels, boards),
            "boards": boards,
            "size": SIZE,
            "names": TILE_NAMES,
            "colours": TILE_COLOURS,
        }


TILE_COLOURS = {
    "y": "#f2c318",
    "b": "#2f6fd6",
    "g": "#3aa845",
    "r": "#d83a34",
    "p": "#8e44ad",
    "c": "#c9a227",
    "s": "#e8e4d8",
    "S": "#ff7b22",
}


def text_strip(
    labels: Sequence[str], boards: Sequence[Sequence[str]], per_row: int = 5
) -> list[str]:
    """Boards side by side under their labels, ``per_row`` to a row (fits 80 columns)."""
    width = max(SIZE, *(len(label) for label in labels)) + 2
    lines: list[str] = []
    for start in range(0, len(boards), per_row):
        chunk = range(start, min(start + per_row, len(boards)))
        if lines:
            lines.append("")
        lines.append("".join(labels[i].ljust(width) for i in chunk).rstrip())
        for row in range(SIZE):
            lines.append("".join(boards[i][row].ljust(width) for i in chunk).rstrip())
    return lines


def _is_move(move: Any) -> bool:
    return (
        isinstance(move, list)
        and len(move) == 3
        and all(type(n) is int for n in move[:2])
        and isinstance(move[2], str)
    )


def parse_moves(text: str, source: str) -> tuple[Move, ...]:
    """Moves as ``row col Direction``, one per line or separated by ``;`` or ``,``;
    ``#`` starts a comment. Directions are Up, Down, Left, Right (any case, or U D L R)."""
    names = {name.lower(): name for name in DIRECTIONS} | {
        name[0].lower(): name for name in DIRECTIONS
    }
    moves = []
    for number, raw in enumerate(text.splitlines(), start=1):
        for entry in raw.split("#", 1)[0].replace(",", ";").split(";"):
            words = entry.split()
            if not words:
                continue
            if (
                len(words) != 3
                or not all(is_number(word) for word in words[:2])
                or words[2].lower() not in names
            ):
                raise InputError(
                    f"expected 'row col Direction' (e.g. '7 1 Up'), got '{entry.strip()}'",
                    source,
                    number,
                )
            row, col = int(words[0]), int(words[1])
            if not (0 <= row < SIZE and 0 <= col < SIZE):
                raise InputError(f"cell ({row}, {col}) is off the 8x8 board", source, number)
            moves.append(Move(row, col, names[words[2].lower()]))
    if not moves:
        raise InputError("no moves given", source)
    return tuple(moves)


def check_moves(
    board: Board, moves: Sequence[Move], expected: Sequence[Board] | None = None
) -> list[str]:
    """Replay a move list with the simulator: every move legal, the board empty at the
    end, and (when given) every settled board equal to the one the solver claimed."""
    problems = []
    for number, move in enumerate(moves, start=1):
        reason = illegal_reason(board, move)
        if reason is not None:
            return [*problems, f"move {number} ({move}) is illegal: {reason}"]
        board = play(board, move).board
        if expected is not None and number <= len(expected) and expected[number - 1] != board:
            problems.append(
                f"after move {number} ({move}) the solver's board differs from the simulation"
            )
    if board.count(EMPTY) != SIZE * SIZE:
        left = SIZE * SIZE - board.count(EMPTY)
        problems.append(f"{left} tile{'s' if left > 1 else ''} left after the last move")
    return problems


PUZZLE = Capture()


# ----------------------------------------------------------------- generator
def unplay(board: Board, kinds: str, rng: random.Random) -> Board | None:
    """A settled board one move before ``board``: insert a run of three, then undo a
    swap that completes it. ``None`` when the random attempt does not check out."""
    columns = columns_of(board)
    kind = rng.choice(kinds)
    if rng.random() < 0.5:  # a horizontal run at one height in three columns
        first = rng.randrange(SIZE - 2)
        height = rng.randint(0, min(len(columns[first + k]) for k in range(3)))
        for k in range(3):
            columns[first + k].insert(height, kind)
    else:  # a vertical run inside one column
        col = rng.randrange(SIZE)
        height = rng.randint(0, len(columns[col]))
        columns[col][height:height] = [kind] * 3
    if any(len(stack) > SIZE for stack in columns):
        return None
    with_run = from_columns(columns)
    cells = [cell for run in runs(with_run) for cell in run if with_run[cell] == kind]
    if not cells:
        return None
    cell = rng.choice(cells)
    direction = rng.choice(list(DIRECTIONS))
    row, col = divmod(cell, SIZE)
    undo = swapped(with_run, Move(row, col, direction))
    if undo is None or undo != fall(undo) or runs(undo):
        return None
    redo = move_between(Move(row, col, direction).target, (row, col))
    if illegal_reason(undo, redo) is not None or play(undo, redo).board != board:
        return None
    return undo


def planted_board(moves: int, kinds: str, rng: random.Random, tries: int = 2000) -> Board:
    """A board that ``moves`` moves clear (maybe fewer do): built backwards from the
    empty board, one undone move at a time, each checked forwards by the simulator."""
    board = EMPTY * (SIZE * SIZE)
    for _ in range(moves):
        for _ in range(tries):
            earlier = unplay(board, kinds, rng)
            if earlier is not None:
                board = earlier
                break
        else:
            raise InputError(f"could not plant {moves} moves on an 8x8 board; try fewer")
    return board


def with_flaming_skulls(board: Board, count: int, rng: random.Random) -> Board:
    """Turn ``count`` skulls (as many as there are) into flaming skulls."""
    skulls = [cell for cell, tile in enumerate(board) if tile == SKULL]
    cells = list(board)
    for cell in rng.sample(skulls, min(count, len(skulls))):
        cells[cell] = FLAMING
    return "".join(cells)
