"""The cake in a person's terms, for hints, mistakes and explanations.

A person cuts a cake one line at a time: an entry is the side between two neighbouring
cells, cut or joined (``side(C,D,cut)``, ``side(C,D,joined)``, defined in the
encoding's ``hints`` part). The clues are each cell's topping and each topping's share
per piece; dropping a topping leaves the cell's topping open (any kind), dropping a
share lets pieces hold any number of that topping.

Progress is the JSON that ``aspuzzles check`` reads, with cells left open:
``{"pieces": ["AAB.", ...]}`` (``.``, ``?`` or ``null`` in a list of cells for an open
cell). Two labelled neighbours with the same letter are joined, with different letters
cut; letters name nothing else (pieces are unlabelled), so two cells with one letter
that do not touch say nothing.

As JSON (rows and columns from 1, row 1 at the top): an entry is
``{"cells": [[1, 2], [1, 3]], "side": "cut"}`` (or ``"joined"``); a topping is
``{"row": 2, "col": 3, "topping": "1"}``, a share ``{"topping": "1", "per_piece": 2}``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from clingo import Function, Number, Symbol

from ...capabilities import Hints
from ...errors import InputError
from ...kit.geometry import Cell, SquareGrid
from ...puzzle import progress_json
from ...render import render_template

if TYPE_CHECKING:
    from . import CakeInstance, CakeSolution

#: The atoms a player fills in: the side between two neighbouring cells.
ENTRY = ("side", 3)
#: The facts that are clues (``given/2`` stands for ``topping/2`` in hints).
CLUES = frozenset({"given", "quota"})
OPEN = frozenset(".?")


def side_atom(first: int, second: int, joined: bool) -> Symbol:
    low, high = sorted((first, second))
    return Function("side", [Number(low), Number(high), Function("joined" if joined else "cut")])


def side_cells(grid: SquareGrid, entry: Symbol) -> tuple[Cell, Cell]:
    first, second, _ = entry.arguments
    return grid.cell(first.number), grid.cell(second.number)


def is_cut(entry: Symbol) -> bool:
    return entry.arguments[2].name == "cut"


def entry_data(grid: SquareGrid, entry: Symbol) -> dict[str, Any]:
    cells = side_cells(grid, entry)
    return {
        "cells": [[row + 1, col + 1] for row, col in cells],
        "side": entry.arguments[2].name,
    }


def entry_text(grid: SquareGrid, entry: Symbol) -> str:
    (r1, c1), (r2, c2) = side_cells(grid, entry)
    where = f"({r1 + 1},{c1 + 1}) and ({r2 + 1},{c2 + 1})"
    return f"a cut between {where}" if is_cut(entry) else f"{where} in one piece"


def entry_holds(grid: SquareGrid, pieces: tuple[str, ...], entry: Symbol) -> bool:
    (r1, c1), (r2, c2) = side_cells(grid, entry)
    return (pieces[r1][c1] != pieces[r2][c2]) == is_cut(entry)


def clue_data(grid: SquareGrid, fact: Symbol) -> dict[str, Any]:
    if fact.name == "quota":
        kind, share = fact.arguments
        return {"topping": _kind(kind), "per_piece": share.number}
    index, kind = fact.arguments
    row, col = grid.cell(index.number)
    return {"row": row + 1, "col": col + 1, "topping": _kind(kind)}


def clue_text(grid: SquareGrid, fact: Symbol, names: dict[str, str]) -> str:
    if fact.name == "quota":
        kind, share = fact.arguments
        return f"{share.number} x {_named(_kind(kind), names)} in every piece"
    index, kind = fact.arguments
    row, col = grid.cell(index.number)
    return f"the {_named(_kind(kind), names)} at ({row + 1},{col + 1})"


def _kind(symbol: Symbol) -> str:
    return str(symbol.number) if symbol.type.name == "Number" else symbol.string


def _named(kind: str, names: dict[str, str]) -> str:
    name = names.get(kind)
    return f"{name} ({kind})" if name else f"'{kind}'"


def hint_facts(facts: list[Symbol]) -> list[Symbol]:
    """The puzzle's facts with each ``topping(C,T)`` turned into the clue ``given(C,T)``,
    and the kinds listed, so that a cell whose clue is dropped may hold any kind (the
    encoding's hints part chooses one)."""
    kinds = sorted({fact.arguments[1] for fact in facts if fact.match("topping", 2)})
    kept = [fact for fact in facts if not fact.match("topping", 2)]
    given = [Function("given", fact.arguments) for fact in facts if fact.match("topping", 2)]
    return kept + [Function("kind", [kind]) for kind in kinds] + given


# ---------------------------------------------------------------------------- progress
def parse_progress(grid: SquareGrid, text: str, source: str) -> list[Symbol]:
    """The sides a player has decided: from the labels of the cells filled in so far."""
    data = progress_json(text, source)
    rows = data.get("pieces") if isinstance(data, dict) else None
    if not isinstance(rows, list) or len(rows) != grid.rows:
        raise InputError(f'expected {{"pieces": [...]}} with {grid.rows} rows', source)
    labels = [_progress_row(row, number, grid.cols, source) for number, row in enumerate(rows, 1)]
    entries = []
    for first, second in _neighbour_pairs(grid):
        here, there = labels[first[0]][first[1]], labels[second[0]][second[1]]
        if here is not None and there is not None:
            entries.append(side_atom(grid.index(first), grid.index(second), here == there))
    return entries


def _progress_row(row: Any, number: int, cols: int, source: str) -> list[str | None]:
    cells = list(row) if isinstance(row, str) else row
    if not isinstance(cells, list) or len(cells) != cols:
        raise InputError(f"row {number} of the pieces must have {cols} cells", source)
    labels: list[str | None] = []
    for cell in cells:
        if cell is None or cell in OPEN:
            labels.append(None)
        elif isinstance(cell, str) and len(cell) == 1 and cell.isalnum():
            labels.append(cell)
        else:
            raise InputError(f"row {number}: a cell is {cell!r}, not a piece letter or .", source)
    return labels


def _neighbour_pairs(grid: SquareGrid) -> Iterator[tuple[Cell, Cell]]:
    """Each pair of neighbouring cells once, the earlier cell first."""
    for cell in grid.cells():
        for other in grid.neighbours(cell):
            if grid.index(other) > grid.index(cell):
                yield cell, other


# ----------------------------------------------------------------------------- drawing
def draw_progress(
    grid: SquareGrid,
    toppings: tuple[str, ...],
    entries: list[Symbol],
    marked: list[Symbol],
    form: str,
) -> str:
    """The cake with the sides decided so far: cuts drawn, joins left open, undecided
    sides dotted; marked sides (the hint) and marked toppings (its clues) stand out."""
    decided = {tuple(sorted(side_cells(grid, e))): e for e in entries}
    marked_sides = {tuple(sorted(side_cells(grid, e))) for e in marked if e.match(*ENTRY)}
    marked_cells = {
        grid.cell(fact.arguments[0].number) for fact in marked if fact.match("given", 2)
    }
    sides = {}
    for pair in _neighbour_pairs(grid):
        entry = decided.get(pair)
        state = "open" if entry is None else "cut" if is_cut(entry) else "joined"
        sides[pair] = (state, pair in marked_sides)
    if form == "svg":
        return render_template(
            "cake-progress.svg.j2",
            rows=grid.rows,
            cols=grid.cols,
            toppings=toppings,
            sides=sides,
            marked_cells=marked_cells,
        )
    return "\n".join(_text_lines(grid, toppings, sides, marked_cells)) + "\n"


#: Text for a side between horizontal neighbours (one character) and vertical ones
#: (three), by state and whether it is marked.
VERTICAL = {("open", False): "┊", ("cut", False): "│", ("joined", False): " "}
VERTICAL |= {("open", True): "?", ("cut", True): "┃", ("joined", True): "="}
HORIZONTAL = {("open", False): "┄┄┄", ("cut", False): "───", ("joined", False): "   "}
HORIZONTAL |= {("open", True): " ? ", ("cut", True): "━━━", ("joined", True): " ‖ "}


def _text_lines(
    grid: SquareGrid,
    toppings: tuple[str, ...],
    sides: dict[tuple[Cell, Cell], tuple[str, bool]],
    marked_cells: set[Cell],
) -> list[str]:
    """Toppings three characters a cell (``[1]`` where a clue is marked), sides
    between them, the cake's rim around."""
    rim = "─" * (4 * grid.cols - 1)
    lines = ["┌" + rim + "┐"]
    for row in range(grid.rows):
        text = "│"
        for col in range(grid.cols):
            topping = toppings[row][col]
            text += f"[{topping}]" if (row, col) in marked_cells else f" {topping} "
            if col + 1 < grid.cols:
                text += VERTICAL[sides[(row, col), (row, col + 1)]]
        lines.append(text + "│")
        if row + 1 < grid.rows:
            below = [HORIZONTAL[sides[(row, col), (row + 1, col)]] for col in range(grid.cols)]
            lines.append("│" + " ".join(below) + "│")
    lines.append("└" + rim + "┘")
    return lines


class CakeHints(Hints["CakeInstance", "CakeSolution"]):
    """The hints slot of the puzzle (see ``capabilities.Hints``)."""

    entry_kinds = (("side", 3),)

    def __init__(self, puzzle: Any) -> None:
        self.puzzle = puzzle

    def hint_facts(self, instance: CakeInstance) -> list[Symbol]:
        return hint_facts(self.puzzle.facts(instance))

    def entry_place(self, instance: CakeInstance, entry: Symbol) -> tuple[str, str]:
        (r1, c1), (r2, c2) = sorted(side_cells(instance.lattice, entry))
        return f"{r1 + 1},{c1 + 1}|{r2 + 1},{c2 + 1}", entry.arguments[2].name

    def entry_holds(self, instance: CakeInstance, solution: CakeSolution, entry: Symbol) -> bool:
        return entry_holds(instance.lattice, solution.pieces, entry)

    def entry_data(self, instance: CakeInstance, entry: Symbol) -> dict[str, Any]:
        return entry_data(instance.lattice, entry)

    def entry_text(self, instance: CakeInstance, entry: Symbol) -> str:
        return entry_text(instance.lattice, entry)

    def clue_data(self, instance: CakeInstance, clue: Symbol) -> dict[str, Any]:
        return clue_data(instance.lattice, clue)

    def clue_text(self, instance: CakeInstance, clue: Symbol) -> str:
        return clue_text(instance.lattice, clue, self.puzzle.topping_names)

    def parse_progress(self, instance: CakeInstance, text: str, source: str) -> list[Symbol]:
        return parse_progress(instance.lattice, text, source)

    def draw_progress(
        self, instance: CakeInstance, entries: list[Symbol], marked: list[Symbol], form: str
    ) -> str:
        return draw_progress(instance.lattice, instance.grid, entries, marked, form)
