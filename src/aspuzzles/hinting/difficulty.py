"""Difficulty: ``easy``, ``normal``, ``tricky`` or ``hard``, read from a walkthrough.

One rule for every puzzle and every encoding, since it reads only what a walkthrough
is made of: each step's cost (clues and earlier conclusions it combines, see
:mod:`.walkthrough`) and whether it needed a case split. A person judges a puzzle by
its hardest stretch, where no easy step is left: so the score is the mean cost of the
costliest tenth of the steps, plus a little for each case split, and the level is read
off the score. Reasons are found semantically (what follows, not
what propagation on the encoding as written reaches), so a redundant constraint in
the encoding changes the time a walkthrough takes, not its steps' costs.

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
#: The share of the steps, costliest first, whose mean cost is the puzzle's hardest
#: stretch (a tenth: one odd step does not make a puzzle hard, a run of them does).
HARDEST_SHARE = 0.1
#: What a case split adds to the score, each (the walkthrough found no step short of
#: assuming an entry and refuting it).
CASE_WEIGHT = 2
#: The highest score of each level but the last, fitted on Tatham's Undead.
THRESHOLDS = (26.0, 43.5, 62.0)


class _Step(Protocol):
    @property
    def cost(self) -> int: ...

    @property
    def cases(self) -> Sequence[object]: ...


def score(steps: Sequence[_Step]) -> float:
    """The mean cost of the costliest tenth of the steps (one at least), plus
    ``CASE_WEIGHT`` for each step that needed a case split; 0 with no step."""
    if not steps:
        return 0.0
    costs = sorted((step.cost for step in steps), reverse=True)
    hardest = costs[: max(1, round(HARDEST_SHARE * len(costs)))]
    return sum(hardest) / len(hardest) + CASE_WEIGHT * sum(bool(step.cases) for step in steps)


def difficulty(steps: Sequence[_Step]) -> str:
    """The level of a walkthrough's steps (see the module's docstring)."""
    found = score(steps)
    for level, highest in zip(LEVELS, THRESHOLDS, strict=False):
        if found <= highest:
            return level
    return LEVELS[-1]
