"""Shared fixtures: the CLI run in-process, the repository and shared data folders."""

from __future__ import annotations

import json
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


def shared_data(*parts: str) -> Path:
    """A file of ../shared/data (real public puzzles); skips when it is not there."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data not available: {path}")
    return path


class CliRun:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def json(self) -> dict:
        return json.loads(self.out)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]):
    """Run ``aspuzzles ARGS...`` in-process and capture its exit code and output."""

    def run(*args: str) -> CliRun:
        code = main([str(arg) for arg in args])
        captured = capsys.readouterr()
        return CliRun(int(code), captured.out, captured.err)

    return run
