"""Reading boards (ours, or the game's data as lists of quoted rows) and moves as a
player writes them.
"""

from __future__ import annotations

import re
from typing import Any

from ...errors import InputError, LineReader, is_number
from .model import DIRECTIONS, EMPTY, EMPTY_BOARD, SIZE, TILES, Board, CaptureInstance, Move
from .rules import describe_run, runs

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


def is_move(move: Any) -> bool:
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
