"""Every shipped instance of every puzzle and of the gallery's encodings through every
endpoint of the web board, against the command line: defects hide in the boards a
sample skips.

For each instance, ``board``, ``check``, ``hint``, ``explain``, ``grade``,
``walkthrough``, ``fix`` (the solution with one entry changed, as
``test_instances_by_hand`` makes it; puzzles with entries) and ``solve`` are asked
over HTTP of a real server (``aspuzzles serve`` on loopback, its work in worker
processes under a time limit of ``LIMIT`` seconds), and each answer is held to the
command line's:

- an answer (200) is the command's ``--format json`` answer, drawing aside (``check``
  with no progress is the hint's answer; ``solve`` the same solutions and status;
  ``board`` has no command: its picture and places are checked for what they must hold);
- ``board`` and ``solve`` are asked of a server with the default limit: every board
  must open (a 10x10 tiles board grounds 40,000 entries, about 2.5 s idle and past
  ``LIMIT`` on a loaded machine), and every instance must solve;
- a refusal (400, 422) is the command's: the same one line, a non-zero exit code;
- a time limit (504) is the guard's one line, naming the limit and the phase; a
  walkthrough cut by it answers with the steps found before it (200, status
  ``timeout``), each agreeing with the one solution, a board drawn for each. A solve
  may start workers of its own: the request's worker is allowed children (a 6x6 tiles
  board takes about 13 s).

What is left out, and why:

- the command is not run again where the web reached its time limit (a 504, or a
  walkthrough cut short): both run the
  same guarded work, and a second run past a limit would only measure the machine
  (the instances that reach it are the large cakes' and tiles' hints and checks, which
  reason over every solution: see ``HEAVY``);
- bare encodings other than the gallery's (``encodings/`` of the checkout, asked here
  like the puzzles): their own tests (``test_web.py``, ``test_bare_hints.py``) write
  them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from aspuzzles.paths import encoding_names, instance_files
from aspuzzles.registry import get_puzzle, module_puzzles

from .conftest import ROOT, expected_answer
from .test_instances_by_hand import _agrees_so_far, _one_changed
from .test_web import _post, _started, _without_drawing

#: Seconds each request's work may take: long enough for every answer the command line
#: gives in a few seconds, short enough that the large boards' whole-solution questions
#: end at the limit instead of holding the run.
LIMIT = 8.0
#: The answers that reach the limit on this machine (the rest answer well within it).
HEAVY = "the large cakes' and tiles' hints, checks and grades reason over every solution"


def _shipped() -> list[Any]:
    """Every shipped instance: the puzzles' and the gallery's (bare encodings)."""
    gallery = [name for name in encoding_names() if name not in module_puzzles()]
    return [
        pytest.param(name, path, id=f"{name}/{path.name}")
        for name in [*module_puzzles(), *gallery]
        for path in instance_files(name)
    ]


@pytest.fixture(scope="module")
def limited() -> Iterator[Any]:
    served = _started(LIMIT)
    yield served
    served.shutdown()
    served.server_close()


@pytest.fixture(scope="module")
def patient() -> Iterator[Any]:
    """A server with the default time limit, for ``board`` and ``solve``: every board
    opens and every instance solves, however loaded the machine."""
    served = _started(60)
    yield served
    served.shutdown()
    served.server_close()


def _same_refusal(data: dict[str, Any], run: Any) -> None:
    assert run.code != 0
    assert run.err.strip() == f"aspuzzles: error: {data['error']}"


def _timed_out(data: dict[str, Any]) -> None:
    assert data["error"].startswith(f"time limit of {LIMIT:g} s reached while ")
    assert "\n" not in data["error"]


def _without_frames(data: dict[str, Any]) -> dict[str, Any]:
    """A walkthrough's or a fix's answer as the command line gives it: without what the
    page adds (the frames, the places and atoms to mark, its line, the drawing)."""
    added = ("frames", "message", "take_back", "places", "svg")
    return {key: value for key, value in data.items() if key not in added}


def _held_to_the_command(action: str, status: int, data: dict[str, Any], run: Any) -> None:
    if status == 504:
        _timed_out(data)
    elif status == 200:
        assert run.code in (0, 1), run.err
        assert _without_drawing(data) == run.json()
    else:
        assert status in (400, 422), (action, status, data)
        _same_refusal(data, run)


def _walked_and_fixed(
    limited: Any, cli: Any, body: dict[str, Any], command: list[str], path: Path
) -> None:
    """``walkthrough`` from the start, and ``fix`` of the solution with one entry
    changed (puzzles with entries), each as the command line answers it."""
    status, walked = _post(limited, "walkthrough", body)
    if walked.get("status") == "timeout":  # the steps found before the limit
        _agrees_so_far(walked, ROOT / "encodings" / f"{body['puzzle']}.lp")
    else:
        run = cli("walkthrough", *command) if status != 504 else None
        _held_to_the_command("walkthrough", status, _without_frames(walked), run)
    if status == 200:  # the start and a board after each step (or move), each drawn
        assert len(walked["frames"]) == len(walked["steps"]) + 1
        assert all(frame["svg"].startswith("<svg") for frame in walked["frames"])
    if get_puzzle(body["puzzle"]).hints() is None:  # played by moves, or no hints
        return
    progress, _ = _one_changed(body["puzzle"], path)
    status, fixed = _post(limited, "fix", {**body, "progress": progress})
    text = "".join(f"{entry}.\n" for entry in progress)
    run = cli("fix", *command, "--progress", text) if status != 504 else None
    _held_to_the_command("fix", status, _without_frames(fixed), run)


@pytest.mark.slow
@pytest.mark.parametrize(("puzzle", "path"), _shipped())
def test_every_endpoint_answers_as_the_command_line(limited, patient, cli, puzzle: str, path: Path):
    body = {"puzzle": puzzle, "instance": path.name, "progress": []}
    command = [puzzle, path.name, "--format", "json", "--timeout", str(LIMIT * 4)]

    status, board = _post(patient, "board", body)  # no whole-solution question: it answers
    assert status == 200, board
    assert board["svg"].startswith("<svg") and board["svg"].rstrip().endswith("</svg>")

    answers = {}
    for action in ("hint", "explain", "grade"):
        status, data = _post(limited, action, body)
        answers[action] = (status, data)
        run = cli(action, *command) if status != 504 else None
        _held_to_the_command(action, status, data, run)

    status, checked = _post(limited, "check", body)
    hint_status, hinted = answers["hint"]
    if 504 in (status, hint_status):  # near the limit, one of the two may pass it
        assert {status, hint_status} <= {200, 504}, HEAVY
        if status == 504:
            _timed_out(checked)
    elif status == 200:  # check is the hint's question, its mistakes drawn
        assert _without_drawing(checked) == _without_drawing(hinted)
        if get_puzzle(puzzle).hints() is None:  # played by moves: how many are left
            assert re.fullmatch(
                r"no mistakes: \d+ moves? left at best|no plan clears this board",
                checked["message"],
            )
        elif hinted["status"] == "unsolvable":
            assert checked["message"] == "the puzzle has no solution"
        else:
            assert checked["message"] == "no mistakes"
    elif status == 504:
        _timed_out(checked)
    else:
        assert checked["error"] == hinted["error"]

    _walked_and_fixed(limited, cli, body, command, path)

    status, solved = _post(patient, "solve", body)  # every instance solves, some in seconds
    run = cli("solve", puzzle, path.name, "--format", "json")
    assert status == 200, solved
    expected = run.json()
    assert solved["status"] == expected["status"]
    assert len(solved.get("solutions") or []) == len(expected.get("solutions") or [])
    known = expected_answer(path) or {}
    if known.get("verdict") == "unique" or known.get("count") == 1:  # else races may differ
        assert solved.get("solutions") == expected.get("solutions")
    if solved["status"] == "solved":
        said = "checked" if get_puzzle(puzzle).has_checker else "not checked"  # a bare encoding
        assert solved["message"] == f"solved ({said})" and solved["svg"].startswith("<svg")
