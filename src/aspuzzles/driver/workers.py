"""Solvers in forked processes: a time limit that holds during grounding, and two
searches of one plan racing from both ends.

clingo 5.8 cannot interrupt grounding, so a job with a time limit runs in a forked child
that the parent kills when the limit passes. The same machinery runs the two halves of
a planning job at once: one child refutes budgets from the bottom up (each refuted
budget raises the proved lower bound), the other finds ever shorter plans from the top
down (each plan lowers the upper bound); the parent stops both as soon as the bounds
meet, and a run cut short still returns the best plan with what was proved about it.
Or both children climb, each over its share of the first moves: a budget is refuted
once both have refuted it, and the first plan of either is the minimum once the other
has refuted every budget below it. A shortcut search (``Strategy.shortcuts``) races with
the others, but only its answers count: finding none, it drops out.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from .guard import interruptible
from .jobs import TICK, Bounds, Job, Outcome, Progress, Reporter, search_text
from .limits import die_with_parent, died_of_memory, limit_memory, note_parent

Runner = Callable[[Job, Reporter], Outcome]

#: A worker stops solving on its own at the limit; this long is allowed for its exit.
GRACE = 2.0
#: After Ctrl-C, how long the workers have to stop and send what they found.
STOP_WAIT = 0.8
#: What the parent sends a worker to stop it as Ctrl-C stops a search in this process.
STOP_SIGNAL = signal.SIGUSR1


def _stop_request(_signum: int, _frame: Any) -> None:
    raise KeyboardInterrupt


def _serve(runner: Runner, job: Job, connection: Connection) -> None:
    """The child's whole life: run the job, forwarding every report, then the outcome.
    Ctrl-C reaches every process of the terminal's group; the parent alone answers it
    (it stops the children and reports what they found), so the child ignores it. The
    parent keeps its own clock, so of the child's once-a-second ticks only those that
    count more answers than the last are sent, as ("found", N)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(STOP_SIGNAL, _stop_request)
    die_with_parent()
    limit_memory(job.memory)
    found = 0

    def report(kind: str, value: Any) -> None:
        nonlocal found
        if kind != "tick":
            connection.send((kind, value))
        elif value and value > found:
            found = value
            connection.send(("found", found))

    try:
        outcome = runner(job, report)
    except KeyboardInterrupt:  # stopped before the search began (building the facts)
        outcome = Outcome()
        outcome.interrupt("facts")
    except BaseException as error:  # report, never hang the parent
        outcome = Outcome(error=(f"internal error in worker: {error!r}", None))
    connection.send(("done", outcome))
    connection.close()


@dataclass
class _Worker:
    """One forked solver, as the parent sees it: its pipe, phase and final outcome."""

    process: Any
    receiver: Connection
    share: int | None  # of a split search, or None: it searches every plan
    answers_only: bool = False  # a shortcut search: finding none proves nothing
    phase: str = "loading"
    memory: int | None = None  # its own memory limit, in bytes
    found: int = 0  # answers found so far, by a search without a plan
    outcome: Outcome | None = None

    @classmethod
    def start(cls, context: Any, runner: Runner, job: Job) -> _Worker:
        receiver, sender = context.Pipe(duplex=False)
        process = context.Process(target=_serve, args=(runner, job, sender), daemon=True)
        note_parent()
        process.start()
        sender.close()
        share = None if job.part is None else job.part[0]
        return cls(process, receiver, share, answers_only=job.answers_only, memory=job.memory)

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join()


@dataclass
class _Race:
    """The parent's view of its workers and of what they proved between them."""

    workers: list[_Worker]
    bounds: Bounds | None
    final: Outcome | None = None
    #: Told what the bounds prove after each change (a live status line), if given.
    on_progress: Progress | None = None

    def hear(self, worker: _Worker) -> None:
        """Take one message from a worker; a decisive one sets ``final``."""
        try:
            kind, value = worker.receiver.recv()
        except EOFError:
            self._died(worker)
            return
        if kind == "phase":
            worker.phase = value
        elif kind == "found":
            worker.found = value
        elif kind == "done":
            self._finished(worker, value)
        elif self.bounds is not None:
            self.bounds.take(kind, value, worker.share)
        if self.final is None and self.bounds is not None:
            self._settle(self.bounds)
        if self.final is None and self.bounds is not None and kind in ("lower", "plan"):
            self.tell(self.bounds)

    def _died(self, worker: _Worker) -> None:
        """A worker ended without its outcome: under a memory limit it is out of the
        race like one that reported ``memory`` (see ``limits.died_of_memory``);
        otherwise it is a bug."""
        if not died_of_memory(worker.memory):
            self.final = Outcome(error=("internal error: the solver process died", None))
            return
        stopped = Outcome()
        stopped.exhaust(worker.phase if worker.phase != "loading" else "facts")
        self._finished(worker, stopped)  # the others race on; cut short if none is left

    def tell(self, bounds: Bounds) -> None:
        if self.on_progress is not None:
            self.on_progress(bounds.text())

    def tell_time(self) -> None:
        """Nothing new for a while: the status line is told again, so its clock moves.
        A search without a plan says its phase (the furthest of its workers) and the
        answers found so far."""
        if self.bounds is not None:
            self.tell(self.bounds)
        elif self.on_progress is not None and self.live():
            phase = "solving" if any(w.phase == "solving" for w in self.live()) else "grounding"
            found = max(worker.found for worker in self.workers)
            self.on_progress(search_text(phase, found))

    def _settle(self, bounds: Bounds) -> None:
        """The race is decided when the bounds meet, or when every budget is refuted.
        The statistics are those of a worker that finished, if one did (a share that
        found its plan)."""
        stats = {**self._said().stats, "horizon": bounds.lower}
        if bounds.settled:
            self.final = Outcome([bounds.best], satisfiable=True, count=1, stats=stats)
        elif bounds.exhausted:
            self.final = Outcome(satisfiable=False, stats=stats)

    def _finished(self, worker: _Worker, outcome: Outcome) -> None:
        worker.outcome = outcome  # stopped by its own limit, unless decisive:
        if outcome.error:
            self.final = outcome
        elif outcome.timeout_phase is not None:
            return
        elif worker.answers_only and not outcome.satisfiable:
            return  # a shortcut that found nothing drops out; the others go on
        elif worker.share is None:
            self.final = outcome  # an answer or a proof of none
        elif self.bounds is not None:
            self.bounds.share_done(worker.share, outcome)  # decisive once bounds meet

    def _said(self) -> Outcome:
        """The outcome of a worker that finished with statistics, or a blank: of those
        cut short, the one with the most answers (racing searches that count the same
        answers, so a count cut short says the most that is known), and of those the
        one whose best answer costs least (an objective not yet proved optimal)."""
        said = [w.outcome for w in self.workers if w.outcome is not None and w.outcome.stats]
        return max(said, key=_weight) if said else Outcome()

    def live(self) -> list[_Worker]:
        return [worker for worker in self.workers if worker.outcome is None]

    def stop_and_collect(self, wait_for: float) -> None:
        """Ctrl-C: every worker is asked to stop as a search here stops (its answers
        so far, its statistics), and what they send within ``wait_for`` seconds is
        taken: two racers counting the same answers, or listing them, lose nothing."""
        for worker in self.live():
            if worker.process.pid is not None and worker.process.is_alive():
                os.kill(worker.process.pid, STOP_SIGNAL)
        until = time.perf_counter() + wait_for
        while self.final is None and self.live():
            left = until - time.perf_counter()
            if left <= 0:
                return
            for receiver in wait([worker.receiver for worker in self.live()], left):
                worker = next(w for w in self.live() if w.receiver is receiver)
                self.hear(worker)

    def cut_short(self) -> Outcome:
        """The limit passed: what a worker that stopped itself said (it has statistics),
        and for a plan, the best one found (not proved minimal) with what was proved."""
        outcome = self._said()
        outcome.timeout_phase = outcome.timeout_phase or self.workers[0].phase
        outcome.satisfiable = None
        outcome.out_of_memory = any(w.outcome and w.outcome.out_of_memory for w in self.workers)
        if self.bounds is not None:
            outcome.progress = self.bounds.text()
            outcome.models = [self.bounds.best] if self.bounds.best else []
            outcome.count = len(outcome.models)
            outcome.stats["horizon"] = self.bounds.lower
        return outcome


def _weight(outcome: Outcome) -> tuple[int, list[int]]:
    """Most answers first, then the lowest cost (clingo compares costs level by level,
    the highest priority first)."""
    return outcome.count, [-level for level in outcome.cost or []]


def run_in_workers(
    jobs: Sequence[Job], runner: Runner, on_progress: Progress | None = None
) -> Outcome:
    """Run jobs in forked processes until one answers, their bounds meet, or time is up.

    All jobs share the first job's time limit (None: no limit) and planning spec; a
    planning run tells ``on_progress`` what it has proved each time that changes.
    """
    timeout = jobs[0].timeout
    deadline = None if timeout is None else time.perf_counter() + timeout
    context = multiprocessing.get_context("fork")
    plan = jobs[0].incremental
    parts = 1 if jobs[0].part is None else jobs[0].part[1]
    bounds = None if plan is None else Bounds(plan, parts)
    if bounds is not None:
        bounds.refuted_below(jobs[0].refuted_below)
    race = _Race(
        [_Worker.start(context, runner, job) for job in jobs], bounds, on_progress=on_progress
    )
    try:
        while race.final is None and race.live():
            limit = _wait_limit(race, deadline)
            if limit is not None and limit <= 0:
                break
            with interruptible():  # in a guarded child, Ctrl-C as the guard passes it on
                ready = wait([worker.receiver for worker in race.live()], _tick(race, limit))
            if not ready:
                race.tell_time()
            for worker in race.workers:
                if race.final is None and worker.receiver in ready and worker.outcome is None:
                    race.hear(worker)
    except KeyboardInterrupt:  # Ctrl-C: stop as at a time limit, with what was found
        if race.final is None:
            race.stop_and_collect(STOP_WAIT)
        if race.final is not None:
            return race.final
        outcome = race.cut_short()
        outcome.interrupt(outcome.timeout_phase or "solving")
        return outcome
    finally:
        for worker in race.workers:
            worker.stop()
    return race.final if race.final is not None else race.cut_short()


def _tick(race: _Race, limit: float | None) -> float | None:
    if race.on_progress is None:
        return limit
    return TICK if limit is None else min(limit, TICK)


def _wait_limit(race: _Race, deadline: float | None) -> float | None:
    """Seconds to wait for the next message. Past the deadline, a worker still solving
    is given a grace period to stop on its own (and send its statistics); one that is
    grounding cannot stop, so it is killed at once."""
    if deadline is None:
        return None
    now = time.perf_counter()
    if now < deadline:
        return deadline - now
    for worker in race.live():
        if worker.phase != "solving":
            worker.stop()
            worker.outcome = Outcome(timeout_phase=worker.phase)
    return deadline + GRACE - now if race.live() else 0.0
