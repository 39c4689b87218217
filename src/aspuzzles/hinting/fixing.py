"""Fixing a board with mistakes: the fewest progress entries to take back so that the
rest leads to a solution (proved the fewest), every other set of that size up to a
limit, and for each entry taken back a subset-minimal reason it was wrong.

The search is the driver's (:func:`aspuzzles.driver.repairs.fewest_dropped`: implicit
hitting sets over unsatisfiable cores of the progress entries, the clues assumed). One
brave enumeration first finds the entries no solution holds at all: each is a core by
itself, and on a puzzle with one solution they are the whole answer, so the search
then takes a solve call or two. A reason is a minimal core of the kept entries and
the clues with the entry taken back assumed (``minimal_in_turn``: the clues dropped
while every kept entry is at hand, then the entries): the encoding, those clues (the
others free), those kept entries and the entry have no answer set, and dropping any
one of them gives one (where a test of that needs more search than its budget, the
member stays and the reason is said not proved minimal). The repair shown first is
checked against a solution decoded and passed by the puzzle's checker: every kept
entry holds in it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clingo import Symbol

from ..driver.repairs import fewest_dropped, minimal_in_turn
from ..errors import CheckFailed, InputError
from ..puzzle import Puzzle
from .grounding import Grounded, check_in_solution, ground_instance, loaded, places, read_progress
from .reports import BoardReport, hintable, recheck_fields

#: How many repairs of the fewest size are listed unless asked otherwise.
REPAIRS = 10

#: clasp's configuration for a repair's questions where the puzzle names none: its
#: conservative one, which answers the reasons' deletion tests faster than the one
#: geared to ASP problems that clingo picks (the 15x15 Haunted board, 40 boards of
#: 1-10 mistakes: 9% less time in all; Sudoku and Skyscrapers of Tatham's: 7-9%).
REPAIR_CONFIGURATION = "--configuration=frumpy"


def ground_for_repair(
    puzzle: Puzzle[Any, Any],
    parsed: Any,
    encoding: str | Path | None = None,
    timeout: float | None = None,
) -> Grounded:
    """The instance grounded for ``fix``'s questions: under ``REPAIR_CONFIGURATION``
    unless the puzzle's clingo options name a configuration of their own."""
    named = any(option.startswith("--configuration") for option in puzzle.clingo_options)
    options = () if named else (REPAIR_CONFIGURATION,)
    return ground_instance(puzzle, parsed, encoding, timeout, options)


@dataclass
class Change:
    """A progress entry to take back, and the clues and kept entries that rule it out
    (subset-minimal)."""

    entry: Symbol
    because: list[Symbol] = field(default_factory=list)
    #: Whether every member of ``because`` was proved needed (a test that needed more
    #: search than its budget keeps its member: the reason then holds, not proved
    #: subset-minimal).
    minimal: bool = True


@dataclass(repr=False)
class Fix(BoardReport):
    """What ``fix`` found: the entries to take back (``changes``, the first repair,
    each with its reason), every repair of that size found (``repairs``) and whether
    that is all of them (``complete``). Draws itself in a terminal, as JSON, as SVG
    and in a notebook."""

    game: Puzzle[Any, Any]
    instance: Any
    name: str
    status: str  # "mistakes", "correct" or "unsolvable"
    progress: list[Symbol]
    clues: list[Symbol]
    facts: list[Symbol]
    program: str = ""
    changes: list[Change] = field(default_factory=list)
    repairs: list[list[Symbol]] = field(default_factory=list)
    complete: bool = True
    #: Where there is no solution even with every entry taken back: clues that cannot
    #: all hold (subset-minimal).
    conflict: list[Symbol] = field(default_factory=list)
    encoding: str = "shipped"
    seconds: float = 0.0
    #: The solve calls the repair search made (its reasons not counted).
    calls: int = 0

    # -- words ---------------------------------------------------------------------
    def _entry(self, entry: Symbol) -> str:
        return hintable(self.game).entry_text(self.instance, entry)

    def _symbol(self, symbol: Symbol) -> str:
        if symbol in set(self.clues):
            return hintable(self.game).clue_text(self.instance, symbol)
        return "your " + self._entry(symbol)

    def change_text(self, change: Change) -> str:
        """A change as a sentence in the puzzle's words."""
        said = f"take back {self._entry(change.entry)}"
        if not change.because:
            return said + ": the rules alone rule it out"
        said += ", ruled out by " + "; ".join(self._symbol(s) for s in change.because)
        return (
            said if change.minimal else said + " (not proved the fewest within the search budget)"
        )

    def _counted(self) -> str:
        count = len(self.repairs)
        if not self.complete:
            return f"{count} repairs of that size listed; there are more"
        if count == 1:
            return "the only repair of that size"
        return f"{count} repairs of that size"

    def lines(self) -> list[str]:
        head = f"{self.game.name} {self.name}: {self.status}"
        lines = [head]
        if self.status == "correct":
            lines[0] += ", nothing to take back: your progress leads to a solution"
        elif self.status == "unsolvable":
            lines.append(
                "no solution even with all your progress taken back; these cannot all hold:"
            )
            lines += [f"  {self._symbol(symbol)}" for symbol in self.conflict]
        else:
            size = len(self.changes)
            lines[0] += f", {size} entr{'ies' if size != 1 else 'y'} to take back (the fewest)"
            lines += [self.change_text(change) for change in self.changes]
            lines.append(self._counted())
            for other in self.repairs[1:]:
                lines.append("  or take back " + "; ".join(self._entry(e) for e in other))
        return lines

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "puzzle": self.game.name,
            "instance": self.name,
            "status": self.status,
        }
        if self.encoding == "edited":
            data["encoding"] = "edited"
        data |= recheck_fields(self.clues, self.facts, self.program)
        data["progress"] = [str(entry) for entry in self.progress]
        data["changes"] = [
            {
                "entry": str(change.entry),
                "because": [str(symbol) for symbol in change.because],
                "minimal": change.minimal,
                "text": self.change_text(change),
            }
            for change in self.changes
        ]
        data["repairs"] = [[str(entry) for entry in repair] for repair in self.repairs]
        data["complete"] = self.complete
        if self.status == "unsolvable":
            data["conflict"] = [str(symbol) for symbol in self.conflict]
        return data

    # -- drawings ------------------------------------------------------------------
    def marked(self) -> list[Symbol]:
        """What the board marks: the entries to take back (or the clues in conflict)."""
        return [change.entry for change in self.changes] or list(self.conflict)

    def draw(self, form: str) -> str:
        """The board with the player's entries, those to take back marked."""
        return hintable(self.game).draw_progress(
            self.instance, list(self.progress), self.marked(), form
        )


def fix(
    puzzle: Puzzle[Any, Any],
    instance: str | Path | None = None,
    *,
    progress: str,
    repairs: int = REPAIRS,
    encoding: str | Path | None = None,
    timeout: float | None = None,
) -> Fix:
    """The fewest entries of the player's progress to take back so that the rest
    leads to a solution, each with a minimal reason, and every set of that size up to
    ``repairs`` (0: all). ``correct`` where nothing needs taking back, ``unsolvable``
    where the clues alone have no solution. ``timeout`` (seconds) bounds the whole
    question: TimeLimit when it runs out."""
    started = time.perf_counter()
    if puzzle.hints() is None and puzzle.plan_hints() is not None:
        raise InputError(
            f"{puzzle.name} is played by moves, not entries: nothing to take back "
            f"(aspuzzles hint {puzzle.name} --progress FILE gives the next move)"
        )
    if repairs < 0:
        raise InputError(f"repairs must be 0 (all) or more, not {repairs}")
    parsed, name = loaded(puzzle, instance)
    ground = ground_for_repair(puzzle, parsed, encoding, timeout)
    entries = list(dict.fromkeys(read_progress(puzzle, parsed, progress, ground)))
    reasoner = ground.reasoner
    clue_set = set(reasoner.clues)
    hints = ground.puzzle
    report = Fix(
        puzzle,
        ground.instance,
        name,
        "correct",
        entries,
        list(reasoner.clues),
        [fact for fact in hints.hint_facts(ground.instance) if fact not in clue_set],
        hints.hint_program(ground.instance),
        encoding=ground.standing,
    )
    if not reasoner.satisfiable([], reasoner.clues):
        report.status = "unsolvable"
        report.conflict = reasoner.minimal([])
    elif not reasoner.satisfiable([(entry, True) for entry in entries], reasoner.clues):
        report.status = "mistakes"
        _repair(ground, entries, repairs, report)
    report.seconds = time.perf_counter() - started
    return report


def _repair(ground: Grounded, entries: list[Symbol], limit: int, report: Fix) -> None:
    """The repairs and the reasons of the first one, into the report."""
    reasoner = ground.reasoner
    entries = reasoner.own(entries)
    # An entry that no solution holds (outside the brave consequences) is a core alone.
    possible = reasoner.possible([]) or set()
    alone = [[entry] for entry in entries if entry not in possible]
    clue_set = set(reasoner.clues)
    clues = [(clue, True) for clue in reasoner.in_force]
    found = fewest_dropped(reasoner, clues, entries, limit, alone)
    report.repairs, report.complete, report.calls = found.found, found.complete, found.calls
    first = set(found.found[0])
    kept = [entry for entry in entries if entry not in first]
    _check_repair(ground, kept)
    place = {symbol: n for n, symbol in enumerate([*reasoner.clues, *kept])}
    for entry in found.found[0]:
        # The clues are dropped while every kept entry is at hand, then the entries;
        # those sharing a place with the entry offered first, so that clasp's cores
        # (which hold the members their first conflict needs) stay near it.
        at_hand = _nearest_first(entry, kept)
        undecided: list[tuple[Symbol, bool]] = []
        core = minimal_in_turn(reasoner, [(entry, True)], at_hand, clues, undecided)
        because = [symbol for symbol, _ in core or []]
        if core is None or reasoner.satisfiable(
            [(entry, True), *((s, True) for s in because if s not in clue_set)],
            [s for s in because if s in clue_set],
        ):
            raise CheckFailed(
                f"the reason found for taking back an entry of '{ground.game.name}' does "
                f"not rule it out: {entry}"
            )
        ordered = sorted(because, key=place.__getitem__)
        report.changes.append(Change(entry, ordered, minimal=not undecided))


def _nearest_first(entry: Symbol, kept: list[Symbol]) -> list[tuple[Symbol, bool]]:
    """The kept entries (assumed), those sharing a place with ``entry`` first (a row,
    a column: ``places``), each part in the progress's order."""
    where = set(places(entry))
    near = [e for e in kept if not where.isdisjoint(places(e))]
    shared = set(near)
    return [(e, True) for e in [*near, *(e for e in kept if e not in shared)]]


def _check_repair(ground: Grounded, kept: list[Symbol]) -> None:
    """The kept entries against a solution decoded and passed by the puzzle's checker."""
    check_in_solution(ground, kept, kept, "a repair")
