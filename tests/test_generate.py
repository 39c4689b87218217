"""Generated Haunted puzzles: unique, no given monster, of the difficulty asked (as their
walkthrough grades it), the same for a seed on every run; bad arguments refused in one
line."""

from __future__ import annotations

import json
import random
import re

import pytest

import aspuzzles
from aspuzzles.driver.session import Session
from aspuzzles.puzzles.haunted import PUZZLE, generate
from aspuzzles.puzzles.haunted.checker import check_board
from aspuzzles.puzzles.haunted.generate import degenerate

CASES = [
    ("easy", "6x6", 1),
    ("easy", "7x7", 2),
    ("normal", "6x6", 3),
    ("normal", "5x7", 4),
    ("tricky", "6x6", 5),
    ("tricky", "7x7", 6),
    # Larger boards are looked for mostly among boards graded easy by propagation
    # (haunted.proposed): a few seconds each (bench/NOTES-haunted.md).
    pytest.param("tricky", "10x10", 3, marks=pytest.mark.slow),
    pytest.param("normal", "15x15", 1, marks=pytest.mark.slow),
]
# hard (a walkthrough beyond the costliest of Tatham's Tricky Undead) is left out: a
# 6x6 takes one to three minutes to find (docs/haunted.md).


def _generated(cli, *args: str) -> str:
    run = cli("generate", "haunted", *args)
    assert run.code == 0, run.err
    return run.out.strip()


@pytest.mark.parametrize(("difficulty", "size", "seed"), CASES)
def test_a_generated_puzzle_is_unique_gives_no_monster_and_grades_as_asked(
    cli, difficulty, size, seed
):
    game_id = _generated(cli, "--size", size, "--difficulty", difficulty, "--seed", str(seed))
    parsed = aspuzzles.load("haunted", game_id).parsed
    assert set("".join(parsed.grid)) <= set("./\\")  # no given monster
    solved = aspuzzles.solve("haunted", game_id, unique=True)
    assert solved.verdict == "unique"
    assert degenerate(solved.solution.data.grid) is None
    # The level asked is the walkthrough's (grade --difficulty), which the generator
    # aims at: a walkthrough from the test's own call, reaching the solution.
    walked = aspuzzles.walkthrough("haunted", game_id)
    assert walked.status == "solved" and walked.difficulty == difficulty, walked.lines()[0]


def test_the_same_seed_makes_the_same_puzzle(cli):
    args = ("--size", "6x6", "--difficulty", "tricky", "--seed", "11")
    assert _generated(cli, *args) == _generated(cli, *args)
    assert _generated(cli, *args) != _generated(cli, "--size", "6x6", "--seed", "12")


def test_a_puzzle_comes_as_a_link_a_picture_or_json(cli):
    game_id = _generated(cli, "--size", "5x5", "--seed", "3")
    link = _generated(cli, "--size", "5x5", "--seed", "3", "--link")
    assert link == "https://www.chiark.greenend.org.uk/~sgtatham/puzzles/js/undead.html#" + game_id
    data = json.loads(_generated(cli, "--size", "5x5", "--seed", "3", "--json"))
    assert data["game_id"] == game_id and data["difficulty"] == "normal"
    picture = _generated(cli, "--size", "5x5", "--seed", "3", "--picture")
    assert picture.splitlines()[0] == (
        "# aspuzzles generate haunted --size 5x5 --difficulty normal --seed 3 --picture"
    )
    drawn = PUZZLE.parse("\n".join(data["picture"]), "picture.txt")
    assert drawn == aspuzzles.load("haunted", game_id).parsed


def test_givens_make_the_puzzle_the_fast_way(cli):
    game_id = _generated(cli, "--size", "12x12", "--seed", "5", "--givens")
    assert aspuzzles.solve("haunted", game_id, unique=True).verdict == "unique"


def test_givens_proofs_cut_short_still_end_in_a_unique_puzzle(monkeypatch):
    """With uniqueness proofs stopped after one conflict, rounds that cannot decide give
    a monster at random and removals that cannot be proved keep it: the puzzle is still
    unique (proved by an unbounded solve) with the planted board as its answer."""
    searches: list[bool] = []
    search = Session.search

    def spied(self, *args, **kwargs):
        found = search(self, *args, **kwargs)
        searches.append(found[1])
        return found

    monkeypatch.setattr(Session, "search", spied)
    monkeypatch.setattr(generate, "PROOF_CONFLICTS", 1)
    instance, planted = generate.generate_unique(PUZZLE, 10, 10, random.Random(1), 0.3)
    assert False in searches  # some proofs were cut short
    result = aspuzzles.solve_instance(PUZZLE, instance, unique=True)
    assert result.verdict == "unique" and result.solution.data.grid == planted
    assert check_board(instance, planted) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--size", "1x1"], "--size 1x1 is out of range (2 to 64 per side)"),
        (["--size", "100x100"], "--size 100x100 is out of range (2 to 64 per side)"),
        (
            ["--size", "40x40"],
            "--size 40x40: graded puzzles go up to 30 per side (--givens makes larger ones)",
        ),
        (["--size", "10x10", "--link"], "--link: Tatham's Undead takes at most 54 cells, not 100"),
        (["--mirrors", "1.5"], "--mirrors must be a share from 0 up to (not including) 1"),
    ],
)
def test_bad_generator_arguments_get_one_line_and_exit_2(cli, args, message):
    run = cli("generate", "haunted", *args)
    assert (run.code, run.err) == (2, f"aspuzzles: error: {message}\n")


def test_an_unknown_difficulty_is_refused(cli):
    run = cli("generate", "haunted", "--difficulty", "extreme")
    assert run.code == 2 and "invalid choice: 'extreme'" in run.err
    assert len(run.err.strip().splitlines()) == 1


# ------------------------------------------------------------------ other puzzles
@pytest.mark.slow
def test_a_unique_cake_has_exactly_one_partition(cli, tmp_path):
    text = _generated_of(cli, "cake", "--size", "5x5", "--pieces", "5", "--seed", "1", "--unique")
    (tmp_path / "cake.txt").write_text(text)
    assert aspuzzles.solve("cake", tmp_path / "cake.txt", count=True).count == 1


@pytest.mark.parametrize("style", ["animal", "e2"])
def test_a_unique_tiles_board_has_one_solution_up_to_turning(cli, tmp_path, style):
    text = _generated_of(
        cli, "tiles", "--style", style, "--size", "4x4", "--kinds", "6", "--seed", "1", "--unique"
    )
    (tmp_path / "tiles.txt").write_text(text)
    assert aspuzzles.solve("tiles", tmp_path / "tiles.txt", count=True).count == 1


def test_a_golden_roll_admits_a_golden_solution(cli):
    roll = _generated_of(cli, "geniusstar", "--golden", "--seed", "3")
    result = aspuzzles.solve("geniusstar", roll, options={"golden": True})
    assert result.status == "solved"


def test_an_exact_capture_board_has_its_shortest_plan_proved(cli, tmp_path):
    text = _generated_of(cli, "capture", "--moves", "5", "--exact", "--seed", "2")
    assert "# its shortest plan has exactly 5 moves, proved by the solver" in text
    (tmp_path / "board.txt").write_text(text)
    solution = aspuzzles.solve("capture", tmp_path / "board.txt").solution.data
    assert len(solution.moves) == 5 and solution.shortest
    run = cli("generate", "capture", "--moves", "12", "--exact")
    assert (run.code, run.err) == (
        2,
        "aspuzzles: error: --exact proves minima of up to 10 moves, not 12\n",
    )


def test_a_unique_plan_capture_board_has_one_shortest_move_list(cli, tmp_path):
    text = _generated_of(cli, "capture", "--moves", "4", "--exact", "--unique-plan", "--seed", "2")
    assert "exactly 4 moves, the only one of that length" in text
    (tmp_path / "board.txt").write_text(text)
    result = aspuzzles.solve("capture", tmp_path / "board.txt", unique=True)
    assert result.verdict == "unique" and len(result.solution.data.moves) == 4
    run = cli("generate", "capture", "--moves", "4", "--unique-plan")
    assert (run.code, run.err) == (
        2,
        "aspuzzles: error: --unique-plan needs --exact (the minimum is proved first)\n",
    )


def _generated_of(cli, puzzle: str, *args: str) -> str:
    run = cli("generate", puzzle, *args)
    assert run.code == 0, run.err
    return run.out


@pytest.mark.parametrize(
    ("difficulty", "size", "pieces", "level"),
    [
        ("easy", "3x3", "3", "propagation"),
        pytest.param("normal", "4x4", "4", "trial", marks=pytest.mark.slow),
    ],
)
def test_a_graded_cake_is_unique_and_grades_as_asked(
    cli, tmp_path, difficulty, size, pieces, level
):
    args = ("--size", size, "--pieces", pieces, "--difficulty", difficulty, "--seed", "1")
    text = _generated_of(cli, "cake", *args)
    assert f"--difficulty {difficulty}" in text.splitlines()[0]
    (tmp_path / "cake.txt").write_text(text)
    assert aspuzzles.solve("cake", tmp_path / "cake.txt", count=True).count == 1
    graded = aspuzzles.grade("cake", tmp_path / "cake.txt")
    assert graded.unique and graded.grade == level, graded.summary()
    assert _generated_of(cli, "cake", *args) == text


def test_a_graded_tiles_board_grades_after_its_corner_tile_is_laid(cli, tmp_path):
    args = ("--size", "4x4", "--kinds", "6", "--difficulty", "normal", "--seed", "1")
    (tmp_path / "tiles.txt").write_text(_generated_of(cli, "tiles", *args))
    assert aspuzzles.solve("tiles", tmp_path / "tiles.txt", count=True).count == 1
    graded = aspuzzles.grade("tiles", tmp_path / "tiles.txt")
    assert graded.unique and graded.grade == "trial", graded.summary()
    assert len(graded.laid_first) == 1 and " at (1,1)" in graded.laid_first[0]
    assert sum(graded.steps.values()) == 15  # every other place is a step


def test_a_generator_past_its_time_limit_stops_with_exit_3(cli):
    args = ("--style", "animal", "--size", "4x4", "--kinds", "5", "--difficulty", "hard")
    run = cli("generate", "tiles", *args, "--seed", "1", "--timeout", "0.5")
    assert (run.code, run.out) == (3, "")
    assert re.fullmatch(
        r"aspuzzles: error: time limit of 0\.5 s reached while (generating|grounding|reasoning)\n",
        run.err,
    )
