"""Hints, explanations and grades: the speed goals (haunted), in-process and as
commands, and the same work on one instance of every other puzzle.

Goals: a hint on a 15x15 with half its cells filled under 100 ms in-process and 0.5 s
for the whole command, ``--all`` under 200 ms; ``grade`` of a 10x10 under 2 s and of a
15x15 under 10 s; ``explain`` of an unsolvable 10x10 (one clue changed) under 1 s.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import aspuzzles
from aspuzzles.puzzles.haunted import encode_game_id

from common import ROOT, best_of, table


def _half_filled(instance: str) -> str:
    grid = list(aspuzzles.solve("haunted", instance).solution.data.grid)
    width = len(grid[0])
    half = [row[: width // 2] + "." * (width - width // 2) for row in grid]
    path = Path(tempfile.mkdtemp()) / "progress.json"
    path.write_text(json.dumps({"grid": half}))
    return str(path)


def _broken(instance: str) -> str:
    parsed = aspuzzles.load("haunted", instance).parsed
    clues = list(parsed.clues)
    clues[3] += 1
    return encode_game_id(parsed._replace(clues=tuple(clues)))


def _command(*args: str) -> float:
    def run() -> None:
        subprocess.run(
            [sys.executable, "-m", "aspuzzles", *args], capture_output=True, check=False, cwd=ROOT
        )

    return best_of(3, run)[0]


def run() -> None:
    half = _half_filled("gen-15x15-s15")
    broken = _broken("gen-10x10-s11")
    rows = [
        (
            "hint, 15x15 half filled",
            best_of(5, lambda: aspuzzles.hint("haunted", "gen-15x15-s15", progress=half))[0],
            "0.1 s",
        ),
        (
            "hint --all, 15x15 half filled",
            best_of(
                5, lambda: aspuzzles.hint("haunted", "gen-15x15-s15", progress=half, every=True)
            )[0],
            "0.2 s",
        ),
        (
            "hint, 15x15 half filled (command)",
            _command("hint", "haunted", "gen-15x15-s15", "--progress", half),
            "0.5 s",
        ),
        ("grade, 10x10", best_of(3, lambda: aspuzzles.grade("haunted", "gen-10x10-s11"))[0], "2 s"),
        (
            "grade, 15x15",
            best_of(3, lambda: aspuzzles.grade("haunted", "gen-15x15-s15"))[0],
            "10 s",
        ),
        (
            "explain, 10x10 with one clue changed",
            best_of(3, lambda: aspuzzles.explain("haunted", broken))[0],
            "1 s",
        ),
    ]
    table(["work", "time", "goal"], [[work, seconds, goal] for work, seconds, goal in rows])
    other_puzzles()


def other_puzzles() -> None:
    """Hint, grade and explain on one instance of each other puzzle, in-process (best
    of 3); capture's hint is a proved-shortest solve of the board."""
    work = [
        ("cake unique-5x5-5-pieces: hint", lambda: aspuzzles.hint("cake", "unique-5x5-5-pieces")),
        ("cake unique-5x5-5-pieces: grade", lambda: aspuzzles.grade("cake", "unique-5x5-5-pieces")),
        (
            "cake unsolvable-8x8-16-pieces: explain",
            lambda: aspuzzles.explain("cake", "unsolvable-8x8-16-pieces"),
        ),
        (
            "tiles seed-big-cats-3x3-hint: hint",
            lambda: aspuzzles.hint("tiles", "seed-big-cats-3x3-hint"),
        ),
        (
            "tiles seed-big-cats-3x3-hint: grade",
            lambda: aspuzzles.grade("tiles", "seed-big-cats-3x3-hint"),
        ),
        (
            "tiles unsolvable-animal-3x3: explain",
            lambda: aspuzzles.explain("tiles", "unsolvable-animal-3x3"),
        ),
        ("geniussquare default roll: hint (a choice)", lambda: aspuzzles.hint("geniussquare")),
        ("geniusstar default roll: hint (a choice)", lambda: aspuzzles.hint("geniusstar")),
        ("capture wight: hint", lambda: aspuzzles.hint("capture", "wight")),
    ]
    print("\nOther puzzles, in-process, best of 3:\n")
    table(["work", "time"], [[name, best_of(3, job)[0]] for name, job in work])
