"""Hints for an encoding of one's own, with no Python written for it.

The entries are the atoms the encoding shows (or those its ``hints`` part shows), the
clues the plain facts of the instance file, each one atom (``given(1,1,5).``), except
the predicates the encoding declares structure (``aspuzzles.declarations``). Both read
as clingo writes them; a player's progress is a fact file of entries. Entries and
clues that name a grid cell by their first two arguments (``cell(R,C,V)``,
``given(R,C,V)``, ``star(R,C)``) are drawn on a grid, the hinted cell and its reasons
marked.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from clingo import Symbol, SymbolType

from ..asp import Fact, program_text, split_facts
from ..capabilities import Hints
from ..errors import InputError
from ..render import render_template

if TYPE_CHECKING:
    from . import BareInstance, BarePuzzle, BareSolution

Cell = tuple[int, int]


@lru_cache(maxsize=8)
def _split(program: str, source: str) -> tuple[list[Fact], list[tuple[int, str]]]:
    """An instance's facts and the rest of its program, read once per question."""
    return split_facts(program, source)


def cell_of(atom: Symbol) -> Cell | None:
    """The grid cell an atom names by its first two arguments, if it names one."""
    if atom.type != SymbolType.Function or len(atom.arguments) < 2:
        return None
    row, col = atom.arguments[:2]
    if row.type != SymbolType.Number or col.type != SymbolType.Number:
        return None
    return row.number, col.number


def _cells_of(atom: Symbol) -> list[Cell]:
    """Every cell an atom names: its first two arguments, and for four numbers (an
    inequality between two cells, ``less(R1,C1,R2,C2)``) the second pair too."""
    first = cell_of(atom)
    if first is None:
        return []
    rest = atom.arguments[2:]
    if len(rest) == 2 and all(arg.type == SymbolType.Number for arg in rest):
        return [first, (rest[0].number, rest[1].number)]
    return [first]


def _value(atom: Symbol) -> str:
    """What a cell shows for an atom naming it: its last argument (``cell(R,C,V)``),
    or, for an atom of the cell alone (``star(R,C)``), its name's first letter."""
    if len(atom.arguments) == 2:
        return atom.name[:1]
    last = atom.arguments[-1]
    return last.string if last.type == SymbolType.String else str(last)


@dataclass
class _Board:
    """A progress drawn on a grid: each cell's shown value and how it is marked."""

    rows: list[int]
    cols: list[int]
    values: dict[Cell, str]
    givens: set[Cell]
    marked: set[Cell]
    first: set[Cell]
    #: The marked atoms that name no cell, listed below the grid.
    others: list[str]


class BareHints(Hints["BareInstance", "BareSolution"]):
    """The hints slot of a bare encoding (see the module's docstring)."""

    def __init__(self, puzzle: BarePuzzle) -> None:
        self.puzzle = puzzle

    def hint_facts(self, instance: BareInstance) -> list[Symbol]:
        return [fact.symbol for fact in _split(instance.program, instance.source)[0]]

    def hint_program(self, instance: BareInstance) -> str:
        return program_text(_split(instance.program, instance.source)[1])

    def with_entries(self, instance: BareInstance, entries: list[Symbol]) -> BareInstance:
        return instance._replace(entries=tuple(entries))

    def entry_holds(self, instance: BareInstance, solution: BareSolution, entry: Symbol) -> bool:
        return str(entry) in set(solution.atoms)

    def entry_data(self, instance: BareInstance, entry: Symbol) -> str:
        return str(entry)

    def entry_place(self, instance: BareInstance, entry: Symbol) -> tuple[str, str] | None:
        cells = _cells_of(entry)
        return (f"{cells[0][0]},{cells[0][1]}", _value(entry)) if len(cells) == 1 else None

    def entry_text(self, instance: BareInstance, entry: Symbol) -> str:
        return str(entry)

    def clue_data(self, instance: BareInstance, clue: Symbol) -> str:
        return str(clue)

    def clue_text(self, instance: BareInstance, clue: Symbol) -> str:
        return f"the clue {clue}"

    def parse_progress(self, instance: BareInstance, text: str, source: str) -> list[Symbol]:
        """A fact file of entries, one atom a fact; anything else is refused by line."""
        facts, rest = split_facts(text, source)
        for line, statement in rest:
            if not statement.startswith("#const"):
                message = f"progress holds facts of entries only, not '{statement}'"
                raise InputError(message, source, line)
        return [fact.symbol for fact in facts]

    def draw_progress(
        self, instance: BareInstance, entries: list[Symbol], marked: list[Symbol], form: str
    ) -> str:
        board = self._board(instance, entries, marked)
        if form == "svg":
            return render_template("bare-progress.svg.j2", board=board, width=_width(board))
        return _text(board)

    def _board(self, instance: BareInstance, entries: list[Symbol], marked: list[Symbol]) -> _Board:
        facts = [fact.symbol for fact in _split(instance.program, instance.source)[0]]
        structure = self.puzzle.declared().structure
        clues = [f for f in facts if (f.name, len(f.arguments)) not in structure]
        cells = {cell for atom in [*facts, *entries, *marked] for cell in _cells_of(atom)}
        cells |= {cell for atom in instance.entries for cell in _cells_of(atom)}
        values: dict[Cell, str] = {}
        givens: set[Cell] = set()
        for clue in clues:
            if len(clue.arguments) == 3 and (cell := cell_of(clue)) is not None:
                values[cell] = _value(clue)
                givens.add(cell)
        for entry in entries:
            if (cell := cell_of(entry)) is not None and len(_cells_of(entry)) == 1:
                values[cell] = _value(entry)
                givens.discard(cell)
        first = set(_cells_of(marked[0])) if marked else set()
        return _Board(
            rows=_span(row for row, _ in cells),
            cols=_span(col for _, col in cells),
            values=values,
            givens=givens,
            marked={cell for atom in marked for cell in _cells_of(atom)},
            first=first,
            others=[str(atom) for atom in marked if not _cells_of(atom)],
        )


def _span(numbers: Any) -> list[int]:
    found = list(numbers)
    return list(range(min(found), max(found) + 1)) if found else []


def _text(board: _Board) -> str:
    """The grid, a marked cell in brackets (``[5]``), an open cell a dot."""
    width = max((len(value) for value in board.values.values()), default=1)
    lines = []
    for row in board.rows:
        cells = []
        for col in board.cols:
            value = board.values.get((row, col), ".").center(width)
            cells.append(f"[{value}]" if (row, col) in board.marked else f" {value} ")
        lines.append("".join(cells).rstrip())
    lines += [f"* {atom}" for atom in board.others]
    return "".join(f"{line}\n" for line in lines)


#: A grid cell's side in the SVG, and the width of a character of its listed atoms.
CELL, CHARACTER = 32, 8


def _width(board: _Board) -> int:
    listed = max((len(atom) + 2 for atom in board.others), default=0)
    return max(len(board.cols) * CELL, listed * CHARACTER) + 20
