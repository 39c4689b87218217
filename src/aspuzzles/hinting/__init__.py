"""Hints, mistakes, explanations and grades: what a person solving by hand needs.

A puzzle that offers them fills in its hints slot (``Puzzle.hints()``, a
:class:`~aspuzzles.capabilities.Hints`): which atoms are a person's entries, which
facts are clues, how both read in the puzzle's terms, and how a player's progress is
written; a planning puzzle fills in ``Puzzle.plan_hints()`` instead. The reasoning
itself is the driver's (:mod:`aspuzzles.driver.reasoning`); this module knows no
puzzle.

- ``hint``: mistakes in the progress first (entries no solution shares, each with a
  minimal set of clues that rules it out), then the next entry as a person would find
  it, at the easiest level that finds one (propagation, a trial that fails at once,
  search), with a minimal set of clues and progress entries it rests on;
- ``explain``: why an instance (with its progress) has no solution, as a minimal set of
  clues that cannot all hold;
- ``grade``: how hard the puzzle is to solve by such steps alone;
- ``walkthrough``: the whole way to the solution, step by step, each step the cheapest
  available with a minimal set of clues and earlier conclusions it follows from (a
  planning puzzle's: its proved-shortest plan, move by move);
- ``fix``: the fewest progress entries to take back so that the rest leads to a
  solution, each with a minimal reason it was wrong, and every repair of that size.
"""

from .fixing import Change, Fix, fix
from .grading import ANCHOR, BEYOND, OPEN, grade, grade_steps, unique_steps
from .grounding import Grounded, given_entries, ground_instance, read_progress
from .plan_walk import PlanWalkthrough
from .questions import explain, hint, plan_hint
from .reports import Finding, Grade, PlanReport, Report, hintable
from .walkthrough import Walkthrough, walkthrough

__all__ = [
    "ANCHOR",
    "BEYOND",
    "OPEN",
    "Change",
    "Finding",
    "Fix",
    "Grade",
    "Grounded",
    "PlanReport",
    "PlanWalkthrough",
    "Report",
    "Walkthrough",
    "explain",
    "fix",
    "given_entries",
    "grade",
    "grade_steps",
    "ground_instance",
    "hint",
    "hintable",
    "plan_hint",
    "read_progress",
    "unique_steps",
    "walkthrough",
]
