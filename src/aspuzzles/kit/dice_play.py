"""The dice puzzles on the web board: a legend of the pieces, each with its name, its
letter, its colour (the board's while it is played) and its shape drawn in every
orientation, with where it can be laid: a piece chosen in the legend is laid in its
orientation at a place of the board (the anchor: its first cell in numbering order),
every cell it covers set to the piece's shape."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clingo import Symbol

from ..capabilities import Play
from .dice_hints import entry_parts

if TYPE_CHECKING:
    from .dice import DiceRoll, DiceTiling


def orientations(puzzle: DiceTiling, shape: str, colour: str, letter: str) -> list[dict[str, Any]]:
    """The shape's orientations in the order its placements meet them (turns, then
    mirrored), each drawn and with its placements by anchor place."""
    board = puzzle.board()
    found: dict[frozenset[Any], dict[str, list[str]]] = {}
    for placement in puzzle.placements[shape]:
        form = puzzle.normalise(frozenset(board[n - 1] for n in placement))
        places = [",".join(map(str, puzzle.place(n))) for n in sorted(placement)]
        found.setdefault(form, {}).setdefault(places[0], places)
    return [{"svg": puzzle.piece_svg(form, colour, letter), "at": at} for form, at in found.items()]


def legend(puzzle: DiceTiling, entries: list[Symbol]) -> list[dict[str, Any]]:
    """Every piece: its shape's name, letter, colour, how many come in the box and how
    many are laid (cells covered over its size), and its orientations."""
    covered: dict[str, int] = {}
    for entry in entries:
        if entry.match("covered", 2):
            name = entry_parts(entry)[1]
            covered[name] = covered.get(name, 0) + 1
    colours = piece_colours(puzzle)
    letters = puzzle.letters()
    pieces = []
    for shape, _, count in puzzle.pieces:
        name = shape.name
        pieces.append(
            {
                "id": name,
                "label": name,
                "letter": letters[name],
                "colour": colours[name],
                "count": count,
                "placed": covered.get(name, 0) // len(shape.paths),
                "orientations": orientations(puzzle, name, colours[name], letters[name]),
            }
        )
    return pieces


def piece_colours(puzzle: DiceTiling) -> dict[str, str]:
    """A colour for every piece's shape, the same whichever are laid (the board drawn
    while it is played uses these)."""
    return puzzle.colours([shape.name for shape, _, _ in puzzle.pieces])


class DicePlay(Play["DiceRoll"]):
    def __init__(self, puzzle: DiceTiling) -> None:
        self.puzzle = puzzle

    def panel(self, instance: DiceRoll, entries: list[Symbol]) -> dict[str, Any]:
        return {"legend": legend(self.puzzle, entries)}
