"""Every shipped instance of every puzzle has its known answer, kept beside it.

``instances/<puzzle>/<name>.expected.json`` says what the instance's answer is, in the
terms of the result's JSON:

- ``verdict`` (and the solution's fields, such as haunted's ``grid``): asked with
  ``--unique``, the verdict and the one solution are those;
- ``count`` (and count figures such as tiles' ``count_raw``): a complete count gives
  exactly these, and where the count is 1, the solution's fields given name the one
  solution; ``count: null`` means too many to enumerate here, and ``solvable``
  says whether one solution exists;
- ``minimum``: the fewest moves of a planning puzzle (``null``: no plan at all).

Every answer the solver returns went through the puzzle's checker; the test asks the
checker again. Instances whose answer takes more than a few seconds are marked
``slow`` (``"slow": true`` in the file): ``make test-fast`` leaves them out.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from aspuzzles import get_puzzle, solve
from aspuzzles.paths import instance_files
from aspuzzles.registry import module_puzzles

from .conftest import expected_answer

LIMIT = 120


def _shipped() -> list[object]:
    cases: list[object] = []
    for name in module_puzzles():
        for path in instance_files(name):
            expected = expected_answer(path) or {}
            marks = [pytest.mark.slow] if expected.get("slow") else []
            cases.append(pytest.param(name, path, marks=marks, id=f"{name}/{path.name}"))
    return cases


@pytest.mark.parametrize(("puzzle", "path"), _shipped())
def test_shipped_instance_has_its_expected_answer(puzzle: str, path: Path) -> None:
    expected = expected_answer(path)
    assert expected is not None, f"{path.name} has no expected answer kept beside it"
    if "minimum" in expected:
        _assert_minimum(puzzle, path, expected["minimum"])
    elif "verdict" in expected:
        _assert_verdict(puzzle, path, expected)
    elif expected.get("count") is not None:
        _assert_count(puzzle, path, expected)
    else:
        result = solve(puzzle, path, timeout=LIMIT)
        assert result.status == ("solved" if expected["solvable"] else "unsatisfiable")
        _assert_checked(result)


def _assert_minimum(puzzle: str, path: Path, minimum: int | None) -> None:
    result = solve(puzzle, path, timeout=LIMIT)
    if minimum is None:
        assert result.status == "unsatisfiable" and result.complete
    else:
        assert result.status == "solved"
        assert len(result.solution.data.moves) == minimum
        _assert_checked(result)


def _assert_verdict(puzzle: str, path: Path, expected: dict) -> None:
    result = solve(puzzle, path, unique=True, timeout=LIMIT)
    assert result.verdict == expected["verdict"]
    shown = result.solution.to_dict() if result.solution else {}
    for key, value in expected.items():
        if key != "verdict":
            assert shown[key] == value, key
    _assert_checked(result)


def _assert_count(puzzle: str, path: Path, expected: dict) -> None:
    result = solve(puzzle, path, count=True, timeout=LIMIT)
    assert result.complete
    data = result.to_dict()
    figures = {key for key in expected if key in data}
    for key in figures:
        assert data[key] == expected[key], key
    if fields := set(expected) - figures - {"slow", "solvable"}:
        # A solution's own fields (tiles' placement) name the one solution there is.
        assert expected["count"] == 1
        _assert_verdict(puzzle, path, {"verdict": "unique"} | {k: expected[k] for k in fields})


def _assert_checked(result: object) -> None:
    """The solver checked its answers; the checker, asked again, finds nothing."""
    assert result.checked
    for solution in result.solutions:
        game = get_puzzle(result.puzzle)
        assert game.check(solution.instance, solution.data) == []


def test_every_puzzle_ships_instances() -> None:
    assert all(instance_files(name) for name in module_puzzles())
