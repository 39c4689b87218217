"""The 7th Guest cake: cut a grid of toppings into K equal, connected pieces.

Every cell belongs to exactly one piece; every piece is orthogonally connected and holds
the same number of each topping (the kind's total divided by K). Shapes are free and
pieces are unlabelled: two labellings of one partition are one solution.

Python precomputes adjacency, the per-piece quotas, and for every cell the pieces it
could belong to (named by their first cells, or on very large cakes numbered in the
order of their first cells); the encoding states the cutting rules.
"""

from __future__ import annotations

import argparse
import re
import string
from collections import Counter
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from clingo import Function, String, Symbol

from ... import asp
from ...capabilities import Generator
from ...errors import InputError, LineReader, is_number
from ...generating import DIFFICULTY_OPTION, as_asked
from ...kit.geometry import Cell, SquareGrid, is_connected
from ...puzzle import Option, Puzzle, atom_parts, string_rows
from ...render import wheel_colours
from ...strategy import Answered, Strategy, Undecided

if TYPE_CHECKING:
    import random

    from .hints import CakeHints
    from .play import CakePlay

LABELS = string.ascii_uppercase + string.ascii_lowercase + string.digits
TOPPING_NAMES = {"0": "plain", "1": "skull", "2": "tombstone"}


class CakeInstance(NamedTuple):
    """``grid`` rows of topping digits; ``pieces`` the number of pieces K."""

    pieces: int
    grid: tuple[str, ...]

    @property
    def lattice(self) -> SquareGrid:
        return SquareGrid(len(self.grid), len(self.grid[0]))

    def totals(self) -> Counter[str]:
        return Counter("".join(self.grid))

    def piece_size(self) -> int:
        return len(self.lattice) // self.pieces


class CakeSolution(NamedTuple):
    """One letter per cell (A, B, ... in reading order of each piece's first cell)."""

    pieces: tuple[str, ...]


# ---------------------------------------------------------------------- parsing
def parse_cake(text: str, source: str) -> CakeInstance:
    """``pieces K`` then rows of digits (spaces between them allowed); ``#`` comments and
    blank lines are ignored."""
    reader = LineReader(source)
    pieces: int | None = None
    rows: list[tuple[int, str]] = []
    for number, line in reader.lines(text):
        if line.split()[0].lower() == "pieces":
            if pieces is not None:
                raise reader.error(number, "'pieces' is given twice")
            pieces = _pieces_line(line, reader, number)
        else:
            rows.append((number, _grid_row(line, rows, reader, number)))
    if pieces is None:
        raise reader.error(None, "missing the 'pieces K' line")
    _check_one_spelling(rows, text, reader)
    if not rows:
        raise reader.error(None, "no grid rows")
    cells = len(rows) * len(rows[0][1])
    if pieces > cells:
        raise reader.error(None, f"cannot cut {cells} cells into {pieces} pieces")
    if pieces > len(LABELS):
        raise reader.error(None, f"at most {len(LABELS)} pieces are supported, not {pieces}")
    return CakeInstance(pieces, tuple(line for _, line in rows))


def _pieces_line(line: str, reader: LineReader, number: int) -> int:
    value = line.split()[1] if len(line.split()) == 2 else ""
    if not is_number(value.removeprefix("-")):
        raise reader.error(number, f"expected 'pieces K' with a whole number, got '{line}'")
    pieces = int(value)
    if pieces <= 0:
        raise reader.error(number, f"the piece count must be positive, not {pieces}")
    return pieces


def _grid_row(line: str, rows: list[tuple[int, str]], reader: LineReader, number: int) -> str:
    """One row of toppings, one character a cell, as long as the first row (``rows`` so
    far)."""
    for column, char in enumerate(line, start=1):
        if not (char.isprintable() or char.isspace()):
            raise reader.error(number, f"{char!r} is not a topping", column)
    # Cells may be spaced out ("1 2 2 1"), as grids often are; a cell is one character.
    row = "".join(line.split())
    if rows and len(row) != len(rows[0][1]):
        raise reader.error(
            number,
            f"ragged row: {len(row)} cells, expected {len(rows[0][1])} like line {rows[0][0]}",
        )
    return row


def _check_one_spelling(rows: list[tuple[int, str]], text: str, reader: LineReader) -> None:
    """Toppings are digits (0 plain, 1 skull, 2 tombstone, others numbered) or, in a
    grid without digits, other characters, each its own topping (``S T .``). A grid
    mostly of digits takes any other character for a typo, and vice versa."""
    cells = "".join(row for _, row in rows)
    digits = 2 * sum(map(is_number, cells)) >= len(cells)
    for number, row in rows:
        odd = next((char for char in row if is_number(char) != digits), None)
        if odd is not None:
            column = text.splitlines()[number - 1].index(odd) + 1
            if digits:
                raise reader.error(number, f"'{odd}' is not a topping digit", column)
            message = f"'{odd}' is a digit in a grid that writes its toppings as other characters"
            raise reader.error(number, message, column)


def topping_name(topping: str) -> str | None:
    """What a digit topping is called (``skull``; ``topping 3`` past the seed's three);
    None for a topping written as another character, which is its own name."""
    if not is_number(topping):
        return None
    return TOPPING_NAMES.get(topping, f"topping {topping}")


def topping_symbol(topping: str) -> Symbol:
    """A topping as the encoding sees it: a digit as its number, another character as
    a string."""
    return asp.number(int(topping)) if is_number(topping) else String(topping)


def format_cake(instance: CakeInstance) -> str:
    return f"pieces {instance.pieces}\n" + "\n".join(instance.grid) + "\n"


# ------------------------------------------------------------------------- puzzle
class Cake(Puzzle[CakeInstance, CakeSolution]):
    name = "cake"
    title = "The 7th Guest cake (equal connected pieces)"
    default_instance = "seed-7th-guest.txt"
    # The encoding's #heuristic builds pieces root by root; it needs the Domain heuristic.
    clingo_options = ("--heuristic=Domain",)
    #: How the toppings read in hints and legends.
    topping_names = TOPPING_NAMES

    def parse(self, text: str, source: str) -> CakeInstance:
        return parse_cake(text, source)

    def strategy(self, instance: CakeInstance) -> Strategy[CakeInstance]:
        return CakeStrategy(instance)

    def facts(self, instance: CakeInstance) -> list[Symbol]:
        grid, size = instance.lattice, instance.piece_size()
        facts = [
            Function("pieces", [asp.number(instance.pieces)]),
            Function("size", [asp.number(size)]),
        ]
        for topping, total in sorted(instance.totals().items()):
            quota = total // instance.pieces
            facts.append(Function("quota", [topping_symbol(topping), asp.number(quota)]))
        for cell in grid.cells():
            index = grid.index(cell)
            facts.append(Function("cell", [asp.number(index)]))
            on_cell = topping_symbol(instance.grid[cell[0]][cell[1]])
            facts.append(Function("topping", [asp.number(index), on_cell]))
            for other in grid.neighbours(cell):
                facts.append(Function("adj", [asp.number(index), asp.number(grid.index(other))]))
        facts.append(Function("naming", [Function(naming(instance))]))
        for piece, member in candidates(instance):
            facts.append(Function("candidate", [asp.number(member), asp.number(piece)]))
        return facts

    def decode(self, instance: CakeInstance, atoms: Sequence[Symbol]) -> CakeSolution:
        owner = {}
        for atom in atoms:
            name, arguments = atom_parts(atom)
            if name == "in" and len(arguments) == 2:
                owner[arguments[0].number] = arguments[1].number
        return CakeSolution(labelled(instance.lattice, owner))

    def check(self, instance: CakeInstance, solution: CakeSolution) -> list[str]:
        return check_partition(instance, solution.pieces)

    def to_dict(self, instance: CakeInstance, solution: CakeSolution) -> dict[str, Any]:
        return {"pieces": list(solution.pieces)}

    def from_dict(self, instance: CakeInstance, data: Any, source: str) -> CakeSolution:
        return CakeSolution(string_rows(data, "pieces", source))

    def describe(self, instance: CakeInstance) -> str:
        grid = instance.lattice
        return f"{grid.rows}x{grid.cols}, {instance.pieces} pieces"

    def unsolved(self, instance: CakeInstance) -> CakeSolution:
        """The whole cake as one piece: its toppings, no cut yet."""
        return CakeSolution(tuple("A" * len(row) for row in instance.grid))

    def template_context(self, instance: CakeInstance, solution: CakeSolution) -> dict[str, Any]:
        kinds = sorted(instance.totals())
        quotas = {kind: instance.totals()[kind] // instance.pieces for kind in kinds}
        return {
            "rows": len(instance.grid),
            "cols": len(instance.grid[0]),
            "toppings": instance.grid,
            "pieces": solution.pieces,
            "drawing": box_drawing(instance.grid, solution.pieces),
            "legend": ", ".join(
                " ".join(filter(None, (kind, topping_name(kind), f"x{quotas[kind]}")))
                for kind in kinds
            ),
            "count": instance.pieces,
            "colours": piece_colours(instance.pieces),
            "pieces_order": LABELS[: instance.pieces],
            "names": TOPPING_NAMES,
        }

    def draw_text(self, context: dict[str, Any]) -> str:
        """What every piece holds, then the cake with its cuts."""
        header = f"{context['count']} pieces, each with {context['legend']}\n"
        return header + "".join(f"{line}\n" for line in context["drawing"])

    # -- capabilities ------------------------------------------------------------------
    def hints(self) -> CakeHints:
        from .hints import CakeHints  # loaded when a hint command first asks

        return CakeHints(self)

    def play(self) -> CakePlay:
        from .play import CakePlay  # loaded when the web board first asks

        return CakePlay()

    # ----------------------------------------------------------------- generator

    def generator(self) -> CakeGenerator:
        return CakeGenerator(self)


#: The most first-cell candidates worth their pruning: past this many (cells x S^2,
#: roughly), pieces are numbered instead (at most cells x K candidates).
FIRST_CELL_LIMIT = 1_000_000


def naming(instance: CakeInstance) -> str:
    """How the encoding names pieces: by their first cells (``first_cell``), which
    prunes best, unless that gives too many candidates; then by number (``number``)."""
    cells, size = len(instance.lattice), instance.piece_size()
    estimate = cells * min(cells // 2 + 1, 2 * size * size)
    return "first_cell" if estimate <= FIRST_CELL_LIMIT else "number"


def candidates(instance: CakeInstance) -> list[tuple[int, int]]:
    """(piece, cell) pairs: ``cell`` may lie in ``piece``, named as ``naming`` says."""
    if naming(instance) == "first_cell":
        return first_cell_candidates(instance)
    return numbered_candidates(instance)


def first_cell_candidates(instance: CakeInstance) -> list[tuple[int, int]]:
    """(first cell, cell) pairs. A piece holds only cells at or after its first cell in
    reading order and is connected through them, so a cell farther than size-1 steps
    from the first cell through such cells can never join it."""
    grid, limit = instance.lattice, instance.piece_size() - 1
    pairs = []
    for start in range(len(grid)):
        reach = grid.distances_from([grid.cell(start)], partial(_at_or_after, grid, start), limit)
        pairs += [(start, grid.index(cell)) for cell in reach]
    return pairs


def numbered_candidates(instance: CakeInstance) -> list[tuple[int, int]]:
    """(piece number, cell) pairs, pieces 1..K in the reading order of their first
    cells. The cells before piece P's first cell all lie in pieces 1..P-1, so that
    first cell is numbered from P-1 to (P-1)*S; the piece's cells come at or after it
    and lie within S-1 steps of it through such cells. One breadth-first walk per
    piece, from all its possible first cells at once: at most cells x K pairs."""
    grid, size = instance.lattice, instance.piece_size()
    last = len(grid) - 1
    pairs = []
    for piece in range(1, instance.pieces + 1):
        earliest = piece - 1
        starts = [grid.cell(index) for index in range(earliest, min((piece - 1) * size, last) + 1)]
        reach = grid.distances_from(starts, partial(_at_or_after, grid, earliest), size - 1)
        pairs += [(piece, grid.index(cell)) for cell in reach]
    return pairs


def labelled(grid: SquareGrid, owner: dict[int, int]) -> tuple[str, ...]:
    """Letters per cell from any piece naming: A for the piece of the first cell, ..."""
    letters: dict[int, str] = {}
    for index in range(len(grid)):
        key = owner.get(index, -1)
        if key not in letters:
            letters[key] = LABELS[len(letters)] if key != -1 else "?"
    return tuple(
        "".join(letters[owner.get(grid.index((row, col)), -1)] for col in range(grid.cols))
        for row in range(grid.rows)
    )


def check_partition(instance: CakeInstance, pieces: Sequence[str]) -> list[str]:
    """Coverage, piece count, connectivity and topping quotas, checked directly."""
    rows, cols = len(instance.grid), len(instance.grid[0])
    if len(pieces) != rows or any(len(row) != cols for row in pieces):
        return [f"the partition is not {rows}x{cols}"]
    members: dict[str, list[tuple[int, int]]] = {}
    for row, line in enumerate(pieces):
        for col, label in enumerate(line):
            members.setdefault(label, []).append((row, col))
    problems = []
    if len(members) != instance.pieces:
        problems.append(f"{len(members)} pieces, expected {instance.pieces}")
    totals = instance.totals()
    for label, cells in sorted(members.items()):
        if not is_connected(cells):
            problems.append(f"piece {label} is not connected")
        held = Counter(instance.grid[row][col] for row, col in cells)
        for kind, total in sorted(totals.items()):
            if held[kind] * instance.pieces != total:
                problems.append(
                    f"piece {label} holds {held[kind]} of topping {kind}, "
                    f"expected {total / instance.pieces:g}"
                )
    return problems


# ----------------------------------------------------------------- rendering
def box_drawing(toppings: Sequence[str], pieces: Sequence[str]) -> list[str]:
    """Text lines: cuts between pieces drawn with box characters, toppings inside."""
    rows, cols = len(pieces), len(pieces[0])

    def label(row: int, col: int) -> str | None:
        return pieces[row][col] if 0 <= row < rows and 0 <= col < cols else None

    def cut_right(row: int, col: int) -> bool:  # between (row, col) and (row, col + 1)
        return label(row, col) != label(row, col + 1)

    def cut_below(row: int, col: int) -> bool:  # between (row, col) and (row + 1, col)
        return label(row, col) != label(row + 1, col)

    corners = {
        # (up, right, down, left) -> character
        (0, 0, 0, 0): " ",
        (1, 0, 1, 0): "│",
        (0, 1, 0, 1): "─",
        (0, 1, 1, 0): "┌",
        (0, 0, 1, 1): "┐",
        (1, 1, 0, 0): "└",
        (1, 0, 0, 1): "┘",
        (1, 1, 1, 0): "├",
        (1, 0, 1, 1): "┤",
        (0, 1, 1, 1): "┬",
        (1, 1, 0, 1): "┴",
        (1, 1, 1, 1): "┼",
        (1, 0, 0, 0): "╵",
        (0, 1, 0, 0): "╶",
        (0, 0, 1, 0): "╷",
        (0, 0, 0, 1): "╴",
    }
    lines = []
    for row in range(rows + 1):
        border = []
        for col in range(cols + 1):
            up = cut_right(row - 1, col - 1) if row > 0 else False
            down = cut_right(row, col - 1) if row < rows else False
            left = cut_below(row - 1, col - 1) if col > 0 else False
            right = cut_below(row - 1, col) if col < cols else False
            border.append(corners[int(up), int(right), int(down), int(left)])
            if col < cols:
                border.append("───" if right else "   ")
        lines.append("".join(border))
        if row < rows:
            cells = []
            for col in range(cols + 1):
                cells.append("│" if cut_right(row, col - 1) else " ")
                if col < cols:
                    cells.append(f"{pieces[row][col]}{toppings[row][col]} ")
            lines.append("".join(cells))
    return lines


def piece_colours(count: int) -> list[str]:
    """Distinct pastel fills, evenly spaced around the colour wheel."""
    return wheel_colours(count, saturation=60, lightness=78)


# ----------------------------------------------------------------- generator
def planted_cake(rows: int, cols: int, pieces: int, kinds: int, rng: random.Random) -> CakeInstance:
    """A cake with at least one solution: a random equal partition, then the same
    multiset of toppings shuffled into every piece."""
    grid = SquareGrid(rows, cols)
    size = rows * cols // pieces
    partition = random_partition(grid, size, rng)
    base = [str(kind % kinds) for kind in range(size)]
    rng.shuffle(base)
    cells = [["0"] * cols for _ in range(rows)]
    for piece in partition:
        toppings = base[:]
        rng.shuffle(toppings)
        for (row, col), topping in zip(sorted(piece), toppings, strict=True):
            cells[row][col] = topping
    return CakeInstance(pieces, tuple("".join(row) for row in cells))


def strewn_cake(rows: int, cols: int, pieces: int, kinds: int, rng: random.Random) -> CakeInstance:
    """A cake whose toppings lie at random: a piece's mix drawn at random (every kind at
    least once where the piece has room), that mix times ``pieces`` strewn over the grid.
    The totals divide, but nothing plants a cut: such cakes may have no solution, and
    they are harder to search than planted ones (`make bench ARGS=cake`)."""
    size = rows * cols // pieces
    mix = [1 if kind < size else 0 for kind in range(kinds)]
    for _ in range(size - sum(mix)):
        mix[rng.randrange(kinds)] += 1
    toppings = [str(kind) for kind, count in enumerate(mix) for _ in range(count * pieces)]
    rng.shuffle(toppings)
    grid = tuple("".join(toppings[row * cols : (row + 1) * cols]) for row in range(rows))
    return CakeInstance(pieces, grid)


def random_partition(grid: SquareGrid, size: int, rng: random.Random) -> list[set[tuple[int, int]]]:
    """Connected pieces of ``size`` cells covering the grid, grown at random from the
    first free cell; a snake-order cut is the fallback that always works."""
    for _ in range(500):
        free = set(grid.cells())
        pieces = []
        while free:
            piece = {min(free)}
            while len(piece) < size:
                frontier = sorted(
                    {n for c in piece for n in grid.neighbours(c) if n in free} - piece
                )
                if not frontier:
                    break
                piece.add(rng.choice(frontier))
            if len(piece) < size:
                break
            free -= piece
            pieces.append(piece)
        if not free:
            return pieces
    snake = [
        (row, col if row % 2 == 0 else grid.cols - 1 - col)
        for row in range(grid.rows)
        for col in range(grid.cols)
    ]
    return [set(snake[start : start + size]) for start in range(0, len(snake), size)]


class CakeStrategy(Strategy[CakeInstance]):
    """Toppings that cannot be shared out fairly are found without search; large cakes
    race two restart policies."""

    def infeasible(self) -> str | None:
        for topping, total in sorted(self.instance.totals().items()):
            if total % self.instance.pieces:
                name = topping_name(topping)
                kind = f"{name} ({topping})" if name else f"'{topping}'"
                return f"{total} x {kind} do not divide into {self.instance.pieces} pieces"
        return None

    def answer(self, deadline: float, memory: int | None = None) -> Answered | None:
        """Cakes up to 100 cells: the first partition of a depth-first search, or the
        proof that there is none, as the encoding's ``in/2`` atoms (see ``small``)."""
        from .small import first_partition

        try:
            cut = first_partition(self.instance.grid, self.instance.pieces, deadline)
        except Undecided:
            return None
        if cut is None:
            return Answered(None, finished=True)
        by_first_cell = naming(self.instance) == "first_cell"
        atoms = [
            Function("in", [asp.number(cell), asp.number(piece[0] if by_first_cell else name)])
            for name, piece in enumerate(cut, start=1)
            for cell in piece
        ]
        return Answered(atoms, finished=True)

    def portfolio(self) -> tuple[tuple[str, ...], ...]:
        """Luby restarts (every 128 conflicts times the Luby sequence) against clasp's
        default restarts: on cakes whose toppings lie at random, not planted, search
        times are heavy-tailed, and each setting answers some cakes the other does not
        (`make bench ARGS=cake`). Cakes under 100 cells answer in well under a second,
        less than a second process costs, so they are not raced."""
        if self.instance.lattice.rows * self.instance.lattice.cols < 100:
            return ()
        return (("--restarts=L,128",),)


def _at_or_after(grid: SquareGrid, start: int, cell: Cell) -> bool:
    """Whether ``cell`` is the cell numbered ``start`` or comes after it in the grid's order."""
    return grid.index(cell) >= start


class CakeGenerator(Generator):
    """The cake's generator (``aspuzzles generate``)."""

    options: ClassVar[tuple[Option, ...]] = (
        Option("--size", default="6x6", help="ROWSxCOLS (default 6x6)"),
        Option("--pieces", type=int, default=4, help="K (default 4)"),
        Option("--kinds", type=int, default=3, help="topping kinds (default 3)"),
        Option("--seed", type=int, default=None, help="random seed"),
        Option(
            "--random",
            switch=True,
            help="toppings strewn at random (totals that divide, but no planted cut: "
            "the cake may have no solution)",
        ),
        Option(
            "--unique", switch=True, help="draw planted cakes until one has exactly one partition"
        ),
        DIFFICULTY_OPTION,
    )

    def generate(self, args: argparse.Namespace) -> str:
        match = re.fullmatch(r"(\d+)x(\d+)", args.size)
        if not match:
            raise InputError(f"--size must look like ROWSxCOLS, not '{args.size}'")
        rows, cols = int(match.group(1)), int(match.group(2))
        if not (1 <= rows <= 40 and 1 <= cols <= 40):
            raise InputError(f"--size {args.size} is out of range (1 to 40 per side)")
        if args.pieces < 1 or (rows * cols) % args.pieces:
            raise InputError(f"{rows * cols} cells do not divide into {args.pieces} pieces")
        if not 1 <= args.kinds <= 10:
            raise InputError("--kinds must be from 1 to 10")
        make = strewn_cake if args.random else planted_cake
        import random

        rng = random.Random(args.seed)
        unique = getattr(args, "unique", False)
        difficulty = getattr(args, "difficulty", None)

        def draw(rng: random.Random) -> CakeInstance:
            return make(rows, cols, args.pieces, args.kinds, rng)

        instance = as_asked(self.puzzle, draw, rng, unique, difficulty)
        flag = (" --random" if args.random else "") + (" --unique" if unique else "")
        flag += f" --difficulty {difficulty}" if difficulty else ""
        return (
            f"# aspuzzles generate cake --size {args.size} --pieces {args.pieces} "
            f"--kinds {args.kinds} --seed {args.seed}{flag}\n" + format_cake(instance)
        )


PUZZLE = Cake()
