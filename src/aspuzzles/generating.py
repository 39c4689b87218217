"""Shared machinery for generators: drawing puzzles until the solver accepts one.

Knows no puzzle. A generator draws an instance from a seeded random source; the
solver judges it (exactly one solution, or any other question a ``judge`` asks). A
limit on conflicts, not on time, bounds each judgement, so that a seed gives the same
puzzle on every machine; an instance whose judgement hits the limit is drawn again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from clingo import Symbol

from .errors import InputError
from .puzzle import Option, Puzzle

if TYPE_CHECKING:
    import random

    from .driver import Result, Session
    from .hinting import Grounded

InstanceT = TypeVar("InstanceT")

#: Conflicts one uniqueness proof may take before the instance is drawn again.
CONFLICTS = 20_000


def first_accepted(
    puzzle: Puzzle[InstanceT, Any],
    draw: Callable[[random.Random], InstanceT],
    accept: Callable[[InstanceT], bool],
    rng: random.Random,
    attempts: int,
    wanted: str,
) -> InstanceT:
    """The first drawn instance that ``accept`` takes; InputError after ``attempts``
    draws, naming what was ``wanted``."""
    for _ in range(attempts):
        instance = draw(rng)
        if accept(instance):
            return instance
    raise InputError(
        f"no {wanted} {puzzle.name} found in {attempts} tries (try another seed or size)"
    )


def judged(puzzle: Puzzle[Any, Any], instance: Any, **options: Any) -> Result:
    """A generator's solve of a drawn instance (``options`` as ``solve_instance`` takes
    them): generators reach the driver through here, as every command does through the
    engine, and load it only when they judge."""
    from .driver import solve_instance

    return solve_instance(puzzle, instance, **options)


def grounded_once(puzzle: Puzzle[Any, Any], instance: Any) -> Session:
    """One grounding of ``instance`` for a generator's many questions under assumptions
    (``driver.Session``)."""
    from .driver import Session

    return Session(puzzle, instance)


def has_one_solution(puzzle: Puzzle[Any, Any], instance: Any) -> bool:
    """Whether the solver proves exactly one solution within ``CONFLICTS`` conflicts
    (as the puzzle counts solutions: tiles up to turning the board, cakes up to the
    pieces' labels)."""
    limit = (f"--solve-limit={CONFLICTS}",)
    result = judged(puzzle, instance, unique=True, clingo_args=limit, portfolio=False)
    return result.verdict == "unique"


def first_unique(
    puzzle: Puzzle[InstanceT, Any],
    draw: Callable[[random.Random], InstanceT],
    rng: random.Random,
    attempts: int = 300,
) -> InstanceT:
    """The first drawn instance with exactly one solution."""
    return first_accepted(
        puzzle, draw, lambda instance: has_one_solution(puzzle, instance), rng, attempts, "unique"
    )


#: ``generate --difficulty`` of puzzles without a scheme of their own: the grade asked
#: for (``aspuzzles grade``): easy is solved by propagation alone, normal needs failed
#: trials but no search, hard needs search.
DIFFICULTY_LEVELS = {"easy": "propagation", "normal": "trial", "hard": "search"}


#: ``--difficulty`` as ``first_graded`` reads it.
DIFFICULTY_OPTION = Option(
    "--difficulty",
    choices=tuple(DIFFICULTY_LEVELS),
    help="draw until a unique puzzle grades as asked (aspuzzles grade): easy "
    "(propagation alone), normal (failed trials, no search), hard (needs search)",
)


def grades_as(puzzle: Puzzle[Any, Any], instance: Any, level: str) -> bool:
    """Whether a puzzle known to be unique grades exactly ``level``; grading stops at
    the first step deeper than that."""
    from .hinting import ANCHOR, BEYOND, OPEN, grade_steps  # loaded only to grade

    order = tuple(DIFFICULTY_LEVELS.values())
    hardest = order[0]
    for step, _ in grade_steps(puzzle, instance, deepest=level):
        if step in (OPEN, BEYOND):
            return False
        if step != ANCHOR and order.index(step) > order.index(hardest):
            hardest = step
    return hardest == level


def as_asked(
    puzzle: Puzzle[InstanceT, Any],
    draw: Callable[[random.Random], InstanceT],
    rng: random.Random,
    unique: bool,
    difficulty: str | None,
) -> InstanceT:
    """What a generator's ``--unique`` and ``--difficulty`` ask for: the first draw
    that grades as asked, else the first unique one, else the first draw."""
    if difficulty:
        return first_graded(puzzle, draw, rng, difficulty)
    if unique:
        return first_unique(puzzle, draw, rng)
    return draw(rng)


def first_graded(
    puzzle: Puzzle[InstanceT, Any],
    draw: Callable[[random.Random], InstanceT],
    rng: random.Random,
    difficulty: str,
    attempts: int = 300,
) -> InstanceT:
    """The first drawn instance with exactly one solution that grades as
    ``difficulty`` asks (a key of ``DIFFICULTY_LEVELS``)."""
    level = DIFFICULTY_LEVELS[difficulty]

    def accept(instance: InstanceT) -> bool:
        return has_one_solution(puzzle, instance) and grades_as(puzzle, instance, level)

    return first_accepted(puzzle, draw, accept, rng, attempts, f"unique {difficulty}")


#: The grades by propagation a generator proposes, in turn, for a difficulty as a
#: walkthrough reads it: the same level first, then the ones beside it (measured on
#: Haunted: a board graded tricky by propagation walks as normal as often as not).
PROPOSED = {
    "easy": ("easy", "normal"),
    "normal": ("normal", "easy", "tricky"),
    "tricky": ("tricky", "hard", "normal"),
    "hard": ("hard", "tricky"),
}
#: Proposals drawn before a generator aiming at a walkthrough's difficulty gives up.
WALKED_ATTEMPTS = 40


def walked_as(
    puzzle: Puzzle[Any, Any],
    propose: Callable[[str], Any | None],
    difficulty: str,
    what: str,
    attempts: int = WALKED_ATTEMPTS,
    proposed: Mapping[str, Sequence[str]] = PROPOSED,
) -> Any:
    """The first instance ``propose`` draws (given a grade by propagation, in turn from
    ``proposed``, by default ``PROPOSED``; None where it finds none at that grade) whose
    walkthrough reaches the solution at ``difficulty`` (``grade --difficulty``:
    hinting.difficulty). The grade by propagation measures the encoding's phrasing as
    much as the puzzle; it serves only to propose, and the walkthrough decides."""
    from .hinting.walkthrough import walk  # loaded only to generate

    levels = proposed[difficulty]
    for attempt in range(attempts):
        instance = propose(levels[attempt % len(levels)])
        if instance is not None and walk(puzzle, instance, what).difficulty == difficulty:
            return instance
    raise InputError(
        f"no {what} found whose walkthrough grades {difficulty} in {attempts} drawn "
        "(try another seed or size)"
    )


#: ``generate --difficulty`` of a graded scheme with four levels (an encoding of one's
#: own): easy is solved by propagation alone, normal with at most ``NORMAL_TRIALS``
#: failed trials and tricky with more, neither with search; hard needs search.
GRADED_DIFFICULTIES = ("easy", "normal", "tricky", "hard")
NORMAL_TRIALS = 2
#: The deepest reasoning each difficulty allows.
DEEPEST = {"easy": "propagation", "normal": "trial", "tricky": "trial", "hard": "search"}


def difficulty_of(steps: dict[str, int]) -> str:
    """A unique puzzle's difficulty from the steps its grading took, by level."""
    if steps.get("search"):
        return "hard"
    trials = steps.get("trial", 0)
    return "tricky" if trials > NORMAL_TRIALS else "normal" if trials else "easy"


def _within(difficulty: str, steps: dict[str, int]) -> bool:
    """Whether grading steps so far stay at or below a difficulty."""
    order = GRADED_DIFFICULTIES
    return order.index(difficulty_of(steps)) <= order.index(difficulty)


def fewest_clues(
    ground: Grounded,
    fixed: Sequence[Symbol],
    candidates: Sequence[Symbol],
    rng: random.Random,
    difficulty: str | None,
) -> list[Symbol] | None:
    """A set of ``candidates`` that, with the ``fixed`` clues, leaves exactly one
    solution, and from which no candidate can be dropped without losing that (or,
    with ``difficulty``, without the puzzle grading harder than asked): candidates are
    dropped one at a time in a seeded random order, each kept only where dropping it
    fails. All on one grounding (``ground``, whose clues are the fixed and the
    candidate ones), asked under assumptions (``Reasoner.only``). None where all the
    candidates together leave more than one solution, or the result grades easier
    than asked."""
    kept = list(candidates)
    if not _acceptable(ground, [*fixed, *kept], difficulty):
        return None
    order = list(candidates)
    rng.shuffle(order)
    for candidate in order:
        trial = [clue for clue in kept if clue != candidate]
        if _acceptable(ground, [*fixed, *trial], difficulty):
            kept = trial
    if difficulty is not None and _graded(ground, [*fixed, *kept], difficulty) != difficulty:
        return None
    return kept


def _acceptable(ground: Grounded, clues: list[Symbol], difficulty: str | None) -> bool:
    """Whether the clues leave one solution and, with a difficulty, grade no harder."""
    with ground.reasoner.only(clues):
        if ground.reasoner.count([], 2) != 1:
            return False
    if difficulty is None or difficulty == GRADED_DIFFICULTIES[-1]:
        return True  # every unique puzzle is at most hard
    return _graded(ground, clues, difficulty) is not None


def _graded(ground: Grounded, clues: list[Symbol], difficulty: str) -> str | None:
    """The difficulty of a unique puzzle with these clues; None where it is harder than
    ``difficulty`` (grading stops at the first step beyond it)."""
    from .hinting import BEYOND, OPEN, given_entries, unique_steps

    steps = {"propagation": 0, "trial": 0, "search": 0}
    all_given = ground.given
    with ground.reasoner.only(clues):
        # What the board states outright and these clues do: as ``grade`` reads the
        # puzzle made (an entry the board's shape only forces is a step to find).
        ground.given = given_entries(ground.reasoner, ground.structure)
        try:
            for level, _ in unique_steps(ground, DEEPEST[difficulty]):
                if level in (BEYOND, OPEN):
                    return None
                steps[level] += 1
                if not _within(difficulty, steps):
                    return None
        finally:
            ground.given = all_given
    return difficulty_of(steps)
