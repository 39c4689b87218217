"""Grades: how hard a puzzle is to solve by hints alone, step by step."""

from __future__ import annotations

from collections.abc import Iterator
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
    anchor, unshared = class_anchor(ground)
    yield from ((ANCHOR, entry) for entry in anchor)
    ground.given.update(anchor)
    laid = [(entry, True) for entry in anchor]
    # Propagation alone decides whether it fills the board; deeper grading first makes
    # sure the puzzle has one solution, as trials on a board with many are costly.
    if not unshared and deepest != PROPAGATION:
        unshared = _unshared(ground.reasoner, laid)
    if unshared:
        yield from ((OPEN, entry) for entry in unshared)
        return
    yield from _steps(ground, deepest, laid)


def class_anchor(ground: Grounded) -> tuple[list[Symbol], list[Symbol]]:
    """The entries an anchored puzzle lays before grading (none for others), and
    the rest of that solution's entries if the puzzle has more solutions than one class
    (the anchor would hide any that it leaves out)."""
    if not ground.puzzle.anchored:
        return [], []
    found = ground.reasoner.one_solution([])
    if found is None:
        raise NoSolution(NOTHING_TO_GRADE)
    anchor = ground.puzzle.grade_anchor(ground.instance, found[1])
    size = ground.puzzle.class_size(ground.instance)
    several = ground.reasoner.count([], size + 1) > size
    return anchor, sorted(found[1] - set(anchor)) if several else []


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
    cursor, level = 0, PROPAGATION
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
        ruled_out, cursor = _next_trial(reasoner, known, undecided, cursor)
        if ruled_out is not None:
            known.append((ruled_out, False))
            level = TRIAL
            continue
        if deepest == TRIAL:
            yield from ((BEYOND, entry) for entry in undecided)
            return
        following = (reasoner.consequences(known) or set()) - made - ground.given
        forced = sorted(entry for entry in following if entry in set(undecided))
        if not forced:
            for entry in undecided:
                yield OPEN, entry
            return
        yield SEARCH, forced[0]
        known.append((forced[0], True))
        level = PROPAGATION


def _next_trial(
    reasoner: Reasoner, assumed: list[tuple[Symbol, bool]], undecided: list[Symbol], cursor: int
) -> tuple[Symbol | None, int]:
    """The first undecided entry, from ``cursor`` on and round again, that cannot be:
    assuming it propagates to a contradiction at once (one failed trial). Where the
    scan stopped is where the next one starts, as a person goes round the board."""
    count = len(undecided)
    for step in range(count):
        entry = undecided[(cursor + step) % count]
        if reasoner.fails_at_once(assumed, (entry, True)):
            return entry, (cursor + step) % count
    return None, cursor
