"""The one small interface every puzzle fills in, after Simon Tatham's ``struct game``.

A puzzle module under :mod:`aspuzzles.puzzles` defines a subclass of :class:`Puzzle` and
an instance of it named ``PUZZLE``. The driver calls only these methods, in this order,
so data flows one way::

    text --parse--> instance --facts--> clingo --decode--> solution --check--> render

Nothing here talks to clingo except through the symbols handed in and out.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar, Generic, TypeVar

from clingo import Symbol

from .errors import InputError
from .render import render_template

InstanceT = TypeVar("InstanceT")
SolutionT = TypeVar("SolutionT")


@dataclass(frozen=True)
class Incremental:
    """Solve over a growing horizon with ``#program step(t)`` / ``check(t)`` parts.

    The driver grounds ``base``, then one ``step(t)`` and ``check(t)`` at a time for
    t = 1..max_steps, with the external ``query(t)`` true only for the newest t; the first
    horizon with an answer set is the minimum. ``max_steps`` bounds the search so that an
    unsolvable instance is proved unsolvable.

    With ``max_ticks`` set, the encoding also has a time axis grounded lazily, because
    grounding all of it up front makes every conflict propagate ticks that few plans
    reach: ``#program tick(k)`` is grounded for k = 1, 2, ... only while an answer set
    holds ``open(k)`` for the last tick k grounded (its plan is cut off by the horizon,
    not finished). Such an answer is not reported; the driver grounds tick k+1 and
    solves again. A budget without answers at k ticks has none at any later tick,
    provided every plan that is alive at a later tick was alive and open at tick k.
    """

    max_steps: int
    first_step: int = 1
    #: What one step of the horizon is, for messages ("no answer within 5 moves").
    unit: str = "steps"
    #: The most ticks ``#program tick(k)`` is ever grounded for (0: no tick program).
    max_ticks: int = 0
    #: The shown atom a plan holds once per step (capture: ``swap``). Naming it declares
    #: the budgets monotone: ``query(t)`` admits every plan of *up to* t steps, so a
    #: plan found under a large budget bounds the minimum from above, and the driver
    #: may search down from ``max_steps`` (in a second process, while the first climbs).
    step_atom: str | None = None
    #: The encoding can split a plan search (capture: yes): it reads ``#const part`` and
    #: ``#const parts`` and, for parts > 1, admits only its share of the first steps
    #: (numbered in a fixed order, those equal to ``part`` modulo ``parts``), so that
    #: ``parts`` processes each climb the budgets over a share of the plans. Only with
    #: ``step_atom`` set: a share's plan is an upper bound for the whole search.
    splits: bool = False
    #: clingo's incremental mode (``#include <incmode>``, see ``driver.incmode_plan``):
    #: horizon 0 is ``base`` and ``check(0)``, and ``step(t)`` starts at t = 1.
    incmode: bool = False


#: The atoms of one tick's state that are true, by predicate: ``{"board": [(12, "r"),
#: ...], "flame": [(40,)]}`` for ``board(T,12,r)`` and ``flame(T,40)`` (the tick left
#: out, numbers as ints, constants as strings).
State = dict[str, list[tuple[Any, ...]]]
#: Which atoms of a state a refutation rests on: ``(predicate, arguments) -> bool``.
Support = Callable[[str, tuple[Any, ...]], bool]


@dataclass(frozen=True)
class StepBound:
    """A lower bound on the steps a plan still needs from a state, which the driver has
    clingo apply during a planning search (a propagator): whenever ``ready(T)`` becomes
    true, the state at tick T is read off the atoms ``p(T, ...)`` of the ``state``
    predicates, and if ``refute(state, left, made)`` says that the ``left`` steps the budget
    still allows cannot finish the plan, the partial plan is cut there, with a nogood
    made of ``made(T, M)`` (at least M steps made by tick T), the budget ``query(N)``,
    and every state atom the refutation rests on, true or false.

    The bound must be admissible (never more than the steps truly needed): it may only
    cut plans that cannot finish, so answers stay exactly those of the encoding, only
    found or refuted sooner. Planning encodings that name no ``ready`` atom get none."""

    #: The predicates (name, arity) whose atoms hold a tick's state, tick first.
    state: tuple[tuple[str, int], ...]
    #: ``ready(T)``: the state at tick T is complete and worth bounding.
    ready: str
    #: ``made(T, M)``: at least M steps are made by tick T.
    made: str
    #: ``refute(state, left, made)``: what the refutation rests on, or ``None`` when
    #: ``left`` steps may still finish the plan (``made`` steps were made to reach it).
    refute: Callable[[State, int, int], Support | None]
    #: What the bound did beyond the propagator's own counts (``--stats``), if anything.
    statistics: Callable[[], dict[str, int]] | None = None


@dataclass(frozen=True)
class Shortcut(Generic[InstanceT]):
    """A search raced beside the one asked for, whose every answer is an answer to the
    instance as asked (and one of the cheapest, where it has an objective), but whose
    finding none proves nothing: tiles in score mode race the exact search, since a
    perfect placement mismatches nothing. It searches ``instance`` (a variant of the
    one asked, with its own facts and program parts) under the extra clingo
    ``arguments``; ``cost`` is what each of its answers costs in the objective asked,
    the least there is, so an answer of it is optimal as soon as it is found."""

    instance: InstanceT
    arguments: tuple[str, ...] = ()
    cost: tuple[int, ...] | None = None


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
        """Values the puzzle's ``<name>.txt.j2`` / ``<name>.svg.j2`` templates draw from."""
        raise NotImplementedError

    # -- optional ---------------------------------------------------------------------
    def program(self, instance: InstanceT) -> str:
        """Extra program text for the instance (only bare encodings need it)."""
        return ""

    def program_source(self, instance: InstanceT) -> str | None:
        """Where ``program``'s text comes from, line for line (a bare instance's file),
        so that clingo's messages about it name that file instead of ``<block>``."""
        return None

    def program_parts(self, instance: InstanceT) -> tuple[str, ...]:
        """The ``#program`` parts of the encoding to ground (without parameters): a
        variant of the rules can live in a part of its own (tiles: ``score``), so that
        the base program, and with it clasp's search, stays exactly as it is without."""
        return ("base",)

    def add_solve_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Puzzle options of ``aspuzzles solve`` (e.g. a variant of the rules)."""

    def solve_option_names(self) -> list[str]:
        probe = argparse.ArgumentParser(add_help=False)
        self.add_solve_arguments(probe)
        return [action.dest for action in probe._actions]

    def configure(self, instance: InstanceT, options: dict[str, Any]) -> InstanceT:
        """The instance with puzzle options applied; options are part of the instance
        so that facts() alone decides what clingo sees."""
        return instance

    def incremental(self, instance: InstanceT) -> Incremental | None:
        """How to grow a horizon, for planning puzzles; ``None`` for one-shot solving."""
        return None

    def step_bound(self, instance: InstanceT) -> StepBound | None:
        """A lower bound on the steps a plan still needs, applied during a planning
        search (see :class:`StepBound`); ``None``: the search runs on the encoding alone."""
        return None

    def unproved(self, solution: SolutionT) -> SolutionT:
        """The solution as a plan found before its minimality was proved (a planning run
        cut short by its time limit), so that it does not claim to be the shortest."""
        return solution

    def hints(self, instance: InstanceT) -> list[Symbol]:
        """The atoms of an answer found by a quick, incomplete search in Python, as the
        encoding's answer set would hold them, assumed true in a first solve call so
        that clingo completes the answer by propagation and the search proper starts
        with a bound. Two uses:

        - a planning puzzle with monotone budgets (capture: ``swap(Tick,A,B)`` of a
          plan): the search from above assumes them under the largest budget, in a
          Control of its own, for an upper bound at once, and then runs as if there were
          no hint;
        - a program with an objective, asked for one answer (tiles in score mode:
          ``place/4`` of a greedy placement): the completed answer is the first one and
          its cost the bound; the search then looks only for cheaper answers, and
          finishing without one proves the hinted answer optimal.

        A wrong hint costs a little time, never an answer: the answer still comes from
        clingo, and the checker checks it."""
        return []

    def neighbourhood(
        self, instance: InstanceT, atoms: Sequence[Symbol], rng: random.Random
    ) -> list[Symbol]:
        """Of an answer's shown atoms, those to keep (assumed true) in one round of a
        large-neighbourhood search: clingo re-solves the rest for a cheaper answer. A
        program with an objective, asked for one answer, runs such rounds after its
        hinted answer (see ``hints``), until they stop paying, before the complete
        search. ``[]``: no such search (tiles in score mode frees ten cells, half of
        them next to a mismatch)."""
        return []

    def portfolio(self, instance: InstanceT) -> tuple[tuple[str, ...], ...]:
        """Other search settings (extra clingo options each) that win where the tuned
        ones stall on this instance; the driver races each against the tuned ones in
        its own process, and the first to answer wins."""
        return ()

    def shortcuts(self, instance: InstanceT) -> tuple[Shortcut[InstanceT], ...]:
        """Searches that may answer sooner than the one asked, but under which finding
        none proves nothing (see :class:`Shortcut`): tiles in score mode race the exact
        search (a perfect placement mismatches nothing, the least there is, but most
        boards have none). The driver races each like a portfolio entry; its answers
        end the race, and its finding none drops it from the race."""
        return ()

    def infeasible(self, instance: InstanceT) -> str | None:
        """A reason the instance cannot have a solution, found without search (e.g. a
        count that does not divide); ``None`` when search must decide."""
        return None

    def count_details(self, instance: InstanceT, count: int) -> dict[str, int]:
        """Extra figures for a complete count (e.g. raw placements before symmetry
        breaking), added to the JSON output and the summary."""
        return {}

    # -- sweeps (optional): solve every variant on one grounding ----------------------
    def sweep_base(self, options: dict[str, Any]) -> InstanceT:
        """The instance grounded once for a sweep (variants differ only in externals)."""
        raise InputError(f"puzzle '{self.name}' has no sweep")

    def sweep_variants(self, options: dict[str, Any]) -> list[tuple[str, InstanceT]]:
        """Every variant of a sweep, with the key it is recorded under."""
        return []

    def sweep_equivalents(self, options: dict[str, Any]) -> dict[str, list[str]]:
        """Keys whose result equals a solved variant's (a symmetry reduction)."""
        return {}

    def sweep_assumptions(self, variant: InstanceT) -> list[tuple[Symbol, bool]]:
        """How a variant is set on the sweep's grounding."""
        return []

    def parse_solution(self, instance: InstanceT, text: str, source: str) -> SolutionT:
        """Read a solution written by a person (for ``aspuzzles check``): by default the
        JSON that ``--format json`` prints, whole (its first solution is taken) or one
        item of its ``solutions``."""
        if type(self).from_dict is Puzzle.from_dict:
            raise InputError(f"puzzle '{self.name}' has no solution format to check")
        return self.from_dict(instance, solution_json(text, source), source)

    def from_dict(self, instance: InstanceT, data: Any, source: str) -> SolutionT:
        """A solution from its JSON form (the inverse of ``to_dict``), its shape checked
        (the rules are the checker's job); puzzles without one raise InputError."""
        raise InputError(f"puzzle '{self.name}' has no solution format to check")

    def describe(self, instance: InstanceT) -> str:
        """One line about the instance, for ``aspuzzles list`` and headers."""
        return ""

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Options of ``aspuzzles generate <puzzle>``; none by default."""

    def generate(self, args: argparse.Namespace) -> str:
        """A new instance as text; puzzles without a generator raise InputError."""
        raise InputError(f"puzzle '{self.name}' has no generator")

    def render_text(self, instance: InstanceT, solution: SolutionT) -> str:
        return render_template(f"{self.name}.txt.j2", **self.template_context(instance, solution))

    def render_svg(self, instance: InstanceT, solution: SolutionT) -> str:
        return render_template(f"{self.name}.svg.j2", **self.template_context(instance, solution))


@dataclass
class Solution:
    """One checked answer, able to show itself in a terminal, a notebook or as JSON."""

    puzzle: Puzzle[Any, Any]
    instance: Any
    data: Any
    #: Shown atoms of the answer set, as clingo printed them (for ``--format atoms``).
    atoms: list[str] = field(default_factory=list)

    @cached_property
    def _text(self) -> str:
        return self.puzzle.render_text(self.instance, self.data)

    def text(self) -> str:
        return self._text

    def svg(self) -> str:
        return self.puzzle.render_svg(self.instance, self.data)

    def to_dict(self) -> dict[str, Any]:
        return self.puzzle.to_dict(self.instance, self.data)

    def _repr_svg_(self) -> str:
        return self.svg()

    def __str__(self) -> str:
        return self.text()


# ------------------------------------------------------------ solutions as JSON
def solution_json(text: str, source: str) -> Any:
    """The solution in a JSON text: a whole ``--format json`` result gives its first."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            f"not JSON: {error.msg} (column {error.colno})", source, error.lineno
        ) from None
    if isinstance(data, dict) and "solutions" in data:
        if not isinstance(data["solutions"], list) or not data["solutions"]:
            raise InputError("the JSON result holds no solution", source)
        data = data["solutions"][0]
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
