"""The speed table of #43 ("Fast at every size"), every row rerun in one run.

Each row times aspuzzles and the tool a user would otherwise pick on the same work, in
turn, in the same minutes: whole commands as fresh processes (round-robin, medians),
in-process work as medians of repeated calls. Peers missing on this machine are named
(CP-SAT and Tatham's C solver: ``make bench-peers``; the seed's Haskell has no
compiler here). The goals and their history: ``bench/NOTES-haunted.md``.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aspuzzles
import peers
import sql_tiles
from aspuzzles.puzzles.haunted.gameid import encode_game_id
from aspuzzles.registry import get_puzzle

from common import ROOT, SHARED_DATA, installed_command, median_time, round_robin, table

#: Round-robin rounds for whole commands, repeats for in-process calls.
ROUNDS = 11
REPEAT = 5
#: Ten real capture boards with minima of 5 to 10 that the baseline answers in seconds.
CAPTURE_BOARDS = (
    "mbat_bat",
    "mwyv_wyvern",
    "mhar_harpy",
    "mgri_griffon",
    "mgsh_mgsh",
    "mctp_catapult",
    "migo_iron_golem",
    "mmed_medusa",
    "mrat_giant_rat",
    "mtro_troll",
)

Row = list[Any]


def run() -> None:
    load = os.getloadavg()[0]
    rows = [
        *_start_up(),
        *_tatham_size(),
        *_large_undead(),
        *_tiles(),
        *_star(),
        *_capture(),
    ]
    print(
        f"Load average {load:.2f} before, {os.getloadavg()[0]:.2f} after "
        f"({os.cpu_count()} cores); ratio ours / theirs, below 1 ours is faster.\n"
    )
    table(["work", "aspuzzles", "peer", "theirs", "ratio"], rows)


# ------------------------------------------------------------------ the rows
def _row(work: str, ours: float, peer: str, theirs: float | None) -> Row:
    ratio = "-" if theirs is None else f"{ours / theirs:.2f}"
    return [work, ours, peer, "-" if theirs is None else theirs, ratio]


def _start_up() -> list[Row]:
    medians = round_robin(
        {
            "ours": installed_command("solve", "haunted", "seed-4x4"),
            "clingo": [sys.executable, "-c", "import clingo"],
        },
        ROUNDS,
    )
    return [
        _row(
            "`aspuzzles solve haunted seed-4x4`, whole command",
            medians["ours"],
            'python -c "import clingo"',
            medians["clingo"],
        )
    ]


def _tatham_size() -> list[Row]:
    boards = peers.tatham_boards()
    if not boards:
        return [["Tatham-size Undead", "../shared/data is missing", "", "", ""]]
    game_ids = [encode_game_id(board) for board in boards]
    aspuzzles.solve("haunted", game_ids[0], unique=True)  # modules loaded, encoding read
    ours = [
        median_time(
            lambda gid=gid: aspuzzles.solve("haunted", gid, unique=True, statistics=False), REPEAT
        )
        for gid in game_ids
    ]
    cpsat = peers.cpsat_times(boards)
    tatham = peers.tatham_times(game_ids, REPEAT)
    commands, theirs = _commands(game_ids)
    count = len(boards)
    title = f"{count} Tatham-size Undead (<= {peers.TATHAM_CELLS} cells), solve + uniqueness"
    built = tatham is not None and theirs is not None
    return [
        _row(
            f"{title} in-process (median)",
            statistics.median(ours),
            "CP-SAT (multi-puzzle-solver)" if cpsat else "CP-SAT: make bench-peers",
            statistics.median(cpsat) if cpsat else None,
        ),
        _row(
            f"{title} in-process (median)",
            statistics.median(ours),
            "Tatham's C solver" if built else "Tatham's C solver: make bench-peers",
            statistics.median(t for t in tatham if t is not None) if tatham else None,
        ),
        _row(
            f"same, one command per puzzle ({count} in all)",
            commands,
            "Tatham's C solver, one command per puzzle"
            if built
            else "Tatham's C solver: make bench-peers",
            theirs,
        ),
    ]


def _commands(game_ids: list[str]) -> tuple[float, float | None]:
    """Every board solved by a whole command, ours and (where built) Tatham's, in turn:
    the summed wall times."""
    ours, theirs = 0.0, 0.0
    for gid in game_ids:
        started = time.perf_counter()
        subprocess.run(installed_command("solve", "haunted", gid, "--unique"), capture_output=True)
        ours += time.perf_counter() - started
        if peers.TATHAM_SOLVER.exists():
            started = time.perf_counter()
            subprocess.run([str(peers.TATHAM_SOLVER), "1", gid], capture_output=True)
            theirs += time.perf_counter() - started
    return ours, theirs if peers.TATHAM_SOLVER.exists() else None


def _large_undead() -> list[Row]:
    rows = []
    for size in (25, 30):
        paths = sorted((ROOT / "bench" / "data").glob(f"undead-{size}x{size}-s*.txt"))
        boards = [aspuzzles.load("haunted", path).parsed for path in paths]
        rows.append(_undead_row(f"{len(boards)} generated Undead {size}x{size}, summed", boards))
    text = aspuzzles.generate("haunted", size="20x20", seed=1)
    board = aspuzzles.load("haunted", text.strip().splitlines()[-1]).parsed
    rows.append(_undead_row("Undead 20x20 (`generate haunted --size 20x20 --seed 1`)", [board]))
    return rows


def _undead_row(work: str, boards: list[Any]) -> Row:
    ours = 0.0
    for board in boards:
        gid = encode_game_id(board)
        ours += median_time(lambda gid=gid: aspuzzles.solve("haunted", gid, unique=True), 3)
    cpsat = peers.cpsat_times(boards, repeat=3)
    peer = "CP-SAT (multi-puzzle-solver)" if cpsat else "CP-SAT: make bench-peers"
    return _row(work, ours, peer, sum(cpsat) if cpsat else None)


def _tiles() -> list[Row]:
    tiles = aspuzzles.load("tiles", "seed-big-cats-3x3").parsed
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "seed-big-cats-3x3.sql"
        script.write_text(sql_tiles.script(tiles.rows, tiles.cols, list(tiles.tiles)))
        medians = round_robin(
            {
                "ours": installed_command("solve", "tiles", "seed-big-cats-3x3"),
                "sqlite3": ["sqlite3", ":memory:", f".read {script}"],
            },
            ROUNDS,
        )
    return [
        _row(
            "seed 3x3 tiles, whole command",
            medians["ours"],
            "the seed's SQL, `sqlite3` command",
            medians["sqlite3"],
        )
    ]


def _star() -> list[Row]:
    star = get_puzzle("geniusstar")
    rng = random.Random(1)
    rolls = [star.describe(star.roll(rng)) for _ in range(21)]
    aspuzzles.solve("geniusstar", rolls[0])
    in_process = statistics.median(
        [
            median_time(lambda roll=roll: aspuzzles.solve("geniusstar", roll, statistics=False), 1)
            for roll in rolls
        ]
    )
    whole = {"ours": installed_command("solve", "geniusstar", rolls[0])}
    command = round_robin(whole, ROUNDS)["ours"]
    missing = "the seed's Haskell: not packaged"
    return [
        _row("one Genius Star roll, `aspuzzles.solve` (median of 21)", in_process, missing, None),
        _row("one Genius Star roll, whole command", command, missing, None),
    ]


def _capture() -> list[Row]:
    folder = SHARED_DATA / "capture"
    if not folder.exists():
        return [["capture boards", "../shared/data is missing", "", "", ""]]
    ours = theirs = 0.0
    for name in CAPTURE_BOARDS:
        board = str(folder / f"{name}.txt")
        medians = round_robin(
            {
                "ours": installed_command("solve", "capture", board),
                "baseline": [sys.executable, "tests/oracles/capture_baseline.py", board],
            },
            3,
        )
        ours += medians["ours"]
        theirs += medians["baseline"]
    return [
        _row(
            f"capture, {len(CAPTURE_BOARDS)} real boards with minima 5-10, whole commands",
            ours,
            "plain breadth-first search (tests/oracles)",
            theirs,
        )
    ]


if __name__ == "__main__":
    run()
