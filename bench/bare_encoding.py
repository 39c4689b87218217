"""Hints, explanations, grades and generated puzzles for encodings of one's own (no
Python module): a Sudoku and a Futoshiki written as bare encodings
(``bench/bare/encodings``), in-process.

Goals: a hint on a 9x9 givens puzzle under 200 ms; a unique 9x9-class puzzle generated
in under 5 s. The Sudoku is the one of Wikipedia's "Sudoku" article (30 givens).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import aspuzzles

from common import ROOT, best_of, table

HERE = Path(__file__).resolve().parent / "bare"


def _clash() -> str:
    """The Sudoku with one given changed so that it has no solution."""
    text = (HERE / "instances" / "sudoku" / "wikipedia.lp").read_text()
    path = Path(tempfile.mkdtemp()) / "clash.lp"
    path.write_text(text.replace("given(9,9,9).", "given(9,9,5)."))
    return str(path)


def _command(*args: str) -> float:
    def run() -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        subprocess.run(
            [sys.executable, "-m", "aspuzzles", *args],
            capture_output=True,
            cwd=HERE,
            env=env,
            check=False,
        )

    return best_of(3, run)[0]


def run() -> None:
    os.chdir(HERE)  # the bare encodings are found in the working folder
    clash = _clash()
    rows = [
        (
            "hint, Sudoku (30 givens)",
            best_of(5, lambda: aspuzzles.hint("sudoku", "wikipedia.lp"))[0],
            "0.2 s",
        ),
        ("hint, Sudoku (command)", _command("hint", "sudoku", "wikipedia.lp"), ""),
        (
            "hint --all, Sudoku",
            best_of(3, lambda: aspuzzles.hint("sudoku", "wikipedia.lp", every=True))[0],
            "",
        ),
        ("grade, Sudoku", best_of(3, lambda: aspuzzles.grade("sudoku", "wikipedia.lp"))[0], ""),
        (
            "explain, Sudoku with a given changed",
            best_of(3, lambda: aspuzzles.explain("sudoku", clash))[0],
            "",
        ),
        (
            "generate, Sudoku from an empty grid",
            best_of(3, lambda: aspuzzles.generate("sudoku", skeleton="empty.lp", seed=1))[0],
            "5 s",
        ),
        (
            "generate, Latin square 9x9",
            best_of(3, lambda: aspuzzles.generate("latin", skeleton="nine.lp", seed=1))[0],
            "5 s",
        ),
        (
            "generate --difficulty normal, Futoshiki 5x5",
            best_of(
                3,
                lambda: aspuzzles.generate(
                    "futoshiki", skeleton="five.lp", seed=1, difficulty="normal"
                ),
            )[0],
            "",
        ),
    ]
    table(["work", "time", "goal"], [[work, seconds, goal] for work, seconds, goal in rows])
