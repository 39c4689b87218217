"""Planning over a growing horizon, as clingo's ``inc.py`` grows it: budgets climbed
from below (each refuted one a proved lower bound) or come down from above (each plan
an upper bound), an optional hinted plan to start from, and clingo's incremental mode
(``#include <incmode>``) for bare encodings."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import clingo
from clingo import Control, Symbol

from ..errors import CheckFailed, InputError
from ..paths import (
    display_path,
)
from ..puzzle import Puzzle
from ..strategy import UNBOUNDED, Incremental
from . import solving
from .jobs import (
    Job,
    Outcome,
    Reporter,
    plan_length,
    progress_text,
)


def incmode_plan(job: Job) -> Incremental:
    """clingo's incremental mode for an encoding that includes ``<incmode>``.

    The clingo wheel's ``python -m clingo`` does not run that loop in 5.8, and the API
    never does, so without this a potassco-style planning encoding would solve its
    ``base`` part alone. The driver's horizon loop is the same loop: horizon 0 grounds
    ``base`` and ``check(0)``, horizon t adds ``step(t)`` and ``check(t)``, and only
    ``query(t)`` is true. Its constants are read as clingo reads them (encoding,
    instance or ``-c``): ``imax`` caps the number of horizons (0 .. imax-1, so an
    instance without answers within it is unsatisfiable), ``imin`` makes the search
    go on to horizon imin-1 at least, and ``istop`` must be ``SAT`` (stop at the first
    horizon with an answer), the default and the only reading of "solved" here."""
    messages: list[str] = []
    try:
        control = solving.loaded_control(job, messages)
    except RuntimeError:  # the run itself reports the error, with its place
        return Incremental(max_steps=UNBOUNDED, first_step=0, incmode=True)
    source = display_path(Path(job.encoding))
    imin = _count_constant(control, "imin", 0, source) or 0
    imax = _count_constant(control, "imax", None, source)
    istop = control.get_const("istop")
    if istop is not None and str(istop).strip('"') != "SAT":
        message = (
            f"istop={istop} is not supported: the search stops at the first horizon "
            "with an answer (istop=SAT)"
        )
        raise InputError(message, source)
    if imax == 0:
        raise InputError("imax=0 allows no horizon at all: give imax 1 or more", source)
    last = UNBOUNDED if imax is None else imax - 1
    return Incremental(max_steps=last, first_step=min(max(0, imin - 1), last), incmode=True)


def _count_constant(control: Control, name: str, default: int | None, source: str) -> int | None:
    """An incremental-mode constant that counts horizons (``imin``, ``imax``)."""
    value = control.get_const(name)
    if value is None:
        return default
    if value.type != clingo.SymbolType.Number or value.number < 0:
        raise InputError(f"{name} must be a whole number of horizons, not {value}", source)
    return value.number


def check_plan_lengths(game: Puzzle[Any, Any], plan: Incremental | None, outcome: Outcome) -> None:
    """A plan shorter than a budget the search refuted is a contradiction: the encoding
    (or a step bound) cut plans that it allows, and the "minimum" would be a guess. The
    checker cannot see it (the plan itself is valid), so it is reported here, the same
    way: an internal error, exit code 4."""
    if plan is None or plan.step_atom is None or not outcome.satisfiable:
        return
    refuted_below = outcome.stats.get("horizon")
    shortest = min((plan_length(plan, atoms) for atoms in outcome.models), default=None)
    if refuted_below is not None and shortest is not None and shortest < refuted_below:
        raise CheckFailed(
            f"a plan of {shortest} step{'' if shortest == 1 else 's'} of '{game.name}' was "
            f"found after every budget below {refuted_below} was refuted (the encoding cut "
            "plans that it allows: a bug)"
        )


class Horizon:
    """The parts of a planning encoding grounded so far, as clingo's ``inc.py`` grows
    them: steps up to the largest budget set, and ticks (if the encoding has them) only
    while an answer set is cut off by the last one."""

    def __init__(self, control: Control, plan: Incremental, report: Reporter) -> None:
        self.control, self.plan, self.report = control, plan, report
        self.steps, self.ticks, self.ground_time = 0, 0, 0.0
        #: Notes an objective as steps are grounded: the answer at a horizon is its best.
        self.objective = solving.OptimizationSeen()
        self.control.register_observer(self.objective)
        if self.plan.incmode:
            # Horizon 0 has a check(0) of its own to ground, and the query is declared
            # as clingo's <incmode> declares it (the API's <incmode> adds nothing).
            self.steps = -1
            self.control.add("check", ["t"], "#external query(t).")

    def ground(self, parts: list[tuple[str, Sequence[Symbol]]]) -> None:
        self.report("phase", "grounding")
        started = time.perf_counter()
        self.control.ground(parts)
        self.ground_time += time.perf_counter() - started

    def set_budget(self, step: int, previous: int | None) -> None:
        """Ground the steps up to ``step`` and make ``query(step)`` the only query."""
        for number in range(self.steps + 1, step + 1):
            check = ("check", [clingo.Number(number)])
            self.ground([("step", [clingo.Number(number)]), check] if number else [check])
        self.steps = max(self.steps, step)
        if previous is not None:
            self.control.release_external(clingo.Function("query", [clingo.Number(previous)]))
        self.control.assign_external(clingo.Function("query", [clingo.Number(step)]), True)

    def solve(
        self,
        job: Job,
        outcome: Outcome,
        deadline: float | None,
        step: int,
        assumptions: Sequence[tuple[Symbol, bool]] = (),
    ) -> None:
        """Solve under budget ``step``, starting with a tick per step and grounding one
        more tick while an answer set is open at the last one."""
        wanted = max(self.ticks, min(step, self.plan.max_ticks))
        while True:
            for tick in range(self.ticks + 1, wanted + 1):
                self.ground([("tick", [clingo.Number(tick)])])
            self.ticks = wanted
            last = self.ticks == self.plan.max_ticks
            cut_off = None if last else clingo.Function("open", [clingo.Number(self.ticks)])
            self.report("phase", "solving")
            mode = solving.optimization_mode(self.control, job) if self.objective.seen else None
            finished = solving.solve_once(
                self.control,
                job,
                outcome,
                deadline,
                assumptions,
                cut_off=cut_off,
                heartbeat=self._beat,
                optimizing=mode,
            )
            if finished or outcome.timeout_phase:  # a search stopped is not grown further
                return
            wanted = self.ticks + 1

    def _beat(self) -> None:
        self.report("tick", None)

    def finish(self, outcome: Outcome) -> None:
        outcome.stats["ground_time"] = self.ground_time
        if self.plan.max_ticks:
            outcome.stats["ticks"] = self.ticks
        if not outcome.satisfiable and outcome.timeout_phase is None:
            outcome.satisfiable = False


def solve_ascending(
    control: Control, job: Job, outcome: Outcome, deadline: float | None, report: Reporter
) -> None:
    """Budgets 1, 2, ...: the first one with an answer set is the minimum, and each one
    refuted is reported at once as a proved lower bound."""
    plan = job.incremental
    assert plan is not None
    horizon = Horizon(control, plan, report)
    step = plan.first_step
    try:
        if job.part is not None and job.part[0] == 0:
            # The first share bounds the minimum from above before it climbs: the shares
            # then stop once both have refuted the budget below the hinted plan.
            _scouted_plan(job._replace(part=None), outcome, deadline, report)
        if outcome.timeout_phase is None:  # the scout may have used up the time
            horizon.ground([("base", [])])
            for step in range(plan.first_step, plan.max_steps + 1):
                report("lower", step)  # every budget below step is refuted
                horizon.set_budget(step, step - 1 if step > plan.first_step else None)
                outcome.stats["horizon"] = step
                horizon.solve(job, outcome, deadline, step)
                if outcome.satisfiable or outcome.timeout_phase:
                    break
    except KeyboardInterrupt:  # while grounding (a search stops itself: see solving.wait)
        outcome.interrupt("grounding")
    if outcome.timeout_phase and outcome.satisfiable is False:
        # The search refuted its budget just as it was stopped: that budget is proved
        # (and if it was the last, so is the whole answer), not the plan's absence.
        if step == plan.max_steps:
            outcome.timeout_phase = None
        else:
            step, outcome.satisfiable = step + 1, None
    if outcome.timeout_phase and not outcome.satisfiable:
        outcome.progress = progress_text(plan, step)
    horizon.finish(outcome)


def solve_descending(
    control: Control, job: Job, outcome: Outcome, deadline: float | None, report: Reporter
) -> None:
    """From the largest budget down: each plan found is reported as an upper bound, and
    the next budget is one step shorter than that plan. The first budget refuted proves
    the shortest plan minimal (budgets are monotone: see ``Incremental.step_atom``).
    The puzzle's hinted plan, if any, is reported first (see `_scout`)."""
    plan = job.incremental
    assert plan is not None and plan.step_atom is not None
    horizon = Horizon(control, plan, report)
    best: list[str] = []
    length: int | None = None  # of the best plan
    try:
        best = _scouted_plan(job, outcome, deadline, report)
        length = plan_length(plan, best) if best else None
        if outcome.timeout_phase is None:  # the scout may have used up the time
            horizon.ground([("base", [])])
        budget, previous = plan.max_steps, None
        while budget >= plan.first_step and outcome.timeout_phase is None:
            horizon.set_budget(budget, previous)
            outcome.stats["horizon"] = budget
            outcome.models, outcome.count = [], 0
            horizon.solve(job, outcome, deadline, budget)
            if not outcome.satisfiable:
                break
            found = outcome.models[0]
            previous, budget = budget, plan_length(plan, found) - 1
            if length is None or budget < length:
                best, length = found, budget + 1
                report("plan", (length, best))
    except KeyboardInterrupt:  # while grounding (a search stops itself: see solving.wait)
        outcome.interrupt("grounding")
    if best and outcome.satisfiable is False:  # refuted below the plan, even if stopped then
        outcome.timeout_phase = None
    outcome.models, outcome.count = ([best], 1) if best else ([], 0)
    if best and outcome.timeout_phase is None:
        outcome.satisfiable = True  # the budget below the last plan was refuted
    if outcome.timeout_phase:
        outcome.progress = progress_text(plan, plan.first_step, length)
    horizon.finish(outcome)


def _scouted_plan(
    job: Job, outcome: Outcome, deadline: float | None, report: Reporter
) -> list[str]:
    """The scout's plan (see `_scout`), reported at once as an upper bound."""
    best = _scout(job, outcome, deadline)
    if best:
        assert job.incremental is not None
        report("plan", (plan_length(job.incremental, best), best))
    return best


def _scout(job: Job, outcome: Outcome, deadline: float | None) -> list[str]:
    """The plan the puzzle's hints name, completed by clingo under the largest budget
    with the hinted atoms assumed true; [] without hints or if they lead nowhere.

    It runs in a Control of its own, because a search that is handed a short plan
    learns less on its way down than one that finds its own plans (the harpy's budget
    9 took 4,720 conflicts after a hinted plan, 150 after its own plans of 11 and 10
    moves): the search proper runs as if there were no hint, and the hint only bounds
    the minimum from above at once."""
    plan = job.incremental
    hints = job.warm_start() if job.warm_start else []
    if not hints or plan is None:
        return []
    control = solving.loaded_control(job, [])
    solving.solve_settings(control).solve_limit = str(solving.SCOUT_CONFLICTS)
    horizon = Horizon(control, plan, solving.ignore)
    horizon.ground([("base", [])])
    horizon.set_budget(plan.max_steps, None)
    scout = Outcome()
    horizon.solve(job, scout, deadline, plan.max_steps, [(atom, True) for atom in hints])
    outcome.timeout_phase, outcome.interrupted = scout.timeout_phase, scout.interrupted
    return scout.models[0] if scout.satisfiable and scout.models else []
