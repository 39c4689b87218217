"""The one small interface every puzzle fills in, after Simon Tatham's ``struct game``.

A puzzle module under :mod:`aspuzzles.puzzles` defines a subclass of :class:`Puzzle` and
an instance of it named ``PUZZLE``. The driver calls only these methods, in this order,
so data flows one way::

    text --parse--> instance --facts--> clingo --decode--> solution --check--> render

Nothing here talks to clingo except through the symbols handed in and out.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NamedTuple, TypeVar

from clingo import Symbol, SymbolType

from .errors import InputError
from .render import render_template
from .strategy import Strategy

if TYPE_CHECKING:
    from .capabilities import Generator, Hints, PlanHints, Play, Sweep

InstanceT = TypeVar("InstanceT")
SolutionT = TypeVar("SolutionT")


class Option(NamedTuple):
    """One option of a puzzle's own, as data: the command line adds it to a command's
    parser (the fields are ``argparse``'s), the API takes it as a keyword
    (``size="5x5"`` for ``--size``). ``switch``: an option without a value, true when
    given."""

    flag: str
    help: str
    default: Any = None
    type: Callable[[str], Any] | None = None
    choices: tuple[Any, ...] | None = None
    metavar: str | None = None
    switch: bool = False

    @property
    def name(self) -> str:
        """The option's name in Python (``--border-kinds``: ``border_kinds``)."""
        return self.flag.lstrip("-").replace("-", "_")

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        if self.switch:
            parser.add_argument(self.flag, action="store_true", help=self.help)
            return
        extra: dict[str, Any] = {"metavar": self.metavar} if self.metavar else {}
        if self.type is not None:
            extra["type"] = self.type
        if self.choices is not None:
            extra["choices"] = self.choices
        parser.add_argument(self.flag, default=self.default, help=self.help, **extra)


def add_options(parser: argparse.ArgumentParser, options: Sequence[Option]) -> None:
    """A command's parser with a puzzle's declared options added."""
    for option in options:
        option.add_to(parser)


class Puzzle(Generic[InstanceT, SolutionT]):
    """What a puzzle provides. Subclasses override the methods marked as required."""

    name: ClassVar[str]
    title: ClassVar[str]
    default_instance: ClassVar[str]
    #: Whether INSTANCE on the command line may be the puzzle text itself (a game ID).
    accepts_inline: ClassVar[bool] = False
    #: Extra clingo options this puzzle's encoding is tuned for.
    clingo_options: ClassVar[tuple[str, ...]] = ()
    #: Whether :meth:`check` is a real checker (bare encodings have none).
    has_checker: ClassVar[bool] = True
    #: The stem of the template that draws a solution as SVG (``<stem>.svg.j2``); the
    #: puzzle's name unless several puzzles share a template.
    templates: ClassVar[str | None] = None
    #: The puzzle's own names for commands (``{"roll": "generate"}``: the dice are
    #: rolled), accepted on the command line beside the commands' own.
    command_aliases: ClassVar[dict[str, str]] = {}
    #: The puzzle's own options of ``solve`` (a variant of the rules, a search setting),
    #: handed to ``configure``. Declared as data: the command line and the API are
    #: built from them (a generator declares its own the same way).
    solve_options: ClassVar[tuple[Option, ...]] = ()

    # -- required ---------------------------------------------------------------------
    def parse(self, text: str, source: str) -> InstanceT:
        """Read an instance; raise :class:`~aspuzzles.errors.InputError` on bad input."""
        raise NotImplementedError

    def facts(self, instance: InstanceT) -> Iterable[Symbol]:
        """The instance and everything precomputed in Python, as ground facts."""
        raise NotImplementedError

    def decode(self, instance: InstanceT, atoms: Sequence[Symbol]) -> SolutionT:
        """Turn the shown atoms of one answer set into a solution."""
        raise NotImplementedError

    def check(self, instance: InstanceT, solution: SolutionT) -> list[str]:
        """Every rule the solution breaks, checked in plain Python; empty when valid."""
        raise NotImplementedError

    def to_dict(self, instance: InstanceT, solution: SolutionT) -> dict[str, Any]:
        """The solution as JSON-ready data (the ``solutions`` items of ``--format json``)."""
        raise NotImplementedError

    def template_context(self, instance: InstanceT, solution: SolutionT) -> dict[str, Any]:
        """Values ``draw_text`` and the puzzle's ``<name>.svg.j2`` template draw from."""
        raise NotImplementedError

    def draw_text(self, context: dict[str, Any]) -> str:
        """A solution drawn as text from ``template_context``'s values. Text is drawn in
        Python, SVG by a jinja2 template: a command that prints a board as text then
        never pays for importing the template engine."""
        raise NotImplementedError

    def from_dict(self, instance: InstanceT, data: Any, source: str) -> SolutionT:
        """A solution from its JSON form (the inverse of ``to_dict``), its shape checked
        (the rules are the checker's job); puzzles without one raise InputError."""
        raise InputError(f"puzzle '{self.name}' has no solution format to check")

    # -- optional ---------------------------------------------------------------------
    def describe(self, instance: InstanceT) -> str:
        """One line about the instance, for ``aspuzzles list`` and headers."""
        return ""

    def unsolved(self, instance: InstanceT) -> SolutionT | None:
        """The puzzle before it is solved, as a solution that holds only what is given,
        so that the templates draw the puzzle itself (a notebook shows a loaded
        instance this way); ``None`` where the puzzle cannot be drawn so."""
        return None

    def parse_solution(self, instance: InstanceT, text: str, source: str) -> SolutionT:
        """Read a solution written by a person (for ``aspuzzles check``): by default the
        JSON that ``--format json`` prints, whole (its first solution is taken) or one
        item of its ``solutions``."""
        if type(self).from_dict is Puzzle.from_dict:
            raise InputError(f"puzzle '{self.name}' has no solution format to check")
        return self.from_dict(instance, solution_json(text, source), source)

    def configure(self, instance: InstanceT, options: dict[str, Any]) -> InstanceT:
        """The instance with puzzle options applied; options are part of the instance
        so that facts() alone decides what clingo sees."""
        return instance

    def strategy(self, instance: InstanceT) -> Strategy[InstanceT]:
        """How the instance is searched, where plain grounding and solving is not all
        (see :mod:`aspuzzles.strategy`); the default asks for nothing more."""
        return Strategy(instance)

    # -- capabilities: each slot gives an object, or None (see aspuzzles.capabilities) --
    def hints(self) -> Hints[InstanceT, SolutionT] | None:
        """Entries and clues in a person's terms, for ``hint``, ``explain``, ``grade``."""
        return None

    def without(self, slot: str) -> str:
        """Why a slot is empty, as the one-line error ends (``puzzle 'x' ...``): a
        puzzle whose slots depend on its encoding (a bare one) says which part of it.
        A planning puzzle's hints are moves: it has no clues to explain or grade by."""
        if slot == "generator":
            return "has no generator"
        if self.plan_hints() is not None:
            return (
                "gives hints as moves only (aspuzzles hint): it has no clues to explain or grade by"
            )
        return "gives no hints yet"

    def plan_hints(self) -> PlanHints[InstanceT, SolutionT] | None:
        """The next move of a planning puzzle, for ``hint``."""
        return None

    def sweep(self) -> Sweep[InstanceT] | None:
        """Every variant on one grounding, for ``sweep``."""
        return None

    def generator(self) -> Generator | None:
        """New instances, for ``generate``."""
        return None

    def play(self) -> Play[InstanceT] | None:
        """What the web board shows beside the board to play with (a tray, a legend,
        counts); without it a puzzle is played on its board alone."""
        return None


def render(puzzle: Puzzle[Any, Any], instance: Any, solution: Any, form: str = "txt") -> str:
    """A solution drawn as text (``txt``) or SVG (``svg``) by the puzzle's templates,
    from what its ``template_context`` gives them."""
    return draw(puzzle, puzzle.template_context(instance, solution), form)


def draw(puzzle: Puzzle[Any, Any], context: dict[str, Any], form: str) -> str:
    """A board drawn from template values (``template_context``'s, perhaps with marks
    added): text by ``draw_text``, SVG by the puzzle's ``<stem>.svg.j2``."""
    if form == "txt":
        return puzzle.draw_text(context)
    return render_template(f"{puzzle.templates or puzzle.name}.{form}.j2", **context)


def atom_parts(atom: Symbol) -> tuple[str, list[Symbol]]:
    """A shown atom's name and arguments, for ``decode``, each read once: every read of
    a symbol is a call into clingo (``match`` reads both, and ``arguments`` builds a new
    list each time), which decoding a large answer feels. ``("", [])`` for a number or
    a string."""
    if atom.type != SymbolType.Function:
        return "", []
    return atom.name, atom.arguments


def solve_option_names(puzzle: Puzzle[Any, Any]) -> list[str]:
    """The names of the puzzle's own ``solve`` options, as ``options=`` takes them."""
    return [option.name for option in puzzle.solve_options]


class Solution:
    """One checked answer, able to show itself in a terminal, a notebook or as JSON.
    ``atoms``: the shown atoms of the answer set, as clingo printed them (for
    ``--format atoms``)."""

    def __init__(
        self,
        puzzle: Puzzle[Any, Any],
        instance: Any,
        data: Any,
        atoms: list[str] | None = None,
    ) -> None:
        self.puzzle, self.instance, self.data = puzzle, instance, data
        self.atoms = [] if atoms is None else atoms

    @cached_property
    def _text(self) -> str:
        return render(self.puzzle, self.instance, self.data, "txt")

    def text(self) -> str:
        return self._text

    def svg(self) -> str:
        return render(self.puzzle, self.instance, self.data, "svg")

    def to_dict(self) -> dict[str, Any]:
        return self.puzzle.to_dict(self.instance, self.data)

    def _repr_svg_(self) -> str:
        return self.svg()

    def __repr__(self) -> str:
        return f"<{self.puzzle.name} solution: .text() draws it, .to_dict() gives its data>"

    def __str__(self) -> str:
        return self.text()


# ------------------------------------------------------------ solutions as JSON
def solution_json(text: str, source: str) -> Any:
    """The solution in a JSON text: a whole ``--format json`` result gives its first."""
    import json  # loaded only to read JSON

    if not text.strip():
        raise InputError("no solution found (the text is empty)", source)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            f"not JSON: {error.msg} (column {error.colno})", source, error.lineno
        ) from None
    except RecursionError:
        raise InputError("the JSON is nested too deeply to be a solution", source) from None
    if isinstance(data, dict) and "solutions" in data:
        if not isinstance(data["solutions"], list) or not data["solutions"]:
            raise InputError("the JSON result holds no solution", source)
        data = data["solutions"][0]
    return data


def progress_json(text: str, source: str) -> Any:
    """A player's progress written as JSON: the object ``check`` reads, or the output of
    ``solve --format json`` (its first solution); bad JSON is one line naming the place."""
    import json  # loaded only to read JSON

    if not text.strip():
        raise InputError("no progress found (the text is empty)", source)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"not JSON: {error.msg}", source, error.lineno) from None
    except RecursionError:
        raise InputError("the JSON is nested too deeply to be progress", source) from None
    if isinstance(data, dict) and isinstance(data.get("solutions"), list) and data["solutions"]:
        return data["solutions"][0]
    return data


def json_field(data: Any, key: str, source: str) -> Any:
    """``data[key]`` of a JSON object, or a one-line error naming the key."""
    if not isinstance(data, dict) or key not in data:
        raise InputError(f"expected a JSON object with '{key}'", source)
    return data[key]


def string_rows(data: Any, key: str, source: str) -> tuple[str, ...]:
    """``data[key]`` as a list of strings, one per row of the board."""
    rows = json_field(data, key, source)
    if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
        raise InputError(f"'{key}' must be a list of strings, one per row", source)
    return tuple(rows)
