"""Damaged instance files and solutions: every one is read, or refused with a one-line
:class:`InputError` that names the file; nothing else may escape.

The damage is random but seeded, so a failure is reproducible. This is how 2026-11-24 (8d38d78)
found that a byte-order mark in the middle of a fact file aborted the whole process
inside clingo's logger.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from aspuzzles import AspuzzlesError, InputError, get_puzzle, solve
from aspuzzles.driver import load_instance
from aspuzzles.puzzle import render
from aspuzzles.registry import module_puzzles

from .conftest import INSTANCES

#: Every registered puzzle: a new one is fuzzed by being registered.
PUZZLES = sorted(module_puzzles())

#: What a careless edit or a foreign file puts into an instance.
DEBRIS = [
    "0", "-1", "99999999999", "x", "#", " ", "\t", "é", "\x00", "1e3", "3.5", "?", "*", "_",
    ".", "/", "\\", ":", ",", "\r", "\ufeff", "size 0 0", "style e2", "fix 1 1 1 0", "GVZ",
]  # fmt: skip


def damage(text: str, rng: random.Random) -> str:
    """One random edit: a line deleted, doubled or swapped, a character replaced, inserted
    or moved, a word replaced, the file cut short, or its case changed."""
    lines = text.split("\n")
    line = rng.randrange(len(lines))
    at = rng.randrange(len(text) + 1)
    edit = rng.randrange(9)
    if edit == 0:
        del lines[line]
    elif edit == 1:
        lines.insert(line, lines[line])
    elif edit == 2:
        other = rng.randrange(len(lines))
        lines[line], lines[other] = lines[other], lines[line]
    elif edit == 3:
        return text[:at] + rng.choice(DEBRIS) + text[at + 1 :]
    elif edit == 4:
        return text[:at] + rng.choice(DEBRIS) + text[at:]
    elif edit == 5:
        words = lines[line].split() or [""]
        words[rng.randrange(len(words))] = rng.choice(DEBRIS)
        lines[line] = " ".join(words)
    elif edit == 6:
        return text[:at]
    elif edit == 7:
        return text.upper() if rng.random() < 0.5 else text.lower()
    else:
        other = rng.randrange(len(text) + 1)
        return text[:at] + text[other : other + 1] + text[at:]
    return "\n".join(lines)


def small_instances(puzzle: str) -> list[Path]:
    folder = INSTANCES / puzzle
    return [
        path
        for path in sorted(folder.iterdir())
        if path.suffix != ".json" and path.stat().st_size < 3000
    ]


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_damaged_instances_are_read_or_refused_with_a_located_message(puzzle, tmp_path):
    game = get_puzzle(puzzle)
    rng = random.Random(puzzle)
    originals = [path.read_text() for path in small_instances(puzzle)]
    refused = 0
    for case in range(300):
        text = rng.choice(originals)
        for _ in range(rng.randint(1, 3)):
            text = damage(text, rng)
        path = tmp_path / f"damaged-{case}.txt"
        path.write_text(text, encoding="utf-8")
        try:
            load_instance(game, path)
        except InputError as error:
            refused += 1
            message = str(error)
            assert "\n" not in message.strip(), message
            assert path.name in message, message
    assert 0 < refused < 300  # the damage is neither always harmless nor always fatal


def test_damaged_fact_files_never_reach_clingo_unread(tmp_path):
    """A fact file that parses is solved: clingo sees only what was read cleanly."""
    rng = random.Random("facts")
    original = (INSTANCES / "haunted" / "seed-4x4.lp").read_text()
    outcomes = set()
    for case in range(40):
        path = tmp_path / f"damaged-{case}.lp"
        path.write_text(damage(original, rng), encoding="utf-8")
        try:
            outcomes.add(solve("haunted", path, timeout=5).status)
        except InputError:
            outcomes.add("refused")
    assert "refused" in outcomes and outcomes <= {"refused", "solved", "unsatisfiable"}


def mangle(value: object, rng: random.Random) -> object:
    """One random change deep inside a JSON solution."""
    junk = [None, 0, -1, 10**9, "", "x", [], {}, [[]], [0], 3.5, True, "é", [[-1, 0]]]
    if isinstance(value, dict) and value:
        key = rng.choice(list(value))
        changed = dict(value)
        if rng.random() < 0.2:
            del changed[key]
        else:
            changed[key] = mangle(value[key], rng)
        return changed
    if isinstance(value, list) and value and rng.random() < 0.8:
        changed = list(value)
        index = rng.randrange(len(changed))
        changed[index] = mangle(changed[index], rng)
        return changed
    if isinstance(value, str) and value and rng.random() < 0.7:
        index = rng.randrange(len(value))
        return value[:index] + rng.choice("ABGVZLR/\\x.0129é ") + value[index + 1 :]
    if isinstance(value, int) and not isinstance(value, bool):
        return rng.choice([value + 1, value - 1, -value, 10**6, str(value), None])
    return rng.choice(junk)


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_damaged_solutions_are_rejected_or_refused_never_crash(puzzle):
    game = get_puzzle(puzzle)
    instance, _ = load_instance(game, None)
    answer = solve(puzzle).solutions[0].to_dict()
    rng = random.Random(puzzle)
    rejected = 0
    for _ in range(300):
        text = json.dumps(mangle(answer, rng))
        try:
            solution = game.parse_solution(instance, text, "<argument>")
        except AspuzzlesError:
            continue
        if game.check(instance, solution):
            rejected += 1
        else:
            render(game, instance, solution)
    assert rejected > 0
