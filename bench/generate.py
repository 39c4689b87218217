"""Generators: graded Haunted puzzles with no given monster, against Tatham's own
generator where Debian's ``sgt-puzzles`` provides it (``undead --generate``), one run.

Goals (median over 10 seeds, every puzzle unique with no given monster): 7x7 tricky
under 1 s; 10x10 tricky under 3 s; 15x15 normal under 10 s; 20x20 easy under 20 s.
Tatham's generator takes at most 54 cells.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import time

import aspuzzles
from aspuzzles.registry import get_puzzle

from common import table

SEEDS = range(1, 11)
GOALS = [
    ("7x7", "tricky", 1.0),
    ("10x10", "tricky", 3.0),
    ("15x15", "normal", 10.0),
    ("20x20", "easy", 20.0),
    ("7x7", "easy", None),
    ("7x7", "normal", None),
]
#: Tatham's difficulty letters in a game parameter string (``7x7dt``).
LETTERS = {"easy": "e", "normal": "n", "tricky": "t"}


def ours(size: str, difficulty: str, seed: int) -> tuple[float, str, str]:
    game = get_puzzle("haunted")
    args = argparse.Namespace(
        size=size,
        seed=seed,
        difficulty=difficulty,
        givens=False,
        mirrors=None,
        picture=False,
        link=False,
        json=False,
        sparse=False,
    )
    started = time.perf_counter()
    game_id = game.generator().generate(args)
    elapsed = time.perf_counter() - started
    graded = aspuzzles.grade("haunted", game_id)
    assert graded.unique and "," in game_id
    walked = aspuzzles.walkthrough("haunted", game_id)  # the level asked is the walkthrough's
    assert walked.difficulty == difficulty, (size, difficulty, seed, walked.difficulty)
    mirrors = sum(c in "/\\" for c in "".join(aspuzzles.load("haunted", game_id).parsed.grid))
    return elapsed, f"{graded.grade}, walks {walked.difficulty}", f"{mirrors}"


def tatham(size: str, difficulty: str) -> float | None:
    """Median seconds per puzzle of Tatham's generator, 10 seeds, or None where it
    cannot run (not installed, over 54 cells, or no such difficulty)."""
    program = undead()
    width, height = (int(n) for n in size.split("x"))
    if program is None or width * height > 54 or difficulty not in LETTERS:
        return None
    times = []
    for seed in SEEDS:
        started = time.perf_counter()
        subprocess.run(
            [program, "--generate", "1", f"{size}d{LETTERS[difficulty]}#{seed}"],
            capture_output=True,
            check=True,
            timeout=120,
        )
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def undead() -> str | None:
    """Tatham's Undead program (Debian's sgt-puzzles puts it in /usr/games)."""
    return shutil.which("sgt-undead", path="/usr/games:" + os.environ.get("PATH", ""))


def run() -> None:
    installed = undead()
    rows = []
    for size, difficulty, goal in GOALS:
        results = [ours(size, difficulty, seed) for seed in SEEDS]
        times = [t for t, _, _ in results]
        grades = sorted({g for _, g, _ in results})
        mirrors = statistics.median(int(m) for _, _, m in results)
        width, height = (int(n) for n in size.split("x"))
        cells = width * height
        theirs = tatham(size, difficulty)
        rows.append(
            [
                f"{size} {difficulty}",
                statistics.median(times),
                max(times),
                "-" if goal is None else f"{goal:g} s",
                ", ".join(grades),
                f"{mirrors / cells:.0%}",
                "-" if theirs is None else theirs,
            ]
        )
    print(
        "Graded Haunted puzzles, no given monster, seeds 1-10, `aspuzzles generate "
        "haunted --size S --difficulty D --seed N` in-process:\n"
    )
    table(
        ["puzzle", "median", "slowest", "goal", "graded", "mirrors (median)", "Tatham's median"],
        rows,
    )
    if installed is None:
        print(
            "\nTatham's generator: not installed (Debian's sgt-puzzles provides `undead`);"
            " our figures alone."
        )
