"""Hints, mistakes and explanations: the next entry to make with the clues it rests on,
the entries no solution shares, and a minimal set of clues that cannot all hold."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clingo import Symbol

from ..capabilities import PlanHints, offered
from ..driver import load_instance, solve_instance
from ..driver.guard import note_phase
from ..driver.loading import checked_encoding
from ..driver.reasoning import CHOICE, PROPAGATION, SEARCH, TRIAL
from ..driver.repairs import minimal_core
from ..driver.results import INTERRUPTED, TIMEOUT
from ..errors import CheckFailed, InputError, TimeLimit
from ..paths import referenced_text
from ..puzzle import Puzzle
from .grounding import (
    Grounded,
    check_in_solution,
    complete,
    ground_instance,
    loaded,
    read_progress,
)
from .reports import Finding, PlanReport, Report


def _mistakes(ground: Grounded, progress: list[Symbol]) -> list[Finding]:
    """The progress entries that no solution shares, each with a minimal set of clues
    that rules it out."""
    reasoner = ground.reasoner
    found = []
    for entry in progress:
        if not reasoner.satisfiable([(entry, True)], reasoner.clues):
            found.append(Finding(None, entry, reasoner.minimal([(entry, True)])))
    return found


#: The conflicts of the first search beside the trials (``_ruled_out_at_once``), and
#: about what one trial costs in conflicts (measured on tiles boards: a trial 3 ms,
#: a conflict 0.2 ms).
_FIRST_SEARCH = 1000
_TRIAL_CONFLICTS = 15


def _forced(ground: Grounded, progress: list[Symbol], every: bool) -> list[Finding]:
    """Entries that follow, the easiest level first; with ``every``, all of them."""
    reasoner = ground.reasoner
    assumed = [(entry, True) for entry in progress]
    seen = reasoner.propagate(assumed)
    if seen is None:
        return []
    known = set(progress) | ground.given
    if not every and (single := _from_one_clue(ground, assumed, seen.true - known)) is not None:
        return [single]
    found = [Finding(PROPAGATION, e) for e in sorted(seen.true - known)]
    if found and not every:
        return found[:1]
    decided = seen.true | seen.false | known
    open_entries = [entry for entry in reasoner.entries if entry not in decided]
    tried = _ruled_out_at_once(ground, assumed, decided, open_entries)
    if tried is None:  # nothing more follows
        return found
    ruled_out, shared = tried
    after = reasoner.propagate([*assumed, *((entry, False) for entry in ruled_out)])
    trials = sorted(after.true - decided) if after is not None and ruled_out else []
    found += [Finding(TRIAL, entry) for entry in trials]
    if found and not every:
        return found[:1]
    following = (shared if shared is not None else reasoner.consequences(assumed)) or set()
    found += [
        Finding(SEARCH, entry)
        for entry in sorted(following - decided - set(trials))
        if entry not in known
    ]
    return found if every else found[:1]


def _ruled_out_at_once(
    ground: Grounded,
    assumed: list[tuple[Symbol, bool]],
    decided: set[Symbol],
    open_entries: list[Symbol],
) -> tuple[list[Symbol], set[Symbol] | None] | None:
    """The open entries that fail at once when assumed (a trial each), and what every
    solution shares where a search found it all (else None); None where no
    open entry can follow by trial or by search, which the solutions found so far tell
    when they share none of them (a board unique only up to turning it: trying each of
    a 10x10 tiles board's 40,000 open entries took minutes to find nothing).

    The trials and a search for solutions take turns, each turn twice the last: a
    search cut short at its conflicts, a batch of trials of about the same cost (a
    trial costs about fifteen conflicts). Whichever answers first ends it, at about
    twice its own cost; a search that ends (every solution's share known) and leaves
    an entry open is not asked again. Each search starts afresh and finds other
    solutions: what may follow is what all of them share."""
    reasoner = ground.reasoner
    ruled_out: list[Symbol] = []
    conflicts, searching, done = _FIRST_SEARCH, True, 0
    may_follow: set[Symbol] | None = None  # what every search's solutions share
    every_solution: set[Symbol] | None = None  # what all share, where a search ended
    while done < len(open_entries):
        if searching:
            shared, ended = reasoner.consequences_within(assumed, conflicts=conflicts)
            if shared is not None:
                may_follow = shared - decided if may_follow is None else may_follow & shared
                if not may_follow:
                    return None
            searching = not ended
            every_solution = shared if ended else None
        batch = open_entries[done : done + max(conflicts // _TRIAL_CONFLICTS, 1)]
        ruled_out += [e for e in batch if reasoner.fails_at_once(assumed, (e, True))]
        done += len(batch)
        conflicts *= 2
    return ruled_out, every_solution


def _from_one_clue(
    ground: Grounded, assumed: list[tuple[Symbol, bool]], following: set[Symbol]
) -> Finding | None:
    """An entry that one clue gives by propagation, with the progress: the easiest
    hint of all, the one a person sees first (the first clue's, in the clues' order).

    Propagation is monotone (more clues propagate no less), so only entries that all
    clues give (``following``) are looked at, and the clues are tried in groups: a
    group that gives none of them has no single clue that does, and is passed over
    whole; one that does is halved. On a board whose clues each give nothing alone (a
    Sudoku's givens) this takes a few probes instead of one a clue."""
    if not following:
        return None

    def first(group: list[Symbol]) -> Finding | None:
        seen = ground.reasoner.propagate(assumed, clues=group, among=following)
        new = sorted(seen.true & following) if seen is not None else []
        if not new:
            return None
        if len(group) == 1:
            return Finding(PROPAGATION, new[0])
        half = len(group) // 2
        return first(group[:half]) or first(group[half:])

    return first(list(ground.reasoner.clues)) if ground.reasoner.clues else None


def _rested(ground: Grounded, progress: list[Symbol], finding: Finding) -> Finding:
    """The hint with a minimal set of clues and progress entries it rests on, each
    verified: with only those, assuming the entry false has no solution. The clues are
    dropped first while every progress entry stays at hand, then the entries: what is
    on the board replaces the clues it came from, as in a walkthrough's reasons (a
    Hitori's 4 shaded for the 4 its column's unshaded cell shows, not for fifteen
    clues)."""
    reasoner = ground.reasoner
    fixed = [(finding.entry, False)]
    at_hand = [(entry, True) for entry in reasoner.own(progress)]
    offered = [(clue, True) for clue in reasoner.in_force]
    kept_clues = minimal_core(reasoner, [*fixed, *at_hand], offered) or []
    kept_entries = minimal_core(reasoner, [*fixed, *kept_clues], at_hand) or []
    reasons = [symbol for symbol, _ in [*kept_clues, *kept_entries]]
    if reasoner.satisfiable([*kept_entries, *fixed], [symbol for symbol, _ in kept_clues]):
        raise CheckFailed(f"the reasons found for a hint of '{ground.game.name}' do not force it")
    return Finding(finding.level, finding.entry, reasons)


def _check_against_solution(ground: Grounded, progress: list[Symbol], hints: list[Finding]) -> None:
    """Every hint holds in a solution that keeps the progress, decoded and passed by
    the puzzle's checker, the hint read from it in Python (``entry_holds``)."""
    if hints:
        check_in_solution(ground, progress, [finding.entry for finding in hints], "a hint")


def hint(
    puzzle: Puzzle[Any, Any],
    instance: str | Path | None = None,
    *,
    progress: str | None = None,
    every: bool = False,
    encoding: str | Path | None = None,
    timeout: float | None = None,
) -> Report:
    """The mistakes in a player's progress and the next entry to make (``every``: all
    entries that follow), with the clues each rests on. ``timeout`` (seconds) bounds
    the whole question: TimeLimit when it runs out."""
    if puzzle.hints() is None and puzzle.plan_hints() is not None:
        return plan_hint(  # type: ignore[return-value]
            puzzle, instance, progress=progress, encoding=encoding, timeout=timeout
        )
    ground, entries, report = _asked("hint", puzzle, instance, progress, encoding, timeout)
    reasoner = ground.reasoner
    if not reasoner.satisfiable([], reasoner.clues):
        report.status = "unsolvable"
        return report
    if reasoner.propagate([(entry, True) for entry in entries]) is None:
        report.status = "contradiction"
    # A solution with every entry shares each of them: one solve call clears a progress
    # without mistakes; only otherwise is each entry tried alone.
    whole = reasoner.satisfiable([(entry, True) for entry in entries], reasoner.clues)
    report.mistakes = [] if whole else _mistakes(ground, entries)
    if report.mistakes and report.status != "contradiction":
        report.status = "mistakes"
    kept = [entry for entry in entries if entry not in {m.entry for m in report.mistakes}]
    if not whole and not reasoner.satisfiable([(e, True) for e in kept], reasoner.clues):
        report.status = "contradiction"
        report.conflict = reasoner.minimal([], droppable=kept)
        return report
    found = _forced(ground, kept, every)
    if not every:
        found = [_rested(ground, kept, finding) for finding in found]
    _check_against_solution(ground, kept, found)
    if not found and not every:
        found = _choice(ground, kept)
    report.hints = found
    if not found and report.status == "hint":
        report.status = "solved" if complete(ground, kept) else "no hint"
    return report


def _choice(ground: Grounded, progress: list[Symbol]) -> list[Finding]:
    """Where nothing is forced (the puzzle has several solutions from here), an entry
    of one of them: the first open one, in the entries' order. Verified: the progress
    with it still has a solution."""
    reasoner = ground.reasoner
    assumed = [(entry, True) for entry in progress]
    seen = reasoner.propagate(assumed)
    found = reasoner.one_solution(assumed)
    if seen is None or found is None:
        return []
    solution = found[1]
    decided = seen.true | seen.false | set(progress) | ground.given
    open_entries = [e for e in reasoner.entries if e in solution and e not in decided]
    if not open_entries:
        return []
    chosen = open_entries[0]
    if not reasoner.satisfiable([*assumed, (chosen, True)], reasoner.clues):
        raise CheckFailed(f"a choice offered for '{ground.game.name}' leaves no solution")
    return [Finding(CHOICE, chosen)]


def _asked(
    kind: str,
    game: Puzzle[Any, Any],
    instance: str | Path | None,
    progress: str | None,
    encoding: str | Path | None,
    timeout: float | None,
) -> tuple[Grounded, list[Symbol], Report]:
    """What a hint and an explanation start from: the instance grounded, the player's
    entries read against it, and a report of its first standing (a hint's ``hint``,
    an explanation's ``solvable``)."""
    parsed, name = loaded(game, instance)
    ground = ground_instance(game, parsed, encoding, timeout)
    entries = read_progress(game, parsed, progress, ground)
    status = "hint" if kind == "hint" else "solvable"
    clues = frozenset(ground.reasoner.clues)
    report = Report(
        kind, game, ground.instance, name, status, entries, encoding=ground.standing, clues=clues
    )
    return ground, entries, report


@dataclass
class Planned:
    """A planning puzzle's board after the player's moves and a checked solve of it for
    a shortest plan (``result`` None where the moves made clear the board; its solution
    None where no plan clears it)."""

    game: PlanHints[Any, Any]
    board: Any
    name: str
    result: Any
    #: The player's moves, as progress names them.
    made: list[str] = field(default_factory=list)


def planned(
    puzzle: Puzzle[Any, Any],
    instance: str | Path | None,
    progress: str | None,
    encoding: str | Path | None,
    timeout: float | None,
    lacking: str = "",
    keep_cut: bool = False,
) -> Planned:
    """The board after the player's moves (replayed by the shipped rules' simulator),
    solved for a shortest plan. A time limit before the plan is proved raises TimeLimit
    (with ``keep_cut``, the solve cut short by it or by Ctrl-C is the result: what it
    proved, and the plan it found, if any); a solve that ends otherwise than with a plan
    or a proof of none, InputError (each message ends with ``lacking``: what the
    question goes without)."""
    game = offered(puzzle.plan_hints(), puzzle.name, "gives no hints yet")
    parsed, name = load_instance(puzzle, instance)
    made: list[str] = []
    if progress is not None:
        if checked_encoding(puzzle, encoding).standing != "shipped":
            raise InputError(
                f"progress of '{puzzle.name}' is replayed by the shipped rules' simulator: "
                "it cannot be used with an edited encoding"
            )
        text, source = referenced_text(progress)
        after = game.board_after(parsed, text, source)
        made = game.progress_of(puzzle.parse_solution(parsed, text, source))
        if after is None:
            return Planned(game, parsed, name, None, made)
        parsed = after
    note_phase("solving")
    result = solve_instance(puzzle, parsed, name, encoding=encoding, timeout=timeout)
    if keep_cut and result.status in (TIMEOUT, INTERRUPTED):
        return Planned(game, parsed, name, result, made)
    if result.solution is None:
        if result.status == TIMEOUT:
            raise unproved(timeout, lacking, result.progress)
        if result.status != "unsatisfiable":
            raise InputError(f"no plan was found ({result.status}){lacking}")
    return Planned(game, parsed, name, result, made)


def unproved(timeout: float | None, lacking: str = "", progress: str | None = None) -> TimeLimit:
    """The time limit reached before a shortest plan was proved, with what the search
    proved by then where it says (``progress``, as ``solve`` says it; ``lacking``: what
    the question goes without)."""
    limit = "" if timeout is None else f" of {timeout:g} s"
    said = f" ({progress})" if progress else ""
    return TimeLimit(f"time limit{limit} reached before a shortest plan was proved{said}{lacking}")


def plan_hint(
    puzzle: Puzzle[Any, Any],
    instance: str | Path | None = None,
    *,
    progress: str | None = None,
    encoding: str | Path | None = None,
    timeout: float | None = None,
) -> PlanReport:
    """The first move of a shortest plan from the board after the player's moves (a
    checked, proved-shortest solve of that board)."""
    plan = planned(puzzle, instance, progress, encoding, timeout, ": no hint")
    game, parsed, result = plan.game, plan.board, plan.result
    if result is None:
        return PlanReport(puzzle, parsed, plan.name, "solved", moves_left=0)
    report = PlanReport(
        puzzle, parsed, plan.name, "stuck", encoding=result.encoding, moved=bool(plan.made)
    )
    if result.solution is None:
        return report
    moves = puzzle.to_dict(parsed, result.solution.data).get("moves", [])
    report.moves_left = len(moves)
    if not moves:
        report.status = "solved"
        return report
    report.status = "hint"
    report.move = game.first_move(parsed, result.solution.data)
    report.opening = game.opening(parsed, result.solution.data)
    report.board = puzzle.unsolved(parsed)  # the board as it is: the plan stays unspoiled
    return report


def explain(
    puzzle: Puzzle[Any, Any],
    instance: str | Path | None = None,
    *,
    progress: str | None = None,
    encoding: str | Path | None = None,
    timeout: float | None = None,
) -> Report:
    """Why the instance (with the progress, if given) has no solution: a minimal set of
    clues (and progress entries) that cannot all hold; ``solvable`` if it has one."""
    ground, entries, report = _asked("explain", puzzle, instance, progress, encoding, timeout)
    reasoner = ground.reasoner
    if reasoner.satisfiable([(entry, True) for entry in entries], reasoner.clues):
        return report
    report.status = "unsolvable"
    report.conflict = reasoner.minimal([], droppable=entries)
    return report
