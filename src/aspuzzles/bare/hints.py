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

from functools import lru_cache
from typing import TYPE_CHECKING

from clingo import Symbol, SymbolType

from ..asp import Fact, program_text, split_facts
from ..capabilities import Hints
from ..errors import InputError
from ..render import render_template
from .view import View, cell_of, draw_text, entry_value, geometry

if TYPE_CHECKING:
    from . import BareInstance, BarePuzzle, BareSolution

Cell = tuple[int, int]


@lru_cache(maxsize=8)
def _split(program: str, source: str) -> tuple[list[Fact], list[tuple[int, str]]]:
    """An instance's facts and the rest of its program, read once per question."""
    return split_facts(program, source)


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


@lru_cache(maxsize=4)
def _places(instance: BareInstance) -> list[Cell]:
    """Every cell an entry can be set in, and both cells of a clue of two (``less(1,1,
    1,2)``): read once per instance, not once per board (a walkthrough draws two boards
    a step)."""
    places = [cells[0] for atom in instance.entries if len(cells := _cells_of(atom)) == 1]
    for fact in instance_facts(instance):
        if len(pair := _cells_of(fact)) == 2:
            places += pair
    return places


@lru_cache(maxsize=4)
def _whole(puzzle: BarePuzzle, program: str, source: str, atoms: tuple[str, ...]) -> frozenset[str]:
    """Every atom, as text, of the answer set showing ``atoms`` with the hints part."""
    from clingo import parse_term

    from ..driver.answers import whole_answer
    from ..driver.loading import checked_encoding

    answer = [parse_term(atom) for atom in atoms]
    signatures = list(puzzle.declared().shown)
    encoding = checked_encoding(puzzle, None).path
    found = whole_answer(
        encoding, program, answer, signatures, arguments=puzzle.clingo_options, source=source
    )
    return frozenset(str(atom) for atom in found or ())


def instance_facts(instance: BareInstance) -> list[Symbol]:
    """The instance's plain facts, each one atom (clues and structure alike)."""
    return [fact.symbol for fact in _split(instance.program, instance.source)[0]]


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
        """Whether an entry holds in a solution: one the answer shows is in it; one
        only the hints part defines (an empty place) is read from the answer set that
        shows the solution, with the hints part grounded."""
        if str(entry) in set(solution.atoms):
            return True
        declared = self.puzzle.declared()
        if declared.shows_all or (entry.name, len(entry.arguments)) in declared.shown:
            return False
        return str(entry) in _whole(self.puzzle, instance.program, instance.source, solution.atoms)

    def entry_data(self, instance: BareInstance, entry: Symbol) -> str:
        return str(entry)

    def entry_place(self, instance: BareInstance, entry: Symbol) -> tuple[str, str] | None:
        cells = _cells_of(entry)
        return (f"{cells[0][0]},{cells[0][1]}", entry_value(entry)) if len(cells) == 1 else None

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
        view = self.board(instance, entries, marked)
        if form == "svg":
            return render_template("bare-progress.svg.j2", board=geometry(view, progress=True))
        return draw_text(view, progress=True)

    def board(self, instance: BareInstance, entries: list[Symbol], marked: list[Symbol]) -> View:
        """The board with the entries made (``board_view``), every place an entry can
        be set in drawn, the marked atoms' places marked (the first one's as the
        hinted place) and those that name no place listed."""
        from .drawing import board_view

        view = board_view(self.puzzle, instance, entries, _places(instance))
        view.marked = {cell for atom in marked for cell in _cells_of(atom)}
        view.first = set(_cells_of(marked[0])) if marked else set()
        view.others = [str(atom) for atom in marked if not _cells_of(atom)]
        return view
