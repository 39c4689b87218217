"""Haunted in a person's terms, for hints, mistakes and explanations: a monster in a cell
is an entry, a border clue or a total is a clue, and a player's progress comes as a game
saved by Tatham's Undead, a board picture with some monsters filled in, or the JSON
that ``aspuzzles check`` reads with cells left open.

Entries and clues as JSON (rows and columns from 1, row 1 at the top, as the
solution's ``grid`` is read): ``{"row": 3, "col": 4, "monster": "V"}``; a border clue is
``{"side": "top", "index": 2}`` (index from 1, left to right on top and bottom, top to
bottom on the sides), a total is ``{"total": "ghost"}``.
"""

from __future__ import annotations

import re
from typing import Any

from clingo import Function, Number, Symbol

from ...capabilities import Hints
from ...errors import InputError
from ...puzzle import Puzzle, draw, progress_json
from .model import KINDS, LETTER, MIRRORS, HauntedInstance, HauntedSolution
from .picture import content_lines, parse_picture
from .savefile import is_save_file, save_entries
from .sight import clue_place, path

#: The atoms a player fills in: one monster per cell.
ENTRY = ("monster", 3)
#: The facts that are clues: each can be dropped from an explanation.
CLUES = frozenset({"clue", "total"})
#: A move of Undead's: a monster placed (``G``, ``V``, ``Z``) or a cell cleared (``E``)
#: at a monster cell's index; lower case letters are pencil marks.
MOVE = re.compile(r"([GVZEgvz])(\d+)")


def entry_atom(row: int, col: int, letter: str) -> Symbol:
    return Function("monster", [Number(row), Number(col), Function(KINDS[letter])])


# ---------------------------------------------------------------------------- progress
def _placed(instance: HauntedInstance, grid: tuple[str, ...], source: str) -> list[Symbol]:
    placed = []
    for row, (given_row, filled_row) in enumerate(zip(instance.grid, grid, strict=True), 1):
        for col, (given, filled) in enumerate(zip(given_row, filled_row, strict=True), 1):
            if filled in KINDS and given != filled:
                if given in MIRRORS:
                    raise InputError(f"cell ({row},{col}) is a mirror, not a monster cell", source)
                placed.append(entry_atom(row, col, filled))
            elif filled in MIRRORS and given != filled:
                raise InputError(f"cell ({row},{col}) has no mirror in the puzzle", source)
    return placed


def _json_progress(instance: HauntedInstance, text: str, source: str) -> list[Symbol]:
    data = progress_json(text, source)
    rows = data.get("grid") if isinstance(data, dict) else None
    if not isinstance(rows, list) or len(rows) != instance.height:
        raise InputError(f'expected {{"grid": [...]}} with {instance.height} rows', source)
    grid = []
    for number, row in enumerate(rows, 1):
        cells = list(row) if isinstance(row, str) else row
        if not isinstance(cells, list) or len(cells) != instance.width:
            raise InputError(f"row {number} of the grid must have {instance.width} cells", source)
        text_row = ""
        for cell in cells:
            value = "." if cell is None else cell
            if not isinstance(value, str) or value.upper() not in ".-/\\GVZ" or len(value) != 1:
                raise InputError(f"row {number}: a cell is {value!r}, not G, V, Z or .", source)
            text_row += value.upper().replace("-", ".")
        grid.append(text_row)
    return _placed(instance, tuple(grid), source)


def _saved_moves(instance: HauntedInstance, text: str, source: str) -> list[Symbol]:
    """The monsters on the board of a saved game at its current position (STATEPOS:
    moves undone after it are not counted). A move names a monster cell by its index
    among the monster cells, row by row, as Undead numbers them."""
    entries = save_entries(text, source)
    moves = [(line, value) for key, line, value in entries if key == "MOVE"]
    position = next((value for key, _, value in entries if key == "STATEPOS"), None)
    if position is not None and position.isdigit():
        moves = moves[: max(0, int(position) - 1)]
    cells = instance.cells()
    guess: dict[int, str] = {}
    for line, value in moves:
        for letter, index_text in MOVE.findall(value):
            index = int(index_text)
            if index >= len(cells):
                raise InputError(f"the move {letter}{index} names no monster cell", source, line)
            if letter == "E":
                guess.pop(index, None)
            elif letter.isupper():
                guess[index] = letter
    placed = []
    for index, letter in sorted(guess.items()):
        row, col = cells[index]
        if instance.grid[row][col] != letter:
            placed.append(entry_atom(row + 1, col + 1, letter))
    return placed


class HauntedHints(Hints[HauntedInstance, HauntedSolution]):
    """Haunted's hints slot: a monster in a cell is an entry; a border clue or a total
    is a clue."""

    entry_kinds = (("monster", 3),)

    def __init__(self, puzzle: Puzzle[HauntedInstance, HauntedSolution]) -> None:
        self.puzzle = puzzle

    def hint_facts(self, instance: HauntedInstance) -> list[Symbol]:
        return list(self.puzzle.facts(instance))

    def entry_data(self, instance: HauntedInstance, atom: Symbol) -> dict[str, Any]:
        row, col, kind = atom.arguments
        return {"row": row.number, "col": col.number, "monster": LETTER[kind.name]}

    def entry_place(self, instance: HauntedInstance, atom: Symbol) -> tuple[str, str]:
        row, col, kind = atom.arguments
        return f"{row.number},{col.number}", LETTER[kind.name]

    def entry_holds(
        self, instance: HauntedInstance, solution: HauntedSolution, atom: Symbol
    ) -> bool:
        row, col, kind = atom.arguments
        return solution.grid[row.number - 1][col.number - 1] == LETTER[kind.name]

    def entry_text(self, instance: HauntedInstance, atom: Symbol) -> str:
        row, col, kind = atom.arguments
        return f"cell ({row.number},{col.number}): a {kind.name}"

    def clue_data(self, instance: HauntedInstance, fact: Symbol) -> dict[str, Any]:
        if fact.name == "total":
            return {"total": fact.arguments[0].name}
        line = fact.arguments[0].number
        width, height = instance.width, instance.height
        if line < width:
            return {"side": "top", "index": line + 1}
        if line < width + height:
            return {"side": "right", "index": line - width + 1}
        if line < 2 * width + height:
            return {"side": "bottom", "index": width - (line - width - height)}
        return {"side": "left", "index": height - (line - 2 * width - height)}

    def clue_text(self, instance: HauntedInstance, fact: Symbol) -> str:
        if fact.name == "total":
            kind, total = fact.arguments
            return f"the {kind.name} total ({total.number})"
        line, seen = fact.arguments
        place = clue_place(instance.width, instance.height, line.number)
        return f"the clue {seen.number} at the {place}"

    def parse_progress(self, instance: HauntedInstance, text: str, source: str) -> list[Symbol]:
        """The monsters a player has placed so far, from a game saved by Undead (its MOVE
        lines; pencil marks are ignored), a board picture, or JSON ``{"grid": [...]}`` with
        ``.`` (or ``null`` in a list of cells) where a cell is still open."""
        if is_save_file(text):
            return _saved_moves(instance, text, source)
        if text.lstrip().startswith(("{", "[")):
            return _json_progress(instance, text, source)
        lines = content_lines(text)
        if not lines:
            raise InputError("no progress found (the file is empty or holds only comments)", source)
        board = parse_picture(lines, source)
        if (board.width, board.height) != (instance.width, instance.height):
            raise InputError(
                f"the progress is {board.width}x{board.height}, the puzzle {instance.width}x"
                f"{instance.height}",
                source,
            )
        return _placed(instance, board.grid, source)

    def draw_progress(
        self, instance: HauntedInstance, entries: list[Symbol], marked: list[Symbol], form: str
    ) -> str:
        """The board with the entries filled in; a marked entry is drawn in lower case in
        text (framed in red in SVG), marked clues in red."""
        grid = [list(row) for row in instance.grid]
        marked_set = set(marked)
        cells = set()
        for entry in entries:
            row, col, kind = (
                entry.arguments[0].number,
                entry.arguments[1].number,
                entry.arguments[2],
            )
            letter = LETTER[kind.name]
            grid[row - 1][col - 1] = letter.lower() if entry in marked_set else letter
            if entry in marked_set:
                cells.add((row - 1, col - 1))
        for entry in marked:
            if entry.match("monster", 3):
                cells.add((entry.arguments[0].number - 1, entry.arguments[1].number - 1))
        clues = {
            (data["side"], data["index"])
            for data in (self.clue_data(instance, fact) for fact in marked if fact.match("clue", 2))
        }
        context = self.puzzle.template_context(
            instance, HauntedSolution(tuple("".join(r) for r in grid))
        )
        totals = {LETTER[fact.arguments[0].name] for fact in marked if fact.match("total", 2)}
        sights = [
            path(instance.grid, fact.arguments[0].number)
            for fact in marked
            if fact.match("clue", 2)
        ]
        context.update(marked=cells, marked_clues=clues, marked_totals=totals, sights=sights)
        if form == "txt":
            for side in ("top", "right", "bottom", "left"):
                context[side] = [
                    f"[{clue}]" if (side, index) in clues else clue
                    for index, clue in enumerate(context[side], start=1)
                ]
            context["cell_width"] = max(
                context["cell_width"], *(len(c) + 1 for c in context["top"])
            )
            context["cell_width"] = max(
                context["cell_width"], *(len(c) + 1 for c in context["bottom"])
            )
        return draw(self.puzzle, context, form)
