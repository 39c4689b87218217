"""Finding puzzles by name: a module under :mod:`aspuzzles.puzzles`, or a bare encoding.

A puzzle module (or package, for a puzzle with several concerns) registers itself by
defining ``PUZZLE``; nothing else needs editing to add one. A name with an encoding but
no module is served by :class:`BarePuzzle`. A puzzle's helpers live inside its own
package, so everything directly under :mod:`aspuzzles.puzzles` is a puzzle.
"""

from __future__ import annotations

import importlib
import os
from functools import cache
from typing import Any

from . import puzzles
from .errors import InputError
from .paths import (
    NOT_A_FILE,
    display_path,
    encoding_names,
    find_encoding,
    project_roots,
    special_file,
)
from .puzzle import Puzzle


@cache
def module_puzzles() -> dict[str, Puzzle[Any, Any]]:
    """Every puzzle that has a Python module, by name."""
    found: dict[str, Puzzle[Any, Any]] = {}
    for name in _module_names():
        module = importlib.import_module(f"{puzzles.__name__}.{name}")
        puzzle = getattr(module, "PUZZLE", None)
        if isinstance(puzzle, Puzzle):
            found[puzzle.name] = puzzle
    return found


@cache
def _module_names() -> list[str]:
    """The modules and packages in ``aspuzzles.puzzles`` (what ``pkgutil.iter_modules``
    lists, read from the folder: pkgutil costs a command milliseconds to import), read
    once a process: the installed package does not change under it, and reading the
    folder again cost every ``aspuzzles.solve`` call a quarter of a millisecond."""
    names = []
    for folder in puzzles.__path__:
        for entry in sorted(os.scandir(folder), key=lambda entry: entry.name):
            stem, suffix = os.path.splitext(entry.name)
            if entry.is_dir() and os.path.exists(os.path.join(entry.path, "__init__.py")):
                names.append(entry.name)
            elif suffix == ".py" and stem != "__init__":
                names.append(stem)
    return names


def _module_named(name: str) -> Puzzle[Any, Any] | None:
    """The puzzle of the module named as the puzzle is, imported alone (a command
    about one puzzle need not import the others, some of which are slow to load)."""
    if name not in _module_names():
        return None
    module = importlib.import_module(f"{puzzles.__name__}.{name}")
    puzzle = getattr(module, "PUZZLE", None)
    return puzzle if isinstance(puzzle, Puzzle) and puzzle.name == name else None


def puzzle_names() -> list[str]:
    """Puzzles with a module, then bare encodings, each name once."""
    names = list(module_puzzles())
    return names + [name for name in encoding_names() if name not in names]


def get_puzzle(name: str) -> Puzzle[Any, Any]:
    if puzzle := _module_named(name):
        return puzzle
    if puzzle := module_puzzles().get(name):
        return puzzle
    if find_encoding(name) is not None:
        from .bare import BarePuzzle  # loaded only for a puzzle with no module

        return BarePuzzle(name)
    for root in project_roots():  # an encoding that is a FIFO: said so, not 'unknown'
        candidate = root / "encodings" / f"{name}.lp"
        if (kind := special_file(candidate)) is not None:
            raise InputError(f"{kind}, not a file: {NOT_A_FILE}", display_path(candidate))
    known = ", ".join(puzzle_names())
    if not name.strip():
        raise InputError(f"no puzzle named (known: {known})")
    raise InputError(f"unknown puzzle '{name}' (known: {known}; or add encodings/{name}.lp)")
