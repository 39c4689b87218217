"""The lookahead: with a few moves left, the simulator itself decides whether they can
clear the board, inside clingo's search (a step bound), pruning with the travel bound
and handing the last moves to the compiled search (``kernel``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from functools import cache
from typing import Any

from ...strategy import State, Support
from . import bits
from .model import SKULL, Board
from .travel import (
    classes_too_far,
    column_losses,
    every_atom,
    may_explode,
    refutation,
    sideways_travel,
    state_board,
)


def compiled_memory(keep: int) -> Any:
    """The compiled search's memory (``kernel.Memory``), or None where numba is not
    installed. numba is imported here, not with the module: loading it costs a
    process about a second, and a plain install leaves it out."""
    kernel = _kernel()
    return None if kernel is None else kernel.Memory(keep)


@cache
def _kernel() -> Any:
    """The compiled search's module, or None without numba (asked once a process)."""
    try:
        from . import kernel
    except ImportError:
        return None
    return kernel


class Lookahead:
    """The bound of `refutation`, and then, for a board reached in ``after`` moves or
    more, the exact answer: the simulator tries every legal move, and every move after
    those, to see whether the board can be emptied in the moves left.

    Why: clasp refutes a move by propagating it and its cascade through every tick
    after it, and learns a clause naming the whole board, about 1-4 ms a move on the
    game boards; the compiled simulator (`kernel`) plays a move and its cascade
    in well under a microsecond. So clasp keeps only the first move of each plan (which
    the two processes share out: the propagator checks a board only after a move) and
    the simulator answers for the rest. The answer is exact, so the bound stays
    admissible: plans are still the encoding's answer sets, checked; only budgets are
    refuted sooner, and when the simulator finds that a board can be cleared it cuts
    nothing, leaving clasp to find the moves. Its nogood names every board atom of the
    tick (the answer depends on the whole board). Answers are kept per board across
    ticks, paths and budgets, up to ``keep`` boards.

    The search runs in Python (`bits`, sideways travel pruning every board)
    until it has taken ``compile_after`` seconds in all; from then on its last
    `KERNEL_MOVES` moves run compiled. Loading numba costs a process about a second,
    more than the whole search on most boards. Without numba (an optional extra,
    ``aspuzzles[fast]``) the search stays in Python: the same answers, slower."""

    def __init__(self, after: int = 1, keep: int = 2_000_000, compile_after: float = 0.5) -> None:
        self.after, self.keep = after, keep
        self.compile_after, self.python_seconds = compile_after, 0.0
        self.deadline = math.inf  # when this question's Python search hands over
        self.last_moves: Any = None  # the compiled search's memory, once it runs
        self.short: dict[bits.Bits, int] = {}  # board -> most moves known not to clear it
        self.enough: dict[bits.Bits, int] = {}  # board -> fewest moves known to clear it
        self.searched = self.refuted = 0

    def __call__(self, state: State, moves: int, made: int = 0) -> Support | None:
        support = refutation(state, moves)
        if support is not None or made < self.after:
            return support
        self.searched += 1
        if self.clears(state_board(state), moves):
            return None
        self.refuted += 1
        return every_atom

    def clears(self, board: Board, moves: int) -> bool:
        """Whether ``moves`` moves or fewer can empty ``board``."""
        start = time.perf_counter()
        self.deadline = start + self.compile_after - self.python_seconds
        clears = self._clears(bits.from_board(board), moves)
        if self.last_moves is None:
            self.python_seconds += time.perf_counter() - start
        return clears

    def _clears(self, board: bits.Bits, moves: int) -> bool:
        """`clears` on the board as masks: depth first, where sideways travel prunes
        (`_swaps_to_try`, `_last_swaps`), each board's answer remembered; the last
        `KERNEL_MOVES` moves by the compiled search once it runs."""
        if moves <= KERNEL_MOVES:
            if self.last_moves is None and time.perf_counter() >= self.deadline:
                self.last_moves = compiled_memory(self.keep)  # None: Python to the end
            if self.last_moves is not None:
                return self.last_moves.clears(board, moves)
        if board == bits.CLEARED:
            return True
        if moves <= self.short.get(board, 0):  # no move at all clears a board with tiles
            return False
        if self.enough.get(board, moves + 1) <= moves:
            return True
        if moves == 1:
            clears = any(bits.settle(after) == bits.CLEARED for after in _last_swaps(board))
        else:
            clears = any(
                self._clears(bits.settle(after), moves - 1) for after in _swaps_to_try(board, moves)
            )
        if len(self.short) + len(self.enough) >= self.keep:
            self.short.clear()
            self.enough.clear()
        if clears:
            self.enough[board] = min(moves, self.enough.get(board, moves))
        else:
            self.short[board] = max(moves, self.short.get(board, 0))
        return clears

    def statistics(self) -> dict[str, int]:
        return {
            "lookahead_boards": self.searched,
            "lookahead_cuts": self.refuted,
            "lookahead_compiled": int(self.last_moves is not None),
        }


#: The moves left from which the compiled search (`kernel`) takes over: it tries
#: every legal swap, pruning only by the counts (a swap is settled only where it leaves
#: at most two classes unsplit for each move after it), and settles a swap far faster
#: than Python computes a bound, so above this many moves the Python search, pruning by
#: sideways travel, calls it for each board it reaches. 2026-11-28: the arboreth
#: (minimum 15) 83 s with 6, 77 s with 7, 60 s with 8, 45 s with 9, 31 s with 10 and 12;
#: the other 51 game boards 62 s in all with 6, 53 s with 10 (bench/NOTES-capture.md).
KERNEL_MOVES = 10


def _swaps_to_try(board: bits.Bits, moves: int) -> Iterator[bits.Bits]:
    """The boards right after each legal swap worth playing, before they settle: none
    when counting and sideways travel show that ``moves`` moves cannot clear ``board``,
    and no vertical swap when ``moves - 1`` more cannot, since a vertical swap changes
    no column's counts and a cascade moves no tile sideways."""
    if bits.dead(board):
        return
    counts, flames = bits.column_counts(board), bits.flaming_columns(board)
    if classes_too_far(counts, moves, flames) is not None:
        return
    across, up = bits.legal_swaps(board)
    for pair in bits.across_pairs(across):
        yield bits.swap(board, pair)
    if classes_too_far(counts, moves - 1, flames) is None:
        for pair in bits.up_pairs(up):
            yield bits.swap(board, pair)


def _last_swaps(board: bits.Bits) -> Iterator[bits.Bits]:
    """The boards right after each legal swap that may empty ``board`` with no move
    after it: after the swap no tile changes column again, so every class's counts
    must split into runs there (sideways travel 0), with the flaming skulls' blasts
    where they stand. A swap changes the counts of two classes at most, so this is
    decided from the board's counts before anything settles: the lookahead's last move
    is where most of its boards are, and settling is what a board costs most."""
    if bits.dead(board):
        return
    counts, flames = bits.column_counts(board), bits.flaming_columns(board)
    if not may_explode(bool(flames), sum(counts.get(SKULL, ()))):
        flames = []
    blasts = column_losses(flames)
    unsplit = {kind for kind, column in counts.items() if sideways_travel(column, 0, blasts)}
    # A swap changes at most two classes' counts, and the blasts only by carrying a
    # flaming skull sideways (then the bound for one move decides).
    if classes_too_far(counts, 1, flames) is not None if flames else len(unsplit) > 2:
        return
    across, up = bits.legal_swaps(board)
    carrying = bits.touching(across, board[-1])
    for pair in bits.across_pairs(carrying):
        # the swap carries a flaming skull to the next column: its blast moves too
        after = bits.swap(board, pair)
        if classes_too_far(bits.column_counts(after), 0, bits.flaming_columns(after)) is None:
            yield after
    for pair in bits.across_pairs(
        _split_across(board, across & ~carrying, counts, unsplit, blasts)
    ):
        yield bits.swap(board, pair)
    if not unsplit:  # a vertical swap changes no counts
        for pair in bits.up_pairs(up):
            yield bits.swap(board, pair)


def _split_across(
    board: bits.Bits,
    across: int,
    counts: dict[str, tuple[int, ...]],
    unsplit: set[str],
    blasts: tuple[int, ...],
) -> int:
    """The swaps of ``across`` (by left cell) after which every class's counts split into
    runs (with ``blasts``), given the classes ``unsplit`` before them: a swap moves one
    tile of each of its two classes one column, so it must move a tile of every class
    unsplit, and no class may be left unsplit by its tile's step. Each step (class,
    column, side) is judged once for all the swaps that make it."""
    alike = bits.alike(board)  # swaps of two tiles of one class change no counts
    kept = across & ~alike
    for kind in unsplit:
        kept = bits.touching(kept, board[bits.KINDS.index(kind)])
    for kind, mask in zip(bits.KINDS, board, strict=False):
        # tiles of the class moving right from the left cell, or left from the right one
        right, left = bits.moving_right(kept, mask), bits.moving_left(kept, mask)
        for movers, side in ((right, 1), (left, -1)):
            for col in bits.columns_of(movers):
                leaves = col if side == 1 else col + 1
                column = list(counts[kind])
                column[leaves] -= 1
                column[leaves + side] += 1
                if sideways_travel(tuple(column), 0, blasts):
                    kept &= ~(movers & bits.COLUMN[col])
    return kept | (across & alike if not unsplit else 0)
