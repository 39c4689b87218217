"""CPMpy's explanation tools on the Sudokus of the walkthrough bench, beside ``aspuzzles``.

Run by the peers' environment, which has ``cpmpy`` (``make .venv-peers/.installed``)::

    .venv-peers/bin/python bench/cpmpy_sudoku.py [--free-rules] [--cap SECONDS] [INSTANCE...]

It does not import ``aspuzzles``: the instances' ``#const n = N.`` and ``given(R,C,V).``
facts are read by a regular expression. Each Sudoku is a CPMpy model (an integer per
cell, one ``AllDifferent`` per row, column and box, one ``x[r,c] == v`` per given), and
its explanation sequence is built in the style of Bogaerts, Gamba and Guns: each step is
the cheapest explanation of one new fact (a cell's value in the solution) from the
givens, the rules and the facts derived so far, found by one call of CPMpy's OCUS
(``cpmpy.tools.explain.ocus``): the soft constraints are the givens, the rules, the
facts known so far and the negation of every fact still to come, with the
meta-constraint that exactly one of those negations is in the set. Weights: 3 a given, 3
an ``AllDifferent`` (one per row, column, box; ``--free-rules`` makes them hard instead,
costing nothing as the walkthrough's encoding does), 1 a known fact, 0 the negation.
A step sets one fact; the run stops at ``--cap`` seconds and reports the partial figures.
This file defines no ``run()``: ``bench/run.py`` (the main environment, with no cpmpy)
leaves it alone.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import sys
import time
from pathlib import Path

import cpmpy as cp
from cpmpy.tools.explain import ocus

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = ("tatham-9x9-advanced", "gen-9x9-s1")
GIVEN_WEIGHT = 3
RULE_WEIGHT = 3
FACT_WEIGHT = 1


class OutOfTime(Exception):
    """The cap on one Sudoku's explanation sequence has passed."""


def read_instance(path: Path) -> tuple[int, dict[tuple[int, int], int]]:
    """The box size ``n`` and the givens ``{(row, column): value}`` (1-based) of an instance."""
    text = re.sub(r"%.*", "", path.read_text())
    const = re.search(r"#const\s+n\s*=\s*(\d+)\s*\.", text)
    if const is None:
        raise ValueError(f"{path}: no '#const n = N.'")
    givens = {
        (int(r), int(c)): int(v)
        for r, c, v in re.findall(r"\bgiven\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)\s*\.", text)
    }
    return int(const.group(1)), givens


def build(n: int, givens: dict[tuple[int, int], int]):
    """The grid's variables, its rules (row, column, box) and its givens as constraints."""
    size = n * n
    grid = cp.intvar(1, size, shape=(size, size), name="x")
    rules = [cp.AllDifferent(grid[r, :]) for r in range(size)]
    rules += [cp.AllDifferent(grid[:, c]) for c in range(size)]
    rules += [
        cp.AllDifferent(grid[br : br + n, bc : bc + n].flatten())
        for br in range(0, size, n)
        for bc in range(0, size, n)
    ]
    clues = [grid[r - 1, c - 1] == v for (r, c), v in sorted(givens.items())]
    return grid, rules, clues


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)] if ordered else 0.0


def _alarm(_signum: int, _frame: object) -> None:
    raise OutOfTime


def explain(instance: str, cap: float, free_rules: bool) -> dict[str, object]:
    """The explanation sequence of one Sudoku: its steps' costs and times, and the total."""
    n, givens = read_instance(ROOT / "instances" / "sudoku" / f"{instance}.lp")
    started = time.perf_counter()
    grid, rules, clues = build(n, givens)
    model = cp.Model(rules, clues)
    assert model.solve(solver="ortools"), f"{instance}: no solution"
    solution = grid.value().copy()
    size = n * n
    todo = [(r, c) for r in range(size) for c in range(size) if (r + 1, c + 1) not in givens]
    known: list = []
    step_times: list[float] = []
    costs: list[int] = []
    status = "complete"
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, max(0.001, cap - (time.perf_counter() - started)))
    try:
        while todo:
            step_started = time.perf_counter()
            negations = [grid[r, c] != solution[r, c] for r, c in todo]
            soft = clues + known + negations
            weights = [GIVEN_WEIGHT] * len(clues) + [FACT_WEIGHT] * len(known)
            weights += [0] * len(negations)
            hard: list = []
            if free_rules:
                hard = rules
            else:
                soft = rules + soft
                weights = [RULE_WEIGHT] * len(rules) + weights
            reason = ocus(soft, hard, weights=weights, meta_constraint=cp.sum(negations) == 1)
            chosen = [i for i, negation in enumerate(negations) if _member(negation, reason)]
            assert len(chosen) == 1, chosen
            weight_of = {str(s): w for s, w in zip(soft, weights, strict=True)}
            costs.append(sum(weight_of[str(member)] for member in reason))
            r, c = todo.pop(chosen[0])
            known.append(grid[r, c] == solution[r, c])
            step_times.append(time.perf_counter() - step_started)
            print(
                f"{instance}: step {len(step_times)}: x[{r + 1},{c + 1}] = {solution[r, c]}, "
                f"cost {costs[-1]}, {step_times[-1]:.2f} s",
                file=sys.stderr,
            )
    except OutOfTime:
        status = f"stopped at the {cap:.0f} s cap, {len(todo)} facts left"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return {
        "instance": instance,
        "givens": len(givens),
        "seconds": time.perf_counter() - started,
        "steps": len(step_times),
        "median": statistics.median(step_times) if step_times else 0.0,
        "p95": _p95(step_times),
        "max": max(step_times, default=0.0),
        "cost": sum(costs),
        "status": status,
    }


def _member(constraint, members) -> bool:
    # CPMpy overloads == on expressions: compare by identity, then by printed form (ocus
    # hands back the very objects it was given, but a toplevel_list may copy them).
    return any(constraint is m or str(constraint) == str(m) for m in members)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("instances", nargs="*", default=list(INSTANCES))
    parser.add_argument("--cap", type=float, default=900.0, help="seconds per Sudoku")
    parser.add_argument("--free-rules", action="store_true", help="rules hard (cost 0), not 3 each")
    args = parser.parse_args(argv)
    print(
        f"# cpmpy {cp.__version__}, OCUS (ortools), rules "
        f"{'hard (0)' if args.free_rules else f'soft ({RULE_WEIGHT})'}, "
        f"{time.strftime('%Y-%m-%d %H:%M')}, load {os.getloadavg()[0]:.2f} "
        f"({os.cpu_count()} cores)"
    )
    print("| Sudoku | givens | steps | total | step median | step p95 | step max | cost | status |")
    print("|---|---|---|---|---|---|---|---|---|")
    for instance in args.instances:
        row = explain(instance, args.cap, args.free_rules)
        print(
            f"| {row['instance']} | {row['givens']} | {row['steps']} | {row['seconds']:.1f} s "
            f"| {row['median']:.2f} s | {row['p95']:.2f} s | {row['max']:.2f} s "
            f"| {row['cost']} | {row['status']} |",
            flush=True,
        )
    print(f"# load after {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
