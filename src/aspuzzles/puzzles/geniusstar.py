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
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from ..kit.dice import DiceGenerator, DiceRoll, DiceTiling, Tiling
from ..kit.geometry import DIRECTIONS, Cell, is_up, reflect
from ..kit.geometry import walk as triangle_walk
from ..kit.polyform import Shape, direction_permutations
from ..puzzle import Option

if TYPE_CHECKING:
    import random

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
DICE: tuple[tuple[str, ...], ...] = tuple(
    tuple(die.split())
    for die in (
        "1 5 15 34 44 48",
        "2 4 7 8 9 11 16 17",
        "10 10 27 27 31 31",
        "12 13 23 24 32 33 41 42",
        "18 18 22 22 39 39",
        "19 20 21 28 29 30",
        "25 26 36 37 38 40 45 47",
    )
)


# ------------------------------------------------------------------ the star
@cache
def star_cells() -> tuple[Cell, ...]:
    """Lattice cells of the star in number order: the union of an upward triangle of
    side 6 (rows 0-5) and a downward one (rows 2-7), centred on column 0."""
    cells = []
    for row in range(len(ROW_SIZES)):
        half = max(row if row <= 5 else -1, 7 - row if row >= 2 else -1)
        cells += [(row, col) for col in range(-half, half + 1)]
    return tuple(cells)


def _outline(rows: list[list[dict[str, Any]]]) -> None:
    """Each cell's sides that part it from another piece (or the star's edge), to be
    outlined: pieces are told apart by their outlines, not only by colour. Upward: the
    base (``z``, the cell below), the right (``x``) and left (``y``) sides; downward:
    the top, the left and the right."""
    piece = {cell["number"]: cell["piece"] for row in rows for cell in row}
    for row in rows:
        for cell in row:
            cell["outline"] = {
                side: (other := neighbour(direction, cell["number"])) is None
                or piece[other] != cell["piece"]
                for side, direction in (("z", "Z"), ("x", "X"), ("y", "Y"))
            }


def neighbour(direction: str, number: int) -> int | None:
    """The seed's ``neighbour d n``: the cell across n's side parallel to d, if any."""
    other = reflect(star_cells()[number - 1], direction)
    return PUZZLE.numbers.get(other)


def normalise_triangles(cells: frozenset[Cell]) -> frozenset[Cell]:
    """Translate to the top-left, keeping up and down triangles where they are."""
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    left -= (top + left) % 2
    return frozenset((r - top, c - left) for r, c in cells)


@cache
def hexagons() -> tuple[frozenset[int], ...]:
    """Cell sets of the star's hexagons (the 6 triangles around an inner vertex)."""
    numbers = PUZZLE.numbers
    found = []
    for row, col in star_cells():
        if is_up((row, col)):
            continue  # a hexagon's top middle triangle points down
        cells = [(row + dr, col + dc) for dr in (0, 1) for dc in (-1, 0, 1)]
        if all(cell in numbers for cell in cells):
            found.append(frozenset(numbers[cell] for cell in cells))
    return tuple(sorted(found, key=sorted))


class GeniusStar(DiceTiling):
    name = "geniusstar"
    title = "The Genius Star (polyiamond tiling around dice blockers)"
    default_instance = "roll-1-10-16-29-33-38-39.txt"
    # frumpy (conservative defaults) solved a roll in 1.7 ms against 5.2 ms for clasp's
    # auto preset on a sample of 1,000 rolls under assumptions; without restarts, a
    # census class takes 2.3 ms instead of 2.7-3.1 (see bench/NOTES-geniusstar.md).
    clingo_options = ("--configuration=frumpy", "--restarts=no")
    pieces = PIECES
    dice = DICE

    @staticmethod
    def walk(cell: Cell, steps: Sequence[str]) -> Cell:
        return triangle_walk(cell, steps)

    symmetries = direction_permutations(DIRECTIONS)
    references = ((0, 0), (0, 1))

    def board(self) -> tuple[Cell, ...]:
        return star_cells()

    def reference_of(self, cell: Cell) -> Cell:
        return self.references[0] if is_up(cell) else self.references[1]

    def normalise(self, cells: frozenset[Cell]) -> frozenset[Cell]:
        return normalise_triangles(cells)

    solve_options: ClassVar[tuple[Option, ...]] = (
        *DiceTiling.solve_options,
        Option(
            "--golden", switch=True, help="geniusstar: the two blue triiamonds must form a hexagon"
        ),
    )

    def generator(self) -> StarGenerator:
        return StarGenerator(self)

    def configure(self, instance: DiceRoll, options: dict[str, Any]) -> DiceRoll:
        return super().configure(instance, options)._replace(golden=bool(options.get("golden")))

    def shape_table(self, instance: DiceRoll) -> dict[str, tuple[list[frozenset[int]], int]]:
        table = super().shape_table(instance)
        if instance.golden:  # the blue pair as one hexagon: its 3 splits look alike
            del table[BLUE]
            table[HEXAGON] = (list(hexagons()), 1)
        return table

    def name_cells(self, shape: str, placed: list[int], copies: dict[str, int]) -> dict[int, str]:
        if shape == HEXAGON:  # top row and bottom row: two straight triiamonds
            return {
                **dict.fromkeys(placed[:3], f"{BLUE}a"),
                **dict.fromkeys(placed[3:], f"{BLUE}b"),
            }
        return super().name_cells(shape, placed, copies)

    def shape_of(self, instance: DiceRoll, name: str) -> str | None:
        """On the golden star the blue pair is placed as one hexagon."""
        if instance.golden and name.upper().startswith(BLUE):
            return HEXAGON
        return super().shape_of(instance, name)

    def as_tiling(self, instance: DiceRoll, shapes: dict[int, str]) -> Tiling:
        """The golden star's hexagon drawn as the blue pair it stands for."""
        named = {n: f"{BLUE}a" if shape == HEXAGON else shape for n, shape in shapes.items()}
        return super().as_tiling(instance, named)

    def variant_problems(self, instance: DiceRoll, by_piece: dict[str, set[int]]) -> list[str]:
        blue = by_piece.get(f"{BLUE}a", set()) | by_piece.get(f"{BLUE}b", set())
        if instance.golden and frozenset(blue) not in hexagons():
            return ["golden: the blue triiamonds do not form a hexagon"]
        return []

    def variant_rules(self, instance: DiceRoll) -> bool:
        return instance.golden

    def piece_svg(self, cells: frozenset[Cell], colour: str, letter: str) -> str:
        """The piece's triangles, each with its letter (the legend of the web board)."""
        s, h = 20, 17.32
        left = min(c for _, c in cells)
        width = (max(c for _, c in cells) - left + 2) * s / 2 + 2
        height = (max(r for r, _ in cells) + 1) * h + 2
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:.2f}" '
            f'viewBox="0 0 {width:g} {height:.2f}" font-family="sans-serif">'
        ]
        for row, col in sorted(cells):
            x, y0 = 1 + (col - left + 1) * s / 2, 1 + row * h
            y1 = y0 + h
            base, apex = (y1, y0) if is_up((row, col)) else (y0, y1)
            middle = (2 * base + apex) / 3 + 3
            parts.append(
                f'<polygon points="{x - s / 2:g},{base:.2f} {x + s / 2:g},{base:.2f} '
                f'{x:g},{apex:.2f}" fill="{colour}" stroke="#222"/><text x="{x:g}" '
                f'y="{middle:.2f}" text-anchor="middle" font-size="7">{letter}</text>'
            )
        return "".join(parts) + "</svg>"

    def template_context(self, instance: DiceRoll, solution: Tiling) -> dict[str, Any]:
        rows: list[list[dict[str, Any]]] = [[] for _ in ROW_SIZES]
        for number, (row, col) in enumerate(star_cells(), start=1):
            piece, letter = self.cell_view(instance, solution, number)
            rows[row].append(
                {
                    "number": number,
                    "row": row,
                    "col": col,
                    "up": is_up((row, col)),
                    "piece": piece,
                    "letter": letter,
                    "marked": False,
                }
            )
        _outline(rows)
        return {
            "rows": rows,
            "colours": self.colours(sorted(set(solution.cells.values()))),
            "open": len(solution.cells) + len(instance.blocked) < len(star_cells()),
            "golden": instance.golden,
            "blocked": instance.blocked,
        }

    def draw_text(self, context: dict[str, Any]) -> str:
        """The star row by row, each row indented by its first column; a legend."""
        lines = [
            " " * (row[0]["col"] + 7) + "".join(cell["letter"] for cell in row)
            for row in context["rows"]
        ]
        if context["golden"]:
            lines.append("(golden star: the blue pair C and D forms a hexagon)")
        lines.append(LEGEND + ("  . open" if context["open"] else ""))
        return "\n".join(lines)


#: The pieces' letters and shapes, under the star.
LEGEND = "A M1  B D2  C,D T3 (blue pair)  E T4  F I4  G C4  H I5  I P5  J C5  K L5  # blocker"


class StarGenerator(DiceGenerator):
    """The Genius Star's generator (``aspuzzles generate``)."""

    options: ClassVar[tuple[Option, ...]] = (
        *DiceGenerator.options,
        Option(
            "--golden",
            switch=True,
            help="roll until the dice admit a golden solution (the blue pair a hexagon)",
        ),
    )

    def generate(self, args: argparse.Namespace) -> str:
        if not getattr(args, "golden", False):
            return super().generate(args)
        import random

        from ..generating import first_accepted, judged

        def golden(roll: DiceRoll) -> bool:
            return judged(self.puzzle, roll, portfolio=False).status == "solved"

        def draw(rng: random.Random) -> DiceRoll:
            return self.puzzle.roll(rng)._replace(golden=True)

        found = first_accepted(self.puzzle, draw, golden, random.Random(args.seed), 200, "golden")
        return self.puzzle.describe(found)


PUZZLE = GeniusStar()
