"""Hints, explanations, grades and generated puzzles for encodings the tests write
themselves, with no Python module: every claim is proved again with clingo directly
(the reasons force the entry and each is needed; a conflict has no solution and each
clue is needed; a generated instance has exactly one solution)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import clingo
import pytest

from aspuzzles.errors import ExitCode

LATIN = """\
% A Latin square: every number once in each row and column; givens stay.
num(1..n).
1 { cell(R,C,V) : num(V) } 1 :- num(R), num(C).
:- cell(R,C1,V), cell(R,C2,V), C1 < C2.
:- cell(R1,C,V), cell(R2,C,V), R1 < R2.
:- given(R,C,V), not cell(R,C,V).
#show cell/3.

#program generate.
given(R,C,V) :- cell(R,C,V).
"""

FUTOSHIKI = """\
% Futoshiki: a Latin square whose signs between neighbours hold.
num(1..n).
1 { cell(R,C,V) : num(V) } 1 :- num(R), num(C).
:- cell(R,C1,V), cell(R,C2,V), C1 < C2.
:- cell(R1,C,V), cell(R2,C,V), R1 < R2.
:- given(R,C,V), not cell(R,C,V).
% less(R1,C1,R2,C2): the number at (R1,C1) is smaller than the one at (R2,C2).
:- less(R1,C1,R2,C2), cell(R1,C1,V1), cell(R2,C2,V2), V1 >= V2.
#show cell/3.

#program generate.
given(R,C,V) :- cell(R,C,V).
less(R,C,R,C+1) :- cell(R,C,V), cell(R,C+1,W), V < W.
less(R,C+1,R,C) :- cell(R,C,V), cell(R,C+1,W), V > W.
less(R,C,R+1,C) :- cell(R,C,V), cell(R+1,C,W), V < W.
less(R+1,C,R,C) :- cell(R,C,V), cell(R+1,C,W), V > W.
"""

STARS = """\
% Star Battle: one star in every row, column and region; no two stars touch.
{ star(R,C) } :- region(R,C,_).
:- region(R,_,_), #count { C : star(R,C) } != 1.
:- region(_,C,_), #count { R : star(R,C) } != 1.
:- region(_,_,G), #count { R,C : star(R,C), region(R,C,G) } != 1.
:- star(R,C), star(R+1,C+D), D = -1..1.
#show star/2.

#program hints.
% The regions are the board's shape, not clues.
structure(region,3).
% A person marks the cells without a star as well.
empty(R,C) :- region(R,C,_), not star(R,C).
#show star/2.
#show empty/2.
"""

#: A 4x4 Latin square with one solution.
LATIN_4 = """\
#const n = 4.
given(1,1,1). given(1,2,2).
given(2,3,1).
given(3,1,3). given(4,4,1).
given(2,1,4).
"""

#: Rows of regions, with one solution: stars at (1,2), (2,4), (3,1), (4,3), (5,5).
REGIONS = ["aaabb", "abbbb", "cbbbb", "cdddd", "cddee"]


def _stars_instance() -> str:
    return "".join(
        f"region({r},{c},{g}).\n" for r, row in enumerate(REGIONS, 1) for c, g in enumerate(row, 1)
    )


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with the tests' own encodings and instances, the working folder."""
    for name, program in (("latin", LATIN), ("futoshiki", FUTOSHIKI), ("stars", STARS)):
        (tmp_path / "encodings").mkdir(exist_ok=True)
        (tmp_path / "encodings" / f"{name}.lp").write_text(program)
        (tmp_path / "instances" / name).mkdir(parents=True)
    (tmp_path / "instances" / "latin" / "four.lp").write_text(LATIN_4)
    (tmp_path / "instances" / "latin" / "nine.lp").write_text("#const n = 9.\n")
    (tmp_path / "instances" / "futoshiki" / "five.lp").write_text("#const n = 5.\n")
    (tmp_path / "instances" / "stars" / "five.lp").write_text(_stars_instance())
    monkeypatch.chdir(tmp_path)
    return tmp_path


# -- clingo, directly -----------------------------------------------------------------
def _models(program: str, limit: int = 0) -> list[list[str]]:
    """The answer sets of a program (base part only), each as its shown atoms' texts."""
    control = clingo.Control([f"--models={limit}"])
    control.add("base", [], program)
    control.ground([("base", [])])
    found: list[list[str]] = []
    control.solve(on_model=lambda model: found.append([str(s) for s in model.symbols(shown=True)]))
    return found


def _instance_without(instance: str, dropped: set[str]) -> str:
    """An instance's program with some of its facts left out (written one a line or
    several a line, as the tests write them)."""
    kept = []
    for line in instance.splitlines():
        facts = [f"{fact.strip()}." for fact in line.split(".") if fact.strip()]
        if line.startswith("%"):
            continue
        if line.startswith("#const"):
            kept.append(line)
            continue
        kept += [fact for fact in facts if fact.replace(" ", "")[:-1] not in dropped]
    return "\n".join(kept) + "\n"


def _base(encoding: str) -> str:
    return encoding.split("#program")[0]


def _only_clues(instance: str, clues: list[str], every: set[str]) -> str:
    """The instance with only ``clues`` of the clues ``every`` names."""
    return _instance_without(instance, every - set(clues))


def _clue_atoms(instance: str) -> set[str]:
    return {
        fact.strip().replace(" ", "")
        for line in instance.splitlines()
        if not line.startswith(("#", "%"))
        for fact in line.split(".")
        if fact.strip()
    }


def _forced(encoding: str, instance: str, entry: str) -> bool:
    """Whether every solution holds the entry (none without it)."""
    program = _base(encoding) + instance
    return _models(program + f":- not {entry}.\n", 1) != [] and not _models(
        program + f":- {entry}.\n", 1
    )


def _unsatisfiable(program: str) -> bool:
    return _models(program, 1) == []


# -- hint -----------------------------------------------------------------------------
def test_a_hint_names_an_entry_every_solution_holds_and_a_minimal_set_of_clues(
    workspace: Path, cli
) -> None:
    run = cli("hint", "latin", "four.lp", "--format", "json")
    assert run.code == ExitCode.SOLVED
    data = run.json()
    assert data["status"] == "hint"
    [hint] = data["hints"]
    entry, reasons = hint["entry"], hint["reasons"]
    assert entry.startswith("cell(") and all(r.startswith("given(") for r in reasons)
    # Not a given one: a given's own cell is on the board already.
    assert entry.replace("cell", "given") not in _clue_atoms(LATIN_4)
    every = _clue_atoms(LATIN_4)
    assert _forced(LATIN, LATIN_4, entry)
    with_reasons = _only_clues(LATIN_4, reasons, every)
    assert _unsatisfiable(_base(LATIN) + with_reasons + f":- {entry}.\n")
    for reason in reasons:  # each reason is needed
        fewer = _only_clues(LATIN_4, [r for r in reasons if r != reason], every)
        assert not _unsatisfiable(_base(LATIN) + fewer + f":- {entry}.\n")


def test_hint_all_lists_every_open_entry_of_a_unique_puzzle(workspace: Path, cli) -> None:
    data = cli("hint", "latin", "four.lp", "--all", "--format", "json").json()
    [solution] = _models(_base(LATIN) + LATIN_4)
    givens = {atom.replace("given", "cell") for atom in _clue_atoms(LATIN_4)}
    assert {hint["entry"] for hint in data["hints"]} == set(solution) - givens


def test_a_wrong_entry_is_a_mistake_with_the_clues_that_rule_it_out(workspace: Path, cli) -> None:
    run = cli("hint", "latin", "four.lp", "--progress", "cell(1,3,3).", "--format", "json")
    data = run.json()
    assert data["mistakes"] == ["cell(1,3,3)"]
    reasons = data["mistake_reasons"]["cell(1,3,3)"]
    every = _clue_atoms(LATIN_4)
    assert _unsatisfiable(_base(LATIN) + _only_clues(LATIN_4, reasons, every) + "cell(1,3,3).")
    for reason in reasons:
        fewer = _only_clues(LATIN_4, [r for r in reasons if r != reason], every)
        assert not _unsatisfiable(_base(LATIN) + fewer + "cell(1,3,3).")
    text = cli("hint", "latin", "four.lp", "--progress", "cell(1,3,3).").out
    assert "mistake: cell(1,3,3)" in text


def test_a_progress_file_is_read_and_a_typo_is_refused_at_its_line(workspace: Path, cli) -> None:
    (workspace / "progress.lp").write_text("cell(1,3,4).\ncel(1,4,3).\n")
    run = cli("hint", "latin", "four.lp", "--progress", "progress.lp")
    assert run.code == ExitCode.BAD_INPUT
    assert run.err.strip() == (
        "aspuzzles: error: progress.lp:2: cel(1,4,3) is not an entry (entries: cell/3)"
    )
    (workspace / "progress.lp").write_text("cell(1,3,4).\nfoo :- bar.\n")
    run = cli("hint", "latin", "four.lp", "--progress", "progress.lp")
    assert run.code == ExitCode.BAD_INPUT
    assert "progress.lp:2: progress holds facts of entries only" in run.err


def test_the_hinted_cell_and_its_reasons_are_marked_on_the_grid(workspace: Path, cli) -> None:
    data = cli("hint", "latin", "four.lp", "--format", "json").json()
    entry = clingo.parse_term(data["hints"][0]["entry"])
    row, col = (arg.number for arg in entry.arguments[:2])
    text = cli("hint", "latin", "four.lp").out
    grid = text.splitlines()[-4:]
    cells = [line[i : i + 3] for line in grid for i in range(0, 12, 3)]
    marked = {(i // 4 + 1, i % 4 + 1) for i, cell in enumerate(cells) if cell.startswith("[")}
    reasons = {
        tuple(arg.number for arg in clingo.parse_term(r).arguments[:2])
        for r in data["hints"][0]["reasons"]
    }
    assert marked == {(row, col)} | reasons
    svg = cli("hint", "latin", "four.lp", "--format", "svg").out
    assert svg.startswith("<svg") and f'data-cell="{row},{col}"' in svg
    assert svg.count("#ffd27f") == 1  # the hinted cell, in its own colour


def test_declared_structure_is_never_a_reason_and_hints_part_entries_are_hinted(
    workspace: Path, cli
) -> None:
    data = cli("hint", "stars", "five.lp", "--all", "--format", "json").json()
    entries = {hint["entry"] for hint in data["hints"]}
    [solution] = _models(_base(STARS) + _stars_instance())
    assert {e for e in entries if e.startswith("star(")} == set(solution)
    assert any(e.startswith("empty(") for e in entries)
    one = cli("hint", "stars", "five.lp", "--format", "json").json()
    assert one["hints"] and one["hints"][0]["reasons"] == []  # the regions alone force it
    # Two stars in a row cannot both be: the explanation names entries, no region.
    run = cli(
        "explain", "stars", "five.lp", "--progress", "star(1,2). star(1,4).", "--format", "json"
    )
    assert run.json()["status"] == "unsolvable"
    conflict = run.json()["conflict"]
    assert conflict and set(conflict) <= {"star(1,2)", "star(1,4)"}
    assert _unsatisfiable(_base(STARS) + _stars_instance() + "".join(f"{c}." for c in conflict))


# -- explain --------------------------------------------------------------------------
def test_an_explanation_is_a_minimal_set_of_clues_that_cannot_all_hold(
    workspace: Path, cli
) -> None:
    broken = LATIN_4 + "given(4,1,1).\n"  # a second 1 in row 4
    (workspace / "instances" / "latin" / "broken.lp").write_text(broken)
    run = cli("explain", "latin", "broken.lp", "--format", "json")
    assert run.code == ExitCode.SOLVED
    data = run.json()
    assert data["status"] == "unsolvable"
    conflict = data["conflict"]
    every = _clue_atoms(broken)
    assert _unsatisfiable(_base(LATIN) + _only_clues(broken, conflict, every))
    for clue in conflict:
        fewer = _only_clues(broken, [c for c in conflict if c != clue], every)
        assert not _unsatisfiable(_base(LATIN) + fewer)
    assert cli("explain", "latin", "four.lp", "--format", "json").json()["status"] == "solvable"


def test_a_const_line_is_never_dropped(workspace: Path, cli) -> None:
    """An explanation drops clues, not the instance's constants (``#const n`` stays)."""
    (workspace / "instances" / "latin" / "two.lp").write_text(
        "#const n = 2.\ngiven(1,1,1). given(1,2,1).\n"
    )
    data = cli("explain", "latin", "two.lp", "--format", "json").json()
    assert sorted(data["conflict"]) == ["given(1,1,1)", "given(1,2,1)"]


# -- grade ----------------------------------------------------------------------------
def test_grade_of_a_bare_puzzle(workspace: Path, cli) -> None:
    data = cli("grade", "latin", "four.lp", "--format", "json").json()
    assert data["grade"] == "propagation" and data["unique"] is True
    [solution] = _models(_base(LATIN) + LATIN_4)
    givens = len(_clue_atoms(LATIN_4))
    assert data["steps"]["propagation"] == len(solution) - givens
    several = cli("grade", "latin", "nine.lp", "--format", "json").json()
    assert several["unique"] is False


# -- generate -------------------------------------------------------------------------
@pytest.mark.parametrize("name, skeleton", [("latin", "nine.lp"), ("futoshiki", "five.lp")])
def test_a_generated_puzzle_has_exactly_one_solution_and_no_spare_clue(
    workspace: Path, cli, name: str, skeleton: str
) -> None:
    run = cli("generate", name, skeleton, "--seed", "4")
    assert run.code == ExitCode.SOLVED
    encoding = LATIN if name == "latin" else FUTOSHIKI
    assert run.out.startswith(f"% aspuzzles generate {name} {skeleton} --seed 4\n")
    assert len(_models(_base(encoding) + run.out, 0)) == 1
    clues = _clue_atoms(run.out)
    assert clues
    for clue in sorted(clues)[:12]:  # none can be dropped
        assert len(_models(_base(encoding) + _instance_without(run.out, {clue}), 2)) == 2
    assert cli("generate", name, skeleton, "--seed", "4").out == run.out  # same seed
    (workspace / "g.lp").write_text(run.out)
    solved = cli("solve", name, "g.lp", "--unique")
    assert solved.code == ExitCode.SOLVED and "verdict unique" in solved.out


def test_a_generated_puzzle_walks_at_the_difficulty_asked(workspace: Path, cli) -> None:
    run = cli("generate", "futoshiki", "five.lp", "--seed", "1", "--difficulty", "easy")
    assert run.code == ExitCode.SOLVED, run.err
    (workspace / "g.lp").write_text(run.out)
    graded = cli("grade", "futoshiki", "g.lp", "--difficulty", "--format", "json").json()
    assert graded["unique"] is True and graded["difficulty"] == "easy"


def test_a_difficulty_out_of_reach_is_refused_in_one_line(workspace: Path, cli) -> None:
    """A 5x5 Futoshiki's walkthrough never needs a hard step: every draw walks easier."""
    run = cli("generate", "futoshiki", "five.lp", "--seed", "1", "--difficulty", "hard")
    assert run.code == ExitCode.BAD_INPUT
    assert run.err.count("\n") == 1
    assert "no futoshiki puzzle found whose walkthrough grades hard in 30 drawn" in run.err


def test_generate_without_a_generate_part_says_so(workspace: Path, cli) -> None:
    run = cli("generate", "stars", "five.lp")
    assert run.code == ExitCode.BAD_INPUT
    assert "encodings/stars.lp has no '#program generate.' part" in run.err
    unsolvable = "#const n = 2.\ngiven(1,1,1). given(1,2,1).\n"
    (workspace / "instances" / "latin" / "bad.lp").write_text(unsolvable)
    run = cli("generate", "latin", "bad.lp")
    assert run.code == ExitCode.NO_SOLUTION and "the skeleton has no solution" in run.err


def test_generate_holds_its_time_limit(workspace: Path) -> None:
    from .conftest import command_process

    (workspace / "instances" / "latin" / "big.lp").write_text("#const n = 40.\n")
    process = command_process("generate", "latin", "big.lp", "--timeout", "1")
    process.wait(timeout=30)
    assert process.returncode == ExitCode.TIMEOUT
    error = process.stderr.read()  # type: ignore[union-attr]
    assert error == "aspuzzles: error: time limit of 1 s reached while generating\n"


def test_the_api_answers_for_a_bare_encoding(workspace: Path) -> None:
    import aspuzzles

    report = aspuzzles.hint("latin", "four.lp", timeout=30)
    assert report.status == "hint" and json.dumps(report.to_dict())
    assert aspuzzles.grade("latin", "four.lp").grade == "propagation"


def test_progress_and_skeleton_come_from_standard_input(
    workspace: Path, cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read before the worker process starts: a forked worker's standard input is
    closed."""
    from .test_cli import standard_input

    standard_input(monkeypatch, b"cell(1,3,3).\n")
    run = cli("hint", "latin", "four.lp", "--progress", "-", "--format", "json")
    assert run.json()["mistakes"] == ["cell(1,3,3)"]
    standard_input(monkeypatch, b"#const n = 3.\n")
    run = cli("generate", "latin", "-", "--seed", "1")
    assert run.out.startswith("% aspuzzles generate latin <stdin> --seed 1\n#const n = 3.\n")
    assert len(_models(_base(LATIN) + run.out)) == 1


def test_the_api_generates_under_a_time_limit(workspace: Path) -> None:
    import aspuzzles
    from aspuzzles.errors import TimeLimit

    text = aspuzzles.generate("futoshiki", skeleton="five.lp", seed=3, timeout=60)
    assert len(_models(_base(FUTOSHIKI) + text, 2)) == 1
    (workspace / "instances" / "latin" / "big.lp").write_text("#const n = 40.\n")
    with pytest.raises(TimeLimit, match="reached while generating"):
        aspuzzles.generate("latin", skeleton="big.lp", timeout=1)


def test_ctrl_c_stops_a_bare_generator_at_once(workspace: Path) -> None:
    from .conftest import interrupted_run

    (workspace / "instances" / "latin" / "big.lp").write_text("#const n = 40.\n")
    run = interrupted_run("generate", "latin", "big.lp", after=1.5)
    assert run.returncode == ExitCode.INTERRUPTED
    assert "Traceback" not in run.stderr


def test_an_optimizing_encoding_gives_no_hints_and_says_why(workspace: Path, cli) -> None:
    (workspace / "encodings" / "cheap.lp").write_text(
        "{ pick(1..6) }.\n:- #count { X : pick(X) } < 2.\n#minimize { X : pick(X) }.\n"
        "#show pick/1.\n"
    )
    (workspace / "instances" / "cheap").mkdir()
    (workspace / "instances" / "cheap" / "six.lp").write_text("% no facts\n")
    run = cli("hint", "cheap", "six.lp")
    assert run.code == ExitCode.BAD_INPUT
    assert run.err.strip() == (
        "aspuzzles: error: puzzle 'cheap' gives no hints: its encoding optimizes, so its "
        "answers are the best ones, not every one"
    )
    run = cli("generate", "cheap", "six.lp")
    assert run.code == ExitCode.BAD_INPUT and "'cheap' generates nothing" in run.err
    assert cli("solve", "cheap", "six.lp").code == ExitCode.SOLVED  # solving is unchanged


def test_entries_leave_out_shown_givens_and_term_shows_are_told_to_declare(
    workspace: Path, cli
) -> None:
    """An answer that shows its givens again does not make them entries; one that
    shows only terms names no kind of entry, and the error says how to declare one."""
    (workspace / "encodings" / "again.lp").write_text(LATIN + "#program base.\n#show given/3.\n")
    (workspace / "instances" / "again").mkdir()
    (workspace / "instances" / "again" / "four.lp").write_text(LATIN_4)
    data = cli("hint", "again", "four.lp", "--all", "--format", "json").json()
    assert data["hints"] and all(h["entry"].startswith("cell(") for h in data["hints"])
    terms = LATIN.replace("#show cell/3.", "#show value(R,C,V) : cell(R,C,V).")
    (workspace / "encodings" / "terms.lp").write_text(terms)
    (workspace / "instances" / "terms").mkdir()
    (workspace / "instances" / "terms" / "four.lp").write_text(LATIN_4)
    run = cli("hint", "terms", "four.lp")
    assert run.code == ExitCode.BAD_INPUT
    assert "encodings/terms.lp: no kind of entry to hint" in run.err


def test_entries_that_cannot_all_hold_are_named_never_no_mistakes(workspace: Path, cli) -> None:
    """Two entries each in some solution, together in none: not 'no mistakes' but a
    contradiction naming both, with the clues that make it one (re-proved here)."""
    (workspace / "instances" / "latin" / "open.lp").write_text("#const n = 3.\ngiven(1,1,1).\n")
    progress = "cell(2,2,2). cell(2,3,2)."
    for alone in progress.split():
        single = cli("hint", "latin", "open.lp", "--progress", alone, "--format", "json").json()
        assert single["mistakes"] == [] and single["status"] != "contradiction"
    run = cli("hint", "latin", "open.lp", "--progress", progress, "--format", "json")
    assert run.code == ExitCode.NO_SOLUTION
    data = run.json()
    assert data["status"] == "contradiction" and data["mistakes"] == []
    assert sorted(data["contradiction"]["entries"]) == ["cell(2,2,2)", "cell(2,3,2)"]
    assert _unsatisfiable(_base(LATIN) + "#const n = 3.\n" + progress)
    text = cli("hint", "latin", "open.lp", "--progress", progress).out
    assert "these entries cannot all hold together:" in text
    assert "your cell(2,2,2)" in text and "your cell(2,3,2)" in text


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("cell(9,9,1).", "cell(9,9,1) is not an entry this board can hold"),
        ("cell(1,3,7).", "cell(1,3,7) is not an entry this board can hold"),
        ("cell(1,3).", "cell(1,3) is not an entry (entries: cell/3)"),
        ("cell(1,99999999999,1).", "the number 99999999999 is larger than clingo's integers hold"),
    ],
)
def test_an_entry_off_the_board_is_refused_naming_it(
    workspace: Path, cli, written: str, message: str
) -> None:
    (workspace / "progress.lp").write_text(f"cell(1,3,4).\n{written}\n")
    run = cli("hint", "latin", "four.lp", "--progress", "progress.lp")
    assert run.code == ExitCode.BAD_INPUT
    assert run.err.startswith("aspuzzles: error: progress.lp:2") and message in run.err
    assert run.err.count("\n") == 1


def test_the_boards_check_names_entries_that_cannot_all_hold(workspace: Path) -> None:
    from aspuzzles.web import actions

    (workspace / "instances" / "latin" / "open.lp").write_text("#const n = 3.\ngiven(1,1,1).\n")
    answer = actions.question("check", "latin", "open.lp", ["cell(2,2,2)", "cell(2,3,2)"])
    assert answer["message"] == ("these entries cannot all hold together: cell(2,2,2), cell(2,3,2)")
    for place in ("2,2", "2,3"):  # both drawn marked on the board
        assert re.search(f'<rect [^>]*data-cell="{place}"[^>]*stroke-width="2.5"', answer["svg"])
    alone = actions.question("check", "latin", "open.lp", ["cell(2,2,2)"])
    assert alone["message"] == "no mistakes" and "stroke-width" not in alone["svg"]
