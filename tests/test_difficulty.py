"""Difficulty (``grade --difficulty``, a walkthrough's ``difficulty``): the rule, and the
level read from the walkthrough's steps the same whether or not an encoding says
redundant things."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

import aspuzzles
from aspuzzles.hinting import difficulty as rule

from .conftest import ROOT

# Tatham's own Undead puzzles (MIT), as in ../shared/data/haunted/tatham-graded.tsv:
# an Easy 5x5 and a Tricky 7x7 of his generator.
TATHAM_EASY = "5x5:6,7,2,LdLbRcRcRLLcRRR,4,1,2,0,2,0,2,2,0,0,0,2,0,3,3,3,3,2,1,1"


@dataclass
class _Step:
    cost: int


def _steps(*costs: int) -> list[_Step]:
    return [_Step(cost) for cost in costs]


def test_the_score_is_the_mean_cost_beyond_a_routine_step() -> None:
    assert rule.score([]) == 0.0
    # Routine: 4 (a clue and a fact), the median (3.5, then 4) being no more. Steps
    # within it add nothing, one of 10 adds 6, one of 6 adds 2.
    assert rule.routine(_steps(3, 4, 10, 3)) == 4
    assert rule.score(_steps(3, 4, 10, 3, 6)) == pytest.approx((0 + 0 + 6 + 0 + 2) / 5)
    # A large board of routine steps stays at 0, however many.
    assert rule.score(_steps(*([3] * 500))) == 0.0
    # Where the median step costs more (a Sudoku's single: eight facts), it is the
    # routine: the same excess over it scores the same.
    assert rule.routine(_steps(8, 8, 9, 14)) == 8.5
    assert rule.score(_steps(*([8] * 500))) == 0.0
    assert rule.score(_steps(3, 3, 4, 10)) == rule.score(_steps(8, 8, 8, 14))


@pytest.mark.parametrize(
    ("costs", "level"),
    [
        ((3, 3, 3), "easy"),
        ((3, 3, 3, 11), "easy"),  # 7 beyond the routine (4) over 4 steps: 1.75
        ((3, 3, 3, 14), "normal"),  # 2.5: above 2.05, at most 2.85
        ((3, 3, 3, 16), "tricky"),  # 3
        ((8, 8, 8, 40), "tricky"),  # 32 beyond the median (8) over 4 steps: 8
        ((3, 3, 3, 40), "hard"),  # 9: above the costliest Tricky Undead of Tatham's
    ],
)
def test_levels_are_read_off_the_score(costs: tuple[int, ...], level: str) -> None:
    assert rule.difficulty(_steps(*costs)) == level


def test_grade_gives_the_walkthroughs_difficulty_when_asked(cli) -> None:
    run = cli("grade", "haunted", "gen-4x4-s2", "--difficulty", "--format", "json")
    assert run.code == 0
    graded = json.loads(run.out)
    walk = aspuzzles.walkthrough("haunted", "gen-4x4-s2")
    assert graded["difficulty"] == walk.difficulty == walk.to_dict()["difficulty"]
    assert graded["difficulty"] in rule.LEVELS
    assert graded["score"] == pytest.approx(rule.score(walk.steps), abs=0.01)
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
    low, high = sorted((rule.score(shipped.steps), rule.score(plain.steps)))
    assert high - low <= 0.35, (low, high)
    between = any(low <= threshold < high for threshold in rule.THRESHOLDS)
    assert shipped.difficulty == plain.difficulty or between
