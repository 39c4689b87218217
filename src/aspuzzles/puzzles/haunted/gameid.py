"""Tatham's game IDs (``WxH:G,V,Z,GRID,CLUES``), read and written, and links to his web
page that carry one.
"""

from __future__ import annotations

import re
from typing import Any

from ...errors import InputError, is_number
from .model import KINDS, MAX_SIDE, MIRRORS, HauntedInstance
from .sight import clue_place

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
    return validated(width, height, totals, grid, tuple(clues), fail)


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
            raise fail(f"bad character {char!r} at position {position} of the grid")
    if len(cells) != width * height:
        relation = "too short" if len(cells) < width * height else "too long"
        raise fail(
            f"grid is {relation}: it describes {len(cells)} cells, expected {width * height}"
        )
    return tuple("".join(cells[row * width : (row + 1) * width]) for row in range(height))


def validated(
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
