"""A planning puzzle's walkthrough (capture): its proved-shortest plan, move by move.

A puzzle played by moves is not solved by deductions a step at a time: a board may
have several shortest plans, and the search picks one. What is proved is that no
shorter plan clears the board. So the walkthrough is that plan, each step one move,
drawn on the board it is made on, with the board after it. Its JSON has the shape of
every walkthrough's: ``clues`` (the instance's facts, as ``aspuzzles facts`` prints
them) and ``steps``, each move's ``literals`` its atom as the encoding's answer set
names it (``swap(Tick,A,B)``), ``after`` the earlier moves', ``because`` empty (the
whole board is the reason), ``cost`` 1; ``"plan": "the fewest moves"`` says how it is
to be read. The moves re-check as a solution (``aspuzzles check``); the plan's length
as a solve does (``solve --unique`` proves a board has no shorter plan).

A search the time limit (or Ctrl-C) cuts short is what it found, as ``solve`` shows it:
status ``timeout`` (``interrupted``), ``progress`` what it proved (``proved: none
within 10 moves; 11 moves unanswered``), and the plan found from above, if any, as its
steps, ``"plan": "moves"``: a plan that clears the board, not proved the shortest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clingo import Symbol

from ..capabilities import PlanHints
from ..driver.guard import time_left
from ..driver.results import INTERRUPTED, TIMEOUT
from ..puzzle import Puzzle, render
from .questions import planned, unproved
from .reports import recheck_fields, steps_found
from .walkthrough_views import Frame

#: What a plan's drawn walkthrough shows (the SVG's heading).
LEGEND = "each board: the move marked on the board it is made on, then the board after it"


@dataclass
class PlanStep:
    """One move of the plan, on the board it is made on."""

    move: str  # as progress names it: "7 1 Up"
    text: str  # the sentence: "move 7 1 Up"
    atom: Symbol  # as the encoding's answer set names it
    board: Any  # the instance the move is made on
    opening: Any  # the plan from that board cut to this move: what is drawn


@dataclass
class PlanWalkthrough:
    """The moves of a proved-shortest plan from the board (after the player's moves) to
    a clear board; ``unsolvable`` where no plan clears it; ``timeout`` or
    ``interrupted`` where the search was cut short (``progress`` says how far it got, the
    steps are the plan it found, if any). Draws itself in a notebook."""

    game: Puzzle[Any, Any]
    instance: Any
    name: str
    status: str  # solved, unsolvable, or cut short: timeout, interrupted
    clues: list[Symbol]
    steps: list[PlanStep] = field(default_factory=list)
    #: The whole plan, drawn by the puzzle (its text: the moves and the boards after).
    solution: Any = None
    #: The player's moves played before the plan starts (progress), as progress names them.
    made: list[str] = field(default_factory=list)
    #: Whether the plan is proved the shortest (a search cut short proves nothing).
    shortest: bool = True
    #: What a search cut short proved, as ``solve`` says it ("proved: none within 10
    #: moves; 11 moves unanswered").
    progress: str | None = None
    encoding: str = "shipped"
    #: A plan has no deductions to grade (``grade --difficulty`` reads entries' steps).
    difficulty: None = None
    score: None = None

    def lines(self) -> list[str]:
        head = self._head()
        if self.status == "solved" and not self.steps:
            return [head + ": the board is clear"]
        if self.steps:
            count = len(self.steps)
            head += f", {count} move{'s' * (count != 1)}"
            head += ", the fewest possible" if self.shortest else ", not proved the fewest"
        if self.progress is not None:  # as solve says it: what the search had proved
            head += f", {self.progress}"
        lines = [head]
        lines += [f"{number:>3}. {step.text}" for number, step in enumerate(self.steps, 1)]
        if self.status == "unsolvable":
            lines.append(
                "the moves made can no longer lead to a clear board"
                if self.made
                else "no plan clears this board"
            )
        return lines

    def found_before_limit(self) -> str:
        """What a walkthrough cut short shows: the moves of its plan found so far."""
        return steps_found(len(self.steps))

    def _cut_short(self) -> str:
        """What stopped the search and what it had proved by then."""
        said = "the time limit" if self.status == TIMEOUT else "an interrupt"
        return f"{said} stopped the search ({self.progress})"

    def _head(self) -> str:
        head = f"{self.game.name} {self.name}: {self.status}"
        return head + f" from the board{self._after_made()}" if self.made else head

    def _after_made(self) -> str:
        count = len(self.made)
        return f" after the {count} move{'s' * (count != 1)} made" if count else ""

    def text(self) -> str:
        """The moves with what each removed, and the boards after them, as ``solve``
        draws a plan."""
        if self.solution is None or not self.steps:
            return "\n".join(self.lines()) + "\n"
        head = self._head() + (f", {self.progress}" if self.progress is not None else "")
        return head + "\n" + render(self.game, self.instance, self.solution, "txt")

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "puzzle": self.game.name,
            "instance": self.name,
            "status": self.status,
            "plan": "the fewest moves" if self.shortest else "moves",
        }
        if self.progress is not None:
            data["progress"] = self.progress
        if self.encoding == "edited":
            data["encoding"] = "edited"
        data |= recheck_fields(self.clues, [], "")
        data["start"] = list(self.made)
        atoms = [str(step.atom) for step in self.steps]
        data["steps"] = [
            {
                "literals": [atoms[number - 1]],
                "because": [],
                "after": atoms[: number - 1],
                "cost": 1,
                "text": step.text,
                "move": step.move,
            }
            for number, step in enumerate(self.steps, 1)
        ]
        return data

    def frames(self) -> list[Frame]:
        """The start and each move drawn on the board it is made on (marked, with the
        board after it); a frame's ``entries`` are the moves made up to it, the player's
        first, as progress names them ("Play from here")."""
        start = self.game.unsolved(self.instance)
        drawn = render(self.game, self.instance, start, "svg") if start is not None else ""
        said = f"the start: the board{self._after_made()}"
        if self.status == "unsolvable":
            said += "; " + self.lines()[-1]
        if self.progress is not None:
            said += "; " + self._cut_short()
        shown = [Frame(0, "the start", said, drawn, entries=list(self.made))]
        moves = list(self.made)
        for number, step in enumerate(self.steps, 1):
            moves.append(step.move)
            title = f"move {number} of {len(self.steps)}"
            board = render(self.game, step.board, step.opening, "svg")
            shown.append(Frame(number, title, step.text, board, entries=list(moves)))
        return shown

    def svg(self) -> str:
        from .walkthrough_views import svg

        return svg(self)

    def _repr_html_(self) -> str:
        from .walkthrough_views import html

        return html(self)

    def __repr__(self) -> str:
        return f"<{self.lines()[0]}>"


def plan_walkthrough(
    puzzle: Puzzle[Any, Any],
    instance: str | Path | None = None,
    *,
    progress: str | None = None,
    encoding: str | Path | None = None,
    timeout: float | None = None,
    partial: bool = True,
    reserve: float | None = None,
) -> PlanWalkthrough:
    """The proved-shortest plan from the board (after the player's moves) to a clear
    board, move by move. ``timeout`` bounds the search: TimeLimit past it, but that with
    ``partial`` the search stops ``reserve`` seconds before the limit (``timeout``, or
    a guarded child's own: ``search_time``), and what it found is the answer, status
    ``timeout`` (``interrupted`` on Ctrl-C)."""
    plan = planned(
        puzzle,
        instance,
        progress,
        encoding,
        search_time(timeout, reserve) if partial else timeout,
        keep_cut=partial,
    )
    game, board, result = plan.game, plan.board, plan.result
    report = PlanWalkthrough(puzzle, board, plan.name, "solved", list(puzzle.facts(board)))
    report.made = plan.made
    if result is None:  # the moves made clear the board
        return report
    report.encoding = result.encoding
    cut_short = result.status in (TIMEOUT, INTERRUPTED)
    if cut_short:  # what the search proved, and below the plan it found, if any
        report.status, report.shortest = result.status, False
        report.progress = result.progress or "proved: nothing yet"
    if result.solution is None:
        report.status = report.status if cut_short else "unsolvable"
        return report
    solution = result.solution.data
    report.solution = solution
    report.shortest = puzzle.to_dict(board, solution).get("shortest", True) is not False
    report.steps = _moves(puzzle, game, board, solution)
    return report


def search_time(timeout: float | None, reserve: float | None) -> float | None:
    """The seconds a walkthrough's search may take: up to ``reserve`` seconds before the
    limit (``timeout``, or a guarded child's own: ``time_left``), left for drawing the
    moves and handing them over (``walkthrough.reserved``); a limit already past is
    TimeLimit."""
    from .walkthrough import reserved

    limits = [limit for limit in (timeout, time_left()) if limit is not None]
    if not limits:
        return None
    limit = min(limits)
    if (seconds := limit - reserved(limit, reserve)) <= 0:
        raise unproved(timeout if timeout is not None else limit)
    return seconds


def _moves(
    puzzle: Puzzle[Any, Any], game: PlanHints[Any, Any], board: Any, solution: Any
) -> list[PlanStep]:
    """Each move of the plan, drawn on the board it is made on."""
    moves = game.progress_of(solution)
    atoms = game.move_atoms(board, solution)
    steps = []
    on = board
    for number, (move, atom) in enumerate(zip(moves, atoms, strict=True)):
        rest = puzzle.parse_solution(on, "".join(f"{m}\n" for m in moves[number:]), "plan")
        text = game.first_move(on, rest)[1]
        steps.append(PlanStep(move, text, atom, on, game.opening(on, rest)))
        after = game.board_after(on, f"{move}\n", "plan")
        if after is None:
            break
        on = after
    return steps
