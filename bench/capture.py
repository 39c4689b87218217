"""Capture: shortest move lists against a breadth-first search, and what each lever bought.

Targets: the wight's 6-move minimum proved in under 2 s in-process; every board whose
minimum is at most 10 moves proved in under 30 s; the ratio against a plain Python
breadth-first search over board states (``capture_baseline.py``) on the same boards.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from tests.oracles import capture_baseline

from aspuzzles import load_instance, solve
from aspuzzles.driver.jobs import BOTH, DEFAULT_PLAN_SEARCH
from aspuzzles.puzzles.capture.model import LOOKAHEAD
from aspuzzles.registry import get_puzzle

from common import ROOT, SHARED_DATA, best_of, limited, ratio, seconds, table

LIMIT = 30.0
ENCODING = ROOT / "encodings" / "capture.lp"
PER_MOVE = ROOT / "bench" / "encodings" / "capture_per_move.lp"
ALL_TICKS = ROOT / "bench" / "encodings" / "capture_all_ticks.lp"
#: The rows before the preset lever run clasp's own default preset (``auto``) instead of
#: the puzzle's tuned ``frumpy``.
AUTO = ["--configuration=auto"]
ONE_THREAD = AUTO
TWO_THREADS = ["--parallel-mode=2,split"]
VSIDS = ["--heuristic=Vsids", *AUTO]
MIRROR = ":- symmetric, swap(1,A,B), mirror(A,B,A2,B2), (A2,B2) < (A,B).\n"
LONELY = [
    ":- query(t), moves(T,t), lonely(T,_).\n",
    ":- query(t), moves(T,t-1), #count{ X : lonely_class(T,X) } > 2.\n",
    ":- query(t), moves(T,t-1), lonely_col(T,C1), lonely_col(T,C2), C2 > C1 + 5.\n",
]


#: The moves after which the lookahead takes over by default, and the option that
#: switches it off. The levers are clingo's: every row but the last leaves the board
#: to clingo (no breadth-first search in Python first, ``CLINGO_ONLY``).
AFTER = LOOKAHEAD
CLINGO_ONLY = {"breadth_first": 0}
NO_LOOKAHEAD = {**CLINGO_ONLY, "lookahead": 0}

#: The shipped encoding's trigger of the sideways-travel bound: without it, the
#: propagator finds no tick to bound and the search runs on the encoding alone.
AT_REST = "at_rest(k) :- filled(k), not unsettled(k).\n"


def without(*lines: str, base: Path = ALL_TICKS) -> Callable[[], Path]:
    """An encoding (the all-ticks one unless told) minus some lines (a lever switched
    off), as a file."""

    def write() -> Path:
        text = base.read_text()
        for line in lines:
            assert line in text, f"bench: the encoding no longer has {line!r}"
            text = text.replace(line, "")
        with tempfile.NamedTemporaryFile("w", suffix=".lp", delete=False) as handle:
            handle.write(text)
        return Path(handle.name)

    return write


def timed(
    board: str | Path,
    encoding: Path | None = None,
    args=(),
    search: str = DEFAULT_PLAN_SEARCH,
    options: dict | None = None,
) -> tuple[float | None, int | str]:
    """(seconds, minimum) of one solve. The minimum is the move count, 'none' (proved
    unsolvable) or, at the time limit (``None`` seconds), '>= N' with N the budget being
    searched (every smaller budget was refuted, a proved lower bound), and '<= P' when a
    plan of P moves was found from above."""
    seconds_taken, result = best_of(
        1,
        lambda: solve(
            "capture",
            board,
            timeout=LIMIT,
            encoding=encoding,
            clingo_args=list(args),
            plan_search=search,
            options=options,
        ),
    )
    if result.status == "timeout":
        bounds = f">= {result.stats.get('horizon', 1)}"
        if result.solution is not None:
            bounds += f", <= {len(result.solution.data.moves)}"
        return None, bounds
    if result.status == "solved":
        return seconds_taken, len(result.solution.data.moves)
    return seconds_taken, "none"


def levers() -> None:
    """The wight under each lever added in turn (all single-threaded but the last)."""
    unbounded = without(AT_REST, base=ENCODING)
    steps = [
        ("moves x phases (M-t+1 per move), VSIDS", lambda: PER_MOVE, VSIDS),
        ("one tick timeline (M phases in all), VSIDS", without(MIRROR, *LONELY), VSIDS),
        ("+ moves searched in time order (Domain)", without(MIRROR, *LONELY), ONE_THREAD),
        ("+ mirror symmetry of the first move", without(*LONELY), ONE_THREAD),
        ("+ lonely-tile bounds for the last move", lambda: ALL_TICKS, ONE_THREAD),
        ("+ ticks grounded only as far as plans reach", unbounded, ONE_THREAD),
        ("+ clasp's frumpy preset (the tuned options)", unbounded, []),
        ("+ sideways-travel bound (a propagator)", lambda: ENCODING, [], NO_LOOKAHEAD),
        (f"+ the simulator after {AFTER} move (lookahead, compiled)", lambda: ENCODING, []),
        ("+ two threads splitting the search (2,split)", lambda: ENCODING, TWO_THREADS),
    ]
    rows = []
    for label, encoding, args, *options in steps:
        took, minimum = timed("wight", encoding(), args, "ascending", *(options or [CLINGO_ONLY]))
        rows.append([label, minimum, seconds(took, LIMIT)])
    took, minimum = timed("wight", search=BOTH, options=CLINGO_ONLY)
    label = "lazy ticks, plans shortened from above in a second process (both)"
    rows.append([label, minimum, seconds(took, LIMIT)])
    took, minimum = timed("wight", options=CLINGO_ONLY)
    label = "lazy ticks, two processes climbing, each over half the first moves (split)"
    rows.append([label, minimum, seconds(took, LIMIT)])
    took, minimum = timed("wight")
    label = "+ breadth-first search in Python first, 1.5 s at most (default)"
    rows.append([label, minimum, seconds(took, LIMIT)])
    print("The wight's minimum, lever by lever (grounding included; every row but the last")
    print("three searches budgets 1, 2, ... alone; the next two run two processes, both")
    print("bounded from above by the quick plan; the last is the default):\n")
    table(["encoding and search", "moves", "time"], rows)


#: Boards on which the lookahead's start is compared (the slowest at 2026-11-26 (82a505a)).
TAKEOVER_BOARDS = (
    "mgwa_giant_wasp",
    "mgob_goblin",
    "mdrr_red_dragon",
    "mdoo_doom_knight",
    "mmik_mmik",
)


def lookahead_takeovers() -> None:
    """The default search on the boards that were slowest, by the number of moves
    after which the simulator takes over (0: never)."""
    afters = (0, 3, 2, AFTER)
    rows = []
    for name in TAKEOVER_BOARDS:
        path = SHARED_DATA / "capture" / f"{name}.txt"
        if not path.exists():
            continue
        row: list = [name]
        for after in afters:
            took, minimum = timed(path, options={**CLINGO_ONLY, "lookahead": after})
            row.append(f"{minimum} in {seconds(took, LIMIT)}")
        rows.append(row)
    if rows:
        print("\nThe default search by the moves after which the simulator takes over:\n")
        table(["board", *(f"--lookahead {after}" for after in afters)], rows)


def boards() -> list[Path]:
    shipped = sorted((ROOT / "instances" / "capture").glob("*.txt"))
    real = sorted((SHARED_DATA / "capture").glob("*.txt"))
    return shipped + real


def run() -> None:
    alone, _ = best_of(
        3, lambda: solve("capture", "wight", plan_search="ascending", options=CLINGO_ONLY)
    )
    default, _ = best_of(3, lambda: solve("capture", "wight"))
    start = load_instance(get_puzzle("capture"), "wight")[0].board
    bfs_time, bfs = best_of(1, lambda: capture_baseline.shortest(start))
    print(
        f"Wight: 6-move minimum proved in {alone:.2f} s by clingo in this process "
        f"(ascending budgets; best of 3, parsing and checking included), {default:.2f} s "
        f"by default (the breadth-first search in Python first); the baseline's breadth-first "
        f"search {bfs_time:.2f} s ({len(bfs)} moves).\n"
    )
    levers()
    lookahead_takeovers()
    rows = []
    for path in boards():
        instance = load_instance(get_puzzle("capture"), path)[0]
        asp, minimum = timed(path)
        python, found = limited(LIMIT, lambda b=instance.board: capture_baseline.shortest(b))
        origin = "game" if path.is_relative_to(SHARED_DATA) else "shipped"
        rows.append(
            [
                path.stem,
                origin,
                instance.tiles(),
                minimum,
                seconds(asp, LIMIT),
                "-" if python is None else (len(found) if found is not None else "none"),
                seconds(python, LIMIT),
                ratio(python, asp, LIMIT),
            ]
        )
    print(
        f"\nEvery board (limit {LIMIT:g} s each side; 'none': proved unsolvable; '>= N': "
        "every budget below N refuted in the limit):\n"
    )
    table(
        ["board", "from", "tiles", "minimum", "aspuzzles", "BFS minimum", "BFS", "speed-up"],
        rows,
    )
