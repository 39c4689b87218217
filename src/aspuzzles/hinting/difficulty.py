"""Difficulty: ``easy``, ``normal``, ``tricky`` or ``hard``, read from a walkthrough.

One rule for every puzzle and every encoding, since it reads only what a walkthrough
is made of: each step's cost (clues and earlier conclusions it combines, see
:mod:`.walkthrough`; a case split costs one more). What makes a puzzle hard for a
person is how much of the way needs more than a routine step, and how much more: so
the score is the mean, over the steps, of what each costs beyond a routine step, and
the level is read off the score. A routine step costs one clue and one fact on the
board (``ROUTINE``), or the walkthrough's own median step where that costs more: what
is routine differs between puzzles (a Sudoku's single combines eight facts on the
board, a Haunted step one clue or two), and a fixed routine cost graded every Sudoku
of Tatham's alike and ranked a Skyscrapers puzzle by its size more than by its level.
A mean, not a sum, so that a large board of easy steps stays easy. Reasons are found
semantically (what follows, not what propagation on the encoding as written
reaches), so a redundant constraint in the encoding changes the time a walkthrough
takes more than its steps' costs.

The thresholds were fitted on half of Simon Tatham's graded Undead puzzles
(``../shared/data/haunted/tatham-graded.tsv``, the even-numbered rows) and are
measured on the other half and on his graded Sudoku and Skyscrapers; the figures and
the command that makes them are in docs/walkthrough.md and bench/NOTES-hints.md.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Protocol

#: The levels, easiest first.
LEVELS = ("easy", "normal", "tricky", "hard")
#: What a routine step costs at least: one clue and one fact on the board. A step
#: costing no more than this (or than the walkthrough's median step) adds nothing.
ROUTINE = 4
#: The highest score of each level but the last: the first two fitted on Tatham's
#: Undead (best agreement on the even-numbered rows), the last just above his
#: costliest Tricky one (7.37).
THRESHOLDS = (2.05, 2.85, 8.0)


class _Step(Protocol):
    @property
    def cost(self) -> int: ...


def routine(steps: Sequence[_Step]) -> float:
    """What a routine step of this walkthrough costs: ``ROUTINE``, or its median
    step's cost where that is more."""
    return max(ROUTINE, statistics.median(step.cost for step in steps)) if steps else ROUTINE


def score(steps: Sequence[_Step]) -> float:
    """The mean over the steps of what each costs beyond a routine step; 0 with no step."""
    if not steps:
        return 0.0
    usual = routine(steps)
    return sum(max(0.0, step.cost - usual) for step in steps) / len(steps)


def difficulty(steps: Sequence[_Step]) -> str:
    """The level of a walkthrough's steps (see the module's docstring)."""
    found = score(steps)
    for level, highest in zip(LEVELS, THRESHOLDS, strict=False):
        if found <= highest:
            return level
    return LEVELS[-1]
