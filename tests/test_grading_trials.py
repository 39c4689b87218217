"""A grade's trials: values ruled out in runs, propagation asked once a run and the
first value that opens an entry found by halving, give what asking after every value
gives. Checked on a model of propagation that keeps no state between questions (clasp
learns as it answers, so two orders of the same questions on a real grounding may
see propagation reach a little further in one than in the other)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import clingo
import pytest

from aspuzzles.hinting.grading import _trials


@dataclass
class _Seen:
    true: set[clingo.Symbol] = field(default_factory=set)
    false: set[clingo.Symbol] = field(default_factory=set)


class _Board:
    """Cells of a few values each. A value is ruled out by propagation once every
    value of its ``because`` set is ruled out; a cell with one value left has it
    (true). A value fails at once when tried once every value of its ``fails_after``
    set is ruled out (so the more is ruled out, the more fails: monotone, as
    propagation is)."""

    def __init__(self, seed: int, cells: int, values: int) -> None:
        rng = random.Random(seed)
        self.entries = [
            clingo.Function("v", [clingo.Number(c), clingo.Number(v)])
            for c in range(cells)
            for v in range(values)
        ]
        self.values = values
        # One solution: its values are never ruled out and never fail.
        solution = {self.entries[c * values + rng.randrange(values)] for c in range(cells)}
        wrong = [e for e in self.entries if e not in solution]
        self.because = {e: set(rng.sample(wrong, 2)) - {e} for e in wrong}
        self.fails_after = {
            e: set(rng.sample(wrong, rng.choice((0, 1, 1, 2, 3)))) - {e} for e in wrong
        }

    def _closure(self, ruled: set[clingo.Symbol]) -> set[clingo.Symbol]:
        ruled = set(ruled)
        grown = True
        while grown:
            grown = False
            for entry, reasons in self.because.items():
                if entry not in ruled and reasons and reasons <= ruled:
                    ruled.add(entry)
                    grown = True
        return ruled

    def propagate(self, assumptions, clues=None, among=None) -> _Seen:
        false = self._closure({symbol for symbol, value in assumptions if not value})
        seen = _Seen(false=false)
        for cell in range(len(self.entries) // self.values):
            left = [e for e in self.entries[cell * self.values :][: self.values] if e not in false]
            if len(left) == 1:
                seen.true.add(left[0])
        if among is not None:
            seen.true &= set(among)
            seen.false &= set(among)
        return seen

    def fails_at_once(self, assumptions, trial) -> bool:
        ruled = self._closure({symbol for symbol, value in assumptions if not value})
        entry = trial[0]
        return entry in ruled or (entry in self.fails_after and self.fails_after[entry] <= ruled)


def _out(values: list[clingo.Symbol]) -> list[tuple[clingo.Symbol, bool]]:
    return [(value, False) for value in values]


def _one_at_a_time(board: _Board, ring: list[clingo.Symbol]) -> tuple[list, bool]:
    """Rule out the next value that fails, going round from after the last one, and
    ask propagation after each; a whole round failing nowhere ends it."""
    ruled: list[clingo.Symbol] = []
    start = -1  # the ring's first value is tried first
    while True:
        seen = board.propagate([(e, False) for e in ruled])
        if ruled and seen.true:
            return ruled, True
        live = [e for e in ring if e not in seen.false and e not in seen.true]
        turn = sum(1 for e in live if ring.index(e) <= start)
        after = live[turn:] + live[:turn]
        assumed = [(e, False) for e in ruled]
        failing = next((e for e in after if board.fails_at_once(assumed, (e, True))), None)
        if failing is None:
            return ruled, False
        ruled.append(failing)
        start = ring.index(failing)


@pytest.mark.parametrize("seed", range(60))
def test_runs_of_trials_halved_rule_out_what_one_at_a_time_does(seed):
    board = _Board(seed, cells=8, values=4)
    seen = board.propagate([])
    if seen.true:
        pytest.skip("the model board opens an entry before any trial")
    rng = random.Random(seed)
    undecided = [e for e in board.entries if e not in seen.false]
    turn = rng.randrange(len(undecided))
    ring = undecided[turn:] + undecided[:turn]
    ruled, opened = _trials(board, [], ring)  # type: ignore[arg-type]
    # A value tried after propagation ruled it out (not yet asked) is ruled out
    # again: it fails, and changes nothing.
    news = [e for i, e in enumerate(ruled) if e not in board.propagate(_out(ruled[:i])).false]
    assert (news, opened) == _one_at_a_time(board, ring)
    assert ruled[-1:] == news[-1:]  # the next round goes on from the same value


def test_the_model_boards_cover_long_runs_and_rounds_that_open_nothing():
    """The seeds above include runs long enough to be halved, and rounds of values
    ruled out that open no entry (the search comes next)."""
    lengths, closed = [], 0
    for seed in range(60):
        board = _Board(seed, cells=8, values=4)
        seen = board.propagate([])
        if seen.true:
            continue
        ruled, opened = _one_at_a_time(board, [e for e in board.entries if e not in seen.false])
        lengths.append(len(ruled))
        closed += not opened
    assert max(lengths) >= 6 and closed >= 3 and len(lengths) >= 40
