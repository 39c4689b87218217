"""The board picture: clues around the grid, totals on a line of their own, ``.`` where
a monster is to be found.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial

from ...errors import LineReader, is_number
from .gameid import validated
from .model import KINDS, MAX_SIDE, MIRRORS, HauntedInstance


def content_lines(text: str) -> list[tuple[int, str]]:
    """Numbered lines without blank and comment lines. A comment may also follow
    content after a space ('4x4:... # from undead.c'); a '#' right after a game ID's
    size is a random seed, which the game ID parser refuses with a hint."""
    return [
        (number, _TRAILING_COMMENT.split(line, maxsplit=1)[0].strip())
        for number, line in enumerate(text.splitlines(), 1)
        if line.strip() and not line.lstrip().startswith("#")
    ]


#: A totals line: each kind's name (or letter) and its number, in any order.
TOTAL = re.compile(r"(ghosts?|vampires?|draculas?|zombies?|[GVZ])\s*[:=]?\s*(\d+)", re.IGNORECASE)


TOTALS_LINE = re.compile(rf"(?:{TOTAL.pattern}[\s,;]*)+", re.IGNORECASE)


NO_CLUE = ("-", ".", "?")


EMPTY_CELLS = ".-"


def parse_picture(lines: Sequence[tuple[int, str]], source: str) -> HauntedInstance:
    """The board as printed (the layout ``aspuzzles solve`` shows, and undead.c's own
    header comment): a totals line, a row of top clues, one row per grid row with its
    left and right clue, and a row of bottom clues. Cells are ``.`` (or ``-``) for an
    unknown monster, ``/`` and ``\\`` for mirrors, ``G V Z`` for given monsters, one
    token each or a row written solid (``\\./.``); a clue is a number, or ``-`` where
    the puzzle gives none. ``lines`` are the file's numbered lines without comments
    (``content_lines``)."""
    reader = LineReader(source)
    # Board rows start with a clue; a line starting with a letter must be the totals.
    totals = _picture_totals([(n, line) for n, line in lines if line[0].isalpha()], reader)
    board = [(n, line.split()) for n, line in lines if not line[0].isalpha()]
    if len(board) < 3:
        raise reader.error(
            None, "expected a row of top clues, the grid rows and a row of bottom clues"
        )
    (top_line, top), (bottom_line, bottom) = _without_corners(board[0], board[-1], board[1])
    width = len(top)
    top_clues = [_picture_clue(token, reader, top_line) for token in top]
    rows, left, right = [], [], []
    for number, tokens in board[1:-1]:
        cells = _picture_cells(tokens, width, reader, number)
        rows.append(cells)
        left.append(_picture_clue(tokens[0], reader, number))
        right.append(_picture_clue(tokens[-1], reader, number))
    if len(bottom) != width:
        raise reader.error(
            bottom_line, f"the bottom row has {len(bottom)} clues, expected {width} (one a column)"
        )
    bottom_clues = [_picture_clue(token, reader, bottom_line) for token in bottom]
    height = len(rows)
    if not (width <= MAX_SIDE and height <= MAX_SIDE):
        raise reader.error(None, f"grid size {width}x{height} is out of range")
    clues = (*top_clues, *right, *reversed(bottom_clues), *reversed(left))
    return validated(width, height, totals, tuple(rows), clues, partial(reader.error, None))


def _picture_totals(lines: Sequence[tuple[int, str]], reader: LineReader) -> dict[str, int]:
    """Each kind's total from a line such as ``Ghosts: 0 Vampires: 2 Zombies: 6``, or
    from one line per kind (``ghosts 0``, as janko.at's files give them)."""
    if not lines:
        raise reader.error(None, "expected a totals line (e.g. 'ghosts 0, vampires 2, zombies 6')")
    totals: dict[str, int] = {}
    for number, line in lines:
        if not TOTALS_LINE.fullmatch(line):
            raise reader.error(
                number, f"'{line}' is not a totals line (e.g. 'ghosts 0, vampires 2, zombies 6')"
            )
        for name, value in TOTAL.findall(line):
            letter = "V" if name[0] in "dD" else name[0].upper()
            if letter in totals:
                raise reader.error(number, f"the {KINDS[letter]} total is given twice")
            totals[letter] = int(value)
    missing = [KINDS[letter] for letter in KINDS if letter not in totals]
    if missing:
        said = "the totals line gives" if len(lines) == 1 else "the totals lines give"
        raise reader.error(lines[-1][0], f"{said} no {' or '.join(missing)} total")
    return totals


Row = tuple[int, list[str]]


def _without_corners(top: Row, bottom: Row, first_row: Row) -> tuple[Row, Row]:
    """The clue rows without their corner places, if they have them: janko.at's files
    (and many a puzzle drawn by hand) write the border as a full frame, ``- 2 1 1 1 -``
    over a 4-wide grid. Told by the first grid row, whose cells decide the width."""
    cells = len("".join(first_row[1][1:-1]))
    framed = len(top[1]) == cells + 2 and len(bottom[1]) == cells + 2
    if framed and all(row[1][0] in NO_CLUE and row[1][-1] in NO_CLUE for row in (top, bottom)):
        return (top[0], top[1][1:-1]), (bottom[0], bottom[1][1:-1])
    return top, bottom


def _picture_clue(token: str, reader: LineReader, number: int) -> int | None:
    if token in NO_CLUE:
        return None
    if not is_number(token):
        raise reader.error(number, f"'{token}' is not a clue (a number, or '-' for none)")
    return int(token)


def _picture_cells(tokens: list[str], width: int, reader: LineReader, number: int) -> str:
    """A grid row's cells, between its left and right clue."""
    inner = tokens[1:-1]
    cells = "".join(inner)
    spaced = len(inner) > 1
    if len(cells) != width or (spaced and any(len(token) != 1 for token in inner)):
        raise reader.error(
            number,
            f"expected a clue, {width} cells and a clue (as the top row has {width} clues)",
        )
    row = ""
    for column, char in enumerate(cells, start=1):
        cell = "." if char in EMPTY_CELLS else char.upper()
        if cell not in MIRRORS + "." + "".join(KINDS):
            raise reader.error(
                number, f"bad cell '{char}' in column {column} (cells: . / \\ G V Z)"
            )
        row += cell
    return row


_TRAILING_COMMENT = re.compile(r"\s+#")
