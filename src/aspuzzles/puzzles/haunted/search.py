"""Small boards solved in Python before clingo starts: a board of Tatham's sizes is
answered, and its answer proved unique, in a fraction of a millisecond, where loading,
grounding and solving the encoding take about two.

The search restates the shipped encoding's model: two choices per monster cell, whether
its monster is seen directly (a vampire or a zombie) and whether it is seen in mirrors
(a ghost or a zombie), never neither; the totals count the directly seen and the
mirrored monsters; each clue is a sum over its line's crossings (a crossing before the
line's first mirror sees a directly seen monster, one after it a mirrored one). Every
constraint is an equation of such choices with positive weights, propagated by bounds
(what is still needed against what the open choices can add) after each choice, the
most constrained choice first. Like every search that restates the rules, it serves the
shipped encoding only (``Strategy.answer``, ``answers`` and ``count``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from ...strategy import Undecided
from .model import KINDS, HauntedInstance
from .sight import crossings

#: The most monster cells to fill searched here: past them clingo's learning serves
#: better than this search's bounds alone (bench/NOTES-haunted.md).
MOST_CELLS = 100
#: The work after which the search gives the board to clingo: equations looked at after
#: the choices made (each choice's equations), about three milliseconds, less than
#: clingo takes on a board it answers in Python's stead; Tatham's boards need at most
#: about 1,200, boards Python answers faster than clingo up to about 7,000.
MOST_CHECKS = 7_000
#: Choices made between looks at the clock.
CLOCK_EVERY = 64

#: A choice not yet made.
OPEN = -1
#: What each kind's monster is: (seen directly, seen in mirrors).
SEEN = {"V": (1, 0), "G": (0, 1), "Z": (1, 1)}
#: The kind of each pair of sightings.
KIND_OF = {seen: letter for letter, seen in SEEN.items()}

#: A monster cell (0-based row, column) and its kind's letter.
Filled = list[tuple[int, int, str]]


class _Equations:
    """The board as equations over 0/1 choices: choice ``2 * i`` is whether cell ``i``'s
    monster is seen directly, ``2 * i + 1`` whether it is seen in mirrors."""

    def __init__(self, instance: HauntedInstance) -> None:
        self.cells = instance.cells()
        index = {cell: number for number, cell in enumerate(self.cells)}
        self.weights: list[dict[int, int]] = []
        self.targets: list[int] = []
        totals = instance.totals
        for sighting, (kind, also) in enumerate((("V", "Z"), ("G", "Z"))):
            if kind in totals and also in totals:  # as the encoding: both totals given
                self.weights.append({2 * i + sighting: 1 for i in range(len(self.cells))})
                self.targets.append(totals[kind] + totals[also])
        for line, clue in enumerate(instance.clues):
            if clue is None:
                continue
            weights: dict[int, int] = {}
            for (row, col, side), times in crossings(instance.grid, line).items():
                choice = 2 * index[(row, col)] + (side == "after")
                weights[choice] = weights.get(choice, 0) + times
            self.weights.append(weights)
            self.targets.append(clue)
        self.given = {
            index[(row, col)]: SEEN[instance.grid[row][col]]
            for row, col in self.cells
            if instance.grid[row][col] in KINDS
        }


class _Search:
    """A depth-first search over the choices with bounds propagation and a trail."""

    def __init__(self, equations: _Equations, deadline: float) -> None:
        self.equations = equations
        self.deadline = deadline
        choices = 2 * len(equations.cells)
        self.value = [OPEN] * choices
        self.uses: list[list[tuple[int, int]]] = [[] for _ in range(choices)]
        for number, weights in enumerate(equations.weights):
            for choice, weight in weights.items():
                self.uses[choice].append((number, weight))
        self.need = list(equations.targets)
        self.room = [sum(weights.values()) for weights in equations.weights]
        self.heaviest = [max(weights.values(), default=0) for weights in equations.weights]
        #: Each equation's choices and weights, the choice in most equations first: the
        #: one to branch on when the equation is the tightest.
        self.members = [
            sorted(weights.items(), key=lambda member: -len(self.uses[member[0]]))
            for weights in equations.weights
        ]
        self.trail: list[int] = []
        self.steps = 0
        self.checks = 0

    def solutions(self) -> Iterator[list[int]]:
        """Every assignment satisfying the equations, each once, in search order."""
        pending = [
            (2 * cell + side, seen[side])
            for cell, seen in self.equations.given.items()
            for side in (0, 1)
        ]
        settled = all(self._settled(number, pending) for number in range(len(self.need)))
        if settled and self._propagate(pending):
            yield from self._branch()

    def _branch(self) -> Iterator[list[int]]:
        choice = self._most_constrained()
        if choice is None:
            yield self.value
            return
        for guess in (1, 0):
            self._step()
            mark = len(self.trail)
            if self._propagate([(choice, guess)]):
                yield from self._branch()
            self._undo(mark)

    def _most_constrained(self) -> int | None:
        """An open choice of the equation closest to being decided (the least of what
        it still needs and what it can still refuse), the one in most equations; else
        any open choice (of a cell no clue sees), or None when all are made."""
        best, tightest = None, None
        for number, free in enumerate(self.room):
            if free:
                left = self.need[number]
                slack = min(left, free - left)
                if tightest is None or slack < tightest:
                    best, tightest = number, slack
        if best is None:
            return next((choice for choice, made in enumerate(self.value) if made == OPEN), None)
        return next(choice for choice, _ in self.members[best] if self.value[choice] == OPEN)

    def _step(self) -> None:
        self.steps += 1
        if self.checks > MOST_CHECKS or (
            self.steps % CLOCK_EVERY == 0 and time.perf_counter() > self.deadline
        ):
            raise Undecided

    def _propagate(self, pending: list[tuple[int, int]]) -> bool:
        """Make the pending choices and everything that follows from them; False on a
        contradiction (the trail then holds what was made, for ``_undo``)."""
        value, need, room, trail = self.value, self.need, self.room, self.trail
        while pending:
            choice, guess = pending.pop()
            if value[choice] != OPEN:
                if value[choice] != guess:
                    return False
                continue
            value[choice] = guess
            trail.append(choice)
            if guess == 0:  # a monster is seen somehow: the other sighting holds
                pending.append((choice ^ 1, 1))
            uses = self.uses[choice]
            self.checks += len(uses)
            for number, weight in uses:  # all of them first: ``_undo`` takes all back
                room[number] -= weight
                if guess:
                    need[number] -= weight
            for number, _ in uses:
                if not self._settled(number, pending):
                    return False
        return True

    def _settled(self, number: int, pending: list[tuple[int, int]]) -> bool:
        """Whether equation ``number`` can still hold; the open choices it decides (a
        weight past what it needs is out, one it cannot do without is in) are added
        to ``pending``."""
        left, free = self.need[number], self.room[number]
        if left < 0 or left > free:
            return False
        heaviest = self.heaviest[number]
        if left < heaviest or free - left < heaviest:
            value = self.value
            for other, weight in self.members[number]:
                if value[other] == OPEN:
                    if weight > left:
                        pending.append((other, 0))
                    elif free - weight < left:
                        pending.append((other, 1))
        return True

    def _undo(self, mark: int) -> None:
        value, need, room, trail = self.value, self.need, self.room, self.trail
        while len(trail) > mark:
            choice = trail.pop()
            for number, weight in self.uses[choice]:
                room[number] += weight
                if value[choice]:
                    need[number] += weight
            value[choice] = OPEN


def fillings(instance: HauntedInstance, deadline: float, most: int) -> tuple[list[Filled], bool]:
    """Up to ``most`` answers (0: all) in search order, and whether they are all there are;
    ``Undecided`` past ``MOST_CELLS``, ``MOST_CHECKS`` or ``deadline`` (a
    ``time.perf_counter()`` value)."""
    search = _search_of(instance, deadline)
    cells = search.equations.cells
    found: list[Filled] = []
    for value in search.solutions():
        found.append(
            [
                (row, col, KIND_OF[(value[2 * i], value[2 * i + 1])])
                for i, (row, col) in enumerate(cells)
            ]
        )
        if len(found) == most:
            return found, False
    return found, True


def count_fillings(instance: HauntedInstance, deadline: float) -> int:
    """How many answers there are (none of them spelled out); ``Undecided`` as for
    ``fillings``."""
    return sum(1 for _ in _search_of(instance, deadline).solutions())


def _search_of(instance: HauntedInstance, deadline: float) -> _Search:
    """The search of a board this module takes (``Undecided`` past ``MOST_CELLS``)."""
    if sum(row.count(".") for row in instance.grid) > MOST_CELLS:
        raise Undecided
    return _Search(_Equations(instance), deadline)
