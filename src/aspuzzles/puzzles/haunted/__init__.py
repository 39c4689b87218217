"""Haunted: Simon Tatham's "Undead". Mirrors, and monsters seen along lines of sight.

Every non-mirror cell holds one monster: a ghost, a vampire or a zombie. Each border
clue counts the monsters seen along the line of sight entering there, reflected by
two-sided mirrors ``/`` and ``\\``. Zombies are always seen, vampires only before the
line's first mirror, ghosts only after one. A line may cross a cell twice; the monster
then counts once per crossing.

Python traces the lines of sight once (ASP is bad at that) and hands the encoding
``crossings(Line,Row,Col,Side,Times)`` facts (Side: before or after the first mirror)
and ``opposite(Line,Other)`` (the two lines along one path); the encoding states who
is visible where.

One module a concern: ``model`` (board and answer), ``sight`` (lines of sight),
five instance formats (``gameid``, ``facts``, ``picture``, ``savefile``, ``janko``),
``checker`` (the independent checker) and ``generate`` (new boards).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from clingo import Symbol

from ...asp import fact
from ...capabilities import Generator
from ...errors import InputError
from ...puzzle import Option, Puzzle, atom_parts, render, string_rows
from ...strategy import Answered, Strategy, Undecided
from .checker import check_board
from .facts import parse_facts
from .gameid import GAME_ID, encode_game_id, parse_game_id
from .janko import check_janko_size, is_janko_file, janko_block, janko_picture
from .model import (
    DIFFICULTIES,
    KINDS,
    LETTER,
    MAX_SIDE,
    HauntedInstance,
    HauntedSolution,
)
from .picture import content_lines, parse_picture
from .savefile import is_save_file, parse_save_file
from .search import Filled, count_fillings, fillings
from .sight import clue_place, clues_of, crossings, opposite_pairs, sight_range, trace

if TYPE_CHECKING:
    from .hints import HauntedHints
    from .play import HauntedPlay


#: A shown monster as clingo prints it: rows and columns are plain positive numbers.
_MONSTER_ATOM = re.compile(r"monster\(([1-9][0-9]*),([1-9][0-9]*),(ghost|vampire|zombie)\)")

#: The most cells Tatham's Undead accepts in a game.
TATHAM_CELLS = 54


def _clue_lines(width: int, height: int) -> dict[str, list[int]]:
    """The line of each clue place, side by side in drawing order (top and bottom left
    to right, the sides top to bottom): lines are numbered clockwise from the top left."""
    return {
        "top": list(range(width)),
        "right": list(range(width, width + height)),
        "bottom": list(reversed(range(width + height, 2 * width + height))),
        "left": list(reversed(range(2 * width + height, 2 * width + 2 * height))),
    }


class Haunted(Puzzle[HauntedInstance, HauntedSolution]):
    name = "haunted"
    title = "Haunted (Simon Tatham's Undead)"
    default_instance = "seed-4x4.txt"
    accepts_inline = True

    def parse(self, text: str, source: str) -> HauntedInstance:
        if is_save_file(text):
            return parse_save_file(text, source)
        if source.endswith(".lp") or "count(" in text or "#const" in text:
            return parse_facts(text, source)
        lines = content_lines(text)
        if not lines:
            empty = "is empty" if not text.strip() else "holds only comments"
            raise InputError(f"no puzzle found (the file {empty})", source)
        if is_janko_file(lines):
            return self._parse_janko(lines, source)
        if len(lines) > 1:
            if any(GAME_ID.match(line) for _, line in lines):
                raise InputError("expected one game ID, found more lines", source, lines[1][0])
            return parse_picture(lines, source)
        number, game_id = lines[0]
        return parse_game_id(game_id, source, number if source != "<argument>" else None)

    @staticmethod
    def _parse_janko(lines: Sequence[tuple[int, str]], source: str) -> HauntedInstance:
        lines = janko_block(lines)
        instance = parse_picture(janko_picture(lines, source), source)
        check_janko_size(lines, instance, source)
        return instance

    def strategy(self, instance: HauntedInstance) -> Strategy[HauntedInstance]:
        return HauntedStrategy(instance)

    def facts(self, instance: HauntedInstance) -> list[Symbol]:
        facts: list[Symbol] = []
        for row, col in instance.cells():
            facts.append(fact("cell", row + 1, col + 1))
            given = instance.grid[row][col]
            if given in KINDS:
                facts.append(fact("given", row + 1, col + 1, KINDS[given]))
        for letter, total in instance.totals.items():
            facts.append(fact("total", KINDS[letter], total))
        for line, clue in enumerate(instance.clues):
            if clue is None:
                continue
            facts.append(fact("clue", line, clue))
            for (row, col, side), times in sorted(crossings(instance.grid, line).items()):
                facts.append(fact("crossings", line, row + 1, col + 1, side, times))
        for line, other in opposite_pairs(instance.grid):
            facts.append(fact("opposite", line, other))
        return facts

    def decode(self, instance: HauntedInstance, atoms: Sequence[Symbol]) -> HauntedSolution:
        """Each ``monster(R,C,K)`` read from its text, one call into clingo an atom
        instead of six (the symbol's type, name, arguments and their values): a 40x40
        board's answer decodes in 2 ms instead of 4. An atom of another shape (an
        edited encoding's) is read through the symbol, as before."""
        rows = [list(row) for row in instance.grid]
        for atom in atoms:
            if shown := _MONSTER_ATOM.fullmatch(str(atom)):
                row, col, kind = shown.groups()
                rows[int(row) - 1][int(col) - 1] = LETTER[kind]
                continue
            name, arguments = atom_parts(atom)
            if name == "monster" and len(arguments) == 3:
                row_symbol, col_symbol, kind_symbol = arguments
                rows[row_symbol.number - 1][col_symbol.number - 1] = LETTER[kind_symbol.name]
        return HauntedSolution(tuple("".join(row) for row in rows))

    def check(self, instance: HauntedInstance, solution: HauntedSolution) -> list[str]:
        return check_board(instance, solution.grid)

    def to_dict(self, instance: HauntedInstance, solution: HauntedSolution) -> dict[str, Any]:
        return {"grid": list(solution.grid)}

    def from_dict(self, instance: HauntedInstance, data: Any, source: str) -> HauntedSolution:
        return HauntedSolution(string_rows(data, "grid", source))

    def describe(self, instance: HauntedInstance) -> str:
        return f"{instance.width}x{instance.height}"

    def template_context(
        self, instance: HauntedInstance, solution: HauntedSolution
    ) -> dict[str, Any]:
        width, height = instance.width, instance.height
        clues = ["-" if clue is None else str(clue) for clue in instance.clues]
        return {
            "width": width,
            "height": height,
            "grid": solution.grid,
            "givens": instance.grid,
            "totals": instance.totals,
            "top": clues[:width],
            "right": clues[width : width + height],
            "bottom": list(reversed(clues[width + height : 2 * width + height])),
            "left": list(reversed(clues[2 * width + height :])),
            "cell_width": max(2, *(len(clue) for clue in clues)) + 1,
            "names": KINDS,
            # each clue place's atom, as the encoding names it (None without a clue)
            "clue_atoms": {
                side: [
                    None if instance.clues[line] is None else f"clue({line},{instance.clues[line]})"
                    for line in lines
                ]
                for side, lines in _clue_lines(width, height).items()
            },
            "sights": [],
        }

    def draw_text(self, context: dict[str, Any]) -> str:
        """Totals on top, then the board framed by its clues, a column each."""
        width, names, totals = context["cell_width"], context["names"], context["totals"]

        def columns(*cells: str) -> str:
            return "".join(cell.rjust(width) for cell in cells)

        return "\n".join(
            [
                ", ".join(f"{names[kind]}s {totals[kind]}" for kind in "GVZ"),
                columns("", *context["top"]),
                *(
                    columns(left, *row, right)
                    for left, row, right in zip(
                        context["left"], context["grid"], context["right"], strict=True
                    )
                ),
                columns("", *context["bottom"]),
            ]
        )

    # ------------------------------------------------------------------ generator

    def generator(self) -> HauntedGenerator:
        return HauntedGenerator(self)

    def generated_text(
        self, args: argparse.Namespace, instance: HauntedInstance, difficulty: str | None
    ) -> str:
        """The generated puzzle in the form asked for: game ID, link, picture or JSON."""
        sparse = getattr(args, "sparse", False)  # a game ID gives every clue
        game_id = None if sparse else encode_game_id(instance)
        if getattr(args, "link", False) and game_id is not None:
            cells = instance.width * instance.height
            if cells > TATHAM_CELLS:
                raise InputError(
                    f"--link: Tatham's Undead takes at most {TATHAM_CELLS} cells, not {cells}"
                )
            return TATHAM_PAGE + game_id
        if getattr(args, "json", False):
            import json  # loaded only for this output

            data = {"game_id": game_id, "picture": self.picture(instance).splitlines()}
            return json.dumps(data | {"difficulty": difficulty, "seed": args.seed})
        if not getattr(args, "picture", False) and game_id is not None:
            return game_id
        mirrors = getattr(args, "mirrors", None)
        flags = "" if mirrors is None else f" --mirrors {mirrors}"
        flags += " --givens" if difficulty is None else f" --difficulty {difficulty}"
        flags += f" --seed {args.seed} --picture"
        flags += " --sparse" if getattr(args, "sparse", False) else ""
        header = f"# aspuzzles generate haunted --size {args.size}{flags}\n"
        return header + self.picture(instance)

    def picture(self, instance: HauntedInstance) -> str:
        """The puzzle drawn as :func:`parse_picture` reads it: the solved board's layout
        with ``.`` where a monster is to be found."""
        return render(self, instance, self.unsolved(instance), "txt")

    def unsolved(self, instance: HauntedInstance) -> HauntedSolution:
        return HauntedSolution(instance.grid)

    # -- capabilities ------------------------------------------------------------------
    def hints(self) -> HauntedHints:
        from .hints import HauntedHints  # loaded when a hint command first asks

        return HauntedHints(self)

    def play(self) -> HauntedPlay:
        from .play import HauntedPlay  # loaded when the web board first asks

        return HauntedPlay()


#: Tatham's Undead web page: a game ID after ``#`` opens that puzzle.
TATHAM_PAGE = "https://www.chiark.greenend.org.uk/~sgtatham/puzzles/js/undead.html#"
#: The largest side a graded puzzle (no givens) is made for.
GRADED_MAX_SIDE = 30


def _generated_size(size: str) -> tuple[int, int]:
    match = re.fullmatch(r"(\d+)(?:x(\d+))?", size)
    if not match:
        raise InputError(f"--size must look like WxH, not '{size}'")
    width, height = int(match.group(1)), int(match.group(2) or match.group(1))
    if not (2 <= width <= MAX_SIDE and 2 <= height <= MAX_SIDE):
        raise InputError(f"--size {size} is out of range (2 to {MAX_SIDE} per side)")
    return width, height


def start_share(width: int, height: int, difficulty: str = "normal") -> float:
    """The share of mirrors a generated board starts with: enough that the clues (two
    per row and column) can decide every monster, more on larger boards (a 7x7 starts
    near Tatham's 38%, a 20x20 at 80%); hard puzzles start with fewer, as search is
    needed where many monsters share few clues."""
    share = min(0.85, max(0.35, 1 - 2 * (width + height) / (width * height)))
    return max(0.2, share - 0.15) if difficulty == "hard" else share


#: Proposals drawn before giving up on a graded board (``generating.walked_as``).
PROPOSALS = 80
#: Boards up to this many cells propose each difficulty's grade by propagation first
#: (``generating.PROPOSED``); larger ones mostly boards graded easy (``proposed``).
SMALL_BOARD = 64


def proposed(width: int, height: int) -> Mapping[str, tuple[str, ...]]:
    """The grades by propagation a graded board of this size is proposed at, in turn,
    for each difficulty its walkthrough may read. On larger boards a board graded easy
    by propagation is much the cheapest to make (its grading tries nothing) and its
    walkthrough reads normal or tricky about as often as one graded so: 12 proposals a
    level (bench/NOTES-haunted.md, 2026-12-01) walked normal 3 and tricky 2 times from
    easy ones at 15x15 (0.7 s each to make), 1 and 2 from normal ones (3 s each), 2 and
    0 from tricky ones (14 s each); at 10x10 normal ones still pay, at 7x7 each level's
    own does. Hard puzzles need search, which only boards with fewer mirrors bring."""
    from ...generating import PROPOSED

    cells = width * height
    if cells <= SMALL_BOARD:
        return PROPOSED
    mixed = ("easy", "easy", "easy", "normal") if cells <= 100 else ("easy",)
    return {"easy": ("easy", "normal"), "normal": mixed, "tricky": mixed, "hard": PROPOSED["hard"]}


#: Boards from this many open monster cells on are searched with ``LARGE_BOARD_SETTINGS``.
LARGE_CELLS = 100
#: Boards below this many open monster cells are traced and grounded in milliseconds.
QUICK_CELLS = 300
#: Seconds to trace a board's lines and ground them, per cell of the board: the most
#: measured (28.5 microseconds on a 64x64 with 5% mirrors, 117 ms; 10-26 on 20x20 to
#: 64x64 boards of 5-50% mirrors), rounded up.
GROUNDING_PER_CELL = 30e-6
#: How many times that a time limit must be for the grounding to run where the limit
#: cannot stop it: held on a machine twenty times slower than the one measured.
GROUNDING_MARGIN = 20
#: The two threads' configurations for such boards, in clasp's portfolio format.
LARGE_BOARD_PORTFOLIO = Path(__file__).with_name("large-boards.portfolio")
#: clasp's options for such boards (see ``HauntedStrategy.settings``).
LARGE_BOARD_SETTINGS = (
    "--parallel-mode=2",
    f"--configuration={LARGE_BOARD_PORTFOLIO}",
    "--trans-ext=no",
)


class HauntedStrategy(Strategy[HauntedInstance]):
    """A clue no line can show is found without search; large boards are searched by
    two threads that decide differently."""

    def settings(self) -> tuple[str, ...]:
        """On boards with many monster cells, two competing threads (clasp's ASP preset
        deciding by VMTF, and clasp's plain defaults deciding by VSIDS: the portfolio
        ``LARGE_BOARD_PORTFOLIO``), the sums kept whole: there search times are
        heavy-tailed, and a board long for one thread is often short for the other.
        Against VMTF on the two threads clasp's automatic configuration gives, 24
        half-mirror boards with monsters given take 0.67 s in all instead of 0.80, the
        peers bench's twelve planted 25x25 and 30x30 boards 0.30 s instead of 0.53
        (clasp's default 40 s), and 20 boards of other sizes and seeds 0.67 s instead
        of 1.28. clasp otherwise turns some sums into clauses of its own
        (``--trans-ext``): on a 30x30 half-mirror board 5,500 atoms more, 17,000
        variables instead of 1,300, and three times the time (bench/NOTES-haunted.md).
        Smaller boards answer in milliseconds, less than starting a thread costs."""
        return LARGE_BOARD_SETTINGS if self._open_cells >= LARGE_CELLS else ()

    def grounds_within(self, seconds: float) -> bool:
        """Boards of fewer than ``QUICK_CELLS`` open cells (a 15x15 has about 150):
        their lines are traced and grounded in a few milliseconds. Larger ones when
        the limit is ``GROUNDING_MARGIN`` times what their size takes at most: a 40x40
        board (48 ms at most) from a limit of about one second on."""
        if self._open_cells < QUICK_CELLS:
            return True
        board = self.instance.width * self.instance.height
        return seconds >= GROUNDING_MARGIN * GROUNDING_PER_CELL * board

    @cached_property
    def _open_cells(self) -> int:
        """The monster cells to fill (given monsters not counted)."""
        return sum(row.count(".") for row in self.instance.grid)

    def answer(self, deadline: float, memory: int | None = None) -> Answered | None:
        """The first answer of a board of at most ``search.MOST_CELLS`` monster cells,
        found in Python (see ``answers``)."""
        return self.answers(deadline, 1)

    def answers(self, deadline: float, most: int) -> Answered | None:
        """Up to ``most`` answers of a board of at most ``search.MOST_CELLS`` monster
        cells, found by the search in ``search`` (a Tatham-size board and its proof
        of uniqueness take a fraction of a millisecond, where grounding alone takes
        one); larger boards, and a search past its bound, are clingo's."""
        try:
            found, finished = fillings(self.instance, deadline, most)
        except Undecided:
            return None
        if not found:
            return Answered(None, finished=True)
        first, *others = [self._atoms(filled) for filled in found]
        return Answered(first, finished=finished, others=tuple(others))

    def count(self, deadline: float) -> int | None:
        """The number of answers of a small board (see ``answers``), when the search
        goes through them all within its bound."""
        try:
            return count_fillings(self.instance, deadline)
        except Undecided:
            return None

    @staticmethod
    def _atoms(filled: Filled) -> list[Symbol]:
        return [fact("monster", row + 1, col + 1, KINDS[letter]) for row, col, letter in filled]

    def infeasible(self) -> str | None:
        """A clue that its line cannot show: more than the monster cells it crosses, or
        fewer than the given monsters it sees already."""
        for line, clue in enumerate(self.instance.clues):
            if clue is None:
                continue
            fewest, most = sight_range(self.instance.grid, line)
            place = clue_place(self.instance.width, self.instance.height, line)
            if clue > most:
                crossed = f"its line crosses ({most})"
                return f"the clue {clue} at the {place} asks for more monsters than {crossed}"
            if clue < fewest:
                given = f"the given monsters its line sees ({fewest})"
                return f"the clue {clue} at the {place} asks for fewer monsters than {given}"
        return None


class HauntedGenerator(Generator):
    """Haunted's generator (``aspuzzles generate``)."""

    options: ClassVar[tuple[Option, ...]] = (
        Option("--size", default="6x6", help="WxH (default 6x6)"),
        Option("--seed", type=int, default=None, help="random seed"),
        Option(
            "--difficulty",
            choices=DIFFICULTIES,
            default="normal",
            help="as its walkthrough grades it (aspuzzles grade --difficulty): easy, "
            "normal, tricky or hard; default normal",
        ),
        Option(
            "--givens",
            switch=True,
            help="make the puzzle unique by giving monsters (any size up to 64x64; no grade)",
        ),
        Option(
            "--mirrors",
            type=float,
            default=None,
            help="share of cells holding a mirror at the start (default: from the size; "
            "a graded puzzle gains mirrors where a cell needs more reasoning than asked)",
        ),
        Option(
            "--picture",
            switch=True,
            help="print the board picture (clues around the grid) instead of a game ID",
        ),
        Option(
            "--link",
            switch=True,
            help=f"print the puzzle as a link to Tatham's Undead web page (up to {TATHAM_CELLS} "
            "cells)",
        ),
        Option("--json", switch=True, help="print JSON: the game ID, the picture, and the grade"),
        Option(
            "--sparse",
            switch=True,
            help="(with --picture) leave out every clue that uniqueness does not need",
        ),
    )

    def generate(self, args: argparse.Namespace) -> str:
        width, height = _generated_size(args.size)
        sparse, picture = getattr(args, "sparse", False), getattr(args, "picture", False)
        difficulty = getattr(args, "difficulty", "normal")
        givens = getattr(args, "givens", False)
        mirrors = getattr(args, "mirrors", None)
        share = start_share(width, height, difficulty) if mirrors is None else mirrors
        if not 0.0 <= share < 1.0:
            raise InputError("--mirrors must be a share from 0 up to (not including) 1")
        if sparse and not picture:
            raise InputError("--sparse needs --picture: a game ID has to give every clue")
        if getattr(args, "link", False) and width * height > TATHAM_CELLS:
            most, cells = TATHAM_CELLS, width * height
            raise InputError(f"--link: Tatham's Undead takes at most {most} cells, not {cells}")
        if not givens and max(width, height) > GRADED_MAX_SIDE:
            raise InputError(
                f"--size {args.size}: graded puzzles go up to {GRADED_MAX_SIDE} per side "
                "(--givens makes larger ones)"
            )
        # The generator solves (through generating, the driver): loaded only when asked for.
        import random

        from ...generating import walked_as
        from .generate import generate_graded, generate_unique, without_spare_clues

        rng = random.Random(args.seed)
        if givens:
            instance, _ = generate_unique(self.puzzle, width, height, rng, share)
        else:

            def propose(level: str) -> HauntedInstance | None:
                """A board graded ``level`` by propagation (walked_as decides)."""
                at = start_share(width, height, level) if mirrors is None else mirrors
                try:
                    return generate_graded(self.puzzle, width, height, rng, at, level)[0]
                except InputError:
                    return None

            what, levels = f"{width}x{height} puzzle", proposed(width, height)
            instance = walked_as(self.puzzle, propose, difficulty, what, PROPOSALS, levels)
        if sparse:
            instance = without_spare_clues(self.puzzle, instance, rng)
        return self.puzzle.generated_text(args, instance, None if givens else difficulty)


PUZZLE = Haunted()

__all__ = [
    "PUZZLE",
    "Haunted",
    "HauntedInstance",
    "HauntedSolution",
    "check_board",
    "clue_place",
    "clues_of",
    "encode_game_id",
    "parse_game_id",
    "sight_range",
    "trace",
]
