"""Every shipped instance of every puzzle through the commands for solving by hand that
read a whole board: ``walkthrough`` and ``fix``. Defects hide in the boards a sample
skips (``test_walkthrough.py`` and ``test_fix.py`` re-prove every step and reason of a
few; here every board is walked and fixed).

Each walkthrough runs under a time limit of ``LIMIT`` seconds and is held to what the
instance's ``.expected.json`` knows of it:
- a unique solution (Haunted's ``verdict``, a ``count`` of 1: the tiles count solutions
  that differ by turning the board once): ``solved``, its entries the solution's;
- several (a ``count`` above 1): ``stuck``, naming the entries still open;
- none (``solvable: false``): ``unsolvable``, exit 1, with the entries in conflict;
- capture: its plan has the ``minimum`` moves and clears the board by the checker's
  simulator; with no plan (``minimum: null``), ``unsolvable``, exit 1.

``fix`` is given the solution as a player enters it (the web board's ``solve``) with one
entry changed to another value of its place: on a board with one solution it takes back
exactly that entry, with its reason; elsewhere it takes back at most that one. On a board
with no solution, ``unsolvable``, exit 1.

What is left out, and why: a command still under way at the limit is held only to the
guard's one line and exit code 3 (on the 2-core machine, 22 of the 78 walkthroughs: the
cakes of five pieces or more, the tiles from 5x5 up, the Haunted boards from 8x8 up, which
take from several seconds to minutes); the command is the same, and a whole walk of
each would add many minutes to the suite. Capture (played by moves) and the template (no hints)
are held to ``fix``'s refusal in one line; the template to ``walkthrough``'s too. Bare
encodings' shipped instances walk in ``test_gallery.py``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from aspuzzles.errors import ExitCode
from aspuzzles.paths import instance_files
from aspuzzles.registry import get_puzzle, module_puzzles
from aspuzzles.web import actions

from .conftest import ROOT, expected_answer
from .test_walkthrough import _concluded, _ends_at_solution, _solution_entries

#: Seconds each walkthrough may take.
LIMIT = 5.0


def _shipped() -> list[Any]:
    return [
        pytest.param(name, path, id=f"{name}/{path.name}")
        for name in module_puzzles()
        for path in instance_files(name)
    ]


def _past_the_limit(run: Any) -> bool:
    """Whether the command stopped at the limit, exit 3: with the guard's one line, or
    (a walkthrough once it takes steps) with the steps found before it, each setting
    only entries of the solution (checked by the caller's other tests)."""
    if run.code != ExitCode.TIMEOUT:
        return False
    if run.out:
        assert run.json()["status"] == "timeout"
        assert run.err.startswith(f"aspuzzles: time limit of {LIMIT:g} s reached; shown: ")
        return True
    assert re.fullmatch(rf"aspuzzles: error: time limit of {LIMIT:g} s reached [^\n]+\n", run.err)
    return True


def _solutions(expected: dict[str, Any]) -> int | None:
    """How many solutions the instance has (up to turning the board, for tiles), as its
    expected answer says; None where it does not say."""
    if expected.get("verdict") == "unique" or expected.get("solvable") is False:
        return 1 if expected.get("verdict") == "unique" else 0
    count = expected.get("count")
    return count if isinstance(count, int) else None


def _planned(cli, path: Path, data: dict[str, Any], expected: dict[str, Any]) -> None:
    if expected["minimum"] is None:
        assert data["status"] == "unsolvable" and data["steps"] == []
        return
    moves = [step["move"] for step in data["steps"]]
    assert data["status"] == "solved" and len(moves) == expected["minimum"]
    checked = cli("check", "capture", path, "; ".join(moves))
    assert checked.code == ExitCode.SOLVED, checked.out


@pytest.mark.slow
@pytest.mark.parametrize(("puzzle", "path"), _shipped())
def test_every_shipped_instance_walks_as_its_solutions_say(cli, puzzle: str, path: Path):
    run = cli("walkthrough", puzzle, path, "--format", "json", "--timeout", f"{LIMIT:g}")
    game = get_puzzle(puzzle)
    if game.hints() is None and game.plan_hints() is None:  # the template: no hints yet
        assert run.code == ExitCode.BAD_INPUT
        assert run.err == f"aspuzzles: error: puzzle '{puzzle}' gives no hints yet\n"
        return
    if _past_the_limit(run):
        if run.out and _solutions(expected_answer(path) or {}) == 1:
            _agrees_so_far(run.json(), ROOT / "encodings" / f"{puzzle}.lp")
        return
    data = run.json()
    assert run.code == (ExitCode.NO_SOLUTION if data["status"] == "unsolvable" else ExitCode.SOLVED)
    expected = expected_answer(path) or {}
    if puzzle == "capture":
        _planned(cli, path, data, expected)
        return
    solutions = _solutions(expected)
    if solutions == 0:
        assert data["status"] == "unsolvable" and data["conflict"]
    elif solutions == 1:
        _ends_at_solution(data, ROOT / "encodings" / f"{puzzle}.lp")
    elif solutions is not None:
        assert data["status"] == "stuck" and data["open"], data["status"]
    else:
        assert data["status"] in ("solved", "stuck")


def _agrees_so_far(data: dict[str, Any], encoding: Path) -> None:
    """A walkthrough cut short by the limit: what its steps set is the one solution's,
    what they rule out is not."""
    solution = _solution_entries(encoding, data)
    concluded = _concluded(data)
    assert {lit for lit in concluded if not lit.startswith("not ")} <= solution
    assert not {lit[4:] for lit in concluded if lit.startswith("not ")} & solution


def _one_changed(puzzle: str, path: Path) -> tuple[list[str], str | None]:
    """The solution as a player enters it, with the first place's entry changed to
    another value of that place, and that value; with no solution, an entry of the
    first place, and None."""
    solved = actions.solve(puzzle, path.name, [])
    cells = actions.board(puzzle, path.name, [])["cells"]
    if solved["status"] != "solved":
        return [cells[min(cells)][0]["atom"]], None
    entries = list(solved["entries"])
    for place in sorted(cells):
        atoms = [option["atom"] for option in cells[place]]
        held = [atom for atom in atoms if atom in entries]
        other = [atom for atom in atoms if atom not in entries]
        if held and other:
            return [other[0] if e == held[0] else e for e in entries], other[0]
    raise AssertionError(f"{path.name}: no place with another value")


@pytest.mark.slow
@pytest.mark.parametrize(("puzzle", "path"), _shipped())
def test_every_shipped_instance_is_fixed_as_its_solutions_say(cli, puzzle: str, path: Path):
    game = get_puzzle(puzzle)
    if game.hints() is None:  # capture, played by moves, and the template
        run = cli("fix", puzzle, path, "--progress", "x")
        assert run.code == ExitCode.BAD_INPUT and run.err.count("\n") == 1, run.err
        return
    progress, wrong = _one_changed(puzzle, path)
    text = "".join(f"{entry}.\n" for entry in progress)
    run = cli(
        "fix", puzzle, path, "--progress", text, "--format", "json", "--timeout", f"{LIMIT:g}"
    )
    if _past_the_limit(run):
        return
    data = run.json()
    if wrong is None:  # no solution
        assert (run.code, data["status"]) == (ExitCode.NO_SOLUTION, "unsolvable"), data["status"]
        return
    assert run.code == ExitCode.SOLVED, run.err
    taken = [change["entry"] for change in data["changes"]]
    if _solutions(expected_answer(path) or {}) == 1:
        assert taken == [wrong] and data["repairs"] == [[wrong]]
        # its reason: clues, or the rules alone (a tile that cannot lie there at all)
        assert data["changes"][0]["text"].startswith("take back "), data["changes"]
    else:
        assert taken in ([], [wrong]), taken
