"""The dice puzzles (Genius Star, Genius Square) in a person's terms, for hints.

An entry is a cell and the piece that covers it (``covered(N,S)``, defined in the
encoding's ``hints`` part): a person lays a piece by seeing which piece must cover a
cell. The clues are the dice: ``blocked(N)``. A dropped die leaves its cell open either
way (blocked or covered), so the placements over every cell are all listed, not only
those the roll leaves free.

Progress is the JSON that ``aspuzzles check`` reads, with cells left out:
``{"cells": {"A1": "I4", "A2": "I4"}}``; a twin's copy (``T3a``) names its shape.

As JSON: an entry is ``{"cell": "A1", "piece": "I4"}``, a die ``{"die": "B2"}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clingo import Function, Number, Symbol

from ..capabilities import Hints
from ..errors import InputError
from ..puzzle import draw, progress_json

if TYPE_CHECKING:
    from .dice import DiceRoll, DiceTiling, Tiling

#: The atoms a player fills in: which piece covers a cell.
ENTRY = ("covered", 2)
CLUES = frozenset({"blocked"})


def hint_facts(puzzle: DiceTiling, instance: DiceRoll) -> list[Symbol]:
    """Every placement of every piece (none left out for the dice) and the dice as
    clues."""
    facts = puzzle.facts(instance._replace(blocked=()))
    return facts + [Function("blocked", [Number(n)]) for n in instance.blocked]


def entry_atom(number: int, shape: str) -> Symbol:
    return Function("covered", [Number(number), Function(shape.lower())])


def entry_parts(entry: Symbol) -> tuple[int, str]:
    number, shape = entry.arguments
    return number.number, shape.name.upper()


def entry_data(puzzle: DiceTiling, entry: Symbol) -> dict[str, Any]:
    number, shape = entry_parts(entry)
    return {"cell": puzzle.label(number), "piece": shape}


def entry_text(puzzle: DiceTiling, entry: Symbol) -> str:
    number, shape = entry_parts(entry)
    return f"{puzzle.label(number)} is covered by the {shape}"


def entry_holds(puzzle: DiceTiling, instance: DiceRoll, solution: Tiling, entry: Symbol) -> bool:
    number, shape = entry_parts(entry)
    name = solution.cells.get(number)
    return name is not None and puzzle.shape_of(instance, name) == shape


def clue_data(puzzle: DiceTiling, fact: Symbol) -> dict[str, Any]:
    return {"die": puzzle.label(fact.arguments[0].number)}


def clue_text(puzzle: DiceTiling, fact: Symbol) -> str:
    return f"the die on {puzzle.label(fact.arguments[0].number)}"


def parse_progress(puzzle: DiceTiling, instance: DiceRoll, text: str, source: str) -> list[Symbol]:
    """The cells a player has covered so far, each with its piece's shape."""
    data = progress_json(text, source)
    tiling = puzzle.from_dict(instance, data, source)
    entries = []
    for number, name in sorted(tiling.cells.items()):
        if number in instance.blocked:
            raise InputError(f"{puzzle.label(number)} holds a die, not a piece", source)
        shape = puzzle.shape_of(instance, name)
        if shape is None:
            raise InputError(f"no piece is called {name}", source)
        entries.append(entry_atom(number, shape))
    return entries


def draw_progress(
    puzzle: DiceTiling, instance: DiceRoll, entries: list[Symbol], marked: list[Symbol], form: str
) -> str:
    """The board with the covered cells filled in; marked cells (the hint) in lower
    case and framed in red, marked dice (its clues) as ``X`` and framed."""
    cells = {number: shape for number, shape in map(entry_parts, entries)}
    view = puzzle.as_tiling(instance, cells)
    hinted = {entry_parts(e)[0] for e in marked if e.match(*ENTRY)}
    dice = {fact.arguments[0].number for fact in marked if fact.match("blocked", 1)}
    context = puzzle.template_context(instance, view)
    # A piece keeps one colour while the board is played (the web board's legend's).
    names = [shape.name for shape, _, _ in puzzle.pieces] + list(view.cells.values())
    context["colours"] = puzzle.colours(sorted(set(names)))
    for row in context.get("grid") or context["rows"]:
        for cell in row:
            cell["marked"] = cell["number"] in hinted | dice
            if cell["number"] in hinted:
                cell["letter"] = cell["letter"].lower()
            elif cell["number"] in dice:
                cell["letter"] = "X"
    return draw(puzzle, context, form)


class DiceHints(Hints["DiceRoll", "Tiling"]):
    """The dice puzzles' hints slot: a cell and the piece covering it is an entry, a
    die a clue."""

    entry_kinds = (("covered", 2),)

    def __init__(self, puzzle: DiceTiling) -> None:
        self.puzzle = puzzle

    def hint_facts(self, instance: DiceRoll) -> list[Symbol]:
        return hint_facts(self.puzzle, instance)

    def entry_holds(self, instance: DiceRoll, solution: Tiling, entry: Symbol) -> bool:
        return entry_holds(self.puzzle, instance, solution, entry)

    def entry_data(self, instance: DiceRoll, entry: Symbol) -> dict[str, Any]:
        return entry_data(self.puzzle, entry)

    def entry_text(self, instance: DiceRoll, entry: Symbol) -> str:
        return entry_text(self.puzzle, entry)

    def entry_place(self, instance: DiceRoll, entry: Symbol) -> tuple[str, str]:
        number, shape = entry_parts(entry)
        row, col = self.puzzle.place(number)
        return f"{row},{col}", shape

    def clue_data(self, instance: DiceRoll, clue: Symbol) -> dict[str, Any]:
        return clue_data(self.puzzle, clue)

    def clue_text(self, instance: DiceRoll, clue: Symbol) -> str:
        return clue_text(self.puzzle, clue)

    def parse_progress(self, instance: DiceRoll, text: str, source: str) -> list[Symbol]:
        return parse_progress(self.puzzle, instance, text, source)

    def draw_progress(
        self, instance: DiceRoll, entries: list[Symbol], marked: list[Symbol], form: str
    ) -> str:
        return draw_progress(self.puzzle, instance, entries, marked, form)
