"""``aspuzzles fix`` on the generated 15x15 Haunted board: 20 boards of progress, each
80% of the solution with 1 to 10 entries made wrong (seeded), timed after grounding
(grounded as ``fix`` grounds, ``fixing.ground_for_repair``).

Goal: a median under 100 ms. Two figures: the repair search alone (what no solution
holds, then the hitting sets over cores: ``driver.repairs.fewest_dropped``), and the
whole answer (search, the check against a decoded solution, and a subset-minimal
reason for each entry taken back). ``make bench ARGS=fix``.
"""

from __future__ import annotations

import random
import statistics
import time

from clingo import Symbol

from aspuzzles.driver.repairs import fewest_dropped
from aspuzzles.hinting import fixing, grounding
from aspuzzles.registry import get_puzzle

from common import table

INSTANCE = "gen-15x15-s15"
BOARDS = 20


def _progress(rng: random.Random, solution: list[Symbol], wrong: list[Symbol]) -> list[Symbol]:
    """80% of the solution, with 1 to 10 of its cells given another monster."""
    count = rng.randint(1, 10)
    kept = rng.sample(solution, int(len(solution) * 0.8))
    bad: list[Symbol] = []
    for entry in rng.sample(wrong, 60):
        if len(bad) < count and all(entry.arguments[:2] != b.arguments[:2] for b in bad):
            bad.append(entry)
    cells = {tuple(entry.arguments[:2]) for entry in bad}
    progress = [e for e in kept if tuple(e.arguments[:2]) not in cells] + bad
    rng.shuffle(progress)
    return progress


def run() -> None:
    game = get_puzzle("haunted")
    parsed, name = grounding.loaded(game, INSTANCE)
    ground = grounding.ground_instance(game, parsed, None)
    found = ground.reasoner.one_solution([])
    assert found is not None
    solution = sorted(found[1])
    wrong = [e for e in ground.reasoner.entries if e not in set(solution)]
    rng = random.Random(1)
    search, whole = [], []
    for _ in range(BOARDS):
        progress = _progress(rng, solution, wrong)
        fresh = fixing.ground_for_repair(game, parsed).reasoner
        started = time.perf_counter()
        possible = fresh.possible([]) or set()
        alone = [[entry] for entry in progress if entry not in possible]
        fewest_dropped(fresh, [(c, True) for c in fresh.clues], progress, 10, alone)
        search.append(time.perf_counter() - started)
        again = fixing.ground_for_repair(game, parsed)
        report = fixing.Fix(
            game, again.instance, name, "mistakes", progress, list(again.reasoner.clues), []
        )
        started = time.perf_counter()
        fixing._repair(again, progress, 10, report)
        whole.append(time.perf_counter() - started)

    def shown(times: list[float]) -> str:
        return f"median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms"

    table(
        ["fix, haunted 15x15, 20 boards of 1-10 mistakes", "time", "goal"],
        [["repair search", shown(search), "100 ms"], ["whole answer", shown(whole), "100 ms"]],
    )
