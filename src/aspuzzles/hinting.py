"""Hints, mistakes, explanations and grades: what a person solving by hand needs.

A puzzle that offers them fills in its hints slot (``Puzzle.hints()``, a
:class:`~aspuzzles.capabilities.Hints`): which atoms are a person's entries, which
facts are clues, how both read in the puzzle's terms, and how a player's progress is
written; a planning puzzle fills in ``Puzzle.plan_hints()`` instead. The reasoning
itself is the driver's (:mod:`aspuzzles.driver.reasoning`); this module knows no
puzzle.

- ``hint``: mistakes in the progress first (entries no solution shares, each with a
  minimal set of clues that rules it out), then the next entry as a person would find
  it, at the easiest level that finds one (propagation, a trial that fails at once,
  search), with a minimal set of clues and progress entries it rests on;
- ``explain``: why an instance (with its progress) has no solution, as a minimal set of
  clues that cannot all hold;
- ``grade``: how hard the puzzle is to solve by such steps alone.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from clingo import Symbol

from .capabilities import Hints
from .driver import load_instance, solve_instance
from .driver.guard import note_phase
from .driver.loading import EDITED, checked_encoding
from .driver.reasoning import CHOICE, PROPAGATION, SEARCH, TRIAL, Reasoner
from .errors import CheckFailed, InputError, NoSolution, TimeLimit, check_number_lengths
from .paths import STDIN, named_file, read_stdin, read_text_file
from .puzzle import Puzzle, render


def hintable(game: Puzzle[Any, Any]) -> Hints[Any, Any]:
    """The puzzle's hints slot, or a one-line error for a puzzle without one."""
    slot = game.hints()
    if slot is None:
        raise InputError(f"puzzle '{game.name}' gives no hints yet")
    return slot


# ------------------------------------------------------------------------- results
@dataclass
class Finding:
    """An entry (a hint, or a mistake) and what it rests on: clues and progress."""

    level: str | None
    entry: Symbol
    reasons: list[Symbol] = field(default_factory=list)


@dataclass
class Report:
    """What ``hint`` and ``explain`` found; draws itself in a notebook."""

    kind: str  # "hint" or "explain"
    game: Puzzle[Any, Any]
    instance: Any
    name: str
    status: str
    progress: list[Symbol]
    mistakes: list[Finding] = field(default_factory=list)
    hints: list[Finding] = field(default_factory=list)
    conflict: list[Symbol] = field(default_factory=list)
    #: The encoding's standing (``driver.loading``): ``edited`` is said in the JSON.
    encoding: str = "shipped"

    @property
    def puzzle(self) -> Hints[Any, Any]:
        return hintable(self.game)

    def _reason(self, symbol: Symbol) -> dict[str, Any]:
        if self.puzzle.is_clue(symbol):
            return self.puzzle.clue_data(self.instance, symbol)
        return self.puzzle.entry_data(self.instance, symbol)

    def _reason_text(self, symbol: Symbol) -> str:
        if self.puzzle.is_clue(symbol):
            return self.puzzle.clue_text(self.instance, symbol)
        return "your " + self.puzzle.entry_text(self.instance, symbol)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "puzzle": self.game.name,
            "instance": self.name,
            "status": self.status,
        }
        if self.encoding == EDITED:
            data["encoding"] = EDITED
        if self.kind == "explain":
            data["conflict"] = [self._reason(symbol) for symbol in self.conflict]
            return data
        data["mistakes"] = [
            {
                **self.puzzle.entry_data(self.instance, finding.entry),
                "reasons": [self._reason(symbol) for symbol in finding.reasons],
            }
            for finding in self.mistakes
        ]
        data["hints"] = [
            {
                "level": finding.level,
                "entry": self.puzzle.entry_data(self.instance, finding.entry),
                "reasons": [self._reason(symbol) for symbol in finding.reasons],
            }
            for finding in self.hints
        ]
        return data

    def lines(self) -> list[str]:
        head = f"{self.game.name} {self.name}: {self.status}"
        lines = [head]
        for finding in self.mistakes:
            lines.append(f"mistake: {self.puzzle.entry_text(self.instance, finding.entry)}")
            lines += self._because(finding.reasons, "cannot be, because of")
        for finding in self.hints:
            lines.append(
                f"hint ({finding.level}): {self.puzzle.entry_text(self.instance, finding.entry)}"
            )
            if finding.level == CHOICE:
                lines.append("  nothing is forced: the puzzle has several solutions from here")
            lines += self._because(finding.reasons, "follows from")
        if self.kind == "explain" and self.conflict:
            lines.append("these cannot all hold:")
            lines += [f"  {self._reason_text(symbol)}" for symbol in self.conflict]
        return lines

    def _because(self, reasons: list[Symbol], verb: str) -> list[str]:
        if not reasons:
            return []
        return [f"  {verb}: " + "; ".join(self._reason_text(symbol) for symbol in reasons)]

    def marked(self) -> list[Symbol]:
        chosen = self.hints[:1] or self.mistakes[:1]
        picked = [finding.entry for finding in chosen]
        for finding in chosen:
            picked += finding.reasons
        return picked + self.conflict

    def draw(self, form: str) -> str:
        kept = [entry for entry in self.progress if entry not in {m.entry for m in self.mistakes}]
        shown = [*kept, *(finding.entry for finding in self.hints[:1])]
        return self.puzzle.draw_progress(self.instance, shown, self.marked(), form)

    def text(self) -> str:
        return "\n".join([*self.lines(), self.draw("txt").rstrip("\n")]) + "\n"

    def svg(self) -> str:
        return self.draw("svg")

    def _repr_html_(self) -> str:
        listed = "<br>".join(escape(line) for line in self.lines())
        return f"<div><p>{listed}</p>{self.svg()}</div>"

    def __repr__(self) -> str:
        return f"<{self.lines()[0]}>"

    def __str__(self) -> str:
        return self.text()


@dataclass
class Grade:
    """How hard a puzzle is by hints alone: the hardest level needed, and the steps
    taken at each level (an entry each)."""

    puzzle: str
    instance: str
    grade: str
    steps: dict[str, int]
    unique: bool = True
    #: Entries laid before the first step to pick one of a class of solutions that no
    #: clue tells apart (see ``Hints.anchored``), as text.
    laid_first: list[str] = field(default_factory=list)
    #: The encoding's standing (``driver.loading``): ``edited`` is said in the JSON.
    encoding: str = "shipped"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "puzzle": self.puzzle,
            "instance": self.instance,
            "grade": self.grade,
            "steps": dict(self.steps),
            "unique": self.unique,
            "laid_first": list(self.laid_first),
        }
        if self.encoding == EDITED:
            data["encoding"] = EDITED
        return data

    def summary(self) -> str:
        done = ", ".join(f"{count} by {level}" for level, count in self.steps.items() if count)
        first = f"{'; '.join(self.laid_first)} laid first; " if self.laid_first else ""
        note = "" if self.unique else "; the puzzle has more than one solution"
        return (
            f"{self.puzzle} {self.instance}: {self.grade} "
            f"({first}{done or 'nothing to fill in'}{note})"
        )

    def _repr_html_(self) -> str:
        return f"<p>{escape(self.summary())}</p>"

    def __repr__(self) -> str:
        return f"<Grade {self.summary()}>"

    def __str__(self) -> str:
        return self.summary() + "\n"


# ------------------------------------------------------------------------ reasoning
@dataclass
class _Grounded:
    game: Puzzle[Any, Any]
    puzzle: Hints[Any, Any]
    instance: Any
    reasoner: Reasoner
    given: set[Symbol]
    #: The encoding's standing: ``shipped``, ``edited`` or ``own`` (a bare encoding).
    standing: str = "shipped"


def _ground(
    game: Puzzle[Any, Any],
    instance: Any,
    encoding: str | Path | None,
    timeout: float | None = None,
) -> _Grounded:
    """The instance grounded for reasoning, with what holds without any clue (given
    entries, which are never hints). Clues stay assumptions even where none is dropped
    (grading): as facts the grounder would simplify them away, and a step's level
    could then differ from the hint's."""
    puzzle = hintable(game)
    facts = list(puzzle.hint_facts(instance))
    clues = [fact for fact in facts if puzzle.is_clue(fact)]
    others = [fact for fact in facts if not puzzle.is_clue(fact)]
    used = checked_encoding(game, encoding)
    started = time.perf_counter()
    note_phase("grounding")
    reasoner = Reasoner(used.path, others, clues, puzzle.entry, game.clingo_options)
    note_phase("reasoning")
    if timeout is not None:
        reasoner.deadline = started + timeout
        if time.perf_counter() > reasoner.deadline:
            raise TimeLimit("time limit reached while grounding")
    without_clues = reasoner.propagate([], clues=[])
    given = set() if without_clues is None else without_clues.true
    return _Grounded(game, puzzle, instance, reasoner, given, used.standing)


def read_progress(game: Puzzle[Any, Any], instance: Any, reference: str | None) -> list[Symbol]:
    """A player's progress from a file, ``-`` (standard input) or the text itself."""
    if reference is None:
        return []
    text, source = _progress_text(reference)
    check_number_lengths(text, source)
    return hintable(game).parse_progress(instance, text, source)


def _mistakes(ground: _Grounded, progress: list[Symbol]) -> list[Finding]:
    """The progress entries that no solution shares, each with a minimal set of clues
    that rules it out."""
    reasoner = ground.reasoner
    found = []
    for entry in progress:
        if not reasoner.satisfiable([(entry, True)], reasoner.clues):
            found.append(Finding(None, entry, reasoner.minimal([(entry, True)])))
    return found


def _forced(ground: _Grounded, progress: list[Symbol], every: bool) -> list[Finding]:
    """Entries that follow, the easiest level first; with ``every``, all of them."""
    reasoner = ground.reasoner
    assumed = [(entry, True) for entry in progress]
    seen = reasoner.propagate(assumed)
    if seen is None:
        return []
    known = set(progress) | ground.given
    if not every and (single := _from_one_clue(ground, assumed, known)) is not None:
        return [single]
    found = [Finding(PROPAGATION, e) for e in sorted(seen.true - known)]
    if found and not every:
        return found[:1]
    decided = seen.true | seen.false | known
    open_entries = [entry for entry in reasoner.entries if entry not in decided]
    ruled_out = [e for e in open_entries if reasoner.fails_at_once(assumed, (e, True))]
    after = reasoner.propagate([*assumed, *((entry, False) for entry in ruled_out)])
    trials = sorted(after.true - decided) if after is not None and ruled_out else []
    found += [Finding(TRIAL, entry) for entry in trials]
    if found and not every:
        return found[:1]
    following = reasoner.consequences(assumed) or set()
    found += [
        Finding(SEARCH, entry)
        for entry in sorted(following - decided - set(trials))
        if entry not in known
    ]
    return found if every else found[:1]


def _from_one_clue(
    ground: _Grounded, assumed: list[tuple[Symbol, bool]], known: set[Symbol]
) -> Finding | None:
    """An entry that one clue gives by propagation, with the progress: the easiest
    hint of all, the one a person sees first."""
    for clue in ground.reasoner.clues:
        seen = ground.reasoner.propagate(assumed, clues=[clue])
        if seen is not None and (new := sorted(seen.true - known)):
            return Finding(PROPAGATION, new[0])
    return None


def _rested(ground: _Grounded, progress: list[Symbol], finding: Finding) -> Finding:
    """The hint with a minimal set of clues and progress entries it rests on, each
    verified: with only those, assuming the entry false has no solution."""
    reasoner = ground.reasoner
    reasons = reasoner.minimal([(finding.entry, False)], droppable=progress)
    clues = [symbol for symbol in reasons if symbol in set(reasoner.clues)]
    kept = [(symbol, True) for symbol in reasons if symbol not in set(reasoner.clues)]
    if reasoner.satisfiable([*kept, (finding.entry, False)], clues):
        raise CheckFailed(f"the reasons found for a hint of '{ground.game.name}' do not force it")
    return Finding(finding.level, finding.entry, reasons)


def _check_against_solution(
    ground: _Grounded, progress: list[Symbol], hints: list[Finding]
) -> None:
    """Every hint holds in a solution that keeps the progress, decoded and passed by
    the puzzle's checker, the hint read from it in Python (``entry_holds``)."""
    if not hints:
        return
    found = ground.reasoner.one_solution([(entry, True) for entry in progress])
    if found is None:
        raise CheckFailed(f"a hint of '{ground.game.name}' was given with no solution to keep")
    solution = ground.game.decode(ground.instance, found[0])
    problems = ground.game.check(ground.instance, solution)
    if problems:
        raise CheckFailed(f"the solution behind a hint of '{ground.game.name}': {problems[0]}")
    for finding in hints:
        if not ground.puzzle.entry_holds(ground.instance, solution, finding.entry):
            raise CheckFailed(
                f"a hint of '{ground.game.name}' is not in a checked solution: {finding.entry}"
            )


# --------------------------------------------------------------------- entry points
def hint(
    puzzle: str | Puzzle[Any, Any],
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
    if isinstance(puzzle, str):
        from .registry import get_puzzle

        puzzle = get_puzzle(puzzle)
    if puzzle.hints() is None and puzzle.plan_hints() is not None:
        return plan_hint(  # type: ignore[return-value]
            puzzle, instance, progress=progress, encoding=encoding, timeout=timeout
        )
    game, parsed, name = _load(puzzle, instance)
    ground = _ground(game, parsed, encoding, timeout)
    entries = read_progress(game, parsed, progress)
    reasoner = ground.reasoner
    report = Report("hint", game, parsed, name, "hint", entries, encoding=ground.standing)
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
        return report
    found = _forced(ground, kept, every)
    if not every:
        found = [_rested(ground, kept, finding) for finding in found]
    _check_against_solution(ground, kept, found)
    if not found and not every:
        found = _choice(ground, kept)
    report.hints = found
    if not found and report.status == "hint":
        report.status = "solved" if _complete(ground, kept) else "no hint"
    return report


def _choice(ground: _Grounded, progress: list[Symbol]) -> list[Finding]:
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


@dataclass
class PlanReport:
    """A planning puzzle's hint: the first move of a shortest plan from the board as
    it is, or that the moves made can no longer clear it. Draws itself in a notebook."""

    game: Puzzle[Any, Any]
    instance: Any
    name: str
    status: str  # "hint", "solved" (nothing left to do) or "stuck"
    moves_left: int | None = None
    move: tuple[dict[str, Any], str] | None = None
    board: Any = None
    #: The encoding's standing (``driver.loading``): ``edited`` is said in the JSON.
    encoding: str = "shipped"

    def to_dict(self) -> dict[str, Any]:
        hints = []
        if self.move is not None:
            hints.append({"level": SEARCH, "entry": self.move[0], "moves_left": self.moves_left})
        data = {"puzzle": self.game.name, "instance": self.name, "status": self.status}
        if self.encoding == EDITED:
            data["encoding"] = EDITED
        return data | {"mistakes": [], "hints": hints}

    def lines(self) -> list[str]:
        lines = [f"{self.game.name} {self.name}: {self.status}"]
        if self.move is not None:
            plan = f"the first of {self.moves_left} moves of a shortest plan"
            lines.append(f"hint (search): {self.move[1]}, {plan}")
        elif self.status == "stuck":
            lines.append("the moves made can no longer lead to a clear board")
        return lines

    def text(self) -> str:
        drawing = render(self.game, self.instance, self.board, "txt") if self.board else ""
        return "\n".join(self.lines()) + "\n" + drawing

    def svg(self) -> str:
        return render(self.game, self.instance, self.board, "svg") if self.board else ""

    def _repr_html_(self) -> str:
        return "<div><p>" + "<br>".join(map(escape, self.lines())) + f"</p>{self.svg()}</div>"

    def __repr__(self) -> str:
        return f"<{self.lines()[0]}>"


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
    game = puzzle.plan_hints()
    if game is None:
        raise InputError(f"puzzle '{puzzle.name}' gives no hints yet")
    parsed, name = load_instance(puzzle, instance)
    if progress is not None:
        if checked_encoding(puzzle, encoding).standing != "shipped":
            raise InputError(
                f"progress of '{puzzle.name}' is replayed by the shipped rules' simulator: "
                "it cannot be used with an edited encoding"
            )
        text, source = _progress_text(progress)
        after = game.board_after(parsed, text, source)
        if after is None:
            return PlanReport(puzzle, parsed, name, "solved", moves_left=0)
        parsed = after
    result = solve_instance(puzzle, parsed, name, encoding=encoding, timeout=timeout)
    report = PlanReport(puzzle, parsed, name, "stuck", encoding=result.encoding)
    if result.solution is None:
        if result.status == "timeout":
            raise TimeLimit("time limit reached before a shortest plan was proved: no hint")
        if result.status != "unsatisfiable":
            raise InputError(f"no plan was found ({result.status}): no hint")
        return report
    moves = puzzle.to_dict(parsed, result.solution.data).get("moves", [])
    report.moves_left = len(moves)
    if not moves:
        report.status = "solved"
        return report
    report.status = "hint"
    report.move = game.first_move(parsed, result.solution.data)
    report.board = puzzle.unsolved(parsed)  # the board as it is: the plan stays unspoiled
    return report


def _progress_text(reference: str) -> tuple[str, str]:
    if reference == "-":
        return read_stdin(), STDIN
    if (path := named_file(reference)) is not None:
        return read_text_file(path), str(reference)
    return reference, "<argument>"


def _complete(ground: _Grounded, progress: list[Symbol]) -> bool:
    seen = ground.reasoner.propagate([(entry, True) for entry in progress])
    return seen is not None and not any(
        entry not in seen.true and entry not in seen.false for entry in ground.reasoner.entries
    )


def explain(
    puzzle: str | Puzzle[Any, Any],
    instance: str | Path | None = None,
    *,
    progress: str | None = None,
    encoding: str | Path | None = None,
    timeout: float | None = None,
) -> Report:
    """Why the instance (with the progress, if given) has no solution: a minimal set of
    clues (and progress entries) that cannot all hold; ``solvable`` if it has one."""
    game, parsed, name = _load(puzzle, instance)
    ground = _ground(game, parsed, encoding, timeout)
    entries = read_progress(game, parsed, progress)
    report = Report("explain", game, parsed, name, "solvable", entries, encoding=ground.standing)
    reasoner = ground.reasoner
    if reasoner.satisfiable([(entry, True) for entry in entries], reasoner.clues):
        return report
    report.status = "unsolvable"
    report.conflict = reasoner.minimal([], droppable=entries)
    return report


def grade(
    puzzle: str | Puzzle[Any, Any],
    instance: str | Path | None = None,
    *,
    encoding: str | Path | None = None,
    timeout: float | None = None,
) -> Grade:
    """Solve by hints alone, from an empty board: every entry propagation gives is
    taken (a step each); when none is left, a value that fails at once when tried is
    ruled out (the entries this opens count one trial step, the rest propagation);
    when no trial fails either, one entry that holds in every solution is taken (a
    search step). The grade is the hardest level needed. A puzzle whose solutions come
    in classes no clue tells apart (``Hints.anchored``) is graded after its anchor is laid."""
    game, parsed, name = _load(puzzle, instance)
    steps = {PROPAGATION: 0, TRIAL: 0, SEARCH: 0}
    unique = True
    laid_first: list[str] = []
    for level, entry in grade_steps(game, parsed, encoding, timeout=timeout):
        if level == ANCHOR:
            laid_first.append(hintable(game).entry_text(parsed, entry))
            continue
        if level == OPEN:
            unique = False
            break
        steps[level] += 1
    hardest = SEARCH if steps[SEARCH] else TRIAL if steps[TRIAL] else PROPAGATION
    standing = checked_encoding(game, encoding).standing
    return Grade(game.name, name, hardest, steps, unique, laid_first, standing)


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
    ground = _ground(game, instance, encoding, timeout)
    anchor, unshared = _anchor(ground)
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


def _anchor(ground: _Grounded) -> tuple[list[Symbol], list[Symbol]]:
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


def _steps(
    ground: _Grounded, deepest: str, laid: list[tuple[Symbol, bool]]
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


def _load(puzzle: str | Puzzle[Any, Any], instance: str | Path | None) -> tuple[Any, Any, str]:
    from .registry import get_puzzle

    game = get_puzzle(puzzle) if isinstance(puzzle, str) else puzzle
    hintable(game)
    parsed, name = load_instance(game, instance)
    return game, parsed, name


__all__ = [
    "Grade",
    "PlanReport",
    "Report",
    "explain",
    "grade",
    "hint",
    "plan_hint",
]
