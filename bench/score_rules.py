"""Other ways to read a difficulty score off a walkthrough's steps, measured beside the
shipped one (``aspuzzles.hinting.difficulty.score``) on the same walks:
``CALIBRATE_RULES=1 make bench ARGS=calibrate``.

Each rule sees only what the grade sees (each step's cost, whether it is a case split,
which earlier steps' literals it builds on, and what the board's single costs), so any
of them could replace the shipped one without a puzzle of its own. For the Undead, a
rule's two thresholds are fitted anew on three quarters of the puzzles and its
agreement counted on the fourth, in turn (four-fold), so that rules are compared on
puzzles none was fitted to; the Sudoku and Skyscrapers figures are Spearman between
Tatham's level and the score.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Callable, Sequence
from typing import Any

from aspuzzles.hinting.difficulty import score

Walk = Any  # a walkthrough: .routine, .steps (each .cost, .cases, .concluded, .reason.after)
Steps = Sequence[Any]
Rule = Callable[[Walk], float]
#: One clue and one fact on the board: the routine step of the rule shipped before the
#: board's single was (2026-11-30).
FORMER_ROUTINE = 4


def spearman(first: Sequence[float], second: Sequence[float]) -> float:
    """Spearman's rank correlation (ties take their mean rank)."""

    def ranks(values: Sequence[float]) -> list[float]:
        order = sorted(range(len(values)), key=lambda i: values[i])
        found = [0.0] * len(values)
        start = 0
        while start < len(order):
            end = start
            while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
                end += 1
            for place in range(start, end + 1):
                found[order[place]] = (start + end) / 2
            start = end + 1
        return found

    a, b = ranks(first), ranks(second)
    mean_a, mean_b = sum(a) / len(a), sum(b) / len(b)
    cov = sum((x - mean_a) * (y - mean_b) for x, y in zip(a, b, strict=True))
    var = (sum((x - mean_a) ** 2 for x in a) * sum((y - mean_b) ** 2 for y in b)) ** 0.5
    return cov / var if var else 0.0


def _beyond(steps: Steps, usual: float, case_extra: int = 0) -> list[float]:
    return [max(0.0, s.cost + (case_extra if s.cases else 0) - usual) for s in steps]


def _median(steps: Steps) -> float:
    return statistics.median(s.cost for s in steps) if steps else float(FORMER_ROUTINE)


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _costliest(values: Sequence[float], count: int) -> float:
    return _mean(sorted(values)[-count:])


def _longest_chain(steps: Steps) -> float:
    """How many steps the longest chain of steps each building on the one before has
    (Tatham's Undead grader counts the rounds its solver needs)."""
    depth: dict[Any, int] = {}
    longest = 0
    for step in steps:
        mine = 1 + max((depth.get(lit, 0) for lit in step.reason.after), default=0)
        for lit in step.concluded:
            depth.setdefault(lit, mine)
        longest = max(longest, mine)
    return float(longest)


RULES: dict[str, Rule] = {
    "shipped: mean beyond max(3, a single)": lambda w: score(w.steps, w.routine),
    "mean beyond max(4, median) (former)": lambda w: _mean(
        _beyond(w.steps, max(FORMER_ROUTINE, _median(w.steps)))
    ),
    "mean beyond 4": lambda w: _mean(_beyond(w.steps, FORMER_ROUTINE)),
    "mean beyond the median": lambda w: _mean(_beyond(w.steps, _median(w.steps))),
    "mean of cost / median - 1": lambda w: _mean(
        [max(0.0, x.cost / _median(w.steps) - 1) for x in w.steps]
    ),
    "mean of cost / max(3, a single) - 1": lambda w: _mean(
        [max(0.0, x.cost / w.routine - 1) for x in w.steps]
    ),
    "mean beyond max(4, a single + 1)": lambda w: _mean(
        _beyond(w.steps, max(FORMER_ROUTINE, w.routine + 1))
    ),
    "costliest 5 beyond max(3, a single)": lambda w: _costliest(_beyond(w.steps, w.routine), 5),
    "costliest step beyond max(3, a single)": lambda w: _costliest(_beyond(w.steps, w.routine), 1),
    "case splits per step": lambda w: _mean([1.0 if x.cases else 0.0 for x in w.steps]),
    "shipped, a case split 8 dearer": lambda w: _mean(_beyond(w.steps, w.routine, case_extra=8)),
    "longest chain of steps": lambda w: _longest_chain(w.steps),
}


def _fit(scores: Sequence[float], levels: Sequence[int]) -> tuple[float, float]:
    """The two thresholds (easy/normal, normal/tricky) with the best agreement."""
    values = sorted(set(scores))
    cuts = [(a + b) / 2 for a, b in itertools.pairwise(values)] + [values[-1] + 1]
    best, chosen = -1, (cuts[0], cuts[0])
    for i, low in enumerate(cuts):
        for high in cuts[i:]:
            agree = sum(_level(s, (low, high)) == lv for s, lv in zip(scores, levels, strict=True))
            if agree > best:
                best, chosen = agree, (low, high)
    return chosen


def _level(value: float, thresholds: tuple[float, float]) -> int:
    return 0 if value <= thresholds[0] else 1 if value <= thresholds[1] else 2


def four_fold(scores: Sequence[float], levels: Sequence[int]) -> float:
    """Agreement on each quarter (every fourth row) with thresholds fitted on the rest."""
    agree = 0
    for fold in range(4):
        rest = [i for i in range(len(scores)) if i % 4 != fold]
        fitted = _fit([scores[i] for i in rest], [levels[i] for i in rest])
        agree += sum(_level(scores[i], fitted) == levels[i] for i in range(fold, len(scores), 4))
    return agree / len(scores)


def rows(
    undead: Sequence[tuple[int, Walk]], graded: dict[str, Sequence[tuple[int, Walk]]]
) -> list[list[str]]:
    """One row a rule: Undead four-fold agreement and Spearman, then each graded set's
    Spearman (sets with no walks are left out)."""
    found = []
    for name, rule in RULES.items():
        row = [name]
        if undead:
            scores, levels = [rule(s) for _, s in undead], [lv for lv, _ in undead]
            row += [f"{four_fold(scores, levels):.0%}", f"{spearman(levels, scores):.2f}"]
        for walks in graded.values():
            row.append(f"{spearman([lv for lv, _ in walks], [rule(s) for _, s in walks]):.3f}")
        found.append(row)
    return found
