"""A lower bound on the moves a board still needs: how far its tiles must travel sideways
before every class can split into runs (an automaton over column counts), with
flaming skulls' blasts taken into account.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from typing import Any, NamedTuple

from ...strategy import State, Support
from .geometry import phase_bound
from .model import EMPTY, FLAMING, SIZE, SKULL, TILE_OF_ATOM, Board
from .rules import class_counts, dead_reason, match_classes

#: Column counts as the automaton reads them: 0, 1, 2, and 3 for three or more.
COUNT_LETTERS = 4


#: Horizontal runs crossing one column: two suffice (a test checks more change nothing).
MAX_RUNS_ACROSS = 2


#: A state of the automaton before determinising: the horizontal runs still open, as
#: (runs 1 column long, runs 2 long, runs 3 or more long).
OpenRuns = tuple[int, int, int]


def column_allows(count: int, runs: int) -> bool:
    """Whether ``count`` tiles of a class in one column can all leave when ``runs``
    horizontal runs cross it: each takes one tile, and the rest leave in vertical runs,
    each of which needs 3 tiles of which crossing runs may give up to ``runs``."""
    rest = count - runs
    return rest == 0 or (rest > 0 and rest >= 3 - runs)


def _open_runs_after(state: OpenRuns, count: int, max_runs: int) -> set[OpenRuns]:
    """The open runs after a column holding ``count`` tiles of the class: runs shorter
    than 3 must go on into it, longer ones may stop before it, and new ones may start."""
    short1, short2, long = state
    after = set()
    for going_on in range(long + 1):
        through = short1 + short2 + going_on
        for starting in range(max_runs - through + 1):
            if column_allows(count, through + starting):
                after.add((starting, short1, short2 + going_on))
    return after


def _closed(state: OpenRuns) -> bool:
    """Every open run is long enough to stop here (the board's right edge)."""
    return state[0] == 0 and state[1] == 0


class Automaton(NamedTuple):
    """A deterministic automaton over column counts, its states numbered from 0 (the
    start); the state from which nothing is accepted is left out."""

    steps: dict[tuple[int, int], int]  # (state, count letter) -> state
    accepting: frozenset[int]

    def accepts(self, counts: Sequence[int]) -> bool:
        state = 0
        for count in counts:
            following = self.steps.get((state, min(count, COUNT_LETTERS - 1)))
            if following is None:
                return False
            state = following
        return state in self.accepting


def grouping_automaton(max_runs: int = MAX_RUNS_ACROSS) -> Automaton:
    """The minimal automaton accepting the column counts of a class that can leave the
    board in runs without any tile changing column (subset construction, then Moore's
    partition refinement)."""
    start: frozenset[OpenRuns] = frozenset({(0, 0, 0)})
    subsets, steps, pending = {start: 0}, {}, [start]
    while pending:
        subset = pending.pop()
        for count in range(COUNT_LETTERS):
            target = frozenset(
                after for state in subset for after in _open_runs_after(state, count, max_runs)
            )
            if target not in subsets:
                subsets[target] = len(subsets)
                pending.append(target)
            steps[subsets[subset], count] = subsets[target]
    accepting = {number for subset, number in subsets.items() if any(map(_closed, subset))}
    return _minimised(len(subsets), steps, accepting, subsets[frozenset()])


def _minimised(
    size: int, steps: dict[tuple[int, int], int], accepting: set[int], dead: int
) -> Automaton:
    """Merge the states that accept the same words (state 0 stays the start) and drop
    the dead one."""
    block = {state: int(state in accepting) for state in range(size)}
    while True:
        signature = {
            state: (block[state], *(block[steps[state, letter]] for letter in range(COUNT_LETTERS)))
            for state in range(size)
        }
        numbers: dict[tuple[int, ...], int] = {}
        refined = {
            state: numbers.setdefault(signature[state], len(numbers)) for state in range(size)
        }
        if len(numbers) == len(set(block.values())):
            break
        block = refined
    order = sorted(set(refined.values()) - {refined[dead]}, key=lambda b: b != refined[0])
    number = {old: new for new, old in enumerate(order)}
    return Automaton(
        steps={
            (number[refined[state]], letter): number[refined[target]]
            for (state, letter), target in steps.items()
            if refined[target] != refined[dead] and refined[state] != refined[dead]
        },
        accepting=frozenset(number[refined[state]] for state in accepting),
    )


@cache
def grouping() -> Automaton:
    """The grouping automaton, built once a process on first use (about a millisecond):
    a board that the breadth-first search answers never asks for it."""
    return grouping_automaton()


@cache
def grouping_steps() -> dict[int, tuple[tuple[int, int], ...]]:
    """Each state's steps, as (count letter, next state), for the sideways-travel
    search's inner loop (letters after which nothing is accepted left out)."""
    steps = grouping().steps
    return {
        state: tuple(
            (letter, steps[state, letter])
            for letter in range(COUNT_LETTERS)
            if (state, letter) in steps
        )
        for state in {state for state, _ in steps} | set(steps.values())
    }


#: What `sideways_travel` has found: (counts, blasts) -> (travel, exact), where a travel
#: that is not exact is a lower bound (the search stopped at a cap).
_TRAVEL: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, bool]] = {}


#: Whether counts split into runs as they stand (the automaton's verdict, remembered:
#: the lookahead asks it for every class of every board it meets).
_SPLIT: dict[tuple[int, ...], bool] = {}


#: No explosion anywhere: no tile of any column may vanish outside a run.
NO_BLASTS = (0,) * SIZE


def sideways_travel(counts: tuple[int, ...], cap: int, blasts: tuple[int, ...] = NO_BLASTS) -> int:
    """The least total distance, in columns, that a class's tiles (``counts`` per column)
    must travel to stand in columns whose counts split into runs, when up to
    ``blasts[c]`` of them may instead go up in explosions in column c; ``cap + 1`` when
    that is more than ``cap`` (or impossible: 1 or 2 tiles and nothing to blast them).
    Remembered, since the search meets the same counts on many boards."""
    split = _SPLIT.get(counts)
    if split is None:
        split = _SPLIT[counts] = grouping().accepts(counts)
    if split:  # already split into runs: no travel, blasts or not
        return 0
    key = (counts, blasts)
    travel, exact = _TRAVEL.get(key, (0, False))
    if not exact and travel <= cap:
        if cap:
            travel = _travel_within(counts, cap, blasts)
        else:  # no move left: split as the blasts leave it, or more than the cap
            travel = 0 if _split_by_blasts(counts, blasts) else 1
        _TRAVEL[key] = (travel, travel <= cap)
    return min(travel, cap + 1)


def _split_by_blasts(counts: tuple[int, ...], blasts: tuple[int, ...]) -> bool:
    """Whether counts split into runs once up to ``blasts[c]`` tiles of column c go up
    in explosions, no tile moving: `sideways_travel` with a cap of 0, which the
    lookahead asks for every class of every swap on its last move. The automaton runs
    over every count each column may be left with at once (a set of states)."""
    states, steps = {0}, grouping_steps()
    for count, blast in zip(counts, blasts, strict=True):
        letters = {min(kept, COUNT_LETTERS - 1) for kept in range(max(count - blast, 0), count + 1)}
        states = {after for state in states for letter, after in steps[state] if letter in letters}
        if not states:
            return False
    return not states.isdisjoint(grouping().accepting)


def _travel_within(counts: tuple[int, ...], cap: int, blasts: tuple[int, ...]) -> int:
    """`sideways_travel` computed, or ``cap + 1``. Moving tiles between neighbouring
    columns costs one per tile per column crossed, so turning counts a into counts b
    costs the sum over column borders of |tiles left of the border in a - in b| (a
    transport along a line); a tile blasted in column c is one that travels to c and
    stops counting there. The search runs the automaton column by column over
    (automaton state, that difference), keeping the cheapest cost of each; the cap
    keeps it to the few differences that matter."""
    total, limit, last_letter = sum(counts), cap + 1, COUNT_LETTERS - 1
    steps, accepting = grouping_steps(), grouping().accepting
    costs = {(0, 0): 0}  # (automaton state, tiles now left of the border - in b) -> cost
    for count, blast in zip(counts, blasts, strict=True):
        following: dict[tuple[int, int], int] = {}
        for (state, difference), cost in costs.items():
            # Up to this column, less b's so far: `high` with no tile blasted here,
            # `low` with `blast` of them. b's count here is a target t, and what is then
            # still to move across the border is that less t, within the budget. The
            # automaton reads t as a letter (0, 1, 2, 3+), and every t of one letter
            # leads to the same state: one range of differences per letter. (Plain
            # comparisons rather than min and max: this loop is the bound's hot spot.)
            budget, high = cap - cost, difference + count
            low = high - blast
            bottom, top = low - budget, high + budget
            bottom, top = (bottom if bottom > 0 else 0), (top if top < total else total)
            for letter, after in steps[state]:
                first = letter if letter > bottom else bottom
                last = letter if letter < last_letter else top
                if first > last or last > top:
                    continue
                start, stop = low - last, high - first
                start, stop = (start if start > -budget else -budget), min(stop, budget)
                for across in range(start, stop + 1):
                    key, spent = (after, across), cost + (across if across >= 0 else -across)
                    if spent < following.get(key, limit):
                        following[key] = spent
        costs = following
    return min(
        (cost for (state, left), cost in costs.items() if left == 0 and state in accepting),
        default=cap + 1,
    )


def column_counts(board: Board) -> dict[str, tuple[int, ...]]:
    """How many tiles of each class (skulls of both kinds together) stand in each column.
    (Counted a column string at a time: the lookahead asks this at every board.)"""
    classes = match_classes(board)
    columns = [classes[col::SIZE] for col in range(SIZE)]
    kinds = sorted(set(classes) - {EMPTY})
    return {kind: tuple(column.count(kind) for column in columns) for kind in kinds}


def _counts_per_column(tiles: Iterable[tuple[int, str]]) -> dict[str, tuple[int, ...]]:
    """Counts per class and column of tiles given as (cell, class)."""
    counts: dict[str, list[int]] = {}
    for cell, kind in tiles:
        counts.setdefault(kind, [0] * SIZE)[cell % SIZE] += 1
    return {kind: tuple(column) for kind, column in counts.items()}


#: At most this many choices of blast columns are tried one by one; beyond, every
#: flaming skull is let blast in every column it can reach at once (weaker, as sound).
BLAST_CHOICES = 64


def classes_too_far(
    counts: dict[str, tuple[int, ...]], moves: int, flames: Sequence[int] = ()
) -> list[str] | None:
    """Classes whose sideways travel shows that ``moves`` swaps cannot clear the board
    whose ``counts`` per column are given (skulls of both kinds together), with
    flaming skulls in the columns ``flames`` (which must be able to explode: see
    `may_explode`); ``None`` if the travel allows it. Every flaming skull must go off
    somewhere within ``moves`` columns; the classes returned refute every choice."""
    named: set[str] = set()
    # The classes with the fewest tiles first: they are the likeliest to stand apart.
    counts = dict(sorted(counts.items(), key=lambda item: sum(item[1])))
    for centres, blasts, spent in _blast_choices(flames, moves):
        too_far = _too_far(_flames_moved(counts, flames, centres), moves, blasts, spent)
        if too_far is None:
            return None
        named |= set(too_far)
    return sorted(named)


def _too_far(
    counts: dict[str, tuple[int, ...]], moves: int, blasts: tuple[int, ...], spent: int
) -> list[str] | None:
    """`classes_too_far` for one choice of ``blasts`` (tiles each column may lose),
    which costs the flaming skulls ``spent`` steps: a class that must travel more than
    ``moves`` columns (the skulls with those steps), or the fewest that must travel
    more than ``2 * moves`` together with them."""
    # A cap of `moves` suffices: a class beyond it refutes alone (and the classes after
    # it need not be searched: most choices on a board that cannot clear fall there),
    # and below it the travel is exact for the sum.
    travel = {}
    for kind, column in counts.items():
        travel[kind] = sideways_travel(column, moves, blasts) + (spent if kind == SKULL else 0)
        if travel[kind] > moves:
            return [kind]
    total, chosen = 0, []
    for kind in sorted(travel, key=lambda kind: (-travel[kind], kind)):
        if travel[kind] > moves:
            return [kind]
        total += travel[kind]
        chosen.append(kind)
        if total > 2 * moves:
            return chosen
    return None


def _flames_moved(
    counts: dict[str, tuple[int, ...]], flames: Sequence[int], centres: Sequence[int]
) -> dict[str, tuple[int, ...]]:
    """The counts with each flaming skull moved from its column in ``flames`` to where
    it goes off, in ``centres``."""
    if list(centres) == list(flames):
        return counts
    skulls = list(counts[SKULL])
    for column, centre in zip(flames, centres, strict=True):
        skulls[column] -= 1
        skulls[centre] += 1
    return {**counts, SKULL: tuple(skulls)}


def _blast_choices(
    flames: Sequence[int], moves: int
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...], int]]:
    """Where the flaming skulls in columns ``flames`` may go off within ``moves`` moves,
    the tiles each column may then lose to their blasts, and the steps the skulls take
    to get there. With too many choices, one that lets each blast in every column it can
    reach, the skulls left where they are (no steps)."""
    reach = [range(max(0, col - moves), min(SIZE - 1, col + moves) + 1) for col in flames]
    if math.prod(map(len, reach)) > BLAST_CHOICES:
        yield tuple(flames), column_losses(column for columns in reach for column in columns), 0
        return
    for centres in itertools.product(*reach):
        steps = sum(abs(centre - col) for centre, col in zip(centres, flames, strict=True))
        if steps <= 2 * moves:
            yield centres, column_losses(centres), steps


def column_losses(centres: Iterable[int]) -> tuple[int, ...]:
    """Tiles each column may lose to flaming skulls going off in the columns
    ``centres``: 3 from each side column, 2 from the skull's own besides itself."""
    lost = [0] * SIZE
    for centre in centres:
        for column, tiles in ((centre - 1, 3), (centre, 2), (centre + 1, 3)):
            if 0 <= column < SIZE:
                lost[column] += tiles
    return tuple(min(tiles, SIZE) for tiles in lost)


def can_explode(board: Board) -> bool:
    """Whether an explosion may still happen on ``board``."""
    return may_explode(FLAMING in board, class_counts(board)[SKULL])


def may_explode(flaming: bool, skulls: int) -> bool:
    """A flaming skull goes off only when marked: it needs 3 skulls (itself among them)
    to match, or another flaming skull's blast, which needs the same."""
    return flaming and skulls >= 3


def flaming_columns(board: Board) -> list[int]:
    """The column of every flaming skull on ``board``."""
    return [cell % SIZE for cell, tile in enumerate(board) if tile == FLAMING]


def moves_needed(board: Board) -> int | None:
    """The least number of moves that sideways travel allows for clearing ``board``,
    blasts included; ``None`` for a board that counting shows can never be cleared
    (`dead_reason`, or no number of moves up to `phase_bound`, which no plan exceeds:
    every move makes a run)."""
    if dead_reason(board) is not None:
        return None
    counts, flames = column_counts(board), flaming_columns(board)
    for moves in range(phase_bound(board) + 1):
        if classes_too_far(counts, moves, flames) is None:
            return moves
    return None


def refutation(state: State, moves: int, made: int = 0) -> Support | None:
    """Why the board of an encoding's tick (``board``/``flame`` atoms, see
    `Capture.step_bound`), reached in ``made`` moves (which sideways travel does not
    need), cannot be cleared in ``moves`` more moves, as the atoms the
    reason rests on; ``None`` if sideways travel allows it. The reason names the board
    atoms of the classes too far (true and false: they fix the counts per column), and
    with them the skulls' and the flaming skulls' (where explosions can or cannot
    happen)."""
    counts = _counts_per_column(state["board"])
    flames = [cell % SIZE for (cell,) in state["flame"]]
    if not may_explode(bool(flames), sum(counts.get(SKULL, ()))):
        flames = []
    too_far = classes_too_far(counts, moves, flames)
    if too_far is None:
        return None
    named = set(too_far) | ({SKULL} if state["flame"] else set())
    return lambda name, arguments: name == "flame" or arguments[1] in named


def state_board(state: State) -> Board:
    """The board of an encoding's tick (its ``board`` and ``flame`` atoms)."""
    cells = [EMPTY] * (SIZE * SIZE)
    for cell, kind in state["board"]:
        cells[cell] = TILE_OF_ATOM[kind]
    for (cell,) in state["flame"]:
        cells[cell] = FLAMING
    return "".join(cells)


def every_atom(name: str, arguments: tuple[Any, ...]) -> bool:
    """The support of a refutation that rests on the whole board."""
    return True
