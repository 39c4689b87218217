"""The one place that talks to clingo: load, add facts, ground, solve, collect models.

The driver knows nothing about any puzzle. It takes a :class:`~aspuzzles.puzzle.Puzzle`
and an instance, asks the puzzle for facts, runs clingo, and hands each answer set back
to the puzzle to decode and check. A time limit holds for solving (an async solve
handle is waited on, then cancelled) and for grounding too: clingo 5.8 cannot interrupt
grounding, so when a limit is set, grounding and solving run in a forked worker process
(:mod:`aspuzzles.workers`) that is killed when the limit passes, and the caller is told
which phase ran out. A planning puzzle with monotone budgets is searched from both ends
at once, in two such workers.
"""

from __future__ import annotations

import logging
import multiprocessing
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import clingo
from clingo import Control, Symbol
from clingox.backend import SymbolicBackend

from .asp import character_text, foreign_character, includes_incmode, program_texts
from .bounds import StepBoundPropagator
from .errors import CheckFailed, InputError, clingo_message
from .jobs import (
    ASCENDING,
    DEFAULT_PLAN_SEARCH,
    DESCENDING,
    PLAN_SEARCHES,
    SPLIT,
    TICK,
    Bounds,
    Job,
    Outcome,
    Progress,
    Reporter,
    plan_length,
    progress_text,
    search_text,
)
from .paths import (
    STDIN,
    display_path,
    find_encoding,
    instance_files,
    named_file,
    read_stdin,
    read_text_file,
)
from .puzzle import Incremental, Puzzle, Shortcut, Solution
from .registry import get_puzzle
from .workers import run_in_workers

log = logging.getLogger("aspuzzles")
clingo_log = logging.getLogger("aspuzzles.clingo")

SOLVED, UNSATISFIABLE, TIMEOUT = "solved", "unsatisfiable", "timeout"
#: A run stopped by Ctrl-C: like ``timeout``, with what was found and proved so far.
INTERRUPTED = "interrupted"


# --------------------------------------------------------------------------- results
@dataclass
class Result:
    """What one solve call found. Displays itself in Jupyter.

    ``status`` is ``solved`` (at least one answer), ``unsatisfiable`` (proved to have
    none), ``timeout`` (the limit passed; ``complete`` is then false and
    ``timeout_phase`` says whether grounding or solving ran out) or ``interrupted``
    (the same, stopped by Ctrl-C). ``verdict`` is set in
    uniqueness mode: ``unique``, ``multiple`` or ``none``. ``count`` is set in counting
    mode (a lower bound when not ``complete``).
    """

    puzzle: str
    instance: str
    status: str
    solutions: list[Solution] = field(default_factory=list)
    verdict: str | None = None
    count: int | None = None
    complete: bool = True
    timeout_phase: str | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    checked: bool = True
    #: Why there is no solution, when that was found without search.
    reason: str | None = None
    #: Puzzle-specific figures of a count (e.g. ``count_raw``).
    count_details: dict[str, int] = field(default_factory=dict)
    #: For a planning puzzle out of time: the horizons already refuted, so that a run
    #: cut short still reports a proved lower bound ("no answer within 6 moves").
    progress: str | None = None
    #: Stopped by Ctrl-C, usually before the answer was complete; the status is then
    #: ``interrupted``, or ``solved`` with the solutions found before it.
    interrupted: bool = False
    #: For a program with an objective (``#minimize``): the solutions' cost, one number
    #: per priority level (highest first), and whether it is proved optimal. A run cut
    #: short shows its best solution with ``optimal`` false and status ``timeout``.
    cost: list[int] | None = None
    optimal: bool = False
    #: For a program in clingo's incremental mode (see ``incmode_plan``): the horizon
    #: (the step t of ``step(t)``) of the answers, the first one that has any.
    horizon: int | None = None

    @property
    def solution(self) -> Solution | None:
        return self.solutions[0] if self.solutions else None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "puzzle": self.puzzle,
            "instance": self.instance,
            "status": self.status,
            "verdict": self.verdict,
            "solutions": [solution.to_dict() for solution in self.solutions],
            "stats": self.stats,
        }
        if self.count is not None:
            data["count"] = self.count
            data.update(self.count_details)
        if self.reason is not None:
            data["reason"] = self.reason
        if not self.complete:
            data["complete"] = False
            data["timeout_phase"] = self.timeout_phase
        if self.interrupted:
            data["interrupted"] = True
        if self.progress is not None:
            data["progress"] = self.progress
        if self.cost is not None:
            data["cost"], data["optimal"] = self.cost, self.optimal
        if self.horizon is not None:
            data["horizon"] = self.horizon
        return data

    def summary(self) -> str:
        """One line: status, verdict or count, time, and whether the answers shown were
        checked (the terminal, a notebook and ``-o``'s stderr line all say it alike)."""
        parts = self._status_parts()
        if self.horizon is not None:
            parts.append(f"horizon {self.horizon}")
        if self.reason:
            parts.append(f"without search: {self.reason}")
        if self.cost is not None and self.optimal:
            parts.append(f"cost {cost_text(self.cost)} (optimal)")
        if self.verdict:
            parts.append(f"verdict {self.verdict}")
        if self.count is not None:
            parts.append(f"count {self.count}{'' if self.complete else '+'}")
            parts += [f"{key} {value}" for key, value in self.count_details.items()]
        if self.solutions and self.verdict is None and self.count is None:
            before = " found before the interruption" if self.interrupted else ""
            before = " found before the limit" if self.status == TIMEOUT else before
            found = len(self.solutions)
            parts.append(f"{found} solution{'' if found == 1 else 's'}{before}")
        if "total_time" in self.stats:
            parts.append(f"in {self.stats['total_time']:.3f}s")
        line = ", ".join(parts)
        if not self.solutions:
            return line
        checked = "checked" if self.checked else "not checked: this puzzle has no Python checker"
        return f"{line} ({checked})"

    def _status_parts(self) -> list[str]:
        """The status and, for a run cut short, where it stopped and what it proved."""
        parts = [f"{self.puzzle} {self.instance}: {self.status}"]
        if self.status == TIMEOUT:
            parts[0] += f" (time limit reached while {self.timeout_phase})"
        elif self.status == INTERRUPTED:
            parts[0] += f" (while {self.timeout_phase})"
        if self.status in (TIMEOUT, INTERRUPTED) and self.progress:
            parts.append(self.progress)
        return parts

    def _repr_html_(self) -> str:
        from html import escape

        boards = "".join(f"<div>{solution.svg()}</div>" for solution in self.solutions)
        return f"<div><p>{escape(self.summary())}</p>{boards}</div>"

    def __str__(self) -> str:
        return "\n\n".join([self.summary(), *(s.text() for s in self.solutions)])


# ----------------------------------------------------------------------- public entry
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
    ``portfolio`` races the puzzle's alternative search settings (``Puzzle.portfolio``)
    against its tuned ones, each in its own process, when one thread is asked for.
    ``on_progress`` (planning puzzles) is called with what has been proved so far, as a
    sentence, each time that changes (the command line shows it on a terminal).
    """
    game = get_puzzle(puzzle) if isinstance(puzzle, str) else puzzle
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
    )


def solve_instance(
    game: Puzzle[Any, Any],
    parsed: Any,
    name: str = "<instance>",
    *,
    models: int = 1,
    unique: bool = False,
    count: bool = False,
    timeout: float | None = None,
    threads: int = 1,
    clingo_args: Sequence[str] = (),
    encoding: str | Path | None = None,
    plan_search: str = DEFAULT_PLAN_SEARCH,
    portfolio: bool = True,
    on_progress: Progress | None = None,
) -> Result:
    """Solve an already parsed (and configured) instance (see :func:`solve`)."""
    if models < 0:
        raise InputError("the number of models must be 0 (all) or more")
    if timeout is not None and timeout <= 0:
        raise InputError("the time limit must be a positive number of seconds")
    if threads < 1:
        raise InputError("the number of threads must be at least 1")
    wanted = 0 if count else 2 if unique else models
    started = time.perf_counter()
    if (reason := game.infeasible(parsed)) is not None:
        return Result(
            puzzle=game.name,
            instance=name,
            status=UNSATISFIABLE,
            verdict="none" if unique else None,
            count=0 if count else None,
            count_details=game.count_details(parsed, 0) if count else {},
            reason=reason,
            checked=game.has_checker,
        )
    encoding_path, incmode = _checked_encoding(game, encoding)
    job = Job(
        encoding=str(encoding_path),
        facts=list(game.facts(parsed)),
        program=game.program(parsed),
        program_source=game.program_source(parsed),
        arguments=_arguments(game, threads, clingo_args),
        models=wanted,
        count_only=count,
        timeout=None if timeout is None else _left(timeout, started),
        incremental=game.incremental(parsed),
        parts=game.program_parts(parsed),
        hints=partial(game.hints, parsed),
        neighbourhood=partial(game.neighbourhood, parsed),
        step_bound=game.step_bound(parsed),
    )
    if job.incremental is None and incmode:
        job = replace(job, incremental=incmode_plan(job))
    searches = _searches(job.incremental, plan_search, wanted, threads)
    jobs = [replace(job, **search) for search in searches]
    if portfolio and threads == 1:
        jobs += [
            replace(job, arguments=_arguments(game, threads, clingo_args, extra))
            for extra in game.portfolio(parsed)
        ]
        jobs += _shortcut_jobs(game, job, game.shortcuts(parsed), clingo_args)
    prepared = time.perf_counter() - started
    outcome = _run(jobs, on_progress)
    outcome.stats["facts_time"] = prepared
    outcome.stats["total_time"] = time.perf_counter() - started  # facts included
    if outcome.error:
        message, source = outcome.error
        raise InputError(message, source)
    _check_plan_lengths(game, job.incremental, outcome)
    result = _result(game, parsed, name, outcome, unique=unique, count=count)
    if job.incremental is not None and job.incremental.incmode and result.status == SOLVED:
        result.horizon = outcome.stats.get("horizon")
    return result


def _check_plan_lengths(game: Puzzle[Any, Any], plan: Incremental | None, outcome: Outcome) -> None:
    """A plan shorter than a budget the search refuted is a contradiction: the encoding
    (or a step bound) cut plans that it allows, and the "minimum" would be a guess. The
    checker cannot see it (the plan itself is valid), so it is reported here, the same
    way: an internal error, exit code 4."""
    if plan is None or plan.step_atom is None or not outcome.satisfiable:
        return
    refuted_below = outcome.stats.get("horizon")
    shortest = min((plan_length(plan, atoms) for atoms in outcome.models), default=None)
    if refuted_below is not None and shortest is not None and shortest < refuted_below:
        raise CheckFailed(
            f"a plan of {shortest} step{'' if shortest == 1 else 's'} of '{game.name}' was "
            f"found after every budget below {refuted_below} was refuted (the encoding cut "
            "plans that it allows: a bug)"
        )


def _shortcut_jobs(
    game: Puzzle[Any, Any], job: Job, shortcuts: Sequence[Shortcut[Any]], clingo_args: Sequence[str]
) -> list[Job]:
    """The jobs of shortcut searches (``Puzzle.shortcuts``): each with its own instance's
    facts (built once for shortcuts that share an instance) and program parts, its "none"
    proving nothing, and no hinted answer to start from (its answers are the best there
    are)."""
    facts: dict[int, list[Symbol]] = {}
    jobs = []
    for shortcut in shortcuts:
        variant = shortcut.instance
        if id(variant) not in facts:
            facts[id(variant)] = list(game.facts(variant))
        jobs.append(
            replace(
                job,
                facts=facts[id(variant)],
                program=game.program(variant),
                parts=game.program_parts(variant),
                arguments=_arguments(game, 1, clingo_args, shortcut.arguments),
                answers_only=True,
                answer_cost=shortcut.cost,
                hints=None,
                neighbourhood=None,
            )
        )
    return jobs


# --------------------------------------------------------------------------- helpers
def _left(timeout: float, started: float) -> float:
    """What the limit leaves for grounding and solving once the facts are built (Python
    cannot be interrupted there; a large board's facts take a second or two)."""
    return max(0.001, timeout - (time.perf_counter() - started))


def _searches(
    plan: Incremental | None, plan_search: str, wanted: int, threads: int
) -> list[dict[str, Any]]:
    """Which searches to run, one process each, as changes to the job. Only a puzzle with
    monotone budgets can be searched from the top (and split: its shares report plans);
    only one whose encoding splits can be split (``split`` is run as ``both`` where it
    does not: the default must serve every planning puzzle). Both are for one plan:
    counting plans or deciding uniqueness needs the minimum first, which one climbing
    search finds. Asked for more threads, one climbing search gets them all."""
    if plan_search not in PLAN_SEARCHES:
        raise InputError(f"plan search must be one of {', '.join(PLAN_SEARCHES)}")
    climb: dict[str, Any] = {}
    if plan is None or plan_search == ASCENDING:
        return [climb]
    if wanted != 1 and plan_search == DESCENDING:
        raise InputError(
            "a descending plan search finds one plan: it cannot count plans or decide uniqueness"
        )
    if wanted != 1 or threads > 1 or plan.step_atom is None:
        return [climb]
    descend = {"descending": True}
    if plan_search == DESCENDING:
        return [descend]
    if plan_search == SPLIT and plan.splits:
        return [{"part": (0, 2)}, {"part": (1, 2)}]
    return [climb, descend]


def load_instance(game: Puzzle[Any, Any], reference: str | Path | None) -> tuple[Any, str]:
    """Parse an instance given as a path, a shipped instance name, ``-`` for standard
    input, or inline text."""
    if str(reference) == "-":
        return game.parse(read_stdin(), STDIN), STDIN
    if reference is None or reference == "":
        reference = game.default_instance
        if not reference:
            return game.parse("", "<empty>"), "<empty>"
    path = _instance_path(game.name, str(reference))
    if path is not None:
        return game.parse(read_text_file(path), display_path(path)), path.name
    if game.accepts_inline and not _looks_like_path(str(reference)):
        return _parse_inline(game, str(reference)), _inline_name(str(reference))
    if Path(str(reference)).is_dir():
        raise InputError("is a folder, not an instance file", str(reference))
    raise InputError("no such instance file", str(reference))


def _inline_name(text: str, width: int = 72) -> str:
    """The name an instance given inline goes by in the summary line and JSON: itself,
    cut short when long (a 16x16 board's link runs to a thousand characters), without
    the spaces a paste may bring around it."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def _parse_inline(game: Puzzle[Any, Any], text: str) -> Any:
    """Parse an instance given on the command line; a bare word that fails is more
    likely a mistyped instance name than a broken inline instance, so say both."""
    try:
        return game.parse(text, "<argument>")
    except InputError as error:
        if re.fullmatch(r"[\w.-]+", text):
            raise InputError(
                f"no such instance file or shipped instance (nor, read inline: {error.message})",
                text,
            ) from error
        raise


def _instance_path(puzzle: str, reference: str) -> Path | None:
    direct = named_file(reference)
    if direct is not None:
        return direct
    if "/" in reference:
        return None
    shipped = instance_files(puzzle)
    exact = [path for path in shipped if path.name == reference]
    by_stem = [path for path in shipped if path.stem == reference]
    return next(iter(exact + by_stem), None)


def _looks_like_path(reference: str) -> bool:
    """A reference that names no file is read inline unless it looks like a path; a
    link (``https://...``, a puzzle site's board) is never one."""
    if "://" in reference:
        return False
    return reference.endswith((".txt", ".lp")) or "/" in reference


def resolve_encoding(game: Puzzle[Any, Any], encoding: str | Path | None) -> Path:
    """The encoding file to load, checked here for what would crash clingo's loader."""
    return _checked_encoding(game, encoding)[0]


def _checked_encoding(game: Puzzle[Any, Any], encoding: str | Path | None) -> tuple[Path, bool]:
    """The encoding file (see :func:`resolve_encoding`), and whether it or a file it
    includes asks for clingo's incremental mode (see :func:`incmode_plan`); each file
    is read once."""
    if encoding is not None:
        path = named_file(encoding)
        if path is None:
            raise InputError("no such encoding file", str(encoding))
    else:
        path = find_encoding(game.name)
        if path is None:
            raise InputError(f"no encoding for puzzle '{game.name}'", f"encodings/{game.name}.lp")
    texts = list(program_texts(path))  # reading checks every file clingo will load
    return path, any(includes_incmode(text) for text in texts)


#: The horizon of an incremental program without ``imax``: it grows until an answer,
#: the time limit or Ctrl-C, as clingo's own incremental mode does.
UNBOUNDED = 2**62


def incmode_plan(job: Job) -> Incremental:
    """clingo's incremental mode for an encoding that includes ``<incmode>``.

    The clingo wheel's ``python -m clingo`` does not run that loop in 5.8, and the API
    never does, so without this a potassco-style planning encoding would solve its
    ``base`` part alone. The driver's horizon loop is the same loop: horizon 0 grounds
    ``base`` and ``check(0)``, horizon t adds ``step(t)`` and ``check(t)``, and only
    ``query(t)`` is true. Its constants are read as clingo reads them (encoding,
    instance or ``-c``): ``imax`` caps the number of horizons (0 .. imax-1, so an
    instance without answers within it is unsatisfiable), ``imin`` makes the search
    go on to horizon imin-1 at least, and ``istop`` must be ``SAT`` (stop at the first
    horizon with an answer), the default and the only reading of "solved" here."""
    messages: list[str] = []
    try:
        control = _loaded_control(job, messages)
    except RuntimeError:  # the run itself reports the error, with its place
        return Incremental(max_steps=UNBOUNDED, first_step=0, incmode=True)
    source = display_path(Path(job.encoding))
    imin = _count_constant(control, "imin", 0, source)
    imax = _count_constant(control, "imax", None, source)
    istop = control.get_const("istop")
    if istop is not None and str(istop).strip('"') != "SAT":
        message = (
            f"istop={istop} is not supported: the search stops at the first horizon "
            "with an answer (istop=SAT)"
        )
        raise InputError(message, source)
    if imax == 0:
        raise InputError("imax=0 allows no horizon at all: give imax 1 or more", source)
    last = UNBOUNDED if imax is None else imax - 1
    return Incremental(max_steps=last, first_step=min(max(0, imin - 1), last), incmode=True)


def _count_constant(control: Control, name: str, default: int | None, source: str) -> int | None:
    """An incremental-mode constant that counts horizons (``imin``, ``imax``)."""
    value = control.get_const(name)
    if value is None:
        return default
    if value.type != clingo.SymbolType.Number or value.number < 0:
        raise InputError(f"{name} must be a whole number of horizons, not {value}", source)
    return value.number


def _arguments(
    game: Puzzle[Any, Any], threads: int, clingo_args: Sequence[str], extra: Sequence[str] = ()
) -> list[str]:
    """The puzzle's tuned options (or a portfolio entry's ``extra`` ones), unless the user
    passes the same option; then threads and the user's own options."""
    _check_constants(clingo_args)
    overridden = {arg.split("=", 1)[0] for arg in clingo_args}
    if threads > 1:
        overridden.add("--parallel-mode")
    tuned = [*game.clingo_options, *extra]
    arguments = [arg for arg in tuned if arg.split("=", 1)[0] not in overridden]
    if threads > 1:
        arguments.append(f"--parallel-mode={threads}")
    return [*arguments, *clingo_args]


def _check_constants(clingo_args: Sequence[str]) -> None:
    """A constant's definition (``-c name=value``) goes through clingo's lexer, which
    would abort the process on a character outside ASCII (see ``check_characters``)."""
    for before, arg in zip(["", *clingo_args], clingo_args, strict=False):
        if before in ("-c", "--const"):
            definition = arg
        elif arg.startswith("--const="):
            definition = arg.removeprefix("--const=")
        elif arg.startswith("-c") and "=" in arg:
            definition = arg.removeprefix("-c")
        else:
            continue
        if found := foreign_character(definition):
            where = f"holds the character {character_text(found[2])} outside a string or comment"
            raise InputError(f"the constant '{definition}' {where}", "--clingo")


def fact_program(game: Puzzle[Any, Any], parsed: Any) -> str:
    """The complete fact program of an instance, for ``python -m clingo`` experiments.
    clingo's command line grounds the ``base`` part only (and the pip wheel runs no
    embedded scripts), so an instance that needs more parts (``Puzzle.program_parts``)
    says so in a closing comment."""
    facts = "".join(f"{symbol}.\n" for symbol in game.facts(parsed))
    parts = game.program_parts(parsed)
    if parts == ("base",):
        return facts + game.program(parsed)
    listed = ", ".join(f'("{part}", [])' for part in parts)
    note = (
        f"% This instance needs the encoding's parts {', '.join(parts)}; clingo's command line "
        f"grounds base only.\n% From Python: control.ground([{listed}]), then solve.\n"
    )
    return facts + game.program(parsed) + note


# ----------------------------------------------------------------------- clingo runs
def _make_control(job: Job, messages: list[str]) -> Control:
    def route(code: clingo.MessageCode, message: str) -> None:
        text = message.strip()
        if code == clingo.MessageCode.RuntimeError:
            messages.append(text)
            clingo_log.debug(text)
        elif code == clingo.MessageCode.AtomUndefined:
            clingo_log.info(_user_places(clingo_message(text), job.program_source))
        else:
            clingo_log.warning(_user_places(clingo_message(text), job.program_source))

    try:
        arguments = [f"--models={job.models}", *job.clingo_arguments()]
        return Control(arguments, logger=route, message_limit=100)
    except RuntimeError as error:
        raise InputError(f"bad clingo option: {messages[-1] if messages else error}") from None


def _ignore(_kind: str, _value: Any) -> None:
    pass


def run_job(job: Job, report: Reporter = _ignore) -> Outcome:
    """Ground and solve in this process; the time limit covers solving only."""
    messages: list[str] = []
    started = time.perf_counter()
    deadline = None if job.timeout is None else started + job.timeout
    try:
        control = _loaded_control(job, messages)
    except RuntimeError as error:
        return Outcome(error=(_clingo_error(messages, error, job.program_source), None))
    except InputError as error:
        return Outcome(error=(str(error), None))
    outcome = Outcome()
    bound = None
    if job.step_bound is not None and job.incremental is not None:
        bound = StepBoundPropagator(job.step_bound)
        control.register_propagator(bound)
    report("phase", "grounding")
    try:
        if job.incremental is None:
            optimization = _OptimizationSeen()
            control.register_observer(optimization)
            control.ground([(part, []) for part in job.parts])
            outcome.stats["ground_time"] = time.perf_counter() - started
            report("phase", "solving")
            mode = _optimization_mode(control, job) if optimization.seen else None
            _solve_program(control, job, outcome, deadline, report, mode)
        elif job.descending:
            _solve_descending(control, job, outcome, deadline, report)
        else:
            _solve_ascending(control, job, outcome, deadline, report)
    except RuntimeError as error:
        return Outcome(error=(_clingo_error(messages, error, job.program_source), None))
    except KeyboardInterrupt:  # grounding: clingo 5.8 cannot stop it, Python stops after
        outcome.interrupt("grounding")
    if "solve_time" in outcome.stats:  # clingo's statistics are garbage before a solve
        outcome.stats.update(_statistics(control))
    if bound is not None:
        outcome.stats.update(_bound_statistics(bound))
    if job.answer_cost is not None and outcome.count:
        outcome.cost, outcome.optimal = list(job.answer_cost), True  # see Shortcut
    return outcome


def _bound_statistics(bound: StepBoundPropagator) -> dict[str, int]:
    """What the puzzle's step bound did: the propagator's counts, and the bound's own."""
    own = bound.bound.statistics() if bound.bound.statistics is not None else {}
    return {"bound_checks": bound.checked, "bound_cuts": bound.cut, **own}


def _loaded_control(job: Job, messages: list[str]) -> Control:
    """A Control with the job's options, encoding and instance, not yet grounded."""
    control = _make_control(job, messages)
    control.load(job.encoding)
    _add_instance(control, job)
    return control


def _add_instance(control: Control, job: Job) -> None:
    """Instance facts go in through the backend before grounding, as clingo intends."""
    if job.facts:
        with SymbolicBackend(control.backend()) as backend:
            for fact in job.facts:
                backend.add_rule([fact])
    if job.program:
        control.add("base", [], job.program)


def _solve_once(
    control: Control,
    job: Job,
    outcome: Outcome,
    deadline: float | None,
    assumptions: Sequence[tuple[Symbol, bool]] = (),
    cut_off: Symbol | None = None,
    heartbeat: Callable[[], None] | None = None,
    optimizing: str | None = None,
) -> bool:
    """Solve, collecting models into ``outcome``. False when an answer set holds the atom
    ``cut_off``: the search stops there and this call's models are dropped (the caller
    grows the horizon and solves again). ``heartbeat`` is called every ``TICK`` seconds
    while the search runs. ``optimizing`` is clingo's ``--opt-mode`` for a program
    with an objective (see ``_optimization_mode``): only the best answer so far, or
    only answers proved optimal, are kept."""
    solve_started = time.perf_counter()
    was_cut_off = False
    best: list[str] = []  # optN: the best answer before an optimum is proved

    def on_model(model: clingo.Model) -> bool:
        nonlocal was_cut_off, best
        if cut_off is not None and model.contains(cut_off):
            was_cut_off = True
            return False
        atoms = [] if job.count_only else [str(symbol) for symbol in model.symbols(shown=True)]
        if optimizing is not None:
            outcome.cost = list(model.cost)
            if optimizing == "opt":  # each answer improves on the last: keep one
                outcome.count, outcome.models = 1, [atoms]
                return True
            if not model.optimality_proven:  # optN, still improving
                best = atoms
                return True
            outcome.optimal = True
        outcome.count += 1
        if not job.count_only:
            outcome.models.append(atoms)
        return True

    with control.solve(on_model=on_model, async_=True, assumptions=list(assumptions)) as handle:
        _wait(handle, outcome, deadline, heartbeat)
        result = handle.get()
    _add_effort(control, outcome)
    if optimizing is not None:
        _settle_optimum(outcome, optimizing, result.exhausted, best)
    outcome.satisfiable = True if result.satisfiable else False if result.unsatisfiable else None
    outcome.stats["solve_time"] = outcome.stats.get("solve_time", 0.0) + (
        time.perf_counter() - solve_started
    )
    if was_cut_off:
        outcome.count, outcome.models, outcome.satisfiable = 0, [], None
    return not was_cut_off


def _solve_program(
    control: Control,
    job: Job,
    outcome: Outcome,
    deadline: float | None,
    report: Reporter,
    mode: str | None,
) -> None:
    """Solve a grounded program without a horizon; a search for one optimal answer
    starts from the puzzle's hinted answer, if it has one, and improves it in rounds
    around it before the complete search."""
    start = _start_from_hints(control, job, outcome, deadline) if mode == "opt" else None
    if start is not None and job.neighbourhood is not None and outcome.timeout_phase is None:
        _improve_around(control, job.neighbourhood, outcome, deadline, start)
    if outcome.timeout_phase is not None:  # stopped (or interrupted) around the hint
        _settle_optimum(outcome, "opt", exhausted=False, best=[])
        return
    _solve_once(
        control,
        job,
        outcome,
        deadline,
        heartbeat=lambda: report("tick", outcome.count),
        optimizing=mode,
    )
    if start is not None and outcome.satisfiable is False:  # nothing cheaper was found
        outcome.satisfiable = True


def _start_from_hints(
    control: Control, job: Job, outcome: Outcome, deadline: float | None
) -> list[Symbol] | None:
    """A first answer for a search with an objective, from the puzzle's hints: clingo
    completes them by propagation under assumptions (giving up after
    ``SCOUT_CONFLICTS`` conflicts if they lead nowhere). The answer goes into
    ``outcome``, and the search proper is bounded to strictly cheaper answers, so that
    finishing without one proves it optimal. Returns the answer's atoms, or None.

    Why: on a large board clasp's own first answers are poor (Eternity II in score mode:
    233 of 480 edges matching after 60 s, where a greedy placement in Python matches 398).
    Not for core-guided optimization (``--opt-strategy=usc``), which proves its bound
    from below and is slowed by a first call under assumptions (a 7x7 tiles board two
    edges from perfect: 22 s against 9 s without it)."""
    if any(argument.startswith("--opt-strategy=usc") for argument in job.arguments):
        return None
    hints = job.hints() if job.hints else []
    if not hints:
        return None
    found = _solve_around(control, outcome, deadline, hints)
    if found is not None:
        _keep_answer(control, outcome, *found)
    return None if found is None else found[0]


def _improve_around(
    control: Control,
    neighbourhood: Callable[[Sequence[Symbol], random.Random], list[Symbol]],
    outcome: Outcome,
    deadline: float | None,
    atoms: list[Symbol],
) -> None:
    """A large-neighbourhood search from the answer in ``outcome`` (as Potassco's
    clingo-lns does it): each round keeps most of the best answer's atoms (the
    puzzle's ``neighbourhood``, drawn at random, seeded) under assumptions and lets
    clingo search the rest for a cheaper answer, for at most ``SCOUT_CONFLICTS``
    conflicts. It stops when it has gone without a better answer for twice as many
    rounds as it took to find the last one (and at least ``LNS_PATIENCE``), or at the
    limit; the complete search then goes on from the best answer.

    Why: on a large board the complete search finds nothing cheaper than a good start
    for minutes (the META 2010 10x10 in tiles' score mode: 32 mismatches after the
    greedy start, still 32 after 30 s), where re-solving ten cells at a time finds
    cheaper ones (24-29 in 30 s, as the seed of the draws goes)."""
    rng = random.Random(LNS_SEED)
    rounds = last_better = 0
    while rounds - last_better < max(LNS_PATIENCE, 2 * last_better):
        if outcome.timeout_phase is not None:  # the limit, or Ctrl-C
            break
        kept = neighbourhood(atoms, rng)
        if not kept:
            return
        rounds += 1
        found = _solve_around(control, outcome, deadline, kept)
        if found is not None:
            atoms, last_better = found[0], rounds
            _keep_answer(control, outcome, *found)
    outcome.stats["lns_rounds"] = rounds


#: A large-neighbourhood search goes on for at least this many rounds without a better
#: answer (see ``_improve_around``).
LNS_PATIENCE = 200
#: Its neighbourhoods are drawn at random from this seed, so a run can be repeated.
LNS_SEED = 1


def _solve_around(
    control: Control, outcome: Outcome, deadline: float | None, atoms: list[Symbol]
) -> tuple[list[Symbol], list[int]] | None:
    """The last answer (its shown atoms and cost) of one solve call with ``atoms``
    assumed true, cut off after ``SCOUT_CONFLICTS`` conflicts; None if it found none.
    A user's own ``--solve-limit`` is restored afterwards."""
    found: list[tuple[list[Symbol], list[int]]] = []

    def on_model(model: clingo.Model) -> None:
        found.append((model.symbols(shown=True), list(model.cost)))

    configuration = control.configuration.solve
    limit, configuration.solve_limit = configuration.solve_limit, str(SCOUT_CONFLICTS)
    assumptions = [(atom, True) for atom in atoms]
    with control.solve(on_model=on_model, async_=True, assumptions=assumptions) as handle:
        _wait(handle, outcome, deadline)
    configuration.solve_limit = limit
    _add_effort(control, outcome)
    return found[-1] if found else None


def _keep_answer(control: Control, outcome: Outcome, atoms: list[Symbol], cost: list[int]) -> None:
    """Keep an answer found under assumptions as the best so far, and bound the search
    to strictly cheaper ones."""
    outcome.models, outcome.count, outcome.cost = [[str(atom) for atom in atoms]], 1, cost
    bound = [*cost[:-1], cost[-1] - 1]  # lexicographically below this cost
    control.configuration.solve.opt_mode = "opt," + ",".join(map(str, bound))


class _OptimizationSeen:
    """A ground program observer that notes a ``#minimize``/``#maximize`` statement (or
    weak constraint): such a program asks for the best answers, not for any answer."""

    def __init__(self) -> None:
        self.seen = False

    def minimize(self, priority: int, literals: Sequence[tuple[int, int]]) -> None:
        self.seen = True


def _optimization_mode(control: Control, job: Job) -> str | None:
    """Set clingo up to answer what was asked of a program with an objective: one answer
    (the default) is the optimum (``opt``, every improving answer on the way, the
    last kept); several, all, a count or a uniqueness verdict are about the optimal
    answers (``optN``, answers proved optimal only). A user's own ``--opt-mode`` is
    left alone (None: answers are taken as clingo gives them)."""
    if any(argument.startswith("--opt-mode") for argument in job.arguments):
        return None
    mode = "opt" if job.models == 1 else "optN"
    control.configuration.solve.opt_mode = mode
    control.configuration.solve.models = 0 if mode == "opt" else job.models
    return mode


def _settle_optimum(outcome: Outcome, mode: str, exhausted: bool, best: list[str]) -> None:
    """After an optimizing search: a finished ``opt`` search proved its last answer
    optimal; an ``optN`` search stopped before it proved any keeps its best answer so
    far. An answer not proved optimal says so in ``progress``."""
    if mode == "opt" and exhausted and outcome.models:
        outcome.optimal = True
    if mode == "optN" and not outcome.count and best and outcome.timeout_phase:
        outcome.models, outcome.count = [best], 1
    if outcome.cost is not None and not outcome.optimal and outcome.timeout_phase:
        outcome.progress = f"best found: cost {cost_text(outcome.cost)}, not proved optimal"


def cost_text(cost: Sequence[int]) -> str:
    """A cost as clingo reports it: one number, or one per priority level, highest first."""
    return str(cost[0]) if len(cost) == 1 else "[" + ", ".join(map(str, cost)) + "]"


#: How long one wait on a running search lasts: Python sees Ctrl-C only between waits.
WAIT_SLICE = 0.1


def _wait(
    handle: clingo.SolveHandle,
    outcome: Outcome,
    deadline: float | None,
    heartbeat: Callable[[], None] | None = None,
) -> None:
    """Wait for the search to finish, the deadline to pass (the search is cancelled)
    or Ctrl-C, which cancels it the same way: a long search stopped by hand still
    reports what it found."""
    beat = time.perf_counter()
    try:
        while not handle.wait(WAIT_SLICE if deadline is None else _slice(deadline)):
            now = time.perf_counter()
            if deadline is not None and now >= deadline:
                handle.cancel()
                outcome.timeout_phase = "solving"
                return
            if heartbeat is not None and now - beat >= TICK:
                heartbeat()
                beat = now
    except KeyboardInterrupt:
        handle.cancel()  # a search that has just finished keeps its answer
        outcome.interrupt("solving")


def _slice(deadline: float) -> float:
    return max(0.0, min(WAIT_SLICE, deadline - time.perf_counter()))


@dataclass
class _Horizon:
    """The parts of a planning encoding grounded so far, as clingo's ``inc.py`` grows
    them: steps up to the largest budget set, and ticks (if the encoding has them) only
    while an answer set is cut off by the last one."""

    control: Control
    plan: Incremental
    report: Reporter
    steps: int = 0
    ticks: int = 0
    ground_time: float = 0.0
    #: Notes an objective as steps are grounded: the answer at a horizon is then its best.
    objective: _OptimizationSeen = field(default_factory=_OptimizationSeen)

    def __post_init__(self) -> None:
        self.control.register_observer(self.objective)
        if self.plan.incmode:
            # Horizon 0 has a check(0) of its own to ground, and the query is declared
            # as clingo's <incmode> declares it (the API's <incmode> adds nothing).
            self.steps = -1
            self.control.add("check", ["t"], "#external query(t).")

    def ground(self, parts: list[tuple[str, Sequence[Symbol]]]) -> None:
        self.report("phase", "grounding")
        started = time.perf_counter()
        self.control.ground(parts)
        self.ground_time += time.perf_counter() - started

    def set_budget(self, step: int, previous: int | None) -> None:
        """Ground the steps up to ``step`` and make ``query(step)`` the only query."""
        for number in range(self.steps + 1, step + 1):
            check = ("check", [clingo.Number(number)])
            self.ground([("step", [clingo.Number(number)]), check] if number else [check])
        self.steps = max(self.steps, step)
        if previous is not None:
            self.control.release_external(clingo.Function("query", [clingo.Number(previous)]))
        self.control.assign_external(clingo.Function("query", [clingo.Number(step)]), True)

    def solve(
        self,
        job: Job,
        outcome: Outcome,
        deadline: float | None,
        step: int,
        assumptions: Sequence[tuple[Symbol, bool]] = (),
    ) -> None:
        """Solve under budget ``step``, starting with a tick per step and grounding one
        more tick while an answer set is open at the last one."""
        wanted = max(self.ticks, min(step, self.plan.max_ticks))
        while True:
            for tick in range(self.ticks + 1, wanted + 1):
                self.ground([("tick", [clingo.Number(tick)])])
            self.ticks = wanted
            last = self.ticks == self.plan.max_ticks
            cut_off = None if last else clingo.Function("open", [clingo.Number(self.ticks)])
            self.report("phase", "solving")
            mode = _optimization_mode(self.control, job) if self.objective.seen else None
            finished = _solve_once(
                self.control,
                job,
                outcome,
                deadline,
                assumptions,
                cut_off=cut_off,
                heartbeat=self._beat,
                optimizing=mode,
            )
            if finished or outcome.timeout_phase:  # a search stopped is not grown further
                return
            wanted = self.ticks + 1

    def _beat(self) -> None:
        self.report("tick", None)

    def finish(self, outcome: Outcome) -> None:
        outcome.stats["ground_time"] = self.ground_time
        if self.plan.max_ticks:
            outcome.stats["ticks"] = self.ticks
        if not outcome.satisfiable and outcome.timeout_phase is None:
            outcome.satisfiable = False


def _solve_ascending(
    control: Control, job: Job, outcome: Outcome, deadline: float | None, report: Reporter
) -> None:
    """Budgets 1, 2, ...: the first one with an answer set is the minimum, and each one
    refuted is reported at once as a proved lower bound."""
    plan = job.incremental
    assert plan is not None
    horizon = _Horizon(control, plan, report)
    step = plan.first_step
    try:
        if job.part is not None and job.part[0] == 0:
            # The first share bounds the minimum from above before it climbs: the shares
            # then stop once both have refuted the budget below the hinted plan.
            _scouted_plan(replace(job, part=None), outcome, deadline, report)
        if outcome.timeout_phase is None:  # the scout may have used up the time
            horizon.ground([("base", [])])
            for step in range(plan.first_step, plan.max_steps + 1):
                report("lower", step)  # every budget below step is refuted
                horizon.set_budget(step, step - 1 if step > plan.first_step else None)
                outcome.stats["horizon"] = step
                horizon.solve(job, outcome, deadline, step)
                if outcome.satisfiable or outcome.timeout_phase:
                    break
    except KeyboardInterrupt:  # while grounding (a search stops itself: see _wait)
        outcome.interrupt("grounding")
    if outcome.timeout_phase and outcome.satisfiable is False:
        # The search refuted its budget just as it was stopped: that budget is proved
        # (and if it was the last, so is the whole answer), not the plan's absence.
        if step == plan.max_steps:
            outcome.timeout_phase = None
        else:
            step, outcome.satisfiable = step + 1, None
    if outcome.timeout_phase and not outcome.satisfiable:
        outcome.progress = progress_text(plan, step)
    horizon.finish(outcome)


def _solve_descending(
    control: Control, job: Job, outcome: Outcome, deadline: float | None, report: Reporter
) -> None:
    """From the largest budget down: each plan found is reported as an upper bound, and
    the next budget is one step shorter than that plan. The first budget refuted proves
    the shortest plan minimal (budgets are monotone: see ``Incremental.step_atom``).
    The puzzle's hinted plan, if any, is reported first (see `_scout`)."""
    plan = job.incremental
    assert plan is not None and plan.step_atom is not None
    horizon = _Horizon(control, plan, report)
    best: list[str] = []
    length: int | None = None  # of the best plan
    try:
        best = _scouted_plan(job, outcome, deadline, report)
        length = plan_length(plan, best) if best else None
        if outcome.timeout_phase is None:  # the scout may have used up the time
            horizon.ground([("base", [])])
        budget, previous = plan.max_steps, None
        while budget >= plan.first_step and outcome.timeout_phase is None:
            horizon.set_budget(budget, previous)
            outcome.stats["horizon"] = budget
            outcome.models, outcome.count = [], 0
            horizon.solve(job, outcome, deadline, budget)
            if not outcome.satisfiable:
                break
            found = outcome.models[0]
            previous, budget = budget, plan_length(plan, found) - 1
            if length is None or budget < length:
                best, length = found, budget + 1
                report("plan", (length, best))
    except KeyboardInterrupt:  # while grounding (a search stops itself: see _wait)
        outcome.interrupt("grounding")
    if best and outcome.satisfiable is False:  # refuted below the plan, even if stopped then
        outcome.timeout_phase = None
    outcome.models, outcome.count = ([best], 1) if best else ([], 0)
    if best and outcome.timeout_phase is None:
        outcome.satisfiable = True  # the budget below the last plan was refuted
    if outcome.timeout_phase:
        outcome.progress = progress_text(plan, plan.first_step, length)
    horizon.finish(outcome)


#: Conflicts a scout may spend on its hinted plan: a plan the encoding accepts costs
#: none (propagation completes it), so more means the hint is off and the scout gives up.
#: The same limit holds for completing a hinted answer and for each round around it.
SCOUT_CONFLICTS = 1000


def _scouted_plan(
    job: Job, outcome: Outcome, deadline: float | None, report: Reporter
) -> list[str]:
    """The scout's plan (see `_scout`), reported at once as an upper bound."""
    best = _scout(job, outcome, deadline)
    if best:
        assert job.incremental is not None
        report("plan", (plan_length(job.incremental, best), best))
    return best


def _scout(job: Job, outcome: Outcome, deadline: float | None) -> list[str]:
    """The plan the puzzle's hints name, completed by clingo under the largest budget
    with the hinted atoms assumed true; [] without hints or if they lead nowhere.

    It runs in a Control of its own, because a search that is handed a short plan
    learns less on its way down than one that finds its own plans (the harpy's budget
    9 took 4,720 conflicts after a hinted plan, 150 after its own plans of 11 and 10
    moves): the search proper runs as if there were no hint, and the hint only bounds
    the minimum from above at once."""
    plan = job.incremental
    hints = job.hints() if job.hints else []
    if not hints or plan is None:
        return []
    control = _loaded_control(job, [])
    control.configuration.solve.solve_limit = str(SCOUT_CONFLICTS)
    horizon = _Horizon(control, plan, _ignore)
    horizon.ground([("base", [])])
    horizon.set_budget(plan.max_steps, None)
    scout = Outcome()
    horizon.solve(job, scout, deadline, plan.max_steps, [(atom, True) for atom in hints])
    outcome.timeout_phase, outcome.interrupted = scout.timeout_phase, scout.interrupted
    return scout.models[0] if scout.satisfiable and scout.models else []


def _user_places(message: str, program_source: str | None) -> str:
    """clingo's places as the user names the files: relative to the working folder
    (clingo names an encoding by the absolute path it was loaded from), and the
    instance's file for the program text it was given (``<block>``)."""
    message = message.replace(f"{Path.cwd()}/", "")
    if program_source is not None:
        message = message.replace("<block>:", f"{program_source}:")
    return message


def _clingo_error(messages: list[str], error: RuntimeError, program_source: str | None) -> str:
    """clingo's own message, on one line and placed as ours are (``file:line:col: ...``):
    the first it logged, or else the error's own text (``#script`` blocks fail without
    logging: ``python support not available``), its places as the user names them."""
    text = messages[0] if messages else str(error).strip()
    if not text:
        return "clingo failed"
    message = _user_places(clingo_message(text), program_source)
    if "support not available" in message:  # the clingo wheel has no script languages
        message += (
            " (the clingo package from PyPI runs no #script code: give its results as "
            "facts, or compute them in a puzzle module)"
        )
    return message


def _statistics(control: Control) -> dict[str, Any]:
    """The program's size as last grounded (the search's effort is summed by
    `_add_effort` after every solve call)."""
    lp = _clingo_statistics(control).get("problem", {}).get("lp", {})
    return {"atoms": int(lp.get("atoms", 0)), "rules": int(lp.get("rules", 0))}


def _clingo_statistics(control: Control) -> dict[str, Any]:
    """clingo's statistics, or none: after Ctrl-C has stopped a grounding or a solve
    call at the wrong moment, clingo has none to give ("statistics not (yet)
    available"), and a run stopped by hand must still report what it proved."""
    try:
        return control.statistics
    except RuntimeError:
        return {}


def _add_effort(control: Control, outcome: Outcome) -> None:
    """Add one solve call's choices, conflicts and clingo time to the outcome's: a
    growing horizon solves many times, and clingo's statistics (without ``--stats``,
    which would cost every search) hold the last call only, which would hide most of
    the work."""
    stats = _clingo_statistics(control)
    solvers = stats.get("solving", {}).get("solvers", {})
    effort = {
        "choices": int(solvers.get("choices", 0)),
        "conflicts": int(solvers.get("conflicts", 0)),
        "clingo_total_time": stats.get("summary", {}).get("times", {}).get("total", 0.0),
    }
    for key, value in effort.items():
        outcome.stats[key] = outcome.stats.get(key, 0) + value


def _run(jobs: list[Job], on_progress: Progress | None = None) -> Outcome:
    """One search without a time limit runs here; anything else in forked workers (a
    limit must hold during grounding, and two searches of one plan run side by side)."""
    forkable = "fork" in multiprocessing.get_all_start_methods()
    if not forkable:
        job = replace(jobs[0], part=None)  # a share alone would miss plans
        return run_job(job, _reporter(job.incremental, on_progress))
    if len(jobs) == 1 and jobs[0].timeout is None:
        return run_job(jobs[0], _reporter(jobs[0].incremental, on_progress))
    return run_in_workers(jobs, run_job, on_progress)


def _reporter(plan: Incremental | None, on_progress: Progress | None) -> Reporter:
    """A search in this process, reporting to ``on_progress`` as the workers' parent
    does: for a plan, what its bounds prove, each time they move; for any other search,
    its phase and the answers found so far, every ``TICK`` seconds."""
    if on_progress is None:
        return _ignore
    tell = on_progress
    if plan is None:
        phase = "loading"

        def beat(kind: str, value: Any) -> None:
            nonlocal phase
            if kind == "phase":
                phase = value
            elif kind == "tick":
                tell(search_text(phase, value or 0))

        return beat
    bounds = Bounds(plan)

    def report(kind: str, value: Any) -> None:
        if kind in ("lower", "plan", "tick"):
            bounds.take(kind, value)
            tell(bounds.text())

    return report


# ------------------------------------------------------------------------ decoding
def _result(
    game: Puzzle[Any, Any],
    parsed: Any,
    name: str,
    outcome: Outcome,
    *,
    unique: bool,
    count: bool,
) -> Result:
    solutions = [] if count else [_checked(game, parsed, atoms) for atoms in outcome.models]
    complete = outcome.timeout_phase is None
    if outcome.count or solutions:
        status = SOLVED
    elif outcome.satisfiable is False:
        status = UNSATISFIABLE
    else:
        status = TIMEOUT
    if not complete and status == SOLVED and (unique or count):
        status = TIMEOUT  # the question asked (verdict, count) has no answer yet
    if not complete and outcome.progress and solutions:
        # The shortest plan is not known yet; a plan found on the way is shown as such.
        status = TIMEOUT
        solutions = [replace(s, data=game.unproved(s.data)) for s in solutions]
    if outcome.interrupted and status == TIMEOUT:
        status = INTERRUPTED
    verdict = None
    if unique and complete:
        verdict = {0: "none", 1: "unique"}.get(len(solutions), "multiple")
    if unique and not complete and len(solutions) >= 2:
        verdict, status = "multiple", SOLVED
    outcome.stats["models"] = outcome.count
    return Result(
        puzzle=game.name,
        instance=name,
        status=status,
        solutions=solutions[:1] if unique else solutions,
        verdict=verdict,
        count=outcome.count if count else None,
        count_details=game.count_details(parsed, outcome.count) if count and complete else {},
        complete=complete,
        timeout_phase=outcome.timeout_phase,
        stats=_rounded(outcome.stats),
        checked=game.has_checker,
        progress=outcome.progress,
        interrupted=outcome.interrupted,
        cost=outcome.cost,
        optimal=outcome.optimal,
    )


def _checked(
    game: Puzzle[Any, Any], parsed: Any, atoms: list[str], symbols: list[Symbol] | None = None
) -> Solution:
    if symbols is None:
        symbols = [clingo.parse_term(atom) for atom in atoms]
    data = game.decode(parsed, symbols)
    problems = game.check(parsed, data)
    if problems:
        raise CheckFailed(
            f"the checker rejected an answer set of '{game.name}' (encoding and checker "
            f"disagree): {'; '.join(problems[:3])}"
        )
    return Solution(game, parsed, data, atoms)


def check_solution(
    game: Puzzle[Any, Any], parsed: Any, text: str, source: str
) -> tuple[list[str], Solution | None]:
    """A person's solution through the same checker as the solver's: the problems found,
    and the solution (for showing) when there are none."""
    data = game.parse_solution(parsed, text, source)
    problems = game.check(parsed, data)
    return problems, None if problems else Solution(game, parsed, data)


def _rounded(stats: dict[str, Any]) -> dict[str, Any]:
    return {
        key: round(value, 6) if isinstance(value, float) else value for key, value in stats.items()
    }


# ------------------------------------------------------------------ many variants
class Session:
    """Ground once, then solve many variants of one instance under assumptions.

    The encoding declares the atoms that vary as ``#external``; each call assigns them
    through assumptions (true or false), so a batch of thousands of variants costs one
    grounding (clingo's multi-shot solving, as in its examples).
    """

    def __init__(
        self,
        game: Puzzle[Any, Any],
        parsed: Any,
        clingo_args: Sequence[str] = (),
        encoding: str | Path | None = None,
    ) -> None:
        self.game = game
        job = Job(
            encoding=str(resolve_encoding(game, encoding)),
            facts=list(game.facts(parsed)),
            program=game.program(parsed),
            arguments=_arguments(game, 1, clingo_args),
            models=1,
            count_only=False,
            timeout=None,
            incremental=None,
        )
        messages: list[str] = []
        try:
            self.control = _loaded_control(job, messages)
            self.control.ground([("base", [])])
        except RuntimeError as error:
            raise InputError(_clingo_error(messages, error, job.program_source)) from None
        # Externals are false until assigned; set them free so assumptions decide them.
        for atom in self.control.symbolic_atoms:
            if atom.is_external:
                self.control.assign_external(atom.symbol, None)

    def first(self, variant: Any, assumptions: Sequence[tuple[Symbol, bool]]) -> Solution | None:
        """The first solution of a variant (checked against it), or None if it has none."""
        found = self.solutions(variant, assumptions, models=1)
        return found[0] if found else None

    def solutions(
        self, variant: Any, assumptions: Sequence[tuple[Symbol, bool]], models: int = 1
    ) -> list[Solution]:
        """Up to ``models`` solutions of a variant (0 for all), each checked against it."""
        self.control.configuration.solve.models = models  # type: ignore[union-attr]
        shown: list[list[Symbol]] = []
        self.control.solve(
            assumptions=list(assumptions),
            on_model=lambda model: shown.append(model.symbols(shown=True)),
        )
        return [_checked(self.game, variant, [], symbols) for symbols in shown]
