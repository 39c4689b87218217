"""Difficulty (``grade --difficulty``, a walkthrough's ``difficulty``): the rule, and the
level read from the walkthrough's steps the same whether or not an encoding says
redundant things."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from clingo import Function, Number, Symbol, parse_term

import aspuzzles
from aspuzzles.hinting import difficulty as rule
from aspuzzles.hinting.walkthrough import CLUE_COST, routine_cost, valued_kinds

from .conftest import ROOT

# Tatham's own Undead puzzles (MIT), as in ../shared/data/haunted/tatham-graded.tsv:
# an Easy 5x5 and a Tricky 7x7 of his generator.
MONSTERS = ("ghost", "vampire", "zombie")
TATHAM_EASY = "5x5:6,7,2,LdLbRcRcRLLcRRR,4,1,2,0,2,0,2,2,0,0,0,2,0,3,3,3,3,2,1,1"


@dataclass
class _Step:
    cost: int


def _steps(*costs: int) -> list[_Step]:
    return [_Step(cost) for cost in costs]


def test_the_score_is_the_mean_cost_beyond_a_routine_step() -> None:
    assert rule.score([], 3) == 0.0
    # Steps within the routine (3) add nothing, one of 10 adds 7, one of 6 adds 3.
    assert rule.score(_steps(3, 2, 10, 3, 6), 3) == pytest.approx((0 + 0 + 7 + 0 + 3) / 5)
    # A large board of routine steps stays at 0, however many.
    assert rule.score(_steps(*([3] * 500)), 3) == 0.0
    # Where a single costs more (a Sudoku's: eight facts), it is the routine: the same
    # excess over it scores the same.
    assert rule.score(_steps(*([8] * 500)), 8) == 0.0
    assert rule.score(_steps(3, 3, 2, 10), 3) == rule.score(_steps(8, 8, 8, 15), 8)


def _entries(text: str) -> list[Symbol]:
    return [parse_term(atom) for atom in text.split()]


def _one_value_a_place(entry: Symbol) -> set[Symbol]:
    """What an entry rules out where its place takes one value: the other values."""
    *place, value = entry.arguments
    return {
        Function(entry.name, [*place, Number(other)])
        for other in range(1, 10)
        if Number(other) != value
    } | {Function(entry.name, [*place, Function(k)]) for k in MONSTERS}


def _routine(entries: list[Symbol], rules_out: Callable[[Symbol], set[Symbol]]) -> int:
    return routine_cost(valued_kinds(entries, rules_out))


def test_the_routine_is_one_clue_or_a_single() -> None:
    # A Haunted cell takes three monsters: its single (two ruled out) costs less than
    # one clue (3).
    cells = [f"monster({x},{y},{k})" for x in (1, 2) for y in (1, 2) for k in MONSTERS]
    assert _routine(_entries(" ".join(cells)), _one_value_a_place) == CLUE_COST == 3
    # A Sudoku cell takes nine digits: its single is eight facts; a 6x6 Skyscrapers
    # cell's, five; the place is every argument but the last.
    sudoku = _entries(" ".join(f"cell(1,1,{d}) cell(2,1,{d})" for d in range(1, 10)))
    assert _routine(sudoku, _one_value_a_place) == 8
    towers = _entries(" ".join(f"cell(3,4,{d})" for d in range(1, 7)))
    assert _routine(towers, _one_value_a_place) == 5
    # Where the rules let a place hold several (a Hitori's black(R,C): cells of a row,
    # not values of it), there is no single: one clue is the routine.
    assert _routine(sudoku, lambda entry: set()) == 3
    # Entries of one argument or none are places of their own; no entry, one clue.
    assert _routine(_entries("lit(1) lit(2) lit(3) lit(4) lit(5) on"), _one_value_a_place) == 3
    assert _routine([], _one_value_a_place) == 3


def test_a_kind_has_values_where_its_place_takes_one() -> None:
    # The monsters of a cell, the digits of a Sudoku cell: values, with the largest
    # place's number of them.
    cells = [f"monster({x},{y},{k})" for x in (1, 2) for y in (1, 2) for k in MONSTERS]
    sudoku = [f"cell(1,1,{d}) cell(2,1,{d})" for d in range(1, 10)]
    entries = _entries(" ".join([*cells, *sudoku]))
    assert valued_kinds(entries, _one_value_a_place) == {("monster", 3): 3, ("cell", 3): 9}
    # A Hitori's shaded(R,C): a shaded cell rules out only its neighbours, so C is a
    # column, not a value of row R; entries of one argument have no place to share.
    shaded = _entries(" ".join(f"shaded({r},{c})" for r in (1, 2) for c in (1, 2, 3)))

    def neighbours(entry: Symbol) -> set[Symbol]:
        r, c = (a.number for a in entry.arguments)
        return {Function("shaded", [Number(r), Number(c + d)]) for d in (-1, 1)}

    assert valued_kinds(shaded, neighbours) == {}
    assert valued_kinds(_entries("lit(1) lit(2) lit(3)"), _one_value_a_place) == {}


LATIN5 = """% A Latin square: every row and every column holds each number once.
n(1..5).
1 { cell(R,C,V) : n(V) } 1 :- n(R), n(C).
:- cell(R,C1,V), cell(R,C2,V), C1 < C2.
:- cell(R1,C,V), cell(R2,C,V), R1 < R2.
% A given number is where it is given.
:- given(R,C,V), not cell(R,C,V).
#show cell/3.
"""
#: Eight givens that leave one solution.
LATIN5_GIVENS = "2,3,1 2,4,3 3,1,4 3,3,2 4,1,1 4,3,4 4,4,5 5,5,5"


def test_a_walkthrough_reads_its_routine_off_the_entries_that_may_hold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert aspuzzles.walkthrough("haunted", "gen-4x4-s2").routine == 3
    (tmp_path / "encodings").mkdir()
    (tmp_path / "encodings" / "latin5.lp").write_text(LATIN5)
    (tmp_path / "instances" / "latin5").mkdir(parents=True)
    givens = "".join(f"given({g}).\n" for g in LATIN5_GIVENS.split())
    (tmp_path / "instances" / "latin5" / "one.lp").write_text(givens)
    monkeypatch.chdir(tmp_path)
    walk = aspuzzles.walkthrough("latin5", "one.lp")
    assert walk.status == "solved"
    # Five numbers a cell: a single rules out four.
    assert walk.routine == 4
    assert walk.score == pytest.approx(rule.score(walk.steps, 4))
    data = walk.to_dict()
    assert data["score"] == round(rule.score(walk.steps, 4), 2)
    # The JSON alone gives the score back: each step's cost beyond its routine.
    assert data["routine"] == 4
    beyond = [max(0, step["cost"] - data["routine"]) for step in data["steps"]]
    assert data["score"] == round(sum(beyond) / len(beyond), 2)
    # Cells black or not, named by row and column: a row's cells are not its values.
    (tmp_path / "encodings" / "blacks.lp").write_text(
        "n(1..5). { black(R,C) : n(C) } :- n(R).\n"
        ":- row(R,N), #count { C : black(R,C) } != N.\n#show black/2.\n"
    )
    (tmp_path / "instances" / "blacks").mkdir()
    (tmp_path / "instances" / "blacks" / "rows.lp").write_text("row(1,2). row(2,1).\n")
    assert aspuzzles.walkthrough("blacks", "rows.lp").routine == 3


@pytest.mark.parametrize(
    ("costs", "routine", "level"),
    [
        ((3, 3, 3), 3, "easy"),
        ((3, 3, 3, 11), 3, "easy"),  # 8 beyond the routine (3) over 4 steps: 2.0
        ((3, 3, 3, 15), 3, "normal"),  # 3.0: above 2.55, at most 3.55
        ((3, 3, 3, 18), 3, "tricky"),  # 3.75
        ((8, 8, 8, 40), 8, "tricky"),  # 32 beyond a Sudoku's single (8) over 4 steps: 8
        ((3, 3, 3, 40), 3, "hard"),  # 9.25: above the costliest Tricky Undead of Tatham's
        # each threshold is the highest score of its level: 20 steps, one costly
        ((3,) * 19 + (54,), 3, "easy"),  # 51 / 20 = 2.55
        ((3,) * 19 + (55,), 3, "normal"),  # 2.6
        ((3,) * 19 + (74,), 3, "normal"),  # 3.55
        ((3,) * 19 + (75,), 3, "tricky"),  # 3.6
        ((3,) * 19 + (163,), 3, "tricky"),  # 8.0
        ((3,) * 19 + (164,), 3, "hard"),  # 8.05
        ((), 3, "easy"),  # no step to take: the givens are the solution
        ((2, 2, 2), 3, "easy"),  # steps cheaper than the routine count as routine
    ],
)
def test_levels_are_read_off_the_score(costs: tuple[int, ...], routine: int, level: str) -> None:
    assert rule.difficulty(_steps(*costs), routine) == level


def test_grade_gives_the_walkthroughs_difficulty_when_asked(cli) -> None:
    run = cli("grade", "haunted", "gen-4x4-s2", "--difficulty", "--format", "json")
    assert run.code == 0
    graded = json.loads(run.out)
    walk = aspuzzles.walkthrough("haunted", "gen-4x4-s2")
    assert graded["difficulty"] == walk.difficulty == walk.to_dict()["difficulty"]
    assert graded["difficulty"] in rule.LEVELS
    assert graded["score"] == pytest.approx(rule.score(walk.steps, walk.routine), abs=0.01)
    # Not asked: not computed (it costs a whole walkthrough).
    run = cli("grade", "haunted", "gen-4x4-s2", "--format", "json")
    assert run.code == 0
    assert "difficulty" not in json.loads(run.out)


def test_grade_text_says_the_difficulty(cli) -> None:
    run = cli("grade", "haunted", "gen-4x4-s2", "--difficulty")
    walk = aspuzzles.walkthrough("haunted", "gen-4x4-s2")
    assert run.code == 0
    assert f"difficulty {walk.difficulty} (score" in run.out


def test_a_puzzle_with_several_solutions_has_no_difficulty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "encodings").mkdir()
    (tmp_path / "encodings" / "pairs.lp").write_text(
        "v(1..2). 1 { cell(R,C,V) : v(V) } 1 :- v(R), v(C).\n"
        ":- cell(R,C1,V), cell(R,C2,V), C1 < C2.\n"
        ":- cell(R1,C,V), cell(R2,C,V), R1 < R2.\n"
        ":- given(R,C,V), not cell(R,C,V).\n#show cell/3.\n"
    )
    (tmp_path / "instances" / "pairs").mkdir(parents=True)
    (tmp_path / "instances" / "pairs" / "open.lp").write_text("#defined given/3.\n")
    monkeypatch.chdir(tmp_path)
    walk = aspuzzles.walkthrough("pairs", "open.lp")
    assert walk.status == "stuck"
    assert walk.difficulty is None
    assert "difficulty" not in walk.to_dict()


def _plain_haunted(tmp_path: Path) -> Path:
    """The shipped Haunted encoding without its two redundant constraints (the
    differences of opposite clues, said again over seen cells and over monsters)."""
    text = (ROOT / "encodings" / "haunted.lp").read_text()
    start, end = text.index(":- opposite(L,M)"), text.index("#show monster/3.")
    assert "opposite" not in text[end:].split("#program")[0]
    plain = tmp_path / "haunted.lp"
    plain.write_text(text[:start] + text[end:])
    return plain


@pytest.mark.parametrize("instance", ["gen-4x4-s2", "gen-5x5-s3", TATHAM_EASY])
def test_redundant_constraints_barely_move_the_score(tmp_path: Path, instance: str) -> None:
    shipped = aspuzzles.walkthrough("haunted", instance)
    plain = aspuzzles.walkthrough("haunted", instance, encoding=_plain_haunted(tmp_path))
    assert plain.to_dict().get("encoding") == "edited"
    assert shipped.status == plain.status == "solved"
    # Reasons are what follows, so the steps cost nearly the same (greedy cores differ
    # a little): the scores are close, and the level is the same unless a threshold
    # lies between them.
    low, high = sorted((shipped.score or 0.0, plain.score or 0.0))
    assert high - low <= 0.35, (low, high)
    between = any(low <= threshold < high for threshold in rule.THRESHOLDS)
    assert shipped.difficulty == plain.difficulty or between
