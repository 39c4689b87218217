"""Dice-blocker tiling puzzles (The Genius Star, The Genius Square) in one place.

Dice block some cells of a board; a set of polyform pieces covers the rest, each used
as often as it comes in the box, turned and flipped freely. A puzzle supplies its
board (lattice cells in numbering order and their labels), its pieces, its dice and its
lattice (``walk``, symmetries, ``normalise``); everything else — rolls, facts from
placements, decoding, the checker, sweeps — is shared here, and so is the encoding
(``encodings/geniussquare.lp`` includes ``geniusstar.lp``).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from clingo import Symbol

from ..asp import fact
from ..capabilities import BulkAnswers, CensusSpace, Generator, Sweep, Variants
from ..errors import InputError
from ..logs import logger
from ..puzzle import Option, Puzzle, atom_parts, json_field
from ..render import wheel_colours
from ..strategy import Answered, Strategy
from .dice_search import TilingSearch
from .geometry import Cell
from .polyform import Shape, fixed_forms, placements

if TYPE_CHECKING:
    import random

    import numpy as np
    from numpy.typing import NDArray

    from .dice_bulk import BulkChecker
    from .dice_hints import DiceHints
    from .dice_play import DicePlay


#: The bits a roll is read into as one number (``DiceTiling.roll_table``): a signed
#: 64-bit integer's, kept clear of its sign.
ROLL_BITS = 62


class DiceRoll(NamedTuple):
    """The blocked cell numbers (sorted); ``golden`` is the Genius Star's challenge."""

    blocked: tuple[int, ...]
    golden: bool = False


class Tiling(NamedTuple):
    """Cell number -> piece name (a twin piece's copies are ``<name>a``, ``<name>b``)."""

    cells: dict[int, str]


class DiceTiling(Puzzle[DiceRoll, Tiling]):
    """The shared machinery; subclasses set the class attributes and templates."""

    accepts_inline = True
    #: New puzzles are rolled: ``aspuzzles roll geniusstar`` is ``generate``.
    command_aliases: ClassVar[dict[str, str]] = {"roll": "generate"}
    #: Pieces: (shape, letter in text drawings, how many come in the box).
    pieces: ClassVar[tuple[tuple[Shape, str, int], ...]]
    #: Cell labels each die can show.
    dice: ClassVar[tuple[tuple[str, ...], ...]]
    symmetries: ClassVar[list[dict[str, str]]]
    #: One reference cell per kind of lattice cell (orientation counting).
    references: ClassVar[tuple[Cell, ...]]

    # -- supplied by each board ---------------------------------------------------------
    @staticmethod
    def walk(cell: Cell, steps: Sequence[str]) -> Cell:
        """The cell reached from ``cell`` by the lattice steps named (see ``polyform``)."""
        raise NotImplementedError

    def reference_of(self, cell: Cell) -> Cell:
        """The reference cell of ``cell``'s kind: a lattice step from either walks the
        same way (on squares every cell is of one kind)."""
        return self.references[0]

    def board(self) -> tuple[Cell, ...]:
        """Lattice cells in numbering order (number = index + 1)."""
        raise NotImplementedError

    def label(self, number: int) -> str:
        return str(number)

    def place(self, number: int) -> tuple[int, int]:
        """A cell's row and its place in the row, from 1, in numbering order: what a
        drawn board's ``data-cell`` names it by."""
        cell = self.board()[number - 1]
        row = [other for other in self.board() if other[0] == cell[0]]
        return cell[0] - self.board()[0][0] + 1, row.index(cell) + 1

    def normalise(self, cells: frozenset[Cell]) -> frozenset[Cell]:
        """Translate cells to a canonical position (for comparing shapes)."""
        raise NotImplementedError

    # -- geometry ---------------------------------------------------------------------
    @cached_property
    def numbers(self) -> dict[Cell, int]:
        return {cell: number for number, cell in enumerate(self.board(), start=1)}

    @cached_property
    def labels(self) -> dict[str, int]:
        return {self.label(n).upper(): n for n in range(1, len(self.board()) + 1)}

    @cached_property
    def placements(self) -> dict[str, list[frozenset[int]]]:
        """Every placement (cell numbers) of each piece shape on the whole board."""
        return {
            shape.name: [
                frozenset(self.numbers[c] for c in cells)
                for cells in placements(
                    shape, self.numbers, self.walk, self.symmetries, self.reference_of
                )
            ]
            for shape, _, _ in self.pieces
        }

    def forms(self, shape: Shape) -> set[frozenset[Cell]]:
        """The shape's orientations on the open lattice, in normal form."""
        return fixed_forms(shape, self.references, self.walk, self.symmetries, self.normalise)

    def orientation_count(self, shape: Shape) -> int:
        return len(self.forms(shape))

    def is_shape(self, members: set[int], shape: Shape) -> bool:
        """Whether cells form the shape in some orientation, compared on the open
        lattice (not through the placement table the encoding was given); each answer
        kept for the process, as a sweep checks the same placements again and again."""
        key = (frozenset(members), shape.name)
        known = self._shapes_seen.get(key)
        if known is None:
            cells = self.normalise(frozenset(self.board()[n - 1] for n in members))
            known = cells in self.piece_forms[shape.name]
            if len(self._shapes_seen) < SHAPES_KEPT:  # a server checks players' tilings
                self._shapes_seen[key] = known
        return known

    @cached_property
    def _shapes_seen(self) -> dict[tuple[frozenset[int], str], bool]:
        return {}

    @cached_property
    def piece_forms(self) -> dict[str, set[frozenset[Cell]]]:
        """Each piece's orientations, computed once (the checker runs on every roll)."""
        return {shape.name: self.forms(shape) for shape, _, _ in self.pieces}

    @cached_property
    def adjacent(self) -> dict[int, set[int]]:
        """Each cell's neighbours (the cells it shares a side with), by number."""
        directions = list(self.symmetries[0])
        return {
            n: {self.numbers[o] for d in directions if (o := self.walk(cell, [d])) in self.numbers}
            for n, cell in enumerate(self.board(), start=1)
        }

    # -- rolls ------------------------------------------------------------------------
    def parse(self, text: str, source: str) -> DiceRoll:
        return self.parse_roll(text, source)

    def parse_roll(self, text: str, source: str) -> DiceRoll:
        """As many distinct cells as there are dice (spaces or commas; ``#`` comments)."""
        line_of = (lambda n: n) if source != "<argument>" else (lambda _n: None)
        cells: list[int] = []
        for line_number, line in enumerate(text.splitlines() or [text], start=1):
            for word in (w for w in re.split(r"[\s,]+", line.split("#")[0]) if w):
                number = self.labels.get(_usual_label(word))
                if number is None:
                    first, last = self.label(1), self.label(len(self.board()))
                    raise InputError(
                        f"'{word}' is not a cell ({first} to {last})", source, line_of(line_number)
                    )
                if number in cells:
                    raise InputError(f"cell {word} is blocked twice", source, line_of(line_number))
                cells.append(number)
        if not cells:
            raise InputError(f"empty roll: expected the {len(self.dice)} cells it blocks", source)
        if len(cells) != len(self.dice):
            raise InputError(f"a roll blocks {len(self.dice)} cells, got {len(cells)}", source)
        if not self.dice_can_roll(cells):
            logger("aspuzzles.dice").warning(
                "%s: no roll of the dice blocks %s; solving it anyway",
                source,
                self.describe(DiceRoll(tuple(sorted(cells)))),
            )
        return DiceRoll(tuple(sorted(cells)))

    def dice_can_roll(self, cells: Sequence[int]) -> bool:
        """Whether one face of each die gives exactly these cells: a matching of cells to
        dice that covers every die (found by augmenting paths, where trying every order
        of seven cells would take 5,040 tries)."""
        labels = [self.label(n) for n in cells]
        if len(labels) != len(self.dice):
            return False
        die_of: dict[int, int] = {}  # die -> the index of the label it gives

        def place(label: int, tried: set[int]) -> bool:
            for die, faces in enumerate(self.dice):
                if labels[label] in faces and die not in tried:
                    tried.add(die)
                    if die not in die_of or place(die_of[die], tried):
                        die_of[die] = label
                        return True
            return False

        return all(place(label, set()) for label in range(len(labels)))

    def all_rolls(self) -> list[tuple[int, ...]]:
        """Every distinct roll of the dice, each sorted, in sorted order."""
        return list(map(tuple, self.roll_table().tolist()))

    def roll_table(self) -> NDArray[np.int64]:
        """``all_rolls`` as one table, a roll a row. Made in numpy: the star's dice roll
        663,552 ways, 165,888 of them distinct, and a set of sorted tuples took 0.2 s of
        a sweep's start. Each sorted roll is read as one number, its first cell weighing
        most, so that the distinct numbers, sorted, are the distinct rolls in order."""
        import numpy as np

        faces = [sorted({self.labels[face.upper()] for face in die}) for die in self.dice]
        grid = np.meshgrid(*(np.array(die, dtype=np.int64) for die in faces), indexing="ij")
        rolls = np.stack(grid, axis=-1).reshape(-1, len(faces))
        rolls.sort(axis=1)
        width = _number_width(rolls)
        if width is None:  # too many dice or cells for one number a roll
            return np.unique(rolls, axis=0)
        codes = _as_numbers(rolls, width)
        codes.sort()  # the distinct ones kept by hand: ``np.unique`` loads numpy.ma (11 ms)
        codes = codes[np.concatenate(([True], codes[1:] != codes[:-1]))]
        table = np.empty((len(codes), len(faces)), dtype=np.int64)
        for place in reversed(range(len(faces))):
            table[:, place] = codes & ((1 << width) - 1)
            codes >>= width
        return table

    solve_options: ClassVar[tuple[Option, ...]] = (
        Option(
            "--strict", switch=True, help="dice puzzles: reject cells no roll of the dice gives"
        ),
    )

    def configure(self, instance: DiceRoll, options: dict[str, Any]) -> DiceRoll:
        if options.get("strict") and not self.dice_can_roll(instance.blocked):
            raise InputError(
                f"no roll of the dice blocks {self.describe(instance)} (one face per die)"
            )
        return instance

    def generator(self) -> DiceGenerator:
        return DiceGenerator(self)

    def strategy(self, instance: DiceRoll) -> Strategy[DiceRoll]:
        return DiceStrategy(instance, self)

    def roll(self, rng: random.Random) -> DiceRoll:
        """One roll of the dice (one face each), as the instance it makes."""
        return DiceRoll(tuple(sorted(self.labels[rng.choice(die).upper()] for die in self.dice)))

    def describe(self, instance: DiceRoll) -> str:
        return " ".join(self.label(n) for n in instance.blocked)

    def tiling_search(self, instance: DiceRoll) -> TilingSearch:
        """The depth-first search for the instance's shape table, made once per table
        and process (a variant such as the golden star has its own)."""
        table = self.shape_table(instance)
        key = tuple((shape, count, len(placed)) for shape, (placed, count) in table.items())
        search = self._searches.get(key)
        if search is None:
            cells = len(self.board())
            search = self._searches[key] = TilingSearch(table, cells, self.adjacent)
        return search

    @cached_property
    def _searches(self) -> dict[tuple[tuple[str, int, int], ...], TilingSearch]:
        return {}

    # -- clingo -----------------------------------------------------------------------
    def shape_table(self, instance: DiceRoll) -> dict[str, tuple[list[frozenset[int]], int]]:
        """Shapes to place: name -> (placements, how many). Variants change this."""
        return {shape.name: (self.placements[shape.name], count) for shape, _, count in self.pieces}

    def facts(self, instance: DiceRoll) -> list[Symbol]:
        """Cells, blockers and placements avoiding them. An empty roll is a sweep's
        base: every placement stays, blockers come per roll through externals."""
        blocked = set(instance.blocked)
        facts = [fact("cell", n) for n in range(1, len(self.board()) + 1)]
        facts += [fact("blocked", n) for n in sorted(blocked)]
        for name, (cells_list, count) in self.shape_table(instance).items():
            shape = name.lower()
            facts.append(fact("shape", shape, count))
            for index, cells in enumerate(cells_list):
                if not (blocked and cells & blocked):
                    facts += [fact("covers", shape, index, n) for n in sorted(cells)]
        return facts

    def decode(self, instance: DiceRoll, atoms: Sequence[Symbol]) -> Tiling:
        table = self.shape_table(instance)
        cells: dict[int, str] = {}
        copies: dict[str, int] = {}
        for shape, index in sorted(filter(None, map(self._placement_of, atoms))):
            placed = sorted(table[shape][0][index])
            for cell, name in self.name_cells(shape, placed, copies).items():
                cells[cell] = name
        return Tiling(dict(sorted(cells.items())))

    def _placement_of(self, atom: Symbol) -> tuple[str, int] | None:
        """``use(S,I)`` as (shape, placement index), None for any other atom; read once
        per atom and process (a sweep decodes a tiling per roll, and each look at a
        symbol's parts is a call into clingo)."""
        try:
            return self._placements_read[atom]
        except KeyError:
            name, arguments = atom_parts(atom)
            known = None
            if name == "use" and len(arguments) == 2:
                known = (arguments[0].name.upper(), arguments[1].number)
            self._placements_read[atom] = known
            return known

    @cached_property
    def _placements_read(self) -> dict[Symbol, tuple[str, int] | None]:
        return {}

    def name_cells(self, shape: str, placed: list[int], copies: dict[str, int]) -> dict[int, str]:
        """Piece names for one placement; twins are told apart as ``a``, ``b``."""
        if self.counts.get(shape, 1) > 1:
            copies[shape] = copies.get(shape, 0) + 1
            shape = f"{shape}{'abcdefgh'[copies[shape] - 1]}"
        return dict.fromkeys(placed, shape)

    @cached_property
    def counts(self) -> dict[str, int]:
        return {shape.name: count for shape, _, count in self.pieces}

    def check(self, instance: DiceRoll, solution: Tiling) -> list[str]:
        """Every free cell covered once by pieces of the right shapes and numbers."""
        cells = solution.cells
        problems = []
        free = set(range(1, len(self.board()) + 1)) - set(instance.blocked)
        if uncovered := free - set(cells):
            problems.append(f"uncovered cells: {self.labels_of(uncovered)}")
        if covered := set(cells) - free:
            problems.append(f"covered blockers: {self.labels_of(covered)}")
        by_piece: dict[str, set[int]] = {}
        for cell, name in cells.items():
            by_piece.setdefault(name, set()).add(cell)
        shapes = {shape.name: shape for shape, _, _ in self.pieces}
        seen: dict[str, int] = {}
        for name, members in by_piece.items():
            base = name if name in shapes else name[:-1]
            seen[base] = seen.get(base, 0) + 1
            if base not in shapes:
                problems.append(f"no piece is called {name} (pieces: {' '.join(shapes)})")
            elif not self.is_shape(members, shapes[base]):
                problems.append(f"piece {name} on {self.labels_of(members)} is not a {base}")
        if seen != self.counts:
            problems.append(f"pieces used {seen}, expected {self.counts}")
        return problems + self.variant_problems(instance, by_piece)

    def labels_of(self, cells: Iterable[int]) -> str:
        """Cells as the player names them (``A2 A3``), in numbering order, for messages."""
        return " ".join(self.label(cell) for cell in sorted(cells))

    def variant_problems(self, instance: DiceRoll, by_piece: dict[str, set[int]]) -> list[str]:
        """Rules of a variant (the golden star), checked on the pieces."""
        return []

    def variant_rules(self, instance: DiceRoll) -> bool:
        """Whether the instance asks rules beyond the box's pieces covering the free
        cells (``variant_problems``), which only the one-by-one checker knows."""
        return False

    @cached_property
    def bulk_checker(self) -> BulkChecker:
        """The checker of many tilings at once (:mod:`.dice_bulk`): which cells each
        piece may cover is asked of ``is_shape`` once, here, for every placement."""
        from .dice_bulk import BulkChecker

        shapes = {shape.name: shape for shape, _, _ in self.pieces}
        covers = {
            name: [cells for cells in self.placements[name] if self.is_shape(set(cells), shape)]
            for name, shape in shapes.items()
        }
        return BulkChecker(len(self.board()), self.counts, covers)

    def to_dict(self, instance: DiceRoll, solution: Tiling) -> dict[str, Any]:
        return {"cells": {self.label(cell): name for cell, name in solution.cells.items()}}

    def from_dict(self, instance: DiceRoll, data: Any, source: str) -> Tiling:
        cells = json_field(data, "cells", source)
        if not isinstance(cells, dict) or not all(isinstance(n, str) for n in cells.values()):
            raise InputError("'cells' must map cell labels to piece names", source)
        unknown = [label for label in cells if label.upper() not in self.labels]
        if unknown:
            raise InputError(f"'{unknown[0]}' is not a cell of the board", source)
        return Tiling({self.labels[label.upper()]: name for label, name in cells.items()})

    def shape_of(self, instance: DiceRoll, name: str) -> str | None:
        """The shape the encoding places for a piece name of a solution (a twin's copy
        ``T3a`` is a ``T3``); None for no piece."""
        table = self.shape_table(instance)
        for shape in (name.upper(), name[:-1].upper()):
            if shape in table:
                return shape
        return None

    def as_tiling(self, instance: DiceRoll, shapes: dict[int, str]) -> Tiling:
        """Cells with the shapes covering them, named as a solution names its pieces
        (for drawing part of a board)."""
        return Tiling(dict(sorted(shapes.items())))

    def cell_view(self, instance: DiceRoll, solution: Tiling, number: int) -> tuple[str, str]:
        """A cell's piece name and letter for drawing: a die ``#``, a cell no piece
        covers yet ``.``."""
        if number in instance.blocked:
            return "blocker", "#"
        piece = solution.cells.get(number)
        if piece is None:
            return "open", "."
        return piece, self.letters().get(piece, "?")

    def letters(self) -> dict[str, str]:
        letters = {}
        for shape, letter, count in self.pieces:
            letters[shape.name] = letter
            for copy in range(count):
                letters[f"{shape.name}{'abcdefgh'[copy]}"] = chr(ord(letter) + copy)
        return letters

    def colours(self, names: Sequence[str]) -> dict[str, str]:
        ordered = sorted(names)
        colours = dict(
            zip(ordered, wheel_colours(len(ordered), saturation=62, lightness=64), strict=True)
        )
        colours["blocker"] = "#333"
        colours["open"] = "#f2f2f2"
        return colours

    # -- capabilities ------------------------------------------------------------------
    def hints(self) -> DiceHints:
        from .dice_hints import DiceHints  # loaded when a hint command first asks

        return DiceHints(self)

    def play(self) -> DicePlay:
        from .dice_play import DicePlay  # loaded when the web board first asks

        return DicePlay(self)

    def piece_svg(self, cells: frozenset[Cell], colour: str, letter: str) -> str:
        """A piece's cells (in normal form) drawn small, each with its letter, for the
        web board's legend."""
        raise NotImplementedError

    def sweep(self) -> DiceSweep:
        return DiceSweep(self)

    def roll_key(self, roll: Sequence[int]) -> str:
        return " ".join(map(self.cell_labels.__getitem__, roll))

    @cached_property
    def cell_labels(self) -> list[str]:
        """Each cell's label by its number (a sweep names every roll by them)."""
        return ["", *(self.label(n) for n in range(1, len(self.board()) + 1))]

    def orbits(self) -> dict[tuple[int, ...], list[tuple[int, ...]]]:
        """Rolls grouped by the board symmetries the dice respect (a symmetric image of
        a tiling tiles the image roll, so one solve answers the whole orbit)."""
        return self._orbits

    @cached_property
    def _orbits(self) -> dict[tuple[int, ...], list[tuple[int, ...]]]:
        """``orbits``, made once a process: a reduced sweep asks for its variants and
        for their equivalents. Each orbit is named by its least roll (the images of a
        roll are rolls) and holds its rolls in order; the orbits come in the order of
        their least rolls. Made in numpy where a roll reads as one number (0.4 s of a
        reduced sweep's start for the square's 62,208 rolls one by one, 0.04 s so)."""
        import numpy as np

        symmetries = dice_symmetries(self)
        table = self.roll_table()
        width = _number_width(table)
        rolls = list(map(tuple, table.tolist()))
        orbits: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        if width is None:
            for roll in rolls:
                seen = {tuple(sorted(sym[n] for n in roll)) for sym in symmetries}
                orbits.setdefault(min(seen), []).append(roll)
            return orbits
        cells = int(table.max()) + 1  # a symmetry as a table: image by cell number
        least = _as_numbers(table, width)
        for symmetry in symmetries:
            images = np.array([symmetry.get(n, n) for n in range(cells)], dtype=np.int64)[table]
            images.sort(axis=1)
            np.minimum(least, _as_numbers(images, width), out=least)
        # Rolls of one orbit side by side, each orbit's in the table's order: its first
        # is its least roll, so the orbits come in the order of their least rolls too.
        order = np.argsort(least, kind="stable")
        grouped = least[order]
        starts = np.flatnonzero(np.concatenate(([True], grouped[1:] != grouped[:-1])))
        members = order.tolist()
        for start, end in zip(starts.tolist(), [*starts[1:].tolist(), len(members)], strict=True):
            orbits[rolls[members[start]]] = [rolls[place] for place in members[start:end]]
        return orbits


#: How many answers ``is_shape`` keeps: every placement of every piece, many times over.
SHAPES_KEPT = 1 << 16


class DiceStrategy(Strategy[DiceRoll]):
    """A roll is searched as the encoding says; its facts (at most a few thousand
    placements, made once per process) ground in a few milliseconds. Before that, the
    sweeps' depth-first search in plain Python (:mod:`.dice_search`) tries for a
    tiling, which it finds within its bound for most rolls in a fraction of that."""

    def __init__(self, instance: DiceRoll, puzzle: DiceTiling) -> None:
        super().__init__(instance)
        self.puzzle = puzzle

    def grounds_within(self, seconds: float) -> bool:
        return True

    def answer(self, deadline: float, memory: int | None = None) -> Answered | None:
        """A tiling as the ``use/2`` atoms the encoding shows; None (clingo searches,
        and proves where there is none) when the search gives up within its bound."""
        moves = self.puzzle.tiling_search(self.instance).first_in_python(self.instance.blocked)
        if moves is None:
            return None
        return Answered([fact("use", move.shape.lower(), move.placement) for move in moves], True)


class RollVariants(Variants[DiceRoll]):
    """Rolls of the dice as a sweep's variants, kept as one table (a roll a row); keys
    and instances are made for the places asked, a chunk at a time."""

    def __init__(self, puzzle: DiceTiling, table: NDArray[np.int64], golden: bool) -> None:
        self.puzzle = puzzle
        self.table = table
        self.golden = golden

    def __len__(self) -> int:
        return len(self.table)

    def keys(self, places: Sequence[int]) -> list[str]:
        return list(map(self.puzzle.roll_key, self._rows(places)))

    def instances(self, places: Sequence[int]) -> list[DiceRoll]:
        golden = self.golden
        return [DiceRoll(tuple(roll), golden) for roll in self._rows(places)]

    def _rows(self, places: Sequence[int]) -> list[list[int]]:
        rows: list[list[int]] = self.table[list(places)].tolist()
        return rows


class DiceSweep(Sweep[DiceRoll]):
    """The dice puzzles' sweep slot: every roll of the dice on one grounding, the
    blocked cells set by assumptions."""

    def __init__(self, puzzle: DiceTiling) -> None:
        self.puzzle = puzzle

    def base(self, options: dict[str, Any]) -> DiceRoll:
        return self.puzzle.configure(DiceRoll(()), {**options, "strict": False})

    def variants(self, options: dict[str, Any]) -> RollVariants:
        """Every roll; with ``reduce``, one roll per orbit of the dice's symmetries."""
        import numpy as np

        base, puzzle = self.base(options), self.puzzle
        if options.get("reduce"):
            table = np.array(list(puzzle.orbits()), dtype=np.int64)
        else:
            table = puzzle.roll_table()
        return RollVariants(puzzle, table, base.golden)

    def equivalents(self, options: dict[str, Any]) -> dict[str, list[str]]:
        if not options.get("reduce"):
            return {}
        key = self.puzzle.roll_key
        return {key(rep): [key(r) for r in orbit] for rep, orbit in self.puzzle.orbits().items()}

    def assumptions(self, variant: DiceRoll) -> list[tuple[Symbol, bool]]:
        blocked = set(variant.blocked)
        return [(atom, n in blocked) for n, atom in enumerate(self._blocker_atoms, start=1)]

    def first_in_python(self, variant: DiceRoll) -> list[Symbol] | None:
        """A tiling by a depth-first search that covers the lowest free cell first
        (:mod:`.dice_search`), as the ``use/2`` atoms the encoding shows."""
        moves = self.puzzle.tiling_search(variant).first(variant.blocked)
        if moves is None:
            return None
        return [fact("use", move.shape.lower(), move.placement) for move in moves]

    def firsts_in_bulk(self, variants: Sequence[DiceRoll]) -> BulkAnswers | None:
        """First tilings of many rolls by one call into the compiled search (None
        without numba, or for a variant with rules of its own), and which rolls it
        went through to the end without one (their verdict: no tiling). The variants
        of a sweep share their base's shape table."""
        if not variants or self.puzzle.variant_rules(variants[0]):
            return None
        tiled = self.puzzle.tiling_search(variants[0]).firsts([v.blocked for v in variants])
        if tiled is None:
            return None
        found = [
            True if tiling else False if none else None
            for tiling, none in zip(tiled.found.tolist(), tiled.none.tolist(), strict=True)
        ]
        return BulkAnswers(found, tiled)

    def check_in_bulk(self, variants: Sequence[DiceRoll], answers: BulkAnswers) -> dict[int, str]:
        """The rows whose tiling breaks a rule, each with the roll and the rule."""
        from .dice_bulk import PROBLEMS, mask_of

        tiled, puzzle = answers.answers, self.puzzle
        blocked = [mask_of(variant.blocked) for variant in variants]
        problems = puzzle.bulk_checker.check(
            blocked, tiled.found, tiled.masks, tiled.shapes, tiled.names
        )
        rejected = problems.nonzero()[0].tolist()
        return {
            row: f"roll {puzzle.roll_key(variants[row].blocked)}: {PROBLEMS[int(problems[row])]}"
            for row in rejected
        }

    def count_in_python(self, variant: DiceRoll, most: int = 0) -> int | None:
        """The roll's number of tilings (up to ``most``, if not 0), where the compiled
        search (:mod:`.dice_search`) counts them."""
        return self.puzzle.tiling_search(variant).count(variant.blocked, most=most)

    @cached_property
    def _blocker_atoms(self) -> tuple[Symbol, ...]:
        """``blocked(N)`` for every cell, in order: a sweep sets them per variant."""
        return tuple(fact("blocked", n) for n in range(1, len(self.puzzle.board()) + 1))

    def census(self, options: dict[str, Any]) -> CensusSpace:
        """As many blockers as there are dice, on any cells, alike under every symmetry
        of the board (not only those the dice respect)."""
        base, puzzle = self.base(options), self.puzzle
        cells = len(puzzle.board())
        symmetries = tuple(
            tuple(symmetry[n] for n in range(1, cells + 1))
            for symmetry in board_automorphisms(puzzle)
        )
        return CensusSpace(
            cells=cells,
            chosen=len(puzzle.dice),
            symmetries=symmetries,
            variant=lambda placement: base._replace(blocked=placement),
            key=puzzle.roll_key,
        )


def board_automorphisms(puzzle: DiceTiling) -> list[dict[int, int]]:
    """Every permutation of the board's cells that keeps sides shared (the board's
    geometric symmetries: 12 for the star, 8 for the square), found by backtracking
    over a breadth-first order of the adjacency graph."""
    size = len(puzzle.board())
    adjacent = puzzle.adjacent
    order, parent = [1], {1: 0}
    for vertex in order:
        for other in sorted(adjacent[vertex]):
            if other not in parent:
                parent[other] = vertex
                order.append(other)
    found: list[dict[int, int]] = []

    def extend(mapping: dict[int, int], used: set[int], index: int) -> None:
        if index == size:
            found.append(dict(mapping))
            return
        vertex = order[index]
        candidates = adjacent[mapping[parent[vertex]]] if index else range(1, size + 1)
        for image in candidates:
            if image in used or len(adjacent[image]) != len(adjacent[vertex]):
                continue
            if all((mapping[o] in adjacent[image]) == (o in adjacent[vertex]) for o in mapping):
                mapping[vertex] = image
                used.add(image)
                extend(mapping, used, index + 1)
                del mapping[vertex]
                used.discard(image)

    extend({}, set(), 0)
    return found


def _number_width(rolls: NDArray[np.int64]) -> int | None:
    """The bits a cell takes where each roll (a row) reads as one number of at most
    ``ROLL_BITS`` bits, its first cell weighing most; None where rolls are too wide."""
    width = int(rolls.max()).bit_length() if rolls.size else 1
    return None if width * rolls.shape[1] > ROLL_BITS else width


def _as_numbers(rolls: NDArray[np.int64], width: int) -> NDArray[np.int64]:
    """Each roll (a row) read as one number, its first cell weighing most: numbers
    order as the rolls do, cell by cell."""
    import numpy as np

    codes = np.zeros(len(rolls), dtype=np.int64)
    for column in rolls.T:
        codes = (codes << width) | column
    return codes


def dice_symmetries(puzzle: DiceTiling) -> list[dict[int, int]]:
    """The board symmetries that map the dice's face sets onto the dice's face sets, so
    that they map every roll to a roll (and a tiling to a tiling)."""
    faces = {frozenset(puzzle.labels[f.upper()] for f in die) for die in puzzle.dice}
    return [
        symmetry
        for symmetry in board_automorphisms(puzzle)
        if {frozenset(symmetry[n] for n in die) for die in faces} == faces
    ]


def _usual_label(word: str) -> str:
    """A cell label as the labels are written: ``07`` is ``7``, and ``2b`` (column
    first, as some write a grid's cells) is ``B2``."""
    if word.isascii() and word.isdigit():
        return str(int(word))
    match = re.fullmatch(r"(\d+)([A-Za-z]+)", word)
    return f"{match.group(2)}{match.group(1)}".upper() if match else word.upper()


class DiceGenerator(Generator):
    """The dice puzzles's generator (``aspuzzles generate``)."""

    options: ClassVar[tuple[Option, ...]] = (
        Option("--seed", type=int, default=None, help="random seed"),
    )

    def generate(self, args: argparse.Namespace) -> str:
        import random

        rng = random.Random(args.seed)
        return " ".join(rng.choice(die) for die in self.puzzle.dice)
