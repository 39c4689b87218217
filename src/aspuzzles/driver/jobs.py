"""What crosses a process boundary: the job a solver runs and the outcome it sends back.

A job reaches a worker by fork (the child inherits it; nothing is pickled), so it may
hold clingo symbols: the facts go to clingo's backend as they are, without a round trip
through text. What comes back goes through a pipe, so an outcome is plain data (strings,
numbers). :class:`Bounds` is what a planning run has proved so far, from below (budgets
refuted) and from above (the shortest plan found), and what it can say when time runs
out.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from clingo import Symbol

from ..strategy import Incremental, StepBound
from .searches import (  # noqa: F401 (the driver's modules take them from here)
    ASCENDING,
    BOTH,
    DEFAULT_PLAN_SEARCH,
    DESCENDING,
    PLAN_SEARCHES,
    SPLIT,
)

if TYPE_CHECKING:
    import random

#: How a solver tells whoever runs it what it is doing: ("phase", "grounding"),
#: ("lower", 5) (every budget below 5 refuted), ("plan", (8, atoms)) (a plan of 8 steps),
#: ("tick", N) (still solving, once every ``TICK`` seconds, N answers found so far; None
#: in a planning search, whose bounds say more).
Reporter = Callable[[str, Any], None]
#: Seconds between the reports that keep a live status line's clock moving.
TICK = 1.0
#: How a run tells its caller what it is doing, as a sentence: what a planning run has
#: proved so far ("proved: none within 5 moves; a plan of 8 moves found, 6-7 moves
#: unanswered"), or another search's phase ("solving; 3 solutions found so far").
Progress = Callable[[str], None]


class Job(NamedTuple):
    """Everything a solver needs, in this process or in a forked worker."""

    encoding: str
    facts: list[Symbol]
    program: str
    arguments: list[str]
    models: int
    count_only: bool
    timeout: float | None
    incremental: Incremental | None
    #: For a planning job: search the budgets from the top down instead of bottom up.
    descending: bool = False
    #: For a split planning job: (this share, of how many), passed to the encoding as
    #: ``-c part=`` and ``-c parts=`` (see ``Incremental.splits``).
    part: tuple[int, int] | None = None
    #: The encoding's ``#program`` parts to ground (see ``Strategy.parts``); a
    #: planning job grounds its own.
    parts: tuple[str, ...] = ("base",)
    #: ``WarmStart.first_answer``, called only by a search that uses them (a planning search
    #: from above, or a search for one optimal answer), in the process that runs it (no
    #: other search waits for them).
    warm_start: Callable[[], list[Symbol]] | None = None
    #: ``Planning.step_bound``: a lower bound the planning search applies as it goes.
    step_bound: StepBound | None = None
    #: ``WarmStart.neighbourhood``: the atoms of an answer to keep in a round of the
    #: large-neighbourhood search that follows a hinted answer (see ``warm_start``).
    neighbourhood: Callable[[Sequence[Symbol], random.Random], list[Symbol]] | None = None
    #: A shortcut search (``Strategy.shortcuts``): its answers end a race, but its
    #: finding none does not.
    answers_only: bool = False
    #: A shortcut's ``cost``: what each of its answers costs in the objective asked (its
    #: own program may have none), so that an answer of it is reported as optimal.
    answer_cost: tuple[int, ...] | None = None
    #: ``Puzzle.program_source``: the file that ``program`` is, for clingo's messages.
    program_source: str | None = None
    #: The facts, built on first use in the process that runs the job (and then kept),
    #: instead of ``facts``: so that the time and memory limits hold while they are built.
    make_facts: LazyFacts | None = None
    #: The most bytes of memory the process running the job may take (None: no limit).
    memory: int | None = None
    #: For a planning job: every budget below this one was refuted before it started
    #: (by a complete search in Python, ``Strategy.answer``), so that a plan found from
    #: above of this length is proved shortest at once. The search still climbs from
    #: the first budget: what clasp learns refuting the small ones serves the rest.
    refuted_below: int = 0
    #: Read clingo's statistics after each solve call (choices, conflicts, the
    #: program's size): a small board's solve spends about a tenth of its time on it,
    #: so a caller who shows none (the command line without ``--stats`` or JSON)
    #: skips it.
    statistics: bool = True

    def instance_facts(self) -> list[Symbol]:
        return self.facts if self.make_facts is None else self.make_facts()

    def clingo_arguments(self) -> list[str]:
        """The options for clingo's Control, with a share's constants if it has one."""
        if self.part is None:
            return self.arguments
        share, parts = self.part
        return [*self.arguments, "-c", f"part={share}", "-c", f"parts={parts}"]


class Outcome:
    """What clingo answered, as strings (symbols do not cross process boundaries).

    ``size``: the program as grounded for the last solve call (atoms and rules);
    ``error``: (message, source) of an input error; ``progress``: what a growing
    horizon had proved when time ran out. ``interrupted``: stopped by Ctrl-C, cut short
    like a time limit (``timeout_phase`` says where), what was found and proved so far
    kept; ``out_of_memory`` likewise for the memory limit. ``cost`` and ``optimal``,
    for a program with ``#minimize``/``#maximize``: the cost of the answers kept
    (clingo's, one entry per priority level, highest first), and whether it was proved
    optimal. ``exhausted``: whether the last search went through every answer
    (clingo's ``exhausted``): a search that stopped at the models asked for was not,
    and clingo's own output then says ``Models : N+``."""

    def __init__(
        self,
        models: list[list[str]] | None = None,
        satisfiable: bool | None = None,
        timeout_phase: str | None = None,
        count: int = 0,
        stats: dict[str, Any] | None = None,
        size: dict[str, int] | None = None,
        error: tuple[str, str | None] | None = None,
        progress: str | None = None,
        interrupted: bool = False,
        cost: list[int] | None = None,
        optimal: bool = False,
        out_of_memory: bool = False,
        exhausted: bool = False,
    ) -> None:
        self.models = [] if models is None else models
        self.satisfiable, self.timeout_phase, self.count = satisfiable, timeout_phase, count
        self.stats = {} if stats is None else stats
        self.size = {} if size is None else size
        self.error, self.progress, self.interrupted = error, progress, interrupted
        self.cost, self.optimal = cost, optimal
        self.out_of_memory, self.exhausted = out_of_memory, exhausted

    def interrupt(self, phase: str) -> None:
        self.interrupted = True
        self.timeout_phase = self.timeout_phase or phase

    def exhaust(self, phase: str) -> None:
        self.out_of_memory = True
        self.timeout_phase = self.timeout_phase or phase


class LazyFacts:
    """An instance's facts, built by the puzzle the first time a process asks for them
    and kept for its later asks (a planning search loads its program more than once).
    A job that runs in a worker builds them there, under the job's limits."""

    def __init__(self, build: Callable[[], Iterable[Symbol]]) -> None:
        self.build = build
        self.facts: list[Symbol] | None = None
        self.seconds = 0.0

    def __call__(self) -> list[Symbol]:
        if self.facts is None:
            started = time.perf_counter()
            self.facts = list(self.build())
            self.seconds = time.perf_counter() - started
        return self.facts


def plan_length(plan: Incremental, atoms: list[str]) -> int:
    """How many steps a plan takes: one shown ``step_atom`` per step."""
    prefix = f"{plan.step_atom}("
    return sum(1 for atom in atoms if atom.startswith(prefix))


def search_text(phase: str, found: int) -> str:
    """What a search without a plan is doing, for a live status line: a long count or
    a hard board shows its phase and, once there are some, the answers found so far."""
    if not found:
        return phase
    return f"{phase}; {found} solution{'' if found == 1 else 's'} found so far"


def progress_text(plan: Incremental, lower: int, upper: int | None = None) -> str:
    """What a planning run had settled when time ran out: every budget below ``lower``
    refuted, and (if found) a plan of ``upper`` steps, so the minimum lies in between."""

    def amount(number: int) -> str:
        unit = plan.unit[:-1] if number == 1 and plan.unit.endswith("s") else plan.unit
        return f"{number} {unit}"

    open_budgets = amount(lower)
    if upper is not None and upper - 1 > lower:
        open_budgets = f"{lower}-{amount(upper - 1)}"
    parts = [f"proved: none within {amount(lower - 1)}"] if lower > plan.first_step else []
    if upper is None:
        parts.append(f"{open_budgets} unanswered")
    else:
        parts.append(f"a plan of {amount(upper)} found, {open_budgets} unanswered")
    return "; ".join(parts)


class Bounds:
    """The minimum of a planning job, pinned from both sides by one or more solvers.

    A search split into ``parts`` shares has a lower bound per share: the minimum is
    proved below a budget only once every share has refuted it."""

    def __init__(self, plan: Incremental, parts: int = 1) -> None:
        self.plan, self.parts = plan, parts
        self.upper: int | None = None
        self.best: list[str] = []
        self.lowers = [plan.first_step] * parts

    @property
    def lower(self) -> int:
        return min(self.lowers)

    def refuted_below(self, step: int, part: int | None = None) -> None:
        """Every budget below ``step`` is refuted, in one share or (None) in all."""
        for share in range(self.parts) if part is None else [part]:
            self.lowers[share] = max(self.lowers[share], step)

    def found(self, length: int, atoms: list[str]) -> None:
        if self.upper is None or length < self.upper:
            self.upper, self.best = length, atoms

    def take(self, kind: str, value: Any, part: int | None = None) -> None:
        """A solver's report: a refuted budget or a plan moves the bounds; others not."""
        if kind == "lower":
            self.refuted_below(value, part)
        elif kind == "plan":
            self.found(*value)

    def share_done(self, part: int, outcome: Outcome) -> None:
        """What a climbing share ended with: its shortest plan, or a proof of none."""
        if outcome.satisfiable and outcome.models:
            self.found(plan_length(self.plan, outcome.models[0]), outcome.models[0])
        elif outcome.satisfiable is False:
            self.refuted_below(self.plan.max_steps + 1, part)

    @property
    def settled(self) -> bool:
        """A plan is known and every shorter budget is refuted: the plan is minimal."""
        return self.upper is not None and self.lower >= self.upper

    @property
    def exhausted(self) -> bool:
        """Every budget is refuted and no plan was found: there is none."""
        return self.upper is None and self.lower > self.plan.max_steps

    def text(self) -> str:
        return progress_text(self.plan, self.lower, self.upper)
