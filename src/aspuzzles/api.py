"""What a notebook or a script calls: puzzles by name, instances by file, name or text.

These functions join the registry (which puzzle a name means) to the driver (which
knows no puzzle): ``solve`` a puzzle, ``generate`` a new instance, ``load`` one to
look at before solving it, and ``hint``, ``explain``, ``grade``, ``walkthrough`` and
``fix`` for solving by hand.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from .capabilities import offered
from .driver import Result, load_instance, solve_instance
from .driver.jobs import DEFAULT_PLAN_SEARCH, Progress
from .driver.limits import checked_memory, checked_timeout
from .errors import InputError
from .puzzle import Puzzle, render
from .registry import get_puzzle

if TYPE_CHECKING:
    from .hinting import Fix, Grade, PlanReport, PlanWalkthrough, Report, Walkthrough

T = TypeVar("T")


def solve(
    puzzle: str | Puzzle[Any, Any],
    instance: str | Path | None = None,
    *,
    models: int = 1,
    unique: bool = False,
    count: bool = False,
    timeout: float | None = None,
    threads: int = 1,
    clingo_args: Sequence[str] = (),
    options: dict[str, Any] | None = None,
    encoding: str | Path | None = None,
    plan_search: str = DEFAULT_PLAN_SEARCH,
    portfolio: bool = True,
    on_progress: Progress | None = None,
    unchecked: bool = False,
    statistics: bool = True,
) -> Result:
    """Solve a puzzle instance and return checked solutions.

    ``instance`` is a file, the name of a shipped instance, or (for puzzles that take
    one) the puzzle text itself such as a game ID; ``None`` takes the puzzle's default.
    ``models`` is how many solutions to return (0 for all); ``unique`` asks for the
    verdict instead (two models are enough to decide); ``count`` enumerates every
    solution without decoding them. ``timeout`` is in seconds of wall time for building
    the facts, grounding and solving together. ``plan_search`` (planning puzzles) is
    ``split`` (the default: two processes climb the budgets, each over its share of the
    first steps, bounded from above by the puzzle's hinted plan; ``both`` where the
    encoding does not split), ``both`` (budgets refuted from below while plans are
    shortened from above, in two processes), ``ascending`` (one process: the first
    budget with a plan is the minimum) or ``descending``.
    ``portfolio`` races the puzzle's alternative search settings (``Strategy.portfolio``)
    against its tuned ones, each in its own process, when one thread is asked for.
    ``on_progress`` (planning puzzles) is called with what has been proved so far, as a
    sentence, each time that changes (the command line shows it on a terminal).
    ``statistics=False`` leaves clingo's own figures out of ``Result.stats`` (choices,
    conflicts, the program's size), which saves a small board's solve about a tenth of
    its time.
    """
    game = _puzzle(puzzle)
    parsed, name = load_instance(game, instance)
    parsed = game.configure(parsed, options or {})
    return solve_instance(
        game,
        parsed,
        name,
        models=models,
        unique=unique,
        count=count,
        timeout=timeout,
        threads=threads,
        clingo_args=clingo_args,
        encoding=encoding,
        plan_search=plan_search,
        portfolio=portfolio,
        on_progress=on_progress,
        unchecked=unchecked,
        statistics=statistics,
    )


class Instance(NamedTuple):
    """A parsed instance, shown as a puzzle text in a terminal and as its board (no
    answer drawn) in a notebook, where the puzzle can draw one."""

    puzzle: Puzzle[Any, Any]
    name: str
    parsed: Any

    def summary(self) -> str:
        """One line: the puzzle, the instance, and the puzzle's ``describe`` line."""
        described = self.puzzle.describe(self.parsed)
        return f"{self.puzzle.name} {self.name}" + (f": {described}" if described else "")

    def text(self) -> str:
        """The summary, and the puzzle drawn unsolved where the puzzle can draw it."""
        blank = self.puzzle.unsolved(self.parsed)
        board = "" if blank is None else "\n" + render(self.puzzle, self.parsed, blank, "txt")
        return self.summary() + board

    def _repr_svg_(self) -> str | None:
        blank = self.puzzle.unsolved(self.parsed)
        return None if blank is None else render(self.puzzle, self.parsed, blank, "svg")

    def __repr__(self) -> str:
        return f"<{self.summary()}>"

    def __str__(self) -> str:
        return self.text()


def load(puzzle: str | Puzzle[Any, Any], instance: str | Path | None = None) -> Instance:
    """An instance read as ``solve`` reads it (file, shipped name, inline text), parsed
    and validated but not solved."""
    game = _puzzle(puzzle)
    parsed, name = load_instance(game, instance)
    return Instance(game, name, parsed)


def generate(
    puzzle: str | Puzzle[Any, Any],
    *,
    timeout: float | None = None,
    memory: int | None = None,
    **options: Any,
) -> str:
    """A new instance of the puzzle as text, made by its generator; ``options`` are
    ``aspuzzles generate PUZZLE``'s, spelled with ``_`` for ``-`` (``size="5x5"``,
    ``seed=3``). Options left out take the command's defaults. ``timeout`` (seconds)
    and ``memory`` (bytes) bound it as they bound a hint (see :func:`_bounded`)."""
    game = _puzzle(puzzle)
    generator = offered(game.generator(), game.name, game.without("generator"))
    declared = {option.name: option for option in generator.options}
    if unknown := sorted(set(options) - set(declared)):
        raise InputError(
            f"generate {game.name} has no option {', '.join(unknown)} "
            f"(it has: {', '.join(sorted(declared)) or 'none'})"
        )
    defaults = {name: False if o.switch else o.default for name, o in declared.items()}
    args = argparse.Namespace(**{**defaults, **options})
    return _bounded(lambda: generator.made(args), checked_timeout(timeout), memory)


def hint(
    puzzle: str | Puzzle[Any, Any],
    instance: str | Path | None = None,
    *,
    progress: str | None = None,
    every: bool = False,
    encoding: str | Path | None = None,
    timeout: float | None = None,
    memory: int | None = None,
) -> Report | PlanReport:
    """The mistakes in a player's progress and the next entry to make (``every``: all
    entries that follow), with the clues each rests on (:func:`aspuzzles.hinting.hint`).
    ``timeout`` (seconds) and ``memory`` (bytes) bound the whole question, grounding
    included (see :func:`_bounded`): TimeLimit or MemoryLimit when they run out."""
    from . import hinting  # loaded only for a question

    game, limit = _puzzle(puzzle), checked_timeout(timeout)
    return _bounded(
        lambda: hinting.hint(
            game, instance, progress=progress, every=every, encoding=encoding, timeout=limit
        ),
        limit,
        memory,
    )


def explain(
    puzzle: str | Puzzle[Any, Any],
    instance: str | Path | None = None,
    *,
    progress: str | None = None,
    encoding: str | Path | None = None,
    timeout: float | None = None,
    memory: int | None = None,
) -> Report:
    """Why the instance (with the progress) has no solution: a minimal set of clues
    that cannot all hold (:func:`aspuzzles.hinting.explain`); limits as for ``hint``."""
    from . import hinting

    game, limit = _puzzle(puzzle), checked_timeout(timeout)
    return _bounded(
        lambda: hinting.explain(
            game, instance, progress=progress, encoding=encoding, timeout=limit
        ),
        limit,
        memory,
    )


def grade(
    puzzle: str | Puzzle[Any, Any],
    instance: str | Path | None = None,
    *,
    encoding: str | Path | None = None,
    timeout: float | None = None,
    memory: int | None = None,
    difficulty: bool = False,
) -> Grade:
    """How hard the puzzle is to solve by hints alone (:func:`aspuzzles.hinting.grade`),
    with ``difficulty`` also the level a person meets, from a walkthrough; limits as
    for ``hint``, but that a time limit or an interrupt during that walkthrough gives
    the grade without the difficulty (status ``timeout`` or ``interrupted``)."""
    from . import hinting

    game, limit = _puzzle(puzzle), checked_timeout(timeout)
    return _bounded(
        lambda: hinting.grade(
            game, instance, encoding=encoding, timeout=limit, difficulty=difficulty
        ),
        limit,
        memory,
        wrap_up=difficulty,
    )


def walkthrough(
    puzzle: str | Puzzle[Any, Any],
    instance: str | Path | None = None,
    *,
    progress: str | None = None,
    encoding: str | Path | None = None,
    timeout: float | None = None,
    memory: int | None = None,
) -> Walkthrough | PlanWalkthrough:
    """The whole way from the givens (or ``progress``) to the solution, step by step,
    each step the cheapest available with a minimal reason
    (:func:`aspuzzles.hinting.walkthrough`); a puzzle played by moves (capture) its
    proved-shortest plan, move by move; limits as for ``hint``, but that a time limit
    or an interrupt (Ctrl-C, a notebook's stop) once steps are being taken gives the
    steps found so far (status ``timeout`` or ``interrupted``)."""
    from . import hinting

    game, limit = _puzzle(puzzle), checked_timeout(timeout)
    return _bounded(
        lambda: hinting.walkthrough(
            game, instance, progress=progress, encoding=encoding, timeout=limit
        ),
        limit,
        memory,
        wrap_up=True,
    )


def fix(
    puzzle: str | Puzzle[Any, Any],
    instance: str | Path | None = None,
    *,
    progress: str,
    repairs: int = 10,
    encoding: str | Path | None = None,
    timeout: float | None = None,
    memory: int | None = None,
) -> Fix:
    """The fewest entries of ``progress`` to take back so that the rest leads to a
    solution (proved the fewest), each with a minimal reason it was wrong, and every
    repair of that size up to ``repairs`` (0: all) (:func:`aspuzzles.hinting.fix`);
    limits as for ``hint``."""
    from . import hinting

    game, limit = _puzzle(puzzle), checked_timeout(timeout)
    return _bounded(
        lambda: hinting.fix(
            game,
            instance,
            progress=progress,
            repairs=repairs,
            encoding=encoding,
            timeout=limit,
        ),
        limit,
        memory,
    )


def _bounded(
    question: Callable[[], T], timeout: float | None, memory: int | None, wrap_up: bool = False
) -> T:
    """A question asked under limits: in the engine's guard (a forked process stopped at
    the limit in any phase, grounding included, which clingo cannot interrupt), so that
    a notebook's own process keeps its time and memory; without limits, here.
    ``wrap_up``: the question keeps what it has found on Ctrl-C (``run_guarded``)."""
    if timeout is None and checked_memory(memory) is None:
        return question()
    from .driver.guard import Bounds, run_guarded

    return run_guarded(question, Bounds(timeout, memory), wrap_up)


def _puzzle(puzzle: str | Puzzle[Any, Any]) -> Puzzle[Any, Any]:
    return get_puzzle(puzzle) if isinstance(puzzle, str) else puzzle
