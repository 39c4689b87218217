"""The difficulty a walkthrough reads (``grade --difficulty``) against Simon Tatham's
own levels, on puzzles his generators made and graded (``../shared/data``):

- Undead (``haunted/tatham-graded.tsv``, 72 puzzles, Easy/Normal/Tricky): agreement
  (his Easy, Normal, Tricky against our easy, normal, tricky) and Spearman, on the
  odd-numbered rows (the thresholds were fitted on the even-numbered ones) and on all;
- Sudoku (``graded/solo``, 60, six levels) and Skyscrapers (``graded/towers``, 59, four
  levels) written as plain encodings (``bench/bare/encodings/sudoku.lp``,
  ``towers.lp``): Spearman between his level and our score;
- the same puzzles through encodings with redundant constraints
  (``sudoku_redundant.lp``, ``towers_redundant.lp``): how many grade the same;
- Singles, Tatham's Hitori (``bench/data/singles-graded.tsv``, 40 made by his
  generator, Easy and Tricky at 6x6 and 8x8), through the shipped
  ``encodings/hitori.lp``: Spearman between his level and our score, and each level's
  median score (his two levels differ in techniques, not in how many numbers a
  deduction reads).

``make bench ARGS=calibrate``; ``CALIBRATE_PER_LEVEL=N`` takes the first N Sudoku and
Skyscrapers of each level only (a Sudoku walkthrough takes 10-30 s, a 6x6 Skyscrapers
one up to a minute, so the whole sets take long); the Undead are always all measured.
``CALIBRATE_SETS=undead,sudoku,towers,singles`` (the default) names the sets to measure.
``CALIBRATE_RULES=1`` also reads other scores off the same walks (``score_rules.py``)
and prints how each agrees with Tatham's levels, beside the shipped one.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aspuzzles
from aspuzzles.hinting.difficulty import LEVELS
from score_rules import rows as rule_rows
from score_rules import spearman

from common import ROOT, SHARED_DATA, table

BARE = Path(__file__).resolve().parent / "bare"
UNDEAD = SHARED_DATA / "haunted" / "tatham-graded.tsv"
GRADED = SHARED_DATA / "graded"
SINGLES = ROOT / "bench" / "data" / "singles-graded.tsv"
SETS = {
    "sudoku": ("solo", ["trivial", "basic", "intermediate", "advanced", "extreme", "unreasonable"]),
    "towers": ("towers", ["easy", "hard", "extreme", "unreasonable"]),
}


def _per_level() -> int | None:
    found = os.environ.get("CALIBRATE_PER_LEVEL")
    return int(found) if found else None


def _undead() -> list[tuple[str, str]]:
    rows = []
    for line in UNDEAD.read_text().splitlines():
        if not line.startswith(("#", "difficulty")):
            level, game_id = line.split("\t")
            rows.append((level, game_id))
    return rows


def _sample(rows: list[tuple[str, str]]) -> list[tuple[str, str]]:
    most, taken, kept = _per_level(), dict[str, int](), []
    for level, item in rows:
        if most is None or taken.get(level, 0) < most:
            taken[level] = taken.get(level, 0) + 1
            kept.append((level, item))
    return kept


#: Each set's plain walks, as (Tatham's level's index, the walk), for the rules.
WALKS: dict[str, list[tuple[int, Any]]] = {}


def _walk(puzzle: str, instance: str, encoding: Path | None = None) -> tuple[str, float, Any]:
    walk = aspuzzles.walkthrough(puzzle, instance, encoding=encoding)
    assert walk.difficulty is not None, (puzzle, instance, walk.status)
    return walk.difficulty, walk.score, walk


def _undead_rows() -> list[list[str]]:
    found = []
    for number, (level, game_id) in enumerate(_undead()):
        difficulty, _, walk = _walk("haunted", game_id)
        WALKS.setdefault("undead", []).append((LEVELS.index(level), walk))
        found.append((number, level, difficulty))
        print(f"undead {game_id[:12]}: Tatham {level}, ours {difficulty}", file=sys.stderr)
    rows = []
    for name, chosen in (("held out (odd rows)", 1), ("all", None)):
        part = [f for f in found if chosen is None or f[0] % 2 == chosen]
        agree = sum(level == ours for _, level, ours in part) / len(part)
        rho = spearman([LEVELS.index(lv) for _, lv, _ in part], [LEVELS.index(o) for *_, o in part])
        rows.append([f"Undead, {name} ({len(part)})", f"{agree:.0%}", f"{rho:.2f}", "85%"])
    return rows


def _graded_rows(puzzle: str) -> list[list[str]]:
    folder, levels = SETS[puzzle]
    manifest = (GRADED / folder / "manifest.tsv").read_text().splitlines()[1:]
    items = _sample([(line.split("\t")[1], line.split("\t")[0]) for line in manifest])
    os.chdir(BARE)  # the bare encodings are found in the working folder
    plain, again, same = [], [], 0
    redundant = BARE / "encodings" / f"{puzzle}_redundant.lp"
    for level, file in items:
        path = str(GRADED / folder / file)
        started = time.perf_counter()
        ours, found, walk = _walk(puzzle, path)
        WALKS.setdefault(puzzle, []).append((levels.index(level), walk))
        theirs, found_again, _ = _walk(puzzle, path, redundant)
        same += ours == theirs
        plain.append((levels.index(level), found))
        again.append(found_again)
        seconds = time.perf_counter() - started
        print(f"{puzzle} {file}: {level}, ours {ours}/{theirs} ({seconds:.1f} s)", file=sys.stderr)
    rho = spearman([lv for lv, _ in plain], [s for _, s in plain])
    rho_again = spearman([lv for lv, _ in plain], again)
    return [
        [f"{puzzle}, plain encoding ({len(plain)})", "", f"{rho:.2f}", "0.85"],
        [f"{puzzle}, redundant encoding", f"{same}/{len(plain)} same", f"{rho_again:.2f}", "all"],
    ]


def _singles_facts(game_id: str) -> str:
    """A Singles game ID (``6x6de:4466...``) as the facts of ``encodings/hitori.lp``."""
    params, digits = game_id.split(":")
    size = int(params.split("x")[0])
    cells = (f"number({i // size + 1},{i % size + 1},{int(d, 36)})." for i, d in enumerate(digits))
    return f"% Tatham game ID {game_id}\n#const n = {size}.\n" + "\n".join(cells) + "\n"


def _singles_rows() -> list[list[str]]:
    """Tatham's Singles walked with the shipped Hitori encoding: Spearman between his
    level and the score, and each level's median score (the levels are Undead's, so
    agreement is not counted)."""
    levels = ["easy", "tricky"]
    lines = [line for line in SINGLES.read_text().splitlines() if not line.startswith("#")]
    found: list[tuple[int, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        for number, line in enumerate(lines[1:]):
            level, game_id = line.split("\t")
            path = Path(folder) / f"singles-{number}.lp"
            path.write_text(_singles_facts(game_id))
            ours, score, _ = _walk("hitori", str(path))
            found.append((levels.index(level), score))
            said = f"Tatham {level}, ours {ours} {score:.2f}"
            print(f"singles {game_id[:14]}: {said}", file=sys.stderr)
    rho = spearman([lv for lv, _ in found], [sc for _, sc in found])
    medians = ", ".join(
        f"{name} {statistics.median(sc for lv, sc in found if lv == index):.2f}"
        for index, name in enumerate(levels)
    )
    name = f"Singles (Hitori), shipped encoding ({len(found)}): median score {medians}"
    return [[name, "", f"{rho:.2f}", ""]]


def run() -> None:
    if not UNDEAD.exists():
        print("calibrate: ../shared/data is not here; nothing to measure")
        return
    chosen = os.environ.get("CALIBRATE_SETS", "undead,sudoku,towers,singles").split(",")
    rows = _undead_rows() if "undead" in chosen else []
    for puzzle in SETS:
        if puzzle in chosen:
            rows += _graded_rows(puzzle)
    if "singles" in chosen:
        rows += _singles_rows()
    table(["difficulty against Tatham's levels", "agreement", "Spearman", "goal"], rows)
    if os.environ.get("CALIBRATE_RULES"):
        graded = {p: WALKS[p] for p in SETS if p in WALKS}
        heads = ["score rule", *(["Undead four-fold", "Spearman"] if "undead" in WALKS else [])]
        print()
        table(
            [*heads, *(f"{p} Spearman" for p in graded)],
            rule_rows(WALKS.get("undead", []), graded),
        )
