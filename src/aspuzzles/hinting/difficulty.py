"""Difficulty: ``easy``, ``normal``, ``tricky`` or ``hard``, read from a walkthrough.

One rule for every puzzle and every encoding, since it reads only what a walkthrough
is made of: each step's cost (clues and earlier conclusions it combines, see
:mod:`.walkthrough`; a case split costs one more) and what a routine step costs on
that board. What makes a puzzle hard for a person is how much of the way needs more
than a routine step, and how much more: so the score is the mean, over the steps, of
what each costs beyond a routine step, and the level is read off the score. A mean,
not a sum, so that a large board of easy steps stays easy.

A routine step is the costlier of the two kinds of step that need no insight: one clue
read alone, and a *single*: an entry's last value, its place's other values ruled out
(a Sudoku cell's eight other digits, a Haunted cell's two other monsters). The
walkthrough says what its single costs (``Walkthrough.routine``), from the entries the
encoding grounds: what is routine differs between puzzles and sizes (a 6x6
Skyscrapers single combines five facts, a 4x4's three), and both a fixed routine cost
and the walkthrough's own median step ranked a Skyscrapers puzzle by its size more
than by its level. Reasons are found semantically (what follows, not what
propagation on the encoding as written reaches), so a redundant constraint in the
encoding changes the time a walkthrough takes more than its steps' costs.

The thresholds were fitted on half of Simon Tatham's graded Undead puzzles
(``../shared/data/haunted/tatham-graded.tsv``, the even-numbered rows) and are
measured on the other half and on his graded Sudoku and Skyscrapers; the figures and
the command that makes them are in docs/walkthrough.md and bench/NOTES-hints.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

#: The levels, easiest first.
LEVELS = ("easy", "normal", "tricky", "hard")
#: The highest score of each level but the last: the first two fitted on Tatham's
#: Undead (best agreement on the even-numbered rows), the last just above his
#: costliest Tricky one (7.21).
THRESHOLDS = (2.55, 3.55, 8.0)


class _Step(Protocol):
    @property
    def cost(self) -> int: ...


def score(steps: Sequence[_Step], routine: float) -> float:
    """The mean over the steps of what each costs beyond ``routine`` (what a routine
    step costs on the board); 0 with no step."""
    if not steps:
        return 0.0
    return sum(max(0.0, step.cost - routine) for step in steps) / len(steps)


def difficulty(steps: Sequence[_Step], routine: float) -> str:
    """The level of a walkthrough's steps (see the module's docstring)."""
    found = score(steps, routine)
    for level, highest in zip(LEVELS, THRESHOLDS, strict=False):
        if found <= highest:
            return level
    return LEVELS[-1]
