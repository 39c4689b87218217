"""Walkthroughs: every step proved again with clingo directly (the encoding, only the
step's clues, the other clues free, its earlier literals and the negation of its
conclusion have no answer set; dropping any one clue or earlier literal gives one),
every earlier literal concluded before it is used, and the end the puzzle's solution."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import clingo
import pytest

import aspuzzles
from aspuzzles.errors import ExitCode
from tests.conftest import (
    ROOT,
    bare_workspace,
    command_process,
    interrupted_run,
    long_plan,
)
from tests.test_bare_hints import LATIN, LATIN_4, _base, _unsatisfiable

#: A Latin square with so few givens that it has several solutions.
LATIN_OPEN = "#const n = 3.\ngiven(1,1,1).\n"
#: Two 1s in row 4: no solution.
LATIN_CLASH = LATIN_4 + "given(4,2,1).\n"


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder with a Latin square encoding of the test's own and instances."""
    files = {"four.lp": LATIN_4, "open.lp": LATIN_OPEN, "clash.lp": LATIN_CLASH}
    return bare_workspace(tmp_path, monkeypatch, {"latin": LATIN}, {"latin": files})


# -- clingo, directly -----------------------------------------------------------------
def _program(data: dict[str, Any], clues: list[str], after: list[str], negated: list[str]) -> str:
    """The walkthrough's instance with only ``clues`` assumed (every other clue free,
    as the reasoner leaves it), the ``after`` literals required, and the conjunction of
    ``negated`` forbidden."""
    kept = set(clues)
    text = [data.get("program", "")]
    text += [f"{fact}." for fact in data["facts"]]
    text += [f"{clue}." if clue in kept else f"{{ {clue} }}." for clue in data["clues"]]
    for literal in after:
        text.append(f":- {literal[4:]}." if literal.startswith("not ") else f":- not {literal}.")
    if negated:
        text.append(":- " + ", ".join(negated) + ".")  # ``not a`` is a body literal as written
    return "\n".join(text) + "\n"


def _satisfiable(encoding: Path, program: str) -> bool:
    """Whether the encoding (its ``base`` and ``hints`` parts, which define the entries
    a person fills in) with the program has an answer set: clingo alone."""
    control = clingo.Control(["--models=1"], message_limit=0)
    control.load(str(encoding))
    control.add("base", [], program)
    control.ground([("base", []), ("hints", [])])
    return bool(control.solve().satisfiable)


def _proved_by_each(
    data: dict[str, Any],
    encoding: Path,
    because: list[str],
    after: list[str],
    literals: list[str],
    number: int,
) -> None:
    """The literals follow from the clues ``because`` and the literals ``after`` (none:
    these cannot all hold), and dropping any one of them leaves them unproved."""
    assert not _satisfiable(encoding, _program(data, because, after, literals)), number
    for dropped in because:
        fewer = [clue for clue in because if clue != dropped]
        assert _satisfiable(encoding, _program(data, fewer, after, literals)), (number, dropped)
    for dropped in after:
        fewer = [lit for lit in after if lit != dropped]
        assert _satisfiable(encoding, _program(data, because, fewer, literals)), (number, dropped)


def _recheck(data: dict[str, Any], encoding: Path) -> None:
    """Every step re-proved and each member of its reason needed, every earlier literal
    concluded before it is used (or known at the start)."""
    known = set(data["start"])
    for number, step in enumerate(data["steps"], 1):
        because, after, literals = step["because"], step["after"], step["literals"]
        assert set(after) <= known, (number, set(after) - known)
        assert set(because) <= set(data["clues"])
        assert step["cost"] >= 3 * len(because) + len(after)
        _proved_by_each(data, encoding, because, after, literals, number)
        for case in step.get("cases", []):
            assumed = [case["assume"]]
            assert not _satisfiable(
                encoding, _program(data, case["because"], case["after"] + assumed, [])
            )
            _recheck_chain(data, encoding, known | set(assumed), case.get("steps", []))
        assert not set(literals) & known, number  # a step concludes what was not known
        known |= set(literals)


def _recheck_chain(
    data: dict[str, Any], encoding: Path, known: set[str], links: list[dict[str, Any]]
) -> None:
    """A case's chain: each link follows from what it names (known before the case,
    the case's assumption, or an earlier link's), each member needed; the last link,
    with no literals, names what cannot hold together."""
    for number, link in enumerate(links, 1):
        because, after, literals = link["because"], link["after"], link["literals"]
        assert set(after) <= known, (number, set(after) - known)
        assert bool(literals) == (number < len(links)), number
        _proved_by_each(data, encoding, because, after, literals, number)
        assert link["text"].startswith("then ")
        known |= set(literals)


def _start_follows(data: dict[str, Any], encoding: Path) -> None:
    """The literals known at the start follow from the rules with every clue free (a
    walkthrough without progress or an anchor: cautious consequences), but for the
    entries that clues state outright; the values ruled out, from the rules and those
    entries (brave consequences)."""
    kinds = {re.match(r"(not )?(\w+)\(", lit).group(2) for lit in data["start"]}
    found = {}
    entries = [literal for literal in data["start"] if not literal.startswith("not ")]
    for mode, required in (("cautious", []), ("brave", entries)):
        control = clingo.Control(["--models=0", f"--enum-mode={mode}"], message_limit=0)
        control.load(str(encoding))
        control.add("base", [], _program(data, [], required, []))
        control.ground([("base", []), ("hints", [])])
        with control.solve(yield_=True) as models:
            for model in models:  # the last model holds the consequences
                found[mode] = {str(s) for s in model.symbols(atoms=True) if s.name in kinds}
    # An entry a clue states outright (cell(1,1,1) for given(1,1,1)) is given: on the
    # board from the start, as a person sees it.
    stated = {clue[clue.index("(") :] for clue in data["clues"] if "(" in clue}
    for literal in data["start"]:
        if literal.startswith("not "):
            assert literal[4:] not in found["brave"], literal
        elif literal[literal.index("(") :] not in stated:
            assert literal in found["cautious"], literal


def _solution_entries(encoding: Path, data: dict[str, Any]) -> set[str]:
    """The entries (the walkthrough's own kinds) of the one answer set of the instance."""
    kinds = {re.match(r"(not )?(\w+)\(", lit).group(2) for lit in data["start"] + _concluded(data)}
    control = clingo.Control(["--models=2"], message_limit=0)
    control.load(str(encoding))
    # An anchored puzzle (tiles) lays its anchor first: one of a class of solutions.
    control.add("base", [], _program(data, data["clues"], data.get("laid_first", []), []))
    control.ground([("base", []), ("hints", [])])
    models: list[set[str]] = []
    control.solve(
        on_model=lambda m: models.append({str(s) for s in m.symbols(atoms=True) if s.name in kinds})
    )
    assert len(models) == 1
    return models[0]


def _concluded(data: dict[str, Any]) -> list[str]:
    return [literal for step in data["steps"] for literal in step["literals"]]


def _ends_at_solution(data: dict[str, Any], encoding: Path) -> set[str]:
    """The walkthrough sets every entry as the one solution does: its true literals are
    the solution's entries (less those given at the start), and every other entry it
    names is ruled out."""
    assert data["status"] == "solved"
    solution = _solution_entries(encoding, data)
    literals = data["start"] + _concluded(data)
    true = {lit for lit in literals if not lit.startswith("not ")}
    false = {lit[4:] for lit in literals if lit.startswith("not ")}
    assert true == solution
    assert not false & solution
    return true


# -- an encoding of the test's own ---------------------------------------------------
def test_a_latin_square_walkthrough_is_proved_step_by_step(workspace: Path, cli) -> None:
    run = cli("walkthrough", "latin", "four.lp", "--format", "json")
    assert run.code == ExitCode.SOLVED, run.err
    data = run.json()
    assert data["puzzle"] == "latin" and data["status"] == "solved"
    assert set(data["clues"]) == {
        "given(1,1,1)", "given(1,2,2)", "given(2,3,1)", "given(3,1,3)", "given(4,4,1)",
        "given(2,1,4)",
    }  # fmt: skip
    encoding = workspace / "encodings" / "latin.lp"
    _recheck(data, encoding)
    _start_follows(data, encoding)
    true = _ends_at_solution(data, encoding)
    [solution] = [set(m) for m in _models_of(LATIN, LATIN_4)]
    assert true == solution
    for step in data["steps"]:
        assert step["text"] and isinstance(step["cost"], int)


def _models_of(encoding: str, instance: str) -> list[list[str]]:
    control = clingo.Control(["--models=0"])
    control.add("base", [], _base(encoding) + instance)
    control.ground([("base", [])])
    found: list[list[str]] = []
    control.solve(on_model=lambda m: found.append([str(s) for s in m.symbols(shown=True)]))
    return found


def test_the_first_step_is_the_cheapest_and_steps_never_conclude_twice(
    workspace: Path, cli
) -> None:
    data = cli("walkthrough", "latin", "four.lp", "--format", "json").json()
    costs = [step["cost"] for step in data["steps"]]
    assert costs[0] == min(costs)
    concluded = _concluded(data)
    assert len(concluded) == len(set(concluded))


def test_text_numbers_the_steps_with_their_reasons(workspace: Path, cli) -> None:
    run = cli("walkthrough", "latin", "four.lp")
    assert run.code == ExitCode.SOLVED
    lines = run.out.splitlines()
    assert lines[0].startswith("latin four.lp: solved, ")
    assert re.match(r"\s+1\. cell\(\d,\d,\d\).*because of .*\[cost \d+\]", lines[1]), lines[1]
    assert any(line.lstrip().startswith("2. ") for line in lines)


def test_several_solutions_end_stuck_naming_the_open_cells(workspace: Path, cli) -> None:
    run = cli("walkthrough", "latin", "open.lp", "--format", "json")
    assert run.code == ExitCode.SOLVED
    data = run.json()
    assert data["status"] == "stuck"
    assert data["open"] and all(entry.startswith("cell(") for entry in data["open"])
    _recheck(data, workspace / "encodings" / "latin.lp")
    text = cli("walkthrough", "latin", "open.lp").out
    assert "logic stops here" in text and "still open: cell(" in text


def test_no_solution_is_unsolvable_with_exit_1(workspace: Path, cli) -> None:
    run = cli("walkthrough", "latin", "clash.lp", "--format", "json")
    assert run.code == ExitCode.NO_SOLUTION
    data = run.json()
    assert data["status"] == "unsolvable" and data["steps"] == []
    conflict = data["conflict"]
    program = _base(LATIN) + "#const n = 4.\n" + "".join(f"{clue}.\n" for clue in conflict)
    assert _unsatisfiable(program)
    assert "no solution" in cli("walkthrough", "latin", "clash.lp").out


def test_progress_is_where_the_walkthrough_starts(workspace: Path, cli) -> None:
    first = cli("walkthrough", "latin", "four.lp", "--format", "json").json()
    made = first["steps"][0]["literals"][0]
    assert not made.startswith("not ")
    run = cli("walkthrough", "latin", "four.lp", "--progress", f"{made}.", "--format", "json")
    data = run.json()
    assert made in data["start"] and made not in _concluded(data)
    _recheck(data, workspace / "encodings" / "latin.lp")
    assert len(data["steps"]) <= len(first["steps"])


def test_output_file_and_the_api(workspace: Path, cli) -> None:
    import aspuzzles

    target = workspace / "walk.json"
    run = cli("walkthrough", "latin", "four.lp", "--format", "json", "-o", target)
    assert run.code == ExitCode.SOLVED and run.out == ""
    written = json.loads(target.read_text())
    walk = aspuzzles.walkthrough("latin", "four.lp")
    assert walk.to_dict()["steps"] == written["steps"]
    assert walk.status == "solved" and "solved" in repr(walk)


def test_interrupted_in_process_it_returns_the_steps_taken(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An interrupt between steps (Ctrl-C in a notebook, where no limit puts the walk in
    a child of its own) ends the walk with the steps taken: status interrupted, the
    open entries named, the text saying where it stopped, no difficulty; and a grade
    asked for its difficulty with the grade found before it."""
    import importlib

    import aspuzzles

    walking = importlib.import_module("aspuzzles.hinting.walkthrough")  # not the function
    taken = walking._Walker.step
    calls = []

    def step_then_stop(walker: Any) -> Any:
        calls.append(1)
        if len(calls) > 3:
            raise KeyboardInterrupt
        return taken(walker)

    monkeypatch.setattr(walking._Walker, "step", step_then_stop)
    walk = aspuzzles.walkthrough("latin", "four.lp")
    assert walk.status == "interrupted" and len(walk.steps) == 3 and walk.difficulty is None
    assert walk.open and walk.to_dict()["open"] == [str(entry) for entry in walk.open]
    assert walk.lines()[-1].startswith("Ctrl-C stopped the walkthrough here; still open: ")
    calls.clear()  # a grade keeps what it found before, the difficulty not reached
    graded = aspuzzles.grade("latin", "four.lp", difficulty=True)
    assert (graded.status, graded.walked, graded.difficulty) == ("interrupted", 3, None)
    assert graded.grade == aspuzzles.grade("latin", "four.lp").grade


# -- a puzzle played by moves: its proved-shortest plan ----------------------------------
def test_capture_walks_through_its_proved_shortest_plan(cli) -> None:
    run = cli("walkthrough", "capture", "wight")
    assert run.code == ExitCode.SOLVED, run.err
    assert run.out.startswith("capture wight.txt: solved\n6 moves (the fewest possible)\n")
    assert " 1. 7 1 Up: 3 tiles in 1 phase" in run.out  # as solve draws a plan
    data = cli("walkthrough", "capture", "wight", "--format", "json").json()
    assert (data["status"], data["plan"]) == ("solved", "the fewest moves")
    facts = cli("facts", "capture", "wight").out.split()
    assert [f"{clue}." for clue in data["clues"]] == facts  # as aspuzzles facts prints them
    moves = [step["move"] for step in data["steps"]]
    assert len(moves) == 6 and data["steps"][0]["text"] == "move 7 1 Up"
    atoms = [atom for step in data["steps"] for atom in step["literals"]]
    assert all(re.fullmatch(r"swap\(\d+,\d+,\d+\)", atom) for atom in atoms), atoms
    for number, step in enumerate(data["steps"]):  # each after the moves before it
        assert step["after"] == atoms[:number] and step["because"] == [] and step["cost"] == 1
    # The plan clears the board by the checker's own simulator.
    checked = cli("check", "capture", "wight", "; ".join(moves))
    assert checked.code == ExitCode.SOLVED and "valid (checked)" in checked.out


def test_capture_walks_on_from_the_moves_made(cli) -> None:
    whole = cli("walkthrough", "capture", "wight", "--format", "json").json()
    moves = [step["move"] for step in whole["steps"]]
    run = cli("walkthrough", "capture", "wight", "--progress", moves[0], "--format", "json")
    data = run.json()
    assert data["start"] == moves[:1] and len(data["steps"]) == len(moves) - 1
    checked = cli(
        "check", "capture", "wight", "; ".join(moves[:1] + [s["move"] for s in data["steps"]])
    )
    assert checked.code == ExitCode.SOLVED
    text = cli("walkthrough", "capture", "wight", "--progress", "\n".join(moves)).out
    assert (
        text
        == "capture wight.txt: solved from the board after the 6 moves made: the board is clear\n"
    )
    stuck = cli("walkthrough", "capture", "wight", "--progress", "6 2 Left")
    assert stuck.code == ExitCode.NO_SOLUTION
    assert stuck.out.endswith("the moves made can no longer lead to a clear board\n")
    bad = cli("walkthrough", "capture", "wight", "--progress", "0 0 Up")
    assert bad.code == ExitCode.BAD_INPUT and bad.err.count("\n") == 1 and "illegal" in bad.err


def test_capture_with_no_plan_is_unsolvable_with_exit_1(cli) -> None:
    run = cli("walkthrough", "capture", "unsolvable-planted", "--format", "json")
    assert run.code == ExitCode.NO_SOLUTION
    assert run.json()["status"] == "unsolvable" and run.json()["steps"] == []
    text = cli("walkthrough", "capture", "unsolvable-planted").out
    assert text == "capture unsolvable-planted.txt: unsolvable\nno plan clears this board\n"


def test_capture_draws_its_plan_a_board_a_move(cli, tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    import aspuzzles

    walk = aspuzzles.walkthrough("capture", "wight")
    drawn = ET.fromstring(cli("walkthrough", "capture", "wight", "--format", "svg").out)
    frames = [e for e in drawn.iter() if e.get("data-frame") is not None]
    assert [f.get("data-frame") for f in frames] == [str(n) for n in range(7)]
    texts = [e.text for e in drawn.iter() if e.get("data-frame-text") == "2"]
    assert texts == ["move 2 of 6", "move 6 2 Right"]
    assert ">after 6 2 Right</text>" in ET.tostring(frames[2], encoding="unicode")
    page = tmp_path / "plan.html"
    run = cli("walkthrough", "capture", "wight", "--format", "html", "-o", page)
    assert run.code == ExitCode.SOLVED and page.read_text().count('<li class="walk-frame"') == 7
    assert "move 6 6 Down" in walk._repr_html_() and repr(walk).startswith("<capture wight.txt")


def test_capture_shows_the_plan_a_time_limit_left_unproved(monkeypatch) -> None:
    """A plan found from above before the time limit, not yet proved the shortest, is
    what the walkthrough found: its moves, neither called nor drawn the fewest, with
    what the search had proved, as ``solve`` shows it."""
    import aspuzzles
    from aspuzzles.hinting import questions
    from aspuzzles.puzzle import Solution

    solved = questions.solve_instance
    proved = "proved: none within 1 move; a plan of 3 moves found, 2 moves unanswered"

    def cut_short(game: Any, parsed: Any, *args: Any, **options: Any) -> Any:
        result = solved(game, parsed, *args, **options)
        found = result.solution
        unproved = game.strategy(parsed).planning().unproved(found.data)
        result.solutions = [Solution(found.puzzle, found.instance, unproved, found.atoms)]
        result.status, result.progress = "timeout", proved
        return result

    monkeypatch.setattr(questions, "solve_instance", cut_short)
    walk = aspuzzles.walkthrough("capture", "planted-3-moves", timeout=9)
    assert walk.status == "timeout" and len(walk.steps) == 3 and not walk.shortest
    head = f"capture planted-3-moves.txt: timeout, 3 moves, not proved the fewest, {proved}"
    assert walk.lines()[0] == head
    assert walk.text().startswith("capture planted-3-moves.txt: timeout, proved: none")
    assert "3 moves\n" in walk.text() and "fewest" not in walk.text().split("\n", 1)[1]
    data = walk.to_dict()
    assert (data["status"], data["plan"], data["progress"]) == ("timeout", "moves", proved)
    assert [step["move"] for step in data["steps"]] == [step.move for step in walk.steps]
    assert walk.frames()[0].text.endswith(f"the time limit stopped the search ({proved})")


@pytest.mark.slow
def test_capture_cut_by_the_time_limit_says_what_its_search_proved(cli) -> None:
    run = cli("walkthrough", "capture", long_plan(), "--timeout", "2", "--format", "json")
    assert run.code == ExitCode.TIMEOUT, run.err
    said = "time limit of 2 s reached; shown: what was found before it (0 steps)"
    assert run.err == f"aspuzzles: {said}\n"
    data = run.json()
    assert (data["status"], data["plan"], data["steps"]) == ("timeout", "moves", [])
    assert re.fullmatch(r"proved: [^\n]+", data["progress"]), data["progress"]


@pytest.mark.slow
def test_capture_interrupted_says_what_its_search_proved() -> None:
    run = interrupted_run("walkthrough", "capture", str(long_plan()), after=2)
    assert run.returncode == ExitCode.INTERRUPTED, run.stderr
    assert re.fullmatch(
        r"capture marb_arboreth\.txt: interrupted, proved: [^\n]+\n",
        run.stdout,
    ), run.stdout
    assert run.stderr.endswith("interrupted; shown: what was found before it (0 steps)\n")


def test_capture_keeps_its_time_limit(cli) -> None:
    """Past the limit before the search began: one line; once it searched, what it
    proved by then (exit 3 either way)."""
    run = cli("walkthrough", "capture", "wight", "--timeout", "0.05")
    assert run.code == ExitCode.TIMEOUT
    if run.out:
        assert re.fullmatch(r"capture wight\.txt: timeout, proved: [^\n]*\n", run.out), run.out
        said = "time limit of 0.05 s reached; shown: what was found before it (0 steps)"
        assert run.err == f"aspuzzles: {said}\n"
        return
    assert re.fullmatch(
        r"aspuzzles: error: time limit of 0\.05 s reached "
        r"(while (loading|solving)|before a shortest plan was proved)\n",
        run.err,
    ), run.err


def test_a_time_limit_before_the_first_step_ends_it_with_exit_3_and_one_line(cli) -> None:
    run = cli("walkthrough", "haunted", "gen-15x15-s15", "--timeout", "0.05")
    assert run.code == ExitCode.TIMEOUT and run.out == ""
    assert re.fullmatch(
        r"aspuzzles: error: time limit of 0\.05 s reached while (loading|grounding|reasoning)\n",
        run.err,
    ), run.err


def test_a_time_limit_during_the_steps_keeps_and_shows_those_found(cli, tmp_path) -> None:
    """A Killer's walkthrough takes minutes: cut by ``--timeout``, the steps found
    before it are the answer (exit 3), each re-proved, the entries still open named,
    no difficulty given; the SVG of those steps is drawn after the limit all the same
    (drawing a bare encoding's boards takes longer than the limit leaves)."""
    instance = str(ROOT / "instances" / "killer" / "gen-9x9-s1.lp")
    run = cli("walkthrough", "killer", instance, "--timeout", "6", "--format", "json")
    assert run.code == ExitCode.TIMEOUT and run.out, run.err
    data = run.json()
    assert data["status"] == "timeout" and "difficulty" not in data
    assert data["steps"], "no step found in 6 s"
    assert run.err == (
        "aspuzzles: time limit of 6 s reached; shown: what was found before it "
        f"({len(data['steps'])} step{'s' * (len(data['steps']) != 1)})\n"
    )
    _recheck(data, ROOT / "encodings" / "killer.lp")
    concluded = {lit for step in data["steps"] for lit in step["literals"]}
    known = {lit.removeprefix("not ") for lit in [*data["start"], *concluded]}
    assert data["open"] and not set(data["open"]) & known
    picture = tmp_path / "walk.svg"
    run = cli("walkthrough", "killer", instance, "--timeout", "4", "--format", "svg", "-o", picture)
    assert run.code == ExitCode.TIMEOUT, run.err
    assert picture.read_text().count("<svg") > 1


#: What a grade whose walkthrough was cut short says beside it.
GRADE_CUT_SHORT = "shown: the grade; the difficulty's walkthrough was not finished\n"


def test_a_grade_cut_short_keeps_the_grade_without_a_difficulty(cli) -> None:
    """A difficulty reads a whole walkthrough (a Slitherlink's takes 15-30 s, its
    grade 0.3 s): cut short by the limit, the grade found before it is shown (exit 3),
    the same as without ``--difficulty``, the difficulty said not reached."""
    asked = ("grade", "slitherlink", "gen-7x7-s1")
    run = cli(*asked, "--difficulty", "--timeout", "4", "--format", "json")
    assert run.code == ExitCode.TIMEOUT, run.err
    assert run.err == f"aspuzzles: time limit of 4 s reached; {GRADE_CUT_SHORT}"
    data = run.json()
    assert data == cli(*asked, "--format", "json").json() | {
        "status": "timeout",
        "walked": data["walked"],
    }
    run = cli(*asked, "--difficulty", "--timeout", "4")
    assert run.code == ExitCode.TIMEOUT, run.err
    assert run.out.startswith("slitherlink gen-7x7-s1.lp: search (") and run.out.endswith(
        " of its walkthrough taken)\n"
    ), run.out
    graded = aspuzzles.grade("slitherlink", difficulty=True, timeout=4)
    assert (graded.status, graded.difficulty, graded.score) == ("timeout", None, None)


@pytest.mark.slow
def test_ctrl_c_ends_a_grade_with_the_grade_found() -> None:
    run = interrupted_run("grade", "slitherlink", "--difficulty", after=3)
    assert run.returncode == ExitCode.INTERRUPTED, run.stderr
    assert run.stderr == f"aspuzzles: interrupted; {GRADE_CUT_SHORT}"
    assert re.fullmatch(
        r"slitherlink gen-7x7-s1\.lp: search \([^;]+; difficulty not reached: \d+ steps? of "
        r"its walkthrough taken\)\n",
        run.stdout,
    ), run.stdout


# -- shipped puzzles ------------------------------------------------------------------
def _shipped(cli, puzzle: str, instance: str) -> dict[str, Any]:
    run = cli("walkthrough", puzzle, instance, "--format", "json")
    assert run.code == ExitCode.SOLVED, run.err
    data = run.json()
    _recheck(data, ROOT / "encodings" / f"{puzzle}.lp")
    if "laid_first" not in data:
        _start_follows(data, ROOT / "encodings" / f"{puzzle}.lp")
    return data


def test_a_small_haunted_board_walks_to_its_solution(cli) -> None:
    data = _shipped(cli, "haunted", "gen-4x4-s2")
    true = _ends_at_solution(data, ROOT / "encodings" / "haunted.lp")
    solved = cli("solve", "haunted", "gen-4x4-s2", "--format", "json").json()
    grid = solved["solutions"][0]["grid"]
    names = {"G": "ghost", "V": "vampire", "Z": "zombie"}
    expected = {
        f"monster({r},{c},{names[ch]})"
        for r, row in enumerate(grid, 1)
        for c, ch in enumerate(row, 1)
        if ch in names
    }
    assert true == expected
    text = data["steps"][0]["text"]
    assert "cell (" in text and "the clue" in text


#: A Singles (Hitori) puzzle of Tatham's own generator at Easy (MIT; the first of
#: bench/data/singles-graded.tsv): his solver needs no case split, only a cell between
#: two equal numbers, a pair's third, corners and a white cell's last way out.
SINGLES_EASY = "446655415363146346562615532126121554"


def singles_easy_board(folder: Path) -> Path:
    """SINGLES_EASY as the facts of ``encodings/hitori.lp``, written in ``folder``."""
    cells = (f"number({i // 6 + 1},{i % 6 + 1},{d})." for i, d in enumerate(SINGLES_EASY))
    board = folder / "singles-easy.lp"
    board.write_text("#const n = 6.\n" + "\n".join(cells) + "\n")
    return board


def test_a_hitori_step_made_cheap_by_an_unshaded_cell_is_taken_when_it_is(
    cli, tmp_path: Path
) -> None:
    """Once a cell is unshaded, the same number in its column is shaded at the cost of
    two clues and that cell: a reason other than the one the candidate had at the start
    (eight clues, a case split). A kind without values (``shaded(R,C)``: C is a column)
    is costed afresh where such a step appears, so the walkthrough takes it then:
    none of its steps needs a case split, as none of Tatham's solver's does."""
    data = _shipped(cli, "hitori", str(singles_easy_board(tmp_path)))
    assert not [step["text"] for step in data["steps"] if "cases" in step]
    assert max(step["cost"] for step in data["steps"]) <= 12
    at = {lit: n for n, step in enumerate(data["steps"]) for lit in step["literals"]}
    assert at["shaded(3,2)"] > at["unshaded(1,2)"]
    shaded = data["steps"][at["shaded(3,2)"]]
    assert shaded["because"] == ["number(1,2,4)", "number(3,2,4)"]
    assert shaded["after"] == ["unshaded(1,2)"] and shaded["cost"] == 7
    _ends_at_solution(data, ROOT / "encodings" / "hitori.lp")


def test_a_promise_is_shrunk_under_a_ceiling_only_while_it_may_come_under_it() -> None:
    """A reason shrunk with ``above`` stops (``_Costlier``) once the members proved
    needed cost more than that: what they cost is a lower bound of the whole
    shrinking's cost, and what is left still proves the candidate (a seed to go on
    from). With ``above`` at the whole reason's cost it runs to the end, unchanged."""
    import importlib

    from aspuzzles.hinting.grounding import ground_instance, loaded
    from aspuzzles.registry import get_puzzle

    walking = importlib.import_module("aspuzzles.hinting.walkthrough")
    game = get_puzzle("haunted")
    ground = ground_instance(game, loaded(game, "gen-5x5-s3")[0], None)
    reasoner = ground.reasoner
    found = reasoner.one_solution([])
    assert found is not None
    walker = walking._Walker(ground, [], {(entry, True) for entry in found[1]})
    clues = [(clue, True) for clue in reasoner.clues]
    # A cell whose reason from the clues alone takes three clues or more.
    literal, whole = next(
        (candidate, reason)
        for candidate in walker.ordered()
        if (reason := walker._within(candidate, clues, [], walking.BUDGET)).exact
        and len(reason.clues) >= 3
    )
    above = whole.cost - walking.CLUE_COST - 1
    # Deletion tests counted as asked (some are answered by answer sets kept from
    # earlier questions, with no solve call).
    asked = []
    ask = walker._core
    walker._core = lambda *question: asked.append(1) or ask(*question)
    with pytest.raises(walking._Costlier) as stopped:
        walker._within(literal, clues, [], walking.BUDGET, above)
    tests = len(asked)
    assert above < stopped.value.bound <= whole.cost
    negated = [(literal[0], not literal[1])]
    members = stopped.value.members
    assert walker._core(negated, members, None) is not None
    assert set(whole.clues) <= {symbol for symbol, _ in members}
    # The members proved needed: each one's deletion leaves an answer set, and what
    # they cost is the bound.
    needed = stopped.value.needed
    assert walking.CLUE_COST * len(needed) == stopped.value.bound
    for member in needed:
        assert walker._core(negated, [m for m in members if m != member], None) is None
    # Tested first in the next promise, they prove it costlier in fewer tests.
    asked.clear()
    with pytest.raises(walking._Costlier) as again:
        walker._within(literal, clues, [], walking.BUDGET, above, needed)
    assert len(asked) < tests
    assert again.value.bound > above
    assert walker._within(literal, clues, [], walking.BUDGET, whole.cost) == whole


@pytest.mark.slow
@pytest.mark.parametrize(
    ("puzzle", "instance"),
    [("haunted", "gen-5x5-s3"), ("cake", "unique-4x4-4-pieces"), ("tiles", "seed-big-cats-3x3")],
)
def test_shipped_puzzles_walk_to_their_solution(cli, puzzle: str, instance: str) -> None:
    data = _shipped(cli, puzzle, instance)
    _ends_at_solution(data, ROOT / "encodings" / f"{puzzle}.lp")


@pytest.mark.slow
def test_the_genius_squares_roll_with_several_solutions_ends_stuck(cli) -> None:
    data = _shipped(cli, "geniussquare", "roll-b2-d6-c3-f2-f1-d2-f5")
    assert data["status"] == "stuck" and data["open"]
    assert all(entry.startswith("covered(") for entry in data["open"])


def test_a_costly_step_becomes_a_case_split_that_clingo_refutes(
    workspace: Path, cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the threshold lowered, steps costlier than it are case splits where an entry
    fails at once when assumed: "if it held, these could not all hold"."""
    import importlib

    walking = importlib.import_module("aspuzzles.hinting.walkthrough")
    monkeypatch.setattr(walking, "CASE_THRESHOLD", 2)
    data = cli("walkthrough", "latin", "four.lp", "--format", "json").json()
    split = [step for step in data["steps"] if "cases" in step]
    assert split
    for step in split:
        [case] = step["cases"]
        assert [f"not {case['assume']}"] == step["literals"][:1]
        assert case["because"] == step["because"] and case["after"] == step["after"]
        assert "held, these could not all hold" in step["text"]
    # In a Latin square each clue is one given: alone it concludes nothing the rules
    # do not, so a case says what cannot hold and has no chain to follow.
    assert not any("steps" in case for step in split for case in step["cases"])
    _recheck(data, workspace / "encodings" / "latin.lp")
    _ends_at_solution(data, workspace / "encodings" / "latin.lp")


def test_a_case_is_followed_clue_by_clue_to_its_contradiction(
    cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A case split's chain: one clue at a time, what follows inside the case, each
    link re-proved by clingo with each member needed (``_recheck``), to the clues that
    cannot hold with what the case reached; in the text, under its step."""
    import importlib

    walking = importlib.import_module("aspuzzles.hinting.walkthrough")
    monkeypatch.setattr(walking, "CASE_THRESHOLD", 6)
    data = _shipped(cli, "haunted", "gen-4x4-s2")
    cases = [case for step in data["steps"] for case in step.get("cases", [])]
    chains = [case["steps"] for case in cases if "steps" in case]
    assert chains
    for chain in chains:
        assert len(chain) >= 2 and any(link["because"] for link in chain[:-1])
        assert all(link["literals"] for link in chain[:-1]) and not chain[-1]["literals"]
        assert chain[-1]["text"].startswith("then these could not all hold: ")
        assert re.match(r"then (not )?cell \(\d,\d\): an? \w+, because of ", chain[0]["text"])
    text = cli("walkthrough", "haunted", "gen-4x4-s2").out
    first = chains[0][0]["text"]
    assert re.search(r"held, these could not all hold: .*\n +" + re.escape(first), text)


def test_a_walkthrough_is_the_same_on_every_run(workspace: Path) -> None:
    """In processes of their own (symbols hash differently in each): the same steps."""
    runs = []
    for _ in range(2):
        process = command_process("walkthrough", "latin", "four.lp", "--format", "json")
        out, err = process.communicate(timeout=120)
        assert process.returncode == ExitCode.SOLVED, err
        runs.append(out)
    assert runs[0] == runs[1]


@pytest.mark.slow
def test_ctrl_c_before_the_first_step_stops_a_walkthrough_at_once() -> None:
    """Before its first step (grounding, the consequences) there is nothing to show:
    one line, exit 130, within the time the guard gives the work to hand over what it
    found (``guard.WRAP_UP``). A 10x10 tiles board takes seconds to get there (the
    15x15 Haunted board, once used here, takes its first step within 0.3 s on a fast
    machine)."""
    import time

    started = time.perf_counter()
    run = interrupted_run("walkthrough", "tiles", "gen-e2-10x10-16-kinds", after=0.3)
    assert run.returncode == ExitCode.INTERRUPTED
    assert run.stderr == "aspuzzles: interrupted\n" and run.stdout == ""
    assert time.perf_counter() - started < 5


@pytest.mark.slow
def test_ctrl_c_ends_a_walkthrough_with_the_steps_it_found() -> None:
    """Ctrl-C while steps are taken: they are shown (here as JSON, each re-proved), the
    entries still open named, exit 130."""
    import time

    instance = str(ROOT / "instances" / "killer" / "gen-9x9-s1.lp")
    started = time.perf_counter()
    run = interrupted_run("walkthrough", "killer", instance, "--format", "json", after=5)
    assert run.returncode == ExitCode.INTERRUPTED, run.stderr
    assert time.perf_counter() - started < 15  # answered at once, not walked to its end
    data = json.loads(run.stdout)
    assert data["status"] == "interrupted" and data["steps"] and "difficulty" not in data
    count = len(data["steps"])
    assert run.stderr == (
        f"aspuzzles: interrupted; shown: what was found before it ({count} "
        f"step{'s' * (count != 1)})\n"
    )
    _recheck(data, ROOT / "encodings" / "killer.lp")
    known = {lit.removeprefix("not ") for step in data["steps"] for lit in step["literals"]}
    assert data["open"] and not set(data["open"]) & known
