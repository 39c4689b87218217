"""The Genius Square: the dice-tiling machinery of the Genius Star on a square grid."""

from __future__ import annotations

import random
from itertools import product

import pytest

from aspuzzles import InputError, solve
from aspuzzles.kit.dice import Tiling
from aspuzzles.puzzles.geniussquare import PUZZLE
from aspuzzles.registry import get_puzzle

from .oracles import geniusstar_algx

ROLL = "B2 D6 C3 F2 F1 D2 F5"


def test_orientation_counts_of_the_polyominoes():
    counts = {shape.name: PUZZLE.orientation_count(shape) for shape, _, _ in PUZZLE.pieces}
    assert counts == {
        "M1": 1,
        "D2": 2,
        "I3": 2,
        "L3": 4,
        "I4": 2,
        "O4": 1,
        "T4": 4,
        "S4": 4,
        "L4": 8,
    }
    assert sum(shape.size for shape, _, _ in PUZZLE.pieces) == 36 - 7


def test_the_dice_give_62208_rolls():
    assert len(PUZZLE.all_rolls()) == 62208


@pytest.mark.parametrize("name", ["geniussquare", "geniusstar"])
def test_the_rolls_are_every_distinct_sorted_choice_of_one_face_a_die(name):
    game = get_puzzle(name)
    faces = [{game.labels[face.upper()] for face in die} for die in game.dice]
    assert game.all_rolls() == sorted({tuple(sorted(roll)) for roll in product(*faces)})


def test_rolls_too_wide_for_one_number_each_are_told_apart_row_by_row(monkeypatch):
    from aspuzzles.kit import dice

    read_as_numbers = PUZZLE.roll_table()
    monkeypatch.setattr(dice, "ROLL_BITS", 0)
    assert (PUZZLE.roll_table() == read_as_numbers).all()


@pytest.mark.parametrize("roll_bits", [62, 0])
def test_a_rolls_orbit_is_every_image_of_it_named_by_the_least(monkeypatch, roll_bits):
    """The orbits made in numpy (each roll read as a number) and one roll at a time
    (rolls too wide for a number) are the orbits by definition, in the same order."""
    from aspuzzles.kit import dice

    monkeypatch.setattr(dice, "ROLL_BITS", roll_bits)
    game = get_puzzle("geniussquare")
    symmetries = dice.dice_symmetries(game)
    orbits = type(game)._orbits.func(game)  # made afresh, not the cached ones
    assert [roll for orbit in orbits.values() for roll in orbit] != game.all_rolls()
    assert sorted(roll for orbit in orbits.values() for roll in orbit) == game.all_rolls()
    assert list(orbits) == sorted(orbits)
    for least, orbit in random.Random(roll_bits).sample(list(orbits.items()), 300):
        images = {tuple(sorted(symmetry[n] for n in least)) for symmetry in symmetries}
        assert orbit == sorted(images) and least == orbit[0]


def test_a_sweeps_variants_are_the_rolls_named_as_its_results_file_names_them():
    rolls = PUZZLE.all_rolls()
    variants = PUZZLE.sweep().variants({})
    assert len(variants) == len(rolls)
    places = [0, 5, 61_000, len(rolls) - 1]
    assert variants.keys(places) == [PUZZLE.roll_key(rolls[place]) for place in places]
    assert [roll.blocked for roll in variants.instances(places)] == [rolls[p] for p in places]
    assert variants.keys([0]) == ["A1 A2 A4 A5 A6 B4 D5"]


def test_count_agrees_with_algorithm_x():
    result = solve("geniussquare", ROLL, count=True)
    roll = PUZZLE.parse_roll(ROLL, "<argument>")
    assert result.count == geniusstar_algx.count_tilings(roll.blocked, PUZZLE) == 271


def test_solution_json_uses_cell_labels_and_checks():
    solution = solve("geniussquare", ROLL).solution
    cells = solution.to_dict()["cells"]
    assert len(cells) == 29 and "A1" in cells and "B2" not in cells
    broken = dict(solution.data.cells)
    broken[1] = "O4"
    assert PUZZLE.check(solution.instance, Tiling(broken))


def test_checker_names_cells_by_their_labels():
    """Problems name cells as the player does (A1, B2), not by internal numbers."""
    solution = solve("geniussquare", ROLL).solution
    cells = dict(solution.data.cells)
    blocker = PUZZLE.labels["B2"]
    cells[blocker] = cells.pop(PUZZLE.labels["A1"])
    cells[PUZZLE.labels["A2"]] = "X9"
    problems = PUZZLE.check(solution.instance, Tiling(cells))
    assert "uncovered cells: A1" in problems
    assert "covered blockers: B2" in problems
    assert any(p.startswith("no piece is called X9 (pieces: M1 D2") for p in problems)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A1 B2 G7", "'G7' is not a cell \\(A1 to F6\\)"),
        ("A1 A1", "cell A1 is blocked twice"),
        ("A1 B2", "a roll blocks 7 cells, got 2"),
    ],
)
def test_bad_rolls(text, message):
    with pytest.raises(InputError, match=message):
        PUZZLE.parse_roll(text, "<argument>")


def test_a_cell_may_be_written_column_first():
    assert PUZZLE.parse_roll("2b 6D 3C 2F 1F 2D 5F", "<argument>") == PUZZLE.parse_roll(
        "B2 D6 C3 F2 F1 D2 F5", "<argument>"
    )


def test_text_and_svg():
    solution = solve("geniussquare", ROLL).solution
    lines = solution.text().splitlines()
    assert lines[0].split() == ["1", "2", "3", "4", "5", "6"] and lines[2].split()[0] == "B"
    assert lines[2].split()[2] == "#"  # B2 is blocked
    assert solution.svg().count("<rect") == 37


@pytest.mark.slow
def test_a_counting_sweep_gives_each_rolls_count_as_algorithm_x_does(cli, tmp_path):
    """One count per symmetry class, written for every roll of the class; each class's
    count and one of its other rolls' counted again by a plain exact-cover search."""
    output = tmp_path / "counts.tsv"
    run = cli("sweep", "geniussquare", "--count", "--reduce", "--limit", "2", "-o", output)
    assert run.code == 0, run.err
    lines = output.read_text().splitlines()
    assert lines[0] == "# sweep geniussquare count reduce"
    counts = {key: int(value) for key, value in (line.split("\t") for line in lines[1:])}
    assert len(counts) > 2  # the classes' other rolls, written out
    representatives = PUZZLE.sweep().variants({"reduce": True}).keys(range(2))
    others = sorted(set(counts) - set(representatives))
    for key in [*representatives, others[0]]:
        roll = PUZZLE.parse_roll(key, "<sweep>")
        assert counts[key] == geniusstar_algx.count_tilings(roll.blocked, PUZZLE), key
    fewest, most = min(counts.values()), max(counts.values())
    assert f"  solutions per variant, fewest {fewest}: " in run.out
    assert f"  solutions per variant, most {most}: " in run.out
    resumed = cli("sweep", "geniussquare", "--count", "--reduce", "--limit", "2", "-o", output)
    assert resumed.code == 0 and "0 solved now" in resumed.out
    assert output.read_text().splitlines() == lines
