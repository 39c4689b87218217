"""clingo's Control as the driver uses it: options, loading, facts through the backend,
one solve call under a deadline and Ctrl-C, and the statistics gathered from it."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import clingo
from clingo import Control, Symbol
from clingo.backend import Observer

from ..asp import character_text, foreign_character
from ..errors import InputError, clingo_message
from ..logs import DEBUG, INFO, enabled, logger
from ..puzzle import Puzzle
from . import results
from .guard import stop_asked
from .jobs import (
    TICK,
    Job,
    Outcome,
)


def solver_arguments(
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


def new_control(
    arguments: Sequence[str],
    messages: list[str],
    program_source: str | None = None,
    warnings: bool = True,
) -> Control:
    """The one way the driver makes clingo's Control: clingo's messages routed to the
    ``aspuzzles.clingo`` logger with the user's file names (``program_source`` names
    the instance's program text), its errors kept in ``messages`` for the one-line
    report; a bad option is an InputError. Without ``warnings``, clingo's warnings go
    to the debug log only: a Control that asks questions of its own (the reasoner's
    cautious enumerations, stopped early on purpose) would warn of its own doing."""

    def route(code: clingo.MessageCode, message: str) -> None:
        text = message.strip()
        if code == clingo.MessageCode.RuntimeError:
            messages.append(text)
        if code == clingo.MessageCode.RuntimeError or not warnings:
            if enabled(DEBUG):
                logger("aspuzzles.clingo").debug(text)
        elif code == clingo.MessageCode.AtomUndefined:
            if enabled(INFO):
                logger("aspuzzles.clingo").info(user_places(clingo_message(text), program_source))
        else:
            logger("aspuzzles.clingo").warning(user_places(clingo_message(text), program_source))

    try:
        return Control(list(arguments), logger=route, message_limit=100)
    except RuntimeError as error:
        raise InputError(f"bad clingo option: {messages[-1] if messages else error}") from None


def make_control(job: Job, messages: list[str]) -> Control:
    """A job's Control: its options and the number of models it asks for."""
    arguments = [f"--models={job.models}", *job.clingo_arguments()]
    return new_control(arguments, messages, job.program_source)


def ignore(_kind: str, _value: Any) -> None:
    pass


def loaded_control(job: Job, messages: list[str]) -> Control:
    """A Control with the job's options, encoding and instance, not yet grounded. The
    facts go in before the encoding: opening the backend makes clingo check the
    program read so far, and with the encoding read it would report every shown
    signature as occurring nowhere (``-v``); facts first, it reports only what is
    really undefined once everything is grounded."""
    control = make_control(job, messages)
    add_facts(control, job.instance_facts())
    control.load(job.encoding)
    if job.program:
        control.add("base", [], job.program)
    return control


def add_facts(
    control: Control,
    facts: Sequence[Symbol],
    choices: Sequence[Symbol] = (),
    externals: Sequence[Symbol] = (),
) -> None:
    """The one way facts reach clingo: through its backend, before grounding, as clingo
    intends; an atom and a rule each (clingox's symbolic backend does the same with
    more calls in Python per fact, which a board of a thousand facts feels).
    ``choices`` are atoms left free to be true or false (a clue an explanation may
    drop, assumed true otherwise); ``externals`` are free externals."""
    if not (facts or choices or externals):
        return
    with control.backend() as backend:
        for fact in facts:
            backend.add_rule([backend.add_atom(fact)])
        for choice in choices:
            backend.add_rule([backend.add_atom(choice)], choice=True)
        for external in externals:
            backend.add_external(backend.add_atom(external), clingo.TruthValue.Free)


def solve_once(
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
    with an objective (see ``optimization_mode``): only the best answer so far, or
    only answers proved optimal, are kept."""
    solve_started = time.perf_counter()
    was_cut_off = False
    best: list[str] = []  # optN: the best answer before an optimum is proved

    def on_model(model: clingo.Model) -> bool:
        nonlocal was_cut_off, best
        if cut_off is not None and model.contains(cut_off):
            was_cut_off = True
            return False
        atoms = []
        if not job.count_only:
            symbols = model.symbols(shown=True)
            atoms = [str(symbol) for symbol in symbols]
            results.remember(atoms, symbols)
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
        wait(handle, outcome, deadline, heartbeat)
        result = handle.get()
    if job.statistics:
        add_effort(control, outcome)
    if optimizing is not None:
        settle_optimum(outcome, optimizing, result.exhausted, best)
    outcome.satisfiable = True if result.satisfiable else False if result.unsatisfiable else None
    outcome.exhausted = bool(result.exhausted)
    outcome.stats["solve_time"] = outcome.stats.get("solve_time", 0.0) + (
        time.perf_counter() - solve_started
    )
    if was_cut_off:
        outcome.count, outcome.models, outcome.satisfiable = 0, [], None
    return not was_cut_off


class OptimizationSeen(Observer):
    """A ground program observer that notes a ``#minimize``/``#maximize`` statement (or
    weak constraint): such a program asks for the best answers, not for any answer."""

    def __init__(self) -> None:
        self.seen = False

    def minimize(self, priority: int, literals: Sequence[tuple[int, int]]) -> None:
        self.seen = True


def optimization_mode(control: Control, job: Job) -> str | None:
    """Set clingo up to answer what was asked of a program with an objective: one answer
    (the default) is the optimum (``opt``, every improving answer on the way, the
    last kept); several, all, a count or a uniqueness verdict are about the optimal
    answers (``optN``, answers proved optimal only). A user's own ``--opt-mode`` is
    left alone (None: answers are taken as clingo gives them)."""
    if any(argument.startswith("--opt-mode") for argument in job.arguments):
        return None
    mode = "opt" if job.models == 1 else "optN"
    settings = solve_settings(control)
    settings.opt_mode = mode
    settings.models = 0 if mode == "opt" else job.models
    return mode


def settle_optimum(outcome: Outcome, mode: str, exhausted: bool, best: list[str]) -> None:
    """After an optimizing search: a finished ``opt`` search proved its last answer
    optimal; an ``optN`` search stopped before it proved any keeps its best answer so
    far. An answer not proved optimal says so in ``progress``."""
    if mode == "opt" and exhausted and outcome.models:
        outcome.optimal = True
    if mode == "optN" and not outcome.count and best and outcome.timeout_phase:
        outcome.models, outcome.count = [best], 1
    if outcome.cost is not None and not outcome.optimal and outcome.timeout_phase:
        outcome.progress = f"best found: cost {results.cost_text(outcome.cost)}, not proved optimal"


#: How long one wait on a running search lasts: Python sees Ctrl-C only between waits.
WAIT_SLICE = 0.1


def wait(
    handle: clingo.SolveHandle,
    outcome: Outcome,
    deadline: float | None,
    heartbeat: Callable[[], None] | None = None,
) -> None:
    """Wait for the search to finish, the deadline to pass (the search is cancelled)
    or Ctrl-C, which cancels it the same way: a long search stopped by hand still
    reports what it found."""
    stopped = await_search(handle, deadline, heartbeat)
    if stopped == DEADLINE:
        outcome.timeout_phase = "solving"
    elif stopped == INTERRUPTED:
        outcome.interrupt("solving")


#: Why ``await_search`` stopped a search before it finished.
DEADLINE, INTERRUPTED = "deadline", "interrupted"


def await_search(
    handle: clingo.SolveHandle,
    deadline: float | None,
    heartbeat: Callable[[], None] | None = None,
) -> str | None:
    """The one loop that waits on a running search (every solve call of the driver is
    an async handle waited on here): None when it finished; ``DEADLINE`` when
    ``deadline`` (``time.perf_counter``) passed first, or ``INTERRUPTED`` on Ctrl-C,
    the search cancelled either way (a search that has just finished keeps its
    answer). Python sees Ctrl-C only between waits of ``WAIT_SLICE``; a blocking call
    would let it arise inside one of clingo's callbacks, where clingo cannot pass it
    on and ends the process. ``heartbeat`` is called every ``TICK`` seconds."""
    beat = time.perf_counter()
    try:
        while not handle.wait(WAIT_SLICE if deadline is None else _slice(deadline)):
            if stop_asked():  # Ctrl-C, as the guard passes it on to work that keeps
                raise KeyboardInterrupt  # what it has found
            now = time.perf_counter()
            if deadline is not None and now >= deadline:
                handle.cancel()
                return DEADLINE
            if heartbeat is not None and now - beat >= TICK:
                heartbeat()
                beat = now
    except KeyboardInterrupt:
        handle.cancel()
        return INTERRUPTED
    return None


def solve_until(
    control: Control,
    deadline: float | None = None,
    on_core: Callable[[Sequence[int]], None] | None = None,
    conflicts: int | None = None,
    short: bool = False,
    **arguments: Any,
) -> clingo.SolveResult | None:
    """One solve call (``arguments`` as for ``Control.solve``) waited on by
    ``await_search``: None when ``deadline`` passed first; Ctrl-C cancels the search
    and is raised again. ``conflicts`` stops the search after that many conflicts
    (see ``conflict_limit``); ``short`` says that a limit of at most ``SHORT_SEARCH``
    is set already (a blocking call). ``on_core`` gets the unsatisfiable core, as in a
    blocking call (clingo hands it to those only)."""
    short = short or (conflicts is not None and conflicts <= SHORT_SEARCH)
    if short or (deadline is None and on_core is None and BLOCKING):
        # Nothing to wait for, or not for long: no thread. The deadline is looked at
        # as the call returns: thousands of short calls in a row must stop at it too.
        with conflict_limit(control, conflicts):
            result = control.solve(on_core=on_core, **arguments)
        assert isinstance(result, clingo.SolveResult)
        if stop_asked():
            raise KeyboardInterrupt
        return None if deadline is not None and time.perf_counter() >= deadline else result
    with conflict_limit(control, conflicts), control.solve(async_=True, **arguments) as handle:
        stopped = await_search(handle, deadline)
        if stopped == INTERRUPTED:
            raise KeyboardInterrupt
        if stopped == DEADLINE:
            return None
        result = handle.get()
        if on_core is not None and result.unsatisfiable:
            on_core(handle.core())
        return result


#: Conflicts a search may be given and still be a blocking call, waited on by no
#: thread (a walkthrough's thousands of questions of 100 conflicts each, a few
#: milliseconds at most): Ctrl-C is answered and the deadline looked at as it returns.
SHORT_SEARCH = 1000

#: Set in a process that nothing stops while it searches but its own end (a sweep's
#: or census's pool worker: its parent answers Ctrl-C and kills it at a time limit).
#: A search without a deadline then needs no waiting loop, and a blocking solve call
#: saves the thread an async one starts, a good part of a millisecond search.
BLOCKING = False


@contextmanager
def conflict_limit(control: Control, conflicts: int | None) -> Iterator[None]:
    """Stop the solve calls made inside after ``conflicts`` conflicts (None: the limit
    set before, the user's ``--solve-limit`` or none), restored afterwards: the one
    judge of a bounded search (a scout's hinted plan, a generator's uniqueness round),
    a bound that a seed repeats on every machine, where a time limit would make the
    outcome depend on the machine's speed."""
    if conflicts is None:
        yield
        return
    settings = solve_settings(control)
    before, settings.solve_limit = settings.solve_limit, str(conflicts)
    try:
        yield
    finally:
        settings.solve_limit = before


def _slice(deadline: float) -> float:
    return max(0.0, min(WAIT_SLICE, deadline - time.perf_counter()))


def user_places(message: str, program_source: str | None) -> str:
    """clingo's places as the user names the files: relative to the working folder
    (clingo names an encoding by the absolute path it was loaded from), and the
    instance's file for the program text it was given (``<block>``)."""
    message = message.replace(f"{Path.cwd()}/", "")
    if program_source is not None:
        message = message.replace("<block>:", f"{program_source}:")
    return message


def clingo_error(messages: list[str], error: RuntimeError, program_source: str | None) -> str:
    """clingo's own message, on one line and placed as ours are (``file:line:col: ...``):
    the first it logged, or else the error's own text (``#script`` blocks fail without
    logging: ``python support not available``), its places as the user names them."""
    text = messages[0] if messages else str(error).strip()
    if not text:
        return "clingo failed"
    message = user_places(clingo_message(text), program_source)
    if "support not available" in message:  # the clingo wheel has no script languages
        message += (
            " (the clingo package from PyPI runs no #script code: give its results as "
            "facts, or compute them in a puzzle module)"
        )
    return message


def clingo_statistics(control: Control) -> dict[str, Any]:
    """clingo's statistics, or none: after Ctrl-C has stopped a grounding or a solve
    call at the wrong moment, clingo has none to give ("statistics not (yet)
    available"), and a run stopped by hand must still report what it proved."""
    try:
        return control.statistics
    except RuntimeError:
        return {}


def add_effort(control: Control, outcome: Outcome) -> None:
    """Add one solve call's choices, conflicts and clingo time to the outcome's: a
    growing horizon solves many times, and clingo's statistics (without ``--stats``,
    which would cost every search) hold the last call only, which would hide most of
    the work. The program's size as grounded for this call replaces the last one's
    (the statistics are read once a call: reading them costs a small board's solve a
    tenth of its time)."""
    stats = clingo_statistics(control)
    solvers = stats.get("solving", {}).get("solvers", {})
    effort = {
        "choices": int(solvers.get("choices", 0)),
        "conflicts": int(solvers.get("conflicts", 0)),
        "clingo_total_time": stats.get("summary", {}).get("times", {}).get("total", 0.0),
    }
    for key, value in effort.items():
        outcome.stats[key] = outcome.stats.get(key, 0) + value
    lp = stats.get("problem", {}).get("lp", {})
    outcome.size = {"atoms": int(lp.get("atoms", 0)), "rules": int(lp.get("rules", 0))}


#: Conflicts a scout may spend on its hinted plan: a plan the encoding accepts costs
#: none (propagation completes it), so more means the hint is off and the scout gives up.
#: The same limit holds for completing a hinted answer and for each round around it.
SCOUT_CONFLICTS = 1000


def solve_settings(control: Control) -> clingo.Configuration:
    """clingo's ``solve`` options of a Control (``models``, ``opt_mode``,
    ``solve_limit``), changed between solve calls."""
    settings = control.configuration.solve
    assert isinstance(settings, clingo.Configuration)
    return settings
