"""Puzzles that are only an encoding: ``encodings/<name>.lp`` plus fact instances.

No Python is written for them. The instance file is added to the program as it is; the
answer is the set of shown atoms. Atoms ``cell(Row,Col,Value)`` are drawn as a grid, so
a new grid puzzle is readable from its first run.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from clingo import Symbol, SymbolType

from ..asp import anchor_includes, check_characters
from ..declarations import Declarations, declarations
from ..errors import InputError
from ..paths import find_encoding, instance_files
from ..puzzle import Puzzle
from ..strategy import Strategy

if TYPE_CHECKING:
    from ..capabilities import Generator
    from .hints import BareHints


class BareInstance(NamedTuple):
    program: str
    source: str
    #: Every entry that can be true, once a grounding knows them (hints draw the grid
    #: cells they name).
    entries: tuple[Symbol, ...] = ()


class BareSolution(NamedTuple):
    atoms: tuple[str, ...]
    #: (row, col) -> value, from shown ``cell/3`` atoms; empty when there are none.
    cells: dict[tuple[str, str], str]


def _sort_key(symbol_text: str) -> tuple[int, Any]:
    return (0, int(symbol_text)) if symbol_text.lstrip("-").isdigit() else (1, symbol_text)


class BarePuzzle(Puzzle[BareInstance, BareSolution]):
    """A puzzle served from its encoding alone."""

    has_checker = False
    templates = "bare"

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
        check_characters(text, source)
        if Path(source).is_file():  # not standard input or an argument's text
            text = anchor_includes(text, Path(source).parent)
        return BareInstance(text, source)

    def facts(self, instance: BareInstance) -> list[Symbol]:
        return []

    def strategy(self, instance: BareInstance) -> Strategy[BareInstance]:
        return _BareProgram(instance)

    def decode(self, instance: BareInstance, atoms: Sequence[Symbol]) -> BareSolution:
        cells = {
            (str(atom.arguments[0]), str(atom.arguments[1])): _plain(atom.arguments[2])
            for atom in atoms
            if atom.match("cell", 3)
        }
        return BareSolution(tuple(str(atom) for atom in sorted(atoms, key=_reading_order)), cells)

    def check(self, instance: BareInstance, solution: BareSolution) -> list[str]:
        return []

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
        grid = self._grid(solution) if solution.cells else None
        other = (
            [atom for atom in solution.atoms if not atom.startswith("cell(")]
            if grid
            else list(solution.atoms)
        )
        return {"name": self.name, "grid": grid, "atoms": other}

    def draw_text(self, context: dict[str, Any]) -> str:
        """The ``cell/3`` grid, if any, then the other atoms, one a line."""
        grid = context["grid"]["rows"] if context["grid"] else []
        return "".join(f"{line}\n" for line in [*grid, *context["atoms"]])


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
