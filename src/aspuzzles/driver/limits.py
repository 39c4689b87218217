"""What keeps a solve within its bounds on a shared machine: a memory limit on every
process of a solve, and workers that never outlive the process that started them."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Any, TypeVar

from ..errors import InputError, TimeLimit

T = TypeVar("T")

#: How often a worker without ``prctl`` looks whether its parent is still there.
PARENT_WATCH = 0.5


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


def die_with_parent() -> None:
    """Make this (forked) worker end when its parent does, however the parent ends
    (a kill, SIGTERM, SIGHUP, even SIGKILL): on Linux the kernel sends SIGKILL when the
    parent exits (``prctl(PR_SET_PDEATHSIG)``); elsewhere a thread watches the parent
    and ends the process once it is gone."""
    import signal  # a worker only

    parent = os.getppid()
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


def call_within(seconds: float, function: Callable[..., T], *arguments: Any) -> T:
    """``function(*arguments)`` in a forked child killed when ``seconds`` pass (raising
    TimeLimit), for work with no time limit of its own, such as a generator drawing
    and judging puzzles. What it returns or raises is sent back through a pipe; the
    child ignores Ctrl-C (the parent stops it) and dies with the parent."""
    import multiprocessing  # loaded only for a time limit

    if not hasattr(os, "fork"):
        raise InputError("a time limit on this work needs a system that can fork (not Windows)")
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_call_and_send, args=(function, arguments, sender))
    child.start()
    sender.close()
    try:
        if not receiver.poll(max(0.0, seconds)):
            raise TimeLimit(f"time limit of {seconds:g} s reached")
        kind, value = receiver.recv()
    except EOFError:
        raise TimeLimit("the work ended without an answer (out of memory?)") from None
    finally:
        child.kill()
        child.join()
    if kind == "raised":
        raise value
    return value


def _call_and_send(function: Callable[..., Any], arguments: tuple[Any, ...], sender: Any) -> None:
    import signal  # a child only

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    try:
        answer: tuple[str, Any] = ("returned", function(*arguments))
    except Exception as error:  # sent back, raised again in the parent
        answer = ("raised", error)
    try:
        sender.send(answer)
    except Exception as error:  # an exception that does not pickle
        sender.send(("raised", RuntimeError(repr(error))))
    sender.close()
