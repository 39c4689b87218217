"""Plans found in Python: a beam search for a quick first plan (an upper bound, not
proved shortest), the breadth-first minimum (on bitboards, answering small boards
before clingo starts; on strings, the tests' independent minimum), and plans written
as the encoding's atoms.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from clingo import Function, Number, Symbol

from . import bits
from .geometry import fact_of, mirrored_board
from .model import ATOM_OF_TILE, EMPTY, EMPTY_BOARD, SIZE, Board, Move
from .rules import SWAP_PAIRS, dead_reason, legal_moves, play, settle, swapped
from .travel import column_counts

#: Boards kept per depth by `quick_plan`, tried in turn until one finds a plan.
BEAM_WIDTHS = (300, 1000)


def lonely_tiles(board: Board) -> int:
    """How many tiles have no partners within reach of a run without moving sideways
    first: fewer than 3 of their class in their column, and no 3-column window around
    them with their class in each column (the encoding's lonely tiles, without its
    exception for explosions). Each needs a swap to carry it or a partner across."""
    return _lonely(column_counts(board))


def _lonely(heights: dict[str, tuple[int, ...]]) -> int:
    """`lonely_tiles` of a board's counts per class and column."""
    lonely = 0
    for counts in heights.values():
        for col, count in enumerate(counts):
            if 0 < count < 3:
                present = [0 <= c < SIZE and counts[c] > 0 for c in range(col - 2, col + 3)]
                windows = (
                    present[0] and present[1],
                    present[1] and present[3],
                    present[3] and present[4],
                )
                if not any(windows):
                    lonely += count
    return lonely


def _promise(board: bits.Bits) -> int:
    """How far a board looks from empty (smaller is better): its tiles, and twice its
    lonely tiles, which are what usually costs extra moves."""
    return bits.occupied(board).bit_count() + 2 * _lonely(bits.column_counts(board))


def quick_plan(board: Board, widths: Sequence[int] = BEAM_WIDTHS) -> tuple[Move, ...] | None:
    """A short plan found in a second or so, not proved shortest; ``None`` if none
    was found: `beam_search` at each width in turn. On the 52 game boards it finds a
    plan for 51 (in 0.01-3 s), of the minimal length wherever that is known."""
    for width in widths:
        plan = beam_search(board, width)
        if plan is not None:
            return plan
    return None


#: Each swap's move, by the mask of its two cells.
MOVE_OF_PAIR = {bits.pair_of(first, second): move for first, second, move in SWAP_PAIRS}


def _moves_from(state: bits.Bits) -> Iterator[tuple[int, bits.Bits]]:
    """Every legal swap of a board (its two cells' mask) and the settled board after
    it, in the order `legal_moves` names the moves, so that the searches on bitboards
    find the plan `breadth_first` finds on strings."""
    for pair in bits.swap_pairs(state):
        yield pair, bits.settle(bits.swap(state, pair))


def beam_search(board: Board, width: int) -> tuple[Move, ...] | None:
    """`breadth_first` keeping only the ``width`` boards of each depth with the most
    `_promise`, on bitboards (the moves tried in the same order, so the same plan)."""
    start = bits.from_board(board)
    if start == bits.CLEARED:
        return ()
    if bits.dead(start):
        return None
    layer: dict[bits.Bits, tuple[Move, ...]] = {start: ()}
    seen = {start}
    while layer:  # every move removes tiles, so the layers run out
        following: dict[bits.Bits, tuple[Move, ...]] = {}
        for state, path in layer.items():
            for pair, after in _moves_from(state):
                if after == bits.CLEARED:
                    return (*path, MOVE_OF_PAIR[pair])
                if after not in seen and not bits.dead(after):
                    seen.add(after)
                    following[after] = (*path, MOVE_OF_PAIR[pair])
        kept = sorted(following, key=_promise)[:width]
        layer = {state: following[state] for state in kept}
    return None


#: About what one board costs `shortest_plan` in memory (its masks, its entry).
BOARD_BYTES = 500
#: The most boards `shortest_plan` keeps: a bound on its memory (about 200 MB), well
#: above the 63,000 boards of the largest game board it answers in a few seconds (the
#: centaur's).
MOST_BOARDS = 400_000


class Searched(NamedTuple):
    """How a breadth-first search on bitboards ended. ``plan``: a shortest plan, or
    None when ``finished`` (there is none) or when it gave up; ``depth``: the moves
    after which every board was searched without the board clearing (so a plan needs
    more); ``boards``: the distinct boards met."""

    plan: tuple[Move, ...] | None
    finished: bool
    depth: int
    boards: int


def shortest_plan(
    board: Board, deadline: float = float("inf"), most_boards: int = MOST_BOARDS
) -> Searched:
    """`breadth_first` on bitboards, about four times faster, giving up at ``deadline``
    (a ``time.perf_counter()`` value) or once it holds ``most_boards`` boards. Each
    board keeps only the board it came from and its move, so memory grows with the
    boards met, not with their paths.

    Why: a board whose minimum is a few moves is answered in milliseconds this way,
    where clingo would spend a tenth of a second or more grounding before its search
    starts; the puzzle's strategy runs it first, for a bounded time (see
    ``Strategy.answer``), and hands the boards it cannot finish to clingo."""
    start = bits.from_board(board)
    if start == bits.CLEARED:
        return Searched((), True, 0, 1)
    if bits.dead(start):
        return Searched(None, True, 0, 1)
    came_from: dict[bits.Bits, tuple[bits.Bits, int]] = {start: (start, 0)}
    layer, depth = [start], 0
    try:
        while layer:  # every move removes tiles, so the layers run out
            following = []
            for number, state in enumerate(layer):
                if number % 64 == 0 and (
                    time.perf_counter() > deadline or len(came_from) > most_boards
                ):
                    return Searched(None, False, depth, len(came_from))
                for pair, after in _moves_from(state):
                    if after == bits.CLEARED:
                        came_from[after] = (state, pair)
                        return Searched(_path_to(after, came_from), True, depth, len(came_from))
                    if after not in came_from and not bits.dead(after):
                        came_from[after] = (state, pair)
                        following.append(after)
            layer, depth = following, depth + 1
    except MemoryError:  # past the process's limit (--memory): given up; its boards go
        return Searched(None, False, depth, len(came_from))
    return Searched(None, True, depth, len(came_from))


def _path_to(end: bits.Bits, came_from: dict[bits.Bits, tuple[bits.Bits, int]]) -> tuple[Move, ...]:
    """The moves that led to ``end``, from the start (the board that came from itself)."""
    moves = []
    while (step := came_from[end])[0] != end:
        end, pair = step
        moves.append(MOVE_OF_PAIR[pair])
    return tuple(reversed(moves))


def breadth_first(board: Board) -> tuple[Move, ...] | None:
    """Depth by depth from ``board``, equal boards merged and dead boards dropped, until
    a move empties the board; ``None`` when no board is left. The first plan is a
    shortest one and ``None`` proves there is none: the benchmark's plain baseline, and
    the tests' independent minimum (on the string simulator alone)."""
    if board == EMPTY_BOARD:
        return ()
    if dead_reason(board) is not None:
        return None
    layer: dict[Board, tuple[Move, ...]] = {board: ()}
    seen = {board}
    while layer:  # every move removes tiles, so the layers run out
        following: dict[Board, tuple[Move, ...]] = {}
        for state, path in layer.items():
            for move in legal_moves(state):
                after = settle(swapped(state, move) or state).board
                if after == EMPTY_BOARD:
                    return (*path, move)
                if after not in seen and dead_reason(after) is None:
                    seen.add(after)
                    following[after] = (*path, move)
        layer = following
    return None


def plan_atoms(board: Board, plan: Sequence[Move]) -> list[Symbol]:
    """A plan as the encoding's answer set names it: ``swap(Tick,A,B)`` for each swap of
    cells A < B at the tick where it is made (a move's cascade takes a tick per phase)."""
    return [
        fact_of("swap", tick, *_swap_of(move)) for tick, move, _ in _encoding_steps(board, plan)
    ]


def answer_atoms(board: Board, plan: Sequence[Move]) -> list[Symbol]:
    """A plan as the encoding shows its answer set: `plan_atoms`' swaps, and before
    each move the settled board it is made on, ``settled(Tick,Cell,Tile)`` at the tick
    before the swap's (``f`` for a flaming skull)."""
    steps = _encoding_steps(board, plan)
    swaps = [fact_of("swap", tick, *_swap_of(move)) for tick, move, _ in steps]
    boards = [
        Function("settled", [Number(tick - 1), Number(cell), Function(ATOM_OF_TILE[tile])])
        for tick, _, before in steps
        for cell, tile in enumerate(before)
        if tile != EMPTY
    ]
    return swaps + boards


def move_atoms(board: Board, plan: Sequence[Move]) -> list[Symbol]:
    """Each move of a plan as the encoding names it, ``swap(Tick,A,B)``, the plan as
    it is (a walkthrough's moves; ``plan_atoms`` may give a symmetric board's plan as
    its mirror image, as the encoding's answer set does)."""
    return [fact_of("swap", tick, *_swap_of(move)) for tick, move, _ in _ticked(board, plan)]


def _encoding_steps(board: Board, plan: Sequence[Move]) -> list[tuple[int, Move, Board]]:
    """Each move of a plan with the tick the encoding makes it at and the board it is
    made on. On a symmetric board the encoding takes the first move from the left half,
    so a plan starting on the right is given as its mirror image."""
    if plan and board == mirrored_board(board):
        image = [mirror_move(move) for move in plan]
        if _swap_of(image[0]) < _swap_of(plan[0]):
            plan = image
    return _ticked(board, plan)


def _ticked(board: Board, plan: Sequence[Move]) -> list[tuple[int, Move, Board]]:
    """Each move with the tick it is made at (a move's cascade takes a tick per phase)
    and the board it is made on, the plan replayed once."""
    steps, tick = [], 1
    for move in plan:
        steps.append((tick, move, board))
        effect = play(board, move)
        board, tick = effect.board, tick + effect.phases
    return steps


def _swap_of(move: Move) -> tuple[int, int]:
    """The two cells a move swaps, as the encoding names a swap: the smaller first."""
    first, second = sorted(move.cells)
    return first, second


def mirror_move(move: Move) -> Move:
    """The same move on the board's mirror image (left and right exchanged)."""
    sideways = {"Left": "Right", "Right": "Left"}
    return Move(move.row, SIZE - 1 - move.col, sideways.get(move.direction, move.direction))
