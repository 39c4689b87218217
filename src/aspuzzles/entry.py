"""The ``aspuzzles`` command's entry point: the command line itself is in ``cli``.

Why a module of its own: the command imports argparse, clingo, the driver and a puzzle
before it can run, which takes some hundredths of a second. Ctrl-C in that time would
end in Python's traceback; here it ends like Ctrl-C at any other moment, with one line
and exit code 130. ``--version`` alone is answered here, before the command line is
built.

The command also ends here, and without Python's own shutdown where nothing needs it:
tearing down the interpreter (clingo's objects, every module) takes a few milliseconds,
a tenth of a small board's whole command.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn

from .errors import ExitCode


def version_line() -> str:
    """What ``aspuzzles --version`` prints: clingo's version is read only when asked."""
    import clingo

    from . import __version__

    return f"aspuzzles {__version__} (clingo {clingo.__version__})"


def main() -> int:
    if sys.argv[1:] == ["--version"]:  # answered without building the command line
        print(version_line())
        return ExitCode.SOLVED
    try:
        from .cli import main as run
    except KeyboardInterrupt:
        print("aspuzzles: interrupted", file=sys.stderr)
        return ExitCode.INTERRUPTED
    return run()


#: What the numerical libraries are told before they load: one BLAS thread and one
#: numba thread. Nothing the command does is linear algebra or parallel numba code
#: (numpy holds its tables only); OpenBLAS's threads, started as numpy loads, took
#: 0.08 s of processor time in every command that loads it, as much as the import
#: itself, and OpenBLAS reserves a buffer a thread, which failed under a memory limit.
ONE_THREAD = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS")


def one_thread() -> None:
    """The numerical libraries kept to one thread (see ``ONE_THREAD``), where the
    caller has not set them."""
    for name in ONE_THREAD:
        os.environ.setdefault(name, "1")


def command() -> NoReturn:
    """The ``aspuzzles`` command: ``main``, then the process ends with its exit code."""
    one_thread()
    leave(main())


def leave(code: int) -> NoReturn:
    """End the process with ``code``, skipping the interpreter's teardown when no
    thread or child process is still running: what shutdown must do (exit handlers,
    among them ``multiprocessing``'s and temporary files' clean-up, and the last
    output) is done first. Anything else still running gets Python's normal exit."""
    import atexit
    import contextlib

    threads = sys.modules.get("threading")  # never loaded: no thread was started by it
    children = sys.modules.get("multiprocessing")
    if (threads and threads.active_count() > 1) or (children and children.active_children()):
        sys.exit(code)
    atexit._run_exitfuncs()  # the handlers a normal exit would run, in the same order
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing to add
            stream.flush()
    os._exit(code)
