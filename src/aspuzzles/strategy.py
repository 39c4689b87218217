"""How one instance is searched, beside the small interface of ``puzzle``.

Most puzzles are solved by grounding their encoding on the instance's facts and asking
clingo for answers: they need nothing from this module. A few need more, and say so by
returning a :class:`Strategy` of their own from ``Puzzle.strategy(instance)``:

- a planning puzzle's :class:`Planning` (``planning()``): a growing horizon
  (:class:`Incremental`), a bound on the steps a plan still needs applied inside the
  search (:class:`StepBound`), and how a plan not proved shortest is shown;
- a :class:`WarmStart` (``warm_start()``): an answer a quick Python search found, which
  clingo completes and improves, in rounds around it (``neighbourhood``);
- other clingo settings may be raced against the tuned ones (``portfolio``), and
  searches whose "none" proves nothing may be raced beside them (:class:`Shortcut`);
- a count may come with puzzle figures (``count_details``);
- a small instance may be answered outright by a complete search in Python, before
  clingo starts (``answer``), or counted by one (``count``).

Everything here that restates a puzzle's rules in Python (a step bound, a quick
answer, a verdict without search, a complete search) is an accelerator for the shipped
encoding: a strategy never changes which answers exist, only how soon they are found.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar

from clingo import Symbol

if TYPE_CHECKING:
    import random

InstanceT = TypeVar("InstanceT")


#: A horizon with no last budget: it grows until an answer, the time limit or Ctrl-C.
UNBOUNDED = 2**62


class Incremental(NamedTuple):
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


class StepBound(NamedTuple):
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


class Shortcut(NamedTuple, Generic[InstanceT]):
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


class Undecided(Exception):
    """A search in Python settles nothing: the instance is not one it takes, or it
    passed its bound on steps or its deadline. clingo searches instead."""


class Answered(NamedTuple):
    """How a complete search in Python ended (see ``Strategy.answer``): with its answer
    (``atoms``, the shown atoms of an answer set of the encoding), with the proof that
    there is none (``finished`` and no atoms), or, neither finished nor found, given up
    at a bound on time or memory. ``lower`` is what it proved by then for a planning
    puzzle (no plan has fewer steps), ``figures`` what it counted (for ``--stats``).
    Asked for several answers (``Strategy.answers``), ``others`` holds those after the
    first, and ``finished`` says that there are no more."""

    atoms: list[Symbol] | None = None
    finished: bool = False
    lower: int = 1
    figures: Mapping[str, int] = MappingProxyType({})
    others: tuple[list[Symbol], ...] = ()


class Strategy(Generic[InstanceT]):
    """How one instance is searched beyond "ground the encoding on its facts and solve".

    The default is exactly that; a puzzle that needs more subclasses this and returns
    its subclass from ``Puzzle.strategy``. Each method is asked only by the search that
    uses it, so a costly one (a quick plan) costs nothing where it is not needed."""

    def __init__(self, instance: InstanceT) -> None:
        self.instance = instance

    def parts(self) -> tuple[str, ...]:
        """The ``#program`` parts of the encoding to ground (without parameters): a
        variant of the rules can live in a part of its own (tiles: ``score``), so that
        the base program, and with it clasp's search, stays exactly as it is without."""
        return ("base",)

    def program(self) -> str:
        """Extra program text for the instance (a bare encoding's instance file)."""
        return ""

    def program_source(self) -> str | None:
        """Where ``program``'s text comes from, line for line (a bare instance's file),
        so that clingo's messages about it name that file instead of ``<block>``."""
        return None

    def infeasible(self) -> str | None:
        """A reason the instance cannot have a solution, found without search (e.g. a
        count that does not divide); ``None`` when search must decide."""
        return None

    def planning(self) -> Planning[InstanceT] | None:
        """How a plan is searched over a growing horizon (see :class:`Planning`);
        ``None`` for one-shot solving."""
        return None

    def warm_start(self) -> WarmStart[InstanceT] | None:
        """An answer found by a quick search in Python for clingo to start from (see
        :class:`WarmStart`); ``None``: clingo starts from nothing."""
        return None

    def settings(self) -> tuple[str, ...]:
        """clingo options for this instance, beside the puzzle's ``clingo_options``
        (which hold for every instance): say, threads for a board large enough to pay
        for them. A user's own options win over both."""
        return ()

    def grounds_within(self, seconds: float) -> bool:
        """Whether the shipped encoding surely builds this instance's facts and grounds
        them well within a time limit of ``seconds``: the limit is then held in the
        caller's process (its search stopped at the limit), where a forked worker,
        which alone can stop a grounding, costs a few tens of milliseconds: more than a
        small solve takes in all. Only a puzzle's own strategy can know; an edited
        encoding's grounding cannot be known (``EncodingOnly``)."""
        return False

    def portfolio(self) -> tuple[tuple[str, ...], ...]:
        """Other search settings (extra clingo options each) that win where the tuned
        ones stall on this instance; the driver races each against the tuned ones in
        its own process, and the first to answer wins."""
        return ()

    def shortcuts(self) -> tuple[Shortcut[InstanceT], ...]:
        """Searches that may answer sooner than the one asked, but under which finding
        none proves nothing (see :class:`Shortcut`). The driver races each like a
        portfolio entry; its answers end the race, and its finding none drops it."""
        return ()

    def count_details(self, count: int) -> dict[str, int]:
        """Extra figures for a complete count (e.g. raw placements before symmetry
        breaking), added to the JSON output and the summary."""
        return {}

    def answer(self, deadline: float, memory: int | None = None) -> Answered | None:
        """One answer found by a complete search in Python, asked before clingo starts
        when one answer is wanted: capture clears a board of a few moves by a
        breadth-first search in milliseconds, where grounding alone takes a tenth of a
        second. Its answer must be one the encoding has, as the encoding shows it (for
        a planning puzzle, a shortest plan); it is decoded and checked like clingo's.
        It gives up at ``deadline`` (a ``time.perf_counter()`` value), past ``memory``
        bytes (None: its own bound) or at its own bound on time, and clingo searches
        then; ``None``: the puzzle has no such search."""
        return None

    def answers(self, deadline: float, most: int) -> Answered | None:
        """Up to ``most`` answers (0: every one) found by a complete search in Python,
        asked before clingo starts when several are wanted: a Tatham-size Haunted board
        is answered and proved unique (two asked, one found) in a fraction of the
        milliseconds that grounding it takes. Answers as ``answer`` does, with the
        answers after the first in ``others`` and ``finished`` when there are no more;
        it gives up at ``deadline`` or its own bound like ``answer``, and ``None``: the
        puzzle has no such search. Not asked of planning puzzles."""
        return None

    def count(self, deadline: float) -> int | None:
        """How many answer sets the encoding has, found by a complete search in Python
        when only a count is wanted, before clingo starts: a 3x3 tiles board is counted
        in a fraction of the milliseconds that loading and grounding the encoding take.
        It gives up at ``deadline`` (a ``time.perf_counter()`` value) or at its own
        bound, and clingo counts then; ``None``: the puzzle has no such search."""
        return None


class EncodingOnly(Strategy[InstanceT]):
    """A puzzle's strategy with everything that restates the rules in Python taken out:
    what an encoding other than the shipped one gets (an edited file, ``--encoding``).

    Kept: what only says how to run clingo (program parts and text, settings, other
    settings to race, figures for a count) and the horizon, whose budgets the encoding's
    own ``query(t)`` defines (see docs/encodings.md), without its last budget
    (``_Unbounded``). Dropped: verdicts without search, complete searches in Python
    (``answer``, ``answers``, ``count``), step bounds, warm starts and the rounds around
    them, shortcuts, and the horizon's bound, each of which may cut answers that the
    edited rules allow."""

    def __init__(self, strategy: Strategy[InstanceT]) -> None:
        super().__init__(strategy.instance)
        self.strategy = strategy

    def parts(self) -> tuple[str, ...]:
        return self.strategy.parts()

    def program(self) -> str:
        return self.strategy.program()

    def program_source(self) -> str | None:
        return self.strategy.program_source()

    def planning(self) -> Planning[InstanceT] | None:
        planning = self.strategy.planning()
        return None if planning is None else _Unbounded(planning)

    def settings(self) -> tuple[str, ...]:
        return self.strategy.settings()

    def portfolio(self) -> tuple[tuple[str, ...], ...]:
        return self.strategy.portfolio()

    def count_details(self, count: int) -> dict[str, int]:
        return self.strategy.count_details(count)


class Planning(Generic[InstanceT]):
    """A planning puzzle's search over a growing horizon (capture): the horizon, a bound
    applied inside the search, and how a plan not proved shortest is shown."""

    def __init__(self, instance: InstanceT) -> None:
        self.instance = instance

    def horizon(self) -> Incremental:
        """How to grow the horizon (see :class:`Incremental`)."""
        raise NotImplementedError

    def step_bound(self) -> StepBound | None:
        """A lower bound on the steps a plan still needs, applied during the search
        (see :class:`StepBound`); ``None``: the search runs on the encoding alone."""
        return None

    def unproved(self, solution: Any) -> Any:
        """A plan as shown when the search did not prove it shortest (a plan found by a
        search cut short by its time limit), so that it does not claim to be the
        shortest."""
        return solution


class WarmStart(Generic[InstanceT]):
    """An answer found by a quick, incomplete search in Python, for clingo to start
    from. A wrong one costs a little time, never an answer: the answer still comes
    from clingo, and the checker checks it."""

    def __init__(self, instance: InstanceT) -> None:
        self.instance = instance

    def first_answer(self) -> list[Symbol]:
        """The answer's atoms as the encoding's answer set would hold them, assumed true
        in a first solve call so that clingo completes it by propagation and the search
        proper starts with a bound. Two uses:

        - a planning puzzle with monotone budgets (capture: ``swap(Tick,A,B)`` of a
          plan): the search from above assumes them under the largest budget, in a
          Control of its own, for an upper bound at once, and then runs as if there
          were no warm start;
        - a program with an objective, asked for one answer (tiles in score mode:
          ``place/4`` of a greedy placement): the completed answer is the first one and
          its cost the bound; the search then looks only for cheaper answers, and
          finishing without one proves it optimal."""
        raise NotImplementedError

    def neighbourhood(self, atoms: Sequence[Symbol], rng: random.Random) -> list[Symbol]:
        """Of an answer's shown atoms, those to keep (assumed true) in one round of a
        large-neighbourhood search: clingo re-solves the rest for a cheaper answer. A
        program with an objective, asked for one answer, runs such rounds after its
        first answer, until they stop paying, before the complete search. ``[]``: no
        such search."""
        return []


class _Unbounded(Planning[InstanceT]):
    """A planning puzzle's search for an edited encoding: the horizon without its last
    budget and without the step bound. A puzzle's bound on the steps a plan can need is
    Python's reading of the shipped rules (capture: what the phases of its board
    allow), and an edited encoding may allow longer plans: the horizon then grows until
    an answer, the time limit or Ctrl-C, climbing (a search from the top needs a top)."""

    def __init__(self, planning: Planning[InstanceT]) -> None:
        super().__init__(planning.instance)
        self.planning = planning

    def horizon(self) -> Incremental:
        plan = self.planning.horizon()
        if plan.incmode:  # the encoding's own imax
            return plan
        ticks = UNBOUNDED if plan.max_ticks else 0
        return plan._replace(max_steps=UNBOUNDED, max_ticks=ticks)

    def unproved(self, solution: Any) -> Any:
        return self.planning.unproved(solution)
