"""Grids drawn as rows of text in an instance's comments, read as facts.

A comment line ``% grid NAME`` opens a picture; the comment lines right after it are
its rows, the first row 1, each character a column from 1 (or, where a row holds
spaces, each word)::

    % grid region
    % aabb
    % aabb
    % ccdd
    % ccdd

is read as ``region(1,1,a). region(1,2,a). ... region(4,4,d).``. A digit (or a word of
digits) is a number, a lowercase letter (or a word that starts with one) a constant,
any other character a string (``"A"``, ``"#"``); ``.`` is an empty place, no fact. The
picture ends at the first line that is not a comment, or a comment with nothing in it.
Every row has as many columns as the first (a ragged picture is refused at its row).

The facts are written on the rows' own lines, before the comment: line numbers stay
those of the file, so that a clue of the picture is named by its row's line.
"""

from __future__ import annotations

import re

from ..errors import InputError

#: ``% grid NAME``: one word after ``grid`` (a comment of prose, ``% grid of 8x8``,
#: is no header).
_HEADER = re.compile(r"^\s*%\s*grid(?:\s+(\S+))?\s*$")
_NAME = re.compile(r"[a-z][A-Za-z0-9_']*")
_NUMBER = re.compile(r"-?[0-9]+")
#: What clingo's integers hold (a larger number would wrap around).
_LARGEST = 2**31 - 1


def expand_grids(text: str, source: str) -> str:
    """The text with every picture's rows read into facts (see the module's
    docstring); text without a picture is returned as it is."""
    if "grid" not in text:
        return text
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        header = _HEADER.match(lines[index])
        if header is None:
            index += 1
            continue
        name = header.group(1) or ""
        if not _NAME.fullmatch(name):
            raise InputError(
                "'% grid' needs a predicate's name, as '% grid region'", source, index + 1
            )
        index = _read_rows(lines, index + 1, name, source)
    return "\n".join(lines)


def _read_rows(lines: list[str], start: int, name: str, source: str) -> int:
    """The rows of a picture from ``start`` written as facts in place; the index of
    the line after the picture."""
    width = None
    row = 0
    index = start
    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        if not stripped.startswith("%") or _HEADER.match(line):
            break
        content = stripped[1:].strip()
        if not content:
            break
        row += 1
        cells = content.split() if any(c.isspace() for c in content) else list(content)
        if width is None:
            width = len(cells)
        elif len(cells) != width:
            raise InputError(
                f"row {row} of the grid '{name}' has {len(cells)} columns, the first row "
                f"{width}: every row needs as many",
                source,
                index + 1,
            )
        facts = [
            f"{name}({row},{col},{_term(cell, source, index + 1)})."
            for col, cell in enumerate(cells, 1)
            if cell != "."
        ]
        lines[index] = " ".join([*facts, line.lstrip()])
        index += 1
    if row == 0:
        raise InputError(
            f"the grid '{name}' has no rows: write them as comment lines right after it",
            source,
            start,
        )
    return index


def _term(cell: str, source: str, line: int) -> str:
    """A picture's cell as a term: a number, a constant, or else a string."""
    if _NUMBER.fullmatch(cell):
        if abs(int(cell)) > _LARGEST:
            raise InputError(
                f"the number {cell} is larger than clingo's integers hold", source, line
            )
        return str(int(cell))
    if _NAME.fullmatch(cell):
        return cell
    escaped = cell.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'
