"""Polyforms described by reflection or step paths, placed on any lattice.

A shape is a list of paths from a reference cell; a lattice symmetry permutes the
direction names in every path (the Genius Star seed's idea). Placing a shape means
walking its paths, in every symmetric form, from every cell of a board. Triangular and
square boards share this code: only ``walk`` and the symmetries differ.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import permutations
from typing import NamedTuple

from .geometry import Cell

Walk = Callable[[Cell, Sequence[str]], Cell]


class Shape(NamedTuple):
    """A named polyform: paths (tuples of direction names) from its reference cell."""

    name: str
    paths: tuple[tuple[str, ...], ...]

    @property
    def size(self) -> int:
        return len(self.paths)


def direction_permutations(directions: Sequence[str]) -> list[dict[str, str]]:
    """Every renaming of the directions (for triangles: the 6 symmetries fixing a cell)."""
    return [dict(zip(directions, image, strict=True)) for image in permutations(directions)]


def oriented(
    shape: Shape, symmetries: Iterable[dict[str, str]]
) -> list[tuple[tuple[str, ...], ...]]:
    """The shape's paths under each symmetry, each distinct path set once."""
    seen, forms = set(), []
    for symmetry in symmetries:
        form = tuple(sorted(tuple(symmetry[d] for d in path) for path in shape.paths))
        if form not in seen:
            seen.add(form)
            forms.append(form)
    return forms


def placements(
    shape: Shape,
    board: Iterable[Cell],
    walk: Walk,
    symmetries: list[dict[str, str]],
    reference: Callable[[Cell], Cell] | None = None,
) -> list[frozenset[Cell]]:
    """Every distinct set of board cells the shape can cover, in the order first met
    (forms in ``oriented``'s order, starts in reading order). ``reference`` maps a
    start to a cell of its kind (a triangle pointing the same way): the paths are then
    walked once per form and kind, and shifted to every start of that kind."""
    cells = set(board)
    starts = sorted(cells)
    origins = [reference(start) for start in starts] if reference is not None else starts
    found: dict[frozenset[Cell], None] = {}
    for form in oriented(shape, symmetries):
        shifts: dict[Cell, list[Cell]] = {}
        for start, origin in zip(starts, origins, strict=True):
            if origin not in shifts:
                ends = (walk(origin, path) for path in form)
                shifts[origin] = [(row - origin[0], col - origin[1]) for row, col in ends]
            row, col = start
            placed = frozenset([(row + dr, col + dc) for dr, dc in shifts[origin]])
            if len(placed) == shape.size and placed <= cells:
                found.setdefault(placed)
    return list(found)


def fixed_forms(
    shape: Shape,
    references: Iterable[Cell],
    walk: Walk,
    symmetries: list[dict[str, str]],
    normalise: Callable[[frozenset[Cell]], frozenset[Cell]],
) -> set[frozenset[Cell]]:
    """The differently oriented copies of the shape, each translated by ``normalise``
    (so that two cell sets are the same shape when their normal forms are equal)."""
    return {
        normalise(frozenset(walk(start, path) for path in form))
        for form in oriented(shape, symmetries)
        for start in references
    }
