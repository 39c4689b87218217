"""The puzzle interface's contract, held by every registered puzzle: a new puzzle is
tested by being registered, as noqx tests every solver and grilops every example.

For each puzzle of the registry (its module under ``aspuzzles.puzzles``):

- every shipped instance parses, and its text board draws;
- the default instance's answer round-trips through JSON (``to_dict`` then
  ``from_dict``) and the checker accepts it back;
- an answer with one shown atom missing is rejected by the checker;
- damaged instance texts are refused with exit code 2 and one line (``tests/test_fuzz``
  holds the damage);
- the text board of each small unique instance matches its golden file in
  ``tests/golden/<puzzle>/``; ``pytest --update-golden`` rewrites them after a
  deliberate change to a drawing.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from clingo import parse_term

from aspuzzles import get_puzzle, solve
from aspuzzles.driver import load_instance
from aspuzzles.paths import instance_files
from aspuzzles.puzzle import render
from aspuzzles.registry import module_puzzles

from .conftest import expected_answer
from .test_fuzz import damage

GOLDEN = Path(__file__).resolve().parent / "golden"
#: What only a solve can say of an answer (a plan proved shortest): not read back from
#: a person's JSON, where it would be an unchecked claim.
SOLVER_CLAIMS = {"shortest"}
#: Golden boards per puzzle: the smallest unique instances, a few each, to stay quick.
GOLDEN_PER_PUZZLE = 3

PUZZLES = sorted(module_puzzles())


def _shipped() -> list[object]:
    return [
        pytest.param(name, path, id=f"{name}/{path.name}")
        for name in PUZZLES
        for path in instance_files(name)
    ]


def _golden_cases() -> list[object]:
    """Each puzzle's smallest shipped instances with exactly one answer (by file size),
    fast ones only: their text boards are the same on every machine."""
    cases = []
    for name in PUZZLES:
        unique = [
            path
            for path in instance_files(name)
            if _unique(expected := expected_answer(path) or {}) and not expected.get("slow")
        ]
        for path in sorted(unique, key=lambda path: path.stat().st_size)[:GOLDEN_PER_PUZZLE]:
            cases.append(pytest.param(name, path, id=f"{name}/{path.name}"))
    return cases


def _unique(expected: dict) -> bool:
    """Whether an instance's kept answer says it has exactly one solution."""
    return expected.get("verdict") == "unique" or expected.get("count") == 1


def test_the_registry_holds_every_shipped_puzzle():
    assert set(PUZZLES) >= {"haunted", "cake", "tiles", "capture", "geniusstar", "geniussquare"}


@pytest.mark.parametrize(("puzzle", "path"), _shipped())
def test_every_shipped_instance_parses_and_draws(puzzle, path):
    game = get_puzzle(puzzle)
    instance, name = load_instance(game, str(path))
    assert name == path.name
    unsolved = game.unsolved(instance)
    if unsolved is not None:
        assert render(game, instance, unsolved, "txt").strip()


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_an_answer_round_trips_through_json_and_is_accepted_back(puzzle):
    game = get_puzzle(puzzle)
    instance, _ = load_instance(game, None)
    result = solve(puzzle, None, timeout=60)
    assert result.status == "solved" and result.checked
    data = result.solution.to_dict()
    back = game.from_dict(instance, data, "<json>")
    assert game.check(instance, back) == []
    again = game.to_dict(instance, back)
    assert {k: v for k, v in again.items() if k not in SOLVER_CLAIMS} == {
        k: v for k, v in data.items() if k not in SOLVER_CLAIMS
    }


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_an_answer_with_an_atom_missing_is_rejected(puzzle):
    game = get_puzzle(puzzle)
    instance, _ = load_instance(game, None)
    atoms = [parse_term(atom) for atom in solve(puzzle, None, timeout=60).solution.atoms]
    assert game.check(instance, game.decode(instance, atoms)) == []
    for missing in sorted({0, len(atoms) // 2, len(atoms) - 1}):
        damaged = game.decode(instance, atoms[:missing] + atoms[missing + 1 :])
        assert game.check(instance, damaged), f"dropping {atoms[missing]} went unnoticed"


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", PUZZLES)
def test_damaged_instances_are_refused_in_one_line_with_exit_2(cli, tmp_path, puzzle):
    rng = random.Random(f"contract-{puzzle}")
    shipped = instance_files(puzzle)
    refused = 0
    for attempt in range(12):
        text = damage(rng.choice(shipped).read_text(), rng)
        path = tmp_path / f"damaged-{attempt}.txt"
        path.write_text(text)
        run = cli("solve", puzzle, path, "--timeout", "2")
        assert run.code in (0, 1, 2, 3), run.err
        if run.code == 2:
            refused += 1
            assert run.err.count("\n") == 1 and run.err.startswith("aspuzzles: error: ")
            assert "Traceback" not in run.err
    assert refused, "no damage was refused: the damage is too mild to test anything"


@pytest.mark.parametrize(("puzzle", "path"), _golden_cases())
def test_a_unique_answer_draws_as_its_golden_board(puzzle, path, request):
    result = solve(puzzle, path, unique=True, timeout=60)
    assert result.verdict == "unique"
    drawn = result.solution.text().rstrip("\n") + "\n"
    golden = GOLDEN / puzzle / (path.stem + ".txt")
    if request.config.getoption("--update-golden") or not golden.exists():
        if not request.config.getoption("--update-golden"):
            pytest.fail(f"no golden board {golden}: run pytest --update-golden to write it")
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(drawn)
    assert drawn == golden.read_text()
