"""janko.at's puzzle files: a board picture inside its ``[problem]`` block."""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import InputError
from .model import HauntedInstance
from .picture import TOTALS_LINE


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
