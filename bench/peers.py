"""aspuzzles beside the tools a user would otherwise pick, on the same boards, in one run.

Goals (#43, #54): solve plus uniqueness of a Tatham-size Undead (<= 54 cells) under 1 ms
median through ``aspuzzles.solve``, at or under CP-SAT; the seed 3x3 tiles in 5 ms; one
Genius Star roll in 10 ms without a session; 25x25 and 30x30 Undead no slower than
CP-SAT. The peers: CP-SAT's
Undead (PyPI's ``multi-puzzle-solver``, in ``.venv-peers``: ``make bench-peers``),
Tatham's own C solver (undead.c's Solve, timed in-process by ``bench/tatham``, built by
``make bench-peers``), the seed's SQL in sqlite3 (``sql_tiles``). Every figure is a
median; ours and theirs run in the same minutes, with the machine's load noted.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import aspuzzles
import sql_tiles
from aspuzzles.puzzles.haunted import search
from aspuzzles.puzzles.haunted.gameid import encode_game_id
from aspuzzles.puzzles.haunted.generate import clued, random_board
from aspuzzles.registry import get_puzzle

from common import ROOT, SHARED_DATA, installed_command, median_time, round_robin, table

PEERS_PYTHON = ROOT / ".venv-peers" / "bin" / "python"
TATHAM_SOLVER = ROOT / ".venv-peers" / "undead-solve"
#: Tatham's solver gives up on a board after this long (it turns exhaustive past 10x10).
TATHAM_LIMIT = 60.0
#: Boards timed as whole commands (ours and Tatham's, one process per puzzle).
COMMAND_BOARDS = 9
TATHAM_CELLS = 54
REPEAT = 5
#: Planted boards for the large sizes: mirror shares, seeds.
DENSE_SHARES = (0.3, 0.5)
DENSE_SEEDS = (1, 2, 3)
#: Runs per large board, each solver: two racing threads vary from run to run
#: (the 20x20 s3 28-47 ms over 31 runs), so a median of three moves by several ms.
DENSE_REPEAT = 9


def run() -> None:
    print(f"Load average before: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores).\n")
    _small_undead()
    _tatham_commands()
    _tatham_larger()
    _small_others()
    _large_undead()
    _dense_mirrors()
    print(f"\nLoad average after: {os.getloadavg()[0]:.2f}.")


# ------------------------------------------------------------------ small boards
def tatham_boards() -> list[Any]:
    """Tatham's own Undead boards of at most ``TATHAM_CELLS`` cells (none without the
    shared data)."""
    path = SHARED_DATA / "haunted" / "tatham-graded.tsv"
    if not path.exists():
        return []
    lines = [line for line in path.read_text().splitlines() if not line.startswith("#")]
    ids = [line.split("\t")[-1].strip() for line in lines]
    boards = [aspuzzles.load("haunted", gid).parsed for gid in ids if ":" in gid]
    return [board for board in boards if board.width * board.height <= TATHAM_CELLS]


def _small_undead() -> None:
    boards = tatham_boards()
    if not boards:
        print("Tatham-size Undead: ../shared/data/haunted/tatham-graded.tsv is missing.\n")
        return
    game_ids = [encode_game_id(board) for board in boards]
    for gid in game_ids[:3]:  # warm: the encoding read, the modules loaded
        aspuzzles.solve("haunted", gid, unique=True)
    ours = _tatham_size_times(game_ids)
    label = "aspuzzles.solve(unique=True, statistics=False)"
    rows = [[label, statistics.median(ours), "1 ms", _met(ours, 0.001)]]
    kept = search.MOST_CELLS
    search.MOST_CELLS = -1  # every board to clingo: what the search in Python saves
    try:
        by_clingo = _tatham_size_times(game_ids)
    finally:
        search.MOST_CELLS = kept
    rows.append(["the same, clingo alone (the search in Python off)", statistics.median(by_clingo)])
    rows[-1] += ["", ""]
    peers: dict[str, list[float | None] | None] = {
        "CP-SAT (multi-puzzle-solver)": cpsat_times(boards),
        "Tatham's C solver (undead.c, in-process)": tatham_times(game_ids, REPEAT),
    }
    for name, answered in peers.items():
        if answered is None:
            rows.append([name, "not installed: make bench-peers", "", ""])
            continue
        theirs = [took for took in answered if took is not None]
        ratio = statistics.median(ours) / statistics.median(theirs)
        rows.append([name, statistics.median(theirs), "", ""])
        rows.append([f"ratio ours / {name.split(' (')[0]}", f"{ratio:.1f}x", "", ""])
    print(
        f"Tatham-size Undead, {len(boards)} of his boards (<= {TATHAM_CELLS} cells), solve "
        f"plus uniqueness in-process, median over the boards of each board's median of {REPEAT}:\n"
    )
    table(["solver", "median", "goal", ""], rows)


def _tatham_size_times(game_ids: list[str]) -> list[float]:
    """Each board's median time through ``aspuzzles.solve`` in this process, its
    uniqueness decided: what a batch, a generator or the web board pays a board."""
    return [
        median_time(
            lambda gid=gid: aspuzzles.solve("haunted", gid, unique=True, statistics=False), REPEAT
        )
        for gid in game_ids
    ]


def tatham_times(
    game_ids: list[str], repeat: int, limit: float = TATHAM_LIMIT
) -> list[float | None] | None:
    """Tatham's solver's best of ``repeat`` times per board, in-process (None for a board
    it did not solve within ``limit`` seconds); None where it is not built."""
    if not TATHAM_SOLVER.exists():
        return None
    times: list[float | None] = []
    for gid in game_ids:
        try:
            done = subprocess.run(
                [str(TATHAM_SOLVER), str(repeat), gid],
                capture_output=True,
                text=True,
                timeout=limit * repeat,
                check=True,
            )
        except subprocess.TimeoutExpired:
            times.append(None)
            continue
        took, verdict = done.stdout.strip().split("\t", 1)
        times.append(float(took) if verdict == "solved" else None)
    return times


def _tatham_commands() -> None:
    """Whole commands, one process per puzzle: what a player waits for."""
    if not TATHAM_SOLVER.exists():
        return
    boards = tatham_boards()[:COMMAND_BOARDS]
    commands: dict[str, list[str]] = {}
    for number, board in enumerate(boards):
        gid = encode_game_id(board)
        commands[f"ours {number}"] = installed_command("solve", "haunted", gid, "--unique")
        commands[f"tatham {number}"] = [str(TATHAM_SOLVER), "1", gid]
    medians = round_robin(commands, 5)
    ours = statistics.median(medians[f"ours {n}"] for n in range(len(boards)))
    theirs = statistics.median(medians[f"tatham {n}"] for n in range(len(boards)))
    print(
        f"\nWhole commands, {len(boards)} of Tatham's boards, one process per puzzle "
        "(median over the boards of each board's median of 5, run round-robin):\n"
    )
    table(
        ["command", "median", "ratio"],
        [
            ["aspuzzles solve haunted ID --unique", ours, f"{ours / theirs:.1f}x"],
            ["undead-solve 1 ID (Tatham's solver, C)", theirs, "1.0x"],
        ],
    )


def _tatham_larger() -> None:
    """Past Tatham's sizes his solver turns to exhaustive search; ours does not."""
    if not TATHAM_SOLVER.exists():
        return
    paths = sorted(
        (ROOT / "instances" / "haunted").glob("gen-*x*-s*.txt"),
        key=lambda path: aspuzzles.load("haunted", path).parsed.width,
    )
    boards = [(path.stem, aspuzzles.load("haunted", path).parsed) for path in paths]
    boards = [(name, board) for name, board in boards if board.width * board.height >= 64]
    game_ids = [encode_game_id(board) for _, board in boards]
    theirs = tatham_times(game_ids, 1)
    assert theirs is not None
    rows = []
    for (name, board), gid, their in zip(boards, game_ids, theirs, strict=True):
        ours = median_time(lambda gid=gid: aspuzzles.solve("haunted", gid, unique=True), 3)
        peer = f"> {TATHAM_LIMIT:g} s" if their is None else their
        ratio = "-" if their is None else f"{ours / their:.3g}x"
        rows.append([name, f"{board.width}x{board.height}", ours, peer, ratio])
    print(
        "\nLarger generated boards (instances/haunted), solve plus uniqueness in-process; "
        f"Tatham's solver best of 1, stopped after {TATHAM_LIMIT:g} s:\n"
    )
    table(["board", "size", "aspuzzles", "Tatham (C)", "ratio"], rows)


#: 3x3 animal boards counted against the seed's SQL (which returns every placement).
TILES_COUNTED = ("seed-big-cats-3x3", "gen-animal-3x3-2-kinds", "unsolvable-animal-3x3")


def _tiles_count_row(name: str) -> list[Any]:
    """Every placement of a 3x3 board counted (``count=True``, every board rotation
    kept), beside the seed's query returning every row. The SQL counts each turn of a
    tile whose turns look alike as a placement of its own, aspuzzles each picture once,
    so the two counts differ where such tiles are (both are shown)."""
    tiles = aspuzzles.load("tiles", name).parsed
    raw = {"raw": True}
    counted = aspuzzles.solve("tiles", name, count=True, options=raw).count
    ours = median_time(
        lambda: aspuzzles.solve("tiles", name, count=True, options=raw, statistics=False), 21
    )
    rows = sql_tiles.solutions(tiles.rows, tiles.cols, list(tiles.tiles))
    sql = median_time(lambda: sql_tiles.solutions(tiles.rows, tiles.cols, list(tiles.tiles)), 21)
    return [
        f"{name}, counted ({counted}; SQL rows {len(rows)})",
        ours,
        f"seed's SQL in sqlite3: {sql * 1000:.1f} ms",
        f"{ours / sql:.2f}x",
        f"at or under: {'met' if ours <= sql else 'missed'}",
    ]


def _small_others() -> None:
    tiles = aspuzzles.load("tiles", "seed-big-cats-3x3").parsed
    aspuzzles.solve("tiles", "seed-big-cats-3x3")
    ours_tiles = median_time(
        lambda: aspuzzles.solve("tiles", "seed-big-cats-3x3", statistics=False), 21
    )
    sql = median_time(lambda: sql_tiles.solutions(tiles.rows, tiles.cols, list(tiles.tiles)), 21)
    counting_rows = [_tiles_count_row(name) for name in TILES_COUNTED]
    star = get_puzzle("geniusstar")
    rng = random.Random(1)
    rolls = [star.describe(star.roll(rng)) for _ in range(21)]
    aspuzzles.solve("geniusstar", rolls[0])
    star_times = [
        median_time(lambda roll=roll: aspuzzles.solve("geniusstar", roll, statistics=False), 1)
        for roll in rolls
    ]
    print("\nOther small boards in-process (statistics=False), medians of 21:\n")
    table(
        ["work", "aspuzzles", "peer", "ratio", "goal"],
        [
            [
                "seed 3x3 tiles, solved",
                ours_tiles,
                f"seed's SQL in sqlite3: {sql * 1000:.1f} ms",
                f"{ours_tiles / sql:.1f}x",
                f"5 ms: {_met([ours_tiles], 0.005)}",
            ],
            *counting_rows,
            [
                "one Genius Star roll, solved on its own",
                statistics.median(star_times),
                "-",
                "",
                f"10 ms: {_met(star_times, 0.010)}",
            ],
        ],
    )
    _time_limit_cost()


def _time_limit_cost() -> None:
    """What ``timeout=`` adds to a small solve: nothing where the puzzle says its
    grounding is quick (the limit is held in-process), a forked worker otherwise (an
    edited encoding: here the shipped file with a comment added)."""
    board = tatham_boards()[:1] or [aspuzzles.load("haunted", "gen-5x5-s3").parsed]
    gid = encode_game_id(board[0])
    with tempfile.TemporaryDirectory() as folder:
        edited = Path(folder) / "haunted.lp"
        edited.write_text((ROOT / "encodings" / "haunted.lp").read_text() + "% edited\n")
        calls = {
            "no limit": {},
            "timeout=10": {"timeout": 10},
            "timeout=10, edited encoding": {"timeout": 10, "encoding": edited},
            "no limit, edited encoding": {"encoding": edited},
        }
        times = {}
        for name, extra in calls.items():
            aspuzzles.solve("haunted", gid, unique=True, **extra)  # type: ignore[arg-type]
            times[name] = median_time(
                lambda extra=extra: aspuzzles.solve(  # type: ignore[misc]
                    "haunted", gid, unique=True, statistics=False, **extra
                ),
                21,
            )
    print(
        f"\nA time limit in the Python API, {board[0].width}x{board[0].height} Haunted, "
        "medians of 21:\n"
    )
    table(
        ["call", "median", "added"],
        [
            [name, took, f"{(took - times['no limit']) * 1000:+.1f} ms"]
            for name, took in times.items()
        ],
    )


# ------------------------------------------------------------------ large boards
def _large_undead() -> None:
    graded = sorted((ROOT / "bench" / "data").glob("undead-*x*-s*.txt"))
    boards = [(path.stem, aspuzzles.load("haunted", path).parsed) for path in graded]
    for size in (25, 30):
        for share in DENSE_SHARES:
            for seed in DENSE_SEEDS:
                grid = random_board(size, size, random.Random(seed), share)
                boards.append((f"planted-{size}x{size}-mirrors-{share:g}-s{seed}", clued(grid)))
    ours = []
    for _, board in boards:
        gid = encode_game_id(board)
        result = aspuzzles.solve("haunted", gid, unique=True, timeout=60)
        ours.append(
            (
                median_time(
                    lambda gid=gid: aspuzzles.solve("haunted", gid, unique=True, timeout=60),
                    DENSE_REPEAT,
                ),
                result.verdict,
            )
        )
    theirs = cpsat_times([board for _, board in boards], repeat=DENSE_REPEAT)
    print(
        f"\nLarge Undead, solve plus uniqueness in-process, median of {DENSE_REPEAT} each "
        "(ours with `timeout=60`). Boards made by "
        "`aspuzzles generate haunted` (bench/data, unique) and planted boards with every "
        "clue and no monster given (not unique: both stop at a second solution). "
        "aspuzzles searches boards of 100 or more open monster cells with two competing "
        "threads (VMTF on clasp's ASP preset, VSIDS on its plain defaults), sums kept "
        "whole; CP-SAT enumerates with one worker, as the library runs it:\n"
    )
    rows = []
    for (name, board), (time_ours, verdict), their in zip(
        boards, ours, theirs or [None] * len(boards), strict=True
    ):
        open_cells = sum(row.count(".") for row in board.grid)
        peer = "-" if their is None else their
        ratio = "-" if their is None else f"{time_ours / their:.2f}x"
        rows.append([name, open_cells, verdict, time_ours, peer, ratio])
    table(["board", "monster cells", "verdict", "aspuzzles", "CP-SAT", "ratio"], rows)
    if theirs:
        worse = sum(o[0] > t for o, t in zip(ours, theirs, strict=True))
        print(f"\naspuzzles slower than CP-SAT on {worse} of {len(boards)} boards.")


def _dense_mirrors() -> None:
    """Boards half mirrors, with the monsters the generator gives (``generate haunted
    --givens --mirrors 0.5``, kept in bench/data): at every size, and how each solver's
    time grows from the smallest size to the largest."""
    paths = sorted(
        (ROOT / "bench" / "data").glob("undead-mirrors-*x*-s*.txt"),
        key=lambda path: (int(path.stem.split("-")[2].split("x")[0]), path.stem),
    )
    if not paths:
        return
    boards = [(path.stem, aspuzzles.load("haunted", path).parsed) for path in paths]
    theirs = cpsat_times([board for _, board in boards], repeat=DENSE_REPEAT)
    rows, by_size = [], {}
    for index, (name, board) in enumerate(boards):
        gid = encode_game_id(board)
        result = aspuzzles.solve("haunted", gid, unique=True, timeout=60)
        ours = median_time(
            lambda gid=gid: aspuzzles.solve("haunted", gid, unique=True), DENSE_REPEAT
        )
        their = None if theirs is None else theirs[index]
        by_size.setdefault(board.width, []).append((ours, their))
        stats = result.stats
        rows.append(
            [
                name,
                result.verdict,
                ours,
                "-" if their is None else their,
                "-" if their is None else f"{ours / their:.2f}x",
                f"{stats.get('ground_time', 0) * 1000:.0f} ms",
                "-" if "atoms" not in stats else f"{stats['atoms']:,} / {stats['rules']:,}",
                f"{stats.get('solve_time', 0) * 1000:.0f} ms",
                stats.get("choices", "-"),
                stats.get("conflicts", "-"),
            ]
        )
    print(
        "\nUndead half mirrors, monsters given (`generate haunted --givens --mirrors 0.5`, "
        f"bench/data), solve plus uniqueness in-process, median of {DENSE_REPEAT}; CP-SAT with the "
        "given monsters fixed; clingo's figures (the ground program's size, clasp's choices "
        "and conflicts) from one more run:\n"
    )
    headers = ["board", "verdict", "aspuzzles", "CP-SAT", "ratio", "grounding"]
    table([*headers, "atoms / rules", "solving", "choices", "conflicts"], rows)
    sizes = sorted(by_size)
    if theirs is not None and len(sizes) > 1:
        first, last = by_size[sizes[0]], by_size[sizes[-1]]
        ours_growth = statistics.median(o for o, _ in last) / statistics.median(o for o, _ in first)
        their_growth = statistics.median(t for _, t in last if t) / statistics.median(
            t for _, t in first if t
        )
        worse = sum(o > t for pairs in by_size.values() for o, t in pairs if t is not None)
        print(
            f"\nFrom {sizes[0]}x{sizes[0]} to {sizes[-1]}x{sizes[-1]} (medians): ours grows "
            f"{ours_growth:.1f}x, CP-SAT {their_growth:.1f}x; ours slower on {worse} of "
            f"{len(boards)} boards."
        )
        if worse:
            print(SLOWER_BOARDS)


#: Where the time of a half-mirror board slower than CP-SAT goes, and what was tried.
SLOWER_BOARDS = """
Where a board is slower, most of clasp's conflicts above (about four in five) prove
the answer unique: that none of the zombies no line sees directly could be a ghost, a
count over the totals that CP-SAT's LP relaxation settles at every node and clasp
settles by search. Tried and measured (bench/NOTES-haunted.md, the 2026-11-28 sections
5058069, 18a70f4, 463c77f and ca888ee): redundant sums (clues on the kinds, opposite
clues summed, all clues summed, zombie parity, the middle count), failed-literal
probing, lookahead, clasp's heuristics, signs, restarts, presets, clause sharing and
preprocessing, three and four threads, symmetry breaking, an LP propagator
(clingo-lpx: 81 conflicts, 116-200 ms), HiGHS as presolver or fixer, an LP uniqueness
test after the first answer."""


def cpsat_times(boards: list[Any], repeat: int = REPEAT) -> list[float] | None:
    """CP-SAT's median time per board, from the peers' environment; None without it."""
    if not PEERS_PYTHON.exists():
        return None
    specs = [
        {"grid": list(board.grid), "clues": list(board.clues), "totals": dict(board.totals)}
        for board in boards
    ]
    script = ROOT / "bench" / "cpsat_undead.py"
    done = subprocess.run(
        [str(PEERS_PYTHON), str(script), str(repeat)],
        input=json.dumps(specs),
        capture_output=True,
        text=True,
        check=True,
    )
    return [entry["median"] for entry in json.loads(done.stdout)]


def _met(times: list[float], goal: float) -> str:
    middle = statistics.median(times)
    return "met" if middle <= goal else f"missed ({middle / goal:.1f}x the goal)"
