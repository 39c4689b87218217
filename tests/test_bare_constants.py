"""An instance's ``#const`` overrides its encoding's (docs/encodings.md): the encoding
names a default size, the instance sets its own, on every command's path."""

from __future__ import annotations

from pathlib import Path

import pytest

from aspuzzles.asp import overriding

from .conftest import bare_workspace

PICK = """\
% Pick one number from 1..n; a clue given(X) says which.
#const n = 3.
num(1..n).
{ pick(X) : num(X) } = 1.
:- given(X), not pick(X).
#show pick/1.
#program generate.
given(X) :- pick(X).
"""


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return bare_workspace(
        tmp_path,
        monkeypatch,
        {"pick": PICK},
        {
            "pick": {
                "five.lp": "#const n = 5. % five numbers\n",
                "given.lp": "#const n=5.\ngiven(5).\n",
            }
        },
    )


def test_solve_counts_with_the_instance_size(workspace: Path, cli) -> None:
    run = cli("solve", "pick", "five.lp", "--count")
    assert run.code == 0, run.err
    assert "count 5," in run.out


def test_a_clue_beyond_the_encoding_default_holds(workspace: Path, cli) -> None:
    run = cli("solve", "pick", "given.lp", "--format", "json")
    assert run.code == 0, run.err
    assert run.json()["solutions"][0]["atoms"] == ["pick(5)"]
    checked = cli("check", "pick", "given.lp", "pick(5).")
    assert checked.code == 0, checked.err
    wrong = cli("check", "pick", "given.lp", "pick(4).")
    assert wrong.code != 0


@pytest.mark.parametrize("command", ["hint", "explain", "grade", "walkthrough"])
def test_questions_ground_with_the_instance_size(workspace: Path, cli, command: str) -> None:
    run = cli(command, "pick", "given.lp")
    assert run.code == 0, run.err
    assert "redefinition" not in run.err


def test_generate_keeps_the_skeleton_as_written(workspace: Path, cli) -> None:
    run = cli("generate", "pick", "five.lp", "--seed", "2")
    assert run.code == 0, run.err
    assert "#const n = 5. % five numbers" in run.out
    assert "[override]" not in run.out
    (workspace / "instances" / "pick" / "made.lp").write_text(run.out)
    solved = cli("solve", "pick", "made.lp", "--count")
    assert "count 1," in solved.out


def test_overriding_marks_only_the_encodings_constants() -> None:
    text = '#const n = 5.\n#const m = 2.\n#const k = "é". #const d = 1. [default]\n'
    made = overriding(text, "x.lp", {"n", "k", "d"})
    assert made == (
        '#const n = 5. [override]\n#const m = 2.\n#const k = "é". [override] '
        "#const d = 1. [default]\n"
    )
    assert overriding(text, "x.lp", ()) == text
