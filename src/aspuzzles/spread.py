"""Work spread over processes: the sweep's and the census's units, on a local pool of
worker processes or on a Dask cluster, each unit's result handed back as it finishes.

A unit is a call of a module-level function on plain data, so that a local worker and a
Dask worker run the very same code; a worker keeps what it grounded for its next units
(see ``worker_state``). Locally, a worker that dies (killed, out of memory) has its
units run again on a fresh pool, up to ``REDOS`` times; on Dask, the scheduler does the
same. A deadline stops the work with TimeLimit, Ctrl-C with KeyboardInterrupt; either
way no worker is left running (local workers are killed, Dask units cancelled). Under
``--memory`` the command's own process is bounded too, after it has loaded what the
work needs (see ``_warmed``), and so is a Dask worker's while it runs the command's
units (``_bounded_unit``). On Dask, the peer at the address is made sure to be a
scheduler first, within the time limit; one that goes away mid-run ends the run with
``ClusterLost``.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import socket
import sys
import time
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, ProcessPoolExecutor
from concurrent.futures import wait as wait_for
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from functools import partial
from itertools import islice
from typing import Any, TypeVar

from .driver import solving
from .driver.limits import SharedBound, die_with_parent, limit_memory, note_parent
from .entry import one_thread
from .errors import AspuzzlesError, InputError, MemoryLimit, TimeLimit
from .logs import DEBUG, enabled

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
    except TimeLimit as error:
        raise TimeLimit(f"{error}; {kept()}") from None
    except ClusterLost as error:
        raise ClusterLost(f"{error}; {kept()}") from None
    except MemoryLimit as error:
        raise MemoryLimit(f"{error}; {kept()}") from None


@contextmanager
def spread(
    work: Callable[[Task], Result],
    tasks: list[Task],
    *,
    jobs: int = 2,
    scheduler: str | None = None,
    memory: int | None = None,
    deadline: float | None = None,
    warm: Callable[[], object] | None = None,
) -> Iterator[Iterator[Result]]:
    """Each task's result, in the order they finish: on ``jobs`` local processes (each
    bounded to its share of ``memory`` bytes), or on the Dask cluster whose scheduler
    is at ``scheduler``. ``deadline`` is a ``time.perf_counter`` time. A context: the
    workers are stopped as the block is left, however it is left (Ctrl-C while the
    caller stores a result, not only while the results are awaited), instead of when
    the interpreter ends, where a pool's manager thread races its own exit hook.
    Under a memory limit, ``warm`` (a small piece of the work: one variant) is run
    here first, before any limit, so that what the work loads is loaded once, by
    this process, and the workers forked from it start with it."""
    if scheduler:
        results = _on_dask(work, tasks, scheduler, deadline, memory)
    else:
        results = _on_pool(work, tasks, jobs, memory, deadline, warm)
    try:
        yield results
    finally:
        results.close()


def _start_worker(memory: int | None) -> None:
    """A pool worker: Ctrl-C is its parent's to answer, it ends with its parent, and
    its memory is bounded. What it says on its standard error (a C++ runtime's
    ``std::bad_alloc`` past the limit) is dropped: its errors reach the command as
    exceptions, and ``-vv`` shows the rest."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    limit_memory(memory)
    if memory is not None and not enabled(DEBUG):
        os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
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
    warm: Callable[[], object] | None = None,
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
    share = None
    if memory is not None and pending:
        # What the work loads (hashlib's OpenSSL, clingo, numpy and its BLAS, numba's
        # compiled code and llvmlite) is loaded here, before any limit: each failed to
        # load under a low one, in tracebacks. The workers, forked from here, have it;
        # each needs what this process now takes, and more. Ctrl-C is held while it
        # loads (numba's compiler, called back from C, printed a traceback when cut
        # short) and answered at once after.
        with _Interrupts() as interrupts:
            _warmed(warm)
            interrupts.answer()
        share = _share(memory, jobs)
        limit_memory(memory)
    with _Interrupts() as interrupts:
        while pending:
            note_parent()  # forked workers inherit it; spawned ones look themselves
            pool = ProcessPoolExecutor(jobs, context, initializer=_start_worker, initargs=(share,))
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
                    if left == 0:  # held whether or not results keep coming
                        raise TimeLimit("time limit reached")
                    done, _ = wait_for(
                        running,
                        timeout=POLL if left is None else min(left, POLL),
                        return_when=FIRST_COMPLETED,
                    )
                    interrupts.answer()
                    for future in done:
                        index = running.pop(future)
                        result = _result(future, share)
                        del pending[index]
                        yield result
                        interrupts.answer()
            except BrokenProcessPool:
                redone += 1
                if redone > REDOS:
                    raise _died(redone, share) from None
            finally:
                _stop(pool)


#: What a worker is given beyond what the command's process takes once its work is
#: loaded (its grounding, its searches): the least share of ``--memory`` taken.
HEADROOM = 128 << 20


def _warmed(warm: Callable[[], object] | None) -> None:
    """Run ``warm`` in this process before any limit is set, with what its libraries
    need set first; what it kept is then dropped (a worker forked from here grounds
    its own)."""
    one_thread()  # the command has; a caller of the API under a limit too
    import hashlib  # noqa: F401  (its OpenSSL: every hash failed to load under a limit)

    if warm is None:
        return
    try:
        warm()
    finally:
        _STATE.clear()


def address_space() -> int | None:
    """This process's address space in bytes (what RLIMIT_AS bounds), where /proc says."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) << 10
    except (OSError, ValueError):
        pass
    return None


def _share(memory: int, jobs: int) -> int:
    """Each worker's share of ``memory`` bytes, or a one-line InputError saying the
    least ``--memory`` that works: a worker starts with this process's address space
    (forked, with the work's libraries loaded) and needs ``HEADROOM`` more."""
    share = memory // jobs
    taken = address_space()
    if taken is None:
        return share
    least = -(-(taken + HEADROOM) >> 20)  # megabytes, rounded up
    if share < least << 20:
        raise InputError(
            f"--memory {memory >> 20} is too low: each of the {jobs} worker processes would "
            f"get {share >> 20} MB, and one needs at least {least} MB here (what its work "
            f"loads, and room to work); give --memory {least * jobs} or more, or "
            "fewer --jobs"
        )
    return share


def _result(future: Future[Result], share: int | None) -> Result:
    """A finished unit's result; a worker's error is raised here, its MemoryError
    (Python's, or clingo's ``bad_alloc``) as the memory limit reached."""
    try:
        return future.result()
    except MemoryError:
        raise _past_limit(share) from None


def _died(times: int, share: int | None) -> AspuzzlesError:
    """Workers that died more than ``REDOS`` times: under a limit, past it (clingo may
    abort the process where it cannot allocate)."""
    if share is not None:
        return _past_limit(share, f"a worker process died {times} times,")
    return InputError(f"a worker process died {times} times (out of memory?)")


def _past_limit(share: int | None, what: str = "a worker process went") -> MemoryLimit:
    size = "" if share is None else f" of {share >> 20} MB"
    return MemoryLimit(f"memory limit reached: {what} past its share{size} (see --memory)")


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


#: How long a scheduler is given to answer when the command has no ``--timeout`` (or
#: a longer one), in seconds: a peer that accepts a connection and says nothing (not a
#: scheduler, or one hung) must not hold the command for ever.
CONNECT = 10.0


class ClusterLost(InputError):
    """The Dask cluster went away mid-run (its scheduler stopped or became unreachable):
    a failure outside the command, exit code 2 like a file that cannot be written; the
    results kept stay and the same command resumes (see ``kept_when_stopped``)."""


def scheduler_address(scheduler: str) -> str:
    """``--scheduler``'s address as ``tcp://HOST:PORT``, or a one-line InputError: only
    Dask's plain TCP is taken (``tls://`` needs certificates the command has no options
    for, ``inproc://`` is another process's memory, ``ws://`` and ``ucx://`` are not
    what the workers listen on)."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(scheduler, strict=False)
        if scheme != "tcp":
            raise ValueError(
                f"{scheme}:// addresses are not supported; give the scheduler's tcp://HOST:PORT"
            )
        host, port = parse_host_port(location)
    except ValueError as error:  # 'missing port number', an unknown scheme
        raise InputError(f"--scheduler {scheduler}: {error}") from None
    if not host or not 0 < int(port) < 65536:
        raise InputError(f"--scheduler {scheduler}: not an address (tcp://HOST:PORT)")
    return f"tcp://{location}"


def _connect_within(deadline: float | None) -> tuple[float, bool]:
    """How long connecting may take, and whether that is the command's time limit (not
    ``CONNECT``)."""
    left = _remaining(deadline)
    if left is not None and left < CONNECT:
        return max(left, 0.001), True
    return CONNECT, False


def _check_scheduler(address: str, scheduler: str, deadline: float | None) -> None:
    """Make sure a Dask scheduler is at ``address``, within the time limit (or
    ``CONNECT``): a scheduler speaks first (its handshake, a frame of a few dozen
    bytes), then says who it is. A peer that is not there, one that says nothing (not
    a scheduler, or a scheduler hung: Dask's own connect waited on it for ever), one
    that says something else (its bytes were read as a frame of exabytes: 'memory
    limit reached') are each a one-line error."""
    seconds, limited = _connect_within(deadline)
    started = time.perf_counter()
    host, port = address.removeprefix("tcp://").rsplit(":", 1)
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=seconds) as peer:
            heard = b""
            while len(heard) < 16:
                peer.settimeout(max(0.001, seconds - (time.perf_counter() - started)))
                said = peer.recv(16 - len(heard))
                if not said:
                    break
                heard += said
    except TimeoutError:
        raise _silent(scheduler, seconds, limited) from None
    except OSError as error:  # refused, unreachable, no such host
        raise _unreachable(scheduler, error) from None
    # Dask's frames: their total length, then how many there are (both 8 bytes).
    size, frames = int.from_bytes(heard[:8], "little"), int.from_bytes(heard[8:], "little")
    if len(heard) < 16 or not (0 < size < 1 << 20 and 0 < frames < 64):
        what = "closed the connection" if not heard else "answered something else"
        raise InputError(f"--scheduler {scheduler}: not a Dask scheduler (it {what})")
    who = _identity(address, scheduler, max(0.001, seconds - (time.perf_counter() - started)))
    if who is None:
        raise _silent(scheduler, seconds, limited)
    if not isinstance(who, dict) or who.get("type") != "Scheduler":
        kind = who.get("type") if isinstance(who, dict) else type(who).__name__
        raise InputError(f"--scheduler {scheduler}: not a Dask scheduler (it is a {kind!s:.40})")


def _identity(address: str, scheduler: str, seconds: float) -> Any:
    """What the Dask peer at ``address`` says it is, or None when it says nothing in
    ``seconds``."""
    import asyncio

    async def identity() -> Any:
        from distributed.comm import connect

        comm = await connect(address, timeout=seconds)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    async def bounded() -> Any:
        return await asyncio.wait_for(identity(), seconds)

    try:
        return asyncio.run(bounded())
    except (TimeoutError, asyncio.TimeoutError):
        return None
    except Exception as error:  # closed, or garbage read as a frame (MemoryError)
        raise InputError(
            f"--scheduler {scheduler}: not a Dask scheduler (its answer could not be read: "
            f"{type(error).__name__})"
        ) from None


def _silent(scheduler: str, seconds: float, limited: bool) -> AspuzzlesError:
    if limited:
        return TimeLimit(
            f"time limit reached while connecting to the scheduler at {scheduler} "
            f"(no answer within {seconds:.1f} s)"
        )
    return InputError(
        f"--scheduler {scheduler}: no Dask scheduler answered within {seconds:g} s "
        "(is one running there?)"
    )


def _unreachable(scheduler: str, error: BaseException) -> InputError:
    said = (str(error).strip().splitlines() or [type(error).__name__])[0]
    return InputError(f"--scheduler {scheduler}: cannot reach it ({said})")


def _on_dask(
    work: Callable[[Task], Result],
    tasks: list[Task],
    scheduler: str,
    deadline: float | None,
    memory: int | None = None,
) -> Generator[Result, None, None]:
    """Each task's result from the Dask cluster at ``scheduler``, as it finishes. The
    deadline is held whether or not results keep coming (``as_completed``'s own
    timeout counts only while none is ready), and a scheduler that goes away ends the
    run with ClusterLost. Under ``memory`` this process is bounded once Dask's client
    is loaded, and every worker process while it runs the command's units
    (``_bounded_unit``)."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise InputError(
            "--scheduler needs Dask's distributed scheduler: pip install 'aspuzzles[distributed]'"
        ) from None
    import asyncio

    if memory is not None:
        _warmed(None)
        _room(memory, "this process")
        limit_memory(memory)
        work = partial(_bounded_unit, work, memory)

    address = scheduler_address(scheduler)
    with _quiet_dask():
        _check_scheduler(address, scheduler, deadline)
        seconds, limited = _connect_within(deadline)
        try:
            client = Client(address, timeout=seconds)
        except (OSError, TimeoutError, asyncio.TimeoutError) as error:
            if limited:
                raise TimeLimit(
                    f"time limit reached while connecting to the scheduler at {scheduler}"
                ) from None
            raise _unreachable(scheduler, error) from None
        futures = [client.submit(work, task, pure=False, retries=REDOS) for task in tasks]
        try:
            yield from _dask_results(client, as_completed(futures), scheduler, deadline)
        except (AspuzzlesError, KeyboardInterrupt, GeneratorExit):
            raise
        except Exception:  # Dask's own state torn as its scheduler went away
            if client.status not in ("running", "connecting"):
                raise _lost(scheduler) from None
            raise
        finally:
            _let_go(client, futures)


#: A Dask worker process's bound while it runs the command's units (its threads may
#: run several at once): held while any runs, its own limit given back as the last ends.
_WORKER_BOUND = SharedBound()


def _bounded_unit(work: Callable[[Task], Result], memory: int, task: Task) -> Result:
    """A unit on a Dask worker under the command's ``--memory`` (``memory`` bytes): the
    worker process's address space is bounded to it while the unit runs, as a local
    worker's is for its whole life (a Dask worker is the cluster's, serving other work
    after this command). A worker whose own process already takes more than the bound
    allows is refused in one line; a unit past the bound ends the run as the memory
    limit reached."""
    try:
        with _WORKER_BOUND.held(memory, lambda: _room(memory, "a worker of the cluster")):
            return work(task)
    except MemoryError:
        raise _past_limit(memory, "a unit on a Dask worker went") from None


def _room(memory: int, who: str) -> None:
    """A one-line InputError where a process (``who``) already takes more address space
    than ``memory`` bytes leave room for, saying the least ``--memory`` that works."""
    taken = address_space()
    if taken is not None and taken + HEADROOM > memory:
        least = -(-(taken + HEADROOM) >> 20)
        raise InputError(
            f"--memory {memory >> 20} is too low: {who} already takes {taken >> 20} MB of "
            f"address space and needs room to work; give --memory {least} or more"
        )


def _dask_results(
    client: Any, ready: Any, scheduler: str, deadline: float | None
) -> Generator[Result, None, None]:
    """The results ``ready`` (Dask's ``as_completed``) gives, the deadline held before
    each, a scheduler gone said as ClusterLost."""
    while not ready.is_empty():
        left = _remaining(deadline)
        if left == 0:  # held whether or not results keep coming
            raise TimeLimit("time limit reached")
        if not ready.has_ready():
            if client.status not in ("running", "connecting"):
                raise _lost(scheduler)
            with ready.thread_condition:
                ready.thread_condition.wait(POLL if left is None else min(left, POLL))
            continue
        future = next(ready)
        if future.status == "cancelled" or client.status not in ("running", "connecting"):
            raise _lost(scheduler)
        try:
            result = future.result()
        except (OSError, CancelledError):  # the scheduler died while it answered
            raise _lost(scheduler) from None
        yield result


def _let_go(client: Any, futures: list[Any]) -> None:
    """Cancel what is left and close the client; a client whose scheduler went away
    may fail at either (its state torn), which changes nothing of what was kept."""
    with suppress(Exception):
        client.cancel(futures)
    with suppress(Exception):
        client.close(timeout=2)


@contextmanager
def _quiet_dask() -> Iterator[None]:
    """Dask's own log lines (a traceback each time it tries to reconnect to a scheduler
    gone, and from its event loop, through tornado's and asyncio's loggers, each message
    it could not send) kept off the terminal: what went wrong is said in one line.
    ``-vv`` lets them through."""
    import logging

    if enabled(DEBUG):
        yield
        return
    families = ("distributed", "tornado", "asyncio")
    children = tuple(f"{family}." for family in families)
    names = [*families, *(n for n in logging.root.manager.loggerDict if n.startswith(children))]
    levels = {name: logging.getLogger(name).level for name in names}
    for name in names:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


def _lost(scheduler: str) -> ClusterLost:
    return ClusterLost(
        f"--scheduler {scheduler}: the cluster went away (its scheduler stopped answering)"
    )
