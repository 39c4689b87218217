"""Edge-matching tiles: the 3x3 animal puzzle, Eternity II-style boards and unframed ones.

Place every square tile once, rotated freely, on a ROWS x COLS board so that every
shared edge matches. Style ``animal``: an edge is ``KIND_HALF`` (``lion_head``) and
touching edges match when the kind is equal and the halves differ; outer edges are
free. Style ``e2``: an edge is a colour number, touching edges match when equal, and
colour 0 (the grey frame) faces outwards exactly: on every outer side, never inside.
Style ``unframed``: colour numbers matching when equal, as in e2, but with no frame:
outer edges are free and 0 is a colour like any other (the unframed edge-matching
puzzles of SAT and CSP benchmarks).

Rotation convention: a placement is (tile id, r) with r the number of **clockwise**
quarter turns applied to the tile as listed; after r turns the listed edge (d - r) mod 4
is on side d (0 top, 1 right, 2 bottom, 3 left). The seed's SQL counts
counter-clockwise turns: its r is our (4 - r) mod 4.

Python computes the rotated tiles (and, for framed boards, where each may go) and
injects them as facts; the encoding states placement and matching.

One module a concern: ``model`` (tiles, boards, matching), ``formats`` (reading
boards), ``placements`` (where each turn of a tile may go), ``symmetry`` (whole-board
rotations), ``checker``, ``search`` (races, shortcuts and a greedy first answer for
score mode) and ``generate`` (planted boards).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from clingo import Function, String, Symbol

from ...asp import number
from ...capabilities import Generator
from ...errors import InputError, is_number
from ...generating import DIFFICULTY_OPTION, as_asked
from ...puzzle import Option, Puzzle, atom_parts, json_field
from ...render import wheel_colours
from ...strategy import Strategy
from .checker import check_placement, is_pair, mismatched_edges
from .formats import format_tiles, parse_tiles
from .generate import planted_tiles
from .model import (
    COLOUR_STYLES,
    FRAME,
    HALF_PAIRS,
    STYLES,
    TilesInstance,
    TilesSolution,
    partner,
    rotate,
    shown_turn,
)
from .placements import turns_and_cells
from .search import (
    TilesStrategy,
)
from .symmetry import symmetry_break

if TYPE_CHECKING:
    import random

    from .hints import TilesHints
    from .play import TilesPlay


class Tiles(Puzzle[TilesInstance, TilesSolution]):
    name = "tiles"
    title = "Edge-matching tiles (animal heads and tails, Eternity II style, unframed colours)"
    default_instance = "seed-big-cats-3x3.txt"
    accepts_inline = True  # an e2.bucas.name link on the command line

    def parse(self, text: str, source: str) -> TilesInstance:
        return parse_tiles(text, source)

    solve_options: ClassVar[tuple[Option, ...]] = (
        Option(
            "--raw",
            switch=True,
            help="tiles: keep the whole-board rotations apart (count raw placements)",
        ),
        Option(
            "--score",
            switch=True,
            help="tiles: let shared edges mismatch and find the placement with the fewest "
            "(Eternity II's contest score); the frame still faces out",
        ),
    )

    def configure(self, instance: TilesInstance, options: dict[str, Any]) -> TilesInstance:
        return instance._replace(
            symmetry_breaking=not options.get("raw", False),
            scored=options.get("score", False),
        )

    def strategy(self, instance: TilesInstance) -> Strategy[TilesInstance]:
        return TilesStrategy(instance)

    def facts(self, instance: TilesInstance) -> list[Symbol]:
        facts = [
            Function("rows", [number(instance.rows)]),
            Function("cols", [number(instance.cols)]),
        ]
        if instance.framed:
            facts.append(Function("frame", [String(FRAME)]))
        # Score mode names the pairs that match (pair/2) instead of the partners every
        # edge must face (partner/2): see the encoding's score part.
        relation = "pair" if instance.scored else "partner"
        values = sorted({edge for tile in instance.tiles for edge in tile})
        for value in values:
            facts.append(
                Function(relation, [String(value), String(partner(instance.style, value))])
            )
        for tile_id in range(1, len(instance.tiles) + 1):
            facts.append(Function("tile", [number(tile_id)]))
            for turns, edges, cells in turns_and_cells(instance, tile_id):
                shown = [String(edge) for edge in edges]
                facts.append(Function("rot", [number(tile_id), number(turns), *shown]))
                for row, col in cells:
                    facts.append(
                        Function("fits", [number(row), number(col), number(tile_id), number(turns)])
                    )
        for fix in instance.fixed:
            turns = shown_turn(instance.tiles[fix.tile - 1], fix.turns)
            facts.append(
                Function("fixed", [number(n) for n in (fix.row, fix.col, fix.tile, turns)])
            )
        if instance.symmetry_breaking:
            facts.extend(symmetry_break(instance).facts)
        return facts

    def decode(self, instance: TilesInstance, atoms: Sequence[Symbol]) -> TilesSolution:
        at: dict[tuple[int, int], tuple[int, int]] = {}
        mismatched: list[tuple[int, int, str]] = []
        for atom in atoms:
            name, arguments = atom_parts(atom)
            if name == "place" and len(arguments) == 4:
                row, col, tile_id, turns = (arg.number for arg in arguments)
                at[row, col] = (tile_id, turns)
            elif name == "mismatch" and len(arguments) == 3:
                on_row, on_col, side = arguments
                mismatched.append((on_row.number, on_col.number, side.name))
        return TilesSolution(
            tuple(
                tuple(at.get((row, col), (0, 0)) for col in range(1, instance.cols + 1))
                for row in range(1, instance.rows + 1)
            ),
            tuple(sorted(mismatched)) if instance.scored else None,
        )

    def check(self, instance: TilesInstance, solution: TilesSolution) -> list[str]:
        """Every rule, or in score mode every rule but matching, and then the
        mismatched edges the answer set names must be the ones the checker finds."""
        if not instance.scored:
            return check_placement(instance, solution.placement)
        problems = check_placement(instance, solution.placement, scored=True)
        if problems or solution.mismatched is None:
            return problems
        found = tuple(mismatched_edges(instance, solution.placement))
        if found != solution.mismatched:
            return [
                f"the answer set names {len(solution.mismatched)} mismatched edges, "
                f"the checker finds {len(found)}: {list(found)[:3]}"
            ]
        return []

    def to_dict(self, instance: TilesInstance, solution: TilesSolution) -> dict[str, Any]:
        data: dict[str, Any] = {
            "placement": [[list(cell) for cell in row] for row in solution.placement]
        }
        if solution.mismatched is not None:
            data["mismatched"] = [list(edge) for edge in solution.mismatched]
            data["matching"] = instance.shared_edges - len(solution.mismatched)
        return data

    def from_dict(self, instance: TilesInstance, data: Any, source: str) -> TilesSolution:
        rows = json_field(data, "placement", source)
        if not isinstance(rows, list) or not all(
            isinstance(row, list) and all(is_pair(cell) for cell in row) for row in rows
        ):
            raise InputError("'placement' must be rows of [tile id, turns] pairs", source)
        return TilesSolution(tuple(tuple((cell[0], cell[1]) for cell in row) for row in rows))

    def describe(self, instance: TilesInstance) -> str:
        return f"{instance.style} {instance.rows}x{instance.cols}"

    def template_context(self, instance: TilesInstance, solution: TilesSolution) -> dict[str, Any]:
        # Tile 0 is a cell not filled yet (a player's progress).
        placed = [
            [rotate(instance.tiles[t - 1], r) if t else ("", "", "", "") for t, r in row]
            for row in solution.placement
        ]
        label = short_label if instance.style == "animal" else str
        width = max(len(label(edge)) for tile in instance.tiles for edge in tile)
        values = sorted({edge for tile in instance.tiles for edge in tile})
        fixed = {(fix.row - 1, fix.col - 1) for fix in instance.fixed}
        mismatched = solution.mismatched
        if mismatched is None and instance.scored:  # a person's placement (aspuzzles check)
            mismatched = tuple(mismatched_edges(instance, solution.placement))
        labels = [
            [
                f"{t}/{r}" + ("*" if (row, col) in fixed else "") if t else "."
                for col, (t, r) in enumerate(cells)
            ]
            for row, cells in enumerate(solution.placement)
        ]
        return {
            "style": instance.style,
            "rows": instance.rows,
            "cols": instance.cols,
            "placement": solution.placement,
            "labels": labels,
            "label_width": max(5, *(len(label) for row in labels for label in row)),
            "fixed": fixed,
            "edges": [[[label(edge) for edge in tile] for tile in row] for row in placed],
            "raw_edges": placed,
            "width": width,
            "colours": palette(instance.style, values),
            "marked": set(),
            "mismatched": [(r - 1, c - 1, side) for r, c, side in mismatched or ()],
            "scored": mismatched is not None,
            "shared_edges": instance.shared_edges,
        }

    def draw_text(self, context: dict[str, Any]) -> str:
        """Each tile a box: its edges on four sides, id/turns in the middle; then a
        legend, and the score of a scored placement."""
        return tiles_text(context)

    # -- capabilities ------------------------------------------------------------------
    def hints(self) -> TilesHints:
        from .hints import TilesHints  # loaded when a hint command first asks

        return TilesHints(self)

    def play(self) -> TilesPlay:
        from .play import TilesPlay  # loaded when the web board first asks

        return TilesPlay()

    # ----------------------------------------------------------------- generator

    def generator(self) -> TilesGenerator:
        return TilesGenerator(self)


def tiles_text(context: dict[str, Any]) -> str:
    """The board as ``Tiles.draw_text`` draws it."""
    width, label_width = context["width"], context["label_width"]
    box = 2 * width + label_width + 2
    rule = ("+" + "-" * box) * context["cols"] + "+"
    lines = [rule]
    for labels, row in zip(context["labels"], context["edges"], strict=True):
        lines.append("|" + "".join(f"{tile[0].center(box)}|" for tile in row))
        lines.append(
            "|"
            + "".join(
                f"{tile[3].ljust(width)} {label.center(label_width)} {tile[1].rjust(width)}|"
                for tile, label in zip(row, labels, strict=True)
            )
        )
        lines.append("|" + "".join(f"{tile[2].center(box)}|" for tile in row))
        lines.append(rule)
    fixed = ", * fixed" if context["fixed"] else ""
    unframed = "; unframed: outer edges are free" if context["style"] == "unframed" else ""
    lines.append(
        f"(each tile: id/clockwise quarter turns{fixed}; edges as they face after "
        f"turning{unframed})"
    )
    if context["scored"]:
        mismatched, shared = context["mismatched"], context["shared_edges"]
        score = f"score: {shared - len(mismatched)} of {shared} shared edges match"
        if mismatched:
            named = ", ".join(f"({r + 1},{c + 1}) {side}" for r, c, side in mismatched[:8])
            more = f" and {len(mismatched) - 8} more" if len(mismatched) > 8 else ""
            score += f"; mismatched: {named}{more}"
        lines.append(score)
    return "".join(f"{line}\n" for line in lines)


def short_label(edge: str) -> str:
    """An animal half as the board shows it: ``lionH``; a numbered kind with its sign
    (``+3`` for ``3_head``, ``-3`` for ``3_tail``), as a list of signed edges wrote it."""
    if not edge:  # an open place
        return ""
    kind, half = edge.rsplit("_", 1)
    if is_number(kind):
        first = any(half == pair[0] for pair in HALF_PAIRS)
        return f"{'+' if first else '-'}{kind}"
    return f"{kind[:4]}{half[0].upper()}"


def palette(style: str, values: list[str]) -> dict[str, str]:
    """A colour per edge value: both halves of an animal kind share one, and e2's frame
    is grey (in ``unframed``, 0 is an ordinary colour and gets its own)."""
    kinds = sorted({v.rsplit("_", 1)[0] for v in values}) if style == "animal" else values
    colours = dict(zip(kinds, wheel_colours(len(kinds), saturation=65, lightness=62), strict=True))
    if style in COLOUR_STYLES:
        return colours | ({FRAME: "#8a8a8a"} if style == "e2" else {})
    return {value: colours[value.rsplit("_", 1)[0]] for value in values}


class TilesGenerator(Generator):
    """Tiles's generator (``aspuzzles generate``)."""

    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "--style",
            choices=STYLES,
            default="e2",
            help="e2: colour numbers inside a grey frame (Eternity II); animal: halves of "
            "animals, the other half of the same kind matching; unframed: colour numbers "
            "with free outer edges (default e2)",
        ),
        Option("--size", default="4x4", help="ROWSxCOLS (default 4x4)"),
        Option(
            "--kinds", type=int, default=6, help="edge kinds: colours without the frame, or animals"
        ),
        Option(
            "--border-kinds",
            type=int,
            default=0,
            help="(e2) colours 1..N only for edges along the frame, as in Eternity II; the "
            "--kinds inner colours are then numbered N+1.. (default 0: one shared palette)",
        ),
        Option(
            "--fix",
            type=int,
            default=0,
            metavar="N",
            help="give N tiles of the planted solution as fixed hint pieces (default 0)",
        ),
        Option(
            "--unique",
            switch=True,
            help="draw boards until one has exactly one solution up to turning the board",
        ),
        DIFFICULTY_OPTION,
        Option(
            "--seed", type=int, default=None, help="random seed (the same seed, the same board)"
        ),
    )

    def generate(self, args: argparse.Namespace) -> str:
        match = re.fullmatch(r"(\d+)x(\d+)", args.size)
        if not match:
            raise InputError(f"--size must look like ROWSxCOLS, not '{args.size}'")
        rows, cols = int(match.group(1)), int(match.group(2))
        if not (1 <= rows <= 30 and 1 <= cols <= 30) or rows * cols < 2:
            raise InputError(f"--size {args.size} is out of range")
        if not 1 <= args.kinds <= 60:
            raise InputError("--kinds must be from 1 to 60")
        border_kinds = args.border_kinds
        if not 0 <= border_kinds <= 60:
            raise InputError("--border-kinds must be from 0 to 60")
        if border_kinds and args.style != "e2":
            raise InputError(f"--border-kinds needs --style e2 ({args.style} boards have no frame)")
        if not 0 <= args.fix <= rows * cols:
            raise InputError(f"--fix must be from 0 to {rows * cols}, the tiles on the board")
        import random

        rng = random.Random(args.seed)

        def draw(rng: random.Random) -> TilesInstance:
            return planted_tiles(args.style, rows, cols, args.kinds, rng, border_kinds, args.fix)

        unique = getattr(args, "unique", False)
        difficulty = getattr(args, "difficulty", None)
        instance = as_asked(self.puzzle, draw, rng, unique, difficulty)
        border = f"--border-kinds {border_kinds} " if border_kinds else ""
        fix = f"--fix {args.fix} " if args.fix else ""
        fix += "--unique " if unique else ""
        fix += f"--difficulty {difficulty} " if difficulty else ""
        header = (
            f"# aspuzzles generate tiles --style {args.style} --size {args.size} "
            f"--kinds {args.kinds} {border}{fix}--seed {args.seed}\n"
        )
        return header + format_tiles(instance)


PUZZLE = Tiles()
