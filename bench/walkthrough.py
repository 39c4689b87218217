"""Walkthroughs (``aspuzzles walkthrough``): whole walkthroughs and their steps' times.

Goals: a 7x7 Simon Tatham Undead puzzle under 2 s, the generated 15x15 Haunted board
(``instances/haunted/gen-15x15-s15.txt``) under 30 s, a step's 95th percentile under
1 s. Tatham's puzzles are read from ``../shared/data/haunted/tatham-graded.tsv`` where
it is there (18 7x7 puzzles, 6 of each level); the shipped 7x7 stands in otherwise.
``make bench ARGS=walkthrough``; the 15x15 runs last and takes the longest.
"""

from __future__ import annotations

import statistics
import sys
import time

import aspuzzles

from common import ROOT, table

TATHAM = ROOT.parent / "shared" / "data" / "haunted" / "tatham-graded.tsv"


def _tatham_7x7() -> list[tuple[str, str]]:
    if not TATHAM.exists():
        return []
    found = []
    for line in TATHAM.read_text().splitlines():
        if line.startswith("#") or line.startswith("difficulty"):
            continue
        level, game_id = line.split("\t")
        if game_id.startswith("7x7:"):
            found.append((level, game_id))
    return found


def _walk(instance: str) -> tuple[float, list[float], int, str]:
    started = time.perf_counter()
    walk = aspuzzles.walkthrough("haunted", instance)
    seconds = time.perf_counter() - started
    # As it goes, on stderr: the table comes at the end, and the 15x15 takes long.
    print(f"{instance[:30]}: {len(walk.steps)} steps, {seconds:.2f} s", file=sys.stderr)
    return seconds, [step.seconds for step in walk.steps], len(walk.steps), walk.status


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)] if ordered else 0.0


def run() -> None:
    rows: list[list[str]] = []
    steps: list[float] = []
    tatham = _tatham_7x7()
    by_level: dict[str, list[float]] = {}
    for level, game_id in tatham:
        seconds, times, _, status = _walk(game_id)
        assert status == "solved", (game_id, status)
        by_level.setdefault(level, []).append(seconds)
        steps += times
    for level, times in by_level.items():
        rows.append(
            [
                f"Tatham 7x7 {level} ({len(times)})",
                f"median {statistics.median(times):.2f} s, max {max(times):.2f} s",
                "2 s",
            ]
        )
    for instance in ("gen-7x7-s5", "gen-10x10-s11", "gen-15x15-s15"):
        seconds, times, count, status = _walk(instance)
        steps += times
        goal = {"gen-7x7-s5": "2 s", "gen-15x15-s15": "30 s"}.get(instance, "")
        rows.append(
            [
                f"{instance} ({count} steps, {status})",
                f"{seconds:.2f} s, step p95 {_p95(times):.3f} s, max {max(times):.2f} s",
                goal,
            ]
        )
    rows.append(["every step above: 95th percentile", f"{_p95(steps):.3f} s", "1 s"])
    table(["walkthrough", "time", "goal"], rows)
