"""From models to answers: each answer set decoded and checked by the puzzle's own
checker, and what a solve call returns, a :class:`Result` that prints, serialises and
draws itself."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import clingo
from clingo import Symbol

from ..errors import CheckFailed, check_number_lengths
from ..puzzle import Puzzle, Solution

SOLVED, UNSATISFIABLE, TIMEOUT = "solved", "unsatisfiable", "timeout"
#: A run stopped by Ctrl-C: like ``timeout``, with what was found and proved so far.
INTERRUPTED = "interrupted"
#: A run stopped by the memory limit: likewise.
MEMORY = "memory"
#: Phases as the summary line says them (JSON's ``timeout_phase`` has the short names).
PHASES = {"facts": "building the facts", "loading": "starting", "checking": "checking the answers"}


class Result:
    """What one solve call found. Displays itself in Jupyter.

    ``status`` is ``solved`` (at least one answer), ``unsatisfiable`` (proved to have
    none), ``timeout`` (the limit passed; ``complete`` is then false and
    ``timeout_phase`` says whether grounding or solving ran out) or ``interrupted``
    (the same, stopped by Ctrl-C). ``verdict`` is set in
    uniqueness mode: ``unique``, ``multiple`` or ``none``. ``count`` is set in counting
    mode (a lower bound when not ``complete``).

    Also: ``encoding``, how the encoding stands to the puzzle's shipped one (``shipped``,
    ``edited``: the Python accelerators were off, see ``strategy.EncodingOnly``, or
    ``own``); ``exhausted``, whether the search went through every answer (a search
    stopped at the models asked for did not: there may be more), as clingo's
    ``Models : N+`` says; ``unchecked_because``, why the answers shown were not checked,
    when they were not; ``reason``, why there is no solution, when that was found
    without search; ``count_details``, puzzle-specific figures of a count (e.g.
    ``count_raw``); ``progress``, for a planning puzzle out of time, the horizons
    already refuted, so that a run cut short still reports a proved lower bound ("no
    answer within 6 moves"); ``interrupted``, stopped by Ctrl-C, usually before the
    answer was complete (the status is then ``interrupted``, or ``solved`` with the
    solutions found before it); ``cost`` and ``optimal``, for a program with an
    objective (``#minimize``), the solutions' cost, one number per priority level
    (highest first), and whether it is proved optimal (a run cut short shows its best
    solution with ``optimal`` false and status ``timeout``); ``horizon``, for a program
    in clingo's incremental mode (see ``planning.incmode_plan``), the horizon (the step
    t of ``step(t)``) of the answers, the first one that has any; ``found``, how many
    answers the search found, when fewer were checked and shown (checking stopped at
    the time limit, phase ``checking``, or by Ctrl-C).
    """

    def __init__(
        self,
        puzzle: str,
        instance: str,
        status: str,
        solutions: list[Solution] | None = None,
        verdict: str | None = None,
        count: int | None = None,
        complete: bool = True,
        timeout_phase: str | None = None,
        stats: dict[str, Any] | None = None,
        checked: bool = True,
        encoding: str = "shipped",
        exhausted: bool = False,
        unchecked_because: str = "this puzzle has no Python checker",
        reason: str | None = None,
        count_details: dict[str, int] | None = None,
        progress: str | None = None,
        interrupted: bool = False,
        cost: list[int] | None = None,
        optimal: bool = False,
        horizon: int | None = None,
        found: int | None = None,
    ) -> None:
        self.puzzle, self.instance, self.status = puzzle, instance, status
        self.solutions = [] if solutions is None else solutions
        self.verdict, self.count, self.complete = verdict, count, complete
        self.timeout_phase = timeout_phase
        self.stats = {} if stats is None else stats
        self.checked, self.encoding, self.exhausted = checked, encoding, exhausted
        self.unchecked_because, self.reason = unchecked_because, reason
        self.count_details = {} if count_details is None else count_details
        self.progress, self.interrupted = progress, interrupted
        self.cost, self.optimal, self.horizon = cost, optimal, horizon
        self.found = found

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
        if self.found is not None:
            data["found"] = self.found
        if not self.checked:
            data["checked"] = False
        if self.encoding == "edited":
            data["encoding"] = "edited"
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
            found = len(self.solutions) if self.found is None else self.found
            parts.append(f"{found} solution{'' if found == 1 else 's'}{before}")
            if self.found is not None:
                parts.append(f"the first {len(self.solutions)} checked and shown")
        if "total_time" in self.stats:
            parts.append(f"in {self.stats['total_time']:.3f}s")
        line = ", ".join(parts)
        if not self.solutions:
            return line
        checked = "checked" if self.checked else f"not checked: {self.unchecked_because}"
        return f"{line} ({checked})"

    def _status_parts(self) -> list[str]:
        """The status and, for a run cut short, where it stopped and what it proved."""
        parts = [f"{self.puzzle} {self.instance}: {self.status}"]
        phase = PHASES.get(self.timeout_phase or "", self.timeout_phase)
        if self.status == TIMEOUT:
            parts[0] += f" (time limit reached while {phase})"
        elif self.status == MEMORY:
            parts[0] += f" (memory limit reached while {phase})"
        elif self.status == INTERRUPTED:
            parts[0] += f" (while {phase})"
        if self.status in (TIMEOUT, INTERRUPTED, MEMORY) and self.progress:
            parts.append(self.progress)
        return parts

    def _repr_html_(self) -> str:
        from html import escape

        boards = "".join(f"<div>{solution.svg()}</div>" for solution in self.solutions)
        return f"<div><p>{escape(self.summary())}</p>{boards}</div>"

    def __str__(self) -> str:
        return "\n\n".join([self.summary(), *(s.text() for s in self.solutions)])

    def __repr__(self) -> str:
        return f"<Result {self.summary()}>"


def cost_text(cost: Sequence[int]) -> str:
    """A cost as clingo reports it: one number, or one per priority level, highest first."""
    return str(cost[0]) if len(cost) == 1 else "[" + ", ".join(map(str, cost)) + "]"


def rounded(stats: dict[str, Any]) -> dict[str, Any]:
    return {
        key: round(value, 6) if isinstance(value, float) else value for key, value in stats.items()
    }


#: Symbols by their text, for answers found in this process (see ``remember``).
_SYMBOLS: dict[str, Symbol] = {}
#: How many texts ``_SYMBOLS`` holds at most before it starts afresh.
SYMBOLS_KEPT = 1 << 16


def remember(atoms: Sequence[str], symbols: Sequence[Symbol]) -> None:
    """The texts of an answer's atoms, each with the symbol it was made from: an answer
    found in this process is decoded from its symbols, not parsed back from text
    (parsing an atom costs clingo more than printing it). A text names one symbol, so
    a kept pair can never decode the wrong answer."""
    if len(_SYMBOLS) > SYMBOLS_KEPT:
        _SYMBOLS.clear()
    _SYMBOLS.update(zip(atoms, symbols, strict=True))


def _symbol(atom: str) -> Symbol:
    known = _SYMBOLS.get(atom)
    return known if known is not None else clingo.parse_term(atom)


def checked_solution(
    game: Puzzle[Any, Any],
    parsed: Any,
    atoms: list[str],
    symbols: list[Symbol] | None = None,
    *,
    check: bool = True,
    edited: bool = False,
) -> Solution:
    """An answer set decoded, and checked by the puzzle's checker unless ``check`` is
    false (``--unchecked``). A rejected answer is an internal error: with the shipped
    encoding, encoding and checker disagree (a bug); with an edited one, the edit
    changed the rules the checker knows, which the message says."""
    if symbols is None:
        symbols = [_symbol(atom) for atom in atoms]
    data = game.decode(parsed, symbols)
    problems = game.check(parsed, data) if check else []
    if problems and edited:
        raise CheckFailed(
            f"the checker rejected an answer set of '{game.name}': {'; '.join(problems[:3])}; "
            "the encoding in use differs from the shipped one, whose rules the checker "
            "knows (--unchecked shows the edited rules' answers, marked as unchecked)"
        )
    if problems:
        raise CheckFailed(
            f"the checker rejected an answer set of '{game.name}' (encoding and checker "
            f"disagree): {'; '.join(problems[:3])}"
        )
    return Solution(game, parsed, data, atoms)


def check_bulk(game: Puzzle[Any, Any], problems: dict[int, str]) -> None:
    """A sweep's answers checked in bulk (``Sweep.check_in_bulk``, asked only of the
    shipped encoding): any answer rejected is an internal error, as in
    ``checked_solution``."""
    if problems:
        shown = "; ".join(problems[row] for row in sorted(problems)[:3])
        raise CheckFailed(
            f"the checker rejected {len(problems)} answer(s) of '{game.name}' (encoding and "
            f"checker disagree): {shown}"
        )


def check_solution(
    game: Puzzle[Any, Any], parsed: Any, text: str, source: str
) -> tuple[list[str], Solution | None]:
    """A person's solution through the same checker as the solver's: the problems found,
    and the solution (for showing) when there are none."""
    from .guard import note_phase  # a limit reached here names the check (a bare one is clingo's)

    note_phase("checking")
    check_number_lengths(text, source)
    data = game.parse_solution(parsed, text, source)
    problems = game.check(parsed, data)
    return problems, None if problems else Solution(game, parsed, data)
