"""Haunted: per instance, grounding, solving and the uniqueness proof.

Targets: a 15x15 solved and proved unique in under 50 ms in-process; ``aspuzzles solve``
on the seed under 1 s of wall time.
"""

from __future__ import annotations

from aspuzzles import solve

from common import ROOT, SHARED_DATA, best_of, table, wall_time_of_command


def run() -> None:
    files = sorted(
        p for p in (ROOT / "instances" / "haunted").glob("*") if p.suffix in (".txt", ".lp")
    )
    files += sorted((SHARED_DATA / "haunted").glob("*.txt"))
    rows = []
    for path in files:
        first_time, first = best_of(5, lambda path=path: solve("haunted", path))
        verdict_time, verdict = best_of(5, lambda path=path: solve("haunted", path, unique=True))
        rows.append(
            [
                path.name,
                first.solution.instance.width,
                first.solution.instance.height,
                first.stats["ground_time"],
                first.stats["solve_time"],
                first_time,
                verdict.verdict,
                verdict_time,
            ]
        )
    print(
        "In-process times, best of 5 (solve = first solution; verdict = two-model "
        "uniqueness proof, grounding included):\n"
    )
    table(
        ["instance", "W", "H", "ground", "solve", "first total", "verdict", "verdict total"], rows
    )
    wall = wall_time_of_command(["solve", "haunted"])
    print(f"\n`aspuzzles solve haunted` (seed, fresh process, wall): {wall * 1000:.0f} ms")
