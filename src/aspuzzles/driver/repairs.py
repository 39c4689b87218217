"""Repairs: the fewest of a set of assumptions to give up so that the rest has a
solution, proved the fewest, and every other set of that size; and subset-minimal
unsatisfiable cores, the reasons a repair rests on.

The search is the implicit hitting-set loop of MaxSAT solvers (Davies and Bacchus's
MaxHS): every set of assumptions to give up must meet every unsatisfiable core of
them, so a smallest set that meets every core found so far (a minimum hitting set) is
either a repair, and then the fewest, or leaves a core it misses, which is added. The
cores are shrunk to subset-minimal before they are added (a core of thirty members
would make the hitting sets explode), and the hitting sets are found in Python by a
branching search over the cores: they are few and small.

Every question goes to clingo through the :class:`~aspuzzles.driver.reasoning.Reasoner`
(``Reasoner.core``: assumptions as solver literals, its deadline held), so a time limit
and Ctrl-C stop a repair search as they stop every other question.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from clingo import Symbol

from ..errors import TimeLimit
from .reasoning import Assumption, Reasoner, SearchLimit

#: Conflicts a deletion test of a reason may take (``minimal_in_turn``): a member
#: whose test needs more is tested again at the end with ``LAST_BUDGET``, and stays
#: if that is not enough (the reason is then said not proved minimal). Most tests
#: take a handful; a few refutations of a Haunted board's counts take clasp seconds
#: (a 15x15's: up to minutes) for one member.
REASON_BUDGET = 500
#: Conflicts a deletion test that ran out of ``REASON_BUDGET`` is given once more.
LAST_BUDGET = 1000


@dataclass
class Repairs:
    """The fewest of the soft assumptions to give up (``size``), every set of that
    size found (``found``, the first one first), and whether that is all of them
    (``complete``); ``cores`` are the subset-minimal cores met on the way, ``calls``
    the solve calls made."""

    size: int
    found: list[list[Symbol]] = field(default_factory=list)
    complete: bool = True
    cores: list[list[Symbol]] = field(default_factory=list)
    calls: int = 0


def minimal_core(
    reasoner: Reasoner,
    fixed: Sequence[Assumption],
    members: Sequence[Assumption],
    core: Sequence[Assumption] | None = None,
    fixed_satisfiable: bool = False,
    conflicts: int | None = None,
    undecided: list[Assumption] | None = None,
) -> list[Assumption] | None:
    """A subset-minimal set of ``members`` that has no solution with ``fixed`` (clues
    among the members assumed as clues, the other clues free, as ``Reasoner.core``
    asks), or None if all of them have one. Every member is needed: dropping any one
    admits a solution. ``core``: an unsatisfiable core of the members already found;
    ``fixed_satisfiable``: ``fixed`` alone is known to have a solution (a call saved).
    With ``conflicts``, a deletion test that needs more search keeps its member, which
    is added to ``undecided``: the set then has no solution, but may not be minimal.

    Members early in ``members`` are preferred: clasp's core holds the members its
    first conflict needs, assumed in order, and the core is shrunk by deletion from its
    last member back. A deletion that still has no solution gives its own core, which
    replaces the members (clasp's core is a subset of what was assumed): a core of
    thirty members with one needed takes a few calls, not thirty."""
    if core is None:
        core = reasoner.core(fixed, members)
        if core is None:
            return None
    core = reasoner.trimmed(fixed, core, conflicts)
    order = {member: n for n, member in enumerate(members)}
    kept = sorted(core, key=lambda member: order.get(member, -1))
    tested: set[Assumption] = set()  # needed, or kept for want of budget
    # The tested members are always the last ones kept (tested from the last back, and
    # kept in order by every deletion), so the next to test is found by counting.
    while len(kept) > len(tested):
        member = kept[len(kept) - len(tested) - 1]
        trial = [other for other in kept if other != member]
        try:
            within = (
                None if not trial and fixed_satisfiable else reasoner.core(fixed, trial, conflicts)
            )
        except SearchLimit:
            if undecided is not None:
                undecided.append(member)
            within = None
        if within is None:
            tested.add(member)
        else:  # a needed member is in every core of these: only undecided ones go here
            inside = set(within)
            kept = [other for other in trial if other in inside or other in tested]
    return kept


def minimal_in_turn(
    reasoner: Reasoner,
    fixed: Sequence[Assumption],
    first: Sequence[Assumption],
    then: Sequence[Assumption],
    undecided: list[Assumption] | None = None,
) -> list[Assumption] | None:
    """A subset-minimal set of ``first`` and ``then`` members that has no solution with
    ``fixed`` (None if all of them have one): ``then``'s members are dropped first,
    while every member of ``first`` stays assumed, then ``first``'s, with the ``then``
    members left. A reason's clues dropped while every entry kept is on the board: each
    question has most of the board set and is answered at once (with few entries and
    most clues free, clasp can take seconds to refute a set).

    Minimal as a whole: a member of ``first`` is needed with the rest; a member of
    ``then`` is needed even with every member of ``first``, so with fewer of them.
    Each deletion test may take ``REASON_BUDGET`` conflicts, and one that needed more
    ``LAST_BUDGET`` at the end; the members whose test needed more still are added to
    ``undecided`` (kept: the set has no solution all the same, but is not proved
    minimal)."""
    budget = REASON_BUDGET
    unsure: list[Assumption] = []
    latter = minimal_core(reasoner, [*fixed, *first], then, None, False, budget, unsure)
    if latter is None:
        return None
    former = minimal_core(reasoner, [*fixed, *latter], first, None, False, budget, unsure)
    if former is None:
        return None
    found, unsure = _settled(reasoner, fixed, [*former, *latter], unsure, LAST_BUDGET)
    if undecided is not None:
        undecided.extend(unsure)
    return found


def _settled(
    reasoner: Reasoner,
    fixed: Sequence[Assumption],
    found: list[Assumption],
    unsure: list[Assumption],
    budget: int,
) -> tuple[list[Assumption], list[Assumption]]:
    """The members whose deletion test ran out of its budget tested again with a
    larger one (most tests need a handful of conflicts: the small budget keeps the
    rare long ones short, and only those are asked again): the set, and the members
    still unsure."""
    still: list[Assumption] = []
    for member in unsure:
        if member not in found:
            continue
        trial = [other for other in found if other != member]
        try:
            within = reasoner.core(fixed, trial, budget)
        except SearchLimit:
            still.append(member)
            continue
        if within is not None:
            inside = set(within)
            found = [other for other in trial if other in inside]
    return found, still


def fewest_dropped(
    reasoner: Reasoner,
    fixed: Sequence[Assumption],
    soft: Sequence[Symbol],
    limit: int = 10,
    cores: Sequence[Sequence[Symbol]] = (),
) -> Repairs:
    """The fewest of the ``soft`` atoms (each assumed true) to give up so that the
    rest has a solution with ``fixed``, and every other set of that size, up to
    ``limit`` of them (0: all). ``fixed`` must have a solution alone (the caller asks
    first: without one, no set of soft atoms is a repair). ``cores``:
    sets of soft atoms already known to have no solution together (each atom that
    alone has none, found at once by a brave enumeration, saves a search).

    The first set is proved the fewest: it is a smallest set meeting every core found.
    The others are the other smallest hitting sets of the cores, each tested (one that
    fails adds the core it misses). Past ``limit``, one more is looked for, to say
    whether the list is ``complete``."""
    soft = list(dict.fromkeys(soft))
    place = {atom: n for n, atom in enumerate(soft)}
    known = [tuple(sorted(place[atom] for atom in core)) for core in cores]
    calls = reasoner.solve_calls

    def missed(dropped: tuple[int, ...]) -> tuple[int, ...] | None:
        """None if the soft atoms but ``dropped`` have a solution, else a minimal core
        of them."""
        _check_deadline(reasoner)
        out = set(dropped)
        members = [(atom, True) for n, atom in enumerate(soft) if n not in out]
        first = reasoner.core(fixed, members)
        if first is None:
            return None
        core = minimal_core(reasoner, fixed, members, first, fixed_satisfiable=True)
        if not core:  # no soft atom in it: nothing given up would help
            raise ValueError("the fixed assumptions have no solution alone")
        return tuple(sorted(place[atom] for atom, _ in core))

    size, first = 0, None
    while first is None:
        chosen = next(_hitting_sets(known, size), None)
        if chosen is None:
            size += 1
            continue
        core = missed(chosen)
        if core is None:
            first = chosen
        else:
            known.append(core)
    found, tried = [first], {first}
    complete = True
    while limit == 0 or len(found) <= limit:
        chosen = next((s for s in _hitting_sets(known, size) if s not in tried), None)
        if chosen is None:
            break
        tried.add(chosen)
        core = missed(chosen)
        if core is None:
            found.append(chosen)
        else:
            known.append(core)
    if limit and len(found) > limit:
        found, complete = found[:limit], False
    return Repairs(
        size,
        [[soft[n] for n in chosen] for chosen in found],
        complete,
        [[soft[n] for n in core] for core in known],
        reasoner.solve_calls - calls,
    )


def _hitting_sets(cores: list[tuple[int, ...]], size: int) -> Iterator[tuple[int, ...]]:
    """Every set of at most ``size`` members that meets every core, each once, in a
    fixed order (the cores' members in order). Branches on the core with the fewest
    members still allowed; a member passed over in one branch is barred from the
    later branches of that core, so no set comes twice; a branch that needs more
    members than are left (a lower bound: cores it still misses that share no
    member) is cut."""

    def extend(chosen: tuple[int, ...], barred: frozenset[int]) -> Iterator[tuple[int, ...]]:
        missed = [core for core in cores if not any(member in chosen for member in core)]
        if not missed:
            yield tuple(sorted(chosen))
            return
        left = size - len(chosen)
        if left <= 0 or _disjoint(missed) > left:
            return
        open_cores = [[m for m in core if m not in barred] for core in missed]
        options = min(open_cores, key=len)
        for n, member in enumerate(options):
            yield from extend((*chosen, member), barred | frozenset(options[:n]))

    yield from extend((), frozenset())


def _disjoint(cores: list[tuple[int, ...]]) -> int:
    """How many of the cores share no member, taken greedily smallest first: a lower
    bound on the members a hitting set needs."""
    used: set[int] = set()
    count = 0
    for core in sorted(cores, key=len):
        if not used.intersection(core):
            used.update(core)
            count += 1
    return count


def _check_deadline(reasoner: Reasoner) -> None:
    """The Reasoner's time limit, held between its calls too (the hitting sets are
    searched in Python)."""
    if reasoner.deadline is not None and time.perf_counter() > reasoner.deadline:
        limit = f" of {reasoner.time_limit:g} s" if reasoner.time_limit is not None else ""
        raise TimeLimit(f"time limit{limit} reached while reasoning")
