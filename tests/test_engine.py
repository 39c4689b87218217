"""The engine's promises held by every command: limits in every phase, Ctrl-C, the
edited-encoding note and mark, ``-o``, exit codes."""

from __future__ import annotations

import json
import os
import signal
import stat
import threading
import time
import xml.dom.minidom
from pathlib import Path

import pytest

from aspuzzles.driver.guard import Bounds, note_phase, run_guarded
from aspuzzles.driver.jobs import Job, Outcome
from aspuzzles.driver.workers import run_in_workers
from aspuzzles.errors import MemoryLimit, TimeLimit

from .conftest import ROOT, interrupted_run

ENCODINGS = ROOT / "encodings"


def big_cake(path: Path, size: int = 100, pieces: int = 50) -> Path:
    """A cake whose hint grounding alone takes far longer than a few seconds."""
    cells = ["0"] * (size * size)
    for index in range(0, size * size, size * size // (pieces * 2)):
        cells[index] = "1"
    while cells.count("1") % pieces:
        cells[cells.index("0")] = "1"
    rows = ["".join(cells[row * size : (row + 1) * size]) for row in range(size)]
    path.write_text(f"pieces {pieces}\n" + "\n".join(rows) + "\n")
    return path


# ------------------------------------------------------------------------ the guard
def test_guarded_work_returns_its_value_and_raises_its_errors():
    assert run_guarded(lambda: {"answer": 42}, Bounds()) == {"answer": 42}

    def bad() -> None:
        raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        run_guarded(bad, Bounds())


def test_guarded_work_past_its_time_limit_names_the_phase():
    def slow() -> None:
        note_phase("grounding")
        time.sleep(30)

    started = time.perf_counter()
    with pytest.raises(TimeLimit, match=r"time limit of 0\.3 s reached while grounding"):
        run_guarded(slow, Bounds(timeout=0.3))
    assert time.perf_counter() - started < 5


def test_guarded_work_past_its_memory_limit_is_the_memory_outcome():
    def greedy() -> int:
        hoard = []
        while True:
            hoard.append(bytearray(1 << 24))

    with pytest.raises(MemoryLimit, match="memory limit reached while loading"):
        run_guarded(greedy, Bounds(memory=300 << 20))


def test_a_guarded_child_that_dies_under_a_memory_limit_is_the_memory_outcome():
    with pytest.raises(MemoryLimit):
        run_guarded(_killed, Bounds(memory=2000 << 20))


def test_a_guarded_child_that_dies_without_a_memory_limit_is_a_bug():
    with pytest.raises(RuntimeError, match="worker process died"):
        run_guarded(lambda: os._exit(9), Bounds())


def _killed() -> None:
    """Ends the process as clingo's abort does where it cannot allocate (its
    thread-local data), with no answer sent (SIGKILL: no fault report either)."""
    os.kill(os.getpid(), signal.SIGKILL)


def _dies(job: Job, report) -> Outcome:
    report("phase", "grounding")
    _killed()
    raise AssertionError("not reached")


def test_a_racing_worker_that_dies_under_a_memory_limit_is_the_memory_outcome():
    job = Job("", [], None, [], 1, False, None, None, memory=400 << 20)
    outcome = run_in_workers([job], _dies)
    assert outcome.out_of_memory and outcome.timeout_phase == "grounding"
    assert outcome.error is None


# ------------------------------------------------------------- every command's limits
@pytest.mark.slow
@pytest.mark.parametrize("command", ["hint", "explain", "grade"])
def test_a_time_limit_holds_while_a_question_is_grounded(cli, tmp_path, command):
    cake = big_cake(tmp_path / "cake.txt")
    started = time.perf_counter()
    run = cli(command, "cake", cake, "--timeout", "2")
    assert run.code == 3 and run.out == ""
    assert run.err.startswith("aspuzzles: error: time limit of 2 s reached while ")
    assert time.perf_counter() - started < 6  # the grounding alone takes far longer


@pytest.mark.slow
def test_a_memory_limit_holds_while_a_hint_is_grounded(cli, tmp_path):
    run = cli("hint", "cake", big_cake(tmp_path / "cake.txt"), "--memory", "250")
    assert run.code == 5 and run.out == ""
    assert "memory limit reached while" in run.err and run.err.count("\n") == 1


@pytest.mark.slow
def test_ctrl_c_while_a_hint_is_grounded_ends_it_at_once(tmp_path):
    cake = big_cake(tmp_path / "cake.txt")
    started = time.perf_counter()
    run = interrupted_run("hint", "cake", str(cake), after=2.0)
    assert run.returncode == 130 and run.stderr == "aspuzzles: interrupted\n"
    assert time.perf_counter() - started < 6


@pytest.mark.slow
def test_a_sweep_past_its_time_limit_keeps_its_results_to_resume(cli, tmp_path):
    results = tmp_path / "sweep.tsv"
    # The star's sweep: 4 s of work on a fast machine (the square's, 0.7 s, could end
    # before its time limit).
    run = cli("sweep", "geniusstar", "--timeout", "0.5", "-o", results, "--quiet")
    assert run.code == 3 and "the same command resumes the sweep" in run.err
    lines = results.read_text().splitlines()
    assert lines[0].startswith("# sweep geniusstar")
    assert f"{results}: {len(lines) - 1} results kept" in run.err


# --------------------------------------------------------------- exit codes and marks
def test_grading_an_unsolvable_puzzle_exits_1(cli):
    run = cli("grade", "cake", "unsolvable-4x4-corner")
    assert run.code == 1 and "the puzzle has no solution: nothing to grade" in run.err


@pytest.fixture
def edited_haunted(tmp_path: Path) -> Path:
    """The shipped rules with one comment more: the same puzzle, an edited file."""
    edited = tmp_path / "haunted.lp"
    edited.write_text((ENCODINGS / "haunted.lp").read_text() + "\n% edited\n")
    return edited


@pytest.mark.parametrize("command", ["hint", "explain", "grade"])
def test_every_question_says_the_encoding_is_edited(cli, edited_haunted, command):
    run = cli(command, "haunted", "--encoding", edited_haunted, "--format", "json")
    assert run.code == 0
    assert run.json()["encoding"] == "edited"
    assert "aspuzzles: note: the encoding differs from the shipped" in run.err
    shipped = cli(command, "haunted", "--format", "json")
    assert "encoding" not in shipped.json() and shipped.err == ""


@pytest.mark.parametrize("command", ["hint", "explain", "grade", "generate"])
def test_every_answer_can_be_written_to_a_file(cli, tmp_path, command):
    target = tmp_path / "out.txt"
    extra = ["--seed", "3"] if command == "generate" else []
    run = cli(command, "haunted", *extra, "-o", target)
    assert run.code == 0 and run.out == ""
    assert target.read_text().strip()


def test_generate_names_no_puzzle_twice_in_its_output(cli):
    first = cli("generate", "haunted", "--seed", "3")
    again = cli("generate", "haunted", "--seed", "3")
    assert first.code == 0 and first.out == again.out and first.out.endswith("\n")


# ------------------------------------------------------------------------- the -o file
def test_output_keeps_a_files_permissions(cli, tmp_path):
    target = tmp_path / "private.txt"
    target.write_text("old\n")
    target.chmod(0o600)
    assert cli("solve", "haunted", "-o", target).code == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert "ghosts" in target.read_text()


def test_output_through_a_link_writes_its_target(cli, tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    assert cli("solve", "haunted", "-o", link).code == 0
    assert link.is_symlink() and "ghosts" in real.read_text()


def test_output_into_a_fifo_is_written_through(cli, tmp_path):
    fifo = tmp_path / "answers"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    run = cli("solve", "haunted", "-o", fifo)
    reader.join(timeout=30)
    assert run.code == 0 and stat.S_ISFIFO(fifo.stat().st_mode)
    assert "ghosts" in got[0]


def test_output_into_a_device_is_written_through(cli):
    assert cli("solve", "haunted", "-o", "/dev/null").code == 0
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


# ---------------------------------------------------------------------------- outputs
def test_atoms_say_models_with_a_plus_when_the_search_stopped_early(cli):
    first = cli("solve", "haunted", "--format", "atoms")
    assert "Models       : 1+\n" in first.out
    every = cli("solve", "haunted", "-n", "0", "--format", "atoms")
    assert "Models       : 1\n" in every.out
    none = cli("solve", "cake", "unsolvable-4x4-corner", "--format", "atoms")
    assert "Models       : 0\n" in none.out


def test_cake_toppings_that_are_markup_are_escaped_in_svg(cli, tmp_path):
    cake = tmp_path / "markup.txt"
    cake.write_text("pieces 2\n<&..\n<&..\n")
    solved = cli("solve", "cake", cake, "--format", "svg")
    hinted = cli("hint", "cake", cake, "--format", "svg")
    for run in (solved, hinted):
        assert run.code == 0
        document = xml.dom.minidom.parseString(run.out)  # raises on malformed SVG
        texts = [node.firstChild.data for node in document.getElementsByTagName("text")]
        assert "<" in "".join(texts) and "&" in "".join(texts)


@pytest.mark.slow
def test_ctrl_c_late_in_a_long_listing_keeps_the_answers_found():
    """Tens of thousands of star answers: Ctrl-C while they are searched for, checked
    or written ends the command as interrupted, with those found shown whole."""
    # The whole listing (30,583 tilings) took 6-12 s on the machines it was timed on, its
    # first answers come within half a second: Ctrl-C at 1.5 s, well inside it.
    run = interrupted_run("solve", "geniusstar", "-n", "0", "--format", "json", after=1.5)
    data = json.loads(run.stdout)
    assert run.returncode == 130 and data["interrupted"] is True
    assert data["solutions"] and data["status"] == "interrupted"


@pytest.mark.slow
def test_an_edited_planning_encoding_has_no_horizon_bound_from_python(cli, tmp_path):
    """The shipped capture rules bound a plan by the board's phases (Python's reading
    of those rules); an edited encoding may allow longer plans, so it is never told
    "no plan" from that bound: its horizon grows until the time limit."""
    edited = tmp_path / "capture.lp"
    edited.write_text((ENCODINGS / "capture.lp").read_text() + "\n% edited\n")
    shipped = cli("solve", "capture", "unsolvable-planted", "--format", "json")
    assert shipped.code == 1 and shipped.json()["status"] == "unsatisfiable"
    run = cli("solve", "capture", "unsolvable-planted", "--encoding", edited, "--timeout", "1")
    assert run.code == 3 and "timeout" in run.out and "unsatisfiable" not in run.out


def test_a_question_asked_under_limits_from_python_comes_back_whole():
    """From a notebook, hint, explain and grade with a time or memory limit run in the
    engine's guard; the report comes back with its clingo symbols intact (a symbol
    pickles as a reference into its own process's table, so they cross as text)."""
    import aspuzzles

    bounded = aspuzzles.hint("haunted", "gen-5x5-s3", timeout=30)
    here = aspuzzles.hint("haunted", "gen-5x5-s3")
    assert bounded.to_dict() == here.to_dict() and bounded.text() == here.text()
    assert bounded.hints[0].entry == here.hints[0].entry
    assert bounded.hints[0].entry.arguments == here.hints[0].entry.arguments
    conflict = aspuzzles.explain("cake", "unsolvable-4x4-corner", memory=2000 << 20)
    assert conflict.lines() == aspuzzles.explain("cake", "unsolvable-4x4-corner").lines()


@pytest.mark.slow
def test_a_time_limit_from_python_holds_while_a_question_is_grounded(tmp_path):
    import aspuzzles

    cake = big_cake(tmp_path / "cake.txt")
    started = time.perf_counter()
    with pytest.raises(TimeLimit, match="time limit of 2 s reached while"):
        aspuzzles.grade("cake", cake, timeout=2)
    assert time.perf_counter() - started < 6
