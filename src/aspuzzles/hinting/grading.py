"""Grades: how hard a puzzle is to solve by hints alone, step by step."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clingo import Symbol

from ..driver.loading import checked_encoding
from ..driver.reasoning import PROPAGATION, SEARCH, TRIAL, Reasoner
from ..errors import NoSolution
from ..puzzle import Puzzle
from .grounding import Grounded, ground_instance, loaded
from .reports import Grade, hintable


def grade(
    puzzle: Puzzle[Any, Any],
    instance: str | Path | None = None,
    *,
    encoding: str | Path | None = None,
    timeout: float | None = None,
    difficulty: bool = False,
) -> Grade:
    """Solve by hints alone, from an empty board: every entry propagation gives is
    taken (a step each); when none is left, a value that fails at once when tried is
    ruled out (the entries this opens count one trial step, the rest propagation);
    when no trial fails either, one entry that holds in every solution is taken (a
    search step). The grade is the hardest level needed. A puzzle whose solutions come
    in classes no clue tells apart (``Hints.anchored``) is graded after its anchor is laid.
    With ``difficulty``, also the level a person meets (:mod:`.difficulty`), read from
    a whole walkthrough: by the steps' reasons, not by propagation, so the same for
    any phrasing of the encoding; it costs a walkthrough's time. Where ``timeout``
    (or Ctrl-C) stops that walkthrough, the grade is the answer without the difficulty
    (status ``timeout`` or ``interrupted``); a limit reached before, TimeLimit."""
    game = puzzle
    parsed, name = loaded(game, instance)
    entries = hintable(game)
    steps = {PROPAGATION: 0, TRIAL: 0, SEARCH: 0}
    unique = True
    laid_first: list[str] = []
    for level, entry in grade_steps(game, parsed, encoding, timeout=timeout):
        if level == ANCHOR:
            laid_first.append(entries.entry_text(parsed, entry))
            continue
        if level == OPEN:
            unique = False
            break
        steps[level] += 1
    hardest = SEARCH if steps[SEARCH] else TRIAL if steps[TRIAL] else PROPAGATION
    standing = checked_encoding(game, encoding).standing
    found = Grade(game.name, name, hardest, steps, unique, laid_first, standing)
    if difficulty and unique:
        from .walkthrough import CUT_SHORT, walkthrough  # it builds on this module

        walk = walkthrough(game, instance, encoding=encoding, timeout=timeout, chains=False)
        if walk.status in CUT_SHORT:
            found.status, found.walked = walk.status, len(walk.steps)
            return found
        found.difficulty = walk.difficulty
        found.score = round(score, 2) if (score := walk.score) is not None else None
    return found


#: What ``grade_steps`` gives for an entry still open when no step is left (the puzzle
#: has several solutions), for one where a step would need deeper reasoning than
#: asked, and for an entry laid before the first step (``Hints.anchored``).
OPEN, BEYOND, ANCHOR = "open", "beyond", "anchor"


def grade_steps(
    game: Puzzle[Any, Any],
    instance: Any,
    encoding: str | Path | None = None,
    deepest: str = SEARCH,
    timeout: float | None = None,
) -> Iterator[tuple[str, Symbol]]:
    """The steps of solving by hints alone, as ``grade`` counts them: (level, entry)
    each; for a puzzle with several solutions, no step but (``OPEN``, entry) for every
    entry of one solution that another does not share. Reasoning deeper than
    ``deepest`` is not tried: where it would be needed, (``BEYOND``, entry) for every
    entry still open ends the steps (a generator aiming at easy puzzles stops there).
    An anchored puzzle's anchor comes first, (``ANCHOR``, entry) each."""
    ground = ground_instance(game, instance, encoding, timeout)
    anchored = _anchored(ground)
    anchor, unshared = anchored.laid, anchored.unshared
    yield from ((ANCHOR, entry) for entry in anchor)
    ground.given.update(anchor)
    laid = [(entry, True) for entry in anchor]
    # Propagation alone decides whether it fills the board; deeper grading first makes
    # sure the puzzle has one solution, as trials on a board with many are costly.
    if not unshared and deepest != PROPAGATION:
        known = anchored.left_open()
        unshared = _unshared(ground.reasoner, laid) if known is None else known
    if unshared:
        yield from ((OPEN, entry) for entry in unshared)
        return
    yield from _steps(ground, deepest, laid)


@dataclass
class _Anchored:
    """An anchored puzzle's anchor (empty for others), the rest of that solution's
    entries where the puzzle has more solutions than one class, and the entries of
    every solution that holds the anchor where counting found every solution (None:
    not known)."""

    laid: list[Symbol]
    unshared: list[Symbol]
    holding: list[set[Symbol]] | None = None

    def left_open(self) -> list[Symbol] | None:
        """The entries of one solution with the anchor that another does not share
        (none where the anchor leaves one solution); None where not every solution is
        known."""
        if self.holding is None:
            return None
        shared = set.intersection(*self.holding)
        return sorted(self.holding[0] - shared)


def class_anchor(ground: Grounded) -> tuple[list[Symbol], list[Symbol]]:
    """The entries an anchored puzzle lays before grading (none for others), and
    the rest of that solution's entries if the puzzle has more solutions than one class
    (the anchor would hide any that it leaves out)."""
    anchored = _anchored(ground)
    return anchored.laid, anchored.unshared


def _anchored(ground: Grounded) -> _Anchored:
    """``class_anchor``, with the solutions that hold the anchor where counting the
    solutions ended below its limit: it found them all, so whether the anchor leaves
    one needs no search of its own (a 10x10 tiles board: 8-13 s saved)."""
    if not ground.puzzle.anchored:
        return _Anchored([], [])
    found = ground.reasoner.one_solution([])
    if found is None:
        raise NoSolution(NOTHING_TO_GRADE)
    anchor = ground.puzzle.grade_anchor(ground.instance, found[1])
    size = ground.puzzle.class_size(ground.instance)
    every = ground.reasoner.solutions([], size + 1)
    if len(every) > size:
        return _Anchored(anchor, sorted(found[1] - set(anchor)))
    holding = [entries for entries in every if set(anchor) <= entries]
    return _Anchored(anchor, [], holding or None)


#: Models enumerated to find a puzzle's second solution before grading: on a board with
#: very many solutions the full cautious enumeration can take seconds.
UNSHARED_MODELS = 16


NOTHING_TO_GRADE = "the puzzle has no solution: nothing to grade (see aspuzzles explain)"


def _unshared(reasoner: Reasoner, laid: list[tuple[Symbol, bool]]) -> list[Symbol]:
    """Entries of one solution that not every solution shares (none for a unique
    puzzle): a puzzle with several solutions is mostly known before any step is taken.
    The enumeration is bounded (``UNSHARED_MODELS``), so a puzzle with several
    solutions may pass here; the steps then end with its open entries."""
    found = reasoner.one_solution(laid)
    if found is None:
        raise NoSolution(NOTHING_TO_GRADE)
    return sorted(found[1] - (reasoner.consequences(laid, UNSHARED_MODELS) or set()))


def unique_steps(ground: Grounded, deepest: str = SEARCH) -> Iterator[tuple[str, Symbol]]:
    """The steps of a puzzle known to have one solution, on a grounding already made
    (a generator's, asking of many subsets of its clues in turn: ``Reasoner.only``)."""
    return _steps(ground, deepest, [])


def _steps(
    ground: Grounded, deepest: str, laid: list[tuple[Symbol, bool]]
) -> Iterator[tuple[str, Symbol]]:
    """The steps of a unique puzzle (see ``grade_steps``) after the ``laid`` entries."""
    reasoner = ground.reasoner
    known = list(laid)  # entries made, and values ruled out
    place = {entry: index for index, entry in enumerate(reasoner.entries)}
    cursor, level = -1, PROPAGATION  # where the round of trials goes on (``place``)
    while True:
        seen = reasoner.propagate(known)
        assert seen is not None  # every step follows from the clues
        made = {symbol for symbol, value in known if value}
        new = sorted(seen.true - made - ground.given)
        if new:
            for index, entry in enumerate(new):
                # The first entry a ruled-out value opens is the trial's step.
                yield (TRIAL if level == TRIAL and index == 0 else PROPAGATION), entry
            known += [(entry, True) for entry in new]
            level = PROPAGATION
            continue
        undecided = [e for e in reasoner.entries if e not in seen.true and e not in seen.false]
        if not undecided:
            return
        if deepest == PROPAGATION:
            yield from ((BEYOND, entry) for entry in undecided)
            return
        start = next((i for i, e in enumerate(undecided) if place[e] > cursor), 0)
        ruled_out, opened = _trials(reasoner, known, undecided[start:] + undecided[:start])
        known += [(entry, False) for entry in ruled_out]
        if ruled_out:
            level, cursor = TRIAL, place[ruled_out[-1]]
        if opened:
            continue
        if ruled_out:  # values ruled out, none opening an entry: fewer are undecided
            seen = reasoner.propagate(known)
            assert seen is not None
            undecided = [e for e in undecided if e not in seen.false]
        if deepest == TRIAL:
            yield from ((BEYOND, entry) for entry in undecided)
            return
        forced = _first_shared(reasoner, known, undecided)
        if forced is None:
            yield from ((OPEN, entry) for entry in undecided)
            return
        yield SEARCH, forced
        known.append((forced, True))
        level = PROPAGATION


def _first_shared(
    reasoner: Reasoner, known: list[tuple[Symbol, bool]], undecided: list[Symbol]
) -> Symbol | None:
    """The first undecided entry that every solution shares (a search step), if any."""
    open_now = set(undecided)
    following = reasoner.consequences(known) or set()
    return min((entry for entry in following if entry in open_now), default=None)


def _trials(
    reasoner: Reasoner, assumed: list[tuple[Symbol, bool]], ring: list[Symbol]
) -> tuple[list[Symbol], bool]:
    """Values ruled out one at a time, as a person goes round the board from the
    ``ring``'s first entry: each the next entry that fails at once when tried (under
    the values ruled out before it), until one opens an entry (propagation then makes
    it; True) or a whole round fails nowhere (False).

    Whether a value opens an entry is asked of propagation after a run of values
    ruled out, each run twice the last, and the first that opens one is found by
    halving (propagation only gains with more values ruled out): a 10x10 tiles board
    rules out 1,772 values before one opens an entry, and asking after each took 50 ms
    a time. What comes after that first value is dropped, to be tried again after
    the entries it opened, as when asking after each."""
    ring = list(ring)
    ruled_out: list[Symbol] = []
    asked = 0  # values ruled out that are known to open nothing
    run = 1  # how many more are ruled out before propagation is asked again
    at, quiet = 0, 0  # the entry tried next; entries tried since the last that failed

    def ruled(count: int) -> list[tuple[Symbol, bool]]:
        return [*assumed, *((entry, False) for entry in ruled_out[:count])]

    def opens(count: int) -> bool:
        seen = reasoner.propagate(ruled(count), among=ring)
        assert seen is not None  # a value ruled out is false in every solution
        return bool(seen.true)

    while ring and quiet < len(ring):
        entry = ring[at]
        if not reasoner.fails_at_once(ruled(len(ruled_out)), (entry, True)):
            quiet, at = quiet + 1, (at + 1) % len(ring)
            continue
        ruled_out.append(entry)
        del ring[at]
        at, quiet = at if at < len(ring) else 0, 0
        if len(ruled_out) - asked < run:
            continue
        seen = reasoner.propagate(ruled(len(ruled_out)), among=ring)
        assert seen is not None
        if seen.true:
            return ruled_out[: _first_opening(opens, asked, len(ruled_out))], True
        # The values propagation rules out leave the round (trying them would fail).
        at = sum(1 for e in ring[:at] if e not in seen.false)
        ring = [e for e in ring if e not in seen.false]
        at = at if at < len(ring) else 0
        asked, run = len(ruled_out), run * 2
    if len(ruled_out) > asked and opens(len(ruled_out)):
        return ruled_out[: _first_opening(opens, asked, len(ruled_out))], True
    # The next round goes on after the last value a person would have tried: not one
    # that propagation had ruled out before it was tried (it failed, and changed
    # nothing).
    while len(ruled_out) > 1:
        last = ruled_out[-1]
        seen = reasoner.propagate(ruled(len(ruled_out) - 1), among=[last])
        if seen is None or last not in seen.false:
            break
        ruled_out.pop()
    return ruled_out, False


def _first_opening(opens: Callable[[int], bool], closed: int, opened: int) -> int:
    """The fewest values ruled out (more than ``closed``, at most ``opened``, where
    ``opens`` says whether propagation then makes an entry)."""
    while opened - closed > 1:
        middle = (closed + opened) // 2
        if opens(middle):
            opened = middle
        else:
            closed = middle
    return opened
