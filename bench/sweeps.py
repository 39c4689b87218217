"""The one-solution sweeps as a user runs them (#70): the time to the first answer in
the results file, the whole command, and each process's peak memory.

Goals on two cores: the first answer within 0.3 s, the square's whole sweep within
1.0 s (the Rust engine of CatchemAL/genius-square: 0.98 s, measured on this machine on
2026-11-29), under 120 MB a process. The command is started as a process on a fresh
results file, which is polled every 2 ms for its first result line (the header comes
before any answer); memory is read in a process of its own that runs the command's
``main`` and then asks ``getrusage`` for its own peak and its workers'.
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
#: Runs the command in-process, then prints its own and its children's peak (in kB).
MEMORY = """
import resource, sys
from aspuzzles.cli import main
sys.argv = ["aspuzzles", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
      resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
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


def _memory(args: list[str], output: Path) -> tuple[int, int]:
    """Peak resident megabytes of the command's process and of its largest worker."""
    output.unlink(missing_ok=True)
    command = [sys.executable, "-c", MEMORY, *args, "-o", str(output)]
    printed = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    own, workers = printed.split()[-2:]
    return int(own) >> 10, int(workers) >> 10


def run() -> None:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        output = Path(folder) / "sweep.tsv"
        for puzzle in ("geniussquare", "geniusstar"):
            args = ["sweep", puzzle, "--quiet"]
            timed = [_first_and_whole(args, output) for _ in range(RUNS)]
            own, worker = _memory(args, output)
            rows.append(
                [
                    f"aspuzzles sweep {puzzle} --quiet -o F",
                    f"{statistics.median(first for first, _ in timed):.3f} s",
                    f"{statistics.median(whole for _, whole in timed):.3f} s",
                    f"{own} MB / {worker} MB",
                ]
            )
    table(["median of 7, fresh file", "first answer", "whole", "memory: command / worker"], rows)
    print("\nGoals: first answer 0.3 s; the square's whole sweep 1.0 s; 120 MB a process.")
