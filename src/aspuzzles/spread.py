"""Work spread over processes: the sweep's and the census's units, on a local pool of
worker processes or on a Dask cluster, each unit's result handed back as it finishes.

A unit is a call of a module-level function on plain data, so that a local worker and a
Dask worker run the very same code; a worker keeps what it grounded for its next units
(see ``worker_state``). Locally, a worker that dies (killed, out of memory) has its
units run again on a fresh pool, up to ``REDOS`` times; on Dask, the scheduler does the
same. A deadline stops the work with TimeLimit, Ctrl-C with KeyboardInterrupt; either
way no worker is left running (local workers are killed, Dask units cancelled).
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
import time
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor
from concurrent.futures import wait as wait_for
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from itertools import islice
from typing import Any, TypeVar

from .driver import solving
from .driver.limits import die_with_parent, limit_memory
from .errors import InputError, TimeLimit

Task = TypeVar("Task")
Result = TypeVar("Result")

#: How many times a unit is run again after the worker running it died.
REDOS = 2

#: What a worker keeps between units (its grounding), by what it was made for.
_STATE: dict[str, Any] = {}


def worker_state(key: str, make: Callable[[], Any]) -> Any:
    """What this worker made for ``key`` (a puzzle and its options), made on its first
    unit and kept for the next ones, in a pool's process or a Dask worker alike."""
    if _STATE.get("key") != key:
        _STATE.clear()
        _STATE.update(key=key, value=make())
    return _STATE["value"]


@contextmanager
def kept_when_stopped(kept: Callable[[], str]) -> Iterator[None]:
    """Around work that stores its results as they come: when Ctrl-C or a time limit
    stops it, ``kept()`` says what was kept and how to resume (on stderr after
    Ctrl-C, in the time limit's message)."""
    try:
        yield
    except KeyboardInterrupt:
        print(f"\n{kept()}", file=sys.stderr)
        raise
    except TimeLimit:
        raise TimeLimit(f"time limit reached; {kept()}") from None


@contextmanager
def spread(
    work: Callable[[Task], Result],
    tasks: list[Task],
    *,
    jobs: int = 2,
    scheduler: str | None = None,
    memory: int | None = None,
    deadline: float | None = None,
) -> Iterator[Iterator[Result]]:
    """Each task's result, in the order they finish: on ``jobs`` local processes (each
    bounded to its share of ``memory`` bytes), or on the Dask cluster whose scheduler
    is at ``scheduler``. ``deadline`` is a ``time.perf_counter`` time. A context: the
    workers are stopped as the block is left, however it is left (Ctrl-C while the
    caller stores a result, not only while the results are awaited), instead of when
    the interpreter ends, where a pool's manager thread races its own exit hook."""
    if scheduler:
        results = _on_dask(work, tasks, scheduler, deadline)
    else:
        share = None if memory is None else memory // jobs
        results = _on_pool(work, tasks, jobs, share, deadline)
    try:
        yield results
    finally:
        results.close()


def _start_worker(memory: int | None) -> None:
    """A pool worker: Ctrl-C is its parent's to answer, it ends with its parent, and
    its memory is bounded."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    limit_memory(memory)
    solving.BLOCKING = True  # stopped only by being killed: no search needs a wait loop


def _remaining(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.0, deadline - time.perf_counter())


#: How often a pool's results are awaited afresh, in seconds: how soon Ctrl-C, held
#: while the pool runs, stops it.
POLL = 0.1


class _Interrupts:
    """Ctrl-C held while a pool runs, and answered where the pool's own code is not
    running: a KeyboardInterrupt raised inside ``concurrent.futures`` (while it held a
    future's lock, say) left that lock held, and the pool's manager thread, then the
    interpreter's exit, waited on it for ever. Only the main thread can handle
    signals; elsewhere nothing is held."""

    def __init__(self) -> None:
        self.pressed = False
        self.previous: Any = None

    def __enter__(self) -> _Interrupts:
        try:
            self.previous = signal.signal(signal.SIGINT, self._hold)
        except ValueError:  # not the main thread
            self.previous = None
        return self

    def _hold(self, _signum: int, _frame: Any) -> None:
        self.pressed = True

    def answer(self) -> None:
        """Raise the KeyboardInterrupt held, if Ctrl-C was pressed."""
        if self.pressed:
            raise KeyboardInterrupt

    def __exit__(self, *_exc: object) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)


def _on_pool(
    work: Callable[[Task], Result],
    tasks: list[Task],
    jobs: int,
    memory: int | None,
    deadline: float | None,
) -> Generator[Result, None, None]:
    """Each task's result, as it finishes, from a pool of ``jobs`` processes, given no
    more than two tasks a worker at a time (a Ctrl-C or a limit has few to cancel).
    Ctrl-C is held from the first result asked for to the pool's end (see
    ``_Interrupts``): raised here, between the pool's calls, and a second one while
    the pool stops is ignored."""
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    pending = dict(enumerate(tasks))
    redone = 0
    with _Interrupts() as interrupts:
        while pending:
            pool = ProcessPoolExecutor(jobs, context, initializer=_start_worker, initargs=(memory,))
            try:
                waiting = iter(list(pending.items()))
                running: dict[Future[Result], int] = {}
                while True:
                    for index, task in islice(waiting, 2 * jobs - len(running)):
                        running[pool.submit(work, task)] = index
                    if not running:
                        break
                    interrupts.answer()
                    left = _remaining(deadline)
                    done, _ = wait_for(
                        running,
                        timeout=POLL if left is None else min(left, POLL),
                        return_when=FIRST_COMPLETED,
                    )
                    interrupts.answer()
                    if not done and left is not None and left <= POLL:
                        raise TimeLimit("time limit reached")
                    for future in done:
                        index = running.pop(future)
                        result = future.result()  # a worker's error is raised here
                        del pending[index]
                        yield result
                        interrupts.answer()
            except BrokenProcessPool:
                redone += 1
                if redone > REDOS:
                    raise InputError(
                        f"a worker process died {redone} times (out of memory?)"
                    ) from None
            finally:
                _stop(pool)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once: its queued units dropped, its workers killed (a unit in
    a worker would otherwise run to its end before the command could exit)."""
    processes = list(getattr(pool, "_processes", {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown forgets it
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.kill()
    for process in processes:
        process.join(timeout=1)
    if manager is not None:  # it sees the workers gone and ends: before the command does,
        manager.join(timeout=5)  # or it races the pool's exit hook (a traceback at exit)


def _on_dask(
    work: Callable[[Task], Result],
    tasks: list[Task],
    scheduler: str,
    deadline: float | None,
) -> Generator[Result, None, None]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise InputError(
            "--scheduler needs Dask's distributed scheduler: pip install 'aspuzzles[distributed]'"
        ) from None
    wait = _remaining(deadline)
    try:
        client = Client(scheduler, timeout=30 if wait is None else max(wait, 0.1))
    except OSError as error:
        raise InputError(f"--scheduler {scheduler}: cannot reach it ({error})") from None
    except ValueError as error:  # not an address: 'missing port number', an unknown scheme
        raise InputError(f"--scheduler {scheduler}: {error}") from None
    futures = [client.submit(work, task, pure=False, retries=REDOS) for task in tasks]
    try:
        try:
            for future in as_completed(futures, timeout=_remaining(deadline)):
                yield future.result()
        except TimeoutError:
            raise TimeLimit("time limit reached") from None
    finally:
        client.cancel(futures)
        client.close()
