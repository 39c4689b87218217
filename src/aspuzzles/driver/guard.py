"""Every command's work under the same bounds: a time limit that holds in every phase
(grounding included, which clingo 5.8 cannot interrupt), a memory limit, and Ctrl-C
answered at once (work that keeps what it has found, a walkthrough's steps, is first
asked to hand that over: ``run_guarded``'s ``wrap_up``).

A command's work (reading the instance, grounding, reasoning, drawing the answer) runs
in a forked child; the parent waits for it, and kills it when the limit passes or
Ctrl-C comes. The child bounds its own address space, so a grounding that outgrows the
memory limit ends there (a ``MemoryError``, or clingo's abort, which the parent reads
as the same outcome), not on the machine. The child sends back what the work returned
(plain data: the command's text, its exit code; a report, its clingo symbols sent as
their text) or raised, through a pipe, and says which phase it is in
(``note_phase``), so that a limit reached is reported with its phase. The solve path
has workers of its own (:mod:`.workers`), which race several searches and keep the
answers found before a limit; this is for questions whose answer is whole or missing
(a hint, an explanation, a grade, a generated instance).

The child is no daemon, so that its work may start processes of its own (the web
board's solve does), and it dies with its parent all the same (``die_with_parent``).
The command line forks it and waits (``run_guarded``); the web board's server awaits
it on its event loop (``run_guarded_async``), started from a fork server rather than
forked from the server's threads, and kills it when the client goes away.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, NamedTuple, TypeVar, cast

from ..errors import MemoryLimit, TimeLimit
from ..logs import INFO, enabled
from .limits import die_with_parent, limit_memory, note_parent

T = TypeVar("T")

#: Beyond the limit, how long a child that stops on its own (at its own deadline) is
#: given to send its answer before it is killed.
GRACE = 0.25
#: The phase a child is in before it says otherwise.
LOADING = "loading"
#: The phase of a generator's work, as a whole (its own groundings may say more).
GENERATING = "generating"

#: In a guarded child: where its phases are sent (None in any other process).
_phase_sender: Any = None
#: In a guarded child with a time limit: when it passes (``time.monotonic``).
_child_deadline: float | None = None
#: On Ctrl-C, how long the child of work that keeps what it has found (``run_guarded``'s
#: ``wrap_up``) is given to hand that over before it is killed: a plan's search waits
#: up to ``workers.STOP_WAIT`` for its workers to say what they proved.
WRAP_UP = 1.5
#: In a guarded child: whether the parent has asked the work to stop where it is and
#: hand over what it found (Ctrl-C, under ``wrap_up``).
_stop_asked = False


def note_phase(phase: str) -> None:
    """Say which phase the work is in (``grounding``, ``reasoning``, ...): a limit
    reached is reported with the last phase noted. A no-op outside a guarded child."""
    if _phase_sender is not None:
        with contextlib.suppress(OSError):  # the parent has gone: nothing to tell
            _phase_sender.send(("phase", phase))


def time_left() -> float | None:
    """In a guarded child with a time limit, the seconds left before it (the parent
    stops the child ``GRACE`` after); None anywhere else. Work that keeps what it has
    found (a walkthrough's steps) stops short of it, to hand that over."""
    if _child_deadline is None:
        return None
    return max(0.0, _child_deadline - time.monotonic())


def stop_asked() -> bool:
    """Whether the parent asked this guarded child to stop and hand over what it has
    found (the searches raise KeyboardInterrupt once it has: ``solving.solve_until``)."""
    return _stop_asked


#: Whether this guarded child is in work of Python alone (``interruptible``).
_raise_on_stop = False


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """Within it, the work is Python's alone (no clingo call, whose callbacks cannot
    pass an exception on): a stop the parent asks for is raised there at once, as
    KeyboardInterrupt, as Ctrl-C is in a process of its own, so that a long search in
    Python (a plan's) hands over what it proved without waiting to look at the flag."""
    global _raise_on_stop
    if _stop_asked:
        raise KeyboardInterrupt
    before, _raise_on_stop = _raise_on_stop, True
    try:
        yield
    finally:
        _raise_on_stop = before


def _ask_to_stop(_signum: int, _frame: Any) -> None:
    global _stop_asked
    _stop_asked = True
    if _raise_on_stop:
        raise KeyboardInterrupt


class Bounds(NamedTuple):
    """The limits of one command: seconds of wall time and bytes of address space
    (None: none)."""

    timeout: float | None = None
    memory: int | None = None


def run_guarded(work: Callable[[], T], bounds: Bounds, wrap_up: bool = False) -> T:
    """``work()`` in a forked child under ``bounds``, its return value (which must
    pickle) handed back here. TimeLimit when the time limit passes first (naming the
    phase), MemoryLimit when the memory limit stops the child, KeyboardInterrupt at
    once on Ctrl-C (the child is killed); what the work raised is raised again here.
    With ``wrap_up`` (work that keeps what it has found, a walkthrough's steps), Ctrl-C
    first asks the child to stop and hand that over, and what it hands over within
    ``WRAP_UP`` seconds is returned (the work says it was stopped); else, or at a
    second Ctrl-C, KeyboardInterrupt. Without ``fork`` (Windows) the work runs in this
    process, under the memory limit and its own deadlines only."""
    if not hasattr(os, "fork"):
        limit_memory(bounds.memory)
        return work()
    import multiprocessing  # only where a command is guarded

    guarded = Guarded(work, bounds, multiprocessing.get_context("fork"))
    try:
        while True:
            if not guarded.ready(guarded.left()):
                raise guarded.time_limit()
            done, answer = guarded.take()
            if done:
                return cast(T, answer)
    except KeyboardInterrupt:
        if wrap_up and (found := guarded.wrapped_up(WRAP_UP)) is not None:
            return cast(T, found[0])
        raise
    finally:
        guarded.close()


class Cancelled(Exception):
    """The work is no longer wanted (``run_guarded_async``'s ``cancelled`` said so):
    its child was killed."""


async def run_guarded_async(
    work: Callable[[], T],
    bounds: Bounds,
    context: Any,
    cancelled: Callable[[], Awaitable[bool]] | None = None,
    watch: Callable[[int, bool], None] | None = None,
) -> T:
    """``run_guarded`` for an asyncio server: the same child, bounds and outcomes,
    awaited without blocking the loop. ``context`` is the multiprocessing context the
    child starts from (a server's is ``forkserver``, so that no child is forked from a
    process with threads; then ``work`` must pickle: a module's function, or a
    ``functools.partial`` of one). ``cancelled()`` is asked between looks at the
    child: once it says so (the client has gone), the child is killed and
    :class:`Cancelled` raised. ``watch(pid, running)`` is told when the child starts
    and once it has been reaped."""
    import asyncio

    guarded = await asyncio.to_thread(Guarded, work, bounds, context)
    if watch is not None:
        watch(guarded.pid, True)
    try:
        pause = 0.002
        while True:
            if guarded.ready(0):
                done, answer = guarded.take()
                if done:
                    return cast(T, answer)
                continue
            left = guarded.left()
            if left == 0.0:
                raise guarded.time_limit()
            if cancelled is not None and await cancelled():
                raise Cancelled("the client went away")
            await asyncio.sleep(pause if left is None else min(pause, left))
            pause = min(pause * 2, 0.05)
    finally:
        await asyncio.shield(asyncio.to_thread(guarded.close))
        if watch is not None:
            watch(guarded.pid, False)


class Guarded:
    """One guarded child: started from ``context`` at once, read through its pipe
    (its phases, then its answer), killed and reaped by ``close``. The child is no
    daemon, so that its work may start workers of its own (a solve's); it ends with
    its parent all the same (``die_with_parent``)."""

    def __init__(self, work: Callable[[], Any], bounds: Bounds, context: Any) -> None:
        self.bounds = bounds
        self.phase = LOADING
        self.receiver, sender = context.Pipe(duplex=False)
        self.child = context.Process(target=_serve, args=(work, bounds, sender), daemon=False)
        note_parent()
        try:
            self.child.start()
        finally:
            sender.close()
        timeout = bounds.timeout
        self.deadline = None if timeout is None else time.monotonic() + timeout + GRACE

    @property
    def pid(self) -> int:
        return int(self.child.pid)

    def left(self) -> float | None:
        """Seconds until the limit is past (None: no limit)."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    def ready(self, wait: float | None) -> bool:
        """Whether the child has said something (or died), waiting up to ``wait`` s."""
        return bool(self.receiver.poll(wait))

    def time_limit(self) -> TimeLimit:
        assert self.bounds.timeout is not None
        return TimeLimit(f"time limit of {self.bounds.timeout:g} s reached while {self.phase}")

    def take(self) -> tuple[bool, Any]:
        """The child's next word: ``(False, None)`` for a phase, ``(True, value)`` for
        its answer; what the work raised, a limit, or the child's death is raised."""
        try:
            kind, value = self.receiver.recv()
        except EOFError:
            self.child.join()
            raise _death(self.child.exitcode, self.bounds, self.phase) from None
        if kind == "phase":
            self.phase = value
            return False, None
        if kind == "memory":
            raise MemoryLimit(f"memory limit reached while {self.phase} (see --memory)")
        outcome, found = pickle.loads(value)  # with its clingo symbols as text (_portable)
        if outcome == "raised":
            raise found
        return True, found

    def wrapped_up(self, seconds: float) -> tuple[Any] | None:
        """Ask the child to stop and hand over what it has found (SIGUSR1), and wait up
        to ``seconds`` for it: ``(answer,)``, or None where none comes (the child was
        not yet where it keeps anything, or the work raised)."""
        import signal

        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGUSR1)
        end = time.monotonic() + seconds
        while self.ready(max(0.0, end - time.monotonic())):
            try:
                done, answer = self.take()
            except BaseException:  # the work stopped with nothing to show
                return None
            if done:
                return (answer,)
        return None

    def close(self) -> None:
        """Kill the child if it still runs, and reap it."""
        if self.child.is_alive():
            self.child.kill()
        self.child.join()
        self.receiver.close()


def _death(exitcode: int | None, bounds: Bounds, phase: str) -> Exception:
    """What a child's death without an answer means: past the memory limit it set
    itself, clingo may abort the process rather than raise (it cannot allocate its
    thread-local data), so under that limit a death is the limit; otherwise a bug."""
    if bounds.memory is not None:
        return MemoryLimit(f"memory limit reached while {phase} (see --memory)")
    return RuntimeError(f"the worker process died (exit code {exitcode}) while {phase}")


def _serve(work: Callable[[], Any], bounds: Bounds, sender: Any) -> None:
    """The child's whole life: do the work under the memory limit, send its answer.
    Ctrl-C is the parent's to answer (it kills the child, or first asks it to stop:
    SIGUSR1, ``stop_asked``), so the child ignores it."""
    global _phase_sender, _child_deadline
    import signal  # a child only

    if bounds.timeout is not None:
        _child_deadline = time.monotonic() + bounds.timeout

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGUSR1, _ask_to_stop)
    die_with_parent()
    _phase_sender = sender
    answer: tuple[str, Any]
    try:
        limit_memory(bounds.memory)
        if bounds.memory is not None and not enabled(INFO):
            # Past the limit the C runtime says so itself ("cannot allocate memory for
            # thread-local data: ABORT"): the parent says it in one line, and ``-v``
            # lets the runtime's own through.
            os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
        answer = ("returned", work())
    except KeyboardInterrupt:  # asked to stop (``stop_asked``), with nothing to show
        answer = ("raised", KeyboardInterrupt())
    except MemoryError:
        sender.send(("memory", None))
        sender.close()
        return
    except Exception as error:  # sent back, raised again in the parent
        if bounds.memory is not None and _short_of_memory(error):
            sender.send(("memory", None))
            sender.close()
            return
        answer = ("raised", error)
    try:
        sender.send(("answer", _portable(answer)))
    except MemoryError:
        sender.send(("memory", None))
    except Exception as error:  # an answer or exception that does not pickle
        sender.send(("answer", pickle.dumps(("raised", RuntimeError(repr(error))))))
    sender.close()


#: How clingo's C++ runtime words an allocation that failed, where it does not raise
#: MemoryError: a thread it could not start (EAGAIN), memory it could not map.
_SHORT_OF_MEMORY = ("Resource temporarily unavailable", "Cannot allocate memory", "bad_alloc")


def _short_of_memory(error: Exception) -> bool:
    """Whether an error under the memory limit is the limit reached."""
    return isinstance(error, RuntimeError) and any(s in str(error) for s in _SHORT_OF_MEMORY)


def _portable(answer: Any) -> bytes:
    """The answer pickled with every clingo symbol as its text, read back by
    ``clingo.parse_term`` in the parent: a symbol pickles as a reference into its own
    process's symbol table, which means another symbol, or none, in any other process."""
    import clingo

    class Pickler(pickle.Pickler):
        def reducer_override(self, obj: Any) -> Any:
            if type(obj) is clingo.Symbol:
                return clingo.parse_term, (str(obj),)
            return NotImplemented

    buffer = io.BytesIO()
    Pickler(buffer).dump(answer)
    return buffer.getvalue()
