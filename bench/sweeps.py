"""The one-solution sweeps as a user runs them (#70): the time to the first answer in
the results file, the whole command, each process's peak memory, and the processor
time of the command's own process beside its workers'.

Goals on two cores: the first answer within 0.3 s, the square's whole sweep within
1.0 s (the Rust engine of CatchemAL/genius-square: 0.98 s, measured on this machine on
2026-11-29), under 120 MB a process, the command's process under 2% of the workers'
processor time. The command is started as a process on a fresh results file, which is
polled every 2 ms for its first result line (the header comes before any answer);
memory and processor time are read in a process of its own that runs the command as
``aspuzzles`` does and, as it ends, asks ``getrusage`` for its own and its workers'.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import installed_command, table

RUNS = 7
#: Runs the command in-process as ``aspuzzles`` runs it, and as it ends prints its own
#: and its children's peak (in kB) and processor time (in seconds).
MEASURE = """
import atexit, resource, sys
from aspuzzles.entry import command
def report():
    own, children = (resource.getrusage(who) for who in
                     (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    print(own.ru_maxrss, children.ru_maxrss, own.ru_utime + own.ru_stime,
          children.ru_utime + children.ru_stime)
atexit.register(report)
sys.argv = ["aspuzzles", *sys.argv[1:]]
command()
"""


def _first_and_whole(args: list[str], output: Path) -> tuple[float, float]:
    """Seconds to the first result line in ``output`` and to the command's end."""
    output.unlink(missing_ok=True)
    started = time.perf_counter()
    process = subprocess.Popen(
        [*installed_command(*args), "-o", str(output)], stdout=subprocess.DEVNULL
    )
    first = None
    while process.poll() is None:
        if first is None and output.exists() and output.read_bytes().count(b"\n") >= 2:
            first = time.perf_counter() - started
        time.sleep(0.002)
    whole = time.perf_counter() - started
    return (whole if first is None else first), whole


def _measured(args: list[str], output: Path) -> tuple[int, int, float, float]:
    """Peak resident megabytes of the command's process and of its largest worker, and
    the processor seconds of the command's process and of its workers together."""
    output.unlink(missing_ok=True)
    command = [sys.executable, "-c", MEASURE, *args, "-o", str(output)]
    printed = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    own, workers, own_time, workers_time = printed.split()[-4:]
    return int(own) >> 10, int(workers) >> 10, float(own_time), float(workers_time)


def run() -> None:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        output = Path(folder) / "sweep.tsv"
        for puzzle in ("geniussquare", "geniusstar"):
            args = ["sweep", puzzle, "--quiet"]
            timed = [_first_and_whole(args, output) for _ in range(RUNS)]
            measured = [_measured(args, output) for _ in range(3)]
            own, worker = max(m[0] for m in measured), max(m[1] for m in measured)
            share = statistics.median(m[2] / m[3] for m in measured)
            own_time = statistics.median(m[2] for m in measured)
            rows.append(
                [
                    f"aspuzzles sweep {puzzle} --quiet -o F",
                    f"{statistics.median(first for first, _ in timed):.3f} s",
                    f"{statistics.median(whole for _, whole in timed):.3f} s",
                    f"{own} MB / {worker} MB",
                    f"{own_time:.2f} s, {share:.1%} of the workers'",
                ]
            )
    table(
        [
            "median of 7, fresh file",
            "first answer",
            "whole",
            "memory: command / worker",
            "command's processor time (median of 3)",
        ],
        rows,
    )
    print(
        "\nGoals: first answer 0.3 s; the square's whole sweep 1.0 s; 120 MB a process; "
        "the command's process 2% of the workers' time."
    )
