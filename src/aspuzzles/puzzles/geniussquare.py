"""The Genius Square: 7 dice block cells of a 6x6 grid; 9 polyominoes fill the rest.

Rows are A-F from the top and columns 1-6, so cells read ``A1`` .. ``F6``. The pieces
(monomino, domino, two trominoes, the tetrominoes I O T S L) cover the 29 free cells,
turned and flipped freely. Everything but the board and the pieces is shared with the
Genius Star (:mod:`aspuzzles.kit.dice`), encoding included.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..kit.dice import DiceRoll, DiceTiling, Tiling
from ..kit.geometry import Cell, square_symmetries, square_walk
from ..kit.polyform import Shape

SIDE = 6
#: The cells in numbering order (row by row).
BOARD = tuple((row, col) for row in range(SIDE) for col in range(SIDE))
ROWS = "ABCDEF"

PIECES: tuple[tuple[Shape, str, int], ...] = (
    (Shape("M1", ((),)), "A", 1),  # monomino
    (Shape("D2", ((), ("E",))), "B", 1),  # domino
    (Shape("I3", ((), ("E",), ("E", "E"))), "C", 1),  # straight
    (Shape("L3", ((), ("E",), ("S",))), "D", 1),  # corner
    (Shape("I4", ((), ("E",), ("E", "E"), ("E", "E", "E"))), "E", 1),
    (Shape("O4", ((), ("E",), ("S",), ("E", "S"))), "F", 1),
    (Shape("T4", ((), ("E",), ("E", "E"), ("E", "S"))), "G", 1),
    (Shape("S4", ((), ("E",), ("S",), ("S", "W"))), "H", 1),
    (Shape("L4", ((), ("S",), ("S", "S"), ("S", "S", "E"))), "I", 1),
)

DICE: tuple[tuple[str, ...], ...] = tuple(
    tuple(die.split())
    for die in (
        "A2 B2 C2 A3 B1 B3",
        "A4 B5 C6 C5 D6 F6",
        "C3 D3 E3 B4 C4 D4",
        "E1 F2 F2 B6 A5 A5",
        "F1 F1 F1 A6 A6 A6",
        "A1 C1 D1 D2 E2 F3",
        "E4 F4 E5 F5 D5 E6",
    )
)


class GeniusSquare(DiceTiling):
    name = "geniussquare"
    title = "The Genius Square (polyomino tiling around dice blockers)"
    default_instance = "roll-b2-d6-c3-f2-f1-d2-f5.txt"
    # As the star's: a search this small loses more to restarts than they save (a roll
    # under assumptions 0.73 ms instead of 1.0; bench/NOTES-geniusstar.md).
    clingo_options = ("--configuration=frumpy", "--restarts=no")
    pieces = PIECES
    dice = DICE

    @staticmethod
    def walk(cell: Cell, steps: Sequence[str]) -> Cell:
        return square_walk(cell, steps)

    symmetries = square_symmetries()
    references = ((0, 0),)

    def board(self) -> tuple[Cell, ...]:
        return BOARD

    def label(self, number: int) -> str:
        row, col = divmod(number - 1, SIDE)
        return f"{ROWS[row]}{col + 1}"

    def normalise(self, cells: frozenset[Cell]) -> frozenset[Cell]:
        top, left = min(r for r, _ in cells), min(c for _, c in cells)
        return frozenset((r - top, c - left) for r, c in cells)

    def template_context(self, instance: DiceRoll, solution: Tiling) -> dict[str, Any]:
        grid = []
        for row in range(SIDE):
            cells = []
            for number in range(row * SIDE + 1, row * SIDE + SIDE + 1):
                piece, letter = self.cell_view(instance, solution, number)
                cells.append(
                    {
                        "number": number,
                        "label": self.label(number),
                        "piece": piece,
                        "letter": letter,
                        "marked": False,
                    }
                )
            grid.append(cells)
        return {
            "grid": grid,
            "rows": ROWS,
            "side": SIDE,
            "colours": self.colours(sorted(set(solution.cells.values()))),
            "open": len(solution.cells) + len(instance.blocked) < SIDE * SIDE,
        }

    def piece_svg(self, cells: frozenset[Cell], colour: str, letter: str) -> str:
        """The piece's squares, each with its letter (the legend of the web board)."""
        s = 14
        width = (max(c for _, c in cells) + 1) * s + 2
        height = (max(r for r, _ in cells) + 1) * s + 2
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif">'
        ]
        for r, c in sorted(cells):
            x, y = 1 + c * s, 1 + r * s
            parts.append(
                f'<rect x="{x}" y="{y}" width="{s}" height="{s}" fill="{colour}" '
                f'stroke="#222"/><text x="{x + s / 2}" y="{y + s - 3.5}" '
                f'text-anchor="middle" font-size="9">{letter}</text>'
            )
        return "".join(parts) + "</svg>"

    def draw_text(self, context: dict[str, Any]) -> str:
        """The board under its column numbers, each row after its letter; a legend."""
        lines = ["   " + " ".join(str(col) for col in range(1, SIDE + 1))]
        for label, row in zip(context["rows"], context["grid"], strict=False):
            lines.append(f"{label}  " + " ".join(cell["letter"] for cell in row))
        lines.append(LEGEND + ("  . open" if context["open"] else ""))
        return "\n".join(lines)


#: The pieces' letters and shapes, under the board.
LEGEND = "A M1  B D2  C I3  D L3  E I4  F O4  G T4  H S4  I L4  # blocker"

PUZZLE = GeniusSquare()
