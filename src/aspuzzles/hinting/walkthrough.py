"""A walkthrough: the whole way from the givens (or a player's progress) to the
solution, as a sequence of steps a person can follow.

A step concludes literals over the entries (an entry set, or ruled out) and names why:
a subset-minimal set of clues and of earlier steps' literals from which its literals
follow. "Follow" is entailment, not propagation: the encoding, those clues (every other
clue free, as the :class:`~aspuzzles.driver.reasoning.Reasoner` leaves a clue it does
not assume) and those literals have no answer set in which the step's literals do not
all hold, and dropping any one of them leaves one. Reasons are unsatisfiable cores of
the Reasoner's assumptions shrunk by deletion, each deletion a solve call: the reason
is the same set whichever way the encoding is phrased (a redundant constraint changes
how fast clasp gets there, not what follows).

Each step is the cheapest one available under one cost (``CLUE_COST`` per clue,
``LITERAL_COST`` per earlier literal: see docs/walkthrough.md for why), found as
follows:

- the candidates are the literals every solution shares (one cautious and one brave
  enumeration from the start: what follows from everything known never changes as
  steps are taken, since each step only concludes what already followed);
- candidates are costed lazily (``_Walker.cheapest``): each has a bound on what it
  may cost (one literal where the known literals alone may prove it, else one clue:
  one solve call), and the candidate of the lowest bound is costed until the lowest
  is a cost found; so a step of one clue is taken without costing the candidates
  that need two. Past ``CASE_THRESHOLD`` the step is hard and which hard step comes
  first matters less: the search stops at the cheapest costed so far;
- a candidate's reason is a core under the known literals alone first (no clue at
  all: the cheapest kind), else under the known literals and every clue, asked again
  in reverse order while that shrinks it, then shrunk by deleting its clues (the
  expensive members, every known literal kept at hand) and then its literals; each
  solve call while costing may take ``BUDGET`` conflicts, and a candidate that needs
  more is costed only where no other is left (the reason of the step taken is made
  subset-minimal with ``EXACT_BUDGET`` conflicts a test; a member whose test needs
  more stays, and the step says ``"minimal": false``);
- a reason stays valid as steps are taken (more known literals never unprove it), so
  it is cached; after a step, the candidates that share a place with its literals
  (an argument other than the last, the value) are asked whether fewer of their
  reason's clues now do (``_Walker.improved``, one solve call: a promise, costed
  when it is the lowest bound), and every candidate once the cheapest step costs
  more than ``CASE_THRESHOLD``;
- what the step's reason proves by propagation alone (every other clue free) is
  concluded in the same step: none of it costs less, so the reason is a cheapest
  one for each (a clue of 0 empties its whole line at once); so is what the new
  entries rule out at once by the rules, with no clue (a cell that holds a vampire
  holds no ghost): that is part of setting an entry, not a step of its own.

Where the cheapest step still costs more than ``CASE_THRESHOLD`` the step is a case
split if one is at hand: an entry whose assumption fails at once (propagation reaches
a contradiction with no guess) is ruled out, the case "if it held" explained by the
clues and literals that cannot hold together with it. The case is followed through
as a chain (``_Walker.chain``): inside it, one clue at a time (the case's own clues
first), what propagation concludes from the assumption and what is known, until a clue
cannot hold; each link needed on the way to that contradiction is given with a
subset-minimal reason of its own, so a person can follow the case as they would try
it on paper.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Iterable
from contextlib import suppress
from dataclasses import dataclass, field
from functools import cached_property
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clingo import Symbol

from ..driver.guard import time_left
from ..driver.reasoning import Reasoner, SearchLimit
from ..driver.results import INTERRUPTED, TIMEOUT
from ..errors import CheckFailed, TimeLimit
from ..puzzle import Puzzle
from .difficulty import difficulty as difficulty_of
from .difficulty import score as score_of
from .grading import class_anchor
from .grounding import (
    Grounded,
    check_in_solution,
    ground_instance,
    loaded,
    places,
    read_progress,
    value_of,
)
from .reports import hintable, recheck_fields, steps_found

if TYPE_CHECKING:
    from ..capabilities import Hints
    from .plan_walk import PlanWalkthrough

#: What a reason costs a person: each clue to read and combine, and each conclusion of
#: an earlier step to recall (a clue is a rule about a region of the board, applied
#: anew; a conclusion is one fact already on the board).
CLUE_COST = 3
LITERAL_COST = 1
#: A step costlier than this (more than four clues, or the like) is hard: every
#: candidate is costed again, and a case split is looked for.
CASE_THRESHOLD = 12
#: Conflicts a solve call may take while steps are costed: a candidate whose proof
#: needs more search is hard, costed only where nothing else is left.
BUDGET = 100
#: Conflicts a test of whether a step's reason needs a member may take: a member whose
#: test needs more is kept (the step says ``"minimal": false``).
EXACT_BUDGET = 100 * BUDGET
#: How many open entries a stuck walkthrough names in its text.
OPEN_SHOWN = 12
#: What the text says where a walkthrough stops before the solution, by its status
#: (the entries still open are named after it).
STOPPED = {
    "stuck": "logic stops here: the puzzle has several solutions from here",
    TIMEOUT: "the time limit stopped the walkthrough here",
    INTERRUPTED: "Ctrl-C stopped the walkthrough here",
}
#: The statuses of a walkthrough stopped before its end: the steps found are its answer.
CUT_SHORT = (TIMEOUT, INTERRUPTED)
#: A walkthrough under a time limit stops taking steps this share of the limit before
#: it (at most ``OUTPUT_TIME`` seconds), so that the steps found are drawn and handed
#: over before the limit, not lost with it.
OUTPUT_SHARE = 0.1
OUTPUT_TIME = 2.0
#: Most links a case's chain may take (each one clue's propagation): a case whose
#: contradiction lies further, or needs clues combined, names only what cannot hold.
CHAIN_LINKS = 40

Literal = tuple[Symbol, bool]


def literal_text(literal: Literal) -> str:
    """A literal as clingo writes it: ``monster(2,3,ghost)`` or
    ``not monster(2,3,ghost)``."""
    symbol, value = literal
    return str(symbol) if value else f"not {symbol}"


@dataclass(frozen=True)
class Reason:
    """Clues and earlier literals from which a conclusion follows, subset-minimal."""

    clues: tuple[Symbol, ...]
    after: tuple[Literal, ...]
    #: Whether every test of a member's need was answered (within the budget of
    #: conflicts it was asked under): a step's reason is made exact before it is taken.
    exact: bool = True

    @property
    def cost(self) -> int:
        return CLUE_COST * len(self.clues) + LITERAL_COST * len(self.after)


class _Costlier(Exception):
    """A reason being shrunk whose members proved needed already cost more than it was
    asked to: what they cost (at least what the reason will), the members still in
    it (a reason too, to go on shrinking from), and those proved needed."""

    def __init__(self, bound: int, members: list[Literal], needed: frozenset[Literal]) -> None:
        super().__init__(bound)
        self.bound = bound
        self.members = members
        self.needed = needed


@dataclass(frozen=True)
class Link:
    """A step inside a case: ``literals`` follow from the ``clues`` and the ``after``
    literals (known before the case, the case's assumption, or concluded by an earlier
    link), each member needed; without literals, the members cannot all hold (the
    contradiction that ends the case)."""

    literals: tuple[Literal, ...]
    clues: tuple[Symbol, ...]
    after: tuple[Literal, ...]


#: A round of propagation inside a case: the clues it assumes, the literals it reaches.
_Round = tuple[list[Symbol], list[Literal]]


@dataclass
class Case:
    """A case a step tries and refutes: with ``assume``, the reason cannot all hold;
    ``chain`` follows the case to its contradiction (empty where it is not found)."""

    assume: Literal
    reason: Reason
    chain: list[Link] = field(default_factory=list)


@dataclass
class Step:
    """Literals concluded together from one reason; ``implied`` are those the new
    entries alone rule out by the rules (part of the step, shown as a count)."""

    literals: list[Literal]
    reason: Reason
    implied: list[Literal] = field(default_factory=list)
    cases: list[Case] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def cost(self) -> int:
        return self.reason.cost + (LITERAL_COST if self.cases else 0)

    @property
    def concluded(self) -> list[Literal]:
        return [*self.literals, *self.implied]


@dataclass
class Walkthrough:
    """The steps from the start to the solution (or as far as logic goes)."""

    game: Puzzle[Any, Any]
    instance: Any
    name: str
    #: solved, stuck, unsolvable; or, the steps found before it stopped, timeout or
    #: interrupted (``CUT_SHORT``)
    status: str
    clues: list[Symbol]
    facts: list[Symbol]
    program: str = ""
    start: list[Literal] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    open: list[Symbol] = field(default_factory=list)
    conflict: list[Symbol] = field(default_factory=list)
    laid_first: list[Symbol] = field(default_factory=list)
    encoding: str = "shipped"
    seconds: float = 0.0
    #: What a routine step costs on this board (``routine_cost``): the difficulty's
    #: measure of a step beyond it.
    routine: int = CLUE_COST

    # -- words ---------------------------------------------------------------------
    @cached_property
    def _hints(self) -> Hints[Any, Any]:
        """The puzzle's hints slot, looked up once: a bare encoding's lookup reads its
        declarations, and a walkthrough's text names hundreds of entries."""
        return hintable(self.game)

    def _entry(self, literal: Literal) -> str:
        text = self._hints.entry_text(self.instance, literal[0])
        return text if literal[1] else f"not {text}"

    def _case_text(self, case: Case) -> str:
        text = self._hints.entry_text(self.instance, case.assume[0])
        return f"if {text} held" if case.assume[1] else f"if {text} did not hold"

    def _clue(self, clue: Symbol) -> str:
        return self._hints.clue_text(self.instance, clue)

    def found_before_limit(self) -> str:
        """What a walkthrough cut short shows: its steps."""
        return steps_found(len(self.steps))

    @property
    def difficulty(self) -> str | None:
        """``easy``, ``normal``, ``tricky`` or ``hard`` (:mod:`.difficulty`), for a
        walkthrough that reaches the solution; None where logic stops short of it."""
        return difficulty_of(self.steps, self.routine) if self.status == "solved" else None

    @property
    def score(self) -> float | None:
        """The score the difficulty is read from (:mod:`.difficulty`); None where there
        is no difficulty."""
        return score_of(self.steps, self.routine) if self.status == "solved" else None

    def step_text(self, step: Step) -> str:
        """A step as a sentence in the puzzle's words."""
        shown = [lit for lit in step.literals if lit[1]] or step.literals
        said = "; ".join(self._entry(literal) for literal in shown if literal[1])
        if not said:
            said = "ruled out: " + "; ".join(self._entry((s, True)) for s, _ in shown)
        hidden = len(step.concluded) - len(shown)
        if hidden:
            said += f" (ruling out {hidden} more)"
        if step.cases:
            [case] = step.cases
            return f"{said}: {self._case_text(case)}, these could not all hold: " + self._reasons(
                case.reason
            )
        return f"{said}, because of {self._reasons(step.reason)}"

    def link_text(self, link: Link) -> str:
        """A link of a case's chain as a sentence: "then ..., because ..." or, at its
        end, "then these could not all hold: ..."."""
        because = self._reasons(Reason(link.clues, link.after))
        if not link.literals:
            return f"then these could not all hold: {because}"
        said = "; ".join(self._entry(literal) for literal in link.literals)
        return f"then {said}, because of {because}"

    def _reasons(self, reason: Reason) -> str:
        parts = [self._clue(clue) for clue in reason.clues]
        parts += [self._entry(literal) for literal in reason.after]
        return "; ".join(parts) if parts else "the rules alone"

    def lines(self) -> list[str]:
        count = len(self.steps)
        said = "time limit reached" if self.status == TIMEOUT else self.status
        head = f"{self.game.name} {self.name}: {said}"
        if self.status != "unsolvable":
            head += f", {count} step{'s' if count != 1 else ''}"
        if (score := self.score) is not None:
            head += f", {self.difficulty} (score {score:.2f})"
        lines = [head]
        if self.laid_first:
            laid = "; ".join(self._entry((entry, True)) for entry in self.laid_first)
            lines.append(f"laid first (solutions differ only by turning the board): {laid}")
        for number, step in enumerate(self.steps, 1):
            lines.append(f"{number:>3}. {self.step_text(step)} [cost {step.cost}]")
            for case in step.cases:
                lines += [f"       {self.link_text(link)}" for link in case.chain]
        if self.status in STOPPED:
            named = [self._entry((entry, True)) for entry in self.open[:OPEN_SHOWN]]
            more = len(self.open) - len(named)
            lines.append(
                STOPPED[self.status]
                + "; still open: "
                + "; ".join(named)
                + (f" and {more} more" if more > 0 else "")
            )
        if self.status == "unsolvable":
            lines.append("no solution; these cannot all hold:")
            lines += [f"  {self._symbol(symbol)}" for symbol in self.conflict]
        return lines

    def _symbol(self, symbol: Symbol) -> str:
        if symbol in set(self.clues):
            return self._clue(symbol)
        return "your " + self._entry((symbol, True))

    def text(self) -> str:
        return "\n".join(self.lines()) + "\n"

    def keep_steps(self, count: int) -> None:
        """Keep the first ``count`` steps only (those a page had the time to draw):
        what the others concluded is open again, and the walkthrough is one cut by
        the time limit."""
        if count >= len(self.steps):
            return
        reopened = [entry for step in self.steps[count:] for entry, _ in step.concluded]
        del self.steps[count:]
        self.open = sorted({*self.open, *reopened})
        self.status = TIMEOUT

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "puzzle": self.game.name,
            "instance": self.name,
            "status": self.status,
        }
        if (score := self.score) is not None:
            data["difficulty"] = self.difficulty
            data["score"] = round(score, 2)
            data["routine"] = self.routine
        if self.encoding == "edited":
            data["encoding"] = "edited"
        data |= recheck_fields(self.clues, self.facts, self.program)
        data["start"] = [literal_text(literal) for literal in self.start]
        if self.laid_first:
            data["laid_first"] = [str(entry) for entry in self.laid_first]
        data["steps"] = [self._step_dict(step) for step in self.steps]
        if self.status in STOPPED:
            data["open"] = [str(entry) for entry in self.open]
        if self.status == "unsolvable":
            data["conflict"] = [str(symbol) for symbol in self.conflict]
        return data

    def _step_dict(self, step: Step) -> dict[str, Any]:
        data: dict[str, Any] = {
            "literals": [literal_text(literal) for literal in step.concluded],
            "because": [str(clue) for clue in step.reason.clues],
            "after": [literal_text(literal) for literal in step.reason.after],
            "cost": step.cost,
            "text": self.step_text(step),
        }
        if not step.reason.exact:
            data["minimal"] = False
        if step.cases:
            data["cases"] = [
                {
                    "assume": literal_text(case.assume),
                    "because": [str(clue) for clue in case.reason.clues],
                    "after": [literal_text(literal) for literal in case.reason.after],
                }
                | ({"steps": [self._link_dict(link) for link in case.chain]} if case.chain else {})
                for case in step.cases
            ]
        return data

    def _link_dict(self, link: Link) -> dict[str, Any]:
        return {
            "literals": [literal_text(literal) for literal in link.literals],
            "because": [str(clue) for clue in link.clues],
            "after": [literal_text(literal) for literal in link.after],
            "text": self.link_text(link),
        }

    def svg(self) -> str:
        """The start and the board after each step, the step's entries and reason
        marked, its sentence under it (``walkthrough_views``)."""
        from .walkthrough_views import svg

        return svg(self)

    def _repr_html_(self) -> str:
        """The boards in a notebook, stepped through forward and back."""
        from .walkthrough_views import html

        label = escape(self.lines()[0], quote=True)
        return f'<div role="region" aria-label="{label}">{html(self)}</div>'

    def __repr__(self) -> str:
        return f"<{self.lines()[0]}>"

    def __str__(self) -> str:
        return self.text()


# -- the walk -------------------------------------------------------------------------
class _Walker:
    """The state of a walkthrough: the literals known, the candidates and their reasons."""

    def __init__(
        self,
        ground: Grounded,
        start: list[Literal],
        targets: set[Literal],
        valued: Iterable[tuple[str, int]] = (),
        chains: bool = True,
    ) -> None:
        self.ground = ground
        #: The kinds of entry whose last argument is a value (``valued_kinds``); in
        #: the others every argument says where the entry is.
        self.valued = frozenset(valued)
        #: Whether a case is followed through to its contradiction (a grade or a
        #: generator reads only the steps' costs, which the chain does not change).
        self.chains = chains
        self.reasoner: Reasoner = ground.reasoner
        self.clue_set = set(self.reasoner.clues)
        self.known: dict[Symbol, bool] = {}
        self.order: dict[Symbol, int] = {e: i for i, e in enumerate(self.reasoner.entries)}
        # The reasoner's own symbol objects (an answer's are equal but others), which
        # it looks up by identity, without a hash.
        self.start = self._learn(self._owned(start))
        self.candidates = set(self._owned([lit for lit in targets if lit[0] not in self.known]))
        self.reasons: dict[Literal, Reason] = {}
        #: Candidates whose proof needs more search than ``BUDGET`` conflicts a solve
        #: call: costed only when no other step is left (or all are hard), since a
        #: person finds them hard too; tried again once a step touches them.
        self.hard: set[Literal] = set()
        #: Each entry's places and value (``_placed``), as numbers: small integers are
        #: compared without hashing a clingo symbol (a call into clingo each).
        self.placed: dict[Symbol, tuple[frozenset[int], int]] = {}
        self.numbers: dict[tuple[int, Symbol], int] = {}
        #: The known literals with their places and values, in the order they became
        #: known (made again after a step: ``_known_places``).
        self.known_places: list[tuple[Literal, frozenset[int], int]] | None = None
        #: What a candidate may cost where its reason is not known yet or may have got
        #: cheaper (``bound``): it is costed only once it could be the next step.
        self.estimates: dict[Literal, int] = {}
        #: The reasons, not yet minimal, that promise a candidate a cheaper one
        #: (``improved``).
        self.seeds: dict[Literal, list[Literal]] = {}
        #: The clues of a candidate's last promise that held fewer clues than its
        #: reason and proved no cheaper once shrunk: the same clues are not
        #: promised again (on a 15x15 board such promises came back step after step).
        self.refused: dict[Literal, frozenset[Symbol]] = {}
        #: Candidates whose promise was shrunk only until it proved unable to bring
        #: them under ``CASE_THRESHOLD`` (``settle``): their seed is what is left of
        #: it, their estimate what it costs at least. On a 15x15 board nine in ten
        #: promises were of hard candidates that stayed hard, most of the time spent.
        self.deferred: set[Literal] = set()
        #: The members a deferred candidate's promise proved needed: tested first in
        #: its next promise (``_within``).
        self.needed: dict[Literal, frozenset[Literal]] = {}
        #: The reasons of candidates being costed afresh (``_cheaper_beside``): kept where
        #: the fresh one, found greedily, costs more or is not found within the budget.
        self.stale: dict[Literal, Reason] = {}
        #: The clues sharing a place with each entry (``_cheaper_beside``), made once.
        self.beside: dict[Symbol, list[Symbol]] = {}
        self.recost(self.ordered())

    # -- knowledge -----------------------------------------------------------------
    def _owned(self, literals: list[Literal] | set[Literal]) -> list[Literal]:
        listed = list(literals)
        symbols = self.reasoner.own([symbol for symbol, _ in listed])
        return [(symbol, value) for symbol, (_, value) in zip(symbols, listed, strict=True)]

    def _learn(self, literals: Iterable[Literal]) -> list[Literal]:
        """Add literals to what is known, with what each new entry alone rules out; the
        literals newly known, in order."""
        new = [lit for lit in dict.fromkeys(literals) if lit[0] not in self.known]
        self.known.update(new)
        self.known_places = None
        implied: list[Literal] = []
        for symbol, value in new:
            if value:
                implied += [lit for lit in self._ruled_out_by(symbol) if lit[0] not in self.known]
        implied = list(dict.fromkeys(implied))
        self.known.update(implied)
        return [*new, *implied]

    def _ruled_out_by(self, entry: Symbol) -> list[Literal]:
        """The entries that the rules rule out at once with ``entry`` (every clue free):
        what propagation alone makes false (sound, so they follow from the entry; a
        brave enumeration would find a few more, at a tenth of a second an entry on a
        15x15 board, and those become steps of their own)."""
        out = ruled_out(self.reasoner, entry)
        return [(other, False) for other in self.reasoner.entries if other in out]

    # -- reasons -------------------------------------------------------------------
    def _core(
        self, fixed: list[Literal], members: list[Literal], budget: int | None
    ) -> list[Literal] | None:
        return self.reasoner.core(fixed, members, conflicts=budget)

    def reason(self, literal: Literal, budget: int | None = BUDGET) -> Reason:
        """A reason of a candidate: its negation with the reason has no answer set, and
        (where every test was answered within the ``budget``) with any member dropped it
        has one. Seeded toward the cheap members: the known literals alone first (those
        ruling the candidate's value out elsewhere early: ``_nearest_first``); else the
        clues of a core are dropped one at a time while every known literal stays at
        hand, so that a conclusion already on the board replaces the clues it came
        from; then the literals, the nearest (sharing a place with the candidate)
        offered first. SearchLimit where proving it at all takes more than the
        budget."""
        symbol, value = literal
        fixed = [(symbol, not value)]
        alone = self._nearest_first(symbol, by_value=True)
        clues: list[Literal] = []
        if alone and self._core(fixed, alone, budget) is not None:
            known = alone  # the known literals prove it alone: a value's places first
        else:
            known = self._nearest_first(symbol)
            every = [*known, *((c, True) for c in self.reasoner.clues)]
            core = self._core(fixed, every, budget)
            if core is None:
                raise CheckFailed(
                    f"a walkthrough step of '{self.ground.game.name}' does not follow"
                )
            core = self.reasoner.trimmed(fixed, core, budget)
            clues = self._split(core)[0]
        exact = True
        for member in list(clues):
            trial = [kept for kept in clues if kept != member]
            try:
                smaller = self._core(fixed, [*known, *trial], budget)
            except SearchLimit:
                exact = False
                continue
            if smaller is not None:
                found = set(smaller)
                clues = [kept for kept in trial if kept in found]
        # The clues first, then the literals nearest first: clasp's core holds the
        # members its first conflict needs, so the far ones mostly stay out of it.
        try:
            core = self._core(fixed, [*clues, *known], budget)
        except SearchLimit:
            core, exact = [*clues, *known], False
        if core is None:
            raise CheckFailed(f"a walkthrough step of '{self.ground.game.name}' does not follow")
        offered = set(clues)
        after, shrunk = self._shrunk(fixed, clues, [m for m in core if m not in offered], budget)
        return Reason(
            tuple(sorted((s for s, _ in clues), key=self._rank)),
            tuple(sorted(after, key=self._lit)),
            exact and shrunk,
        )

    def _nearest_first(self, entry: Symbol, by_value: bool = False) -> list[Literal]:
        """The known literals, those of ``entry``'s own place first (a cell's values
        ruled out: what its last value is read off), then those sharing a place with
        it, entries set before entries ruled out, then the rest likewise (each part in
        the order they became known). With the own place first, a Sudoku's cached
        reasons are found cheaper again as the board fills (half its case splits were
        taken where a single was there, its cheaper reason unseen). ``by_value``: the
        literals ruling out ``entry``'s value elsewhere come right after the near
        entries set, the near ones first (a digit's other places in a row or a box:
        what a hidden single is read off), for a reason from known literals alone."""
        where_entry, value_entry = self._placed(entry)
        own = value_entry if by_value else None
        same: list[Literal] = []
        near_set: list[Literal] = []
        near_out: list[Literal] = []
        far_set: list[Literal] = []
        far_out: list[Literal] = []
        value_near: list[Literal] = []
        value_far: list[Literal] = []
        for literal, where, value in self._known_places():
            if where == where_entry:
                same.append(literal)
            elif value == own and not literal[1]:
                (value_far if where_entry.isdisjoint(where) else value_near).append(literal)
            elif where_entry.isdisjoint(where):
                (far_set if literal[1] else far_out).append(literal)
            else:
                (near_set if literal[1] else near_out).append(literal)
        return [*same, *near_set, *value_near, *near_out, *value_far, *far_set, *far_out]

    def _known_places(self) -> list[tuple[Literal, frozenset[int], int]]:
        if self.known_places is None:
            self.known_places = [(lit, *self._placed(lit[0])) for lit in self.known.items()]
        return self.known_places

    def _shrunk(
        self,
        fixed: list[Literal],
        clues: list[Literal],
        literals: list[Literal],
        budget: int | None,
        above: int | None = None,
        proven: list[Literal] | None = None,
        first: frozenset[Literal] = frozenset(),
    ) -> tuple[list[Literal], bool]:
        """The literals of a core shrunk by deletion, the clues kept: each literal
        dropped in turn, kept out while the rest still has no answer set; the core of
        such a test replaces the rest (it may drop several members at once). Also
        whether every test was answered within the budget. With ``above``, _Costlier
        once the members proved needed cost more (``proven``: the clues proved needed):
        a member needed in a set is in every subset without an answer set, so they are
        in the reason whatever else is dropped; ``first``: members tested before the
        others (see ``_within``)."""
        needed = list(literals)
        exact = True
        proven = list(proven or ())
        proved = CLUE_COST * len(proven)
        # The members are told apart by identity (a core returns the objects it was
        # given), not by equality: comparing two literals' symbols is a call into
        # clingo, and these tests compare a million pairs a walk.
        still = {id(kept) for kept in needed}
        # Ruled-out values first: an entry set says more than one ruled out, and a
        # reason that keeps it is the shorter one.
        for member in sorted(literals, key=lambda m: (m not in first, m[1], self._lit(m))):
            if id(member) not in still:
                continue
            trial = [kept for kept in needed if kept is not member]
            try:
                smaller = self._core(fixed, [*clues, *trial], budget)
            except SearchLimit:
                exact = False
                continue
            if smaller is not None:
                found = {id(kept) for kept in smaller}
                needed = [kept for kept in trial if id(kept) in found]
                still = {id(kept) for kept in needed}
                continue
            proved += LITERAL_COST
            proven.append(member)
            if above is not None and proved > above:
                raise _Costlier(proved, [*clues, *needed], frozenset(proven))
        return needed, exact

    def exact(self, literal: Literal, reason: Reason) -> Reason:
        """A reason whose deletion tests were not all answered made subset-minimal:
        each member dropped in turn, each test given ``EXACT_BUDGET`` conflicts (a
        member whose test needs more is kept, and the reason says it may not be
        minimal: on a 15x15 board one such test can run for minutes)."""
        if reason.exact:
            return reason
        clues = [(clue, True) for clue in reason.clues]
        return self._within(literal, clues, list(reason.after), EXACT_BUDGET)

    def _within(
        self,
        literal: Literal,
        clues: list[Literal],
        literals: list[Literal],
        budget: int,
        above: int | None = None,
        first: frozenset[Literal] = frozenset(),
    ) -> Reason:
        """A reason made subset-minimal within itself: its clues dropped one at a time
        while its literals stay at hand, then its literals (``_shrunk``). With
        ``above``, _Costlier as soon as the members proved needed cost more. The
        members in ``first`` are tested first: those a candidate's last promise proved
        needed, likely needed again in the next, so that its cost is proved past
        ``above`` in fewer tests."""
        fixed = [(literal[0], not literal[1])]
        exact = True
        proved = 0
        proven: list[Literal] = []
        for member in sorted(clues, key=lambda m: m not in first):
            trial = [kept for kept in clues if kept != member]
            try:
                if self._core(fixed, [*trial, *literals], budget) is not None:
                    clues = trial
                    continue
            except SearchLimit:
                exact = False
                continue
            proved += CLUE_COST
            proven.append(member)
            if above is not None and proved > above:
                raise _Costlier(proved, [*clues, *literals], frozenset(proven))
        after, shrunk = self._shrunk(fixed, clues, literals, budget, above, proven, first)
        return Reason(
            tuple(sorted((s for s, _ in clues), key=self._rank)),
            tuple(sorted(after, key=self._lit)),
            exact and shrunk,
        )

    def improved(self, literal: Literal) -> list[Literal] | None:
        """A reason (not necessarily minimal) that, with the known literals, proves a
        candidate more cheaply than its cached reason (a cheaper reason may exist now
        that more literals are known: a Sudoku cell's last digit follows from its eight
        neighbours' once they are set, though it followed from a long chain before),
        or None. One solve call: the known literals are assumed, nearest first, before
        the reason's clues, so clasp's core holds only the clues it still needs once
        they are set. The core is a reason, so shrinking it within itself (``settle``)
        keeps a promise of a lower cost: a subset costs no more."""
        old = self.reasons[literal]
        if old.cost <= CLUE_COST:  # one clue alone (or as few literals): kept as it is
            return None
        symbol, value = literal
        fixed = [(symbol, not value)]
        clues = [(clue, True) for clue in old.clues]
        try:
            near = self._nearest_first(symbol, by_value=not clues)
            core = self._core(fixed, [*near, *clues], BUDGET)
        except SearchLimit:
            return None
        if core is None:  # cannot be: the reason still proves it
            return None
        kept = frozenset(symbol for symbol, _ in self._split(core)[0])
        cost = CLUE_COST * len(kept) + LITERAL_COST * (len(core) - len(kept))
        if cost < old.cost:
            return core
        if len(kept) < len(old.clues) and self.refused.get(literal) != kept:
            return core
        return None

    def _cheaper_beside(self, literal: Literal) -> bool:
        """Whether a costly candidate's cached reason is likely stale: the candidate is
        of a kind without values (``valued``), and the known literals with the clues
        beside it (sharing a place with it) propagate to it. A new literal there
        brings other clues into play, not the ones its reason named, so ``improved``
        (which offers those) cannot see the cheaper reason: once a Hitori's (1,2)
        is unshaded, the 4 at (3,2) is shaded for the 4 at (1,2), where the reason
        cached at the start took eight clues. A kind with values (a Sudoku's digits)
        is left to ``improved``: its singles come from the literals of its place,
        and asking every candidate of a 15x15 Haunted board so cost a third more
        time for nearly the same steps."""
        symbol, value = literal
        reason = self.reasons.get(literal)
        if reason is None or reason.cost <= CASE_THRESHOLD or len(symbol.arguments) < 2:
            return False
        if (symbol.name, len(symbol.arguments)) in self.valued:
            return False
        beside = self.beside.get(symbol)
        if beside is None:
            where = self._where(symbol)
            beside = [c for c in self.reasoner.clues if not where.isdisjoint(self._where(c))]
            self.beside[symbol] = beside
        if not beside:
            return False
        assumed = [*self.known.items(), (symbol, not value)]
        return self.reasoner.propagate(assumed, clues=beside, among=()) is None

    def _split(self, members: list[Literal]) -> tuple[list[Literal], list[Literal]]:
        """A core's clues (assumed) and its other members, each in the core's order."""
        clues = [m for m in members if m[1] and m[0] in self.clue_set]
        offered = set(clues)
        return clues, [m for m in members if m not in offered]

    def _rank(self, clue: Symbol) -> int:
        return self.reasoner.clues.index(clue)

    def _lit(self, literal: Literal) -> tuple[int, bool]:
        return self.order.get(literal[0], -1), not literal[1]

    def bound(self, literal: Literal) -> int:
        """What a candidate costs where its reason is known and nothing promises a
        cheaper one; else what it costs at least (``estimates``: one literal or one
        clue)."""
        if literal in self.estimates:
            return self.estimates[literal]
        return self.reasons[literal].cost

    def settled(self, literal: Literal) -> bool:
        """Whether a candidate's cost is known, with no cheaper reason in prospect."""
        return literal in self.reasons and literal not in self.estimates

    def settle(self, literal: Literal, budget: int | None, ceiling: int | None = None) -> None:
        """A candidate's reason found (or a cheaper one sought, from ``seeds``), within
        the budget: a candidate whose proof needs more search is noted hard. With a
        ``ceiling`` that its reason costs more than, a cheaper one is sought only
        while it may come under the ceiling: once the promise's members proved
        needed cost more, the candidate is left with that as its estimate and the
        rest of the promise as its seed (shrunk on only where no step under the
        ceiling is left)."""
        self.estimates.pop(literal, None)
        self.deferred.discard(literal)
        seed = self.seeds.pop(literal, None)
        if literal in self.reasons:
            if seed is not None:
                old = self.reasons[literal].cost
                above = ceiling if ceiling is not None and old > ceiling else None
                clues, literals = self._split(seed)
                first = self.needed.get(literal, frozenset()) if above is not None else frozenset()
                try:
                    found = self._within(literal, clues, literals, BUDGET, above, first)
                except _Costlier as costlier:
                    self.seeds[literal] = costlier.members
                    self.estimates[literal] = min(old, costlier.bound)
                    self.deferred.add(literal)
                    self.needed[literal] = costlier.needed
                    return
                if found.cost < self.reasons[literal].cost:
                    self.reasons[literal] = found
                else:  # fewer clues that did not make it cheaper: not promised again
                    self.refused[literal] = frozenset(s for s, _ in clues)
            return
        stale = self.stale.pop(literal, None)
        try:
            found = self.reason(literal, budget=budget)
        except SearchLimit:
            if stale is not None:
                self.reasons[literal] = stale
            else:
                self.hard.add(literal)
            return
        self.reasons[literal] = found if stale is None or found.cost <= stale.cost else stale
        self.hard.discard(literal)

    def estimate(self, literal: Literal) -> None:
        """What a candidate costs at least (one solve call): nothing where the rules
        alone prove it (a cell a board's regions force, in a puzzle with no clue at
        all), one literal where the known literals alone (no clue) may, else one
        clue."""
        fixed = [(literal[0], not literal[1])]
        bound = LITERAL_COST  # where the search runs out: it may
        with suppress(SearchLimit):
            core = self._core(fixed, self._nearest_first(literal[0]), BUDGET)
            bound = CLUE_COST if core is None else LITERAL_COST if core else 0
        self.estimates[literal] = bound

    def recost(self, literals: Iterable[Literal]) -> None:
        """Note what candidates may cost now that more is known: one never costed, or
        one whose reason may have got cheaper (``improved``), at least what
        ``estimate`` says. None is costed here (``cheapest`` does, lazily)."""
        for literal in literals:
            if self._cheaper_beside(literal):
                self.stale[literal] = self.reasons.pop(literal)  # costed afresh
                self.seeds.pop(literal, None)
                self.deferred.discard(literal)
            if literal not in self.reasons:
                self.hard.discard(literal)  # more is known: it may be easy now
                self.estimate(literal)
                continue
            if literal in self.estimates and literal not in self.deferred:
                continue
            try:
                promised = self.improved(literal)
            except SearchLimit:
                continue
            if promised is not None:
                # What the promise itself would cost is no bound (clasp's core keeps
                # clues a reason drops: 19 promised, 2 found): the bound of a
                # candidate never costed stands for it.
                self.seeds[literal] = promised
                self.deferred.discard(literal)
                self.estimate(literal)

    # -- steps ---------------------------------------------------------------------
    def ordered(self) -> list[Literal]:
        """The candidates in the entries' order: clasp's answers to the same questions
        asked in the same order are the same (its heuristic carries over between solve
        calls), so a walkthrough is the same on every run."""
        return sorted(self.candidates, key=self._lit)

    def cheapest(self, ceiling: int | None) -> Literal:
        """The candidate of the cheapest reason, costed lazily: the candidate that
        may cost least (``bound``) is costed, until the one that may cost least has
        its cost settled. Where the bounds are lower bounds (as ``estimate``'s are)
        this is the cheapest step, found without costing the candidates that cannot
        be it. Once every candidate may cost more than ``ceiling`` the step is hard
        (a case split is looked for) and the cheapest costed so far is taken: which
        hard step comes first matters less than finding it without costing every
        candidate (``step`` gives ``CASE_THRESHOLD``, read when it is called; None:
        every candidate costed). Candidates hard within the budget are costed with ten
        times more, and so on, only where none is left."""
        budget: int | None = BUDGET
        ordered = self.ordered()
        while True:
            # The open candidates by rank, ties in the entries' order. Costing one
            # changes its own rank only (and no candidate), so the queue is made once
            # a budget, the one costed put back.
            queue = [
                (self._rank_bound(lit), place)
                for place, lit in enumerate(ordered)
                if self._open(lit, budget)
            ]
            heapq.heapify(queue)
            while queue:
                _, place = heapq.heappop(queue)
                best = ordered[place]
                if self.settled(best):
                    return best
                if ceiling is not None and self.bound(best) > ceiling:
                    settled = [entry for entry in queue if self.settled(ordered[entry[1]])]
                    if settled:
                        return ordered[min(settled)[1]]
                # Under the ceiling, a promise is shrunk only while it may bring a
                # candidate under it; past it (no cheaper step left), to the end.
                below = ceiling is not None and self.bound(best) <= ceiling
                self.settle(best, budget, ceiling if below else None)
                if self._open(best, budget):
                    heapq.heappush(queue, (self._rank_bound(best), place))
            budget = None if budget is None or budget >= 100 * BUDGET else budget * 10
            for literal in self.candidates:  # the hard ones, costed with more budget
                if literal not in self.reasons:
                    self.estimates.setdefault(literal, CLUE_COST)

    def _open(self, literal: Literal, budget: int | None) -> bool:
        """Whether ``cheapest`` may cost a candidate: it has a reason or a bound, and
        it is not hard within the first budget."""
        return (literal in self.reasons or literal in self.estimates) and (
            budget != BUDGET or literal not in self.hard
        )

    def _rank_bound(self, literal: Literal) -> tuple[int, bool, bool, tuple[int, bool]]:
        """Cheapest first; of equal bounds a settled cost first, then a set entry
        before a ruled-out one, then the entries' order."""
        return (
            self.bound(literal),
            not self.settled(literal),
            literal[1] is False,
            self._lit(literal),
        )

    def step(self) -> Step:
        started = time.perf_counter()
        best = self.cheapest(CASE_THRESHOLD)
        if self.reasons[best].cost > CASE_THRESHOLD:
            # The step is hard: every candidate whose reason may have got cheaper is
            # asked again; then a case split, else the cheapest of all.
            self.recost(self.ordered())
            best = self.cheapest(CASE_THRESHOLD)
            if self.reasons[best].cost > CASE_THRESHOLD:
                if (split := self._case()) is not None:
                    return self._take(split, started)
                best = self.cheapest(ceiling=None)
        reason = self.reasons[best] = self.exact(best, self.reasons[best])
        return self._take(Step(self._alike(best, reason), reason), started)

    def _alike(self, best: Literal, reason: Reason) -> list[Literal]:
        """The candidates a step's reason proves with its own (by propagation from the
        reason alone, every other clue free): none costs less, since the step is the
        cheapest, so the reason is a cheapest one of each, concluded together (a clue
        of 0 empties its whole line at once)."""
        among = {symbol for symbol, _ in self.candidates}
        seen = self.reasoner.propagate(list(reason.after), clues=list(reason.clues), among=among)
        alike = {best}
        if seen is not None:
            alike |= {
                lit for lit in self.candidates if lit[0] in (seen.true if lit[1] else seen.false)
            }
        return sorted(alike, key=lambda lit: (lit[1] is False, self._lit(lit)))

    def _case(self) -> Step | None:
        """A case split: among the candidates that rule an entry out, one whose
        assumption fails at once (a contradiction by propagation, no guess), the
        cheapest; the case is the entry assumed, its reason what cannot hold with it.
        Costed lazily as ``cheapest`` does, and asked whether it fails at once only
        when it could be the one (one probe each, with every known literal assumed)."""
        assumed = list(self.known.items())
        open_ = [lit for lit in self.candidates if not lit[1] and lit not in self.hard]
        failing: set[Literal] = set()
        while open_:
            chosen = min(open_, key=self._rank_bound)
            if chosen not in failing:
                if not self.reasoner.fails_at_once(assumed, (chosen[0], True)):
                    open_.remove(chosen)
                    continue
                failing.add(chosen)
            if self.settled(chosen):
                reason = self.reasons[chosen] = self.exact(chosen, self.reasons[chosen])
                assume = (chosen[0], True)
                chain = self.chain(assume, reason) if self.chains else []
                return Step([chosen], reason, cases=[Case(assume, reason, chain)])
            self.settle(chosen, BUDGET)
            if chosen in self.hard:
                open_.remove(chosen)
        return None

    # -- a case followed through ------------------------------------------------------
    def chain(self, assume: Literal, reason: Reason) -> list[Link]:
        """The links of a case from its assumption to its contradiction, by the case's
        clues (so that the chain explains the reason given) and what is known. Empty
        where a question runs out of its budget, or the chain would only repeat the
        case's reason."""
        base = [*self.known.items(), assume]
        with suppress(SearchLimit):
            links = self._links(base, self._rounds(base, list(reason.clues)))
            # A chain that concludes nothing by a clue before its end says no more
            # than the case's reason.
            return links if any(link.clues for link in links[:-1]) else []
        return []

    def _rounds(self, base: list[Literal], clues: list[Symbol]) -> list[_Round]:
        """Propagation inside a case, one clue at a time (none: the rules alone): each
        round, a clue that cannot hold with what the case has reached ends it; else the
        first clue that concludes something new adds it. The rounds (clues, new
        literals), the last with no literals: the contradiction's. Where no clue alone
        concludes more (the clues act together: a count shared by two lines), or past
        ``CHAIN_LINKS`` rounds, the last round is every clue: they cannot all hold
        with what has been reached (the reason says so)."""
        have: dict[Symbol, bool] = dict(base)
        rounds: list[_Round] = []
        for _ in range(CHAIN_LINKS):
            found: _Round | None = None
            for clue in [None, *clues]:
                alone = [] if clue is None else [clue]
                seen = self.reasoner.propagate(list(have.items()), clues=alone)
                if seen is None:
                    return [*rounds, (alone, [])]
                new = [(e, True) for e in seen.true if e not in have]
                new += [(e, False) for e in seen.false if e not in have]
                if new and found is None:
                    found = (alone, sorted(new, key=lambda lit: (lit[1] is False, self._lit(lit))))
            if found is None:
                break
            rounds.append(found)
            have.update(found[1])
        return [*rounds, (clues, [])]

    def _links(self, base: list[Literal], rounds: list[_Round]) -> list[Link]:
        """The links the contradiction needs, from the last round back: each a literal
        of a round with a minimal reason among the round's clues and what was reached
        before the round; a literal no later link needs is left out."""
        reached = [list(base)]
        for _, literals in rounds:
            reached.append([*reached[-1], *literals])
        needed: set[Literal] = set()
        links: list[Link] = []
        for index in range(len(rounds) - 1, -1, -1):
            clues, literals = rounds[index]
            goals: list[Literal | None] = [*literals] if literals else [None]
            for goal in goals:
                if goal is not None and goal not in needed:
                    continue
                link = self._link(goal, clues, reached[index])
                needed |= set(link.after)
                links.append(link)
        return links[::-1]

    def _link(self, goal: Literal | None, clues: list[Symbol], before: list[Literal]) -> Link:
        """One link: ``goal`` (None: a contradiction) from subset-minimal sets of the
        ``clues`` and of the literals ``before`` it."""
        fixed = [] if goal is None else [(goal[0], not goal[1])]
        # Entries set before those ruled out (one set entry says what several ruled
        # out say), the latest first: clasp's core prefers the members offered first.
        literals = sorted(before[::-1], key=lambda literal: not literal[1])
        core = self._core(fixed, [*((clue, True) for clue in clues), *literals], BUDGET)
        if core is None:
            raise CheckFailed(f"a walkthrough case of '{self.ground.game.name}' does not follow")
        offered = set(clues)
        kept = [member for member in core if member[0] in offered]
        for member in list(kept):
            trial = [other for other in kept if other != member]
            if self._core(fixed, [*trial, *literals], BUDGET) is not None:
                kept = trial  # the rest do without it
        reached = [member for member in core if member[0] not in offered]
        after, _ = self._shrunk(fixed, kept, reached, BUDGET)
        return Link(
            () if goal is None else (goal,),
            tuple(sorted((symbol for symbol, _ in kept), key=self._rank)),
            tuple(sorted(after, key=self._lit)),
        )

    def _take(self, step: Step, started: float) -> Step:
        new = self._learn(step.literals)
        step.implied = [lit for lit in new if lit not in step.literals]
        learnt = set(new)
        self.candidates -= {lit for lit in self.candidates if lit[0] in self.known}
        for literal in learnt:
            self.reasons.pop(literal, None)
            self.stale.pop(literal, None)
            self.estimates.pop(literal, None)
            self.seeds.pop(literal, None)
            self.deferred.discard(literal)
            self.needed.pop(literal, None)
            self.hard.discard(literal)
        touched = self._places(lit[0] for lit in learnt)
        self.recost(lit for lit in self.ordered() if not touched.isdisjoint(self._where(lit[0])))
        step.seconds = time.perf_counter() - started
        return step

    def _places(self, entries: Iterable[Symbol]) -> set[int]:
        """Where entries are (``_where``), together."""
        found: set[int] = set()
        for entry in entries:
            found |= self._where(entry)
        return found

    def _where(self, entry: Symbol) -> frozenset[int]:
        return self._placed(entry)[0]

    def _placed(self, entry: Symbol) -> tuple[frozenset[int], int]:
        """Where an entry is (``grounding.places``) and its value, numbered (looked up
        once an entry). An entry of a kind without values (``valued``) is where all
        its arguments say, and its value its own: learning ``unshaded(1,2)`` touches
        column 2, where it makes ``shaded(3,2)`` a cheap step again."""
        found = self.placed.get(entry)
        if found is None:
            numbers = self.numbers
            if len(entry.arguments) < 2 or (entry.name, len(entry.arguments)) in self.valued:
                where_at, value = places(entry), value_of(entry)
            else:
                where_at, value = list(enumerate(entry.arguments)), entry
            where = frozenset(numbers.setdefault(place, len(numbers)) for place in where_at)
            number = numbers.setdefault((-2, value), len(numbers))
            found = self.placed[entry] = (where, number)
        return found


def walkthrough(
    puzzle: Puzzle[Any, Any],
    instance: str | Path | None = None,
    *,
    progress: str | None = None,
    encoding: str | Path | None = None,
    timeout: float | None = None,
    chains: bool = True,
    partial: bool = True,
    reserve: float | None = None,
) -> Walkthrough | PlanWalkthrough:
    """The steps from the givens (or the player's progress) to the solution, each the
    cheapest available with its minimal reason; ``stuck`` where the puzzle has several
    solutions (the open entries named), ``unsolvable`` where it has none. A puzzle
    played by moves (capture) walks through its proved-shortest plan instead
    (:mod:`.plan_walk`). ``timeout`` (seconds) bounds the whole question: TimeLimit when
    it runs out, but that with ``partial``, once steps are being taken, the steps found
    are the answer (status ``timeout``, the entries still open named), and so on an
    interrupt (status ``interrupted``). ``reserve`` (seconds) is how long before the
    limit (``timeout``, or a guarded child's own) the steps stop, left for drawing them
    and handing them over (by default a tenth of ``timeout``, at most ``OUTPUT_TIME``).
    Without ``chains``, a case split names what cannot hold but is not followed through
    (a grade reads only the costs)."""
    started = time.perf_counter()
    if puzzle.hints() is None and puzzle.plan_hints() is not None:
        from .plan_walk import plan_walkthrough

        return plan_walkthrough(
            puzzle,
            instance,
            progress=progress,
            encoding=encoding,
            timeout=timeout,
            partial=partial,
            reserve=reserve,
        )
    parsed, name = loaded(puzzle, instance)
    return walk(
        puzzle, parsed, name, progress, encoding, timeout, started, chains, partial, reserve
    )


def walk(
    puzzle: Puzzle[Any, Any],
    parsed: Any,
    name: str,
    progress: str | None = None,
    encoding: str | Path | None = None,
    timeout: float | None = None,
    started: float | None = None,
    chains: bool = False,
    partial: bool = False,
    reserve: float | None = None,
) -> Walkthrough:
    """The walkthrough of an instance already parsed (a generator's draw): as
    :func:`walkthrough`, its case splits followed through only with ``chains``, the
    steps found before a time limit or an interrupt the answer only with ``partial``
    (``reserve``: as there)."""
    started = time.perf_counter() if started is None else started
    ground = ground_instance(puzzle, parsed, encoding, timeout)
    entries = read_progress(puzzle, parsed, progress, ground)
    reasoner = ground.reasoner
    hints = ground.puzzle
    clue_set = set(reasoner.clues)
    facts = [f for f in hints.hint_facts(ground.instance) if f not in clue_set]
    report = Walkthrough(
        puzzle,
        ground.instance,
        name,
        "solved",
        list(reasoner.clues),
        facts,
        hints.hint_program(ground.instance),
        encoding=ground.standing,
    )
    if not reasoner.satisfiable([(entry, True) for entry in entries], reasoner.clues):
        report.status = "unsolvable"
        report.conflict = reasoner.minimal([], droppable=entries)
        return report
    laid: list[Symbol] = []
    if hints.anchored and not entries:
        laid, unshared = class_anchor(ground)
        if unshared:
            report.status, report.open = "stuck", unshared
            return report
        report.laid_first = laid
    start = [(entry, True) for entry in [*sorted(ground.given), *entries, *laid]]
    assumed = [(symbol, True) for symbol, _ in start]
    # What the rules say with no clue at all is the board's shape, not a step: the
    # entries no solution of any clues can hold (a piece that cannot lie there).
    never = reasoner.possible([], clues=[]) or set()
    start += [(entry, False) for entry in reasoner.entries if entry not in never]
    # In the entries' order, not a set's (which follows the symbols' hashes): which
    # entry is asked decides clasp's state for the questions after it.
    possible_entries = [entry for entry in reasoner.entries if entry in never]
    valued = valued_kinds(possible_entries, lambda entry: ruled_out(reasoner, entry))
    report.routine = routine_cost(valued)
    shared = reasoner.consequences(assumed) or set()
    possible = reasoner.possible(assumed) or set()
    targets = {(e, True) for e in shared} | {
        (e, False) for e in reasoner.entries if e not in possible
    }
    # A candidate's questions come back after every step near it: answer those an
    # answer set found before satisfies with no solve call.
    reasoner.keep_answers()
    walker = _Walker(ground, start, targets, valued, chains)
    report.start = walker.start
    if partial:
        _stop_before_the_limit(reasoner, timeout, reserve)
    _take_steps(walker, report, partial)
    report.open = [e for e in reasoner.entries if e not in walker.known]
    if not report.open:
        _check(ground, walker.known)
    elif report.status not in CUT_SHORT:
        report.status = "stuck"
    report.seconds = time.perf_counter() - started
    return report


def _take_steps(walker: _Walker, report: Walkthrough, partial: bool) -> None:
    """The walker's steps into the report, to the end; with ``partial``, a time limit
    or Ctrl-C (in a guarded child: the guard asked it to stop) ends them where they
    are, status ``timeout`` or ``interrupted``: the steps found so far are the answer."""
    try:
        while walker.candidates:
            report.steps.append(walker.step())
    except TimeLimit:
        if not partial:
            raise
        report.status = TIMEOUT
    except KeyboardInterrupt:
        if not partial:
            raise
        report.status = INTERRUPTED


def _stop_before_the_limit(
    reasoner: Reasoner, timeout: float | None, reserve: float | None
) -> None:
    """Bring the reasoner's deadline forward by ``reserve`` (by default
    ``OUTPUT_SHARE`` of the limit, at most ``OUTPUT_TIME``), to the guard's limit at
    the latest (``time_left``: the child's question started after the limit did, and a
    web request's work knows no other), so that a walkthrough cut short still draws its
    steps and hands them over."""
    deadline = reasoner.deadline
    left = time_left()
    if left is not None:
        guard = time.perf_counter() + left
        deadline = guard if deadline is None else min(deadline, guard)
    if deadline is None:
        return
    limit = timeout if timeout is not None else left or 0.0
    reasoner.deadline = deadline - reserved(limit, reserve)


def reserved(limit: float, reserve: float | None) -> float:
    """The seconds kept back from a walkthrough's ``limit`` for drawing its steps and
    handing them over: ``reserve`` where the caller knows (a web request's drawing), by
    default ``OUTPUT_SHARE`` of the limit, at most ``OUTPUT_TIME``."""
    return reserve if reserve is not None else min(OUTPUT_TIME, OUTPUT_SHARE * limit)


def _largest_places(entries: Iterable[Symbol]) -> dict[tuple[str, int], list[Symbol]]:
    """Each kind's largest place: the entries sharing all but the last argument (see
    ``places``), the values a place may take where the kind has values at all."""
    groups: dict[tuple[str, tuple[tuple[int, Symbol], ...]], list[Symbol]] = {}
    for entry in entries:
        groups.setdefault((entry.name, tuple(places(entry))), []).append(entry)
    largest: dict[tuple[str, int], list[Symbol]] = {}
    for (name, _), group in groups.items():
        kind = (name, len(group[0].arguments))
        if len(group) > len(largest.get(kind, ())):
            largest[kind] = group
    return largest


def valued_kinds(
    entries: Iterable[Symbol], rules_out: Callable[[Symbol], set[Symbol]]
) -> dict[tuple[str, int], int]:
    """The kinds of entry whose last argument is a value, each with its largest
    place's number of values: where the rules let a place take one value only
    (``rules_out``: what one entry rules out by the rules alone), as a Sudoku's
    ``cell(R,C,V)`` or a Haunted ``monster(R,C,M)``. A Hitori's ``shaded(R,C)`` is not
    one: C is a column, not a value of row R (a shaded cell rules out its neighbours
    only), so all its arguments are where it is."""
    return {
        kind: len(place)
        for kind, place in _largest_places(entries).items()
        if len(place) > 1 and set(place[1:]) <= rules_out(place[0])
    }


def routine_cost(valued: dict[tuple[str, int], int]) -> int:
    """What a routine step costs on a board whose kinds of entry with values are
    ``valued`` (``valued_kinds``): one clue read alone, or a *single* where that costs
    more: an entry's last value, every other value of its place ruled out (a Sudoku
    cell's eight other digits; two other monsters in a Haunted cell). The largest
    place of each kind is asked (places of a kind are alike)."""
    singles = [LITERAL_COST * (size - 1) for size in valued.values()]
    return max([CLUE_COST, *singles])


def ruled_out(reasoner: Reasoner, entry: Symbol) -> set[Symbol]:
    """The entries the rules alone make false with ``entry`` (every clue free), by
    propagation; none where the entry cannot hold."""
    seen = reasoner.propagate([(entry, True)], clues=[])
    return seen.false if seen is not None else set()


def _check(ground: Grounded, known: dict[Symbol, bool]) -> None:
    """The walkthrough's end against a solution decoded and passed by the puzzle's
    checker: every entry set holds in it (read in Python, ``entry_holds``)."""
    made = [symbol for symbol, value in known.items() if value]
    out = [symbol for symbol, value in known.items() if not value]
    check_in_solution(ground, made, made, "the walkthrough", ruled_out=out)
