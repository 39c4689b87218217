"""What keeps a command within its bounds on a shared machine: limits whose values are
in range, a memory limit on every process of a command, and workers that never
outlive the process that started them."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..errors import InputError

#: How often a worker without ``prctl`` looks whether its parent is still there.
PARENT_WATCH = 0.5


#: The longest time limit taken (a year): a larger one is surely a slip, and clocks and
#: timers cannot hold an unbounded one.
LONGEST_TIMEOUT = 365 * 24 * 3600.0
#: The shortest time limit taken (a millisecond): a shorter one is surely a slip (1e-9
#: for 1e9), and no phase of any command can be timed that finely.
SHORTEST_TIMEOUT = 0.001
#: The largest memory limit taken, in megabytes (1 PiB): what an address-space limit
#: can still hold in bytes.
LARGEST_MEMORY_MB = 1 << 30


def timeout_problem(seconds: float) -> str | None:
    """What is wrong with a time limit, if anything: it must be a number of seconds from
    a millisecond to a year (``0``, ``1e-9``, ``inf``, ``nan`` and ``1e308`` are refused)."""
    if SHORTEST_TIMEOUT <= seconds <= LONGEST_TIMEOUT:  # false for nan
        return None
    least, most = f"{SHORTEST_TIMEOUT:g}", f"{LONGEST_TIMEOUT:.0f} (a year)"
    return f"must be a number of seconds from {least} to {most}, not {seconds:g}"


def memory_problem(megabytes: int) -> str | None:
    """What is wrong with a memory limit in megabytes, if anything (0 means none)."""
    if 0 <= megabytes <= LARGEST_MEMORY_MB:
        return None
    return f"must be from 1 to {LARGEST_MEMORY_MB} megabytes (0: no limit), not {megabytes}"


def checked_timeout(seconds: float | None, option: str = "the time limit") -> float | None:
    """A time limit as the driver takes it (None: no limit), or a one-line InputError."""
    if seconds is not None and (problem := timeout_problem(seconds)) is not None:
        raise InputError(f"{option} {problem}")
    return seconds


def checked_memory(limit: int | None, option: str = "the memory limit") -> int | None:
    """A memory limit in bytes as the driver takes it (None: no limit), or a one-line
    InputError."""
    if limit is not None and (problem := memory_problem(-(-limit >> 20))) is not None:
        raise InputError(f"{option} {problem}")
    return limit


def physical_memory() -> int | None:
    """The machine's memory in bytes, where the system says."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def default_memory() -> int | None:
    """The command's default limit: half the machine's memory, so that one hard
    instance cannot take a shared machine down."""
    total = physical_memory()
    return None if total is None else total // 2


def limit_memory(limit: int | None) -> None:
    """Bound this process's address space (and so every process it forks) to ``limit``
    bytes: past it, allocations fail, clingo raises ``MemoryError('bad_alloc')`` and the
    solve reports the limit. A no-op without a limit or where the system has none."""
    if limit is None:
        return
    try:
        import resource
    except ImportError:  # Windows
        return
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


class SharedBound:
    """A memory limit a process holds while any of its threads needs it (a process
    that serves other work too: a Dask worker), its own limits given back as the last
    one is done."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._holders = 0
        self._before: tuple[int, int] | None = None

    @contextmanager
    def held(self, limit: int, first: Callable[[], None] = lambda: None) -> Iterator[None]:
        """Within, this process's address space is bounded to ``limit`` bytes. ``first``
        is called before the bound is taken where nothing holds it yet (it may refuse,
        raising)."""
        with self._lock:
            if self._holders == 0:
                first()
                self._before = _address_limits()
                limit_memory(limit)
            self._holders += 1
        try:
            yield
        finally:
            with self._lock:
                self._holders -= 1
                if self._holders == 0 and self._before is not None:
                    import resource

                    resource.setrlimit(resource.RLIMIT_AS, self._before)


def _address_limits() -> tuple[int, int] | None:
    """This process's address-space limits (soft, hard), where the system has them."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    return resource.getrlimit(resource.RLIMIT_AS)


def died_of_memory(limit: int | None) -> bool:
    """Whether a worker that ended without an answer is read as stopped by the memory
    limit: it ran under one (its own ``limit``, or this process's, which it
    inherited), and past it clingo may abort the process where it cannot allocate
    (its thread-local data) instead of raising ``MemoryError``."""
    if limit is not None:
        return True
    try:
        import resource
    except ImportError:  # Windows
        return False
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return soft != resource.RLIM_INFINITY


#: The process that forks workers, noted by it just before (``note_parent``): a forked
#: worker inherits the value.
_forker: int | None = None


def note_parent() -> None:
    """Called by a process just before it forks workers: they inherit its pid, so that
    a worker whose parent died before it set up ``die_with_parent`` (on a loaded
    machine a worker can take seconds to get there) knows it, where ``os.getppid``
    would name whoever adopted it and the worker would run on for ever."""
    global _forker
    _forker = os.getpid()


def die_with_parent() -> None:
    """Make this (forked) worker end when its parent does, however the parent ends
    (a kill, SIGTERM, SIGHUP, even SIGKILL): on Linux the kernel sends SIGKILL when the
    parent exits (``prctl(PR_SET_PDEATHSIG)``); elsewhere a thread watches the parent
    and ends the process once it is gone."""
    import signal  # a worker only

    parent = os.getppid() if _forker is None else _forker
    if os.getppid() != parent:  # the parent died before this worker got here
        os._exit(1)
    if sys.platform.startswith("linux") and _death_signal(signal.SIGKILL):
        if os.getppid() != parent:  # the parent died before the signal was set up
            os._exit(1)
        return
    import threading  # a worker without prctl only

    watcher = threading.Thread(target=_watch_parent, args=(parent,), daemon=True)
    watcher.start()


def _death_signal(signum: int) -> bool:
    import ctypes  # loaded only in a worker
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    except OSError:
        return False
    pr_set_pdeathsig = 1
    return bool(libc.prctl(pr_set_pdeathsig, signum, 0, 0, 0) == 0)


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_WATCH)
    os._exit(1)
