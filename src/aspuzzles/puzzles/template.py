"""Template puzzle: a Latin square with givens, the starting point for a new puzzle.

Fill every cell of an N x N grid with a number 1..N so that each number stands once in
every row and once in every column; the given numbers stay. The puzzle is small on
purpose: it fills in every required method of :class:`~aspuzzles.puzzle.Puzzle` and two
optional ones (a generator, and play on the web board without hints), and nothing else,
so that a new puzzle can start as a copy of this file (``docs/adding-a-puzzle.md``
walks through it). Its parts, in the order data flows:

    text --parse--> LatinInstance --facts--> clingo (encodings/template.lp)
    --decode--> LatinSolution --check--> to_dict / draw_text, or SVG (templates/template.svg.j2)
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from clingo import Function, Number, Symbol

from ..capabilities import Generator, Play
from ..errors import InputError, LineReader, is_number
from ..puzzle import Option, Puzzle, string_rows

if TYPE_CHECKING:
    import random

#: The largest grid: values are written as one digit each.
MAX_SIZE = 9
#: An empty cell, to be filled.
EMPTY = "."


class LatinInstance(NamedTuple):
    """The grid as read: ``rows[r][c]`` is a given number, or ``None`` where it is empty."""

    rows: tuple[tuple[int | None, ...], ...]

    @property
    def size(self) -> int:
        return len(self.rows)


class LatinSolution(NamedTuple):
    """The filled grid, one string of digits per row."""

    grid: tuple[str, ...]


# ---------------------------------------------------------------------------- parsing
def parse_latin(text: str, source: str) -> LatinInstance:
    """Rows of numbers and dots separated by spaces, ``#`` starting a comment. Every
    problem names its line (and column, for a cell)."""
    reader = LineReader(source)
    lines = reader.lines(text)
    if not lines:
        raise reader.error(None, "no grid found (the file is empty or only comments)")
    size = len(lines)
    if size > MAX_SIZE:
        raise reader.error(lines[MAX_SIZE][0], f"more than {MAX_SIZE} rows")
    rows = tuple(_row(line, size, reader, number) for number, line in lines)
    return LatinInstance(rows)


def _row(line: str, size: int, reader: LineReader, number: int) -> tuple[int | None, ...]:
    cells = line.split()
    if len(cells) != size:
        raise reader.error(
            number, f"expected {size} cells (one per row of the grid), got {len(cells)}"
        )
    return tuple(_cell(cell, size, reader, number, column) for column, cell in enumerate(cells, 1))


def _cell(cell: str, size: int, reader: LineReader, number: int, column: int) -> int | None:
    if cell == EMPTY:
        return None
    if not is_number(cell) or not 1 <= int(cell) <= size:
        raise reader.error(number, f"cell {column}: expected 1 to {size} or '.', got '{cell}'")
    return int(cell)


def format_latin(instance: LatinInstance) -> str:
    """The instance in the text form ``parse_latin`` reads."""
    return "".join(
        " ".join(EMPTY if value is None else str(value) for value in row) + "\n"
        for row in instance.rows
    )


# ---------------------------------------------------------------------------- checker
def check_grid(instance: LatinInstance, grid: Sequence[str]) -> list[str]:
    """Every rule, checked on the filled grid in plain Python (nothing from the encoding)."""
    size = instance.size
    if len(grid) != size or any(len(row) != size for row in grid):
        return [f"the grid is not {size}x{size}"]
    wanted = {str(value) for value in range(1, size + 1)}
    problems = [
        f"row {r} does not hold 1 to {size} once"
        for r, row in enumerate(grid, 1)
        if set(row) != wanted
    ]
    columns = ["".join(row[c] for row in grid) for c in range(size)]
    problems += [
        f"column {c} does not hold 1 to {size} once"
        for c, col in enumerate(columns, 1)
        if set(col) != wanted
    ]
    for r, row in enumerate(instance.rows):
        for c, given in enumerate(row):
            if given is not None and grid[r][c] != str(given):
                problems.append(f"cell ({r + 1},{c + 1}) must hold the given {given}")
    return problems


# ----------------------------------------------------------------------------- puzzle
class Template(Puzzle[LatinInstance, LatinSolution]):
    name = "template"
    title = "Template: a Latin square with givens (the starting point for a new puzzle)"
    default_instance = "small-4x4.txt"

    def parse(self, text: str, source: str) -> LatinInstance:
        return parse_latin(text, source)

    def facts(self, instance: LatinInstance) -> list[Symbol]:
        facts = [Function("size", [Number(instance.size)])]
        for r, row in enumerate(instance.rows, 1):
            for c, value in enumerate(row, 1):
                if value is not None:
                    facts.append(Function("given", [Number(r), Number(c), Number(value)]))
        return facts

    def decode(self, instance: LatinInstance, atoms: Sequence[Symbol]) -> LatinSolution:
        cells = {
            (atom.arguments[0].number, atom.arguments[1].number): atom.arguments[2].number
            for atom in atoms
            if atom.match("value", 3)
        }
        span = range(1, instance.size + 1)
        return LatinSolution(tuple("".join(str(cells.get((r, c), 0)) for c in span) for r in span))

    def check(self, instance: LatinInstance, solution: LatinSolution) -> list[str]:
        return check_grid(instance, solution.grid)

    def to_dict(self, instance: LatinInstance, solution: LatinSolution) -> dict[str, Any]:
        return {"grid": list(solution.grid)}

    def from_dict(self, instance: LatinInstance, data: Any, source: str) -> LatinSolution:
        return LatinSolution(string_rows(data, "grid", source))

    def template_context(self, instance: LatinInstance, solution: LatinSolution) -> dict[str, Any]:
        givens = {
            (r, c)
            for r, row in enumerate(instance.rows)
            for c, v in enumerate(row)
            if v is not None
        }
        return {
            "size": instance.size,
            "grid": [list(row) for row in solution.grid],
            "givens": givens,
        }

    def draw_text(self, context: dict[str, Any]) -> str:
        """The grid, one row a line, numbers apart."""
        return "".join(" ".join(row) + "\n" for row in context["grid"])

    def unsolved(self, instance: LatinInstance) -> LatinSolution:
        return LatinSolution(
            tuple("".join(EMPTY if v is None else str(v) for v in row) for row in instance.rows)
        )

    def describe(self, instance: LatinInstance) -> str:
        given = sum(value is not None for row in instance.rows for value in row)
        return f"{instance.size}x{instance.size}, {given} given"

    # -- optional: a generator -----------------------------------------------------

    def generator(self) -> TemplateGenerator:
        return TemplateGenerator(self)

    # -- optional: played on the web board without hints ----------------------------

    def play(self) -> TemplatePlay:
        return TemplatePlay(self)


class TemplatePlay(Play[LatinInstance]):
    """The web board's play without hints: each empty cell takes a number (the atoms
    the encoding shows, ``value(R,C,V)``), and a full grid the checker accepts is
    solved."""

    def __init__(self, puzzle: Template) -> None:
        self.puzzle = puzzle

    def places(self, instance: LatinInstance) -> dict[str, list[dict[str, str]]]:
        numbers = range(1, instance.size + 1)
        return {
            f"{r},{c}": [{"value": str(v), "atom": f"value({r},{c},{v})"} for v in numbers]
            for r, row in enumerate(instance.rows, 1)
            for c, given in enumerate(row, 1)
            if given is None
        }

    def played(self, instance: LatinInstance, entries: list[Symbol]) -> tuple[LatinSolution, bool]:
        made = {
            (e.arguments[0].number, e.arguments[1].number): e.arguments[2].number
            for e in entries
            if e.match("value", 3)
        }
        grid = tuple(
            "".join(
                str(given if given is not None else made.get((r, c), EMPTY))
                for c, given in enumerate(row, 1)
            )
            for r, row in enumerate(instance.rows, 1)
        )
        full = EMPTY not in "".join(grid)
        return LatinSolution(grid), full and not check_grid(instance, grid)


def random_latin_square(size: int, rng: random.Random) -> list[list[int]]:
    """A cyclic Latin square with its rows, columns and symbols shuffled (a Latin square
    still, though not every one can come out this way)."""
    rows, cols, symbols = (rng.sample(range(size), size) for _ in range(3))
    return [[symbols[(rows[r] + cols[c]) % size] + 1 for c in range(size)] for r in range(size)]


class TemplateGenerator(Generator):
    """The template's generator (``aspuzzles generate``)."""

    options: ClassVar[tuple[Option, ...]] = (
        Option("--size", type=int, default=4, help=f"N, from 2 to {MAX_SIZE} (default 4)"),
        Option("--givens", type=int, default=6, help="numbers given (default 6)"),
        Option("--seed", type=int, default=None, help="random seed (the same seed, the same grid)"),
    )

    def generate(self, args: argparse.Namespace) -> str:
        if not 2 <= args.size <= MAX_SIZE:
            raise InputError(f"--size must be from 2 to {MAX_SIZE}, not {args.size}")
        if not 0 <= args.givens <= args.size**2:
            raise InputError(f"--givens must be from 0 to {args.size**2}, not {args.givens}")
        import random

        rng = random.Random(args.seed)
        square = random_latin_square(args.size, rng)
        shown = set(rng.sample(range(args.size**2), args.givens))
        rows = tuple(
            tuple(square[r][c] if r * args.size + c in shown else None for c in range(args.size))
            for r in range(args.size)
        )
        options = f"--size {args.size} --givens {args.givens} --seed {args.seed}"
        header = f"# aspuzzles generate {self.puzzle.name} {options}\n"
        return header + format_latin(LatinInstance(rows))


PUZZLE = Template()
