"""Shared fixtures: the CLI run in-process (or as a terminal runs it, for Ctrl-C), the
repository and shared data folders."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from aspuzzles.cli import main

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = ROOT / "instances"
SHARED_DATA = ROOT.parent / "shared" / "data"


def expected_answer(instance: Path) -> dict | None:
    """The ``<stem>.expected.json`` kept beside a shipped instance, if any."""
    path = instance.with_name(instance.name.split(".")[0] + ".expected.json")
    return json.loads(path.read_text()) if path.exists() else None


def bare_workspace(
    root: Path,
    monkeypatch: pytest.MonkeyPatch,
    encodings: dict[str, str],
    instances: dict[str, dict[str, str]],
) -> Path:
    """A working folder holding bare encodings (``encodings/NAME.lp``) and their
    instances (``instances/NAME/FILE``) written by a test, made the working folder
    (where bare encodings are looked for)."""
    (root / "encodings").mkdir(exist_ok=True)
    for name, program in encodings.items():
        (root / "encodings" / f"{name}.lp").write_text(program)
        (root / "instances" / name).mkdir(parents=True, exist_ok=True)
    for name, files in instances.items():
        for file, text in files.items():
            (root / "instances" / name / file).write_text(text)
    monkeypatch.chdir(root)
    return root


def shared_data(*parts: str) -> Path:
    """A file of ../shared/data (real public puzzles); skips when it is not there."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data not available: {path}")
    return path


def long_plan() -> Path:
    """A game's capture board whose shortest plan (15 moves) takes some 20 s to prove:
    a search cut short by a time limit or Ctrl-C."""
    return shared_data("capture", "marb_arboreth.txt")


class CliRun:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def json(self) -> dict:
        return json.loads(self.out)


@pytest.fixture(autouse=True)
def _ctrl_c_answered():
    """Ctrl-C raises KeyboardInterrupt in the tests' own process, as in a terminal: a
    shell's background job (a test run started with ``&``) begins with SIGINT ignored,
    and the tests that press Ctrl-C would wait for nothing."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]):
    """Run ``aspuzzles ARGS...`` in-process and capture its exit code and output."""

    def run(*args: str) -> CliRun:
        code = main([str(arg) for arg in args])
        captured = capsys.readouterr()
        return CliRun(int(code), captured.out, captured.err)

    return run


#: ``aspuzzles`` as a process of its own runs it, with the checkout's package.
COMMAND = [sys.executable, "-m", "aspuzzles"]
CHECKOUT = {**os.environ, "PYTHONPATH": str(ROOT / "src")}


def command_process(*args: str) -> subprocess.Popen[str]:
    """``aspuzzles ARGS`` started as a terminal starts a command (its own process group,
    Ctrl-C answered: a shell's background job, such as a test run started with ``&``,
    passes SIGINT on ignored), with the checkout's package, its output captured."""
    return subprocess.Popen(
        [*COMMAND, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=CHECKOUT,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def interrupted_run(
    *args: str, after: float = 2.0, until: Callable[[], bool] | None = None
) -> subprocess.CompletedProcess[str]:
    """``aspuzzles ARGS`` as a terminal runs it, with Ctrl-C (SIGINT to its process
    group) pressed ``after`` seconds in, and not before ``until()`` holds (polled for up
    to a minute: a loaded machine may need longer to get there)."""
    process = command_process(*args)
    time.sleep(after)
    waited = time.perf_counter() + 60
    while until is not None and not until() and time.perf_counter() < waited:
        time.sleep(0.1)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=30)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite the golden text boards of tests/golden/ from today's drawings",
    )
