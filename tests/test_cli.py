"""The command line: formats, output files, exit codes, one-line errors."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import time
import types
from xml.etree import ElementTree

import pytest

import aspuzzles
from aspuzzles import entry
from aspuzzles.cli import main
from aspuzzles.registry import module_puzzles

from .conftest import CHECKOUT, COMMAND, ROOT, interrupted_run

SEED_ID = "4x4:2,4,3,cRLbRaRRbLLa,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,2"


def test_default_instance_text(cli):
    run = cli("solve", "haunted")
    assert run.code == 0
    assert run.out.splitlines()[2].split() == ["2", "G", "Z", "Z", "/", "1"]
    assert "haunted seed-4x4.txt: solved" in run.out and "(checked)" in run.out


def test_json_output_has_the_documented_keys(cli):
    run = cli("solve", "haunted", SEED_ID, "--unique", "--format", "json")
    data = run.json()
    assert set(data) >= {"puzzle", "instance", "status", "verdict", "solutions", "stats"}
    assert data["status"] == "solved" and data["verdict"] == "unique"
    assert data["solutions"] == [{"grid": ["GZZ/", "\\VV/", "V//V", "G\\\\Z"]}]


def test_count_json(cli):
    data = cli("solve", "haunted", "seed-4x4", "--count", "--format", "json").json()
    assert data["count"] == 1 and data["solutions"] == []


def test_svg_to_file(cli, tmp_path):
    target = tmp_path / "board.svg"
    run = cli("solve", "haunted", "--format", "svg", "-o", target)
    assert run.code == 0 and run.out == ""
    assert target.read_text().startswith("<svg") and "solved" in run.err
    assert run.err.rstrip().endswith("(checked)")  # as the terminal and a notebook say


#: Colours as SVG 1.1 writes them: converters that follow it (cairosvg, ImageMagick)
#: paint CSS's hsl() black, though browsers show it.
SVG11_COLOUR = re.compile(r"#[0-9a-f]{6}|#[0-9a-f]{3}|none|white|black")


@pytest.mark.parametrize("puzzle", sorted(module_puzzles()))
def test_svg_colours_are_svg_1_1_so_any_converter_paints_them(cli, puzzle):
    run = cli("solve", puzzle, "--format", "svg")
    colours = re.findall(r'(?:fill|stroke)="([^"]*)"', run.out)
    assert run.code == 0 and len(colours) > 10
    assert [colour for colour in colours if not SVG11_COLOUR.fullmatch(colour)] == []


def test_a_notebook_says_whether_the_answers_were_checked():
    result = aspuzzles.solve("haunted", "seed-4x4")
    assert result.summary().endswith("(checked)")
    assert "(checked)</p>" in result._repr_html_()
    assert not aspuzzles.solve("cake", "seed-5-pieces").summary().endswith(")")


@pytest.mark.parametrize(
    ("args", "code", "said"),
    [
        (["tiles", "--count"], 0, "count 1, count_raw 4"),
        (["cake", "seed-5-pieces"], 1, "unsatisfiable, without search"),
    ],
)
def test_svg_without_a_board_shows_the_status_line(cli, args, code, said):
    run = cli("solve", *args, "--format", "svg")
    root = ElementTree.fromstring(run.out)  # well-formed, not an empty 0x0 picture
    assert run.code == code and said in "".join(root.itertext())


def test_plan_search_on_a_puzzle_without_plans_is_said_to_do_nothing(cli):
    run = cli("solve", "cake", "--plan-search", "split")
    assert run.code == 0
    assert run.err == (
        "aspuzzles: warning: --plan-search has no effect on cake (it searches no plan over moves)\n"
    )


def test_stats_flag(cli):
    run = cli("solve", "template", "--stats")
    assert "ground_time" in run.out and "conflicts" in run.out
    in_python = cli("solve", "haunted", "--stats")  # answered before clingo starts
    assert "python_search_time" in in_python.out and "ground_time" not in in_python.out


def test_unsolvable_exits_1(cli):
    # The seed with one clue changed from 0 to 4 has no solution.
    run = cli("solve", "haunted", SEED_ID[:-1] + "4", "--format", "json")
    assert run.code == 1 and run.json()["status"] == "unsatisfiable"


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "haunted", "-n", "2", "gen-4x4-s2"],  # an option before the instance
        ["solve", "--models", "2", "haunted", "gen-4x4-s2"],
        ["solve", "haunted", "gen-4x4-s2", "-n", "2", "-v"],  # -v after the command
        ["-v", "solve", "haunted", "gen-4x4-s2", "-n", "2"],
    ],
)
def test_options_and_the_instance_come_in_any_order(cli, args):
    run = cli(*args)
    assert run.code == 0
    assert run.out.splitlines()[-1].startswith("haunted gen-4x4-s2.txt: solved, 1 solution,")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "haunted", "4x4:1,2"], "<argument>: expected three totals"),
        (["solve", "haunted", "--models", "-1"], "--models: must be at least 0, not -1"),
        (["solve", "haunted", "--timeout", "0"], "--timeout: must be a number of seconds from"),
        (["solve", "haunted", "--timeout", "1e-9"], "from 0.001 to 31536000 (a year), not 1e-09"),
        (["sweep", "geniussquare", "--timeout", "0.0009"], "from 0.001 to"),
        (["census", "geniussquare", "--timeout", "1e-4"], "from 0.001 to"),
        (["solve", "haunted", "--timeout", "inf"], "to 31536000 (a year), not inf"),
        (["solve", "haunted", "--timeout", "1e308"], "not 1e+308"),
        (["solve", "haunted", "--timeout", "nan"], "not nan"),
        (["hint", "haunted", "--timeout", "inf"], "--timeout: must be a number of seconds"),
        (["sweep", "geniussquare", "--timeout", "-2"], "--timeout: must be a number of seconds"),
        (["solve", "haunted", "--memory", "100000000000000000000"], "--memory: must be from 1 to"),
        (["grade", "haunted", "--memory", "-5"], "--memory: expected a whole number"),
        (["solve", "haunted", "--threads", "0"], "--threads: must be at least 1, not 0"),
        (["solve", "haunted", "--format", "png"], "error: solve: argument --format: invalid"),
        (["solve"], "error: solve: the following arguments are required: puzzle"),
        (["frobnicate"], "aspuzzles: error: argument command: invalid choice"),
        (["solve", "haunted", "seed-4x4", "extra"], "solve: unrecognized arguments: extra"),
        (
            ["solve", "haunted", "gen-8x5-s88"],
            "gen-8x5-s88: no such instance file or shipped instance (nor, read inline: "
            "not a game ID",
        ),
        (["solve", "cake", "nosuch"], "nosuch: no such instance file"),
        (["solve", "cake", "/"], "/: is a folder, not an instance file"),
        (
            ["solve", "haunted", "-o", "/no/such/folder/out.txt"],
            "/no/such/folder/out.txt: cannot write here: there is no folder '/no/such/folder'",
        ),
        (["solve", "haunted", "-o", "."], ".: is a folder, not a file to write"),
        (["sweep", "haunted", "-o", "/no/such/folder/x.tsv"], "there is no folder"),
        (["sweep", "geniussquare", "--limit", "-1"], "--limit: must be at least 1, not -1"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(cli, args, message):
    run = cli(*args)
    assert run.code == 2
    assert run.err.count("\n") == 1 and message in run.err


def test_bad_instance_file_names_file_and_line(cli, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("# a comment\n\n4x4:2,4,3,cRLbRaRRbLLa,0,2\n")
    run = cli("solve", "haunted", bad)
    assert run.code == 2 and f"{bad}:3: expected 16 clues" in run.err


@pytest.mark.parametrize("puzzle", sorted(module_puzzles()))
def test_a_file_saved_on_windows_solves(cli, tmp_path, puzzle):
    """A byte-order mark and CRLF line ends (Notepad's defaults) are not part of the puzzle."""
    shipped = sorted((ROOT / "instances" / puzzle).glob("*.txt"))[0]
    windows = tmp_path / shipped.name
    windows.write_bytes(b"\xef\xbb\xbf" + shipped.read_bytes().replace(b"\n", b"\r\n"))
    run = cli("solve", puzzle, windows, "--format", "json", "--timeout", "60")
    solvable = cli("solve", puzzle, shipped, "--format", "json", "--timeout", "60")
    assert (run.code, run.json()["status"]) == (solvable.code, solvable.json()["status"])
    assert run.json()["status"] in ("solved", "unsatisfiable"), run.err


def test_binary_files_are_rejected_in_one_line(cli, tmp_path):
    binary = tmp_path / "noise.txt"
    binary.write_bytes(bytes(range(128, 256)))
    for args in (["solve", "capture", binary], ["check", "capture", "wight", binary]):
        run = cli(*args)
        assert run.code == 2 and run.err == f"aspuzzles: error: {binary}: not a UTF-8 text file\n"


def test_generate_prints_a_game_id(cli):
    run = cli("generate", "haunted", "--size", "4x3", "--seed", "2")
    assert run.code == 0 and run.out.startswith("4x3:")


def test_the_installed_command_has_no_traceback_and_documented_codes():
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    bad = subprocess.run(
        [sys.executable, "-m", "aspuzzles", "solve", "haunted", "4x4:x"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    good = subprocess.run(
        [sys.executable, "-m", "aspuzzles", "solve", "haunted"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert good.returncode == 0 and "solved" in good.stdout


@pytest.mark.parametrize(
    ("command", "option"),
    [
        (("generate", "tiles"), "--border-kinds"),
        (("generate", "capture"), "--flaming"),
        (("solve", "tiles"), "--raw"),
    ],
)
def test_help_lists_the_puzzles_own_options(capsys, command, option):
    with pytest.raises(SystemExit) as stop:
        main([*command, "--help"])
    assert stop.value.code == 0
    assert option in capsys.readouterr().out


def test_no_arguments_print_the_help_and_exit_2(capsys):
    assert main([]) == 2
    assert "usage: aspuzzles" in capsys.readouterr().err


def test_version_names_clingo_too(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert re.fullmatch(
        r"aspuzzles \d+\.\d+\.\d+ \(clingo \d+\.\d+\.\d+\)\n", capsys.readouterr().out
    )


def test_help_without_a_puzzle_still_prints_the_usage(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["generate", "--help"])
    assert stop.value.code == 0
    assert "usage: aspuzzles generate" in capsys.readouterr().out


HARD_TILES = ROOT / "bench" / "data" / "e2-10x10-12-colours-seed11.txt"  # > 60 s


@pytest.mark.slow
@pytest.mark.parametrize("search", [["--no-portfolio"], []], ids=["in-process", "two-processes"])
def test_ctrl_c_stops_a_long_search_at_once_with_its_own_exit_code(search):
    started = time.perf_counter()
    run = interrupted_run("solve", "tiles", str(HARD_TILES), "--format", "json", *search)
    assert time.perf_counter() - started < 10  # not when the search would have ended
    assert run.returncode == 130 and "Traceback" not in run.stderr
    data = json.loads(run.stdout)
    assert (data["status"], data["interrupted"], data["complete"]) == ("interrupted", True, False)
    assert data["timeout_phase"] == "solving"


def test_ctrl_c_while_the_command_is_still_importing_ends_in_one_line(monkeypatch, capsys):
    """The entry point answers Ctrl-C during the imports the command line needs (a
    tenth of a second or more) as at any other moment: one line, exit code 130."""

    class Importing(types.ModuleType):
        def __getattr__(self, name):
            raise KeyboardInterrupt

    monkeypatch.setitem(sys.modules, "aspuzzles.cli", Importing("aspuzzles.cli"))
    assert entry.main() == 130
    assert capsys.readouterr().err == "aspuzzles: interrupted\n"


def test_importing_the_package_imports_neither_clingo_nor_the_puzzles():
    """What keeps the time before the entry point can answer Ctrl-C short; the public
    names are there all the same, imported on first use."""
    code = (
        "import sys, aspuzzles; "
        "print(sorted(m for m in ('clingo', 'jinja2', 'aspuzzles.driver') if m in sys.modules)); "
        "print(aspuzzles.solve.__module__, aspuzzles.InputError.__module__)"
    )
    assert printed_by(code).splitlines() == ["[]", "aspuzzles.api aspuzzles.errors"]
    assert all(getattr(aspuzzles, name) is not None for name in aspuzzles.__all__)
    with pytest.raises(AttributeError, match="no attribute 'solver'"):
        aspuzzles.solver  # noqa: B018


def test_finding_the_puzzles_leaves_numba_unimported():
    """numba (capture's compiled search) costs a process about half a second to import:
    finding the puzzles does not import it (helpers live inside their puzzle's package,
    which loads the compiled search only when a search needs it), nor does solving a
    small capture board, whose search stays in Python."""
    code = (
        "import sys; from aspuzzles import solve; from aspuzzles.registry import puzzle_names; "
        "names = puzzle_names(); solve('capture', 'planted-3-moves'); "
        "print('capture' in names, 'kernel' in names, 'numba' in sys.modules)"
    )
    assert printed_by(code).split() == ["True", "False", "False"]


def test_solving_a_dice_roll_leaves_numpy_and_numba_unimported():
    """The dice puzzles' compiled tiling search serves sweeps and censuses only: a
    roll solved alone loads neither numpy nor numba (together a good half second)."""
    code = (
        "import sys; from aspuzzles import solve; solve('geniusstar', '1 10 16 29 33 38 39'); "
        "solve('geniussquare', 'B2 D6 C3 F2 F1 D2 F5'); "
        "print('numpy' in sys.modules, 'numba' in sys.modules)"
    )
    assert printed_by(code).split() == ["False", "False"]


def printed_by(code: str) -> str:
    """What Python code prints in a fresh interpreter (what it imports is its own)."""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return run.stdout


def _left_with(code: str) -> subprocess.CompletedProcess[str]:
    """Python code ending in ``entry.leave``, run in a fresh interpreter."""
    script = "import atexit, sys, threading\nfrom aspuzzles.entry import leave\n" + code
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)


def test_the_command_ends_with_its_exit_code_after_exit_handlers_and_output():
    """The interpreter's teardown is skipped, not what a normal exit would still do."""
    run = _left_with(
        "atexit.register(lambda: print('handler ran', file=sys.stderr))\n"
        "sys.stdout.write('buffered, not yet written')\n"
        "leave(3)\n"
    )
    assert (run.returncode, run.stdout, run.stderr) == (
        3,
        "buffered, not yet written",
        "handler ran\n",
    )


def test_a_thread_still_running_gets_pythons_normal_exit():
    run = _left_with(
        "done = threading.Event()\n"
        "def finish():\n    done.wait(0.3)\n    print('thread finished')\n"
        "threading.Thread(target=finish).start()\n"
        "leave(4)\n"
    )
    assert (run.returncode, run.stdout) == (4, "thread finished\n")


def standard_input(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def test_an_instance_can_come_from_standard_input(cli, monkeypatch):
    board = cli("generate", "capture", "--moves", "3", "--kinds", "ygr", "--seed", "2").out
    standard_input(monkeypatch, board.encode())
    run = cli("solve", "capture", "-", "--format", "json")
    assert run.code == 0 and run.json()["instance"] == "<stdin>"
    assert run.json()["solutions"][0]["move_count"] <= 3
    standard_input(monkeypatch, b"\xef\xbb\xbf" + SEED_ID.encode() + b"\r\n")  # Notepad's
    assert cli("solve", "haunted", "-").code == 0


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"xx\n", "aspuzzles: error: <stdin>:1: row has 2 characters, expected 8"),
        (b"\xff\xfe", "aspuzzles: error: <stdin>: not UTF-8 text"),
    ],
)
def test_bad_standard_input_is_named_in_the_error(cli, monkeypatch, data, message):
    standard_input(monkeypatch, data)
    run = cli("solve", "capture", "-")
    assert (run.code, run.err.strip()) == (2, message)


def _command(*args: str, given: str | None = None) -> subprocess.CompletedProcess[str]:
    """``aspuzzles ARGS`` in a process of its own, ``given`` on its standard input."""
    return subprocess.run(
        [*COMMAND, *args], input=given, capture_output=True, text=True, env=CHECKOUT, timeout=120
    )


@pytest.mark.parametrize("command", ["solve", "walkthrough"])
def test_a_time_limit_holds_while_standard_input_is_waited_for(command: str):
    """A producer that never ends its output cannot hold the command past --timeout:
    exit 3, the limit and what was being read named (``sleep 60 | aspuzzles ...``)."""
    process = subprocess.Popen(
        [*COMMAND, command, "haunted", "-", "--timeout", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=CHECKOUT,
    )
    try:
        process.wait(timeout=60)  # its standard input stays open, never written
        out, err = process.stdout.read(), process.stderr.read()  # type: ignore[union-attr]
    finally:
        process.kill()
        process.communicate()
    assert (process.returncode, out) == (3, "")
    assert err == "aspuzzles: error: time limit of 1 s reached while reading <stdin>\n"


def test_a_pipe_named_by_its_path_is_read_as_standard_input(tmp_path):
    """``/dev/stdin`` and a named pipe (a shell's ``<(...)`` is one) are read once, as
    ``-`` is, for the instance and for the progress: the same answers as from files."""
    instance = (ROOT / "instances" / "haunted" / "gen-4x4-s2.txt").read_text()
    progress = tmp_path / "progress.lp"
    progress.write_text("monster(4,4,vampire).\n")
    from_files = _command("hint", "haunted", "gen-4x4-s2", "--progress", str(progress))
    assert from_files.returncode == 0, from_files.stderr
    piped = _command(
        "hint", "haunted", "gen-4x4-s2", "--progress", "/dev/stdin", given=progress.read_text()
    )
    assert (piped.returncode, piped.stdout) == (0, from_files.stdout), piped.stderr
    fifo = tmp_path / "instance.fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f'cat > "{fifo}"'], stdin=subprocess.PIPE, text=True)
    writer.stdin.write(instance)  # type: ignore[union-attr]
    writer.stdin.close()  # type: ignore[union-attr]
    solved = _command("solve", "haunted", str(fifo), "--format", "json")
    writer.wait(30)
    assert solved.returncode == 0, solved.stderr
    expected = _command("solve", "haunted", "gen-4x4-s2", "--format", "json")
    assert json.loads(solved.stdout)["solutions"] == json.loads(expected.stdout)["solutions"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hint", "haunted", "gen-4x4-s2", "--progress", "my-gam.txt"], "my-gam.txt: no such file"),
        (
            ["fix", "haunted", "gen-4x4-s2", "--progress", "saves/progress.lp"],
            "saves/progress.lp: no such file",
        ),
        (["check", "haunted", "gen-4x4-s2", "solved.json"], "solved.json: no such file"),
        (["walkthrough", "haunted", "gen-4x4-s2", "--progress", "tests"], None),
        (
            ["hint", "haunted", "gen-4x4-s2", "--progress", str(ROOT / "tests")],
            "is a folder, not a file",
        ),
    ],
)
def test_a_mistyped_file_name_is_said_to_name_no_file(cli, args: list[str], message: str | None):
    """A progress or solution argument that names no file but reads as a file's name is
    said to be one, not read as a board ('expected a totals line'); a word that could be
    text is still read as text."""
    run = cli(*args)
    assert run.code == 2
    if message is None:  # a bare word: read as the progress's text
        assert "no such file" not in run.err and run.err.startswith("aspuzzles: error: <argument>")
    else:
        assert run.err.strip().endswith(message) and run.err.count("\n") == 1, run.err


@pytest.mark.parametrize(
    "args", [["solve", "haunted", "gen-4x4-s2"], ["facts", "haunted", "gen-4x4-s2"], ["list"]]
)
def test_a_full_disk_is_one_line_not_an_internal_error(args: list[str]):
    """Output that cannot be written (a full disk: ``/dev/full``) is said in one line,
    exit 2, not a traceback or an internal error at exit."""
    with open("/dev/full", "w") as full:
        run = subprocess.run(
            [*COMMAND, *args],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=CHECKOUT,
            timeout=120,
        )
    assert run.returncode == 2
    assert run.stderr == "aspuzzles: error: cannot write the output: No space left on device\n"


def test_an_output_fifo_without_a_reader_is_waited_for_up_to_the_time_limit(tmp_path):
    """``-o FIFO`` whose reader never comes ends at --timeout (exit 3, one line), not
    never; with a reader, the answer reaches it."""
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    run = _command("solve", "haunted", "gen-4x4-s2", "-o", str(fifo), "--timeout", "1")
    assert (run.returncode, run.stdout) == (3, "")
    assert run.stderr == (
        f"aspuzzles: error: time limit of 1 s reached while waiting for a reader of {fifo}\n"
    )
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE, text=True)
    run = _command("solve", "haunted", "gen-4x4-s2", "-o", str(fifo), "--timeout", "30")
    written, _ = reader.communicate(timeout=60)
    assert run.returncode == 0, run.stderr
    untimed = re.compile(r"in \d+\.\d+s")
    expected = _command("solve", "haunted", "gen-4x4-s2").stdout
    assert untimed.sub("", written) == untimed.sub("", expected)


@pytest.mark.slow
def test_ctrl_c_ends_the_wait_for_an_output_fifos_reader(tmp_path):
    """With no --timeout the reader is waited for as a shell redirection would, and
    Ctrl-C ends the wait (Ctrl-C is held while an answer is written; the wait looks
    at it)."""
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    run = interrupted_run("solve", "haunted", "gen-4x4-s2", "-o", str(fifo), after=3.0)
    assert (run.returncode, run.stdout) == (130, "")
    assert run.stderr == "aspuzzles: interrupted\n"


def test_output_to_dev_stdout_reaches_a_pipe():
    """``-o /dev/stdout`` where standard output is a pipe (``| less``): the answer is
    written through it. Its link names no file then (``pipe:[...]``), and it is an
    output: never read as an input."""
    run = _command("hint", "haunted", "gen-4x4-s2", "-o", "/dev/stdout")
    assert run.returncode == 0, run.stderr
    assert run.stdout == _command("hint", "haunted", "gen-4x4-s2").stdout


def test_a_device_without_end_is_refused_not_read_for_ever():
    run = _command("solve", "haunted", "/dev/zero")
    assert run.returncode == 2
    assert run.stderr == "aspuzzles: error: /dev/zero: more than 64 MiB: not a puzzle's text\n"


def test_standard_input_holds_the_instance_or_the_solution_not_both(cli):
    run = cli("check", "capture", "-", "-")
    assert run.code == 2 and "not both" in run.err


def corrupted(puzzle: str, solution: dict) -> dict:
    """The solution with one mistake a person could make."""
    if puzzle == "haunted":  # one monster changed: a total is off
        first = solution["grid"][0]
        index = next(i for i, cell in enumerate(first) if cell in "GVZ")
        swap = "V" if first[index] != "V" else "G"
        return {"grid": [first[:index] + swap + first[index + 1 :], *solution["grid"][1:]]}
    if puzzle == "cake":  # the first cell given to the last piece
        rows = solution["pieces"]
        return {"pieces": [rows[-1][-1] + rows[0][1:], *rows[1:]]}
    if puzzle == "tiles":  # the first tile turned once more
        rows = [[list(cell) for cell in row] for row in solution["placement"]]
        rows[0][0][1] = (rows[0][0][1] + 1) % 4
        return {"placement": rows}
    if puzzle == "capture":  # the last move forgotten
        return {"moves": solution["moves"][:-1]}
    cells = dict(solution["cells"])  # the dice puzzles: two cells of two pieces swapped
    first, *rest = cells
    other = next(label for label in rest if cells[label] != cells[first])
    cells[first], cells[other] = cells[other], cells[first]
    return {"cells": cells}


PUZZLES_WITH_SOLUTIONS = ["haunted", "cake", "tiles", "geniusstar", "geniussquare", "capture"]


@pytest.mark.parametrize("puzzle", PUZZLES_WITH_SOLUTIONS)
def test_check_takes_back_the_json_that_solve_prints(cli, tmp_path, puzzle):
    """A solution round-trips: the whole --format json result, or one of its solutions,
    is valid; with one mistake it is rejected by the checker (exit 1)."""
    result = tmp_path / "result.json"
    result.write_text(cli("solve", puzzle, "--format", "json").out)
    run = cli("check", puzzle, str(result))
    assert run.code == 0 and run.out.strip().endswith("valid (checked)")
    solution = json.loads(result.read_text())["solutions"][0]
    assert cli("check", puzzle, json.dumps(solution)).code == 0
    run = cli("check", puzzle, json.dumps(corrupted(puzzle, solution)))
    assert run.code == 1 and run.err.startswith("aspuzzles: rejected: ")


@pytest.mark.parametrize(
    ("puzzle", "solution", "message"),
    [
        ("haunted", '{"grid": ["GZ', "<argument>:1: not JSON: Unterminated string starting at"),
        ("haunted", '{"grid": [1, 2]}', "'grid' must be a list of strings, one per row"),
        ("cake", '{"solutions": []}', "the JSON result holds no solution"),
        ("tiles", '{"placement": [[[1, "a"]]]}', "must be rows of [tile id, turns] pairs"),
        ("geniusstar", '{"cells": {"Q9": "x"}}', "'Q9' is not a cell of the board"),
        ("capture", '{"moves": [[7, 1, "Up"], [7, 9, "Up"]]}', "move 2: cell (7, 9) is off"),
        ("capture", '{"pieces": []}', "expected a JSON object with 'moves'"),
    ],
)
def test_a_malformed_json_solution_is_named_in_one_line(cli, puzzle, solution, message):
    run = cli("check", puzzle, solution)
    assert run.code == 2 and len(run.err.strip().splitlines()) == 1 and message in run.err


def test_text_too_long_for_a_file_name_is_taken_as_text(cli):
    """A large game ID or a solution given inline is longer than a file name may be;
    asking the file system about it raised 'File name too long' (an internal error)."""
    run = cli("solve", "haunted", "4x4:2,4,3," + "a" * 300)
    assert run.code == 2 and "grid is too long" in run.err


def test_a_sweep_of_a_puzzle_without_one_is_refused_before_any_file_is_written(cli, tmp_path):
    results = tmp_path / "results.tsv"
    run = cli("sweep", "haunted", "-o", results)
    assert run.code == 2
    assert run.err == "aspuzzles: error: puzzle 'haunted' has no sweep\n"
    assert not results.exists()


def _modules_after(*args: str) -> set[str]:
    """The modules loaded by ``aspuzzles ARGS`` run in a fresh interpreter."""
    script = (
        "import sys\n"
        f"sys.argv = ['aspuzzles', *{list(args)!r}]\n"
        "from aspuzzles.entry import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
    )
    return set(done.stderr.split())


def test_help_and_version_load_neither_the_driver_nor_the_puzzles():
    helped = _modules_after("--help")
    assert "clingo" not in helped and "aspuzzles.driver.run" not in helped
    versioned = _modules_after("--version")
    assert "clingo" in versioned and "aspuzzles.cli" not in versioned


def test_a_text_board_is_drawn_without_jinja2_workers_or_other_puzzles():
    solved = _modules_after("solve", "haunted")
    assert "aspuzzles.driver.run" in solved
    assert "jinja2" not in solved and "multiprocessing" not in solved
    assert "aspuzzles.puzzles.cake" not in solved  # the other puzzles stay unread


@pytest.mark.parametrize(
    "puzzle", ["haunted", "geniusstar", "geniussquare", "tiles", "cake", "template", "capture"]
)
def test_solving_a_default_instance_leaves_the_generators_random_source_unloaded(puzzle):
    """``random`` is loaded only where an instance is drawn (about a millisecond of a
    whole command's start-up, bench/NOTES-haunted.md)."""
    assert "random" not in _modules_after("solve", puzzle)


def test_a_plan_found_in_python_loads_no_planning_machinery():
    """The seed's capture board is answered by the breadth-first search before clingo
    starts: the horizon loop and its bounds stay unloaded (a millisecond or two of a
    command that takes some forty)."""
    solved = _modules_after("solve", "capture")
    assert "aspuzzles.puzzles.capture.plans" in solved
    assert "aspuzzles.driver.planning" not in solved and "aspuzzles.driver.bounds" not in solved


@pytest.mark.parametrize(
    "puzzle", ["haunted", "geniusstar", "geniussquare", "tiles", "cake", "template", "capture"]
)
def test_a_solve_makes_no_dataclass(puzzle):
    """The records on a solve's path are named tuples or plain classes: the dataclasses
    module with inspect, and each dataclass made, cost about 10 ms of a whole command
    (bench/NOTES-haunted.md)."""
    solved = _modules_after("solve", puzzle)
    assert "dataclasses" not in solved and "inspect" not in solved


def test_a_sweep_without_a_scheduler_leaves_dask_unloaded(tmp_path):
    swept = _modules_after("sweep", "geniussquare", "--limit", "2", "-o", str(tmp_path / "s.tsv"))
    assert "aspuzzles.sweep" in swept and "distributed" not in swept and "dask" not in swept


def test_clingo_info_messages_are_logged_only_when_asked():
    from aspuzzles import logs

    try:
        logs.set_verbosity(0)
        assert not logs.enabled(logs.INFO) and logs.enabled(logs.WARNING)
        logs.set_verbosity(1)
        assert logs.enabled(logs.INFO) and not logs.enabled(logs.DEBUG)
    finally:
        logs._verbosity = None
    import logging  # a library's host decides through logging itself

    host = logging.getLogger("aspuzzles")
    level = host.level
    try:
        host.setLevel(logging.DEBUG)
        assert logs.enabled(logs.DEBUG)
        host.setLevel(logging.WARNING)
        assert not logs.enabled(logs.INFO) and logs.enabled(logs.WARNING)
    finally:
        host.setLevel(level)


def test_a_library_host_without_logging_does_not_get_it_loaded():
    """clingo's info messages (the star's encoding draws one on every solve) would be
    shown by no handler of a program that never loaded logging: it stays unloaded."""
    script = "import sys, aspuzzles; aspuzzles.solve('geniusstar'); print('logging' in sys.modules)"
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert (run.returncode, run.stdout) == (0, "False\n"), run.stderr


def test_clingo_figures_are_read_only_when_they_are_shown(cli):
    """Reading clingo's statistics costs a small board's solve about a tenth of its
    time: the API skips it when asked, the command line when it shows none."""
    quiet = aspuzzles.solve("template", statistics=False)
    assert quiet.status == "solved" and "solve_time" in quiet.stats
    assert "conflicts" not in quiet.stats and "choices" not in quiet.stats
    assert "conflicts" in aspuzzles.solve("template").stats
    assert "conflicts" in cli("solve", "template", "--format", "json").json()["stats"]
    assert re.search(r"^\s+conflicts\s+\d", cli("solve", "template", "--stats").out, re.M)


def _every_parser():
    """Each command's parser with every registered puzzle's own options added."""
    import argparse

    from aspuzzles import cli as cli_module
    from aspuzzles.puzzle import add_options
    from aspuzzles.registry import get_puzzle, puzzle_names

    for command, _, add_arguments in cli_module.COMMANDS:
        for name in puzzle_names():
            game = get_puzzle(name)
            parser = argparse.ArgumentParser(prog=f"aspuzzles {command}")
            add_arguments(parser)
            if command in ("generate", "roll"):
                add_options(parser, game.generator().options if game.generator() else ())
            elif command in ("solve", "facts", "sweep", "check"):
                add_options(parser, game.solve_options)
            yield command, name, parser


def test_every_argument_of_every_command_has_help():
    bare = [
        (command, name, action.option_strings or action.dest)
        for command, name, parser in _every_parser()
        for action in parser._actions
        if not action.help
    ]
    assert bare == []


def test_the_top_level_help_lists_every_exit_code(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    codes = ("0 solved", "1 no solution", "2 bad input", "3 time limit", "4 internal")
    for code in (*codes, "5 memory limit reached", "130 interrupted"):
        assert code in text


def test_a_puzzles_own_name_for_a_command_is_its_alone(cli):
    """The dice puzzles declare 'roll' for 'generate'; other puzzles do not have it."""
    rolled = cli("roll", "geniussquare", "--seed", "1")
    assert rolled.code == 0 and rolled.out == cli("generate", "geniussquare", "--seed", "1").out
    run = cli("roll", "haunted")
    assert run.code == 2 and "invalid choice: 'roll'" in run.err


@pytest.mark.parametrize("callers", [None, "4"])
def test_the_command_keeps_numpys_blas_to_one_thread_unless_told(monkeypatch, callers):
    """OpenBLAS's threads, started as numpy loads, took as much processor time as the
    import itself in every command; nothing the command does is linear algebra."""
    from aspuzzles import entry

    for name in entry.ONE_THREAD:
        if callers is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, callers)
    seen = []
    monkeypatch.setattr(
        entry, "main", lambda: seen.append([os.environ[name] for name in entry.ONE_THREAD])
    )

    def leave(code):
        raise SystemExit(code)

    monkeypatch.setattr(entry, "leave", leave)
    with pytest.raises(SystemExit):
        entry.command()
    assert seen == [[callers or "1"] * 4]


def test_list_names_each_puzzles_instances_default_and_commands(cli):
    listed = cli("list", "--format", "json").json()
    by_name = {entry["name"]: entry for entry in listed}
    assert set(by_name) >= {"haunted", "capture", "geniussquare", "sudoku"}
    haunted = by_name["haunted"]
    assert haunted["default"] in haunted["instances"] and "gen-8x5-s8.txt" in haunted["instances"]
    assert by_name["capture"]["commands"] == [
        "solve", "facts", "check", "hint", "walkthrough", "generate"
    ]  # fmt: skip
    assert by_name["geniussquare"]["commands"][-2:] == ["sweep", "census"]
    one = cli("list", "capture")
    assert one.out.splitlines()[:2] == [
        f"capture: {by_name['capture']['title']}",
        "  commands: solve facts check hint walkthrough generate",
    ]
    assert "wight.txt (default)" in one.out and "haunted" not in one.out
    unknown = cli("list", "nosuch")
    assert unknown.code == 2 and unknown.err.startswith("aspuzzles: error: unknown puzzle 'nosuch'")


@pytest.mark.parametrize("command", ["hint", "explain", "grade", "fix", "walkthrough", "sweep"])
def test_a_command_list_leaves_out_is_refused_in_one_line(cli, command):
    """What ``list`` says a puzzle takes is what it takes: each puzzle refuses the
    commands its entry leaves out (exit 2, one line)."""
    for listed in cli("list", "--format", "json").json():
        if command in listed["commands"]:
            continue
        run = cli(command, listed["name"], "--progress", "x") if command == "fix" else None
        run = run if run is not None else cli(command, listed["name"])
        assert run.code == 2 and run.err.count("\n") == 1, (listed["name"], run.err)
        assert f"'{listed['name']}'" in run.err or listed["name"] in run.err, run.err
