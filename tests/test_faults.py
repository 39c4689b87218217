"""Trust under experiments, limits and faults: no wrong verdict from numbers clingo
cannot hold or from an edited encoding, no result lost to a limit, a signal or a kill,
and no process left behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from aspuzzles.driver.loading import DIGESTS, digest_lines
from aspuzzles.registry import module_puzzles

from .conftest import INSTANCES, ROOT, command_process

SEED_ID = "4x4:2,4,3,cRLbRaRRbLLa,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,2"


# ------------------------------------------------------------ numbers clingo cannot hold
@pytest.mark.parametrize(
    ("text", "place", "number"),
    [
        ("#const n = 4.\nghost(4294967298). dracula(1). zombie(1).\n", "2:7", "4294967298"),
        ('#const n = 4.\nmirror(4294967297, 4, "/").\n', "2:8", "4294967297"),
        ("#const n = 4294967300.\n", "1:12", "4294967300"),
    ],
)
def test_a_number_clingo_would_wrap_around_is_refused_with_its_place(
    cli, tmp_path, text, place, number
):
    """clingo's integers are 32 bits: 4294967298 would silently be read as 2."""
    path = tmp_path / "big.lp"
    path.write_text(text)
    run = cli("solve", "haunted", path)
    assert run.code == 2
    assert run.err == (
        f"aspuzzles: error: {path}:{place}: the number {number} is larger than clingo's "
        "integers hold (2147483647)\n"
    )


def test_a_bare_instance_with_a_number_clingo_cannot_hold_is_refused(cli, tmp_path, monkeypatch):
    (tmp_path / "encodings").mkdir()
    (tmp_path / "encodings" / "big.lp").write_text("p(X) :- q(X).\n#show p/1.\n")
    (tmp_path / "six.lp").write_text("q(1).\nq(8589934593).\n")
    monkeypatch.chdir(tmp_path)
    run = cli("solve", "big", "six.lp")
    assert run.code == 2 and run.err.startswith("aspuzzles: error: six.lp:2:3: the number")


@pytest.mark.parametrize(
    ("puzzle", "make"),
    [
        ("haunted", lambda big: SEED_ID[:-1] + big),  # a clue
        ("cake", lambda big: f"pieces {big}\n1111\n"),
        ("tiles", lambda big: f"style e2\nsize 1 2\n0 0 {big} 0\n0 0 0 {big}\n"),  # an edge
        ("geniusstar", lambda big: f"1 10 16 29 33 38 {big}"),  # a die
        ("capture", lambda big: "________\n" * 7 + big + "\n"),  # a row of digits
    ],
)
def test_a_number_of_thousands_of_digits_is_bad_input_not_an_internal_error(
    cli, tmp_path, puzzle, make
):
    path = tmp_path / "huge.txt"
    path.write_text(make("9" * 5000))
    run = cli("solve", puzzle, path)
    assert run.code == 2, run.err
    assert run.err.startswith("aspuzzles: error: ") and len(run.err) < 300
    assert "a number of 5000 digits" in run.err


def test_a_huge_number_in_a_solution_or_a_move_list_is_bad_input(cli):
    huge = "9" * 5000
    run = cli("check", "haunted", "seed-4x4.txt", '{"grid": [' + huge + "]}")
    assert run.code == 2 and "a number of 5000 digits" in run.err
    run = cli("check", "capture", "wight", f"7 {huge} Up")
    assert run.code == 2 and "a number of 5000 digits" in run.err


def test_a_negative_count_is_bad_input_in_every_format(cli, tmp_path):
    facts = tmp_path / "neg.lp"
    facts.write_text(
        "#const n = 1.\ncount(0,1,-1). count(1,0,0). count(1,2,0). count(2,1,0).\n"
        "ghost(0). dracula(1). zombie(0).\n"
    )
    run = cli("solve", "haunted", facts)
    assert run.code == 2 and run.err.endswith("neg.lp:2: the count -1 at (0,1) is negative\n")
    assert cli("solve", "haunted", "1x1:0,1,0,a,0,0,-1,0").code == 2


def test_deeply_nested_json_is_bad_input(cli, tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    run = cli("check", "haunted", "seed-4x4.txt", deep)
    assert run.code == 2
    assert run.err == f"aspuzzles: error: {deep}: the JSON is nested too deeply to be a solution\n"


def test_an_echoed_token_is_cut_to_a_readable_length(cli):
    run = cli("solve", "haunted", SEED_ID[:-1] + "x" * 5_000_000)
    assert run.code == 2
    assert len(run.err) < 400 and "characters) is not a non-negative number" in run.err


def test_a_file_that_is_not_utf8_is_named_as_typed(cli, tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "bad.txt").write_bytes(b"\xff\xfe bad")
    monkeypatch.chdir(tmp_path)
    run = cli("solve", "haunted", "sub/bad.txt")
    assert run.err == "aspuzzles: error: sub/bad.txt: not a UTF-8 text file\n"


# ------------------------------------------------------------------ limits that hold
@pytest.mark.slow
def test_a_listing_cut_short_by_the_limit_is_a_timeout(cli):
    """``-n 0`` asks for every solution: a list cut short has not answered that."""
    run = cli("solve", "geniusstar", "-n", "0", "--timeout", "0.5", "--format", "json")
    data = run.json()
    assert run.code == 3
    assert (data["status"], data["complete"]) == ("timeout", False)
    assert data["solutions"]  # what was found is kept and shown


def test_a_shipped_instance_is_still_solved_whole(cli):
    assert INSTANCES.exists()
    run = cli("solve", "template", "--format", "json")
    assert run.code == 0 and json.loads(run.out)["status"] == "solved"


# ------------------------------------------------------------------ edited encodings
def _without_blasts(folder):
    """capture's encoding with flaming skulls that no longer explode."""
    text = (ROOT / "encodings" / "capture.lp").read_text()
    for rule in ("blast(k,I,1) :-", "blast(k,J,D+1) :-", "mark(k,J) :- blast"):
        assert rule in text
        text = text.replace(rule, "% " + rule)
    (folder / "encodings").mkdir(exist_ok=True)
    path = folder / "encodings" / "capture.lp"
    path.write_text(text)
    return path


def test_the_shipped_encodings_are_the_ones_their_digests_name():
    """The accelerators serve the encodings listed in encodings.sha256: after changing
    an encoding, `make digests` records it (and says the Python side was reviewed)."""
    assert DIGESTS.read_text() == digest_lines(ROOT / "encodings", module_puzzles())


def test_an_edited_encoding_runs_without_the_accelerators_and_says_so(cli, tmp_path):
    """Without blasts the flaming board has a 6-move plan; the accelerators, which
    simulate the shipped rules, would have proved it unsolvable."""
    edited = _without_blasts(tmp_path)
    run = cli("solve", "capture", "unsolvable-flaming", "--encoding", edited, "--unchecked")
    assert run.code == 0
    assert run.out.startswith("6 moves")
    assert run.out.rstrip().endswith("(not checked: --unchecked)")
    assert run.err == (
        "aspuzzles: note: the encoding differs from the shipped encodings/capture.lp: "
        "capture's Python accelerators (bounds, quick answers, searches and verdicts in Python) "
        "are off\n"
    )
    shipped = cli("solve", "capture", "unsolvable-flaming")
    assert shipped.code == 1 and shipped.err == ""


def test_a_checker_rejection_under_an_edited_encoding_names_the_edit(cli, tmp_path, monkeypatch):
    """Edited in place (an encodings/ folder where the command runs is searched first):
    the checker, which knows the shipped rules, rejects the variant's plan."""
    _without_blasts(tmp_path)
    monkeypatch.chdir(tmp_path)
    run = cli("solve", "capture", "unsolvable-flaming")
    assert run.code == 4
    assert "the encoding in use differs from the shipped one" in run.err
    assert "--unchecked shows the edited rules' answers" in run.err


@pytest.mark.parametrize("puzzle", ["haunted", "cake", "tiles", "geniussquare", "geniusstar"])
def test_a_hints_slot_reads_the_entries_its_shipped_encoding_declares(puzzle: str) -> None:
    from aspuzzles.declarations import declarations
    from aspuzzles.hinting.grounding import _entry_signatures
    from aspuzzles.registry import get_puzzle

    encoding = ROOT / "encodings" / f"{puzzle}.lp"
    declared = _entry_signatures(declarations(encoding), set(), encoding)
    hints = get_puzzle(puzzle).hints()
    kinds = None if hints is None else hints.entry_kinds
    assert declared is not None and kinds is not None and set(declared) == set(kinds)


@pytest.mark.parametrize("command", ["hint", "walkthrough", "grade", "explain", "fix"])
def test_an_edit_that_shows_other_entries_is_refused_in_one_line(cli, tmp_path, command):
    """The cake's hints read its entries (``side/3``) in Python: an edit that shows its
    pieces (``in/2``) instead was an internal error (a tuple unpacked short)."""
    edited = tmp_path / "cake.lp"
    shipped = (ROOT / "encodings" / "cake.lp").read_text()
    edited.write_text(shipped.replace("#show side/3.", "#show in/2."))
    asked = ["--progress", "{}"] if command == "fix" else []
    run = cli(command, "cake", "--encoding", edited, *asked)
    assert run.code == 2, run.err
    assert run.err.startswith("aspuzzles: error: ") and run.err.endswith(
        "cake.lp: its entries are in/2, not side/3 as cake's hints read them: an edited "
        "encoding keeps the shipped one's entries (its '#show' lines)\n"
    )
    assert run.err.count("\n") == 1


def test_an_encoding_that_is_no_file_is_named_so(cli, tmp_path):
    """A missing encoding and one that is a folder or a device are told apart."""
    run = cli("solve", "haunted", "--encoding", tmp_path / "none.lp")
    assert run.code == 2 and run.err.endswith("none.lp: no such encoding file\n"), run.err
    for there in (tmp_path, Path(os.devnull)):
        run = cli("solve", "haunted", "--encoding", there)
        assert run.code == 2, run.err
        assert run.err == f"aspuzzles: error: {there}: not a file (an encoding is read whole)\n"


def test_the_shipped_encoding_named_with_encoding_keeps_its_accelerators(cli):
    shipped = ("solve", "capture", "wight", "--encoding", ROOT / "encodings" / "capture.lp")
    run = cli(*shipped, "--format", "json")
    data = run.json()
    assert run.code == 0 and run.err == "" and "encoding" not in data
    assert data["stats"]["breadth_first_boards"] > 0  # answered in Python, before clingo


@pytest.mark.slow
def test_the_shipped_encoding_named_with_encoding_keeps_its_bounds(cli):
    shipped = ("solve", "capture", "wight", "--encoding", ROOT / "encodings" / "capture.lp")
    run = cli(*shipped, "--breadth-first", "0", "--plan-search", "ascending", "--format", "json")
    assert run.json()["stats"]["bound_checks"] > 0


def test_no_verdict_without_search_for_an_edited_encoding(cli, tmp_path):
    """The cake's "6 plain do not divide into 5 pieces" is the shipped rules' verdict;
    an edited encoding is asked instead (here it agrees, by search)."""
    edited = tmp_path / "cake.lp"
    edited.write_text((ROOT / "encodings" / "cake.lp").read_text() + "% edited\n")
    shipped = cli("solve", "cake", "seed-5-pieces", "--format", "json").json()
    assert "reason" in shipped
    run = cli("solve", "cake", "seed-5-pieces", "--encoding", edited, "--format", "json")
    data = run.json()
    assert run.code == 1 and "reason" not in data and data["encoding"] == "edited"


def test_a_count_under_an_edited_encoding_is_marked_unchecked(cli, tmp_path):
    edited = tmp_path / "template.lp"
    edited.write_text((ROOT / "encodings" / "template.lp").read_text() + "% edited\n")
    data = cli("solve", "template", "--count", "--encoding", edited, "--format", "json").json()
    assert (data["count"], data["checked"], data["encoding"]) == (1, False, "edited")
    shipped = cli("solve", "template", "--count", "--format", "json").json()
    assert "checked" not in shipped and "encoding" not in shipped


def _cake(folder, side: int, pieces: int):
    """A cake of two toppings in a checkerboard: big cakes, many partitions."""
    rows = ["".join("12"[(r + c) % 2] for c in range(side)) for r in range(side)]
    path = folder / f"cake-{side}.txt"
    path.write_text(f"pieces {pieces}\n" + "\n".join(rows) + "\n")
    return path


@pytest.mark.slow
def test_the_time_limit_holds_while_the_facts_are_built(cli, tmp_path):
    """A 100x100 cake of 50 pieces takes minutes and gigabytes to build its facts: the
    limit stops it there, in its worker, and says so."""
    started = time.perf_counter()
    run = cli("solve", "cake", _cake(tmp_path, 100, 50), "--timeout", "2", "--format", "json")
    elapsed = time.perf_counter() - started
    data = run.json()
    assert run.code == 3
    assert (data["status"], data["timeout_phase"]) == ("timeout", "facts")
    assert elapsed < 12  # 2 s, and a loaded machine's slack; not minutes


@pytest.mark.slow
def test_the_memory_limit_stops_a_solve_with_its_own_exit_code(tmp_path):
    run = command_process("solve", "cake", str(_cake(tmp_path, 100, 50)), "--memory", "300")
    out, err = run.communicate(timeout=120)
    assert run.returncode == 5, err
    # The facts of a 100x100 cake now fit (half a million candidates): grounding is
    # where 300 MB runs out.
    assert "memory (memory limit reached while grounding)" in out


def test_a_memory_limit_too_low_to_start_is_one_line_not_the_runtimes():
    """At 40 MB glibc said "cannot allocate memory for thread-local data: ABORT" on
    the terminal before the command's own line. Where the limit runs out depends on
    what the machine's libraries take, so a ladder of limits around it: each either
    generates (and says nothing on stderr) or ends with the one line, exit 5."""
    stopped = 0
    for megabytes in (20, 30, 40, 50, 60, 80):
        run = command_process("generate", "haunted", "--memory", str(megabytes))
        _, err = run.communicate(timeout=120)
        if run.returncode == 0:
            assert err == "", (megabytes, err)
            continue
        stopped += 1
        assert run.returncode == 5, (megabytes, err)
        assert err.count("\n") == 1, (megabytes, err)
        assert err.startswith("aspuzzles: error: memory limit reached"), (megabytes, err)
    assert stopped  # 20 MB is too little anywhere


def _children(pid: int) -> list[int]:
    tasks = Path(f"/proc/{pid}/task")
    children = (task / "children" for task in tasks.iterdir()) if tasks.exists() else []
    return [int(child) for path in children for child in path.read_text().split()]


def _gone(pid: int, within: float = 5.0) -> bool:
    """The process has ended (a zombie waiting for init to reap it counts as ended)."""
    until = time.perf_counter() + within
    while time.perf_counter() < until:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
        except FileNotFoundError:
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.1)
    return False


@pytest.mark.slow
def test_ctrl_c_during_a_race_keeps_what_the_racers_counted(tmp_path):
    """Two processes race to count a 10x10 cake's partitions (far too many to finish);
    Ctrl-C asks both to stop and takes the larger count, within a second."""
    run = command_process(
        "solve", "cake", str(_cake(tmp_path, 10, 2)), "--count", "--format", "json"
    )
    time.sleep(3)
    workers = _children(run.pid)
    assert len(workers) == 2
    os.killpg(run.pid, signal.SIGINT)
    started = time.perf_counter()
    out, _ = run.communicate(timeout=30)
    assert time.perf_counter() - started < 3
    data = json.loads(out)
    assert run.returncode == 130
    assert data["status"] == "interrupted" and data["count"] > 0
    assert all(_gone(worker) for worker in workers)


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        # questions under assumptions, no limit (about 8 s in all)
        ["grade", "haunted", str(ROOT / "bench" / "data" / "undead-mirrors-20x20-s3.txt")],
        ["generate", "haunted", "--givens", "--size", "30x30", "--mirrors", "0.3"],
    ],
)
def test_ctrl_c_during_a_grounded_session_stops_cleanly(args):
    """Ctrl-C reaching a solve call that waits without a time limit (the reasoner, the
    generator's session) stops the command with its own exit code and one line: the
    search runs in clingo's thread, so that the interrupt does not arise inside one of
    clingo's callbacks, which would abort the process."""
    run = command_process(*args)
    time.sleep(2)
    os.kill(run.pid, signal.SIGINT)
    started = time.perf_counter()
    out, err = run.communicate(timeout=30)
    assert time.perf_counter() - started < 3
    assert (run.returncode, out, err) == (130, "", "aspuzzles: interrupted\n")


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM, signal.SIGHUP])
def test_no_worker_outlives_its_parent(tmp_path, signum):
    if signum == signal.SIGHUP and signal.getsignal(signal.SIGHUP) == signal.SIG_IGN:
        # Under nohup the command inherits SIGHUP ignored, as it should: it lives on.
        pytest.skip("SIGHUP is ignored here (run under nohup), and so by the command")
    run = command_process("solve", "cake", str(_cake(tmp_path, 10, 2)), "--count")
    try:
        # Both workers started (on a loaded machine this takes more than a moment).
        until = time.perf_counter() + 30
        while len(_children(run.pid)) < 2 and time.perf_counter() < until:
            time.sleep(0.2)
        workers = _children(run.pid)
        assert len(workers) == 2
        os.kill(run.pid, signum)
        run.communicate(timeout=30)
        assert all(_gone(worker) for worker in workers)
    finally:  # a failed test leaves nothing running either
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()


def test_a_worker_whose_parent_died_before_it_looked_ends_too():
    """A worker slow to start (a loaded machine) may find its parent already gone when
    it sets up ``die_with_parent``: it must end at once, not run on as an orphan."""
    script = (
        "import os, sys, time\n"
        "from aspuzzles.driver.limits import die_with_parent, note_parent\n"
        "note_parent()\n"
        "child = os.fork()\n"
        "if child == 0:\n"
        "    time.sleep(1.5)  # the parent is gone by now\n"
        "    die_with_parent()\n"
        "    time.sleep(60)\n"
        "    os._exit(0)\n"
        "print(child, flush=True)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    parent = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=30
    )
    child = int(parent.stdout.split()[0])
    try:
        assert _gone(child, within=10)
    finally:
        if not _gone(child, within=0.1):
            os.kill(child, signal.SIGKILL)


# ------------------------------------------------------------------ files and caches
def test_an_output_file_is_replaced_whole_or_not_at_all(cli, tmp_path, monkeypatch):
    """The text goes to a file beside the target, which replaces it in one step: a
    failure while writing leaves the old file as it was, and no stray file."""
    target = tmp_path / "out.json"
    target.write_text("old\n")
    real_replace = os.replace

    def disk_full(source, destination):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    run = cli("solve", "haunted", "-o", target, "--format", "json")
    assert run.code == 2 and "cannot write: No space left on device" in run.err
    assert target.read_text() == "old\n" and sorted(tmp_path.iterdir()) == [target]
    monkeypatch.setattr(os, "replace", real_replace)
    assert cli("solve", "haunted", "-o", target, "--format", "json").code == 0
    assert json.loads(target.read_text())["status"] == "solved"


@pytest.mark.slow
def test_a_kill_while_writing_leaves_the_old_file_or_the_whole_new_one(tmp_path):
    target = tmp_path / "big.json"
    for delay in (0.6, 0.8, 1.0, 1.2):
        target.write_text('{"old": true}\n')
        run = command_process(
            "solve",
            "geniusstar",
            "-n",
            "0",
            "--timeout",
            "0.5",
            "--format",
            "json",
            "-o",
            str(target),
        )
        time.sleep(delay)
        run.kill()
        run.communicate(timeout=30)
        data = json.loads(target.read_text())  # never a torn file
        assert data == {"old": True} or data["status"] == "timeout"


@pytest.mark.slow
def test_a_resumed_sweep_drops_a_line_a_kill_cut_short(tmp_path):
    from aspuzzles.puzzles.geniusstar import PUZZLE
    from aspuzzles.sweep import read_results, sweep

    output = tmp_path / "sweep.tsv"
    sweep(PUZZLE, {}, output, jobs=1, limit=3, progress=False)
    whole = output.read_text()
    output.write_text(whole[: whole.rindex("\t") + 0])  # the last line loses its verdict
    sweep(PUZZLE, {}, output, jobs=1, limit=3, progress=False)
    lines = output.read_text().splitlines()
    assert len(lines) == 4 and all(line.count("\t") == 1 for line in lines[1:])
    header = "# sweep geniusstar"
    output.with_name("whole.tsv").write_text(whole)
    assert read_results(output, header) == read_results(output.with_name("whole.tsv"), header)


def test_numba_keeps_its_code_where_it_can_write_and_nowhere_if_nothing_can_be(tmp_path):
    from aspuzzles.compiled import cache_choice

    nowhere = Path("/dev/null/nothing")  # no folder can be made under a file
    assert cache_choice(nowhere, {"HOME": str(nowhere)}, tmp_path) == (
        True,
        str(tmp_path / "aspuzzles-numba"),
    )
    assert cache_choice(nowhere, {"HOME": str(nowhere)}, nowhere) == (False, None)
    assert cache_choice(tmp_path, {}, nowhere) == (True, None)


@pytest.mark.slow
def test_the_compiled_search_runs_uncached_where_nothing_can_be_written():
    code = (
        "from aspuzzles.puzzles.capture import kernel; import numpy as np; "
        "print(kernel._CACHE, int(kernel._in_runs(np.uint64(7))))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "NUMBA_CACHE_DIR": "/dev/null/x"}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["False", "7"]


# ------------------------------------------------------------- clingo's text conventions
def test_atoms_follow_clingos_own_output(cli):
    run = cli("solve", "template", "--format", "atoms", "-n", "2")
    lines = run.out.splitlines()
    assert lines[0] == "Answer: 1" and lines[1].startswith("value(")
    assert lines[2:5] == ["SATISFIABLE", "", "Models       : 1"]
    assert lines[5].startswith("Time         : ")
    unsolvable = cli("solve", "cake", "seed-5-pieces", "--format", "atoms")
    assert unsolvable.code == 1 and unsolvable.out.splitlines()[:3] == [
        "UNSATISFIABLE",
        "",
        "Models       : 0",
    ]


def test_atoms_of_an_optimum_and_of_a_count(cli, tmp_path, monkeypatch):
    (tmp_path / "encodings").mkdir()
    (tmp_path / "encodings" / "cheap.lp").write_text(
        "{ pick(1..6) }.\n:- #count { X : pick(X) } < 2.\n#minimize { X : pick(X) }.\n"
        "#show pick/1.\n"
    )
    (tmp_path / "six.lp").write_text("")
    monkeypatch.chdir(tmp_path)
    lines = cli("solve", "cheap", "six.lp", "--format", "atoms").out.splitlines()
    assert lines[:6] == [
        "Answer: 1",
        "pick(1) pick(2)",
        "Optimization: 3",
        "OPTIMUM FOUND",
        "",
        "Models       : 1",
    ]
    counted = cli("solve", "template", "--count", "--format", "atoms").out.splitlines()
    assert counted[:3] == ["SATISFIABLE", "", "Models       : 1"]
