"""The gallery's genres (plain encodings, no Python: ``encodings/<genre>.lp``), each
command as a user runs it: a fresh ``aspuzzles`` process, wall time, best of three.

Goals (issue #67), for every genre at its usual published size (the shipped instances:
Tatham's and pzprjs's, and the generated ones): solve under 1 s, a hint under 1 s, a
unique puzzle generated under 10 s. The walkthrough is timed beside them, once, under
a minute's time limit (no goal of its own here). Generation starts from the skeleton of
the shipped generated instance (its ``#const`` lines and structure facts: regions,
cages), seeds 1 to 3.
``make bench ARGS=gallery``.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from aspuzzles.registry import get_puzzle

from common import ROOT, table

#: The gallery's genres (docs/gallery.md).
GENRES = (
    "starbattle",
    "norinori",
    "unequal",
    "hitori",
    "slitherlink",
    "killer",
    "skyscrapers",
    "sudoku",
)
SEEDS = (1, 2, 3)


#: A walkthrough is run once, under this time limit (seconds): some take minutes.
WALK_LIMIT = 60


def _seconds(*args: str, repeat: int = 3) -> float | None:
    """The fastest of ``repeat`` runs of ``aspuzzles ARGS`` (a fresh process each);
    None where the command's time limit ran out (exit 3)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        run = subprocess.run(
            [sys.executable, "-m", "aspuzzles", *args], capture_output=True, text=True, cwd=ROOT
        )
        took = time.perf_counter() - started
        if run.returncode == 3:
            return None
        if run.returncode != 0:
            raise SystemExit(f"aspuzzles {' '.join(args)}: exit {run.returncode}: {run.stderr}")
        best = min(best, took)
    return best


def _shown(seconds: float | None) -> str:
    return f"over {WALK_LIMIT} s" if seconds is None else f"{seconds:.2f} s"


def _skeleton(genre: str, instance: Path) -> Path:
    """The generated instance's ``#const`` lines and structure facts, as a file."""
    text = re.sub(r"%.*", "", instance.read_text())  # comments may name a #const too
    kept = re.findall(r"#const[^.]*\.", text)
    for name, _ in get_puzzle(genre).declared().structure:  # the board's, as declared
        kept += re.findall(rf"\b{name}\([^()]*\)\.", text)
    path = Path(tempfile.mkdtemp()) / f"{genre}-skeleton.lp"
    path.write_text("\n".join(kept) + "\n")
    return path


def run() -> None:
    rows = []
    for genre in GENRES:
        for instance in sorted((ROOT / "instances" / genre).glob("*.lp")):
            name = instance.stem
            rows.append(
                [
                    f"{genre} {name}",
                    _shown(_seconds("solve", genre, name)),
                    _shown(_seconds("hint", genre, name)),
                    _shown(
                        _seconds("walkthrough", genre, name, "--timeout", str(WALK_LIMIT), repeat=1)
                    ),
                    "",
                ]
            )
            if name.startswith("gen-"):
                skeleton = str(_skeleton(genre, instance))
                made = [_seconds("generate", genre, skeleton, "--seed", str(s)) for s in SEEDS]
                rows[-1][-1] = " / ".join(_shown(seconds) for seconds in made)
    table(
        [
            "genre instance (fresh process, best of 3)",
            "solve (goal 1 s)",
            "hint (goal 1 s)",
            "walkthrough",
            "generate, seeds 1/2/3 (goal 10 s)",
        ],
        rows,
    )
