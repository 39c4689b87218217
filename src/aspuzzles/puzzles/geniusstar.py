"""The Genius Star: tile a six-pointed star of 48 triangles around 7 dice blockers.

Seven dice choose 7 blocked cells; the 11 pieces (polyiamonds of 1 to 5 triangles, two
of them identical straight triiamonds, the "blue pair") cover the other 41 cells, each
used once, rotated and flipped freely. The golden-star challenge also asks that the two
blue triiamonds together form a hexagon.

Python computes the star, its reflection neighbours, and every placement of every
piece (walking the pieces' reflection paths under the 6 permutations of X, Y, Z);
the encoding states the exact cover.
"""

from __future__ import annotations

import argparse
import logging
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from itertools import permutations, product
from typing import Any

from clingo import Function, Number, Symbol

from ..errors import InputError
from ..geometry import DIRECTIONS, Cell, is_up, reflect, walk
from ..polyform import Shape, direction_permutations, fixed_orientations, placements
from ..puzzle import Puzzle

log = logging.getLogger("aspuzzles.geniusstar")

#: Row lengths of the star, top to bottom (cells are numbered row by row from 1).
ROW_SIZES = (1, 3, 11, 9, 9, 11, 3, 1)

#: The pieces: name, letter in drawings, paths from a reference cell, multiplicity.
PIECES: tuple[tuple[Shape, str, int], ...] = (
    (Shape("M1", ((),)), "A", 1),  # monoiamond
    (Shape("D2", ((), ("X",))), "B", 1),  # diamond
    (Shape("T3", ((), ("X",), ("X", "Y"))), "C", 2),  # straight (blue)
    (Shape("T4", ((), ("X",), ("Y",), ("Z",))), "E", 1),  # triangle
    (Shape("I4", ((), ("X",), ("X", "Y"), ("X", "Y", "X"))), "F", 1),  # straight
    (Shape("C4", ((), ("X",), ("X", "Y"), ("X", "Y", "Z"))), "G", 1),  # chevron
    (Shape("I5", ((), ("X",), ("X", "Y"), ("X", "Y", "X"), ("X", "Y", "X", "Y"))), "H", 1),
    (Shape("P5", ((), ("X",), ("Y",), ("Z",), ("X", "Y"))), "I", 1),  # triangle + tail
    (Shape("C5", ((), ("X",), ("X", "Y"), ("Z",), ("X", "Y", "Z"))), "J", 1),  # cup
    (Shape("L5", ((), ("X",), ("X", "Y"), ("X", "Y", "X"), ("Z",))), "K", 1),  # hook
)
BLUE = "T3"
HEXAGON = "H6"  # the golden star's blue hexagon, solved as one piece

#: The dice: the cells each die can block (one face per die is rolled).
DICE: tuple[tuple[int, ...], ...] = (
    (1, 5, 15, 34, 44, 48),
    (2, 4, 7, 8, 9, 11, 16, 17),
    (10, 10, 27, 27, 31, 31),
    (12, 13, 23, 24, 32, 33, 41, 42),
    (18, 18, 22, 22, 39, 39),
    (19, 20, 21, 28, 29, 30),
    (25, 26, 36, 37, 38, 40, 45, 47),
)
SYMMETRIES = direction_permutations(DIRECTIONS)


# ------------------------------------------------------------------ the star
@cache
def star_cells() -> tuple[Cell, ...]:
    """Lattice cells of the star in number order: the union of an upward triangle of
    side 6 (rows 0-5) and a downward one (rows 2-7), centred on column 0."""
    cells = []
    for row in range(len(ROW_SIZES)):
        half = max(row if row <= 5 else -1, 7 - row if row >= 2 else -1)
        cells += [(row, col) for col in range(-half, half + 1)]
    sizes = tuple(sum(1 for r, _ in cells if r == row) for row in range(len(ROW_SIZES)))
    assert sizes == ROW_SIZES, sizes
    return tuple(cells)


@cache
def cell_number() -> dict[Cell, int]:
    return {cell: number for number, cell in enumerate(star_cells(), start=1)}


def neighbour(direction: str, number: int) -> int | None:
    """The seed's ``neighbour d n``: the cell across n's side parallel to d, if any."""
    other = reflect(star_cells()[number - 1], direction)
    return cell_number().get(other)


@cache
def piece_placements() -> dict[str, list[frozenset[int]]]:
    """Every placement (set of cell numbers) of each piece shape on the whole star."""
    numbers = cell_number()
    return {
        shape.name: [
            frozenset(numbers[c] for c in cells)
            for cells in placements(shape, numbers, walk, SYMMETRIES)
        ]
        for shape, _, _ in PIECES
    }


def orientation_count(shape: Shape) -> int:
    """Differently oriented copies of a shape on the open lattice (up to translation)."""
    return fixed_orientations(shape, [(0, 0), (0, 1)], walk, SYMMETRIES, _normalise)


def _normalise(cells: frozenset[Cell]) -> frozenset[Cell]:
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    left -= (top + left) % 2  # keep up and down triangles where they are
    return frozenset((r - top, c - left) for r, c in cells)


@cache
def hexagons() -> frozenset[frozenset[int]]:
    """Cell sets of the star's hexagons (the 6 triangles around an inner vertex)."""
    numbers = cell_number()
    found = set()
    for row, col in numbers:
        if is_up((row, col)):
            continue  # a hexagon's top middle triangle points down
        cells = [(row + dr, col + dc) for dr in (0, 1) for dc in (-1, 0, 1)]
        if all(cell in numbers for cell in cells):
            found.add(frozenset(numbers[cell] for cell in cells))
    return frozenset(found)


# ------------------------------------------------------------------ instances
@dataclass(frozen=True)
class StarInstance:
    """A roll: the 7 blocked cell numbers; ``golden`` asks for the golden challenge."""

    blocked: tuple[int, ...]
    golden: bool = False


@dataclass(frozen=True)
class StarSolution:
    """Cell number -> piece name (``T3a``/``T3b`` for the blue pair), blockers omitted."""

    cells: dict[int, str]


def parse_roll(text: str, source: str, strict: bool = False) -> StarInstance:
    """Seven distinct cell numbers 1-48 (spaces or commas; ``#`` comments)."""
    words: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines() or [text], start=1):
        words += [(number, word) for word in re.split(r"[\s,]+", line.split("#")[0]) if word]
    line_of = (lambda n: n) if source != "<argument>" else (lambda _n: None)
    cells = []
    for number, word in words:
        if not word.isdigit() or not 1 <= int(word) <= 48:
            raise InputError(f"'{word}' is not a cell number from 1 to 48", source, line_of(number))
        if int(word) in cells:
            raise InputError(f"cell {word} is blocked twice", source, line_of(number))
        cells.append(int(word))
    if len(cells) != 7:
        raise InputError(f"a roll blocks 7 cells, got {len(cells)}", source)
    if not dice_can_roll(cells):
        message = f"no roll of the dice blocks cells {' '.join(map(str, sorted(cells)))}"
        if strict:
            raise InputError(message + " (one face per die)", source)
        log.warning("%s: %s; solving it anyway", source, message)
    return StarInstance(tuple(sorted(cells)))


def dice_can_roll(cells: Sequence[int]) -> bool:
    """Whether one face of each die gives exactly these cells."""
    return any(
        all(cell in die for cell, die in zip(order, DICE, strict=True))
        for order in permutations(cells)
    )


def all_rolls() -> list[tuple[int, ...]]:
    """Every distinct roll of the seven dice (165,888), each sorted."""
    faces = [sorted(set(die)) for die in DICE]
    return sorted({tuple(sorted(roll)) for roll in product(*faces)})


def roll_dice(rng: random.Random) -> tuple[int, ...]:
    return tuple(sorted(rng.choice(die) for die in DICE))


# ------------------------------------------------------------------ the puzzle
class GeniusStar(Puzzle[StarInstance, StarSolution]):
    name = "geniusstar"
    title = "The Genius Star (polyiamond tiling around dice blockers)"
    default_instance = "roll-1-10-16-29-33-38-39.txt"
    accepts_inline = True
    # frumpy (conservative defaults) solved a roll in 1.7 ms against 5.2 ms for clasp's
    # auto preset on a sample of 1,000 rolls under assumptions (see README).
    clingo_options = ("--configuration=frumpy",)

    def parse(self, text: str, source: str) -> StarInstance:
        return parse_roll(text, source)

    def add_solve_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--golden",
            action="store_true",
            help="geniusstar: the two blue triiamonds must form a hexagon",
        )
        parser.add_argument(
            "--strict",
            action="store_true",
            help="geniusstar: reject cells no roll of the dice gives",
        )

    def configure(self, instance: StarInstance, options: dict[str, Any]) -> StarInstance:
        if options.get("strict") and not dice_can_roll(instance.blocked):
            raise InputError(
                f"no roll of the dice blocks cells {instance.blocked} (one face per die)"
            )
        return replace(instance, golden=bool(options.get("golden")))

    def facts(self, instance: StarInstance) -> list[Symbol]:
        # An empty roll is a sweep's base: keep every placement, blockers come later.
        return star_facts(instance.blocked, instance.golden, every_placement=not instance.blocked)

    def decode(self, instance: StarInstance, atoms: Sequence[Symbol]) -> StarSolution:
        table = dict(piece_placements())
        table[HEXAGON] = sorted(hexagons(), key=sorted)
        cells: dict[int, str] = {}
        blue = 0
        for atom in sorted(atoms):
            if atom.match("use", 2):
                shape, index = atom.arguments[0].name.upper(), atom.arguments[1].number
                placed = sorted(table[shape][index])
                if shape == HEXAGON:  # top row and bottom row: two straight triiamonds
                    cells.update({cell: f"{BLUE}a" for cell in placed[:3]})
                    cells.update({cell: f"{BLUE}b" for cell in placed[3:]})
                    continue
                name = shape
                if shape == BLUE:
                    name, blue = f"{BLUE}{'ab'[blue % 2]}", blue + 1
                cells.update({cell: name for cell in placed})
        return StarSolution(dict(sorted(cells.items())))

    def check(self, instance: StarInstance, solution: StarSolution) -> list[str]:
        return check_tiling(instance, solution.cells)

    def to_dict(self, instance: StarInstance, solution: StarSolution) -> dict[str, Any]:
        return {"cells": {str(cell): name for cell, name in solution.cells.items()}}

    def describe(self, instance: StarInstance) -> str:
        return " ".join(map(str, instance.blocked))

    def template_context(self, instance: StarInstance, solution: StarSolution) -> dict[str, Any]:
        letters = {shape.name: letter for shape, letter, _ in PIECES}
        letters[f"{BLUE}a"], letters[f"{BLUE}b"] = "C", "D"
        rows: list[list[dict[str, Any]]] = [[] for _ in ROW_SIZES]
        for number, (row, col) in enumerate(star_cells(), start=1):
            piece = solution.cells.get(number)
            rows[row].append(
                {
                    "number": number,
                    "row": row,
                    "col": col,
                    "up": is_up((row, col)),
                    "piece": piece or "blocker",
                    "letter": letters.get(piece, "#"),
                }
            )
        names = sorted({cell["piece"] for row in rows for cell in row})
        colours = {
            name: f"hsl({(i * 137.508) % 360:.0f}, 62%, 64%)" for i, name in enumerate(names)
        }
        colours["blocker"] = "#333"
        return {
            "rows": rows,
            "colours": colours,
            "golden": instance.golden,
            "blocked": instance.blocked,
        }

    # sweeps: every roll on one grounding, blockers set through externals
    def sweep_base(self, options: dict[str, Any]) -> StarInstance:
        return StarInstance((), golden=bool(options.get("golden")))

    def sweep_variants(self, options: dict[str, Any]) -> list[tuple[str, StarInstance]]:
        golden = bool(options.get("golden"))
        return [(" ".join(map(str, roll)), StarInstance(roll, golden)) for roll in all_rolls()]

    def sweep_assumptions(self, variant: StarInstance) -> list[tuple[Symbol, bool]]:
        blocked = set(variant.blocked)
        return [(Function("blocked", [Number(n)]), n in blocked) for n in range(1, 49)]

    # a roll generator: ``aspuzzles generate geniusstar`` rolls the dice
    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--seed", type=int, default=None, help="random seed")

    def generate(self, args: argparse.Namespace) -> str:
        return " ".join(map(str, roll_dice(random.Random(args.seed))))


def star_facts(blocked: Sequence[int], golden: bool, every_placement: bool = False) -> list[Symbol]:
    """Cells, blockers, and the placements that avoid them (all of them for a sweep,
    where blockers are set per roll through the encoding's externals)."""
    blocked_set = set(blocked)
    facts = [Function("cell", [Number(n)]) for n in range(1, len(star_cells()) + 1)]
    facts += [Function("blocked", [Number(n)]) for n in sorted(blocked_set)]
    table = dict(piece_placements())
    counts = {shape.name: count for shape, _, count in PIECES}
    if golden:  # the blue pair as one hexagon: its three splits look alike, count once
        del table[BLUE], counts[BLUE]
        table[HEXAGON], counts[HEXAGON] = sorted(hexagons(), key=sorted), 1
    for name, cells_list in table.items():
        key = Function(name.lower())
        facts.append(Function("shape", [key, Number(counts[name])]))
        for index, cells in enumerate(cells_list):
            if not every_placement and cells & blocked_set:
                continue
            facts += [Function("covers", [key, Number(index), Number(n)]) for n in sorted(cells)]
    return facts


def check_tiling(instance: StarInstance, cells: dict[int, str]) -> list[str]:
    """Every free cell covered once by pieces of the right shapes; blockers free."""
    problems = []
    free = set(range(1, 49)) - set(instance.blocked)
    if set(cells) != free:
        missing, extra = sorted(free - set(cells)), sorted(set(cells) - free)
        problems.append(f"uncovered cells {missing}, covered blockers {extra}")
    by_piece: dict[str, set[int]] = {}
    for cell, name in cells.items():
        by_piece.setdefault(name, set()).add(cell)
    expected = {shape.name: count for shape, _, count in PIECES}
    shapes = {shape.name: shape for shape, _, _ in PIECES}
    seen: dict[str, int] = {}
    for name, members in by_piece.items():
        shape_name = name[:2]
        seen[shape_name] = seen.get(shape_name, 0) + 1
        if shape_name not in shapes or not _is_shape(members, shapes[shape_name]):
            problems.append(f"piece {name} {sorted(members)} is not a {shape_name}")
    if seen != expected:
        problems.append(f"pieces used {seen}, expected {expected}")
    if instance.golden:
        blue = by_piece.get(f"{BLUE}a", set()) | by_piece.get(f"{BLUE}b", set())
        if frozenset(blue) not in hexagons():
            problems.append("golden: the blue triiamonds do not form a hexagon")
    return problems


def _is_shape(members: set[int], shape: Shape) -> bool:
    """Whether the cells are the shape in some orientation (checked on the open lattice,
    by comparing normalised cell sets, not by the placement table)."""
    cells = frozenset(star_cells()[n - 1] for n in members)
    target = _normalise(cells)
    for start in ((0, 0), (0, 1)):
        for symmetry in SYMMETRIES:
            form = frozenset(walk(start, [symmetry[d] for d in path]) for path in shape.paths)
            if _normalise(form) == target:
                return True
    return False


PUZZLE = GeniusStar()
