"""Start-up: whole commands on small boards against ``python -c "import clingo"``.

Goal (#43): every puzzle's default instance solved by the whole command within 2x of
importing clingo (capture's planning aside), ``--help`` and ``--version`` faster still.
The commands run round-robin (one run of each per round), so that a change in the
machine's load reaches every command alike; the table gives each command's median.
"""

from __future__ import annotations

import os
import sys

from common import installed_command, round_robin, table

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


def measure(rounds: int = ROUNDS) -> dict[str, float]:
    """Median wall time of each command (and of importing clingo), run round-robin."""
    commands = {"import clingo": CLINGO} | {
        name: installed_command(*args) for name, args in COMMANDS.items()
    }
    return round_robin(commands, rounds)


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
