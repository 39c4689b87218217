"""Capture with and without numba (the optional extra ``aspuzzles[fast]``): the game
boards whose lookahead runs long enough to hand its last moves to the compiled search,
each solved by a fresh command, once as installed and once with the compiled search
unavailable (as in a plain ``pip install``, where the search stays in Python).
"""

from __future__ import annotations

import subprocess
import sys
import time

from common import ROOT, SHARED_DATA, table

#: Boards that go past the breadth-first search to clingo and its lookahead.
BOARDS = ("mcen_centaur", "mdrg_green_dragon", "mmik_mmik", "mfgi_frost_giant")
LIMIT = 120.0

#: The command, with the compiled search taken away when asked: what a plain install
#: without numba runs.
PROGRAM = """
import sys
if sys.argv[1] == "without":
    import aspuzzles.puzzles.capture.lookahead as lookahead
    lookahead._kernel = lambda: None
from aspuzzles.cli import main
raise SystemExit(main(["solve", "capture", sys.argv[2], "--stats", "--timeout", sys.argv[3]]))
"""


def _solve(mode: str, board: str) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, mode, board, f"{LIMIT:g}"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    seconds = time.perf_counter() - started
    compiled = next(
        (line.split()[-1] for line in done.stdout.splitlines() if "lookahead_compiled" in line),
        "-",
    )
    return seconds, compiled


def run() -> None:
    rows = []
    for name in BOARDS:
        board = SHARED_DATA / "capture" / f"{name}.txt"
        if not board.exists():
            print(f"(skipped {name}: {board} is not here)")
            continue
        with_numba, compiled = _solve("with", str(board))
        without, _ = _solve("without", str(board))
        rows.append([name, compiled, f"{with_numba:.2f} s", f"{without:.2f} s"])
    table(["board", "compiled used", "with numba", "without numba"], rows)


if __name__ == "__main__":
    run()
