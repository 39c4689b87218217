"""The template puzzle works, and docs/adding-a-puzzle.md, followed literally, adds a
working puzzle."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from aspuzzles import InputError, solve
from aspuzzles.puzzles.template import PUZZLE, LatinInstance, check_grid, parse_latin

from .conftest import ROOT

GUIDE = ROOT / "docs" / "adding-a-puzzle.md"


def test_the_default_instance_has_one_checked_answer():
    result = solve("template", unique=True)
    assert result.verdict == "unique" and result.checked
    assert result.solution.text().splitlines()[0] == "1 3 2 4"


def test_the_checker_names_what_a_grid_breaks():
    instance = LatinInstance(((1, None), (None, None)))
    assert check_grid(instance, ["12", "21"]) == []
    assert check_grid(instance, ["21", "12"]) == ["cell (1,1) must hold the given 1"]
    assert check_grid(instance, ["11", "22"]) == [
        "row 1 does not hold 1 to 2 once",
        "row 2 does not hold 1 to 2 once",
    ]
    assert check_grid(instance, ["12", "12"]) == [
        "column 1 does not hold 1 to 2 once",
        "column 2 does not hold 1 to 2 once",
    ]
    assert check_grid(instance, ["12"]) == ["the grid is not 2x2"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "f.txt: no grid found (the file is empty or only comments)"),
        ("1 2\n2\n", "f.txt:2: expected 2 cells (one per row of the grid), got 1"),
        ("1 3\n. .\n", "f.txt:1: cell 2: expected 1 to 2 or '.', got '3'"),
        ("# note\n1 x\n. .\n", "f.txt:2: cell 2: expected 1 to 2 or '.', got 'x'"),
    ],
)
def test_bad_grids_are_refused_with_their_line(text, message):
    with pytest.raises(InputError) as error:
        parse_latin(text, "f.txt")
    assert str(error.value) == message


def test_a_generated_grid_keeps_its_givens_and_reads_back(cli):
    run = cli("generate", "template", "--size", "5", "--givens", "7", "--seed", "4")
    assert run.code == 0
    instance = PUZZLE.parse(run.out, "<generated>")
    assert instance.size == 5 and sum(v is not None for row in instance.rows for v in row) == 7
    assert cli("generate", "template", "--size", "10").err.strip() == (
        "aspuzzles: error: --size must be from 2 to 9, not 10"
    )


def _guide_blocks() -> list[list[str]]:
    """The guide's ``sh`` blocks, each as its command lines."""
    return [
        [line for line in block.splitlines() if line.strip()]
        for block in re.findall(r"```sh\n(.*?)```", GUIDE.read_text(), re.DOTALL)
    ]


@pytest.mark.slow
def test_following_the_guide_adds_a_working_puzzle(tmp_path: Path):
    """The guide's set-up commands run in a copy of the checkout; the commands it then
    shows answer as a user expects: the copy solves, and the answer checks."""
    for part in ("src", "encodings", "instances"):
        shutil.copytree(ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__"))
    setup, commands = _guide_blocks()[:2]
    subprocess.run(["bash", "-euc", "\n".join(setup)], cwd=tmp_path, check=True)
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "src")}
    outputs = []
    for command in commands:
        words = shlex.split(command)
        assert words[0] == "aspuzzles"
        run = subprocess.run(
            [sys.executable, "-m", "aspuzzles", *words[1:]],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
        )
        assert run.returncode == 0, run.stderr
        outputs.append(run.stdout)
    assert "mypuzzle small-4x4.txt: solved, verdict unique" in outputs[0]
    assert "valid (checked)" in outputs[1]
    assert "mypuzzle: My puzzle\n" in outputs[2]
    assert outputs[3].startswith("# aspuzzles generate mypuzzle ")
    expected = json.loads((tmp_path / "instances/mypuzzle/small-4x4.expected.json").read_text())
    assert expected["grid"][0] == "1324"
