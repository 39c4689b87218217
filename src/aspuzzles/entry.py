"""The ``aspuzzles`` command's entry point: the command line itself is in ``cli``.

Why a module of its own: the command imports argparse, clingo, the driver and a puzzle
before it can run, which takes some hundredths of a second. Ctrl-C in that time would
end in Python's traceback; here it ends like Ctrl-C at any other moment, with one line
and exit code 130. ``--version`` alone is answered here, before the command line is
built.
"""

from __future__ import annotations

import sys

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
