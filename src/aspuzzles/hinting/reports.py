"""What hints, explanations and grades report: each draws itself in a terminal, as
JSON, as SVG and in a notebook."""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Any

from clingo import Symbol

from ..capabilities import Hints, offered
from ..driver.loading import EDITED
from ..driver.reasoning import CHOICE, SEARCH
from ..puzzle import Puzzle, render


def hintable(game: Puzzle[Any, Any]) -> Hints[Any, Any]:
    """The puzzle's hints slot, or a one-line error for a puzzle without one."""
    return offered(game.hints(), game.name, game.without("hints"))


class BoardReport:
    """How a report with a board shows itself: its ``lines()``, then its board drawn
    by ``draw(form)`` (text, SVG, and both in a notebook)."""

    def lines(self) -> list[str]:
        raise NotImplementedError

    def draw(self, form: str) -> str:
        raise NotImplementedError

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


def recheck_fields(clues: list[Symbol], facts: list[Symbol], program: str) -> dict[str, Any]:
    """The JSON fields from which a report's reasons are re-proved with clingo alone:
    every clue, the other facts, and a bare instance's program text."""
    data: dict[str, Any] = {
        "clues": [str(clue) for clue in clues],
        "facts": [str(fact) for fact in facts],
    }
    if program:
        data["program"] = program
    return data


@dataclass
class Finding:
    """An entry (a hint, or a mistake) and what it rests on: clues and progress."""

    level: str | None
    entry: Symbol
    reasons: list[Symbol] = field(default_factory=list)


@dataclass(repr=False)
class Report(BoardReport):
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
    #: The clues reasoned with: a reason is one of them, or one of the progress entries.
    clues: frozenset[Symbol] = frozenset()

    @property
    def puzzle(self) -> Hints[Any, Any]:
        return hintable(self.game)

    def _reason(self, symbol: Symbol) -> Any:
        if symbol in self.clues:
            return self.puzzle.clue_data(self.instance, symbol)
        return self.puzzle.entry_data(self.instance, symbol)

    def _mistake(self, finding: Finding) -> Any:
        """A mistake as JSON: the entry's object with its ``reasons``; an entry written
        as an atom (a bare encoding's) stands alone, its reasons in ``mistake_reasons``."""
        entry = self.puzzle.entry_data(self.instance, finding.entry)
        if not isinstance(entry, dict):
            return entry
        return {**entry, "reasons": [self._reason(symbol) for symbol in finding.reasons]}

    def _reason_text(self, symbol: Symbol) -> str:
        if symbol in self.clues:
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
        data["mistakes"] = [self._mistake(finding) for finding in self.mistakes]
        if self.conflict:  # entries each possible alone that cannot all hold together
            data["contradiction"] = {
                "entries": [self._reason(e) for e in self.conflict if e not in self.clues],
                "reasons": [self._reason(c) for c in self.conflict if c in self.clues],
            }
        if any(isinstance(mistake, str) for mistake in data["mistakes"]):
            data["mistake_reasons"] = {
                str(finding.entry): [self._reason(symbol) for symbol in finding.reasons]
                for finding in self.mistakes
            }
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
        elif self.conflict:
            lines.append("these entries cannot all hold together:")
            lines += [f"  {self._reason_text(s)}" for s in self.contradicting()]
            lines += self._because([s for s in self.conflict if s in self.clues], "because of")
        return lines

    def contradicting(self) -> list[Symbol]:
        """The player's entries that cannot all hold together (each may hold alone):
        the entries of a hint's minimal conflict."""
        if self.kind == "explain":
            return []
        return [symbol for symbol in self.conflict if symbol not in self.clues]

    def _because(self, reasons: list[Symbol], verb: str) -> list[str]:
        if not reasons:
            return []
        return [f"  {verb}: " + "; ".join(self._reason_text(symbol) for symbol in reasons)]

    def marked(self) -> list[Symbol]:
        """What the board marks: the hint and its reasons (or, without a hint, the first
        mistake's reasons), every mistake, and the conflict."""
        chosen = self.hints[:1] or self.mistakes[:1]
        picked = [finding.entry for finding in chosen]
        for finding in chosen:
            picked += finding.reasons
        picked += [m.entry for m in self.mistakes if m.entry not in picked]
        return picked + self.conflict

    def draw(self, form: str) -> str:
        """The board with the player's entries, mistakes included and marked, and the
        hinted entry (in place of a mistake in its cell, as its correction)."""
        hinted = [finding.entry for finding in self.hints[:1]]
        shown = [*self.progress, *hinted]
        return self.puzzle.draw_progress(self.instance, shown, self.marked(), form)

    def draw_mistakes(self, form: str) -> str:
        """The board with the player's entries, the mistakes marked (the web board's
        Check)."""
        mistakes = [finding.entry for finding in self.mistakes] + self.contradicting()
        return self.puzzle.draw_progress(self.instance, list(self.progress), mistakes, form)


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
    #: The level a person meets, from a walkthrough (``grade(difficulty=True)``), and
    #: its score (:mod:`.difficulty`); None where not asked or not unique.
    difficulty: str | None = None
    score: float | None = None
    #: ``graded``; or, where a time limit or Ctrl-C stopped the walkthrough that reads
    #: the difficulty, ``timeout`` or ``interrupted``: the grade stands, the difficulty
    #: is not known, and ``walked`` says how many of its steps were taken.
    status: str = "graded"
    walked: int = 0

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "puzzle": self.puzzle,
            "instance": self.instance,
            "grade": self.grade,
            "steps": dict(self.steps),
            "unique": self.unique,
            "laid_first": list(self.laid_first),
        }
        if self.difficulty is not None:
            data["difficulty"] = self.difficulty
            data["score"] = self.score
        if self.status != "graded":
            data["status"] = self.status
            data["walked"] = self.walked
        if self.encoding == EDITED:
            data["encoding"] = EDITED
        return data

    def summary(self) -> str:
        done = ", ".join(f"{count} by {level}" for level, count in self.steps.items() if count)
        first = f"{'; '.join(self.laid_first)} laid first; " if self.laid_first else ""
        note = "" if self.unique else "; the puzzle has more than one solution"
        if self.difficulty is not None:
            note += f"; difficulty {self.difficulty} (score {self.score:g})"
        elif self.status != "graded":
            walked = f"{self.walked} step{'s' * (self.walked != 1)}"
            note += f"; difficulty not reached: {walked} of its walkthrough taken"
        return (
            f"{self.puzzle} {self.instance}: {self.grade} "
            f"({first}{done or 'nothing to fill in'}{note})"
        )

    def text(self) -> str:
        return self.summary() + "\n"

    def found_before_limit(self) -> str:
        """What a grade cut short shows: the grade, without the difficulty."""
        return "the grade; the difficulty's walkthrough was not finished"

    def svg(self) -> str:
        """The summary as a drawing (a grade has no board): what ``--format svg``
        shows."""
        from ..render import text_svg

        return text_svg(self.summary())

    def _repr_html_(self) -> str:
        return f"<p>{escape(self.summary())}</p>"

    def __repr__(self) -> str:
        return f"<Grade {self.summary()}>"

    def __str__(self) -> str:
        return self.summary() + "\n"


def steps_found(count: int) -> str:
    """What a walkthrough cut short by a time limit or Ctrl-C shows: its steps."""
    return f"what was found before it ({count} step{'s' * (count != 1)})"


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
    #: The plan cut to the hinted move: the drawing marks the move and shows the board
    #: after it (the text names the move under the board as it is).
    opening: Any = None
    #: The encoding's standing (``driver.loading``): ``edited`` is said in the JSON.
    encoding: str = "shipped"
    #: Whether the player's moves were played first: a board stuck before any move
    #: is one no plan clears.
    moved: bool = False

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
        elif self.status == "stuck" and self.moved:
            lines.append("the moves made can no longer lead to a clear board")
        elif self.status == "stuck":
            lines.append("no plan clears this board")
        return lines

    def text(self) -> str:
        drawing = render(self.game, self.instance, self.board, "txt") if self.board else ""
        return "\n".join(self.lines()) + "\n" + drawing

    def svg(self) -> str:
        shown = self.board if self.opening is None else self.opening
        return render(self.game, self.instance, shown, "svg") if shown else ""

    def _repr_html_(self) -> str:
        return "<div><p>" + "<br>".join(map(escape, self.lines())) + f"</p>{self.svg()}</div>"

    def __repr__(self) -> str:
        return f"<{self.lines()[0]}>"
