"""A solve call, from a parsed instance to a :class:`~aspuzzles.driver.results.Result`.

The instance's facts and strategy make one job, or several raced side by side (the
shares of a plan search, portfolio settings, shortcuts). A time limit holds for
solving (an async solve handle is waited on, then cancelled) and for grounding too:
clingo 5.8 cannot interrupt grounding, so when a limit is set, grounding and solving
run in a forked worker process (:mod:`aspuzzles.driver.workers`) that is killed when
the limit passes, and the caller is told which phase ran out. A planning puzzle with
monotone budgets is searched from both ends at once, in two such workers.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from clingo import Control

from ..errors import InputError
from ..puzzle import Puzzle, Solution
from ..strategy import Answered, EncodingOnly, Incremental, Shortcut, Strategy
from . import loading, optimization, results, solving
from .guard import interruptible
from .limits import checked_memory, checked_timeout
from .searches import plan_searches

if TYPE_CHECKING:
    from .bounds import StepBoundPropagator

from .jobs import (
    DEFAULT_PLAN_SEARCH,
    Bounds,
    Job,
    LazyFacts,
    Outcome,
    Progress,
    Reporter,
    progress_text,
    search_text,
)


def solve_instance(
    game: Puzzle[Any, Any],
    parsed: Any,
    name: str = "<instance>",
    *,
    models: int = 1,
    unique: bool = False,
    count: bool = False,
    timeout: float | None = None,
    threads: int = 1,
    clingo_args: Sequence[str] = (),
    encoding: str | Path | None = None,
    plan_search: str = DEFAULT_PLAN_SEARCH,
    portfolio: bool = True,
    on_progress: Progress | None = None,
    unchecked: bool = False,
    memory: int | None = None,
    statistics: bool = True,
) -> results.Result:
    """Solve an already parsed (and configured) instance (see :func:`aspuzzles.solve`).

    With an encoding other than the shipped one (``--encoding``, or the shipped file
    edited), the puzzle's Python accelerators stay off (``strategy.EncodingOnly``):
    they restate the shipped rules and could cut answers the edited rules allow.
    ``unchecked`` shows answers without running the checker. ``memory`` bounds every
    process of the solve (bytes, shared among racing processes); the solve then runs in
    worker processes, so that the caller's own process keeps its memory. Without
    ``statistics``, clingo's own figures (choices, conflicts, the program's size) are
    not read, which a small board's solve feels; the times are kept."""
    _check_request(models, timeout, threads, memory)
    wanted = 0 if count else 2 if unique else models
    started = time.perf_counter()
    used = loading.checked_encoding(game, encoding)
    strategy = game.strategy(parsed)
    if used.edited:
        strategy = EncodingOnly(strategy)
    checks = Checks(game.has_checker and not unchecked, used.edited)
    if (reason := strategy.infeasible()) is not None:
        return results.Result(
            puzzle=game.name,
            instance=name,
            status=results.UNSATISFIABLE,
            verdict="none" if unique else None,
            count=0 if count else None,
            count_details=strategy.count_details(0) if count else {},
            reason=reason,
            checked=checks.run,
            encoding=used.standing,
            exhausted=True,
        )
    planning, start = strategy.planning(), strategy.warm_start()
    job = Job(
        encoding=str(used.path),
        facts=[],
        make_facts=LazyFacts(partial(game.facts, parsed)),
        program=strategy.program(),
        program_source=strategy.program_source(),
        arguments=solving.solver_arguments(game, threads, clingo_args, strategy.settings()),
        models=wanted,
        count_only=count,
        timeout=None,  # what is left of the limit, once the Python search has had its turn
        incremental=None if planning is None else planning.horizon(),
        parts=strategy.parts(),
        warm_start=None if start is None else start.first_answer,
        neighbourhood=None if start is None else start.neighbourhood,
        step_bound=None if planning is None else planning.step_bound(),
        statistics=statistics,
    )
    if job.incremental is None and used.incmode:
        job = _in_incmode(job)
    searches = plan_searches(job.incremental, plan_search, wanted, threads)
    jobs = [job._replace(**search) for search in searches]
    if portfolio and threads == 1:
        jobs += _raced_jobs(game, job, strategy, clingo_args)
    if memory is not None:
        jobs = [each._replace(memory=memory // len(jobs)) for each in jobs]
    searched = _searched_in_python(strategy, job, timeout, started, memory)
    outcome = searched.outcome
    if outcome is None:
        left = None if timeout is None else _left(timeout, started)  # after Python's search
        jobs = [each._replace(refuted_below=searched.lower, timeout=left) for each in jobs]
        small = left is not None and strategy.grounds_within(left)
        outcome = _run(jobs, on_progress, small=small)
    outcome.stats.update(searched.stats)
    outcome.stats["total_time"] = time.perf_counter() - started  # facts included
    if outcome.error:
        message, source = outcome.error
        raise InputError(message, source)
    _check_plan_lengths(game, job.incremental, outcome)
    result = _result(
        game,
        parsed,
        strategy,
        name,
        outcome,
        unique=unique,
        count=count,
        models=models,
        checks=checks,
        deadline=None if timeout is None else started + timeout,
    )
    result.encoding = used.standing
    if unchecked and game.has_checker:
        result.unchecked_because = "--unchecked"
    if job.incremental is not None and job.incremental.incmode and result.status == results.SOLVED:
        result.horizon = outcome.stats.get("horizon")
    return result


def _in_incmode(job: Job) -> Job:
    """The job of an encoding in clingo's incremental mode (``planning.incmode_plan``)."""
    from . import planning  # planning puzzles only

    return job._replace(incremental=planning.incmode_plan(job))


def _check_plan_lengths(game: Puzzle[Any, Any], plan: Incremental | None, outcome: Outcome) -> None:
    """``planning.check_plan_lengths``, for a puzzle with a horizon whose search refuted
    budgets (clingo's: a plan found in Python before clingo started has none to hold
    it against)."""
    if plan is not None and "horizon" in outcome.stats:
        from . import planning

        planning.check_plan_lengths(game, plan, outcome)


def _check_request(models: int, timeout: float | None, threads: int, memory: int | None) -> None:
    if models < 0:
        raise InputError("the number of models must be 0 (all) or more")
    checked_timeout(timeout)
    checked_memory(memory)
    if threads < 1:
        raise InputError("the number of threads must be at least 1")


def _raced_jobs(
    game: Puzzle[Any, Any], job: Job, strategy: Strategy[Any], clingo_args: Sequence[str]
) -> list[Job]:
    """The searches raced against the tuned one: other settings, and shortcuts."""
    jobs = [
        job._replace(arguments=solving.solver_arguments(game, 1, clingo_args, extra))
        for extra in strategy.portfolio()
    ]
    return jobs + _shortcut_jobs(game, job, strategy.shortcuts(), clingo_args)


def _shortcut_jobs(
    game: Puzzle[Any, Any], job: Job, shortcuts: Sequence[Shortcut[Any]], clingo_args: Sequence[str]
) -> list[Job]:
    """The jobs of shortcut searches (``Strategy.shortcuts``): each with its own instance's
    facts (built once for shortcuts that share an instance) and program parts, its "none"
    proving nothing, and no hinted answer to start from (its answers are the best there
    are)."""
    facts: dict[int, LazyFacts] = {}
    jobs = []
    for shortcut in shortcuts:
        variant = shortcut.instance
        if id(variant) not in facts:
            facts[id(variant)] = LazyFacts(partial(game.facts, variant))
        jobs.append(
            job._replace(
                make_facts=facts[id(variant)],
                program=game.strategy(variant).program(),
                parts=game.strategy(variant).parts(),
                arguments=solving.solver_arguments(game, 1, clingo_args, shortcut.arguments),
                answers_only=True,
                answer_cost=shortcut.cost,
                warm_start=None,
                neighbourhood=None,
            )
        )
    return jobs


class _InPython(NamedTuple):
    """What a complete search in Python settled (``Strategy.answer``): the outcome, if
    it is decisive (an answer, a proof of none, the time limit reached, Ctrl-C); the
    budgets it refuted for a planning search, every one below ``lower``, which clingo's
    search starts out knowing; and its figures, for ``--stats`` either way."""

    outcome: Outcome | None
    lower: int = 0
    stats: Mapping[str, Any] = MappingProxyType({})


def _answered_in_python(
    search: Callable[[float], Answered | None],
    plan: Incremental | None,
    timeout: float | None,
    started: float,
    several: bool = False,
) -> _InPython:
    """The strategy's complete search in Python, as if clingo had searched: its answers,
    its proof that there is none, or the time limit reached with what it proved by
    then; no outcome when it gave up at its own bound (or has no such search), and
    clingo must search. ``search`` is asked with the deadline; asked for ``several``
    answers, a finished search went through every answer (clingo's ``exhausted``)."""
    deadline = math.inf if timeout is None else started + timeout
    began = time.perf_counter()
    outcome = Outcome()
    try:
        with interruptible():
            answered = search(deadline)
    except KeyboardInterrupt:
        outcome.interrupt("solving")
        return _InPython(outcome)
    if answered is None:
        return _InPython(None)
    stats = {**answered.figures, "python_search_time": time.perf_counter() - began}
    if answered.atoms is not None:
        for each in (answered.atoms, *answered.others):
            atoms = [str(atom) for atom in each]
            results.remember(atoms, each)
            outcome.models.append(atoms)
        outcome.count, outcome.satisfiable = len(outcome.models), True
        outcome.exhausted = several and answered.finished
    elif answered.finished:
        outcome.satisfiable = False
    elif time.perf_counter() < deadline:
        return _InPython(None, answered.lower, stats)  # given up at its own bound
    else:
        outcome.timeout_phase = "solving"
        if plan is not None:
            outcome.progress = progress_text(plan, answered.lower)
    return _InPython(outcome, answered.lower, stats)


def _searched_in_python(
    strategy: Strategy[Any], job: Job, timeout: float | None, started: float, memory: int | None
) -> _InPython:
    """Answers or a count alone: a complete search in Python may give them at once."""
    if job.count_only:
        return _counted_in_python(strategy, timeout, started)
    if job.models == 1:
        first = partial(strategy.answer, memory=memory)
        return _answered_in_python(first, job.incremental, timeout, started)
    if job.incremental is None:
        some = partial(strategy.answers, most=job.models)
        return _answered_in_python(some, None, timeout, started, several=True)
    return _InPython(None)


def _counted_in_python(strategy: Strategy[Any], timeout: float | None, started: float) -> _InPython:
    """The strategy's count by a complete search in Python (``Strategy.count``), as if
    clingo had gone through every answer; no outcome when it gave up, and clingo counts."""
    began = time.perf_counter()
    outcome = Outcome()
    try:
        with interruptible():
            counted = strategy.count(math.inf if timeout is None else started + timeout)
    except KeyboardInterrupt:
        outcome.interrupt("solving")
        return _InPython(outcome)
    if counted is None:
        return _InPython(None)
    outcome.count, outcome.satisfiable, outcome.exhausted = counted, counted > 0, True
    return _InPython(outcome, stats={"python_search_time": time.perf_counter() - began})


def _left(timeout: float, started: float) -> float:
    """What the limit leaves for grounding and solving once the facts are built (Python
    cannot be interrupted there; a large board's facts take a second or two)."""
    return max(0.001, timeout - (time.perf_counter() - started))


def run_job(job: Job, report: Reporter = solving.ignore) -> Outcome:
    """Build the facts, ground and solve in this process; the time limit covers solving
    only (a worker's parent holds it in the other phases). Past the memory limit the
    job stops with what it has found, as at a time limit."""
    outcome = Outcome()
    report("phase", "facts")
    try:
        return _run_job(job, report, outcome)
    except MemoryError:
        outcome.exhaust(_phase_of(outcome))
        return outcome


def _phase_of(outcome: Outcome) -> str:
    """Where a job stands, from what it has recorded so far."""
    if "ground_time" in outcome.stats or "solve_time" in outcome.stats:
        return "solving"
    return "grounding" if "facts_time" in outcome.stats else "facts"


def _run_job(job: Job, report: Reporter, outcome: Outcome) -> Outcome:
    messages: list[str] = []
    started = time.perf_counter()
    deadline = None if job.timeout is None else started + job.timeout
    try:
        control = solving.loaded_control(job, messages)
    except RuntimeError as error:
        return Outcome(error=(solving.clingo_error(messages, error, job.program_source), None))
    except InputError as error:
        return Outcome(error=(str(error), None))
    if job.make_facts is not None:
        outcome.stats["facts_time"] = job.make_facts.seconds
    bound = None
    if job.step_bound is not None and job.incremental is not None:
        from .bounds import StepBoundPropagator  # planning puzzles only

        bound = StepBoundPropagator(job.step_bound)
        control.register_propagator(bound)
    report("phase", "grounding")
    try:
        _search(control, job, outcome, deadline, report, started)
    except RuntimeError as error:
        return Outcome(error=(solving.clingo_error(messages, error, job.program_source), None))
    except KeyboardInterrupt:  # grounding: clingo 5.8 cannot stop it, Python stops after
        outcome.interrupt("grounding")
    if "solve_time" in outcome.stats:  # clingo's statistics are garbage before a solve
        outcome.stats.update(outcome.size)
    if bound is not None:
        outcome.stats.update(_bound_statistics(bound))
    if job.answer_cost is not None and outcome.count:
        outcome.cost, outcome.optimal = list(job.answer_cost), True  # see Shortcut
    return outcome


def _search(
    control: Control,
    job: Job,
    outcome: Outcome,
    deadline: float | None,
    report: Reporter,
    started: float,
) -> None:
    """Ground and solve a loaded Control: once, or over a growing horizon."""
    if job.incremental is None:
        objective = solving.OptimizationSeen()
        control.register_observer(objective)
        control.ground([(part, []) for part in job.parts])
        outcome.stats["ground_time"] = time.perf_counter() - started
        report("phase", "solving")
        mode = solving.optimization_mode(control, job) if objective.seen else None
        optimization.solve_program(control, job, outcome, deadline, report, mode)
    elif job.descending:
        from . import planning

        planning.solve_descending(control, job, outcome, deadline, report)
    else:
        from . import planning

        planning.solve_ascending(control, job, outcome, deadline, report)


def _bound_statistics(bound: StepBoundPropagator) -> dict[str, int]:
    """What the puzzle's step bound did: the propagator's counts, and the bound's own."""
    own = bound.bound.statistics() if bound.bound.statistics is not None else {}
    return {"bound_checks": bound.checked, "bound_cuts": bound.cut, **own}


def _run(jobs: list[Job], on_progress: Progress | None = None, small: bool = False) -> Outcome:
    """One search without a time limit, or a ``small`` one (``Strategy.grounds_within``)
    with one, runs here, its solving stopped at the limit; anything else in forked
    workers (a limit must hold during grounding, and two searches of one plan run side
    by side)."""
    if not can_fork():
        job = jobs[0]._replace(part=None)  # a share alone would miss plans
        return run_job(job, _reporter(job.incremental, on_progress, job.refuted_below))
    alone = len(jobs) == 1 and jobs[0].memory is None
    if alone and (jobs[0].timeout is None or (small and jobs[0].incremental is None)):
        return run_job(jobs[0], _reporter(jobs[0].incremental, on_progress, jobs[0].refuted_below))
    from .workers import run_in_workers  # multiprocessing: only when a worker is needed

    return run_in_workers(jobs, run_job, on_progress)


def can_fork() -> bool:
    """Whether this process can fork workers (not on Windows): asked of ``os``, not of
    ``multiprocessing``, which a search without workers does not import."""
    return hasattr(os, "fork")


def _reporter(
    plan: Incremental | None, on_progress: Progress | None, refuted_below: int = 0
) -> Reporter:
    """A search in this process, reporting to ``on_progress`` as the workers' parent
    does: for a plan, what its bounds prove (with the budgets below ``refuted_below``
    already refuted), each time they move; for any other search, its phase and the
    answers found so far, every ``TICK`` seconds."""
    if on_progress is None:
        return solving.ignore
    tell = on_progress
    if plan is None:
        phase = "loading"

        def beat(kind: str, value: Any) -> None:
            nonlocal phase
            if kind == "phase":
                phase = value
            elif kind == "tick":
                tell(search_text(phase, value or 0))

        return beat
    bounds = Bounds(plan)
    bounds.refuted_below(refuted_below)

    def report(kind: str, value: Any) -> None:
        if kind in ("lower", "plan", "tick"):
            bounds.take(kind, value)
            tell(bounds.text())

    return report


class Checks(NamedTuple):
    """Whether answers go through the puzzle's checker (``run``), and whether the
    encoding is an edited one, which a rejection then names (``edited``)."""

    run: bool = True
    edited: bool = False


#: Answers checked, the encoding the shipped one.
SHIPPED_CHECKED = Checks()


#: How many of the answers found are checked (and so shown) whatever the time: a
#: few milliseconds' work, so that an answer found just before the time limit, or the
#: few asked for with ``-n``, are never lost for want of time to check them.
CHECKED_PAST_THE_LIMIT = 100


def _checked_solutions(
    game: Puzzle[Any, Any],
    parsed: Any,
    outcome: Outcome,
    checks: Checks,
    deadline: float | None = None,
) -> list[Solution]:
    """The answers found, each decoded and checked. Checking honours the time limit
    (``deadline``, a ``time.perf_counter`` time): past it, past the first
    ``CHECKED_PAST_THE_LIMIT`` answers, it stops (the tens of thousands of answers a
    listing finds took longer to check, and to print, than to find), and the run ends
    as at a time limit, while checking, with the answers checked. Ctrl-C while they
    are checked keeps those checked so far likewise: the run ends as interrupted."""
    checked: list[Solution] = []
    try:
        for atoms in outcome.models:
            if (
                deadline is not None
                and len(checked) >= CHECKED_PAST_THE_LIMIT
                and time.perf_counter() > deadline
            ):
                outcome.timeout_phase = outcome.timeout_phase or "checking"
                break
            checked.append(
                results.checked_solution(
                    game, parsed, atoms, check=checks.run, edited=checks.edited
                )
            )
    except KeyboardInterrupt:
        outcome.interrupt("checking")
    return checked


def _result(
    game: Puzzle[Any, Any],
    parsed: Any,
    strategy: Strategy[Any],
    name: str,
    outcome: Outcome,
    *,
    unique: bool,
    count: bool,
    models: int = 1,
    checks: Checks = SHIPPED_CHECKED,
    deadline: float | None = None,
) -> results.Result:
    solutions = [] if count else _checked_solutions(game, parsed, outcome, checks, deadline)
    complete = outcome.timeout_phase is None
    if outcome.count or solutions:
        status = results.SOLVED
    elif outcome.satisfiable is False:
        status = results.UNSATISFIABLE
    else:
        status = results.TIMEOUT
    listing = models == 0 or len(solutions) < models  # -n N: not all N were found
    if not complete and status == results.SOLVED and (unique or count or listing):
        status = results.TIMEOUT  # the question asked (verdict, count, list) has no answer yet
    if not complete and outcome.progress and solutions:
        # The shortest plan is not known yet; a plan found on the way is shown as such.
        status = results.TIMEOUT
        planning = strategy.planning()
        if planning is not None:
            solutions = [
                Solution(s.puzzle, s.instance, planning.unproved(s.data), s.atoms)
                for s in solutions
            ]
    if outcome.interrupted and status == results.TIMEOUT:
        status = results.INTERRUPTED
    elif outcome.out_of_memory and status == results.TIMEOUT:
        status = results.MEMORY
    verdict = None
    if unique and complete:
        verdict = {0: "none", 1: "unique"}.get(len(solutions), "multiple")
    if unique and not complete and len(solutions) >= 2:
        verdict, status = "multiple", results.SOLVED
    outcome.stats["models"] = outcome.count
    return results.Result(
        puzzle=game.name,
        instance=name,
        status=status,
        solutions=solutions[:1] if unique else solutions,
        verdict=verdict,
        count=outcome.count if count else None,
        count_details=strategy.count_details(outcome.count) if count and complete else {},
        complete=complete,
        timeout_phase=outcome.timeout_phase,
        stats=results.rounded(outcome.stats),
        # A count is never checked answer by answer: it is as good as the encoding.
        checked=checks.run and not (count and checks.edited),
        progress=outcome.progress,
        interrupted=outcome.interrupted,
        cost=outcome.cost,
        optimal=outcome.optimal,
        exhausted=complete and (outcome.exhausted or status == results.UNSATISFIABLE),
        found=len(outcome.models) if len(solutions) < len(outcome.models) and not unique else None,
    )
