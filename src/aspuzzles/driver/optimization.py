"""Programs with an objective: a first answer from the puzzle's hints, rounds of a
large-neighbourhood search around it, then clingo's complete optimization."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import clingo
from clingo import Control, Symbol

from . import solving
from .jobs import (
    Job,
    Outcome,
    Reporter,
)

if TYPE_CHECKING:
    import random


def solve_program(
    control: Control,
    job: Job,
    outcome: Outcome,
    deadline: float | None,
    report: Reporter,
    mode: str | None,
) -> None:
    """Solve a grounded program without a horizon; a search for one optimal answer
    starts from the puzzle's hinted answer, if it has one, and improves it in rounds
    around it before the complete search."""
    start = _start_from_hints(control, job, outcome, deadline) if mode == "opt" else None
    if start is not None and job.neighbourhood is not None and outcome.timeout_phase is None:
        _improve_around(control, job.neighbourhood, outcome, deadline, start)
    if outcome.timeout_phase is not None:  # stopped (or interrupted) around the hint
        solving.settle_optimum(outcome, "opt", exhausted=False, best=[])
        return
    solving.solve_once(
        control,
        job,
        outcome,
        deadline,
        heartbeat=lambda: report("tick", outcome.count),
        optimizing=mode,
    )
    if start is not None and outcome.satisfiable is False:  # nothing cheaper was found
        outcome.satisfiable = True


def _start_from_hints(
    control: Control, job: Job, outcome: Outcome, deadline: float | None
) -> list[Symbol] | None:
    """A first answer for a search with an objective, from the puzzle's hints: clingo
    completes them by propagation under assumptions (giving up after
    ``solving.SCOUT_CONFLICTS`` conflicts if they lead nowhere). The answer goes into
    ``outcome``, and the search proper is bounded to strictly cheaper answers, so that
    finishing without one proves it optimal. Returns the answer's atoms, or None.

    Why: on a large board clasp's own first answers are poor (Eternity II in score mode:
    233 of 480 edges matching after 60 s, where a greedy placement in Python matches 398).
    Not for core-guided optimization (``--opt-strategy=usc``), which proves its bound
    from below and is slowed by a first call under assumptions (a 7x7 tiles board two
    edges from perfect: 22 s against 9 s without it)."""
    if any(argument.startswith("--opt-strategy=usc") for argument in job.arguments):
        return None
    hints = job.warm_start() if job.warm_start else []
    if not hints:
        return None
    found = _solve_around(control, outcome, deadline, hints)
    if found is not None:
        _keep_answer(control, outcome, *found)
    return None if found is None else found[0]


def _improve_around(
    control: Control,
    neighbourhood: Callable[[Sequence[Symbol], random.Random], list[Symbol]],
    outcome: Outcome,
    deadline: float | None,
    atoms: list[Symbol],
) -> None:
    """A large-neighbourhood search from the answer in ``outcome`` (as Potassco's
    clingo-lns does it): each round keeps most of the best answer's atoms (the
    puzzle's ``neighbourhood``, drawn at random, seeded) under assumptions and lets
    clingo search the rest for a cheaper answer, for at most ``solving.SCOUT_CONFLICTS``
    conflicts. It stops when it has gone without a better answer for twice as many
    rounds as it took to find the last one (and at least ``LNS_PATIENCE``), or at the
    limit; the complete search then goes on from the best answer.

    Why: on a large board the complete search finds nothing cheaper than a good start
    for minutes (the META 2010 10x10 in tiles' score mode: 32 mismatches after the
    greedy start, still 32 after 30 s), where re-solving ten cells at a time finds
    cheaper ones (24-29 in 30 s, as the seed of the draws goes)."""
    import random  # loaded only for a neighbourhood search

    rng = random.Random(LNS_SEED)
    rounds = last_better = 0
    while rounds - last_better < max(LNS_PATIENCE, 2 * last_better):
        if outcome.timeout_phase is not None:  # the limit, or Ctrl-C
            break
        kept = neighbourhood(atoms, rng)
        if not kept:
            return
        rounds += 1
        found = _solve_around(control, outcome, deadline, kept)
        if found is not None:
            atoms, last_better = found[0], rounds
            _keep_answer(control, outcome, *found)
    outcome.stats["lns_rounds"] = rounds


#: A large-neighbourhood search goes on for at least this many rounds without a better
#: answer (see ``_improve_around``).
LNS_PATIENCE = 200


#: Its neighbourhoods are drawn at random from this seed, so a run can be repeated.
LNS_SEED = 1


def _solve_around(
    control: Control, outcome: Outcome, deadline: float | None, atoms: list[Symbol]
) -> tuple[list[Symbol], list[int]] | None:
    """The last answer (its shown atoms and cost) of one solve call with ``atoms``
    assumed true, cut off after ``solving.SCOUT_CONFLICTS`` conflicts; None if it found none.
    A user's own ``--solve-limit`` is restored afterwards."""
    found: list[tuple[list[Symbol], list[int]]] = []

    def on_model(model: clingo.Model) -> None:
        found.append((list(model.symbols(shown=True)), list(model.cost)))

    assumptions = [(atom, True) for atom in atoms]
    with (
        solving.conflict_limit(control, solving.SCOUT_CONFLICTS),
        control.solve(on_model=on_model, async_=True, assumptions=assumptions) as handle,
    ):
        solving.wait(handle, outcome, deadline)
    solving.add_effort(control, outcome)
    return found[-1] if found else None


def _keep_answer(control: Control, outcome: Outcome, atoms: list[Symbol], cost: list[int]) -> None:
    """Keep an answer found under assumptions as the best so far, and bound the search
    to strictly cheaper ones."""
    outcome.models, outcome.count, outcome.cost = [[str(atom) for atom in atoms]], 1, cost
    bound = [*cost[:-1], cost[-1] - 1]  # lexicographically below this cost
    solving.solve_settings(control).opt_mode = "opt," + ",".join(map(str, bound))
