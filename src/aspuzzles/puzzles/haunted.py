"""Haunted: Simon Tatham's "Undead". Mirrors, and monsters seen along lines of sight.

Every non-mirror cell holds one monster: a ghost, a vampire or a zombie. Each border
clue counts the monsters seen along the line of sight entering there, reflected by
two-sided mirrors ``/`` and ``\\``. Zombies are always seen, vampires only before the
line's first mirror, ghosts only after one. A line may cross a cell twice; the monster
then counts once per crossing.

Python traces the lines of sight once (ASP is bad at that) and hands the encoding
``crossings(Line,Row,Col,Side,Times)`` facts (Side: before or after the first mirror);
the encoding states who is visible where.
"""

from __future__ import annotations

import argparse
import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from clingo import Function, Number, Symbol

from ..asp import Fact, FactFile, read_facts
from ..errors import InputError, LineReader, is_number
from ..puzzle import Puzzle, string_rows

KINDS = {"G": "ghost", "V": "vampire", "Z": "zombie"}
LETTER = {name: letter for letter, name in KINDS.items()}
MIRRORS = "/\\"
MAX_SIDE = 64

# Direction vectors (row step, column step).
DOWN, UP, LEFT, RIGHT = (1, 0), (-1, 0), (0, -1), (0, 1)


@dataclass(frozen=True)
class HauntedInstance:
    """A board: ``grid`` rows of ``.`` (unknown monster), ``/``, ``\\`` or a given
    ``G``/``V``/``Z``; ``totals`` per kind letter; ``clues`` clockwise from the
    top-left corner (top edge left to right, right edge top to bottom, bottom edge right
    to left, left edge bottom to top), ``None`` where a board picture gives no clue."""

    width: int
    height: int
    totals: dict[str, int]
    grid: tuple[str, ...]
    clues: tuple[int | None, ...]

    def cells(self) -> list[tuple[int, int]]:
        """Monster cells (0-based), row-major."""
        return [
            (row, col)
            for row in range(self.height)
            for col in range(self.width)
            if self.grid[row][col] not in MIRRORS
        ]


@dataclass(frozen=True)
class HauntedSolution:
    """The board with every monster cell filled: rows of ``G V Z / \\``."""

    grid: tuple[str, ...]


# ------------------------------------------------------------------ lines of sight
def entry(width: int, height: int, line: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """Where line ``line`` (clue index) enters the grid, and its direction."""
    if line < width:
        return (0, line), DOWN
    line -= width
    if line < height:
        return (line, width - 1), LEFT
    line -= height
    if line < width:
        return (height - 1, width - 1 - line), UP
    line -= width
    return (height - 1 - line, 0), RIGHT


def reflect(direction: tuple[int, int], mirror: str) -> tuple[int, int]:
    """The direction after a two-sided mirror: ``/`` swaps and negates, ``\\`` swaps."""
    d_row, d_col = direction
    return (-d_col, -d_row) if mirror == "/" else (d_col, d_row)


def trace(grid: Sequence[str], line: int) -> list[tuple[int, int, bool]]:
    """Every crossing of a monster cell by a line: (row, col, after a mirror?)."""
    height, width = len(grid), len(grid[0])
    (row, col), direction = entry(width, height, line)
    crossings = []
    mirrored = False
    while 0 <= row < height and 0 <= col < width:
        content = grid[row][col]
        if content in MIRRORS:
            direction = reflect(direction, content)
            mirrored = True
        else:
            crossings.append((row, col, mirrored))
        row, col = row + direction[0], col + direction[1]
    return crossings


def crossings(grid: Sequence[str], line: int) -> Counter[tuple[int, int, str]]:
    """How often a line crosses each cell ``before`` and ``after`` its first mirror."""
    return Counter(
        (row, col, "after" if mirrored else "before") for row, col, mirrored in trace(grid, line)
    )


#: Who is seen at a crossing before and after the line's first mirror.
VISIBLE = {"before": "VZ", "after": "GZ"}


def clues_of(grid: Sequence[str]) -> tuple[int, ...]:
    """The clues a fully filled grid shows (used by the generator): with no cell left
    to fill, the fewest and the most a line can see are what it sees."""
    height, width = len(grid), len(grid[0])
    return tuple(sight_range(grid, line)[0] for line in range(2 * (width + height)))


def sight_range(grid: Sequence[str], line: int) -> tuple[int, int]:
    """The fewest and the most monsters a line can see on a puzzle's grid: the given
    monsters it sees count towards both, a cell still to fill only towards the most."""
    fewest = most = 0
    for (row, col, side), times in crossings(grid, line).items():
        cell = grid[row][col]
        if cell == ".":
            most += times
        elif cell in VISIBLE[side]:
            fewest, most = fewest + times, most + times
    return fewest, most


def clue_place(width: int, height: int, line: int) -> str:
    """Where clue ``line`` (clockwise from the top-left corner) stands on the board:
    told by where its line of sight enters (``entry``)."""
    (row, col), direction = entry(width, height, line)
    return {
        DOWN: f"top of column {col + 1}",
        LEFT: f"right of row {row + 1}",
        UP: f"bottom of column {col + 1}",
        RIGHT: f"left of row {row + 1}",
    }[direction]


# ----------------------------------------------------------------------- parsing
GAME_ID = re.compile(r"^(\d+)(?:x(\d+))?(?:d[a-z])?:(.*)$", re.DOTALL)
RANDOM_SEED = re.compile(r"^\d+(?:x\d+)?(?:d[a-z])?#\S*$")
#: A link to Tatham's web version, whose game ID follows the page's name and a ``#``:
#: ``https://www.chiark.greenend.org.uk/~sgtatham/puzzles/js/undead.html#4x4:0,2,6,...``.
WEB_LINK = re.compile(r"^(?:[a-z][a-z0-9+.-]*://[^#\s]*|\S*\.html?)#", re.IGNORECASE)


def parse_game_id(text: str, source: str, line: int | None = None) -> HauntedInstance:
    """Tatham's ``WxH[dD]:G,V,Z,GRID,CLUES`` (or ``W:...`` for a square), alone or at
    the end of a link to his web version."""

    def fail(message: str) -> InputError:
        return InputError(message, source, line)

    text = WEB_LINK.sub("", text.strip(), count=1)
    match = GAME_ID.match(text)
    if not match and RANDOM_SEED.match(text):
        raise fail(
            "a random seed ('WxH#SEED') names a puzzle only Undead's own generator can "
            "make: use the game ID ('WxH:...', Game > Specific in Undead)"
        )
    if not match:
        raise fail("not a game ID: expected 'WxH:G,V,Z,GRID,CLUES'")
    width = int(match.group(1))
    height = int(match.group(2) or width)
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise fail(f"grid size {width}x{height} is out of range (1 to {MAX_SIDE} per side)")
    parts = match.group(3).split(",")
    if len(parts) < 4:
        raise fail("expected three totals and a grid after the size")
    totals = {}
    for letter, part in zip("GVZ", parts[:3], strict=True):
        if not is_number(part.strip()):
            raise fail(f"{KINDS[letter]} total '{part}' is not a non-negative number")
        totals[letter] = int(part)
    grid = _decode_grid(parts[3], width, height, fail)
    clue_parts = parts[4:]
    expected = 2 * (width + height)
    if len(clue_parts) != expected:
        raise fail(f"expected {expected} clues after the grid, got {len(clue_parts)}")
    clues = []
    for index, part in enumerate(clue_parts, start=1):
        if not is_number(part.strip()):
            raise fail(f"clue {index} '{part}' is not a non-negative number")
        clues.append(int(part))
    return _validated(width, height, totals, grid, tuple(clues), fail)


def _decode_grid(code: str, width: int, height: int, fail: Any) -> tuple[str, ...]:
    cells: list[str] = []
    for position, char in enumerate(code, start=1):
        if "a" <= char <= "z":
            cells += ["."] * (ord(char) - ord("a") + 1)
        elif char in "LR":
            cells.append("\\" if char == "L" else "/")
        elif char in KINDS:
            cells.append(char)
        else:
            raise fail(f"bad character '{char}' at position {position} of the grid")
    if len(cells) != width * height:
        relation = "too short" if len(cells) < width * height else "too long"
        raise fail(
            f"grid is {relation}: it describes {len(cells)} cells, expected {width * height}"
        )
    return tuple("".join(cells[row * width : (row + 1) * width]) for row in range(height))


def _validated(
    width: int,
    height: int,
    totals: dict[str, int],
    grid: tuple[str, ...],
    clues: tuple[int | None, ...],
    fail: Any,
) -> HauntedInstance:
    monster_cells = sum(1 for row in grid for cell in row if cell not in MIRRORS)
    if sum(totals.values()) != monster_cells:
        raise fail(
            f"totals {totals['G']}+{totals['V']}+{totals['Z']}={sum(totals.values())} do not "
            f"match the {monster_cells} monster cells of the grid"
        )
    for letter in KINDS:
        given = sum(row.count(letter) for row in grid)
        if given > totals[letter]:
            raise fail(f"{given} {KINDS[letter]}s are given but the total is {totals[letter]}")
    # A line of sight crosses a cell at most twice, once horizontally and once vertically
    # (mirrors turn it by 90 degrees, never back on itself), so a larger clue is a typo;
    # clingo's 32-bit numbers could not even hold some.
    most = 2 * width * height
    for line, clue in enumerate(clues):
        if clue is not None and clue > most:
            place = clue_place(width, height, line)
            raise fail(
                f"the clue {clue} at the {place} is more than any line of sight in a "
                f"{width}x{height} grid can see (at most {most})"
            )
    return HauntedInstance(width, height, totals, grid, clues)


def encode_game_id(instance: HauntedInstance) -> str:
    """The game ID of a board, in Tatham's format (runs of empty cells as letters)."""
    code, run = [], 0
    for char in "".join(instance.grid) + "#":
        if char == ".":
            run += 1
            continue
        while run > 0:
            step = min(run, 26)
            code.append(chr(ord("a") + step - 1))
            run -= step
        if char != "#":
            code.append({"\\": "L", "/": "R"}.get(char, char))
    if None in instance.clues:
        raise InputError("a game ID needs every clue: this board leaves some out")
    totals = ",".join(str(instance.totals[letter]) for letter in "GVZ")
    clues = ",".join(map(str, instance.clues))
    return f"{instance.width}x{instance.height}:{totals},{''.join(code)},{clues}"


#: The seed blog's fact format: each fact's name and arity.
FACT_FORMAT = {"count": 3, "mirror": 3, "ghost": 1, "dracula": 1, "vampire": 1, "zombie": 1}


def parse_facts(text: str, source: str) -> HauntedInstance:
    """The seed blog's facts: ``#const n``, ``count(Row,Col,N)`` on the border rows and
    columns 0 and n+1, ``mirror(Row,Col,"/")``, ``ghost(N)``, ``dracula(N)``,
    ``zombie(N)``. ``#const w``/``h`` may replace ``n`` for rectangles."""
    program = read_facts(text, source)
    program.refuse_unknown(FACT_FORMAT)
    consts = {
        name: value.number
        for name, value in program.constants.items()
        if value.type.name == "Number"
    }
    width, height = consts.get("w", consts.get("n")), consts.get("h", consts.get("n"))
    if width is None or height is None:
        raise InputError("missing '#const n = SIZE.' (or w and h)", source)
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise InputError(f"grid size {width}x{height} is out of range", source)
    grid = _mirror_grid(program, width, height)
    totals = _totals(program)
    clue_at = _clues_by_line(program, width, height)
    missing = [line for line in range(2 * (width + height)) if line not in clue_at]
    if missing:
        raise InputError(
            f"{len(missing)} border count{'s are' if len(missing) > 1 else ' is'} missing "
            f"(e.g. the line at clue index {missing[0]})",
            source,
        )
    clues = tuple(program.numbers(clue_at[line])[2] for line in range(2 * (width + height)))
    return _validated(
        width, height, totals, grid, clues, lambda message: InputError(message, source)
    )


def _mirror_grid(program: FactFile, width: int, height: int) -> tuple[str, ...]:
    """The grid rows with the ``mirror`` facts' mirrors and ``.`` for monster cells."""
    cells = [["."] * width for _ in range(height)]
    for fact in program.named("mirror", 3):
        row, col, kind = fact.args
        if kind.type.name != "String" or kind.string not in MIRRORS:
            raise program.error(fact, f'mirror type must be "/" or "\\\\", not {kind}')
        if row.type.name != "Number" or col.type.name != "Number":
            raise program.error(fact, f"mirror position must be two integers in {fact.symbol}")
        r, c = row.number, col.number
        if not (1 <= r <= height and 1 <= c <= width):
            raise program.error(fact, f"mirror ({r},{c}) is outside the {width}x{height} grid")
        if cells[r - 1][c - 1] not in (".", kind.string):
            raise program.error(fact, f"cell ({r},{c}) is given two different mirrors")
        cells[r - 1][c - 1] = kind.string
    return tuple("".join(row) for row in cells)


def _totals(program: FactFile) -> dict[str, int]:
    """The monster totals by letter; ``dracula`` and ``vampire`` both name vampires."""
    totals = {}
    for letter, names in (("G", ("ghost",)), ("V", ("dracula", "vampire")), ("Z", ("zombie",))):
        found = [fact for name in names for fact in program.named(name, 1)]
        if not found:
            raise program.error(None, f"missing {names[0]}(N) total")
        if len({tuple(program.numbers(fact)) for fact in found}) > 1:
            raise program.error(found[-1], f"the {names[0]} total is given twice")
        totals[letter] = program.numbers(found[-1])[0]
    return totals


def _clues_by_line(program: FactFile, width: int, height: int) -> dict[int, Fact]:
    """The ``count`` fact of each line of sight, by clue index; a count off the border,
    or two different counts for one line, is refused."""
    clue_at: dict[int, Fact] = {}
    for fact in program.named("count", 3):
        row, col, value = program.numbers(fact)
        line = _border_line(row, col, width, height)
        if line is None:
            raise program.error(
                fact, "count must be on the border (row or column 0 or size+1, not a corner)"
            )
        if line in clue_at and program.numbers(clue_at[line])[2] != value:
            raise program.error(fact, f"({row},{col}) is given two different counts")
        clue_at[line] = fact
    return clue_at


def _border_line(row: int, col: int, width: int, height: int) -> int | None:
    """The clue index of the border position (row, col) in the seed's 1-based frame."""
    if row == 0 and 1 <= col <= width:
        return col - 1
    if col == width + 1 and 1 <= row <= height:
        return width + row - 1
    if row == height + 1 and 1 <= col <= width:
        return width + height + (width - col)
    if col == 0 and 1 <= row <= height:
        return 2 * width + height + (height - row)
    return None


# ------------------------------------------------------------- the board picture
def _content_lines(text: str) -> list[tuple[int, str]]:
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
    (``_content_lines``)."""
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
    return _validated(width, height, totals, tuple(rows), clues, partial(reader.error, None))


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


# ------------------------------------------------------ Tatham's saved games
#: What a save file of Tatham's puzzle collection opens with (midend.c).
SAVE_MAGIC = "Simon Tatham's Portable Puzzle Collection"
SAVE_KEY = re.compile(r"([A-Z ]{8}):(\d+):")


def is_save_file(text: str) -> bool:
    """A game saved by Tatham's collection (File > Save) opens with its magic line."""
    return text.lstrip("\r\n\ufeff").startswith("SAVEFILE:")


def parse_save_file(text: str, source: str) -> HauntedInstance:
    """The puzzle of a game saved by Undead (the desktop and phone versions of Tatham's
    collection save to such files): its parameters (``CPARAMS``, the size) and its
    description (``DESC``, the rest of the game ID) make the game ID; the moves played
    since are not read. Each line is ``KEY     :LENGTH:VALUE``, the key eight
    characters long, as midend.c writes it."""
    fields = _save_fields(text, source)
    if fields.get("SAVEFILE", (0, ""))[1] != SAVE_MAGIC:
        raise InputError(f"not a save file of Tatham's puzzles (no '{SAVE_MAGIC}')", source, 1)
    line, game = fields.get("GAME", (1, ""))
    if game != "Undead":
        raise InputError(f"a saved game of {game or 'no game'}, not of Undead", source, line)
    params = fields.get("CPARAMS") or fields.get("PARAMS")
    desc = fields.get("PRIVDESC") or fields.get("DESC")  # the start, as midend.c takes it
    if params is None or desc is None:
        missing = "PARAMS" if params is None else "DESC"
        raise InputError(f"the saved game has no {missing} line", source)
    return parse_game_id(f"{params[1]}:{desc[1]}", source, desc[0])


def _save_fields(text: str, source: str) -> dict[str, tuple[int, str]]:
    """Each key's first value, with the line it is on (a value may hold any printable
    character, ':' and '#' included, so lines are read by their lengths)."""
    fields: dict[str, tuple[int, str]] = {}
    at, line = 0, 1
    text = text.lstrip("\ufeff")
    while True:
        while text[at : at + 1] in ("\r", "\n"):
            line += text[at] == "\n"
            at += 1
        if at >= len(text):
            return fields
        match = SAVE_KEY.match(text, at)
        if match is None:
            raise InputError("expected 'KEY     :LENGTH:VALUE', a saved game's line", source, line)
        end = match.end() + int(match.group(2))
        if end > len(text) or "\n" in text[match.end() : end]:
            raise InputError(f"the {match.group(1).strip()} value is cut short", source, line)
        fields.setdefault(match.group(1).strip(), (line, text[match.end() : end]))
        at = end


# --------------------------------------------------------- janko.at's puzzle files
def is_janko_file(lines: Sequence[tuple[int, str]]) -> bool:
    """janko.at's data blocks open with ``begin`` and hold a ``problem`` grid."""
    return any(line.lower() in ("begin", "problem") for _, line in lines)


def janko_block(lines: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """The lines between ``begin`` and ``end``, if there is a ``begin`` line: what is
    around them (the rest of a page saved from the site) is not the puzzle's."""
    starts = [index for index, (_, line) in enumerate(lines) if line.lower() == "begin"]
    if not starts:
        return list(lines)
    block = lines[starts[0] + 1 :]
    ends = [index for index, (_, line) in enumerate(block) if line.lower() == "end"]
    return list(block[: ends[0]] if ends else block)


def janko_picture(lines: Sequence[tuple[int, str]], source: str) -> list[tuple[int, str]]:
    """The board picture inside janko.at's puzzle data for *Spukschloss* (Haunted
    Mirror Maze), the site Undead's puzzles come from: ``begin``, ``key value`` lines
    (``size 4``, ``ghosts 0``, ``vampires 2``, ``zombies 6``, ``author ...``), a line
    ``problem`` followed by the grid framed by its clues (``- 2 1 1 1 -`` on top, ``-``
    for an empty cell or a corner), maybe ``solution`` and its grid, and ``end``.

    ``lines`` are those of the block (``janko_block``). Returns the totals lines and
    the ``problem`` grid, which is a framed picture (its corners are dropped by
    ``parse_picture``); ``size`` (or ``rows`` and ``cols``) is checked against it
    afterwards. Other keys (author, source, info, ...) and the grids of other sections,
    the ``solution`` among them, are skipped: the puzzle is solved, not read back."""
    picture: list[tuple[int, str]] = []
    section = None
    for number, line in lines:
        if not line[0].isalpha():
            if section is None:
                raise InputError("a grid row before any 'problem' line", source, number)
            if section == "problem":
                picture.append((number, line))
        elif TOTALS_LINE.fullmatch(line):
            picture.append((number, line))
            section = None
        else:
            section = line.split()[0].lower()
    if all(line[0].isalpha() for _, line in picture):  # totals, but no grid row
        raise InputError("janko.at puzzle data without a 'problem' grid", source)
    return picture


def check_janko_size(
    lines: Sequence[tuple[int, str]], instance: HauntedInstance, source: str
) -> None:
    """Refuses the line whose ``size``, ``rows`` or ``cols`` the problem grid does not
    match."""
    sides = {
        "size": {instance.width, instance.height},
        "rows": {instance.height},
        "cols": {instance.width},
    }
    for number, line in lines:
        key, *value = line.split()
        expected = sides.get(key.lower())
        if expected is not None and value != [str(side) for side in expected]:
            grid = f"{instance.width}x{instance.height}"
            message = f"'{line}' does not match the problem grid, which is {grid}"
            raise InputError(message, source, number)


# ------------------------------------------------------------------------ puzzle
_TRAILING_COMMENT = re.compile(r"\s+#")


class Haunted(Puzzle[HauntedInstance, HauntedSolution]):
    name = "haunted"
    title = "Haunted (Simon Tatham's Undead)"
    default_instance = "seed-4x4.txt"
    accepts_inline = True

    def parse(self, text: str, source: str) -> HauntedInstance:
        if is_save_file(text):
            return parse_save_file(text, source)
        if source.endswith(".lp") or "count(" in text or "#const" in text:
            return parse_facts(text, source)
        lines = _content_lines(text)
        if not lines:
            empty = "is empty" if not text.strip() else "holds only comments"
            raise InputError(f"no puzzle found (the file {empty})", source)
        if is_janko_file(lines):
            return self._parse_janko(lines, source)
        if len(lines) > 1:
            if any(GAME_ID.match(line) for _, line in lines):
                raise InputError("expected one game ID, found more lines", source, lines[1][0])
            return parse_picture(lines, source)
        number, game_id = lines[0]
        return parse_game_id(game_id, source, number if source != "<argument>" else None)

    @staticmethod
    def _parse_janko(lines: Sequence[tuple[int, str]], source: str) -> HauntedInstance:
        lines = janko_block(lines)
        instance = parse_picture(janko_picture(lines, source), source)
        check_janko_size(lines, instance, source)
        return instance

    def infeasible(self, instance: HauntedInstance) -> str | None:
        """A clue that its line cannot show: more than the monster cells it crosses, or
        fewer than the given monsters it sees already."""
        for line, clue in enumerate(instance.clues):
            if clue is None:
                continue
            fewest, most = sight_range(instance.grid, line)
            place = clue_place(instance.width, instance.height, line)
            if clue > most:
                crossed = f"its line crosses ({most})"
                return f"the clue {clue} at the {place} asks for more monsters than {crossed}"
            if clue < fewest:
                given = f"the given monsters its line sees ({fewest})"
                return f"the clue {clue} at the {place} asks for fewer monsters than {given}"
        return None

    def facts(self, instance: HauntedInstance) -> list[Symbol]:
        facts: list[Symbol] = []
        for row, col in instance.cells():
            facts.append(Function("cell", [Number(row + 1), Number(col + 1)]))
            given = instance.grid[row][col]
            if given in KINDS:
                facts.append(
                    Function("given", [Number(row + 1), Number(col + 1), Function(KINDS[given])])
                )
        for letter, total in instance.totals.items():
            facts.append(Function("total", [Function(KINDS[letter]), Number(total)]))
        for line, clue in enumerate(instance.clues):
            if clue is None:
                continue
            facts.append(Function("clue", [Number(line), Number(clue)]))
            for (row, col, side), times in sorted(crossings(instance.grid, line).items()):
                position = [Number(line), Number(row + 1), Number(col + 1)]
                facts.append(Function("crossings", [*position, Function(side), Number(times)]))
        return facts

    def decode(self, instance: HauntedInstance, atoms: Sequence[Symbol]) -> HauntedSolution:
        rows = [list(row) for row in instance.grid]
        for atom in atoms:
            if atom.match("monster", 3):
                row, col, kind = atom.arguments
                rows[row.number - 1][col.number - 1] = LETTER[kind.name]
        return HauntedSolution(tuple("".join(row) for row in rows))

    def check(self, instance: HauntedInstance, solution: HauntedSolution) -> list[str]:
        return check_board(instance, solution.grid)

    def to_dict(self, instance: HauntedInstance, solution: HauntedSolution) -> dict[str, Any]:
        return {"grid": list(solution.grid)}

    def from_dict(self, instance: HauntedInstance, data: Any, source: str) -> HauntedSolution:
        return HauntedSolution(string_rows(data, "grid", source))

    def describe(self, instance: HauntedInstance) -> str:
        return f"{instance.width}x{instance.height}"

    def template_context(
        self, instance: HauntedInstance, solution: HauntedSolution
    ) -> dict[str, Any]:
        width, height = instance.width, instance.height
        clues = ["-" if clue is None else str(clue) for clue in instance.clues]
        return {
            "width": width,
            "height": height,
            "grid": solution.grid,
            "givens": instance.grid,
            "totals": instance.totals,
            "top": clues[:width],
            "right": clues[width : width + height],
            "bottom": list(reversed(clues[width + height : 2 * width + height])),
            "left": list(reversed(clues[2 * width + height :])),
            "cell_width": max(2, *(len(clue) for clue in clues)) + 1,
            "names": KINDS,
        }

    # ------------------------------------------------------------------ generator
    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--size", default="6x6", help="WxH (default 6x6)")
        parser.add_argument("--seed", type=int, default=None, help="random seed")
        parser.add_argument(
            "--mirrors",
            type=float,
            default=0.35,
            help="share of cells holding a mirror (default 0.35)",
        )
        parser.add_argument(
            "--picture",
            action="store_true",
            help="print the board picture (clues around the grid) instead of a game ID",
        )
        parser.add_argument(
            "--sparse",
            action="store_true",
            help="(with --picture) leave out every clue that uniqueness does not need",
        )

    def generate(self, args: argparse.Namespace) -> str:
        match = re.fullmatch(r"(\d+)(?:x(\d+))?", args.size)
        if not match:
            raise InputError(f"--size must look like WxH, not '{args.size}'")
        width, height = int(match.group(1)), int(match.group(2) or match.group(1))
        if not (2 <= width <= MAX_SIDE and 2 <= height <= MAX_SIDE):
            raise InputError(f"--size {args.size} is out of range (2 to {MAX_SIDE} per side)")
        if not 0.0 <= args.mirrors < 1.0:
            raise InputError("--mirrors must be a share from 0 up to (not including) 1")
        sparse, picture = getattr(args, "sparse", False), getattr(args, "picture", False)
        if sparse and not picture:
            raise InputError("--sparse needs --picture: a game ID has to give every clue")
        rng = random.Random(args.seed)
        instance, _ = generate_unique(width, height, rng, args.mirrors)
        if sparse:
            instance = without_spare_clues(instance, rng)
        if not picture:
            return encode_game_id(instance)
        header = (
            f"# aspuzzles generate haunted --size {args.size} --mirrors {args.mirrors} "
            f"--seed {args.seed} --picture{' --sparse' if sparse else ''}\n"
        )
        return header + self.picture(instance)

    def picture(self, instance: HauntedInstance) -> str:
        """The puzzle drawn as :func:`parse_picture` reads it: the solved board's layout
        with ``.`` where a monster is to be found."""
        return self.render_text(instance, HauntedSolution(instance.grid))


def check_board(instance: HauntedInstance, board: Sequence[str]) -> list[str]:
    """The rules, checked on a filled board by walking every line of sight afresh."""
    if len(board) != instance.height or any(len(row) != instance.width for row in board):
        return [f"board is not {instance.width}x{instance.height}"]
    problems = _cell_problems(instance, board)
    for letter, total in instance.totals.items():
        placed = sum(row.count(letter) for row in board)
        if placed != total:
            problems.append(f"{placed} {KINDS[letter]}s placed, {total} required")
    if problems:
        return problems
    for line, clue in enumerate(instance.clues):
        seen = _count_seen(board, line)
        if clue is not None and seen != clue:
            problems.append(f"line {line + 1} sees {seen} monsters, its clue says {clue}")
    return problems


def _cell_problems(instance: HauntedInstance, board: Sequence[str]) -> list[str]:
    """Mirrors stay, given monsters stay, every other cell holds a monster."""
    problems = []
    for row, (given_row, filled_row) in enumerate(zip(instance.grid, board, strict=True)):
        for col, (given, filled) in enumerate(zip(given_row, filled_row, strict=True)):
            if (given in MIRRORS or filled in MIRRORS) and given != filled:
                problems.append(f"cell ({row + 1},{col + 1}) changes a mirror")
            elif given in KINDS and filled != given:
                problems.append(f"cell ({row + 1},{col + 1}) must hold the given {given}")
            elif given == "." and filled not in KINDS:
                problems.append(f"cell ({row + 1},{col + 1}) holds no monster")
    return problems


def _count_seen(board: Sequence[str], line: int) -> int:
    """Walk one line of sight, counting what is visible at each step."""
    height, width = len(board), len(board[0])
    turn = {
        ("/", "D"): "L",
        ("/", "U"): "R",
        ("/", "L"): "D",
        ("/", "R"): "U",
        ("\\", "D"): "R",
        ("\\", "U"): "L",
        ("\\", "L"): "U",
        ("\\", "R"): "D",
    }
    step = {"D": (1, 0), "U": (-1, 0), "L": (0, -1), "R": (0, 1)}
    edge = 0
    for edge, length in enumerate((width, height, width, height)):  # noqa: B007
        if line < length:
            break
        line -= length
    index = line
    heading = "DLUR"[edge]
    row, col = [
        (0, index),
        (index, width - 1),
        (height - 1, width - 1 - index),
        (height - 1 - index, 0),
    ][edge]
    behind_mirror, seen = False, 0
    while 0 <= row < height and 0 <= col < width:
        content = board[row][col]
        if content in MIRRORS:
            heading, behind_mirror = turn[content, heading], True
        elif content == "Z" or (content == "G") == behind_mirror:
            seen += 1
        d_row, d_col = step[heading]
        row, col = row + d_row, col + d_col
    return seen


#: How many conflicts a uniqueness proof may take while ``--sparse`` drops clues.
SPARSE_CONFLICTS = 2000


def without_spare_clues(instance: HauntedInstance, rng: random.Random) -> HauntedInstance:
    """The puzzle with every clue left out (in random order) whose absence keeps the
    answer unique. The clues are facts, not assumptions, so each trial solves afresh.
    With few clues left a uniqueness proof can take long, so each trial stops after
    ``SPARSE_CONFLICTS`` conflicts and then keeps its clue: a limit on conflicts, not on
    time, so that a seed makes the same puzzle on every machine."""
    from ..driver import solve_instance

    clues = list(instance.clues)
    lines = [line for line, clue in enumerate(clues) if clue is not None]
    rng.shuffle(lines)
    for line in lines:
        kept, clues[line] = clues[line], None
        trial = replace(instance, clues=tuple(clues))
        limit = (f"--solve-limit={SPARSE_CONFLICTS}",)
        if solve_instance(PUZZLE, trial, unique=True, clingo_args=limit).verdict != "unique":
            clues[line] = kept
    return replace(instance, clues=tuple(clues))


def generate_unique(
    width: int, height: int, rng: random.Random, mirror_share: float
) -> tuple[HauntedInstance, tuple[str, ...]]:
    """A random board with clues from the tracer, made unique by giving monsters;
    returns it with the planted (and only) solution.

    Each round asks the solver for two solutions; while there are two, the monster of
    the planted board at a cell where they differ is given, which removes at least one
    of them. The planted board always stays a solution, so this ends. A last pass then
    removes each given that uniqueness does not need, as Tatham's generators do.
    """
    from ..driver import Session

    cells = [
        "/" if draw < mirror_share / 2 else "\\" if draw < mirror_share else rng.choice("GVZ")
        for draw in (rng.random() for _ in range(width * height))
    ]
    planted = tuple("".join(cells[row * width : (row + 1) * width]) for row in range(height))
    totals = {letter: "".join(planted).count(letter) for letter in "GVZ"}
    clues = clues_of(planted)
    givens = [["." if cell in KINDS else cell for cell in row] for row in planted]

    def board() -> HauntedInstance:
        return HauntedInstance(width, height, totals, tuple("".join(r) for r in givens), clues)

    # One grounding for the whole search: givens are assumptions on monster/3 atoms.
    session = Session(PUZZLE, board())

    def solutions() -> list[tuple[str, ...]]:
        assumed = [
            (Function("monster", [Number(r + 1), Number(c + 1), Function(KINDS[kind])]), True)
            for r, row in enumerate(givens)
            for c, kind in enumerate(row)
            if kind in KINDS
        ]
        return [s.data.grid for s in session.solutions(board(), assumed, models=2)]

    while len(found := solutions()) > 1:
        other = next(grid for grid in found if grid != planted)
        row, col = next(
            (r, c) for r in range(height) for c in range(width) if other[r][c] != planted[r][c]
        )
        givens[row][col] = planted[row][col]
    # Then drop every given that uniqueness does not need (in random order).
    given_cells = [(r, c) for r in range(height) for c in range(width) if givens[r][c] in KINDS]
    rng.shuffle(given_cells)
    for row, col in given_cells:
        givens[row][col] = "."
        if len(solutions()) > 1:
            givens[row][col] = planted[row][col]
    return board(), planted


PUZZLE = Haunted()
