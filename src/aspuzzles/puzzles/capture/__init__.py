"""Puzzle Quest capture boards: clear an 8x8 match-3 board in the fewest swaps.

A move swaps two orthogonally adjacent cells and is legal only if, right after the
swap, a run of 3+ equal tiles passes through one of the two cells (``s`` and ``S``
match). Resolution marks every run on the board at once, flaming skulls (``S``) blow
up their 8 neighbours (recursively), marked tiles vanish, columns fall, and this
repeats until no run is left. Nothing new falls in.

The simulator below is the independent checker: it replays a move list with these
rules and nothing from the encoding. Python also precomputes what ASP would derive
slowly: the cells a tile can ever occupy, the lines of three, and for every swap the
pairs of cells that make the arriving tile part of a run. It finds a first plan fast
(a beam search, not proved shortest), which the driver has clingo complete under
assumptions, so that the search knows an upper bound at once. And it bounds the moves
a board still needs from below (the sideways travel of its tiles, and with a few moves
left the exact answer, found by trying them: `Lookahead`), which the driver has clingo
apply during the search, as a propagator, to cut plans that cannot finish.

One module a concern: ``model`` (boards, moves, plans), ``formats`` (reading boards
and moves), ``rules`` (the simulator and checker), ``geometry`` (facts precomputed for
the encoding), ``bits`` and ``kernel`` (bitboards, and the compiled search on them),
``travel`` and ``lookahead`` (lower bounds applied inside the search), ``plans``
(quick and breadth-first plans) and ``generate`` (planted boards).
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from clingo import Function, Number, Symbol

from ...capabilities import Generator, PlanHints, PlayerMove
from ...errors import InputError
from ...puzzle import Option, Puzzle, atom_parts, json_field
from ...strategy import Answered, Incremental, Planning, StepBound, Strategy, WarmStart
from .formats import format_board, is_move, parse_capture, parse_moves
from .geometry import geometry_facts, phase_bound
from .lookahead import Lookahead
from .model import (
    ATOM_OF_TILE,
    BREADTH_FIRST_SECONDS,
    EMPTY,
    EMPTY_BOARD,
    FLAMING,
    LOOKAHEAD,
    SIZE,
    TILE_NAMES,
    TILE_OF_ATOM,
    TILES,
    Board,
    CaptureInstance,
    CaptureSolution,
    Move,
    MoveEffect,
)
from .plans import (
    BOARD_BYTES,
    MOST_BOARDS,
    answer_atoms,
    move_atoms,
    plan_atoms,
    quick_plan,
    shortest_plan,
)
from .rules import (
    check_moves,
    dead_reason,
    illegal_reason,
    legal_moves,
    mover_name,
    plural,
    replay,
)
from .travel import refutation

#: The longest plan ``generate --exact`` proves minimal (longer proofs take minutes).
EXACT_MOST = 10


class Capture(Puzzle[CaptureInstance, CaptureSolution]):
    name = "capture"
    title = "Puzzle Quest capture (fewest swaps to clear a match-3 board)"
    default_instance = "wight.txt"
    # The encoding's #heuristic searches moves in time order (Domain heuristic). One
    # thread: two threads splitting the search win on some boards but gamble (the liche
    # took 5 to 69 s over five runs), because each thread may cut plans off at its own
    # tick and the timeline grows further than one thread needs. clasp's frumpy preset
    # keeps more of what it learns (its deletion policy: a larger first bound on learned
    # clauses, kept 75% at each reduction): a refutation's clauses name whole boards,
    # and boards recur. Measured 2026-11-24 (3fca41e), the 52 game boards, 30 s each:
    # 42 minima proved against 39 with clasp's default preset, 33 boards faster, 4 slower.
    clingo_options = ("--heuristic=Domain", "--configuration=frumpy")

    def parse(self, text: str, source: str) -> CaptureInstance:
        return parse_capture(text, source)

    def strategy(self, instance: CaptureInstance) -> Strategy[CaptureInstance]:
        return CaptureStrategy(instance)

    def facts(self, instance: CaptureInstance) -> list[Symbol]:
        board = instance.board
        facts = [
            Function("bound", [Number(phase_bound(board))]),
            Function("flames", [Number(board.count(FLAMING))]),
        ]
        for kind in sorted({ATOM_OF_TILE[tile] for tile in board if tile != EMPTY}):
            facts.append(Function("kind", [Function(kind)]))
        for cell, tile in enumerate(board):
            if tile != EMPTY:
                facts.append(Function("tile", [Number(cell), Function(ATOM_OF_TILE[tile])]))
        return facts + geometry_facts(board)

    solve_options: ClassVar[tuple[Option, ...]] = (
        Option(
            "--lookahead",
            type=int,
            default=LOOKAHEAD,
            metavar="N",
            help="capture: once N moves of a plan are made, the simulator decides inside "
            "the search whether the rest of the budget can clear the board (default "
            "%(default)s; 0: clasp and the sideways-travel bound alone)",
        ),
        Option(
            "--breadth-first",
            type=float,
            default=BREADTH_FIRST_SECONDS,
            metavar="SECONDS",
            help="capture: first search the board breadth-first in Python for up to "
            "SECONDS, which answers boards of a few moves at once; clingo searches the "
            "boards it cannot finish (default %(default)s; 0: clingo alone)",
        ),
    )

    def configure(self, instance: CaptureInstance, options: dict[str, Any]) -> CaptureInstance:
        lookahead = options.get("lookahead", instance.lookahead)
        if not isinstance(lookahead, int) or lookahead < 0:
            raise InputError(f"--lookahead must be 0 or more, not {lookahead}")
        seconds = options.get("breadth_first", instance.breadth_first)
        if not isinstance(seconds, int | float) or not 0 <= seconds < math.inf:
            raise InputError(f"--breadth-first must be 0 or more seconds, not {seconds}")
        return instance._replace(lookahead=lookahead, breadth_first=float(seconds))

    def decode(self, instance: CaptureInstance, atoms: Sequence[Symbol]) -> CaptureSolution:
        swaps: dict[int, tuple[int, int]] = {}
        settled: dict[int, list[str]] = {}
        for atom in atoms:
            name, arguments = atom_parts(atom)
            if len(arguments) != 3:
                continue
            if name == "swap":
                tick, first, second = (argument.number for argument in arguments)
                swaps[tick] = (first, second)
            elif name == "settled":
                when, cell, tile = arguments
                cells = settled.setdefault(when.number, [EMPTY] * (SIZE * SIZE))
                cells[cell.number] = TILE_OF_ATOM[tile.name]
        ticks = sorted(swaps)
        # The board after each move is the settled board before the next one; the
        # last move leaves the board empty (the encoding demands it).
        boards = tuple("".join(settled.get(tick - 1, [EMPTY] * SIZE * SIZE)) for tick in ticks[1:])
        boards += (EMPTY_BOARD,)
        moves = []
        for before, tick in zip((instance.board, *boards), ticks, strict=False):
            first, second = swaps[tick]
            moves.append(mover_name(before, divmod(first, SIZE), divmod(second, SIZE)))
        return CaptureSolution(tuple(moves), boards)

    def check(self, instance: CaptureInstance, solution: CaptureSolution) -> list[str]:
        return check_moves(instance.board, solution.moves, solution.boards or None)

    def parse_solution(self, instance: CaptureInstance, text: str, source: str) -> CaptureSolution:
        """Moves as text (``7 1 Up; 6 3 Right``), or the JSON ``--format json`` prints."""
        if text.lstrip().startswith("{"):
            return super().parse_solution(instance, text, source)
        return CaptureSolution(parse_moves(text, source), (), shortest=False)

    def from_dict(self, instance: CaptureInstance, data: Any, source: str) -> CaptureSolution:
        moves = json_field(data, "moves", source)
        if not isinstance(moves, list) or not all(is_move(move) for move in moves):
            raise InputError("'moves' must be a list of [row, col, \"Direction\"]", source)
        text = "\n".join(f"{row} {col} {direction}" for row, col, direction in moves)
        try:  # one move per line, so a line number is a move number
            moves = parse_moves(text, source)
        except InputError as error:
            where = "" if error.line is None else f"move {error.line}: "
            raise InputError(where + error.message, source) from None
        return CaptureSolution(moves, _replayed(instance, moves), shortest=False)

    # -- capabilities ------------------------------------------------------------------
    def plan_hints(self) -> CapturePlanHints:
        return CapturePlanHints(self)

    def unsolved(self, instance: CaptureInstance) -> CaptureSolution:
        """The board as it is, before any move."""
        return CaptureSolution((), (), shortest=False)

    def to_dict(self, instance: CaptureInstance, solution: CaptureSolution) -> dict[str, Any]:
        return {
            "moves": [[move.row, move.col, move.direction] for move in solution.moves],
            "move_count": len(solution.moves),
            "shortest": solution.shortest,
            "boards": [format_board(board) for board in solution.boards],
        }

    def generator(self) -> CaptureGenerator:
        return CaptureGenerator(self)

    def minimum(self, instance: CaptureInstance, unique_plan: bool = False) -> int | None:
        """The proved length of the shortest plan; None if there is none (or, with
        ``unique_plan``, if more than one move list has that length)."""
        from ...generating import judged

        result = judged(self, instance, unique=unique_plan, portfolio=False)
        if result.solution is None or not result.solution.data.shortest:
            return None
        if unique_plan and result.verdict != "unique":
            return None
        return len(result.solution.data.moves)

    def describe(self, instance: CaptureInstance) -> str:
        counts = Counter(tile for tile in instance.board if tile != EMPTY)
        return f"{instance.tiles()} tiles: " + " ".join(
            f"{tile}x{counts[tile]}" for tile in TILES if counts[tile]
        )

    def template_context(
        self, instance: CaptureInstance, solution: CaptureSolution
    ) -> dict[str, Any]:
        outcomes = _effects(instance, solution)
        befores = ([instance.board] + [outcome.board for outcome in outcomes])[: len(outcomes)]
        steps = [
            {
                "number": number,
                "move": move,
                "outcome": outcome,
                "before": format_board(before),
                "swapped": [(move.row, move.col), move.target],
            }
            for number, (move, outcome, before) in enumerate(
                zip(solution.moves, outcomes, befores, strict=True), start=1
            )
        ]
        labels = [solution.first_board] + [f"{step['number']}. {step['move']}" for step in steps]
        boards = [format_board(instance.board)] + [format_board(o.board) for o in outcomes]
        return {
            "steps": steps,
            "count": len(solution.moves),
            "shortest": solution.shortest,
            "strip": text_strip(labels, boards),
            "boards": boards,
            "size": SIZE,
            "first_board": solution.first_board,
            "names": TILE_NAMES,
            "colours": TILE_COLOURS,
        }

    def draw_text(self, context: dict[str, Any]) -> str:
        """The moves, one a line with what each removed, then the boards side by side."""
        lines = []
        if context["steps"]:
            count = context["count"]
            fewest = " (the fewest possible)" if context["shortest"] else ""
            lines.append(f"{count} move{plural(count)}{fewest}")
        for step in context["steps"]:
            outcome = step["outcome"]
            line = f"{str(step['number']) + '.':>3} {step['move']}: {outcome.removed} tiles"
            if outcome.phases:
                line += f" in {outcome.phases} phase{plural(outcome.phases)}"
            if outcome.explosions:
                line += f", {outcome.explosions} explosion{plural(outcome.explosions)}"
            lines.append(line)
        return "".join(f"{line}\n" for line in [*lines, "", *context["strip"]])


def _effects(instance: CaptureInstance, solution: CaptureSolution) -> list[MoveEffect]:
    """What each move did, as the simulator replays it; for a plan the simulator does
    not allow (the answer of an edited encoding, shown with ``--unchecked``), the boards
    the solver gave, with the tiles each move removed and its phases unknown (0)."""
    try:
        return replay(instance.board, solution.moves)
    except ValueError:
        befores = (instance.board, *solution.boards[:-1])
        return [
            MoveEffect(after, _tiles(before) - _tiles(after), 0, 0)
            for before, after in zip(befores, solution.boards, strict=True)
        ]


def _tiles(board: Board) -> int:
    return sum(tile != EMPTY for tile in board)


TILE_COLOURS = {
    "y": "#f2c318",
    "b": "#2f6fd6",
    "g": "#3aa845",
    "r": "#d83a34",
    "p": "#8e44ad",
    "c": "#c9a227",
    "s": "#e8e4d8",
    "S": "#ff7b22",
}


def text_strip(
    labels: Sequence[str], boards: Sequence[Sequence[str]], per_row: int = 5
) -> list[str]:
    """Boards side by side under their labels, ``per_row`` to a row (fits 80 columns)."""
    width = max(SIZE, *(len(label) for label in labels)) + 2
    lines: list[str] = []
    for start in range(0, len(boards), per_row):
        chunk = range(start, min(start + per_row, len(boards)))
        if lines:
            lines.append("")
        lines.append("".join(labels[i].ljust(width) for i in chunk).rstrip())
        for row in range(SIZE):
            lines.append("".join(boards[i][row].ljust(width) for i in chunk).rstrip())
    return lines


class CaptureStrategy(Strategy[CaptureInstance]):
    """A growing budget of moves, bounded from below inside the search (sideways travel,
    the lookahead) and from above by a quick plan found in Python."""

    def infeasible(self) -> str | None:
        return dead_reason(self.instance.board)

    def planning(self) -> CapturePlanning:
        return CapturePlanning(self.instance)

    def warm_start(self) -> CaptureWarmStart:
        return CaptureWarmStart(self.instance)

    def answer(self, deadline: float, memory: int | None = None) -> Answered | None:
        """The breadth-first minimum on bitboards, for ``breadth_first`` seconds at most
        and within ``memory``: the shortest plan (the first one in the order the
        simulator names moves), or the proof that there is none."""
        seconds = self.instance.breadth_first
        if seconds <= 0:
            return None
        most = MOST_BOARDS if memory is None else min(MOST_BOARDS, memory // BOARD_BYTES)
        deadline = min(deadline, time.perf_counter() + seconds)
        searched = shortest_plan(self.instance.board, deadline, most)
        figures = {"breadth_first_boards": searched.boards}
        if searched.plan is None:
            return Answered(None, searched.finished, searched.depth + 1, figures)
        atoms = answer_atoms(self.instance.board, searched.plan)
        return Answered(atoms, True, len(searched.plan), figures)


class CapturePlanning(Planning[CaptureInstance]):
    """Capture's horizon: moves, bounded by what the board's phases allow, with the
    sideways-travel bound (and the lookahead) inside the search."""

    def horizon(self) -> Incremental:
        bound = max(1, phase_bound(self.instance.board))
        return Incremental(
            max_steps=bound, max_ticks=bound, unit="moves", step_atom="swap", splits=True
        )

    def step_bound(self) -> StepBound:
        if self.instance.lookahead == 0:
            refute, statistics = refutation, None
        else:
            lookahead = Lookahead(self.instance.lookahead)
            refute, statistics = lookahead, lookahead.statistics
        return StepBound(
            state=(("board", 3), ("flame", 2)),
            ready="at_rest",
            made="moves",
            refute=refute,
            statistics=statistics,
        )

    def unproved(self, solution: CaptureSolution) -> CaptureSolution:
        return solution._replace(shortest=False)


class CaptureWarmStart(WarmStart[CaptureInstance]):
    """A quick plan found in Python: the search from above starts under its length."""

    def first_answer(self) -> list[Symbol]:
        plan = quick_plan(self.instance.board)
        return [] if plan is None else plan_atoms(self.instance.board, plan)


class CapturePlanHints(PlanHints[CaptureInstance, CaptureSolution]):
    """Capture's plan hints slot: the first move of a shortest plan from the board as
    the player's moves left it."""

    def __init__(self, puzzle: Capture) -> None:
        self.puzzle = puzzle

    def board_after(
        self, instance: CaptureInstance, text: str, source: str
    ) -> CaptureInstance | None:
        """The board after the moves made so far (text or JSON, as ``check`` reads
        them), replayed by the simulator that checks every answer; None once clear."""
        moves = self.puzzle.parse_solution(instance, text, source).moves
        for number, move in enumerate(moves, start=1):
            reason = illegal_reason(instance.board, move)
            if reason is not None:
                raise InputError(f"move {number} ({move}) is illegal: {reason}", source)
            instance = instance._replace(board=replay(instance.board, [move])[-1].board)
        return instance if instance.tiles() else None

    def first_move(
        self, instance: CaptureInstance, solution: CaptureSolution
    ) -> tuple[dict[str, Any], str]:
        move = solution.moves[0]
        return {"row": move.row, "col": move.col, "direction": move.direction}, f"move {move}"

    def opening(self, instance: CaptureInstance, solution: CaptureSolution) -> CaptureSolution:
        return CaptureSolution(
            solution.moves[:1], solution.boards[:1], shortest=False, first_board="now"
        )

    def progress_of(self, solution: CaptureSolution) -> list[str]:
        return [str(move) for move in solution.moves]

    def move_atoms(self, instance: CaptureInstance, solution: CaptureSolution) -> list[Symbol]:
        return move_atoms(instance.board, solution.moves)

    def moves(self, instance: CaptureInstance) -> list[PlayerMove]:
        """Each legal swap from either of its tiles (the board's rows and columns from
        0 are the page's from 1)."""
        offered = []
        for move in legal_moves(instance.board):
            (row, col), (to_row, to_col) = (move.row, move.col), move.target
            first, second = f"{row + 1},{col + 1}", f"{to_row + 1},{to_col + 1}"
            offered += [PlayerMove(first, second, str(move)), PlayerMove(second, first, str(move))]
        return offered


def _replayed(instance: CaptureInstance, moves: Sequence[Move]) -> tuple[Board, ...]:
    """The boards after a person's moves, as the simulator settles them (none where a
    move is illegal: the checker says which)."""
    try:
        return tuple(effect.board for effect in replay(instance.board, moves))
    except ValueError:
        return ()


class CaptureGenerator(Generator):
    """Capture's generator (``aspuzzles generate``)."""

    options: ClassVar[tuple[Option, ...]] = (
        Option("--moves", type=int, default=5, help="moves planted (default 5)"),
        Option("--kinds", default="ygrs", help="tile kinds to use (default ygrs)"),
        Option(
            "--flaming", type=int, default=0, help="skulls turned into flaming skulls (default 0)"
        ),
        Option(
            "--exact",
            switch=True,
            help="draw boards until the shortest plan has exactly --moves moves, proved "
            "by the solver (up to 10 moves)",
        ),
        Option(
            "--unique-plan",
            switch=True,
            help="with --exact: draw until exactly one move list is shortest (rare past 5 moves)",
        ),
        Option("--seed", type=int, default=None, help="random seed"),
    )

    def generate(self, args: argparse.Namespace) -> str:
        exact = getattr(args, "exact", False)
        unique_plan = getattr(args, "unique_plan", False)
        if unique_plan and not exact:
            raise InputError("--unique-plan needs --exact (the minimum is proved first)")
        if exact and args.moves > EXACT_MOST:
            raise InputError(f"--exact proves minima of up to {EXACT_MOST} moves, not {args.moves}")
        if not 1 <= args.moves <= 21:
            raise InputError("--moves must be from 1 to 21 (64 tiles at 3 a move)")
        if args.flaming < 0:
            raise InputError(f"--flaming must be 0 or more, not {args.flaming}")
        kinds = "".join(dict.fromkeys(args.kinds))  # in the order given, once each
        if not kinds or any(kind not in TILES or kind == FLAMING for kind in kinds):
            raise InputError(f"--kinds takes letters from {TILES[:-1]}, not '{args.kinds}'")
        import random  # loaded only where a board is drawn

        from .generate import planted_board, with_flaming_skulls

        rng = random.Random(args.seed)

        def draw(rng: random.Random) -> CaptureInstance:
            board = planted_board(args.moves, kinds, rng)
            return CaptureInstance(with_flaming_skulls(board, args.flaming, rng))

        if exact:
            from ...generating import first_accepted  # solves: loaded only when asked

            def shortest_is_planted(instance: CaptureInstance) -> bool:
                return self.puzzle.minimum(instance, unique_plan) == args.moves

            wanted = "exact, unique-plan" if unique_plan else "exact"
            instance = first_accepted(self.puzzle, draw, shortest_is_planted, rng, 50, wanted)
            only = ", the only one of that length" if unique_plan else ""
            note = (
                f"# its shortest plan has exactly {args.moves} moves{only}, proved by the solver\n"
            )
        else:
            instance = draw(rng)
            note = f"# planted with {args.moves} moves (a shorter plan may exist: see --exact)\n"
        flags = f"--flaming {args.flaming} " + ("--exact " if exact else "")
        flags += "--unique-plan " if unique_plan else ""
        header = (
            f"# aspuzzles generate capture --moves {args.moves} --kinds {kinds} "
            f"{flags}--seed {args.seed}\n" + note
        )
        return header + "\n".join(format_board(instance.board)) + "\n"


PUZZLE = Capture()
