"""Every command's work under the same bounds: a time limit that holds in every phase
(grounding included, which clingo 5.8 cannot interrupt), a memory limit, and Ctrl-C
answered at once.

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
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import time
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

from ..errors import MemoryLimit, TimeLimit
from .limits import die_with_parent, limit_memory

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


def note_phase(phase: str) -> None:
    """Say which phase the work is in (``grounding``, ``reasoning``, ...): a limit
    reached is reported with the last phase noted. A no-op outside a guarded child."""
    if _phase_sender is not None:
        with contextlib.suppress(OSError):  # the parent has gone: nothing to tell
            _phase_sender.send(("phase", phase))


class Bounds(NamedTuple):
    """The limits of one command: seconds of wall time and bytes of address space
    (None: none)."""

    timeout: float | None = None
    memory: int | None = None


def run_guarded(work: Callable[[], T], bounds: Bounds) -> T:
    """``work()`` in a forked child under ``bounds``, its return value (which must
    pickle) handed back here. TimeLimit when the time limit passes first (naming the
    phase), MemoryLimit when the memory limit stops the child, KeyboardInterrupt at
    once on Ctrl-C (the child is killed); what the work raised is raised again here.
    Without ``fork`` (Windows) the work runs in this process, under the memory limit
    and its own deadlines only."""
    if not hasattr(os, "fork"):
        limit_memory(bounds.memory)
        return work()
    import multiprocessing  # only where a command is guarded

    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_serve, args=(work, bounds, sender), daemon=True)
    child.start()
    sender.close()
    try:
        return _await(child, receiver, bounds)
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receiver.close()


def _await(child: Any, receiver: Any, bounds: Bounds) -> Any:
    """Read the child's phases until its answer comes, the limit passes or it dies."""
    deadline = None if bounds.timeout is None else time.monotonic() + bounds.timeout + GRACE
    phase = LOADING
    while True:
        wait = None if deadline is None else max(0.0, deadline - time.monotonic())
        if not receiver.poll(wait):
            assert bounds.timeout is not None
            raise TimeLimit(f"time limit of {bounds.timeout:g} s reached while {phase}")
        try:
            kind, value = receiver.recv()
        except EOFError:
            child.join()
            raise _death(child.exitcode, bounds, phase) from None
        if kind == "phase":
            phase = value
        elif kind == "memory":
            raise MemoryLimit(f"memory limit reached while {phase} (see --memory)")
        else:  # the answer, pickled with its clingo symbols as text (see _portable)
            outcome, found = pickle.loads(value)
            if outcome == "raised":
                raise found
            return found


def _death(exitcode: int | None, bounds: Bounds, phase: str) -> Exception:
    """What a child's death without an answer means: past the memory limit it set
    itself, clingo may abort the process rather than raise (it cannot allocate its
    thread-local data), so under that limit a death is the limit; otherwise a bug."""
    if bounds.memory is not None:
        return MemoryLimit(f"memory limit reached while {phase} (see --memory)")
    return RuntimeError(f"the worker process died (exit code {exitcode}) while {phase}")


def _serve(work: Callable[[], Any], bounds: Bounds, sender: Any) -> None:
    """The child's whole life: do the work under the memory limit, send its answer.
    Ctrl-C is the parent's to answer (it kills the child), so the child ignores it."""
    global _phase_sender
    import signal  # a child only

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    _phase_sender = sender
    answer: tuple[str, Any]
    try:
        limit_memory(bounds.memory)
        answer = ("returned", work())
    except MemoryError:
        sender.send(("memory", None))
        sender.close()
        return
    except Exception as error:  # sent back, raised again in the parent
        answer = ("raised", error)
    try:
        sender.send(("answer", _portable(answer)))
    except MemoryError:
        sender.send(("memory", None))
    except Exception as error:  # an answer or exception that does not pickle
        sender.send(("answer", pickle.dumps(("raised", RuntimeError(repr(error))))))
    sender.close()


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
