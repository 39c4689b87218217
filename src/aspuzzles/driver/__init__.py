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
- ``jobs``: what crosses a process boundary.
"""

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
