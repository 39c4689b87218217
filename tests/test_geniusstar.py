"""The Genius Star: geometry, pieces, counts, golden mode, rolls, the sweep."""

from __future__ import annotations

import itertools
import multiprocessing
import random

import pytest

from aspuzzles import InputError, get_puzzle, solve
from aspuzzles.kit.dice import DiceRoll as StarInstance
from aspuzzles.kit.dice import Tiling
from aspuzzles.puzzles.geniusstar import DICE, PIECES, PUZZLE, hexagons, neighbour
from aspuzzles.sweep import read_results, sweep

from .conftest import interrupted_run

REFERENCE = "1 10 16 29 33 38 39"


def PUZZLE_check(instance, cells):
    return PUZZLE.check(instance, Tiling(cells))


def test_cell_1_has_only_a_z_neighbour_3():
    assert (neighbour("Z", 1), neighbour("X", 1), neighbour("Y", 1)) == (3, None, None)
    # Cell 3 (the downward cell under the top point) leads back up, left and right.
    assert (neighbour("Z", 3), neighbour("X", 3), neighbour("Y", 3)) == (1, 2, 4)


def test_neighbour_table_is_symmetric_with_60_inner_edges():
    edges = set()
    for cell in range(1, 49):
        for direction in "XYZ":
            other = neighbour(direction, cell)
            if other is not None:
                assert neighbour(direction, other) == cell
                edges.add(frozenset((cell, other)))
    assert len(edges) == 60


def test_orientation_counts_per_shape():
    counts = {shape.name: PUZZLE.orientation_count(shape) for shape, _, _ in PIECES}
    assert counts == {
        "M1": 2,
        "D2": 3,
        "T3": 6,
        "T4": 2,
        "I4": 6,
        "C4": 6,
        "I5": 6,
        "P5": 12,
        "C5": 6,
        "L5": 12,
    }
    # 11 pieces (the blue triiamond twice): the list 2,3,6,6,2,12,6,6,6,6,12 as a
    # multiset, and the known totals of fixed tetriamonds (14) and pentiamonds (36).
    per_piece = sorted(c for shape, _, n in PIECES for c in [counts[shape.name]] * n)
    assert per_piece == sorted([2, 3, 6, 6, 2, 12, 6, 6, 6, 6, 12])
    assert counts["T4"] + counts["I4"] + counts["C4"] == 14
    assert counts["I5"] + counts["P5"] + counts["C5"] + counts["L5"] == 36
    assert sum(shape.size * n for shape, _, n in PIECES) == 41


@pytest.mark.slow
def test_reference_roll_counts():
    assert solve("geniusstar", REFERENCE, count=True).count == 30583
    golden = solve("geniusstar", REFERENCE, count=True, options={"golden": True})
    assert golden.count == 118


def test_solutions_are_checked_tilings_and_json_is_keyed_by_cell():
    result = solve("geniusstar", REFERENCE, models=5)
    assert len(result.solutions) == 5
    for solution in result.solutions:
        cells = solution.to_dict()["cells"]
        assert sorted(map(int, cells)) == sorted(set(range(1, 49)) - {1, 10, 16, 29, 33, 38, 39})
    golden = solve("geniusstar", REFERENCE, options={"golden": True}).solution
    blue = {c for c, name in golden.data.cells.items() if name.startswith("T3")}
    assert frozenset(blue) in hexagons()


def test_checker_rejects_broken_tilings():
    solution = solve("geniusstar", REFERENCE).solution
    instance, cells = solution.instance, dict(solution.data.cells)
    assert PUZZLE_check(instance, cells) == []
    uncovered = dict(cells)
    uncovered.pop(next(iter(uncovered)))
    assert any("uncovered" in p for p in PUZZLE_check(instance, uncovered))
    swapped = dict(cells)
    a = next(c for c, n in cells.items() if n == "M1")
    b = next(c for c, n in cells.items() if n == "I5")
    swapped[a], swapped[b] = "I5", "M1"
    assert any("is not a" in p for p in PUZZLE_check(instance, swapped))
    golden = StarInstance(instance.blocked, golden=True)
    if frozenset(c for c, n in cells.items() if n.startswith("T3")) not in hexagons():
        assert any("golden" in p for p in PUZZLE_check(golden, cells))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 2 3", "a roll blocks 7 cells, got 3"),
        ("# nothing but a comment", "empty roll: expected the 7 cells it blocks"),
        ("1 2 3 4 5 6 49", "'49' is not a cell \\(1 to 48\\)"),
        ("1 2 3 4 5 6 x", "'x' is not a cell"),
        ("1 2 3 4 5 6 6", "cell 6 is blocked twice"),
    ],
)
def test_bad_rolls(text, message):
    with pytest.raises(InputError, match=message):
        PUZZLE.parse_roll(text, "<argument>")


def test_cell_numbers_may_have_leading_zeros():
    assert PUZZLE.parse_roll("01 10 16 29 33 38 39", "r.txt") == PUZZLE.parse_roll(
        "1 10 16 29 33 38 39", "r.txt"
    )


def test_impossible_roll_warns_and_strict_refuses(cli, caplog):
    assert not PUZZLE.dice_can_roll([3, 6, 14, 35, 43, 46, 1])
    run = cli("solve", "geniusstar", "1 2 3 4 5 6 7", "--strict")
    assert run.code == 2 and "no roll of the dice" in run.err
    with caplog.at_level("WARNING"):
        result = solve("geniusstar", "1 2 3 4 5 6 7")
    assert "no roll of the dice" in caplog.text and result.status == "solved"


def test_dice_give_165888_rolls_that_never_block_the_safe_cells():
    rolls = PUZZLE.all_rolls()
    assert len(rolls) == 165888
    safe = {"3", "6", "14", "35", "43", "46"}
    assert not safe & {cell for die in DICE for cell in die}
    assert all(PUZZLE.dice_can_roll(roll) for roll in rolls[::5000])


def test_roll_command_is_seeded(cli):
    first = cli("roll", "geniusstar", "--seed", "4").out
    assert first == cli("roll", "geniusstar", "--seed", "4").out
    assert PUZZLE.dice_can_roll([int(x) for x in first.split()])


@pytest.mark.slow
def test_sweep_on_a_slice_matches_single_solves_and_resumes(tmp_path):
    output = tmp_path / "sweep.tsv"
    first = sweep(PUZZLE, {"golden": True}, output, jobs=2, limit=40, progress=False)
    again = sweep(PUZZLE, {"golden": True}, output, jobs=2, limit=60, progress=False)
    assert (first.total, first.solved_now, again.total, again.solved_now) == (40, 40, 60, 20)
    results = read_results(output, "# sweep geniusstar golden")
    assert len(results) == 60
    # The totals are over the file: what was there before and what was solved now.
    assert first.solvable == sum(list(results.values())[:40])
    assert again.solvable == sum(results.values())
    for key in list(results)[:8]:
        single = solve("geniusstar", key, options={"golden": True})
        assert results[key] == (single.status == "solved")
    with pytest.raises(InputError, match="holds another sweep"):
        sweep(PUZZLE, {}, output, jobs=1, limit=1, progress=False)


@pytest.mark.slow
def test_a_sweep_runs_where_processes_can_only_be_spawned(tmp_path, monkeypatch):
    """Windows has no fork: the workers are spawned, and the results are the same."""
    forked = sweep(PUZZLE, {}, tmp_path / "forked.tsv", jobs=2, limit=12, progress=False)
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    spawned = sweep(PUZZLE, {}, tmp_path / "spawned.tsv", jobs=2, limit=12, progress=False)
    assert (spawned.total, spawned.solvable) == (forked.total, forked.solvable) == (12, 12)
    header = "# sweep geniusstar"
    assert read_results(tmp_path / "spawned.tsv", header) == read_results(
        tmp_path / "forked.tsv", header
    )


def test_renderings():
    solution = solve("geniusstar", REFERENCE).solution
    lines = solution.text().splitlines()
    assert [len(line.strip()) for line in lines[:8]] == [1, 3, 11, 9, 9, 11, 3, 1]
    assert solution.text().count("#") >= 7
    assert solution.svg().count("<polygon") == 48


@pytest.mark.slow
def test_the_dice_respect_6_of_the_stars_12_symmetries():
    from aspuzzles.kit.dice import board_automorphisms, dice_symmetries

    assert len(board_automorphisms(PUZZLE)) == 12
    symmetries = dice_symmetries(PUZZLE)
    assert len(symmetries) == 6
    rolls = set(PUZZLE.all_rolls())
    for symmetry in symmetries:  # each maps rolls to rolls and sides to sides
        assert all(tuple(sorted(symmetry[n] for n in roll)) in rolls for roll in list(rolls)[:500])
    orbits = PUZZLE.orbits()
    assert len(orbits) == 27648 and sum(map(len, orbits.values())) == 165888


@pytest.mark.slow
def test_reduced_sweep_agrees_with_plain_solves_on_a_golden_sample(tmp_path):
    # Golden mode has unsolvable rolls, so agreement on a sample is a real check.
    import random

    orbits = list(PUZZLE.orbits().values())
    sample = random.Random(3).sample(orbits, 4)
    for orbit in sample:
        verdicts = {
            solve("geniusstar", " ".join(map(str, roll)), options={"golden": True}).status
            for roll in orbit
        }
        assert len(verdicts) == 1, orbit
    output = tmp_path / "reduced.tsv"
    summary = sweep(
        PUZZLE, {"golden": True, "reduce": True}, output, jobs=2, limit=30, progress=False
    )
    assert summary.solved_now == 30 and summary.total == 180
    results = read_results(output, "# sweep geniusstar golden reduce")
    for key in list(results)[:12]:
        assert results[key] == (
            solve("geniusstar", key, options={"golden": True}).status == "solved"
        )


@pytest.mark.slow
def test_ctrl_c_stops_a_sweep_cleanly_and_keeps_its_results(tmp_path):
    results = tmp_path / "sweep.tsv"

    def some_kept() -> bool:
        return results.exists() and len(results.read_text().splitlines()) > 1

    # Pressed once results are kept: the whole sweep takes 4 s on a fast machine.
    run = interrupted_run(
        "sweep", "geniusstar", "--jobs", "2", "-o", str(results), after=0.5, until=some_kept
    )
    assert run.returncode == 130
    assert "the same command resumes the sweep" in run.stderr
    assert "Traceback" not in run.stderr and "ForkPoolWorker" not in run.stderr
    lines = results.read_text().splitlines()
    assert lines[0] == "# sweep geniusstar" and len(lines) > 1
    assert all(line.endswith(("\t0", "\t1")) for line in lines[1:])


@pytest.mark.parametrize("name", ["geniusstar", "geniussquare"])
def test_whether_the_dice_can_roll_cells_agrees_with_trying_every_order(name):
    """The matching of cells to dice against the plain check: some order of the cells
    puts each on a face of its die. Random cells (mostly not a roll) and real rolls."""
    game = get_puzzle(name)
    rng = random.Random(5)

    def by_every_order(cells: list[int]) -> bool:
        labels = [game.label(cell) for cell in cells]
        return any(
            all(label in die for label, die in zip(order, game.dice, strict=True))
            for order in itertools.permutations(labels)
        )

    answers = []
    for number in range(60):
        if number % 2:
            cells = list(game.roll(rng).blocked)
        else:
            cells = rng.sample(range(1, len(game.board()) + 1), len(game.dice))
        answers.append(game.dice_can_roll(cells))
        assert answers[-1] == by_every_order(cells), cells
    assert True in answers and False in answers
