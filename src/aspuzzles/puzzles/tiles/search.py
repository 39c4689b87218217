"""How boards are searched beyond the encoding: verdicts without search, a second
search order and core-guided optimization raced, the exact search raced in score
mode, and a greedy placement with rounds around it as a first answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from clingo import Function, Number, Symbol

from ...strategy import Answered, Shortcut, Strategy, Undecided, WarmStart
from .model import FRAME, Placement, TilesInstance, matches, partner, rotate, shown_turn
from .placements import border_sides, grey_faces_out, turns_and_cells
from .symmetry import symmetry_break, turned_cell

if TYPE_CHECKING:
    import random


def _fix_clash(instance: TilesInstance) -> str | None:
    """Why the fixed pieces alone rule out every solution, if they do: a grey edge
    that does not face the border, or two fixed neighbours whose edges do not match."""
    shown = {
        (fix.row, fix.col): (fix, rotate(instance.tiles[fix.tile - 1], fix.turns))
        for fix in instance.fixed
    }
    for (row, col), (fix, edges) in shown.items():
        if instance.framed and not grey_faces_out(instance, edges, row, col):
            return (
                f"fixed tile {fix.tile} turned {fix.turns} cannot stand on ({row},{col}): "
                "grey edges must face the border, and only there"
            )
        if instance.scored:  # score mode allows mismatches
            continue
        for side, (n_row, n_col) in ((1, (row, col + 1)), (2, (row + 1, col))):
            if (n_row, n_col) not in shown:
                continue
            other, other_edges = shown[n_row, n_col]
            facing = other_edges[(side + 2) % 4]
            if not matches(instance.style, edges[side], facing):
                return (
                    f"fixed tiles {fix.tile} on ({row},{col}) and {other.tile} on "
                    f"({n_row},{n_col}) do not match: {edges[side]} against {facing}"
                )
    return None


#: How the grey edges of a tile (or the border sides of a cell) lie, up to turning.
GREY_SHAPES = {
    (False, False, False, False): "no grey edge",
    (False, False, False, True): "one grey edge",
    (False, False, True, True): "two grey edges side by side",
    (False, True, False, True): "two grey edges opposite each other",
    (False, True, True, True): "three grey edges",
    (True, True, True, True): "four grey edges",
}


def _grey_shape(sides: Sequence[bool]) -> tuple[bool, ...]:
    """The pattern of grey (border) sides, the same for every turn of it."""
    return min(rotate(sides, turns) for turns in range(4))


def _frame_shapes_mismatch(instance: TilesInstance) -> str | None:
    """Grey edges face the border, and only there: every tile goes to a cell whose
    border sides its grey edges can cover exactly, so the tiles of each shape (one grey
    edge, two side by side, ...) must be as many as the cells of that shape. There are
    as many tiles as cells, so a shape short of tiles means one with tiles to spare:
    that one is named, as one of its tiles is the odd one out."""
    shapes = [_grey_shape([edge == FRAME for edge in tile]) for tile in instance.tiles]
    tiles = Counter(shapes)
    cells = Counter(
        _grey_shape(border_sides(instance, row, col))
        for row in range(1, instance.rows + 1)
        for col in range(1, instance.cols + 1)
    )
    board = f"a {instance.rows}x{instance.cols} board"
    for shape, name in GREY_SHAPES.items():
        if tiles[shape] <= cells[shape]:
            continue
        if cells[shape]:
            return f"{tiles[shape]} tiles have {name}, {board} has {cells[shape]} such places"
        ids = [str(number) for number, own in enumerate(shapes, start=1) if own == shape]
        which = f"tile {ids[0]} has" if len(ids) == 1 else f"tiles {', '.join(ids)} have"
        return f"{which} {name}, which no cell of {board} has"
    return None


#: How many cells a round of score mode's large-neighbourhood search frees (see
#: ``Tiles.neighbourhood``).
FREED_CELLS = 10


#: Boards of at most this many cells answer in a few milliseconds, less than a second
#: process costs, so nothing is raced against their search (see ``Tiles.portfolio``).
RACED_ABOVE = 16


def _answered_alone(instance: TilesInstance) -> bool:
    return instance.rows * instance.cols <= RACED_ABOVE


def _cell_of(atom: Symbol) -> tuple[int, int]:
    """The cell (row, col) a ``place/4`` or ``mismatch/3`` atom starts with."""
    return atom.arguments[0].number, atom.arguments[1].number


def _mismatch_cells(atom: Symbol) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two cells on either side of a ``mismatch(Row,Col,Side)`` edge (right of or
    below the cell)."""
    row, col = _cell_of(atom)
    return (row, col), (row, col + 1) if atom.arguments[2].name == "right" else (row + 1, col)


#: Candidate checks the greedy placements of score mode may make in all: under a second
#: of Python (a 10x10 gets 100 restarts, Eternity II's 16x16 about 13).
GREEDY_WORK = 2_000_000


#: At most this many greedy placements (a small board would get thousands).
GREEDY_RUNS = 100


def quick_placement(instance: TilesInstance, work: int = GREEDY_WORK) -> Placement | None:
    """The best of several greedy placements: cells in reading order, each taking the
    unused tile and turn that matches the most of its left and top neighbours (ties
    broken at random, seeded, so a board always gets the same placement). Every tile
    still goes where ``positions`` allows (frame out, fixed pieces kept), and the
    board is then turned as the symmetry breaking wants. None if a fill gets stuck (it
    cannot on a board whose tiles fit, but a guess must never fail loudly).

    Why: score mode's search starts from clingo's first answer, which on a large board
    is poor; this placement, completed by clingo, is a far better first answer (META
    2010 10x10: 148 of 180 edges matching against 119 after 30 s of search)."""
    import random

    candidates: dict[tuple[int, int], list[tuple[int, int, tuple[str, str, str, str]]]] = {
        (row, col): [] for row in range(1, instance.rows + 1) for col in range(1, instance.cols + 1)
    }
    for tile_id in range(1, len(instance.tiles) + 1):
        for turns, edges, cells in turns_and_cells(instance, tile_id):
            for cell in cells:
                candidates[cell].append((tile_id, turns, edges))
    rng = random.Random(0)
    runs = min(GREEDY_RUNS, max(1, work // max(1, sum(map(len, candidates.values())))))
    best: tuple[int, Placement] | None = None
    for _ in range(runs):
        filled = _greedy_fill(instance, candidates, rng)
        if filled is not None and (best is None or filled[0] > best[0]):
            best = filled
    return None if best is None else _turned_for_anchor(instance, best[1])


def _greedy_fill(
    instance: TilesInstance,
    candidates: dict[tuple[int, int], list[tuple[int, int, tuple[str, str, str, str]]]],
    rng: random.Random,
) -> tuple[int, Placement] | None:
    """One greedy placement and how many shared edges it matches."""
    used: set[int] = set()
    shown: dict[tuple[int, int], tuple[str, str, str, str]] = {}
    placement: Placement = []
    matched = 0
    for row in range(1, instance.rows + 1):
        placement.append([])
        for col in range(1, instance.cols + 1):
            wants = [
                partner(instance.style, shown[row, col - 1][1]) if col > 1 else None,
                partner(instance.style, shown[row - 1, col][2]) if row > 1 else None,
            ]
            best, best_score = [], -1
            for tile_id, turns, edges in candidates[row, col]:
                if tile_id in used:
                    continue
                score = (edges[3] == wants[0]) + (edges[0] == wants[1])
                if score > best_score:
                    best, best_score = [(tile_id, turns, edges)], score
                elif score == best_score:
                    best.append((tile_id, turns, edges))
            if not best:
                return None
            tile_id, turns, edges = rng.choice(best)
            used.add(tile_id)
            shown[row, col] = edges
            placement[-1].append((tile_id, turns))
            matched += best_score
    return matched, placement


def _turned_for_anchor(instance: TilesInstance, placement: Placement) -> Placement:
    """The placement turned as a whole so that the anchor tile's turn is one the
    symmetry breaking keeps (``anchor/2``); a turned board scores the same. Only the
    rotations the symmetry breaking counts are tried (with a fixed tile on the centre,
    those that keep its picture)."""
    if not instance.symmetry_breaking:
        return placement
    cut = symmetry_break(instance)
    if cut.anchor is None or len(instance.tiles) == 1:
        return placement
    anchor, limit = cut.anchor
    for _ in range(cut.class_size):
        turns = next(t for cells in placement for (tile_id, t) in cells if tile_id == anchor)
        if turns < limit:
            return placement
        placement = _turned_board(instance, placement, 4 // cut.class_size)
    return placement


def _turned_board(instance: TilesInstance, placement: Placement, quarter_turns: int) -> Placement:
    """The placement after the whole board turns clockwise by ``quarter_turns`` (2 on
    a board that is not square): every tile moves with its cell and turns with it."""
    turned: dict[tuple[int, int], tuple[int, int]] = {}
    for row, cells in enumerate(placement, start=1):
        for col, (tile_id, turns) in enumerate(cells, start=1):
            tile = instance.tiles[tile_id - 1]
            cell = turned_cell(instance, (row, col), quarter_turns)
            turned[cell] = (tile_id, shown_turn(tile, turns + quarter_turns))
    return [
        [turned[row, col] for col in range(1, instance.cols + 1)]
        for row in range(1, instance.rows + 1)
    ]


class TilesStrategy(Strategy[TilesInstance]):
    """Verdicts without search, races, and score mode's first answer (see the module)."""

    def parts(self) -> tuple[str, ...]:
        return ("base", "score") if self.instance.scored else ("base",)

    def infeasible(self) -> str | None:
        """What rules every placement out without search: fixed pieces that clash, grey
        edges that cannot line the border, a colour that cannot pair up (the last two
        only for e2; in score mode mismatches are allowed, so only the frame counts)."""
        if (clash := _fix_clash(self.instance)) is not None:
            return clash
        if not self.instance.framed:
            return None  # outer edges are free: any colour count can work
        edges = Counter(edge for tile in self.instance.tiles for edge in tile)
        frame = 2 * (self.instance.rows + self.instance.cols)
        if edges[FRAME] != frame:
            hint = " (a board without a frame is 'style unframed')" if not edges[FRAME] else ""
            return f"{edges[FRAME]} grey frame edges, the board's border needs {frame}{hint}"
        if (shapes := _frame_shapes_mismatch(self.instance)) is not None:
            return shapes
        if self.instance.scored:
            return None
        odd = sorted((c for c, n in edges.items() if c != FRAME and n % 2), key=int)
        if odd:
            times = edges[odd[0]]
            return (
                f"colour {odd[0]} is on {times} edge{'s' if times > 1 else ''}, "
                "an odd number cannot pair up"
            )
        return None

    def grounds_within(self, seconds: float) -> bool:
        """Boards up to 4x4 (at most 16 tiles in 4 turns on 16 cells) ground in a few
        milliseconds, whatever the limit."""
        return _answered_alone(self.instance)

    def portfolio(self) -> tuple[tuple[str, ...], ...]:
        """Placements tried true first (see the encoding) against clasp's default order:
        each solves 10x10 boards the other does not. Boards up to 4x4 answer in a few
        milliseconds, less than a second process costs, so they are not raced. In score
        mode, clasp's core-guided optimization (``usc``, which first asks whether no
        edge need mismatch, and proves the optimum from below) against its default
        (``bb``, better answers from above): on a board near exact ``usc`` proves the
        optimum where ``bb`` takes seconds or more, and on a board far from exact
        ``usc`` finds no answer where ``bb`` finds good ones. (Exact boards in score
        mode are the shortcut's: see ``shortcuts``.)"""
        if _answered_alone(self.instance):
            return ()
        if self.instance.scored:
            return (("--opt-strategy=usc",),)
        return (("--heuristic=Domain", "--const=placements_first=1"),)

    def shortcuts(self) -> tuple[Shortcut[TilesInstance], ...]:
        """In score mode, the exact search, raced in both of its search orders as it is
        without ``--score`` (see ``portfolio``): a perfect placement mismatches nothing,
        so it is optimal, and on a board that has one the exact search finds it far
        sooner than either optimization (``gen-e2-10x10-16-kinds``: 1-2 s, against no
        answer from ``usc`` in 60 s and 91 s for ``bb``). It searches the board's exact
        program and facts, not the score program with every edge made to match: that
        one has the same constraints but other atoms, and clasp took 2-5 times longer on
        it (2026-11-24 (3fca41e), one order: the 12-colour 10x10 of seed 1 52 s against 9.6 s, the
        4 + 12 8x8 13 s against 0.5 s). Not where a board cannot be perfect without
        search (an odd colour, clashing hints): the exact search would only prove that
        slowly, and small boards are answered in this process anyway."""
        if not self.instance.scored or _answered_alone(self.instance):
            return ()
        exact = self.instance._replace(scored=False)
        if TilesStrategy(exact).infeasible() is not None:
            return ()
        orders = ((), *TilesStrategy(exact).portfolio())
        return tuple(Shortcut(exact, order, cost=(0,)) for order in orders)

    def warm_start(self) -> TilesWarmStart:
        return TilesWarmStart(self.instance)

    def answer(self, deadline: float, memory: int | None = None) -> Answered | None:
        """Boards up to 4x4: the first placement of a depth-first search, or the proof
        that there is none (see ``small_boards``)."""
        from .small_boards import first_placement

        try:
            placement = first_placement(self.instance, deadline)
        except Undecided:
            return None
        if placement is None:
            return Answered(None, finished=True)
        atoms = [Function("place", [Number(n) for n in placed]) for placed in placement]
        return Answered(atoms, finished=True)

    def count(self, deadline: float) -> int | None:
        """Boards up to 3x4 counted by a depth-first search (see ``small_boards``)."""
        from .small_boards import count_placements

        return count_placements(self.instance, deadline)

    def count_details(self, count: int) -> dict[str, int]:
        if self.instance.symmetry_breaking:
            return {"count_raw": count * symmetry_break(self.instance).class_size}
        return {"count_raw": count}


class TilesWarmStart(WarmStart[TilesInstance]):
    """In score mode, a greedy placement to start from, and rounds that free a few
    cells around it (a large-neighbourhood search) before the complete search."""

    def first_answer(self) -> list[Symbol]:
        """In score mode, the best of a few greedy placements (see ``quick_placement``),
        as the first answer the search improves on."""
        placement = quick_placement(self.instance) if self.instance.scored else None
        if placement is None:
            return []
        return [
            Function("place", [Number(row), Number(col), Number(tile_id), Number(turns)])
            for row, cells in enumerate(placement, start=1)
            for col, (tile_id, turns) in enumerate(cells, start=1)
        ]

    def neighbourhood(self, atoms: Sequence[Symbol], rng: random.Random) -> list[Symbol]:
        """In score mode, every placement but those of ``FREED_CELLS`` cells: half of
        them (as far as there are) drawn from the cells beside a mismatched edge, where
        a change can pay, the rest from anywhere, so that tiles can also come from far
        away. Fixed cells are never freed: their tile cannot move. Measured on the META
        2010 10x10 (30 s from the greedy start, a scratch script): 10 cells took it
        from 32 to 25 mismatches, 14 to 27, 18 to 29; square windows did less."""
        if not self.instance.scored or self.instance.rows * self.instance.cols <= 2 * FREED_CELLS:
            return []  # freeing half the board or more: the complete search does better
        fixed = {(fix.row, fix.col) for fix in self.instance.fixed}
        placed = {_cell_of(atom): atom for atom in atoms if atom.match("place", 4)}
        movable = sorted(cell for cell in placed if cell not in fixed)
        beside = sorted(
            {
                cell
                for atom in atoms
                if atom.match("mismatch", 3)
                for cell in _mismatch_cells(atom)
                if cell not in fixed
            }
        )
        size = min(FREED_CELLS, len(movable))
        freed = set(rng.sample(beside, min(len(beside), size // 2)))
        while len(freed) < size:
            freed.add(rng.choice(movable))
        return [atom for cell, atom in placed.items() if cell not in freed]
