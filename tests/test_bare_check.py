"""``aspuzzles check`` for a bare encoding: an answer (atoms, or the JSON ``solve``
prints) checked by clingo against the encoding with the instance; what is wrong named
(an entry no solution holds, with the clues that rule it out; atoms missing or in
excess against the one solution), exit 1; a valid answer exit 0."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aspuzzles.errors import ExitCode

from .conftest import bare_workspace
from .test_bare_hints import LATIN, LATIN_4
from .test_bare_view import STARS, STARS_5


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return bare_workspace(
        tmp_path,
        monkeypatch,
        {"latin": LATIN, "stars": STARS},
        {"latin": {"four.lp": LATIN_4}, "stars": {"five.lp": STARS_5}},
    )


def _answer(cli, puzzle: str, instance: str) -> list[str]:
    return cli("solve", puzzle, instance, "--format", "json").json()["solutions"][0]["atoms"]


def test_a_correct_solution_is_valid_as_atoms_and_as_json(workspace: Path, cli) -> None:
    atoms = _answer(cli, "latin", "four.lp")
    as_facts = cli("check", "latin", "four.lp", " ".join(f"{atom}." for atom in atoms))
    assert as_facts.code == ExitCode.SOLVED, as_facts.err
    assert as_facts.out.splitlines()[-1] == "latin four.lp: valid (checked)"
    (workspace / "answer.txt").write_text("".join(f"{atom}\n" for atom in atoms))
    assert cli("check", "latin", "four.lp", "answer.txt").code == ExitCode.SOLVED
    (workspace / "answer.json").write_text(cli("solve", "latin", "four.lp", "--format", "json").out)
    assert cli("check", "latin", "four.lp", "answer.json").code == ExitCode.SOLVED
    stars = _answer(cli, "stars", "five.lp")
    assert cli("check", "stars", "five.lp", ". ".join(stars) + ".").code == ExitCode.SOLVED


def test_a_wrong_entry_is_named_with_its_reasons_and_the_difference(workspace: Path, cli) -> None:
    atoms = _answer(cli, "latin", "four.lp")
    right = next(a for a in atoms if a.startswith("cell(1,3,"))
    wrong = "cell(1,3,3)" if right != "cell(1,3,3)" else "cell(1,3,2)"
    written = [wrong if atom == right else atom for atom in atoms]
    run = cli("check", "latin", "four.lp", " ".join(f"{atom}." for atom in written))
    assert run.code == ExitCode.NO_SOLUTION
    assert run.out.strip() == "latin four.lp: the solution breaks the rules"
    lines = run.err.splitlines()
    assert all(line.startswith("aspuzzles: rejected: ") for line in lines)
    assert any(f"{wrong} holds in no solution: because of the clue given(" in x for x in lines)
    assert f"aspuzzles: rejected: missing (the solution has them): {right}" in lines
    assert f"aspuzzles: rejected: in excess (the solution has none of them): {wrong}" in lines


def test_a_star_out_of_place_and_a_missing_star(workspace: Path, cli) -> None:
    stars = _answer(cli, "stars", "five.lp")
    run = cli("check", "stars", "five.lp", ". ".join(stars[:-1]) + ".")
    assert run.code == ExitCode.NO_SOLUTION
    assert f"missing (the solution has them): {stars[-1]}" in run.err
    run = cli("check", "stars", "five.lp", ". ".join([*stars, "star(1,1)"]) + ".")
    assert run.code == ExitCode.NO_SOLUTION
    assert "star(1,1) holds in no solution" in run.err


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("cell(9,9,1).", "cell(9,9,1) cannot hold in any answer"),
        ("cel(1,1,1).", "cel(1,1,1) is not an atom the answer shows (it shows cell/3)"),
    ],
)
def test_atoms_no_answer_holds_are_named(workspace: Path, cli, written: str, message: str) -> None:
    run = cli("check", "latin", "four.lp", f"cell(1,1,1). {written}")
    assert run.code == ExitCode.NO_SOLUTION
    assert message in run.err


def test_what_is_not_an_answer_is_refused_at_its_line(workspace: Path, cli) -> None:
    (workspace / "answer.txt").write_text("cell(1,1,1).\nAnswer: 1\n")
    run = cli("check", "latin", "four.lp", "answer.txt")
    assert run.code == ExitCode.BAD_INPUT
    assert run.err == "aspuzzles: error: answer.txt:2: 'Answer:' is not an atom\n"
    run = cli("check", "latin", "four.lp", '{"atoms": 3}')
    assert run.code == ExitCode.BAD_INPUT and run.err.count("\n") == 1
    # A character outside ASCII: clingo's message about it does not decode (it was an
    # internal error, exit 4).
    (workspace / "answer.txt").write_text("cell(1,1,1).\ncell(1,2,\u00b7).\n")
    run = cli("check", "latin", "four.lp", "answer.txt")
    assert run.code == ExitCode.BAD_INPUT
    assert run.err == "aspuzzles: error: answer.txt:2: 'cell(1,2,\u00b7)' is not an atom\n"


HINTS_SHOW = """\
v(1..3).
1 { star(R,C) : v(C) } 1 :- v(R).
:- star(R1,C), star(R2,C), R1 < R2.
:- given(R,C), not star(R,C).
blank(R,C) :- v(R), v(C), not star(R,C).
#show star/2.
#program hints.
#show blank/2.
"""


def test_a_show_in_the_hints_part_stays_out_of_solves_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli
) -> None:
    bare_workspace(
        tmp_path, monkeypatch, {"sb": HINTS_SHOW}, {"sb": {"a.lp": "given(1,1). given(2,2).\n"}}
    )
    run = cli("solve", "sb", "a.lp", "--format", "json")
    assert run.code == 0
    assert json.loads(run.out)["solutions"][0]["atoms"] == ["star(1,1)", "star(2,2)", "star(3,3)"]
    # The hints part's entries are still what a hint is about.
    hinted = cli("hint", "sb", "a.lp", "--all", "--format", "json")
    assert any(h["entry"].startswith("blank(") for h in json.loads(hinted.out)["hints"])


def test_a_check_clingo_cannot_finish_ends_at_the_time_limit(workspace: Path, cli) -> None:
    """A Latin square of 300 grounds billions of rules: the check stops at --timeout
    with one line naming it (exit 3), as every command that reaches clingo does."""
    (workspace / "instances" / "latin" / "huge.lp").write_text("#const n = 300.\ngiven(1,1,1).\n")
    run = cli("check", "latin", "huge.lp", "cell(1,1,1).", "--timeout", "1")
    assert run.code == ExitCode.TIMEOUT and run.out == ""
    assert run.err == "aspuzzles: error: time limit of 1 s reached while checking\n"
    facts = cli("facts", "latin", "huge.lp", "--timeout", "5", "--memory", "500")
    assert (facts.code, facts.out) == (ExitCode.SOLVED, "#const n = 300.\ngiven(1,1,1).\n")


def _rejected(run) -> list[str]:
    """What a rejected check says, line by line, without the common prefix."""
    assert run.code == ExitCode.NO_SOLUTION, run.err
    prefix = "aspuzzles: rejected: "
    assert all(line.startswith(prefix) for line in run.err.splitlines()), run.err
    return [line.removeprefix(prefix) for line in run.err.splitlines()]


def test_entries_fine_alone_but_not_together_are_named_with_the_clues_that_part_them(
    workspace: Path, cli
) -> None:
    """With a 1 given in the corner of a 3x3 square, a 1 in the middle forces the 1
    of the last row to the last corner, which a 2 there leaves no room for: each
    entry alone is in some solution, the two together in none, because of the given."""
    (workspace / "instances" / "latin" / "one.lp").write_text("#const n = 3.\ngiven(1,1,1).\n")
    run = cli("check", "latin", "one.lp", "cell(2,2,1). cell(3,3,2).")
    assert _rejected(run) == [
        "these cannot all hold together: cell(2,2,1), cell(3,3,2)"
        " (because of the clue given(1,1,1))"
    ]
    # Without the given, two 1s in one row part the rules alone; the one wrong entry
    # beside them is named first, on its own.
    (workspace / "instances" / "latin" / "free.lp").write_text("#const n = 3.\n")
    run = cli("check", "latin", "free.lp", "cell(1,1,1). cell(1,2,1).")
    assert _rejected(run) == ["these cannot all hold together: cell(1,1,1), cell(1,2,1)"]
    run = cli("check", "latin", "one.lp", "cell(1,1,2). cell(2,2,1). cell(3,3,2).")
    assert _rejected(run) == [
        "cell(1,1,2) holds in no solution: because of the clue given(1,1,1)",
        "these cannot all hold together: cell(2,2,1), cell(3,3,2)"
        " (because of the clue given(1,1,1))",
    ]


def test_an_answer_with_too_few_atoms_names_what_it_misses_twelve_at_most(
    workspace: Path, cli
) -> None:
    atoms = _answer(cli, "latin", "four.lp")
    run = cli("check", "latin", "four.lp", ". ".join(atoms[:4]) + ".")
    assert _rejected(run) == ["missing (the solution has them): " + ", ".join(atoms[4:])]
    run = cli("check", "latin", "four.lp", atoms[0] + ".")
    assert _rejected(run) == [
        "missing (the solution has them): " + ", ".join(atoms[1:13]) + " and 3 more"
    ]


def test_an_answer_of_a_puzzle_with_many_solutions_is_told_what_it_forces(
    workspace: Path, cli
) -> None:
    """Without givens a 2x2 square has two solutions; an answer naming one entry
    is incomplete, and is told the entries that entry forces."""
    (workspace / "instances" / "latin" / "two.lp").write_text("#const n = 2.\n")
    run = cli("check", "latin", "two.lp", "cell(1,1,1).")
    assert _rejected(run) == [
        "incomplete: an answer with these atoms also holds cell(1,2,2), cell(2,1,2), cell(2,2,1)"
    ]


def test_a_string_argument_is_read_whole_with_its_spaces_periods_quotes_and_brackets(
    workspace: Path, cli
) -> None:
    written = 'cell(1,2,"a \\") b. (c")'
    run = cli("check", "latin", "four.lp", f"cell(1,1,1). {written}. cell(1,3,3).")
    assert _rejected(run) == [
        f"{written} cannot hold in any answer (off the board, or a value no place takes)"
    ]


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        ("4" * 60, "4" * 60),
        ("4" * 61, "4" * 57 + "..."),
        ("(1,2)", "(1,2)"),
        ("-cell(1,1,1)", "-cell(1,1,1)"),
        ('cell(1,"ab', 'cell(1,"ab'),
    ],
)
def test_a_term_that_is_not_an_atom_is_refused_shown_short(
    workspace: Path, cli, written: str, shown: str
) -> None:
    run = cli("check", "latin", "four.lp", f"cell(1,1,1).\n{written}.")
    assert run.code == ExitCode.BAD_INPUT
    assert run.err == f"aspuzzles: error: <argument>:2: '{shown}' is not an atom\n"
