"""Start-up: whole commands on small boards against ``python -c "import clingo"``.

Goal (#43): every puzzle's default instance solved by the whole command within 2x of
importing clingo (capture's planning aside), ``--help`` and ``--version`` faster still.
The commands run round-robin (one run of each per round), so that a change in the
machine's load reaches every command alike; the table gives each command's median.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

from common import median, table

ROUNDS = 21
GOAL = 2.0
CLINGO = [sys.executable, "-c", "import clingo"]
COMMANDS = {
    "solve haunted": ["solve", "haunted"],
    "solve tiles": ["solve", "tiles"],
    "solve cake": ["solve", "cake"],
    "solve geniusstar": ["solve", "geniusstar"],
    "solve geniussquare": ["solve", "geniussquare"],
    "solve template": ["solve", "template"],
    "--help": ["--help"],
    "--version": ["--version"],
}


def _aspuzzles(args: list[str]) -> list[str]:
    return [str(os.path.join(os.path.dirname(sys.executable), "aspuzzles")), *args]


def _once(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def measure(rounds: int = ROUNDS) -> dict[str, float]:
    """Median wall time of each command (and of importing clingo), run round-robin."""
    commands = {"import clingo": CLINGO} | {
        name: _aspuzzles(args) for name, args in COMMANDS.items()
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            times[name].append(_once(command))
    return {name: median(values) for name, values in times.items()}


def run() -> None:
    load_before = os.getloadavg()[0]
    medians = measure()
    load_after = os.getloadavg()[0]
    base = medians["import clingo"]
    rows = [["python -c 'import clingo'", base, "1.0x", ""]]
    for name in COMMANDS:
        ratio = medians[name] / base
        rows.append([f"aspuzzles {name}", medians[name], f"{ratio:.1f}x", _verdict(ratio)])
    print(
        f"Medians of {ROUNDS} round-robin rounds; load average {load_before:.2f} before, "
        f"{load_after:.2f} after ({os.cpu_count()} cores). Goal: within {GOAL:g}x."
    )
    table(["command", "median", "ratio", "goal"], rows)


def _verdict(ratio: float) -> str:
    return "met" if ratio <= GOAL else f"missed by {ratio - GOAL:.1f}x"


if __name__ == "__main__":
    run()
