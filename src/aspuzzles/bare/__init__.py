"""Puzzles that are only an encoding: ``encodings/<name>.lp`` plus fact instances.

No Python is written for them. The instance file is added to the program as it is
(grids drawn as pictures in its comments read into facts: ``bare.grid``); the answer is
the set of shown atoms. The board is what the encoding's ``#program view.`` part says,
or else the atoms that name a place (``bare.view``), so a new grid puzzle is readable
from its first run; ``check`` asks clingo whether a person's answer is one of the
encoding's and names what is wrong (``bare.checking``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from clingo import Symbol, SymbolType, parse_term

from ..asp import anchor_includes, check_characters, overriding
from ..declarations import Declarations, declarations
from ..errors import InputError
from ..paths import find_encoding, instance_files
from ..puzzle import Puzzle
from ..strategy import Strategy
from .grid import expand_grids

if TYPE_CHECKING:
    from ..capabilities import Generator
    from .hints import BareHints


class BareInstance(NamedTuple):
    program: str
    source: str
    #: Every entry that can be true, once a grounding knows them (hints draw the grid
    #: cells they name).
    entries: tuple[Symbol, ...] = ()
    #: The text as written, where a grid picture was read into facts (``bare.grid``)
    #: or a constant made to override the encoding's (``asp.overriding``); None where
    #: ``program`` is the text itself.
    written: str | None = None


class BareSolution(NamedTuple):
    atoms: tuple[str, ...]
    #: (row, col) -> value, from shown ``cell/3`` atoms; empty when there are none.
    cells: dict[tuple[str, str], str]
    #: Whether a person wrote it (``aspuzzles check``): only such an answer is checked
    #: against the encoding; clingo's own answers are the encoding's already.
    written: bool = False


def _sort_key(symbol_text: str) -> tuple[int, Any]:
    return (0, int(symbol_text)) if symbol_text.lstrip("-").isdigit() else (1, symbol_text)


#: The source of an instance given as text on the command line (``driver.loading``).
INLINE = "<argument>"


class BarePuzzle(Puzzle[BareInstance, BareSolution]):
    """A puzzle served from its encoding alone."""

    has_checker = False
    templates = "bare"
    #: An instance may be given as its text on the command line (``generate NAME
    #: "#const n = 5." --seed 1``); a bare word is a mistyped name, not a program.
    accepts_inline = True

    def __init__(self, name: str) -> None:
        self.name = name  # type: ignore[misc]
        self.title = f"{name} (bare encoding)"  # type: ignore[misc]

    @property
    def default_instance(self) -> str:  # type: ignore[override]
        files = instance_files(self.name)
        return files[0].name if files else ""

    def declared(self) -> Declarations:
        """What the encoding declares about its entries, clues and clue candidates."""
        path = find_encoding(self.name)
        if path is None:
            raise InputError(f"no encoding for puzzle '{self.name}'", f"encodings/{self.name}.lp")
        return declarations(path)

    def reasons_about_every_answer(self) -> bool:
        """Whether hints and generation apply: they reason about every answer set of
        one grounding of ``base``, so not about a planning encoding (clingo's
        incremental mode grounds its horizons one by one) nor an optimizing one (whose
        answers are only the best ones)."""
        return self._unreasoned() is None

    def _unreasoned(self) -> str | None:
        from ..driver.loading import checked_encoding

        if checked_encoding(self, None).incmode:
            return "plans (clingo's incremental mode), so its horizons are never all grounded"
        if self.declared().optimizes:
            return "optimizes, so its answers are the best ones, not every one"
        return None

    def without(self, slot: str) -> str:
        done = "generates nothing" if slot == "generator" else "gives no hints"
        return f"{done}: its encoding {self._unreasoned()}"

    def hints(self) -> BareHints | None:
        from .hints import BareHints

        return BareHints(self) if self.reasons_about_every_answer() else None

    def generator(self) -> Generator | None:
        from .generate import BareGenerator

        return BareGenerator(self) if self.reasons_about_every_answer() else None

    def parse(self, text: str, source: str) -> BareInstance:
        if source == INLINE and re.fullmatch(r"[\w.-]+", text):
            raise InputError("not a fact program (a fact ends with a full stop)", source)
        check_characters(text, source)
        try:
            constants = self.declared().constants
        except InputError:  # the encoding's own error, said where clingo loads it
            constants = frozenset()
        program = overriding(expand_grids(text, source), source, constants)
        written = text if program != text else None
        if Path(source).is_file():  # not standard input or an argument's text
            program = anchor_includes(program, Path(source).parent)
        return BareInstance(program, source, (), written)

    def facts(self, instance: BareInstance) -> list[Symbol]:
        return []

    def strategy(self, instance: BareInstance) -> Strategy[BareInstance]:
        return _BareProgram(instance)

    def decode(self, instance: BareInstance, atoms: Sequence[Symbol]) -> BareSolution:
        atoms = self._answer_atoms(atoms)
        cells = {
            (str(atom.arguments[0]), str(atom.arguments[1])): _plain(atom.arguments[2])
            for atom in atoms
            if atom.match("cell", 3)
        }
        return BareSolution(tuple(str(atom) for atom in sorted(atoms, key=_reading_order)), cells)

    def _answer_atoms(self, atoms: Sequence[Symbol]) -> list[Symbol]:
        """The atoms of an answer without those only the hints part shows: clingo
        takes a ``#show p/n.`` as a directive of the whole program, whichever part it
        is written in, so the hints part's entries (Star Battle's empty cells) would
        otherwise be listed in every solve's answer."""
        declared = self.declared()
        hinted = set(declared.hint_shown) - set(declared.shown)
        if not hinted:
            return list(atoms)
        return [
            atom
            for atom in atoms
            if atom.type != SymbolType.Function or (atom.name, len(atom.arguments)) not in hinted
        ]

    def parse_solution(self, instance: BareInstance, text: str, source: str) -> BareSolution:
        """A person's answer: atoms (``cell(1,1,2). cell(1,2,1).``, one a line, or as
        clingo prints them) or the JSON ``solve --format json`` prints."""
        from .checking import read_answer

        return read_answer(self, instance, text, source)

    def check(self, instance: BareInstance, solution: BareSolution) -> list[str]:
        """A person's answer checked by clingo against the encoding with the instance,
        what is wrong named (``bare.checking``); an answer clingo found is not checked
        again against the same encoding."""
        if not solution.written:
            return []
        from .checking import problems

        return problems(self, instance, solution)

    def to_dict(self, instance: BareInstance, solution: BareSolution) -> dict[str, Any]:
        result: dict[str, Any] = {"atoms": list(solution.atoms)}
        if solution.cells:
            result["grid"] = self._grid(solution)["rows"]
        return result

    def _grid(self, solution: BareSolution) -> dict[str, Any]:
        rows = sorted({row for row, _ in solution.cells}, key=_sort_key)
        cols = sorted({col for _, col in solution.cells}, key=_sort_key)
        table = [[solution.cells.get((row, col), ".") for col in cols] for row in rows]
        width = max((len(value) for line in table for value in line), default=1)
        return {
            "rows": [" ".join(value.rjust(width) for value in line) for line in table],
            "table": table,
        }

    def template_context(self, instance: BareInstance, solution: BareSolution) -> dict[str, Any]:
        """The board the answer's atoms draw (``bare.drawing.board_view``: the view
        part's, or the default drawing), placed for the SVG template."""
        from .drawing import board_view
        from .view import geometry

        atoms = [parse_term(atom) for atom in solution.atoms]
        view = board_view(self, instance, atoms)
        return {"name": self.name, "view": view, "board": geometry(view, progress=False)}

    def draw_text(self, context: dict[str, Any]) -> str:
        """The board as text (``bare.view.draw_text``), then the atoms that name no
        place, one a line."""
        from .view import draw_text

        return draw_text(context["view"])

    def unsolved(self, instance: BareInstance) -> BareSolution:
        """The puzzle before it is solved: its board with no answer's atoms."""
        return BareSolution((), {})


class _BareProgram(Strategy[BareInstance]):
    """A bare instance is program text (facts, and rules if it likes), not symbols."""

    def program(self) -> str:
        return self.instance.program

    def program_source(self) -> str | None:
        return self.instance.source


def _reading_order(symbol: Symbol) -> tuple[Any, ...]:
    """Atoms by name, then by arguments in clingo's order, which compares numbers as
    numbers: ``queen(9,1)`` before ``queen(10,1)`` (as text, ``10`` comes first)."""
    if symbol.type == SymbolType.Function:
        return (1, symbol.name, symbol.negative, symbol.arguments)
    return (0, "", False, [symbol])


def _plain(symbol: Symbol) -> str:
    """A value as a person reads it: strings without their quotes."""
    return symbol.string if symbol.type == SymbolType.String else str(symbol)
