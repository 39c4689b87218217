"""``aspuzzles fix``: the fewest progress entries to take back, checked against a brute
force over every subset of the progress with clingo directly; every repair listed of
that size and valid; every reason re-proved (the encoding, its clues with the others
free, its kept entries and the entry taken back have no answer set; dropping any one
member gives one)."""

from __future__ import annotations

import random
import re
from itertools import combinations
from pathlib import Path
from typing import Any

import clingo
import pytest

from aspuzzles.errors import ExitCode
from tests.conftest import ROOT, bare_workspace
from tests.test_bare_hints import LATIN

#: A 3x3 Latin square with one given: twelve solutions, so that wrong entries can
#: clash with each other rather than with the clues alone.
LATIN_OPEN = "#const n = 3.\ngiven(1,1,1).\n"
#: A 4x4 one with two givens.
LATIN_FOUR = "#const n = 4.\ngiven(1,1,1).\ngiven(2,3,4).\n"
#: Two 1s in row 1: no solution, whatever the progress.
LATIN_CLASH = "#const n = 3.\ngiven(1,1,1).\ngiven(1,2,1).\n"


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder with a Latin square encoding of the test's own and instances."""
    files = {"open.lp": LATIN_OPEN, "four.lp": LATIN_FOUR, "clash.lp": LATIN_CLASH}
    return bare_workspace(tmp_path, monkeypatch, {"latin": LATIN}, {"latin": files})


# -- clingo, directly -----------------------------------------------------------------
def _control(
    encoding: Path, data: dict[str, Any], clues: list[str] | None = None
) -> clingo.Control:
    """The encoding (``base`` and ``hints`` parts) on the instance of a fix's JSON, with
    only ``clues`` of its clues as facts and the others free (all of them as facts
    without ``clues``), every progress entry as an atom to assume."""
    kept = set(data["clues"] if clues is None else clues)
    text = [data.get("program", "")]
    text += [f"{fact}." for fact in data["facts"]]
    text += [f"{clue}." if clue in kept else f"{{ {clue} }}." for clue in data["clues"]]
    control = clingo.Control(["--models=1"], message_limit=0)
    control.load(str(encoding))
    control.add("base", [], "\n".join(text) + "\n")
    control.ground([("base", []), ("hints", [])])
    return control


def _holds(control: clingo.Control, entries: list[str]) -> bool:
    """Whether an answer set holds every entry (an entry no rule makes: none does)."""
    atoms = control.symbolic_atoms
    symbols = [clingo.parse_term(entry) for entry in entries]
    if any(atoms[symbol] is None for symbol in symbols):
        return False
    return bool(control.solve(assumptions=[(symbol, True) for symbol in symbols]).satisfiable)


def _brute_force(encoding: Path, data: dict[str, Any]) -> tuple[int, set[frozenset[str]]]:
    """The fewest progress entries to take back, trying every subset by size, and every
    subset of that size that works."""
    control = _control(encoding, data)
    progress = data["progress"]
    for size in range(len(progress) + 1):
        works = {
            frozenset(dropped)
            for dropped in combinations(progress, size)
            if _holds(control, [entry for entry in progress if entry not in dropped])
        }
        if works:
            return size, works
    raise AssertionError("no subset of the progress works")


def _recheck(encoding: Path, data: dict[str, Any]) -> None:
    """The fix's size is the brute force's, its repairs are of that size and work (all
    of them, when it says so), and every reason is re-proved and minimal."""
    size, works = _brute_force(encoding, data)
    assert len(data["changes"]) == size
    repairs = [frozenset(repair) for repair in data["repairs"]]
    assert repairs[0] == {change["entry"] for change in data["changes"]}
    assert len(set(repairs)) == len(repairs)
    assert all(len(repair) == size for repair in repairs)
    assert set(repairs) <= works
    if data["complete"]:
        assert set(repairs) == works
    kept = [entry for entry in data["progress"] if entry not in repairs[0]]
    clues = set(data["clues"])
    for change in data["changes"]:
        because = change["because"]
        assert set(because) <= clues | set(kept), change
        reason_clues = [symbol for symbol in because if symbol in clues]
        entries = [symbol for symbol in because if symbol not in clues]
        assert not _holds(_control(encoding, data, reason_clues), [*entries, change["entry"]])
        assert change["minimal"], change  # small boards: every test within its budget
        for dropped in because:
            fewer_clues = [clue for clue in reason_clues if clue != dropped]
            fewer = [entry for entry in entries if entry != dropped]
            assert _holds(_control(encoding, data, fewer_clues), [*fewer, change["entry"]]), (
                change,
                dropped,
            )


def _progress_text(entries: list[str]) -> str:
    return "".join(f"{entry}.\n" for entry in entries)


# -- an encoding of the test's own ----------------------------------------------------
def _latin_solutions(n: int, givens: list[tuple[int, int, int]]) -> list[list[str]]:
    control = clingo.Control(["--models=0"], message_limit=0)
    instance = f"#const n = {n}.\n" + "".join(f"given({r},{c},{v}).\n" for r, c, v in givens)
    control.add("base", [], LATIN.split("#program")[0] + instance)
    control.ground([("base", [])])
    found: list[list[str]] = []
    control.solve(on_model=lambda m: found.append(sorted(str(s) for s in m.symbols(shown=True))))
    return found


@pytest.mark.parametrize("seed", range(6))
def test_latin_repairs_agree_with_a_brute_force(workspace: Path, cli, seed: int) -> None:
    """Part of a solution with 1-3 entries changed to other values: the fix's size,
    repairs and reasons against clingo alone."""
    rng = random.Random(seed)
    name, n, givens = ("open.lp", 3, [(1, 1, 1)]) if seed % 2 else ("four.lp", 4, [(1, 1, 1)])
    if name == "four.lp":
        givens.append((2, 3, 4))
    solution = rng.choice(_latin_solutions(n, givens))
    progress = rng.sample(solution, min(len(solution), 7))
    for at in rng.sample(range(len(progress)), rng.randint(1, 3)):
        r, c, v = map(int, re.findall(r"\d+", progress[at]))
        progress[at] = f"cell({r},{c},{rng.choice([x for x in range(1, n + 1) if x != v])})"
    run = cli("fix", "latin", name, "--progress", _progress_text(progress), "--format", "json")
    assert run.code == ExitCode.SOLVED, run.err
    data = run.json()
    assert data["progress"] == list(dict.fromkeys(progress))
    _recheck(workspace / "encodings" / "latin.lp", data)
    assert data["status"] == ("mistakes" if data["changes"] else "correct")


def test_entries_that_clash_with_each_other_have_several_repairs(workspace: Path, cli) -> None:
    progress = ["cell(1,2,2)", "cell(2,2,2)", "cell(3,3,3)", "cell(2,1,2)"]
    run = cli("fix", "latin", "open.lp", "--progress", _progress_text(progress), "--format", "json")
    assert run.code == ExitCode.SOLVED, run.err
    data = run.json()
    assert data["status"] == "mistakes" and data["complete"]
    assert {frozenset(r) for r in data["repairs"]} == {
        frozenset({"cell(1,2,2)", "cell(2,1,2)"}),
        frozenset({"cell(2,2,2)", "cell(3,3,3)"}),
    }
    _recheck(workspace / "encodings" / "latin.lp", data)
    text = cli("fix", "latin", "open.lp", "--progress", _progress_text(progress))
    assert text.code == ExitCode.SOLVED
    lines = text.out.splitlines()
    assert lines[0] == "latin open.lp: mistakes, 2 entries to take back (the fewest)"
    assert lines[1].startswith("take back cell(") and "ruled out by" in lines[1]
    assert "2 repairs of that size" in lines


def test_the_repairs_listed_stop_at_the_limit(workspace: Path, cli) -> None:
    """Four 1s in the corner away from the given 1: two of them go, either diagonal;
    with --repairs 1 the list is cut and says there are more."""
    progress = ["cell(2,2,1)", "cell(2,3,1)", "cell(3,2,1)", "cell(3,3,1)"]
    args = ("fix", "latin", "open.lp", "--progress", _progress_text(progress), "--format", "json")
    every = cli(*args, "--repairs", "0").json()
    assert every["complete"] and len(every["repairs"]) == 2
    _recheck(workspace / "encodings" / "latin.lp", every)
    cut = cli(*args, "--repairs", "1").json()
    assert not cut["complete"] and cut["repairs"] == every["repairs"][:1]
    assert "there are more" in cli(*args[:-2], "--repairs", "1").out


def test_a_progress_without_mistakes_has_nothing_to_take_back(workspace: Path, cli) -> None:
    run = cli("fix", "latin", "open.lp", "--progress", "cell(1,2,2).", "--format", "json")
    assert run.code == ExitCode.SOLVED
    data = run.json()
    assert data["status"] == "correct" and data["changes"] == [] and data["repairs"] == []
    assert (
        "nothing to take back" in cli("fix", "latin", "open.lp", "--progress", "cell(1,2,2).").out
    )


def test_no_solution_even_with_nothing_kept_is_unsolvable_with_exit_1(workspace: Path, cli) -> None:
    run = cli("fix", "latin", "clash.lp", "--progress", "cell(2,2,2).", "--format", "json")
    assert run.code == ExitCode.NO_SOLUTION
    data = run.json()
    assert data["status"] == "unsolvable" and data["changes"] == []
    assert sorted(data["conflict"]) == ["given(1,1,1)", "given(1,2,1)"]
    assert "no solution" in cli("fix", "latin", "clash.lp", "--progress", "cell(2,2,2).").out


def test_bad_progress_is_one_line_with_exit_2(workspace: Path, cli) -> None:
    run = cli("fix", "latin", "open.lp", "--progress", "cel(1,2,2).")
    assert run.code == ExitCode.BAD_INPUT and run.out == ""
    assert run.err.count("\n") == 1 and "cel(1,2,2) is not an entry" in run.err
    missing = cli("fix", "latin", "open.lp")
    assert missing.code == ExitCode.BAD_INPUT and "--progress" in missing.err


def test_the_api_and_an_output_file(workspace: Path, cli) -> None:
    import json

    import aspuzzles

    progress = "cell(1,2,2). cell(2,2,2)."
    target = workspace / "fix.json"
    run = cli("fix", "latin", "open.lp", "--progress", progress, "--format", "json", "-o", target)
    assert run.code == ExitCode.SOLVED and run.out == ""
    fixed = aspuzzles.fix("latin", "open.lp", progress=progress)
    assert fixed.to_dict() == json.loads(target.read_text())
    assert fixed.status == "mistakes" and "mistakes" in repr(fixed)
    assert "<svg" in fixed.svg() and "take back" in fixed._repr_html_()


def test_capture_is_refused_in_one_line(cli) -> None:
    run = cli("fix", "capture", "--progress", "x")
    assert run.code == ExitCode.BAD_INPUT
    assert run.err.startswith("aspuzzles: error: capture is played by moves")
    assert run.err.count("\n") == 1


def test_a_time_limit_ends_it_with_exit_3_and_one_line(cli) -> None:
    """At once, and while reasoning: ten mistakes on a 15x15 board take about 0.2 s
    (their reasons), past a limit of 0.05 s."""
    run = cli("fix", "haunted", "gen-15x15-s15", "--progress", "x", "--timeout", "0.001")
    assert run.code == ExitCode.TIMEOUT
    assert re.fullmatch(r"aspuzzles: error: time limit of 0\.001 s reached while \w+\n", run.err)
    true, false = _entries_of("haunted", "gen-15x15-s15")
    wrong = {re.sub(r",\w+\)$", "", entry): entry for entry in false[::7]}
    progress = [e for e in true if re.sub(r",\w+\)$", "", e) not in wrong][::2]
    progress += list(wrong.values())[:10]
    args = ("fix", "haunted", "gen-15x15-s15", "--progress", _progress_text(progress))
    run = cli(*args, "--timeout", "0.05")
    assert run.code == ExitCode.TIMEOUT and run.out == "", run.err
    assert re.fullmatch(r"aspuzzles: error: time limit of 0\.05 s reached while \w+\n", run.err)


# -- shipped puzzles ------------------------------------------------------------------
def _haunted_solution(cli, instance: str) -> list[str]:
    grid = cli("solve", "haunted", instance, "--format", "json").json()["solutions"][0]["grid"]
    names = {"G": "ghost", "V": "vampire", "Z": "zombie"}
    return [
        f"monster({r},{c},{names[ch]})"
        for r, row in enumerate(grid, 1)
        for c, ch in enumerate(row, 1)
        if ch in names
    ]


@pytest.mark.parametrize(
    ("instance", "seed"), [("gen-4x4-s2", 1), ("gen-5x5-s3", 2), ("gen-5x5-s3", 3)]
)
def test_haunted_mistakes_are_found_and_proved(cli, instance: str, seed: int) -> None:
    rng = random.Random(seed)
    solution = _haunted_solution(cli, instance)
    progress = rng.sample(solution, min(len(solution), 8))
    wrong = set()
    for at in rng.sample(range(len(progress)), rng.randint(1, 3)):
        kind = progress[at].split(",")[-1][:-1]
        other = rng.choice([k for k in ("ghost", "vampire", "zombie") if k != kind])
        progress[at] = progress[at].replace(kind, other)
        wrong.add(progress[at])
    run = cli(
        "fix", "haunted", instance, "--progress", _progress_text(progress), "--format", "json"
    )
    assert run.code == ExitCode.SOLVED, run.err
    data = run.json()
    assert data["status"] == "mistakes"
    # One solution: the wrong entries, and only they, are to be taken back.
    assert {change["entry"] for change in data["changes"]} == wrong
    assert data["repairs"] == [[c["entry"] for c in data["changes"]]] and data["complete"]
    _recheck(ROOT / "encodings" / "haunted.lp", data)
    text = cli("fix", "haunted", instance, "--progress", _progress_text(progress)).out
    assert "take back cell (" in text and "the only repair of that size" in text


def test_a_correct_haunted_progress_is_correct(cli) -> None:
    progress = _progress_text(_haunted_solution(cli, "gen-4x4-s2")[:5])
    run = cli("fix", "haunted", "gen-4x4-s2", "--progress", progress, "--format", "json")
    assert run.code == ExitCode.SOLVED and run.json()["status"] == "correct"


def _entries_of(puzzle: str, instance: str) -> tuple[list[str], list[str]]:
    """A solution's entries and the entries it does not hold, as the reasoner grounds
    them (the test's input only: the fix is checked against clingo directly)."""
    from aspuzzles.hinting import ground_instance
    from aspuzzles.hinting.grounding import loaded
    from aspuzzles.registry import get_puzzle

    game = get_puzzle(puzzle)
    parsed, _ = loaded(game, instance)
    reasoner = ground_instance(game, parsed, None).reasoner
    found = reasoner.one_solution([])
    assert found is not None
    true = sorted(str(entry) for entry in found[1])
    return true, sorted(str(e) for e in reasoner.entries if str(e) not in set(true))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("puzzle", "instance"),
    [
        ("cake", "unique-4x4-4-pieces"),
        ("tiles", "seed-big-cats-3x3"),
        ("geniussquare", "roll-b2-d6-c3-f2-f1-d2-f5"),
        ("geniusstar", "1 10 16 29 33 38 39"),
    ],
)
def test_other_puzzles_with_hints_are_fixed(cli, puzzle: str, instance: str) -> None:
    rng = random.Random(7)
    true, false = _entries_of(puzzle, instance)
    progress = rng.sample(true, min(len(true), 6)) + rng.sample(false, 2)
    run = cli("fix", puzzle, instance, "--progress", _progress_text(progress), "--format", "json")
    assert run.code == ExitCode.SOLVED, run.err
    data = run.json()
    assert data["status"] in ("mistakes", "correct")
    _recheck(ROOT / "encodings" / f"{puzzle}.lp", data)


def test_fix_asks_under_the_conservative_configuration_unless_the_puzzle_names_one() -> None:
    from aspuzzles.hinting.fixing import ground_for_repair
    from aspuzzles.hinting.grounding import ground_instance, loaded
    from aspuzzles.registry import get_puzzle

    # Each grounding kept in a name while its configuration is read: a Control's
    # configuration is a view into it.
    haunted = get_puzzle("haunted")
    board = loaded(haunted, "gen-4x4-s2")[0]
    repairing = ground_for_repair(haunted, board).reasoner.control
    assert repairing.configuration.configuration == "frumpy"
    # Hints and walkthroughs keep clingo's own choice.
    hinting = ground_instance(haunted, board, None).reasoner.control
    assert hinting.configuration.configuration == "auto"
    # A puzzle that names a configuration keeps its options (the square's: no restarts).
    square = get_puzzle("geniussquare")
    roll = loaded(square, "roll-b2-d6-c3-f2-f1-d2-f5")[0]
    rolling = ground_for_repair(square, roll).reasoner.control
    assert str(rolling.configuration.solver.restarts) == "0"
