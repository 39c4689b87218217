"""The rules as a plain simulator on strings: runs, flaming skulls, falling columns,
legal swaps. It is the independent checker (it shares nothing with the encoding) and
the reference the faster bitboards are tested against.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

from .model import (
    DIRECTIONS,
    EMPTY,
    FLAMING,
    SIZE,
    SKULL,
    TILE_NAMES,
    Board,
    Cell,
    Move,
    MoveEffect,
)


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


def _threes_through() -> list[list[tuple[int, ...]]]:
    """The lines of three through each cell, in ``THREES``' order."""
    through: list[list[tuple[int, ...]]] = [[] for _ in range(SIZE * SIZE)]
    for three in THREES:
        for cell in three:
            through[cell].append(three)
    return through


THREES_THROUGH = _threes_through()


def _arrivals(first: int, second: int) -> tuple[tuple[int, int, int], ...]:
    """What makes the swap of ``first`` and ``second`` legal, when their tiles differ:
    (source, u, v), the tile from ``source`` arriving at the other cell completes a run
    with the tiles at u and v (a line of three through its new cell, not through its
    old one)."""
    checks = []
    for source, target in ((first, second), (second, first)):
        for three in THREES_THROUGH[target]:
            if source not in three:
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


def plural(count: int) -> str:
    """The ending of a noun counted ``count`` times."""
    return "" if count == 1 else "s"


def dead_reason(board: Board) -> str | None:
    """Why a board can never be cleared, found by counting; ``None`` if it might be.

    Tiles only leave in runs of 3+ or in explosions. Fewer than 3 skulls never match,
    so they never explode; a colour with 1 or 2 tiles left can then only go up in an
    explosion, which needs a flaming skull and 3 skulls to match.
    """
    counts = class_counts(board)
    skulls = counts[SKULL]
    if 0 < skulls < 3:
        they = "they" if skulls > 1 else "it"
        return f"{skulls} skull{plural(skulls)} left: {they} can never match"
    can_explode = skulls >= 3 and FLAMING in board
    for kind, count in sorted(counts.items()):
        if count < 3 and not can_explode:
            tiles = f"{count} {TILE_NAMES[kind]} tile{plural(count)}"
            return f"{tiles} left and no flaming skull can clear them"
    return None


def check_moves(
    board: Board, moves: Sequence[Move], expected: Sequence[Board] | None = None
) -> list[str]:
    """Replay a move list with the simulator: every move legal, the board empty at the
    end, and (when given) every settled board equal to the one the solver claimed."""
    problems: list[str] = []
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
        problems.append(f"{left} tile{plural(left)} left after the last move")
    return problems
