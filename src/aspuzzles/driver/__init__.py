"""The one place that talks to clingo: load, add facts, ground, solve, collect models.

The driver knows nothing about any puzzle and imports none: it takes a
:class:`~aspuzzles.puzzle.Puzzle` and a parsed instance, asks the puzzle for facts (and
its :class:`~aspuzzles.strategy.Strategy` for anything more), runs clingo, and hands
each answer set back to the puzzle to decode and check. One concern a module:

- ``run``: a solve call from instance to :class:`Result`, in this process or in
  forked workers (``workers``) when a time limit or a race needs them;
- ``loading``: the instance and encoding files; ``solving``: clingo's Control and one
  solve call under a deadline; ``results``: decoding, checking, the Result;
- ``planning``: growing horizons; ``optimization``: objectives; ``bounds``: a puzzle's
  step bound as a propagator; ``session``: one grounding for many variants;
- ``jobs``: what crosses a process boundary; ``searches``: the names of plan searches;
- ``limits``: memory limits, workers that die with their parent, a time limit on a call.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # not typing's: see aspuzzles/__init__.py
if TYPE_CHECKING:
    from typing import Any

    from .loading import fact_program, load_instance, resolve_encoding
    from .results import (
        INTERRUPTED,
        MEMORY,
        SOLVED,
        TIMEOUT,
        UNSATISFIABLE,
        Result,
        check_solution,
    )
    from .run import run_job, solve_instance
    from .session import Session

#: Where each public name is defined: imported on first use (PEP 562), so that a
#: module of the driver that needs no clingo (``limits``, ``searches``) loads alone.
_HOMES = {
    **dict.fromkeys(("fact_program", "load_instance", "resolve_encoding"), "loading"),
    **dict.fromkeys(
        ("INTERRUPTED", "MEMORY", "SOLVED", "TIMEOUT", "UNSATISFIABLE", "Result"), "results"
    ),
    "check_solution": "results",
    "run_job": "run",
    "solve_instance": "run",
    "Session": "session",
}

__all__ = [
    "INTERRUPTED",
    "MEMORY",
    "SOLVED",
    "TIMEOUT",
    "UNSATISFIABLE",
    "Result",
    "Session",
    "check_solution",
    "fact_program",
    "load_instance",
    "resolve_encoding",
    "run_job",
    "solve_instance",
]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        value = getattr(importlib.import_module(f".{_HOMES[name]}", __name__), name)
        globals()[name] = value  # looked up once
        return value
    raise AttributeError(f"module 'aspuzzles.driver' has no attribute '{name}'")
