"""Capture, whole commands: ``aspuzzles solve capture BOARD`` against the plain
breadth-first search (``python tests/oracles/capture_baseline.py BOARD``) on every real
capture grid, each a fresh process, start-up included.

Target: on every grid, ours no slower than the baseline, while keeping what the
baseline cannot do (the minima it does not reach in the limit). The two commands run
in turn on each board; a board both answer within a second runs ``ROUNDS`` times and
each side's median is shown. The machine's load is noted before and after.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

from common import ROOT, SHARED_DATA, installed_command, median, table

#: Seconds either command may take on one board: the goal for the slowest game board,
#: the arboreth (minimum 15), is a minute.
LIMIT = 60.0
#: Runs of each command on a board both answer within ``QUICK`` seconds.
ROUNDS = 9
QUICK = 1.0


def _ours(board: str) -> list[str]:
    """Our command as a user runs it (``installed_command``), with the bench's limit as
    its own, so that a board it does not finish still reports the bounds it proved
    (``_timed`` waits ``GRACE`` longer)."""
    return installed_command("solve", "capture", board, "--stats", "--timeout", f"{LIMIT:g}")


def _baseline(board: str) -> list[str]:
    return [sys.executable, str(ROOT / "tests" / "oracles" / "capture_baseline.py"), board]


#: The exit code of a run cut short by its own time limit.
TIME_LIMIT = 3
#: Seconds past the limit that a command is given to stop by itself and report.
GRACE = 10.0


def _timed(command: list[str], grace: float = 0.0) -> tuple[float | None, str]:
    """(seconds, output) of one run; None seconds when it did not answer in the limit
    (killed ``grace`` seconds after it, or stopped by its own)."""
    started = time.perf_counter()
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=LIMIT + grace, cwd=ROOT
        )
    except subprocess.TimeoutExpired:
        return None, ""
    seconds = time.perf_counter() - started
    return (None if done.returncode == TIME_LIMIT else seconds), done.stdout


def _our_answer(output: str) -> tuple[str, str]:
    """(minimum, who answered) from ``solve --stats`` output."""
    moves = re.search(r"^(\d+) moves? \(the fewest possible\)", output, re.MULTILINE)
    if moves:
        minimum = moves[1]
    elif ": unsatisfiable" in output:
        minimum = "none"
    else:  # cut short: the bounds proved
        bound = re.search(r"none within (\d+) move", output)
        plan = re.search(r"a plan of (\d+) moves? found", output)
        bounds = [] if bound is None else [f">= {int(bound[1]) + 1}"]
        bounds += [] if plan is None else [f"<= {plan[1]}"]
        minimum = ", ".join(bounds) or "-"
    who = "clingo" if re.search(r"^\s+horizon\s", output, re.MULTILINE) else "Python"
    return minimum, who


def _baseline_answer(output: str) -> str:
    words = output.split()
    return "-" if len(words) < 2 else words[1].replace("None", "none")


def compare(board: str) -> list:
    """One board's row: both minima, both medians and their ratio."""
    ours, our_output = _timed(_ours(board), GRACE)
    theirs, their_output = _timed(_baseline(board))
    ours_times = [] if ours is None else [ours]
    theirs_times = [] if theirs is None else [theirs]
    if ours is not None and theirs is not None and max(ours, theirs) < QUICK:
        for _ in range(ROUNDS - 1):
            ours_times.append(_timed(_ours(board), GRACE)[0] or LIMIT)
            theirs_times.append(_timed(_baseline(board))[0] or LIMIT)
    minimum, who = _our_answer(our_output)
    mine = median(ours_times) if ours_times else None
    baseline = median(theirs_times) if theirs_times else None
    return [
        os.path.basename(board).removesuffix(".txt"),
        minimum,
        who,
        _baseline_answer(their_output) if baseline is not None else "-",
        _shown(mine),
        _shown(baseline),
        _ratio(mine, baseline),
    ]


def _shown(value: float | None) -> str:
    if value is None:
        return f"> {LIMIT:g} s"
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"


def _ratio(ours: float | None, theirs: float | None) -> str:
    """ours / theirs: below 1, ours is faster."""
    if ours is None:
        return "-" if theirs is None else "slower"
    if theirs is None:
        return f"< {ours / LIMIT:.2f}"
    return f"{ours / theirs:.2f}"


def run() -> None:
    boards = sorted(str(path) for path in (SHARED_DATA / "capture").glob("*.txt"))
    if not boards:
        print(f"No capture grids in {SHARED_DATA / 'capture'}: nothing to compare.")
        return
    subprocess.run([sys.executable, "-m", "aspuzzles", "--version"], capture_output=True)
    load_before = os.getloadavg()[0]
    rows = [compare(board) for board in boards]
    load_after = os.getloadavg()[0]
    print(
        f"Whole commands, one board at a time, limit {LIMIT:g} s each; medians of {ROUNDS} "
        f"runs where both answer within {QUICK:g} s; load average {load_before:.2f} before, "
        f"{load_after:.2f} after ({os.cpu_count()} cores). ratio: ours / baseline, below 1 "
        "ours is faster; 'by': who answered, the breadth-first search in Python or clingo.\n"
    )
    table(["board", "minimum", "by", "BFS minimum", "aspuzzles", "BFS", "ratio"], rows)
    slower = [row for row in rows if row[-1] == "slower" or _above_one(row[-1])]
    names = ", ".join(row[0] for row in slower) or "-"
    print(f"\nSlower than the baseline on {len(slower)} of {len(rows)}: {names}")
    if slower and all(row[2] == "Python" for row in slower):
        print(START_UP_BOUND)


#: Why a board both commands answer at once can come out a little slower.
START_UP_BOUND = """
Each of these is answered by the breadth-first search in Python, the baseline's own
search on the same package, in a millisecond or two: both commands load the same
modules (clingo included), and ours adds reading its options, checking the answer and
drawing it. Such boards are level within the run-to-run spread of about 2 ms
(bench/NOTES-capture.md, from 2026-11-28 (ef8d397) on)."""


def _above_one(ratio: str) -> bool:
    try:
        return float(ratio) > 1
    except ValueError:
        return False
