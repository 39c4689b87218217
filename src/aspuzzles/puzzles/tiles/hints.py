"""Edge-matching tiles in a person's terms, for hints, mistakes and explanations.

An entry is a tile on a place in a turn: ``place(R,C,T,O)``, the encoding's own shown
atom. The clues are the tiles themselves (``tile(T)``: a dropped tile may lie anywhere
any number of times, or nowhere). Pieces fixed in place (``fix`` lines) are on the
board from the start, as a player's first entries are, never a hint. The whole-board
turn is not broken (that is no clue, only a pick among the board's turns), so a board
whose solution is unique only up to turning it forces nothing until a first tile is
laid: the hint is then a choice, and a grade lays the top-left tile first
(``grade_anchor``).

Progress is the JSON that ``aspuzzles check`` reads, with places left open:
``{"placement": [[[3, 1], null], ...]}`` (``null`` or ``[0, 0]`` for an open place).

As JSON (rows and columns from 1): an entry is ``{"row": 1, "col": 2, "tile": 3,
"turn": 1}`` (clockwise quarter turns, as in the solution), a tile ``{"tile": 3}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clingo import Function, Number, Symbol

from ...capabilities import Hints
from ...errors import InputError
from ...puzzle import draw, json_field, progress_json
from .model import TilesInstance, TilesSolution, distinct_rotations, rotate, shown_turn
from .symmetry import kept_rotations, symmetry_break

if TYPE_CHECKING:
    from . import Tiles

ENTRY = ("place", 4)
CLUES = frozenset({"tile"})


def hint_facts(puzzle: Tiles, instance: TilesInstance) -> list[Symbol]:
    """The puzzle's facts without symmetry breaking."""
    return puzzle.facts(instance._replace(symmetry_breaking=False))


def grade_anchor(instance: TilesInstance, entries: set[Symbol]) -> list[Symbol]:
    """The tile on the top-left place, as a solution has it: laid before grading, it
    picks that solution's turn of the whole board (no clue tells the turns apart).
    Nothing is laid where fixed pieces already pick a turn."""
    if len(instance.tiles) > 1 and kept_rotations(instance) == 1:
        return []
    corner = sorted(entry for entry in entries if _numbers(entry)[:2] == (1, 1))
    return corner[:1]


def _numbers(entry: Symbol) -> tuple[int, ...]:
    return tuple(argument.number for argument in entry.arguments)


def entry_data(entry: Symbol) -> dict[str, Any]:
    row, col, tile, turn = _numbers(entry)
    return {"row": row, "col": col, "tile": tile, "turn": turn}


def entry_text(entry: Symbol) -> str:
    row, col, tile, turn = _numbers(entry)
    quarters = f"{turn} quarter{'s' if turn > 1 else ''}"
    turned = "unturned" if turn == 0 else f"turned {quarters} clockwise"
    return f"tile {tile} at ({row},{col}), {turned}"


def entry_holds(instance: TilesInstance, solution: TilesSolution, entry: Symbol) -> bool:
    """The same tile on the place, showing the same picture."""
    row, col, tile, turn = _numbers(entry)
    laid, turns = solution.placement[row - 1][col - 1]
    edges = instance.tiles[tile - 1]
    return laid == tile and rotate(edges, turns) == rotate(edges, turn)


def clue_data(fact: Symbol) -> dict[str, Any]:
    return {"tile": fact.arguments[0].number}


def clue_text(fact: Symbol) -> str:
    return f"tile {fact.arguments[0].number}"


def parse_progress(puzzle: Tiles, instance: TilesInstance, text: str, source: str) -> list[Symbol]:
    """The tiles a player has laid so far (turns as the solution's JSON gives them)."""
    data = progress_json(text, source)
    rows = json_field(data, "placement", source)
    if not isinstance(rows, list) or len(rows) != instance.rows:
        raise InputError(f'expected {{"placement": [...]}} with {instance.rows} rows', source)
    entries = []
    for row, cells in enumerate(rows, 1):
        if not isinstance(cells, list) or len(cells) != instance.cols:
            raise InputError(f"row {row} of the placement must have {instance.cols} places", source)
        for col, cell in enumerate(cells, 1):
            if cell is None or cell == [0, 0]:
                continue
            entries.append(_laid(instance, cell, row, col, source))
    return entries


def _laid(instance: TilesInstance, cell: Any, row: int, col: int, source: str) -> Symbol:
    """One laid tile as an entry, its turn as the encoding names it (the first of the
    turns that show the same picture)."""
    if not (isinstance(cell, list) and len(cell) == 2 and all(type(v) is int for v in cell)):
        raise InputError(f"({row},{col}): expected [tile, turns] or null, got {cell!r}", source)
    tile, turns = cell
    if not 1 <= tile <= len(instance.tiles):
        raise InputError(f"({row},{col}): there is no tile {tile}", source)
    shown = shown_turn(instance.tiles[tile - 1], turns % 4)
    assert shown in distinct_rotations(instance.tiles[tile - 1])
    return Function("place", [Number(row), Number(col), Number(tile), Number(shown)])


def draw_progress(
    puzzle: Tiles, instance: TilesInstance, entries: list[Symbol], marked: list[Symbol], form: str
) -> str:
    """The board with the laid tiles; the marked place (the hint) framed in red in
    SVG, bracketed in text; marked tiles (its clues) are named below the board."""
    at = {(row, col): (tile, turn) for row, col, tile, turn in map(_numbers, entries)}
    for fix in instance.fixed:
        at[fix.row, fix.col] = (fix.tile, shown_turn(instance.tiles[fix.tile - 1], fix.turns))
    placement = tuple(
        tuple(at.get((row, col), (0, 0)) for col in range(1, instance.cols + 1))
        for row in range(1, instance.rows + 1)
    )
    places = {(n[0] - 1, n[1] - 1) for n in map(_numbers, marked) if len(n) == 4}
    tiles = [fact.arguments[0].number for fact in marked if fact.match("tile", 1)]
    context = puzzle.template_context(instance, TilesSolution(placement))
    context["marked"] = places
    for row, col in places:
        context["labels"][row][col] = f"[{context['labels'][row][col]}]"
    widest = max(len(label) for row in context["labels"] for label in row)
    context["label_width"] = max(context["label_width"], widest)
    board = draw(puzzle, context, form)
    if form == "txt" and tiles:
        board += "marked tiles: " + " ".join(map(str, tiles)) + "\n"
    return board


class TilesHints(Hints[TilesInstance, TilesSolution]):
    """The hints slot of the puzzle (see ``capabilities.Hints``)."""

    anchored = True
    entry_kinds = (("place", 4),)

    def __init__(self, puzzle: Any) -> None:
        self.puzzle = puzzle

    def hint_facts(self, instance: TilesInstance) -> list[Symbol]:
        return hint_facts(self.puzzle, instance)

    def entry_holds(self, instance: TilesInstance, solution: TilesSolution, entry: Symbol) -> bool:
        return entry_holds(instance, solution, entry)

    def entry_data(self, instance: TilesInstance, entry: Symbol) -> dict[str, Any]:
        return entry_data(entry)

    def entry_text(self, instance: TilesInstance, entry: Symbol) -> str:
        return entry_text(entry)

    def entry_place(self, instance: TilesInstance, entry: Symbol) -> tuple[str, str]:
        row, col, tile, turn = _numbers(entry)
        return f"{row},{col}", f"{tile}/{turn}"

    def clue_data(self, instance: TilesInstance, clue: Symbol) -> dict[str, Any]:
        return clue_data(clue)

    def clue_text(self, instance: TilesInstance, clue: Symbol) -> str:
        return clue_text(clue)

    def parse_progress(self, instance: TilesInstance, text: str, source: str) -> list[Symbol]:
        return parse_progress(self.puzzle, instance, text, source)

    def grade_anchor(self, instance: TilesInstance, entries: set[Symbol]) -> list[Symbol]:
        return grade_anchor(instance, entries)

    def class_size(self, instance: TilesInstance) -> int:
        return symmetry_break(instance).class_size

    def draw_progress(
        self, instance: TilesInstance, entries: list[Symbol], marked: list[Symbol], form: str
    ) -> str:
        return draw_progress(self.puzzle, instance, entries, marked, form)
