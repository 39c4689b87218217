"""The driver: modes, time limits, statistics, errors, bare encodings, facts export."""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import clingo
import pytest

from aspuzzles import CheckFailed, InputError, driver, solve
from aspuzzles.driver import run_job
from aspuzzles.driver.jobs import Bounds, Job, Outcome, Reporter, progress_text
from aspuzzles.driver.run import CHECKED_PAST_THE_LIMIT
from aspuzzles.driver.searches import plan_searches
from aspuzzles.driver.workers import run_in_workers
from aspuzzles.puzzles.haunted.gameid import encode_game_id
from aspuzzles.puzzles.haunted.generate import clued, random_board
from aspuzzles.strategy import Incremental

from .conftest import ROOT

LATIN = """\
% A Latin square: every row and column holds 1..n once.
val(1..n).
1 { cell(R,C,V) : val(V) } 1 :- val(R), val(C).
:- cell(R,C,V), cell(R,C2,V), C < C2.
:- cell(R,C,V), cell(R2,C,V), R < R2.
:- given(R,C,V), not cell(R,C,V).
#show cell/3.
"""


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    """A folder with its own encodings/ and instances/, as a user starting a puzzle."""
    (tmp_path / "encodings").mkdir()
    (tmp_path / "instances" / "latin").mkdir(parents=True)
    (tmp_path / "encodings" / "latin.lp").write_text(LATIN)
    (tmp_path / "instances" / "latin" / "three.lp").write_text(
        "#const n = 3.\ngiven(1,1,1). given(1,2,2). given(2,1,2).\n"
    )
    (tmp_path / "instances" / "latin" / "clash.lp").write_text(
        "#const n = 2.\ngiven(1,1,1). given(1,2,1).\n"
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(workspace: Path, name: str, program: str) -> None:
    (workspace / "encodings" / f"{name}.lp").write_text(program)


def test_bare_encoding_solves_and_draws_cells_as_a_grid(workspace, cli):
    run = cli("solve", "latin", "instances/latin/three.lp", "--unique")
    assert run.code == 0, run.err
    assert run.out.splitlines()[:3] == ["1 2 3", "2 3 1", "3 1 2"]
    assert "verdict unique" in run.out and "not checked" in run.out


def test_bare_encoding_json_lists_atoms_and_grid(workspace, cli):
    data = cli("solve", "latin", "three", "--format", "json").json()
    assert data["solutions"][0]["grid"] == ["1 2 3", "2 3 1", "3 1 2"]
    assert "cell(1,1,1)" in data["solutions"][0]["atoms"]


def test_bare_atoms_are_listed_by_name_with_numbers_in_numeric_order(workspace):
    write(
        workspace, "order", 'r(1..11). b("x"). a(2,10). a(2,9). #show r/1. #show a/2. #show b/1.\n'
    )
    atoms = solve("order").solutions[0].data.atoms
    assert atoms[:3] == ("a(2,9)", "a(2,10)", 'b("x")')
    assert atoms[3:] == tuple(f"r({n})" for n in range(1, 12))


def test_a_bare_instance_includes_files_beside_it_as_clingo_would(workspace, cli):
    """clingo is given the instance's text, not its file, so it would look for an
    included file in the working folder only; beside the instance is where it is."""
    folder = workspace / "instances" / "latin"
    (folder / "givens.lp").write_text("given(1,1,1). given(1,2,2). given(2,1,2).\n")
    (folder / "split.lp").write_text(
        '#const n = 3.\n% #include "nothing.lp".\n#include "givens.lp".\n'
    )
    assert solve("latin", "split.lp", unique=True).verdict == "unique"
    (folder / "givens.lp").write_text("given(1,1,1).\ngivén(1,2,2).\n")
    run = cli("solve", "latin", "split.lp")
    assert run.code == 2
    assert "error: instances/latin/givens.lp:2:4: unexpected character 'é'" in run.err


def test_included_files_are_found_where_clingo_finds_them(workspace, monkeypatch, cli):
    """clingo 5.8 looks in the working folder first, then beside the including file,
    then in CLINGOPATH's folders; a file found there is checked like any other."""
    folder = workspace / "instances" / "latin"
    (folder / "givens.lp").write_text("given(1,1,2).\n")
    (workspace / "givens.lp").write_text("given(1,1,3).\n")  # the working folder wins
    (folder / "first.lp").write_text('#const n = 3.\n#include "givens.lp".\n')
    assert "cell(1,1,3)" in solve("latin", "first.lp").solutions[0].data.atoms
    shared = workspace / "shared"
    shared.mkdir()
    (shared / "rules.lp").write_text("ok :- cell(1,1,_).\n#show ok/0.\nçok.\n")
    write(workspace, "pathed", '#include "rules.lp".\n' + LATIN)
    monkeypatch.setenv("CLINGOPATH", str(shared))
    run = cli("solve", "pathed", "instances/latin/three.lp")
    assert run.code == 2 and "rules.lp:3:1: unexpected character 'ç'" in run.err


def test_bare_encoding_without_a_solution_exits_1(workspace, cli):
    run = cli("solve", "latin", "clash")
    assert run.code == 1 and "unsatisfiable" in run.out


def test_bare_puzzle_checks_an_empty_answer_as_incomplete(workspace, cli):
    run = cli("check", "latin", "instances/latin/three.lp", '{"atoms": []}')
    assert run.code == 1 and "rejected: missing (the solution has them): cell(1,1,1)" in run.err


def test_bare_puzzle_is_listed(workspace, cli):
    run = cli("list")
    assert "latin: latin (bare encoding)" in run.out and "three.lp" in run.out


HANOI = """\
% Towers of Hanoi in clingo's incremental mode (after clingo's own example): disk 1 is
% the largest, and disk D may sit only on a larger disk (a smaller number).
#include <incmode>.
#program base.
on(D,P,0) :- init_on(D,P).
#program step(t).
1 { move(D,P,t) : disk(D), peg(P) } 1.
move(D,t) :- move(D,_,t).
on(D,P,t) :- move(D,P,t).
on(D,P,t) :- on(D,P,t-1), not move(D,t).
blocked(D-1,P,t) :- on(D,P,t-1).
blocked(D-1,P,t) :- blocked(D,P,t), disk(D).
:- move(D,P,t), blocked(D-1,P,t).
:- move(D,t), on(D,P,t-1), blocked(D,P,t).
:- disk(D), not 1 { on(D,P,t) } 1.
#program check(t).
:- query(t), goal_on(D,P), not on(D,P,t).
#show move/3.
"""


def hanoi_workspace(workspace: Path, disks: int = 3, extra: str = "") -> None:
    write(workspace, "hanoi", HANOI)
    folder = workspace / "instances" / "hanoi"
    folder.mkdir()
    (folder / "tower.lp").write_text(
        f"peg(a;b;c). disk(1..{disks}). init_on(1..{disks},a). goal_on(1..{disks},c).\n{extra}"
    )


def replay_hanoi(atoms: list[str], disks: int) -> dict[str, list[int]]:
    """The pegs after the plan's moves, each move checked against the rules."""
    pegs: dict[str, list[int]] = {"a": list(range(1, disks + 1)), "b": [], "c": []}
    moves = sorted(clingo.parse_term(atom).arguments for atom in atoms)
    for disk, peg, _time in sorted(moves, key=lambda move: move[2].number):
        source = next(name for name, stack in pegs.items() if disk.number in stack)
        assert pegs[source][-1] == disk.number, "only the top disk moves"
        assert not pegs[peg.name] or pegs[peg.name][-1] < disk.number, "onto a larger disk"
        pegs[source].pop()
        pegs[peg.name].append(disk.number)
    return pegs


def test_an_incremental_encoding_grows_its_horizon_as_clingos_incmode_does(workspace, cli):
    """`#include <incmode>` alone solves `base` through the API (clingo 5.8 runs no loop
    there): the driver grows the horizon, and the first with an answer is the shortest
    plan (three disks: 7 moves, and only one plan of 7)."""
    hanoi_workspace(workspace)
    result = solve("hanoi", "tower.lp", unique=True)
    assert (result.status, result.verdict, result.horizon) == ("solved", "unique", 7)
    atoms = result.solutions[0].data.atoms
    assert len(atoms) == 7
    assert replay_hanoi(list(atoms), 3) == {"a": [], "b": [], "c": [1, 2, 3]}
    run = cli("solve", "hanoi", "tower.lp")
    assert run.code == 0 and "solved, horizon 7, 1 solution" in run.out
    assert cli("solve", "hanoi", "tower.lp", "--format", "json").json()["horizon"] == 7


def test_incmode_constants_bound_and_start_the_horizon(workspace, cli):
    hanoi_workspace(workspace)
    run = cli("solve", "hanoi", "tower.lp", "--clingo=-c", "--clingo=imax=7")
    assert run.code == 1 and "unsatisfiable" in run.out  # horizons 0-6 only
    assert cli("solve", "hanoi", "tower.lp", "--clingo=-c", "--clingo=imax=8").code == 0
    # imin=10: clingo solves horizons 0-9 before it may stop, so the answer is a plan of
    # nine moves (seven, and a disk moved away and back).
    result = solve("hanoi", "tower.lp", clingo_args=["-c", "imin=10"])
    assert result.horizon == 9 and len(result.solutions[0].data.atoms) == 9
    # With a limit the search runs in a worker process: the plan goes there with the job.
    run = cli("solve", "hanoi", "tower.lp", "--timeout", "5", "--clingo=-c", "--clingo=imin=4")
    assert run.code == 0 and "horizon 7" in run.out


@pytest.mark.parametrize(
    ("constant", "message"),
    [
        ("imax=0", "encodings/hanoi.lp: imax=0 allows no horizon at all: give imax 1 or more"),
        ("imax=x", "encodings/hanoi.lp: imax must be a whole number of horizons, not x"),
        ("imin=-1", "encodings/hanoi.lp: imin must be a whole number of horizons, not -1"),
        ('istop="UNSAT"', 'istop="UNSAT" is not supported: the search stops at the first'),
    ],
)
def test_incmode_constants_clingo_would_misread_are_refused(workspace, cli, constant, message):
    hanoi_workspace(workspace)
    run = cli("solve", "hanoi", "tower.lp", "--clingo=-c", f"--clingo={constant}")
    assert run.code == 2 and message in run.err and run.err.count("\n") == 1


@pytest.mark.slow
def test_an_incremental_encoding_without_imax_is_cut_short_by_the_limit(workspace, cli):
    hanoi_workspace(workspace, extra="goal_on(1,b).\n")  # disk 1 cannot be on two pegs
    run = cli("solve", "hanoi", "tower.lp", "--timeout", "1")
    assert run.code == 3 and "proved: none within" in run.out


def test_the_answer_at_a_horizon_with_an_objective_is_its_best(workspace):
    write(
        workspace,
        "sum",
        "#include <incmode>.\n#program base.\nval(0,0).\n#program step(t).\n"
        "1 { add(t,1); add(t,2); add(t,3) } 1.\nval(t,V+D) :- val(t-1,V), add(t,D).\n"
        "#minimize { D,t : add(t,D), D != 2 }.\n"
        "#program check(t).\n:- query(t), goal(G), not val(t,G).\n#show add/2.\n",
    )
    (workspace / "instances" / "sum").mkdir()
    (workspace / "instances" / "sum" / "four.lp").write_text("goal(4).\n")
    result = solve("sum", "four.lp")
    assert (result.horizon, result.cost, result.optimal) == (2, [0], True)
    assert result.solutions[0].data.atoms == ("add(1,2)", "add(2,2)")


def test_incmode_is_found_in_an_included_file_and_not_in_a_comment(workspace):
    hanoi_workspace(workspace)
    (workspace / "encodings" / "hanoi_rules.lp").write_text(HANOI)
    write(workspace, "hanoi", '#include "hanoi_rules.lp".\n')
    assert solve("hanoi", "tower.lp").horizon == 7
    write(workspace, "hanoi", HANOI.replace("#include <incmode>.", "% #include <incmode>."))
    result = solve("hanoi", "tower.lp")  # one shot: base alone, nothing moves
    assert result.horizon is None and result.solutions[0].data.atoms == ()


def test_modes_count_all_unique(workspace):
    write(workspace, "free", "{ a; b; c }.\n#show a/0. #show b/0. #show c/0.\n")
    assert solve("free", count=True).count == 8
    assert len(solve("free", models=0).solutions) == 8
    assert len(solve("free", models=3).solutions) == 3
    assert solve("free", unique=True).verdict == "multiple"
    write(workspace, "one", "a.\n#show a/0.\n")
    assert solve("one", unique=True).verdict == "unique"
    write(workspace, "never", "a. :- a.\n")
    result = solve("never", unique=True)
    assert (result.status, result.verdict) == ("unsatisfiable", "none")


def test_statistics_are_reported(workspace):
    stats = solve("latin", "three").stats
    for key in ("ground_time", "solve_time", "atoms", "rules", "choices", "conflicts", "models"):
        assert key in stats
    assert stats["models"] == 1 and stats["atoms"] > 0


def test_a_growing_horizon_reports_the_effort_of_every_solve_call(tmp_path):
    """clingo's statistics hold the last solve call only; a planning search makes one
    call per budget, so the driver sums them (here: the same call, three times)."""
    job = Job(str(tmp_path / "unused.lp"), [], "", [], 0, True, None, None)
    control = driver.solving.make_control(job, [])
    control.add("base", [], "{ a(1..6) }. :- a(1), a(2). :- not a(3), a(4).")
    control.ground([("base", [])])
    once, thrice = Outcome(), Outcome()
    for outcome, calls in ((once, 1), (thrice, 3)):
        for _ in range(calls):
            driver.solving.solve_once(control, job, outcome, None)
    assert once.stats["choices"] > 0
    for key in ("choices", "conflicts"):
        assert thrice.stats[key] == 3 * once.stats[key]


def test_time_limit_holds_during_grounding(workspace):
    # clingo cannot interrupt grounding: this range takes minutes to ground.
    write(workspace, "slowground", "q :- X = 1..2000000000, X \\ 7 = 10.\n#show q/0.\n")
    result = solve("slowground", timeout=0.5)
    assert (result.status, result.timeout_phase, result.complete) == ("timeout", "grounding", False)


PIGEONS = """\
pigeon(1..14). hole(1..13).
1 { at(P,H) : hole(H) } 1 :- pigeon(P).
:- hole(H), 2 { at(P,H) : pigeon(P) }.
"""


def test_time_limit_holds_during_solving(workspace, cli):
    write(workspace, "pigeons", PIGEONS)
    result = solve("pigeons", timeout=0.5)
    assert (result.status, result.timeout_phase) == ("timeout", "solving")
    run = cli("solve", "pigeons", "--timeout", "0.3")
    assert run.code == 3 and "time limit reached while solving" in run.out


def _forks_counted(monkeypatch) -> list[int]:
    """Each call of the forked-worker path, recorded (it still runs)."""
    calls: list[int] = []

    def counted(jobs, *args, **kwargs):
        calls.append(len(jobs))
        return run_in_workers(jobs, *args, **kwargs)

    monkeypatch.setattr(driver.workers, "run_in_workers", counted)
    return calls


OPEN_BOARD = (
    """\
ghosts 12, vampires 12, zombies 12
    -  -  -  -  -  -
"""
    + "  -  .  .  .  .  .  .  -\n" * 6
    + "    -  -  -  -  -  -\n"
)


def test_a_small_board_is_held_to_its_limit_in_this_process(monkeypatch, tmp_path):
    """A fork costs more than a small board's whole solve, and the shipped encoding
    grounds it in milliseconds: the limit is held here, its search stopped at the
    limit with the answers it counted (a 6x6 Haunted board with no clue has millions)."""
    forks = _forks_counted(monkeypatch)
    result = solve("haunted", "gen-15x15-s15", unique=True, timeout=5)
    assert (result.status, result.verdict, result.checked) == ("solved", "unique", True)
    for puzzle in ("geniusstar", "geniussquare", "tiles"):
        assert (solve(puzzle, timeout=5).status, puzzle) == ("solved", puzzle)
    board = tmp_path / "open.txt"
    board.write_text(OPEN_BOARD)
    started = time.perf_counter()
    result = solve("haunted", board, count=True, timeout=0.5)
    assert (result.status, result.timeout_phase, result.complete) == ("timeout", "solving", False)
    assert result.count > 0 and time.perf_counter() - started < 3
    assert forks == []


def test_an_edited_encoding_or_a_large_board_near_its_limit_is_held_in_a_worker(
    monkeypatch, tmp_path
):
    """What the encoding grounds cannot be known once it is edited, and a large board's
    grounding may outlast a limit not far beyond what its size takes: such a limit is
    held by a worker the parent can kill, in any phase."""
    from aspuzzles.puzzles import haunted

    forks = _forks_counted(monkeypatch)
    edited = tmp_path / "haunted.lp"
    edited.write_text((ROOT / "encodings" / "haunted.lp").read_text() + "% edited\n")
    result = solve("haunted", "gen-5x5-s3", unique=True, timeout=5, encoding=edited)
    assert (result.status, result.verdict, result.encoding) == ("solved", "unique", "edited")
    large = encode_game_id(clued(random_board(25, 25, random.Random(1), 0.3)))  # 455 cells
    result = solve("haunted", large, timeout=0.001)
    assert result.status == "timeout" and result.timeout_phase in {"loading", "facts", "grounding"}
    monkeypatch.setattr(haunted, "GROUNDING_MARGIN", 10_000)  # 30 s is now near
    result = solve("haunted", large, timeout=30)
    assert (result.status, result.checked) == ("solved", True)
    assert forks == [1, 1, 1]


def test_a_large_board_under_a_limit_far_beyond_its_grounding_is_held_in_this_process(
    monkeypatch,
):
    """A limit twenty times what the board's size takes to trace and ground at most
    cannot strike while clingo grounds: the worker (which would double a 40x40's
    time) is left out, and the search is stopped at the limit here."""
    forks = _forks_counted(monkeypatch)
    large = encode_game_id(clued(random_board(25, 25, random.Random(1), 0.3)))  # 455 cells
    result = solve("haunted", large, timeout=30)
    assert (result.status, result.checked) == ("solved", True)
    assert forks == []


def test_syntax_error_in_an_edited_encoding_names_file_and_line(workspace, cli):
    write(workspace, "broken", "a :- b.\nfoo(X :- .\n")
    with pytest.raises(InputError) as error:
        solve("broken")
    assert "broken.lp:2:7: syntax error, unexpected :-" in str(error.value)
    run = cli("solve", "broken")
    assert run.code == 2 and run.err.count("\n") == 1 and "error: error" not in run.err
    assert run.err.count("\n") == 1 and "error: encodings/broken.lp:2:7" in run.err


def test_clingos_error_in_a_bare_instance_names_the_instance_file(workspace, cli):
    """The instance goes to clingo as program text, which clingo calls ``<block>``."""
    folder = workspace / "instances" / "latin"
    (folder / "typo.lp").write_text("#const n = 2.\ngiven(1,1 :- .\n")
    run = cli("solve", "latin", "typo.lp")
    assert run.code == 2 and run.err.count("\n") == 1
    assert "error: instances/latin/typo.lp:2:11: syntax error" in run.err
    write(workspace, "latin", "#const n = 2.\n" + LATIN)
    run = cli("solve", "latin", "three.lp", "--format", "json")  # both define n: the instance's
    assert run.code == 0, run.err
    atoms = run.json()["solutions"][0]["atoms"]
    assert any(atom.startswith("cell(3,3,") for atom in atoms)  # 3 x 3, not the encoding's 2


def test_clingos_warnings_are_one_line_placed_as_errors_are(workspace, caplog):
    write(workspace, "divide", "p(X) :- X = 1/0.\n#show p/1.\n")
    with caplog.at_level("WARNING", logger="aspuzzles.clingo"):
        assert solve("divide").status == "solved"
    shown = [record.getMessage() for record in caplog.records]
    assert shown == ["encodings/divide.lp:1:13: operation undefined: (1/0)"]


def test_a_script_block_is_refused_with_the_reason_not_a_bare_failure(workspace, cli):
    """The clingo wheel has no script languages; its error is raised, not logged, and
    the message used to be only "clingo failed"."""
    write(workspace, "scripted", "#script (python)\ndef main(prg):\n    pass\n#end.\na.\n")
    run = cli("solve", "scripted")
    assert run.code == 2 and run.err.count("\n") == 1
    assert "error: encodings/scripted.lp:1:1: python support not available" in run.err
    assert "runs no #script code" in run.err


def test_a_character_clingo_cannot_read_is_an_input_error_not_a_crash(workspace, cli):
    # clingo's lexer reports half of a UTF-8 character, which its Python logger cannot
    # decode: the process used to abort with "PANIC: exception in nothrow scope".
    write(workspace, "accent", '% Comments and strings may say "café".\nlabel("é").\ncafé.\n')
    run = cli("solve", "accent")
    assert run.code == 2 and run.err.count("\n") == 1
    assert "accent.lp:3:4: unexpected character 'é' (U+00E9) outside a string" in run.err
    (workspace / "instances" / "latin" / "bom.lp").write_text(
        "#const n = 2.\n\ufeffgiven(1,1,1).\n"
    )
    run = cli("solve", "latin", "instances/latin/bom.lp")
    assert run.code == 2 and "bom.lp:2:1: unexpected character '\\ufeff' (U+FEFF)" in run.err
    (workspace / "instances" / "latin" / "lead.lp").write_text(
        "\ufeff#const n = 2.\ngiven(1,1,1).\n"
    )
    assert cli("solve", "latin", "instances/latin/lead.lp").code == 0
    (workspace / "encodings" / "marked.lp").write_text("\ufeff" + LATIN)
    run = cli("solve", "marked", "--encoding", "encodings/marked.lp")
    assert run.code == 2 and "marked.lp:1:1: starts with a byte-order mark" in run.err
    (workspace / "encodings" / "parts").mkdir()
    (workspace / "encodings" / "parts" / "rules.lp").write_text(
        "% rules\n:- given(R,C,V), \u00a0V > 9.\n"
    )
    write(workspace, "split", LATIN + '% #include "nothing.lp".\n#include "parts/rules.lp".\n')
    run = cli("solve", "split", "--encoding", "encodings/split.lp", "instances/latin/three.lp")
    assert run.code == 2 and "rules.lp:2:18: unexpected character '\\xa0' (U+00A0)" in run.err


#: Clingo's strings, comments, non-ASCII characters and numbers as one regular
#: expression, tried at every position: the plain reading ``asp._lexemes`` must agree
#: with (it is quadratic on runs of escaped quotes).
PLAIN_LEXEMES = re.compile(
    r'"(?:\\.|[^"\\\n])*"|%\*.*?\*%|%[^\n]*|([^\x00-\x7f])|(?<![A-Za-z0-9_\'])(\d+)', re.DOTALL
)


def _found(matches: Iterable[re.Match[str]]) -> list[tuple[int, str]]:
    return [(m.start(), m.group(0)) for m in matches if m.group(1) or m.group(2)]


def test_characters_and_numbers_are_found_outside_strings_as_a_plain_lexer_finds_them():
    """Random texts of quotes, backslashes, comments, line ends, digits and a character
    clingo cannot read: the same characters and numbers, at the same places, as the
    plain regular expression tried at every position."""
    from aspuzzles import asp

    pieces = ['"', "\\", "\n", "%", "*", "é", "1", "23", "a", " ", "_", "'", "x9"]
    rng = random.Random(7)
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 16)))
        assert _found(asp._lexemes(text)) == _found(PLAIN_LEXEMES.finditer(text)), repr(text)


def test_a_long_run_of_escaped_quotes_is_read_to_its_end():
    """An unterminated string of 200,000 escaped quotes, then a character clingo cannot
    read and a number too large: both found where they are (the quotes inside open no
    string of their own)."""
    from aspuzzles import asp

    text = 'a("' + '\\"' * 100_000 + "\né 4294967298"
    assert asp.foreign_character(text) == (2, 1, "é")
    assert asp.number_too_large(text) == (2, 3, "4294967298")


@pytest.mark.parametrize("given", [["-c", "x=é"], ["-cx=é"], ["--const=x=é"], ["--const", "x=é"]])
def test_a_constant_clingo_cannot_read_is_refused(cli, given):
    run = cli("solve", "haunted", *[f"--clingo={arg}" for arg in given])
    assert run.code == 2 and run.err.count("\n") == 1
    assert "--clingo: the constant 'x=é' holds the character 'é' (U+00E9)" in run.err


def test_constants_in_ascii_or_in_strings_reach_clingo(cli):
    for given in (["-c", "x=3"], ["-cx=3"], ["--const", 'x="é"']):
        run = cli("solve", "haunted", *[f"--clingo={arg}" for arg in given])
        assert run.code == 0, run.err


def test_a_wrong_encoding_is_caught_by_the_checker(tmp_path):
    # Drop the clue constraint: clingo then finds boards the checker must reject.
    encoding = (ROOT / "encodings" / "haunted.lp").read_text()
    weakened = "\n".join(
        line for line in encoding.splitlines() if "clue(L,N)," not in line and "T,R,C," not in line
    )
    path = tmp_path / "weak.lp"
    path.write_text(weakened)
    with pytest.raises(CheckFailed, match="checker rejected"):
        solve("haunted", "seed-4x4", models=0, encoding=path)


def test_unknown_puzzle_and_missing_instance(cli):
    run = cli("solve", "nosuchpuzzle")
    assert run.code == 2 and "unknown puzzle 'nosuchpuzzle'" in run.err
    run = cli("solve", "haunted", "missing.txt")
    assert run.code == 2 and "missing.txt: no such instance file" in run.err
    for command in ("solve", "facts", "generate"):  # an empty name was an internal error
        run = cli(command, "")
        assert run.code == 2 and "error: no puzzle named (known: cake, " in run.err


def test_fact_program_gives_the_same_answers_on_the_clingo_command_line(tmp_path, cli):
    run = cli("facts", "haunted", "seed-4x4")
    assert run.code == 0 and "crossings(" in run.out
    facts = tmp_path / "facts.lp"
    facts.write_text(run.out)
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "clingo",
            str(ROOT / "encodings" / "haunted.lp"),
            str(facts),
            "0",
            "--outf=2",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    witnesses = json.loads(completed.stdout)["Call"][0]["Witnesses"]
    assert len(witnesses) == 1
    ours = solve("haunted", "seed-4x4").solution.atoms
    assert sorted(witnesses[0]["Value"]) == sorted(ours)


# A plan whose ticks outlast its moves: one move starts a job, which then runs for its
# length in ticks; a budget of N moves must finish a job. Job a needs 4 ticks, b one.
JOBS = """\
#program base.
#external query(N) : N = 1..2.
moves(0,0).
#show start/2.
#program tick(k).
1 { start(k,J) : job(J,_) } 1 :- not busy(k-1), not done(k-1).
left(k,L-1) :- start(k,J), job(J,L).
left(k,L-1) :- left(k-1,L), L > 0.
busy(k) :- left(k,L), L > 0.
done(k) :- left(k,0).
done(k) :- done(k-1).
move(k) :- start(k,_).
moves(k,0).
moves(k,N) :- moves(k-1,N), N > 0.
moves(k,N+1) :- moves(k-1,N), move(k).
:- query(N), move(k), moves(k-1,N).
open(k) :- not done(k).
:- k = 6, not done(k).
"""


def run_jobs(
    tmp_path: Path,
    jobs: str,
    models: int,
    count_only: bool = False,
    report: Reporter = lambda _kind, _value: None,
    descending: bool = False,
) -> Outcome:
    encoding = tmp_path / "jobs.lp"
    encoding.write_text(JOBS)
    plan = Incremental(max_steps=2, max_ticks=6, step_atom="start")
    job = Job(str(encoding), [], jobs, [], models, count_only, None, plan, descending)
    return run_job(job, report)


def test_lazy_ticks_grow_until_no_answer_is_cut_off(tmp_path):
    """Counting at budget 1 must not stop at one tick, where job a is still running:
    the driver grounds ticks until no answer set holds open(k) for the last tick."""
    outcome = run_jobs(tmp_path, "job(a,4). job(b,1).", models=0, count_only=True)
    assert outcome.satisfiable
    assert outcome.count == 2
    assert (outcome.stats["horizon"], outcome.stats["ticks"]) == (1, 4)


def test_lazy_ticks_report_only_finished_plans(tmp_path):
    """The first answer set at one tick is cut off (job a still runs), not reported."""
    outcome = run_jobs(tmp_path, "job(a,4).", models=1)
    assert outcome.models == [["start(1,a)"]]
    assert outcome.stats["ticks"] == 4


def test_lazy_ticks_stop_at_the_last_tick(tmp_path):
    """A job longer than the ticks allowed: the budgets run out, unsatisfiable."""
    outcome = run_jobs(tmp_path, "job(a,9).", models=1)
    assert outcome.satisfiable is False
    assert (outcome.stats["horizon"], outcome.stats["ticks"]) == (2, 6)


def test_each_budget_reports_what_is_proved_before_it_starts(tmp_path):
    """The loop tells its parent, as each budget starts, that every smaller one failed."""
    reports: list[tuple[str, object]] = []
    outcome = run_jobs(tmp_path, "job(a,9).", models=1, report=lambda *said: reports.append(said))
    assert outcome.satisfiable is False
    assert [value for kind, value in reports if kind == "lower"] == [1, 2]
    assert {value for kind, value in reports if kind == "phase"} == {
        "facts",
        "grounding",
        "solving",
    }


def test_a_descending_search_reports_each_plan_and_proves_the_last_minimal(tmp_path):
    """From budget 2 down: the plan found there has one move, so budget 0 is below the
    first step and the plan is the minimum without another solve."""
    reports: list[tuple[str, object]] = []
    outcome = run_jobs(
        tmp_path, "job(a,4).", models=1, descending=True, report=lambda *said: reports.append(said)
    )
    assert outcome.satisfiable is True
    assert outcome.models == [["start(1,a)"]]
    assert [value for kind, value in reports if kind == "plan"] == [(1, ["start(1,a)"])]
    assert outcome.stats["horizon"] == 2


def test_a_descending_search_proves_there_is_no_plan(tmp_path):
    outcome = run_jobs(tmp_path, "job(a,9).", models=1, descending=True)
    assert (outcome.satisfiable, outcome.models, outcome.progress) == (False, [], None)


def test_a_worker_killed_while_grounding_keeps_what_was_proved(monkeypatch):
    """clingo cannot interrupt grounding, so the parent kills the worker at the limit;
    the lower bound the worker reported before that still reaches the result."""

    def stalls_in_grounding(job: Job, report: Reporter) -> Outcome:
        report("lower", 5)
        report("phase", "grounding")
        time.sleep(30)
        return Outcome()

    monkeypatch.setattr(driver.run, "run_job", stalls_in_grounding)
    job = Job("unused.lp", [], "", [], 1, False, 0.5, Incremental(9, unit="moves"))
    outcome = run_in_workers([job], driver.run.run_job)
    assert outcome.timeout_phase == "grounding"
    assert outcome.progress == "proved: none within 4 moves; 5 moves unanswered"


PLAN_OF_3 = ["swap(1,0,1)", "swap(2,8,9)", "swap(3,16,17)"]


Script = list[tuple[str, object]]


def scripted(script_of: Callable[[Job], Script]) -> Callable[[Job, Reporter], Outcome]:
    """A stand-in runner that does what ``script_of(job)`` says: reports, pauses
    ("sleep"), and the outcome it ends with ("end"), or else a stall, as a search of one
    hard plan would."""

    def run(job: Job, report: Reporter) -> Outcome:
        for kind, value in script_of(job):
            if kind == "sleep":
                time.sleep(float(value))  # type: ignore[arg-type]
            elif kind == "end":
                return value  # type: ignore[return-value]
            else:
                report(kind, value)
        time.sleep(30)
        return Outcome()

    return run


def race(script: dict[bool, Script], timeout: float | None) -> Outcome:
    """Run an ascending and a descending worker that say what ``script`` gives them
    (by direction) and then stall."""
    plan = Incremental(9, unit="moves", step_atom="swap")
    up = Job("unused.lp", [], "", [], 1, False, timeout, plan)
    runner = scripted(lambda job: script[job.descending])
    return run_in_workers([up, up._replace(descending=True)], runner)


def test_a_plan_from_above_is_minimal_once_the_budgets_below_it_are_refuted():
    """The race stops when the lower bound from one worker meets the plan of the other."""
    started = time.perf_counter()
    outcome = race(
        {
            False: [("lower", 1), ("lower", 2), ("sleep", 0.3), ("lower", 3)],
            True: [("plan", (4, ["swap(1,0,1)"] * 4)), ("plan", (3, PLAN_OF_3))],
        },
        timeout=None,
    )
    assert time.perf_counter() - started < 10
    assert (outcome.satisfiable, outcome.models, outcome.timeout_phase) == (True, [PLAN_OF_3], None)
    assert outcome.stats["horizon"] == 3


@pytest.mark.slow
def test_a_race_tells_its_progress_as_bounds_move_and_again_every_second():
    plan = Incremental(9, unit="moves", step_atom="swap")
    up = Job("unused.lp", [], "", [], 1, False, 2.5, plan)
    script = {False: [("lower", 2), ("phase", "solving")], True: [("plan", (4, PLAN_OF_4))]}
    said: list[str] = []
    run_in_workers(
        [up, up._replace(descending=True)],
        scripted(lambda job: script[job.descending]),
        said.append,
    )
    proved = "proved: none within 1 move; a plan of 4 moves found, 2-3 moves unanswered"
    assert said[-1] == proved and said.count(proved) >= 2  # told again: the clock ticks
    assert all(text.endswith("unanswered") for text in said)


@pytest.mark.slow
def test_a_race_without_a_plan_tells_its_phase_and_the_answers_found_so_far():
    """A long tiles or cake search (no plan, so no bounds) still keeps a status line
    alive: the parent says every second which phase its workers are in, and how many
    answers they have found, which a child sends only when the number grows."""
    job = Job("unused.lp", [], "", [], 0, True, 2.5, None)
    script: Script = [("phase", "solving"), ("tick", None), ("tick", 3), ("tick", 3)]
    said: list[str] = []
    run_in_workers([job], scripted(lambda _job: script), said.append)
    assert said and said[-1] == "solving; 3 solutions found so far"
    assert set(said) <= {"grounding", "solving", "solving; 3 solutions found so far"}


def test_a_count_cut_short_by_the_limit_keeps_the_racer_that_counted_most():
    """Racing searches count the same answers, so the larger count is what is known."""
    stats = {"solve_time": 1.0}
    counts = {"--slow": 5, "--fast": 12}
    job = Job("unused.lp", [], "", ["--slow"], 0, True, 5.0, None)

    def script_of(job: Job) -> Script:
        counted = Outcome(count=counts[job.arguments[0]], timeout_phase="solving", stats=stats)
        return [("phase", "solving"), ("end", counted)]

    outcome = run_in_workers([job, job._replace(arguments=["--fast"])], scripted(script_of))
    assert (outcome.count, outcome.timeout_phase, outcome.satisfiable) == (12, "solving", None)


@pytest.mark.slow
def test_a_search_in_this_process_tells_the_answers_found_so_far(workspace, monkeypatch):
    """Without a limit the search runs here, and its heartbeat feeds the status line."""
    (workspace / "instances" / "latin" / "five.lp").write_text("#const n = 5.\n")
    monkeypatch.setattr(driver.solving, "TICK", 0.0)  # every wait slice, not every second
    said: list[str] = []
    result = solve("latin", "five", count=True, on_progress=said.append)
    found = [int(text.split("; ")[1].split()[0]) for text in said if "; " in text]
    assert result.count == 161280 and found
    assert found == sorted(found) and found[-1] <= result.count
    assert all(text.startswith("solving") for text in said)


@pytest.mark.slow
def test_ctrl_c_in_the_parent_stops_a_race_with_its_best_plan():
    """The parent hears Ctrl-C (here: SIGINT sent to it alone once the workers have
    spoken) and reports like a time limit; the workers ignore it and are stopped. The
    signal comes from an alarm, not a timer thread: forking a process that runs a thread
    is deprecated (Python 3.12 warns)."""
    previous = signal.signal(signal.SIGALRM, lambda *_: os.kill(os.getpid(), signal.SIGINT))
    signal.setitimer(signal.ITIMER_REAL, 1.5)
    try:
        outcome = race(
            {
                False: [("lower", 1), ("lower", 2), ("phase", "solving")],
                True: [("plan", (4, PLAN_OF_3 + PLAN_OF_3[:1]))],
            },
            timeout=None,
        )
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert (outcome.interrupted, outcome.timeout_phase) == (True, "solving")
    assert outcome.satisfiable is None and outcome.models == [PLAN_OF_3 + PLAN_OF_3[:1]]
    assert (
        outcome.progress
        == "proved: none within 1 move; a plan of 4 moves found, 2-3 moves unanswered"
    )


@pytest.mark.slow
def test_ctrl_c_while_grounding_stops_once_the_grounder_returns(tmp_path):
    """clingo 5.8 cannot interrupt grounding: Ctrl-C takes effect right after it."""
    encoding = tmp_path / "big.lp"
    encoding.write_text("n(1..2000). p(X,Y) :- n(X), n(Y), X < Y. q :- p(_,_). #show q/0.")
    job = Job(str(encoding), [], "", [], 1, False, None, None)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        outcome = run_job(job)
    finally:
        timer.cancel()
    assert (outcome.interrupted, outcome.timeout_phase) == (True, "grounding")
    assert outcome.models == [] and outcome.satisfiable is None
    assert "clingo_total_time" not in outcome.stats  # none before a solve (garbage)


class StandInHandle:
    """A clingo solve handle whose search never ends, or ends at Ctrl-C."""

    def __init__(self, interrupt_after: int | None) -> None:
        self.waits, self.cancelled, self.interrupt_after = 0, False, interrupt_after

    def wait(self, timeout: float) -> bool:
        assert timeout <= driver.solving.WAIT_SLICE  # short waits: Python sees Ctrl-C between them
        self.waits += 1
        if self.waits == self.interrupt_after:
            raise KeyboardInterrupt
        time.sleep(timeout)
        return False

    def cancel(self) -> None:
        self.cancelled = True


@pytest.mark.slow
def test_a_long_wait_beats_once_a_second_for_the_status_line():
    beats: list[float] = []
    handle, outcome = StandInHandle(interrupt_after=25), Outcome()  # about 2.4 s
    driver.solving.wait(handle, outcome, None, lambda: beats.append(time.perf_counter()))  # type: ignore[arg-type]
    assert len(beats) >= 2
    assert all(later - earlier >= driver.jobs.TICK for earlier, later in itertools.pairwise(beats))


def test_ctrl_c_while_waiting_for_a_search_cancels_it_as_a_limit_would():
    handle, outcome = StandInHandle(interrupt_after=3), Outcome()
    driver.solving.wait(handle, outcome, None)  # type: ignore[arg-type]
    assert (handle.cancelled, outcome.interrupted, outcome.timeout_phase) == (True, True, "solving")
    handle, outcome = StandInHandle(interrupt_after=None), Outcome()
    driver.solving.wait(handle, outcome, time.perf_counter() + 0.25)  # type: ignore[arg-type]
    assert (handle.cancelled, outcome.interrupted, outcome.timeout_phase) == (
        True,
        False,
        "solving",
    )
    assert handle.waits >= 2


@pytest.mark.slow
def test_a_race_cut_short_returns_its_best_plan_with_both_bounds():
    outcome = race(
        {
            False: [("lower", 1), ("lower", 2), ("phase", "solving")],
            True: [("plan", (5, ["swap(1,0,1)"] * 5)), ("plan", (4, PLAN_OF_3 + PLAN_OF_3[:1]))],
        },
        timeout=0.5,
    )
    assert outcome.satisfiable is None
    assert outcome.timeout_phase == "solving"
    assert outcome.models == [PLAN_OF_3 + PLAN_OF_3[:1]]
    assert (
        outcome.progress
        == "proved: none within 1 move; a plan of 4 moves found, 2-3 moves unanswered"
    )


PLAN_OF_4 = [*PLAN_OF_3, "swap(4,24,25)"]


def split_race(script: dict[int, Script]) -> Outcome:
    """Run the two shares of a split search as ``script`` says (by share)."""
    plan = Incremental(9, unit="moves", step_atom="swap", splits=True)
    job = Job("unused.lp", [], "", [], 1, False, None, plan)
    runner = scripted(lambda job: script[job.part[0]] if job.part else [])
    return run_in_workers([job._replace(part=(share, 2)) for share in range(2)], runner)


def test_a_shares_plan_is_minimal_only_once_the_other_share_refuted_every_shorter_one():
    """Share 0 ends first with its shortest plan (4 moves); share 1, still climbing,
    then finds one of 3: the race answers 3, not the first plan it saw."""
    outcome = split_race(
        {
            0: [("lower", 4), ("end", Outcome([PLAN_OF_4], satisfiable=True, count=1))],
            1: [("lower", 2), ("sleep", 0.3), ("lower", 3), ("end", Outcome([PLAN_OF_3], True))],
        }
    )
    assert (outcome.satisfiable, outcome.models) == (True, [PLAN_OF_3])
    assert outcome.stats["horizon"] == 3


def test_a_shares_plan_wins_as_soon_as_the_other_share_passes_its_length():
    started = time.perf_counter()
    outcome = split_race(
        {
            0: [("lower", 3), ("end", Outcome([PLAN_OF_3], satisfiable=True, count=1))],
            1: [("lower", 2), ("sleep", 0.3), ("lower", 3)],  # then stalls on budget 3
        }
    )
    assert (outcome.satisfiable, outcome.models) == (True, [PLAN_OF_3])
    assert time.perf_counter() - started < 10


def test_a_hinted_plan_is_minimal_once_both_shares_refuted_every_shorter_budget():
    """The first share reports the scout's plan before it climbs; neither share has to
    find a plan of its own: the race is settled when both have passed the budget below
    it, while both are still searching."""
    started = time.perf_counter()
    outcome = split_race(
        {
            0: [("plan", (3, PLAN_OF_3)), ("lower", 2), ("sleep", 0.3), ("lower", 3)],
            1: [("lower", 2), ("sleep", 0.2), ("lower", 3)],  # both then stall on budget 3
        }
    )
    assert (outcome.satisfiable, outcome.models) == (True, [PLAN_OF_3])
    assert outcome.stats["horizon"] == 3
    assert time.perf_counter() - started < 10


def test_a_split_search_proves_no_plan_when_both_shares_do():
    none = Outcome(satisfiable=False)
    outcome = split_race({0: [("lower", 9), ("end", none)], 1: [("end", none)]})
    assert outcome.satisfiable is False and outcome.models == []


def test_bounds_of_a_split_search_rise_only_when_every_share_refuted():
    bounds = Bounds(Incremental(max_steps=9), parts=2)
    bounds.refuted_below(5, 0)
    assert bounds.lower == 1
    bounds.refuted_below(4, 1)
    assert bounds.lower == 4
    bounds.refuted_below(10, 0)
    bounds.refuted_below(10, 1)
    assert bounds.exhausted and not bounds.settled


def test_the_first_racer_to_answer_wins_and_the_other_is_stopped():
    """A portfolio: the same job under other settings; the one that stalls is killed."""

    def scripted(job: Job, report: Reporter) -> Outcome:
        if "--stall" in job.arguments:
            time.sleep(30)
        return Outcome(models=[["answer"]], satisfiable=True, count=1)

    started = time.perf_counter()
    job = Job("unused.lp", [], "", ["--stall"], 1, False, None, None)
    outcome = run_in_workers([job, job._replace(arguments=[])], scripted)
    assert (outcome.satisfiable, outcome.models) == (True, [["answer"]])
    assert time.perf_counter() - started < 10


def test_a_shortcut_that_finds_nothing_drops_out_and_the_race_goes_on():
    """A shortcut's "none" proves nothing (no perfect placement is not no placement):
    the answer comes from the search that goes on."""

    def scripted(job: Job, report: Reporter) -> Outcome:
        if job.answers_only:
            return Outcome(satisfiable=False, stats={"conflicts": 1})
        time.sleep(0.5)
        return Outcome(models=[["answer"]], satisfiable=True, count=1, stats={"conflicts": 9})

    job = Job("unused.lp", [], "", [], 1, False, None, None)
    outcome = run_in_workers([job, job._replace(answers_only=True)], scripted)
    assert (outcome.satisfiable, outcome.models) == (True, [["answer"]])


def test_a_shortcuts_answer_ends_the_race():
    def scripted(job: Job, report: Reporter) -> Outcome:
        if not job.answers_only:
            time.sleep(30)
        return Outcome(models=[["perfect"]], satisfiable=True, count=1, cost=[0])

    started = time.perf_counter()
    job = Job("unused.lp", [], "", [], 1, False, None, None)
    outcome = run_in_workers([job, job._replace(answers_only=True)], scripted)
    assert (outcome.models, outcome.cost) == ([["perfect"]], [0])
    assert time.perf_counter() - started < 10


def test_a_shortcuts_answers_carry_the_cost_it_declares(tmp_path):
    """A shortcut searches a program of its own, which may have no objective (tiles'
    exact search in score mode): its answers are reported at the cost it declares, as
    optimal; an answer of any other job keeps what clingo says."""
    encoding = tmp_path / "pick.lp"
    encoding.write_text("1 { pick(1..3) } 1.\n")
    job = Job(str(encoding), [], "", [], 1, False, None, None)
    assert (run_job(job).cost, run_job(job).optimal) == (None, False)
    shortcut = run_job(job._replace(answers_only=True, answer_cost=(0,)))
    assert (shortcut.count, shortcut.cost, shortcut.optimal) == (1, [0], True)
    encoding.write_text("1 { pick(1..3) } 1.\n:- pick(_).\n")
    none = run_job(job._replace(answers_only=True, answer_cost=(0,)))
    assert (none.satisfiable, none.cost, none.optimal) == (False, None, False)


def test_a_cut_short_horizon_names_what_it_proved():
    """The message counts in the puzzle's own unit, singular where it is one."""
    plan = Incremental(max_steps=9, unit="moves")
    assert progress_text(plan, 1) == "1 move unanswered"
    assert progress_text(plan, 2) == "proved: none within 1 move; 2 moves unanswered"
    assert progress_text(Incremental(max_steps=9, first_step=3), 3) == "3 steps unanswered"
    assert (
        progress_text(plan, 7, 8)
        == "proved: none within 6 moves; a plan of 8 moves found, 7 moves unanswered"
    )
    assert progress_text(plan, 1, 8) == "a plan of 8 moves found, 1-7 moves unanswered"


def test_bounds_keep_the_shortest_plan_and_settle_when_they_meet():
    bounds = Bounds(Incremental(max_steps=9))
    bounds.found(5, ["five"])
    bounds.found(6, ["six"])
    bounds.refuted_below(4)
    assert (bounds.upper, bounds.best, bounds.settled) == (5, ["five"], False)
    bounds.refuted_below(5)
    assert bounds.settled


def test_which_searches_a_planning_job_gets():
    """Both ends by default, or two climbing halves; one climbing search when counting,
    deciding uniqueness, or handing clasp several threads; nothing from the top without
    monotone budgets, and no split without an encoding that splits."""
    monotone = Incremental(max_steps=9, step_atom="swap", splits=True)
    halves = [{"part": (0, 2)}, {"part": (1, 2)}]
    assert plan_searches(monotone, "split", 1, 1) == halves
    assert plan_searches(monotone, "both", 1, 1) == [{}, {"descending": True}]
    assert plan_searches(monotone, "descending", 1, 1) == [{"descending": True}]
    assert plan_searches(monotone, "split", 2, 1) == [{}]
    assert plan_searches(monotone, "split", 1, 2) == [{}]
    assert plan_searches(monotone, "ascending", 1, 1) == [{}]
    unsplit = Incremental(max_steps=9, step_atom="swap")
    assert plan_searches(unsplit, "split", 1, 1) == [{}, {"descending": True}]
    assert plan_searches(Incremental(max_steps=9), "both", 1, 1) == [{}]
    assert plan_searches(None, "descending", 1, 1) == [{}]
    with pytest.raises(InputError, match="cannot count plans or decide uniqueness"):
        plan_searches(monotone, "descending", 0, 1)
    with pytest.raises(InputError, match="plan search must be one of both, split"):
        plan_searches(monotone, "sideways", 1, 1)


def test_the_time_limit_counts_the_time_spent_building_facts(workspace):
    """Facts are built in Python before the solver starts; what they took comes off the
    limit that grounding and solving get, and the reported total includes it."""
    started = time.perf_counter() - 0.4
    assert 0.5 <= driver.run._left(1.0, started) <= 0.6
    assert driver.run._left(1.0, time.perf_counter() - 5) == 0.001
    result = solve("latin", "three", timeout=5)
    assert result.stats["total_time"] >= result.stats["facts_time"] > 0


# ----------------------------------------------------------------- objectives
CHEAPEST_PAIR = """\
% Pick at least two items, as cheaply as possible (an item costs its number).
{ pick(1..6) }.
:- #count { X : pick(X) } < 2.
#minimize { X : pick(X) }.
#show pick/1.
"""


def test_an_objective_gives_the_optimum_not_the_first_answer(workspace, cli):
    """clingo's first answer set is rarely optimal (here it is pick(3), pick(6)), and
    with one model asked it stops there: a #minimize is searched to its optimum."""
    write(workspace, "cheap", CHEAPEST_PAIR)
    result = solve("cheap")
    assert result.solution.data.atoms == ("pick(1)", "pick(2)")
    assert (result.status, result.cost, result.optimal) == ("solved", [3], True)
    run = cli("solve", "cheap")
    assert run.code == 0 and "solved, cost 3 (optimal), 1 solution" in run.out
    data = cli("solve", "cheap", "--format", "json").json()
    assert (data["cost"], data["optimal"]) == ([3], True)


ONE_OF_THREE = """\
% Pick one item; every item costs 1, so each answer is optimal.
1 { pick(1..3) } 1.
#minimize { 1,X : pick(X) }.
#show pick/1.
"""


def _pick(*items: int) -> list[clingo.Symbol]:
    return [clingo.Function("pick", [clingo.Number(item)]) for item in items]


def test_hints_give_an_optimizing_search_its_first_answer_and_bound(tmp_path):
    """A puzzle's hints (tiles in score mode: a greedy placement) are completed by
    clingo into the first answer; the search then only looks for cheaper ones, so when
    it finds none the hinted answer is the optimum, proved."""
    encoding = tmp_path / "one.lp"
    encoding.write_text(ONE_OF_THREE)
    job = Job(str(encoding), [], "", [], 1, False, None, None)
    plain = run_job(job)
    hinted_item = next(n for n in (1, 2, 3) if plain.models != [[f"pick({n})"]])
    hinted = run_job(job._replace(warm_start=lambda: _pick(hinted_item)))
    assert hinted.models == [[f"pick({hinted_item})"]]  # not the answer clingo finds alone
    assert (hinted.satisfiable, hinted.optimal, hinted.cost) == (True, True, [1])
    # Hints that lead nowhere (two picks) cost a little search, never the answer.
    astray = run_job(job._replace(warm_start=lambda: _pick(1, 2)))
    assert (astray.models, astray.optimal) == (plain.models, True)


def test_several_answers_a_count_or_a_verdict_are_about_the_optimal_ones(workspace):
    """Fewest items: every pair is optimal, and no answer on the way to it is kept."""
    write(workspace, "pair", CHEAPEST_PAIR.replace("#minimize { X :", "#minimize { 1,X :"))
    assert solve("pair", count=True).count == 15  # the pairs of 6 items
    everyone = solve("pair", models=0)
    assert len(everyone.solutions) == 15 and everyone.optimal
    assert all(len(s.data.atoms) == 2 for s in everyone.solutions)
    assert len(solve("pair", models=3).solutions) == 3
    assert solve("pair", unique=True).verdict == "multiple"
    write(workspace, "cheap", CHEAPEST_PAIR)
    assert solve("cheap", unique=True).verdict == "unique"


def test_priority_levels_are_reported_highest_first(workspace):
    write(
        workspace,
        "levels",
        CHEAPEST_PAIR.replace(
            "#minimize { X : pick(X) }.",
            "#minimize { 1@2,X : pick(X) }.\n#maximize { X@1,X : pick(X) }.",
        ),
    )
    result = solve("levels")
    assert result.solution.data.atoms == ("pick(5)", "pick(6)")
    assert result.cost == [2, -11] and "cost [2, -11] (optimal)" in result.summary()


@pytest.mark.slow
def test_an_optimum_not_proved_in_time_shows_the_best_answer_found(workspace, cli):
    """Colouring a dense random graph with fewest colours: good colourings come at once,
    a proof that none uses fewer takes far longer than the limit."""
    write(
        workspace,
        "colouring",
        "col(1..20).\n1 { colour(N,C) : col(C) } 1 :- node(N).\n"
        ":- edge(M,N), colour(M,C), colour(N,C).\nused(C) :- colour(_,C).\n"
        "#minimize { 1,C : used(C) }.\n#show colour/2.\n",
    )
    rng = random.Random(1)
    edges = " ".join(
        f"edge({m},{n})." for m in range(70) for n in range(m + 1, 70) if rng.random() < 0.5
    )
    (workspace / "instances" / "colouring").mkdir()
    (workspace / "instances" / "colouring" / "g70.lp").write_text(f"node(0..69).\n{edges}\n")
    run = cli("solve", "colouring", "g70", "--timeout", "3", "--format", "json")
    assert run.code == 3, run.err
    data = run.json()
    assert data["status"] == "timeout" and data["optimal"] is False
    assert data["progress"] == f"best found: cost {data['cost'][0]}, not proved optimal"
    assert len(data["solutions"]) == 1 and len(data["solutions"][0]["atoms"]) == 70


def test_a_users_own_opt_mode_is_left_alone(workspace):
    write(workspace, "cheap", CHEAPEST_PAIR)
    result = solve("cheap", clingo_args=["--opt-mode=ignore"])
    assert result.status == "solved" and not result.optimal


def test_a_race_cut_short_keeps_the_cheapest_best_answer():
    """Two searches of one objective stopped by the limit: the answer shown is the one
    that costs least, whichever process found it."""
    from aspuzzles.driver.workers import _Race, _Worker

    dear = Outcome([["a"]], count=1, stats={"conflicts": 1}, cost=[5, 2], timeout_phase="solving")
    cheap = Outcome([["b"]], count=1, stats={"conflicts": 1}, cost=[5, 1], timeout_phase="solving")
    for outcomes in ((dear, cheap), (cheap, dear)):
        workers = [_Worker(None, None, None, outcome=outcome) for outcome in outcomes]
        assert _Race(workers, None).cut_short().models == [["b"]]


def test_rounds_around_a_hinted_answer_improve_it_until_they_stop_paying():
    """The large-neighbourhood search: each round keeps all picks of the best answer
    but one (assumed true) and lets clingo find a cheaper answer around them; the
    rounds stop after ``LNS_PATIENCE`` rounds without one, and the complete search
    (here: none cheaper) proves the last optimal."""
    program = (
        "{ pick(1..12) }. :- #count { X : pick(X) } != 4.\n"
        "#minimize { X : pick(X) }.\n#show pick/1.\n"
    )
    control = clingo.Control()
    control.add("base", [], program)
    control.ground([("base", [])])
    picks = [clingo.Function("pick", [clingo.Number(n)]) for n in (9, 10, 11, 12)]
    rounds: list[int] = []

    def all_but_one(atoms, rng: random.Random) -> list[clingo.Symbol]:
        rounds.append(len(atoms))
        kept = sorted(atoms)
        del kept[rng.randrange(len(kept))]
        return kept

    job = Job("unused.lp", [], program, [], 1, False, None, None)
    job = job._replace(warm_start=lambda: picks, neighbourhood=all_but_one)
    outcome = Outcome()
    mode = driver.solving.optimization_mode(control, job)
    driver.optimization.solve_program(control, job, outcome, None, lambda kind, value: None, mode)
    assert outcome.models == [["pick(1)", "pick(2)", "pick(3)", "pick(4)"]]
    assert (outcome.cost, outcome.optimal, outcome.satisfiable) == ([10], True, True)
    assert outcome.stats["lns_rounds"] == len(rounds) >= driver.optimization.LNS_PATIENCE + 4
    assert set(rounds) == {4}  # every round saw a whole answer of four picks


def test_verbose_names_only_the_shown_signatures_an_edited_encoding_never_derives(
    tmp_path, caplog, monkeypatch
):
    """clingo's info about a ``#show`` that matches nothing (``-v``) names only a
    signature that really occurs nowhere: the instance's facts reach clingo before the
    encoding, so its check does not run while the encoding's own rules are unread (it
    then named every shown signature, ``monster/3`` included, and ``ghoul/2`` twice)."""
    edited = tmp_path / "haunted.lp"
    shipped = (ROOT / "encodings" / "haunted.lp").read_text(encoding="utf-8")
    edited.write_text(shipped.replace("#show monster/3.", "#show monster/3.\n#show ghoul/2."))
    monkeypatch.setattr("aspuzzles.logs._verbosity", None)  # as a library: logging decides
    with caplog.at_level("INFO", logger="aspuzzles"):
        result = solve("haunted", "gen-4x4-s2", encoding=edited, unchecked=True)
    assert result.status == "solved"
    shown = [record.getMessage() for record in caplog.records]
    assert shown == [f"{edited}:85:1: no atoms over signature occur in program: ghoul/2"]


# ------------------------------------------------- checking the answers within the limit
def test_a_listing_cut_by_its_time_limit_checks_and_shows_what_the_limit_allows(cli):
    """`solve geniusstar -n 0 --timeout 3` took 13 s though its line said 'in 3.001s':
    checking (and printing) the tens of thousands of answers found ran past the limit.
    Past the limit only the first answers are checked and shown, and the line says how
    many were found."""
    started = time.perf_counter()
    run = cli("solve", "geniusstar", "-n", "0", "--timeout", "1", "--format", "json")
    took = time.perf_counter() - started
    data = json.loads(run.out)
    assert run.code == 3 and data["status"] == "timeout"
    assert data["found"] > len(data["solutions"]) == CHECKED_PAST_THE_LIMIT
    assert took < 2.5, took  # 1 s of search, then a hundred answers checked and shown
    text = cli("solve", "geniusstar", "-n", "0", "--timeout", "1")
    assert text.code == 3 and text.out.count("Solution ") == CHECKED_PAST_THE_LIMIT
    assert re.search(
        r": timeout \(time limit reached while solving\), \d+ solutions found before the "
        r"limit, the first 100 checked and shown, in 1\.\d+s \(checked\)\n$",
        text.out,
    ), text.out[-300:]


def test_checking_stops_at_the_limit_when_the_search_ended_before_it(cli, monkeypatch):
    """All 271 tilings of the square's roll found in a tenth of a second, each check
    made slow: the checking stops at the limit, past the first hundred, and the run
    ends as at a time limit while checking (exit 3)."""
    from aspuzzles.driver import results

    real = results.checked_solution

    def slow(*args, **kwargs):
        time.sleep(0.01)
        return real(*args, **kwargs)

    monkeypatch.setattr(results, "checked_solution", slow)
    run = cli("solve", "geniussquare", "-n", "0", "--timeout", "1.5", "--format", "json")
    data = json.loads(run.out)
    assert run.code == 3, run.err
    assert (data["status"], data["timeout_phase"], data["found"]) == ("timeout", "checking", 271)
    assert CHECKED_PAST_THE_LIMIT <= len(data["solutions"]) < 200
    unlimited = cli("solve", "geniussquare", "-n", "0", "--format", "json")  # no limit: all
    assert unlimited.code == 0 and len(json.loads(unlimited.out)["solutions"]) == 271
    assert "found" not in json.loads(unlimited.out)


def test_a_short_search_past_its_deadline_gives_no_answer() -> None:
    """A search of a few conflicts is a blocking call, with no thread waiting on it:
    the deadline is looked at as it returns, so that thousands of them in a row (a
    walkthrough's questions) stop at it too."""
    from aspuzzles.driver import solving

    control = clingo.Control()
    control.add("base", [], "{ a; b }.")
    control.ground([("base", [])])
    assert solving.solve_until(control, None, conflicts=10).satisfiable
    assert solving.solve_until(control, time.perf_counter() + 60, conflicts=10).satisfiable
    assert solving.solve_until(control, time.perf_counter() - 1, conflicts=10) is None
