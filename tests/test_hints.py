"""Hints, mistakes, explanations and grades, checked against independent solves."""

from __future__ import annotations

import json
from collections import Counter

import clingo
import pytest

import aspuzzles
from aspuzzles.puzzles.haunted import PUZZLE, encode_game_id
from aspuzzles.puzzles.haunted.hints import entry_atom

from .conftest import ROOT, shared_data

HINTS = PUZZLE.hints()

SEED_ID = "4x4:2,4,3,cRLbRaRRbLLa,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,2"


def _solution(instance: str) -> list[str]:
    return list(aspuzzles.solve("haunted", instance).solution.data.grid)


def _follows(instance: str, entry: dict, kept: list[dict]) -> bool:
    """Whether the monster follows from the puzzle's non-clue facts and only the
    ``kept`` clues and totals: asked of clingo directly, apart from the hint machinery
    (the entry assumed false has no answer set)."""
    parsed = aspuzzles.load("haunted", instance).parsed
    facts = []
    for fact in PUZZLE.facts(parsed):
        if fact.name in ("clue", "total") and HINTS.clue_data(parsed, fact) not in kept:
            continue
        facts.append(f"{fact}.")
    control = clingo.Control(["--models=1"])
    control.load(str(ROOT / "encodings" / "haunted.lp"))
    control.add("base", [], "\n".join(facts))
    control.ground([("base", [])])
    atom = entry_atom(entry["row"], entry["col"], entry["monster"])
    return bool(control.solve(assumptions=[(atom, False)]).unsatisfiable)


def _line(parsed, clue: dict) -> int:
    width, height = parsed.width, parsed.height
    side, index = clue["side"], clue["index"]
    if side == "top":
        return index - 1
    if side == "right":
        return width + index - 1
    if side == "bottom":
        return width + height + (width - index)
    return 2 * width + height + (height - index)


@pytest.mark.parametrize("instance", ["gen-5x5-s3.txt", "gen-8x8-s6.txt", "gen-10x10-s11.txt"])
def test_a_hint_from_an_empty_board_is_in_the_solution_and_its_reasons_are_minimal(instance):
    report = aspuzzles.hint("haunted", instance)
    data = report.to_dict()
    assert data["status"] == "hint" and data["mistakes"] == []
    [hint] = data["hints"]
    entry = hint["entry"]
    assert _solution(instance)[entry["row"] - 1][entry["col"] - 1] == entry["monster"]
    assert hint["level"] == "propagation" and hint["reasons"]  # one clue gives each
    reasons = hint["reasons"]
    assert _follows(instance, entry, reasons)  # the reasons are enough
    for dropped in reasons:  # and none can be dropped
        assert not _follows(instance, entry, [r for r in reasons if r != dropped])


def test_a_half_filled_board_gets_a_hint_for_an_open_cell(tmp_path):
    grid = _solution("gen-10x10-s11.txt")
    half = [row[:5] + "." * 5 for row in grid]
    progress = tmp_path / "progress.json"
    progress.write_text(json.dumps({"grid": half}))
    data = aspuzzles.hint("haunted", "gen-10x10-s11", progress=str(progress)).to_dict()
    [hint] = data["hints"]
    entry = hint["entry"]
    assert entry["col"] > 5 and grid[entry["row"] - 1][entry["col"] - 1] == entry["monster"]
    every = aspuzzles.hint("haunted", "gen-10x10-s11", progress=str(progress), every=True)
    assert {h["entry"]["col"] > 5 for h in every.to_dict()["hints"]} == {True}


def test_a_planted_mistake_is_named_with_the_clues_that_rule_it_out(tmp_path):
    grid = [list(row) for row in _solution("gen-8x8-s6.txt")]
    wrong = {"G": "V", "V": "Z", "Z": "G"}
    row, col = next((r, c) for r in range(8) for c in range(8) if grid[r][c] in wrong)
    grid[row][col] = wrong[grid[row][col]]
    progress = tmp_path / "progress.json"
    progress.write_text(json.dumps({"grid": ["".join(r) for r in grid]}))
    data = aspuzzles.hint("haunted", "gen-8x8-s6", progress=str(progress)).to_dict()
    # the whole grid with one monster wrong: propagation meets a contradiction at once
    assert data["status"] == "contradiction"
    [mistake] = data["mistakes"]
    assert (mistake["row"], mistake["col"]) == (row + 1, col + 1) and mistake["reasons"]


def test_the_cli_prints_json_as_documented(cli):
    run = cli("hint", "haunted", SEED_ID, "--format", "json")
    data = run.json()
    assert run.code == 0
    assert set(data) == {"puzzle", "instance", "status", "mistakes", "hints"}
    assert set(data["hints"][0]) == {"level", "entry", "reasons"}
    assert set(data["hints"][0]["entry"]) == {"row", "col", "monster"}
    reason = data["hints"][0]["reasons"][0]
    assert set(reason) in ({"side", "index"}, {"total"})


def test_progress_from_a_saved_game_reads_its_moves_and_ignores_pencil_marks(cli, tmp_path):
    # Monster cells of the seed are numbered row by row; G0 is the cell (1,1).
    save = tmp_path / "seed.sav"
    moves = ["G0", "g1;v1", "V2"]  # a ghost, pencil marks, a vampire at (1,3)
    lines = [
        "SAVEFILE:41:Simon Tatham's Portable Puzzle Collection",
        "VERSION :1:1",
        "GAME    :6:Undead",
        "PARAMS  :5:4x4dn",
        "CPARAMS :5:4x4dn",
        "DESC    :50:2,4,3,cRLbRaRRbLLa,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,2",
        f"NSTATES :1:{len(moves) + 1}",
        f"STATEPOS:1:{len(moves) + 1}",
        *(f"MOVE    :{len(move)}:{move}" for move in moves),
    ]
    save.write_text("\n".join(lines) + "\n")
    parsed = aspuzzles.load("haunted", SEED_ID).parsed
    from aspuzzles.hinting import read_progress

    assert read_progress(PUZZLE, parsed, str(save)) == [
        entry_atom(1, 1, "G"),
        entry_atom(1, 3, "V"),
    ]
    run = cli("hint", "haunted", SEED_ID, "--progress", save, "--format", "json")
    data = run.json()
    assert data["status"] == "contradiction"  # (1,3) holds a zombie: propagation sees it
    assert [(m["row"], m["col"]) for m in data["mistakes"]] == [(1, 3)]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"grid": ["G..."]}', 'p.json: expected {"grid": [...]} with 4 rows'),
        (
            '{"grid": ["G...", "....", "....", "...X"]}',
            "p.json: row 4: a cell is 'X', not G, V, Z or .",
        ),
        ("{", "p.json:1: not JSON: Expecting property name enclosed in double quotes"),
        (
            '{"grid": ["...G", "....", "....", "...."]}',
            "p.json: cell (1,4) is a mirror, not a monster cell",
        ),
    ],
)
def test_malformed_progress_is_refused_with_its_place(cli, tmp_path, monkeypatch, text, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.json").write_text(text)
    run = cli("hint", "haunted", SEED_ID, "--progress", "p.json")
    assert run.code == 2
    assert run.err == f"aspuzzles: error: {message}\n"


def test_an_unsolvable_puzzle_is_explained_by_a_minimal_set_of_clues(cli):
    parsed = aspuzzles.load("haunted", "gen-10x10-s11").parsed

    clues = list(parsed.clues)
    clues[3] += 1  # one clue changed: no solution
    broken = encode_game_id(parsed._replace(clues=tuple(clues)))
    solved = cli("solve", "haunted", broken)
    assert solved.code == 1 and "aspuzzles explain haunted" in solved.err
    data = cli("explain", "haunted", broken, "--format", "json").json()
    assert data["status"] == "unsolvable" and data["conflict"]
    lines = [r for r in data["conflict"] if "side" in r]
    for dropped in lines:  # dropping any clue of the set makes it solvable
        others = list(clues)
        others[_line(parsed, dropped)] = None
        trial = parsed._replace(clues=tuple(others))
        assert aspuzzles.solve_instance(PUZZLE, trial).status == "solved"
    assert aspuzzles.explain("haunted", "gen-10x10-s11").status == "solvable"


def test_grades_name_their_level_and_steps(cli):
    run = cli("grade", "haunted", "gen-5x5-s3", "--format", "json")
    assert run.json()["grade"] == "propagation"
    assert run.json()["steps"] == {"propagation": 18, "trial": 0, "search": 0}
    assert cli("grade", "haunted", "gen-10x10-s11").out.startswith(
        "haunted gen-10x10-s11.txt: trial ("
    )


@pytest.mark.slow
def test_tathams_easy_puzzles_grade_lowest_and_his_tricky_ones_higher():
    path = shared_data("haunted", "tatham-graded.tsv")
    rows = [
        line.rstrip("\n").split("\t")
        for line in path.read_text().splitlines(keepends=True)
        if line[:1] in "ent" and not line.startswith("difficulty")
    ]
    table = Counter((level, aspuzzles.grade("haunted", game_id).grade) for level, game_id in rows)
    assert table["easy", "propagation"] >= 22  # of 24
    assert table["tricky", "trial"] + table["tricky", "search"] >= 18  # of 24
