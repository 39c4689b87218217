"""Hints, mistakes, explanations and grades beyond Haunted: the cake, tiles, the dice
puzzles and capture. Reasons are verified apart from the hint machinery: clingo is
asked directly, with the clues outside the set left free (as documented)."""

from __future__ import annotations

import json
import re
from typing import Any

import clingo
import pytest

import aspuzzles
from aspuzzles.registry import get_puzzle

from .conftest import ROOT

#: Each puzzle's entries, as its page names them.
ENTRIES = {
    "haunted": ("monster", 3),
    "cake": ("side", 3),
    "tiles": ("place", 4),
    "geniusstar": ("covered", 2),
    "geniussquare": ("covered", 2),
}
#: The facts each puzzle's pages name as its clues (the encodings declare the rest
#: structure): what the reasons are checked against here.
CLUES = {
    "haunted": {"clue", "total"},
    "cake": {"given", "quota"},
    "tiles": {"tile"},
    "geniusstar": {"blocked"},
    "geniussquare": {"blocked"},
}


def _is_clue(puzzle: str, fact: clingo.Symbol) -> bool:
    return fact.name in CLUES[puzzle]


def _facts_with(puzzle: str, instance: Any, kept: list[dict]) -> str:
    """The puzzle's hint facts with only the ``kept`` clues as facts; every other clue
    a free choice."""
    game = get_puzzle(puzzle).hints()
    lines = []
    for fact in game.hint_facts(instance):
        if not _is_clue(puzzle, fact) or game.clue_data(instance, fact) in kept:
            lines.append(f"{fact}.")
        else:
            lines.append(f"{{ {fact} }}.")
    return "\n".join(lines)


def _control(puzzle: str, instance: Any, kept: list[dict]) -> clingo.Control:
    game = get_puzzle(puzzle)
    control = clingo.Control(["--models=1", *game.clingo_options])
    control.load(str(ROOT / "encodings" / f"{puzzle}.lp"))
    control.add("base", [], _facts_with(puzzle, instance, kept))
    control.ground([("base", []), ("hints", [])])
    return control


def _entry_atom(puzzle: str, instance: Any, data: dict) -> clingo.Symbol:
    """The entry atom whose JSON is ``data``, found among the grounded entries."""
    game = get_puzzle(puzzle).hints()
    control = _control(puzzle, instance, [])
    for atom in control.symbolic_atoms.by_signature(*ENTRIES[puzzle]):
        if game.entry_data(instance, atom.symbol) == data:
            return atom.symbol
    raise AssertionError(f"no entry {data}")


def _follows(puzzle: str, instance: Any, entry: dict, kept: list[dict]) -> bool:
    """Whether the entry holds in every answer set with only the ``kept`` clues and
    progress entries (a kept reason that is no clue is an entry, assumed true)."""
    game = get_puzzle(puzzle).hints()
    clues = [game.clue_data(instance, f) for f in game.hint_facts(instance) if _is_clue(puzzle, f)]
    made = [(_entry_atom(puzzle, instance, r), True) for r in kept if r not in clues]
    atom = _entry_atom(puzzle, instance, entry)
    control = _control(puzzle, instance, kept)
    return bool(control.solve(assumptions=[*made, (atom, False)]).unsatisfiable)


def _satisfiable(puzzle: str, instance: Any, kept: list[dict]) -> bool:
    return bool(_control(puzzle, instance, kept).solve().satisfiable)


def _assert_rests_on_a_minimal_set(puzzle: str, name: str, hint: dict) -> None:
    instance = aspuzzles.load(puzzle, name).parsed
    reasons = hint["reasons"]
    assert _follows(puzzle, instance, hint["entry"], reasons)
    for dropped in reasons:
        assert not _follows(puzzle, instance, hint["entry"], [r for r in reasons if r != dropped])


# ------------------------------------------------------------------------------ cake
@pytest.mark.slow
def test_a_cake_hint_is_a_side_of_the_unique_cut_resting_on_a_minimal_set_of_clues():
    data = aspuzzles.hint("cake", "unique-5x5-5-pieces").to_dict()
    [hint] = data["hints"]
    assert hint["level"] == "search"  # no side of this cut follows without search
    pieces = aspuzzles.solve("cake", "unique-5x5-5-pieces").solution.data.pieces
    (r1, c1), (r2, c2) = hint["entry"]["cells"]
    joined = pieces[r1 - 1][c1 - 1] == pieces[r2 - 1][c2 - 1]
    assert hint["entry"]["side"] == ("joined" if joined else "cut")
    _assert_rests_on_a_minimal_set("cake", "unique-5x5-5-pieces", hint)


@pytest.mark.slow
def test_a_wrong_side_in_cake_progress_is_named_as_a_mistake(cli, tmp_path):
    pieces = list(aspuzzles.solve("cake", "unique-5x5-5-pieces").solution.data.pieces)
    # Relabel the top row so that its first two cells look cut when the cut joins them
    # (or joined when it cuts them), and leave every other cell open.
    first, second = pieces[0][0], pieces[0][1]
    wrong = "ZY" if first == second else "ZZ"
    progress = [wrong + "...", *["....."] * 4]
    (tmp_path / "p.json").write_text(json.dumps({"pieces": progress}))
    run = cli("hint", "cake", "unique-5x5-5-pieces", "--progress", str(tmp_path / "p.json"))
    assert run.code == 0 and "mistake: " in run.out
    data = cli(
        "hint",
        "cake",
        "unique-5x5-5-pieces",
        "--progress",
        str(tmp_path / "p.json"),
        "--format",
        "json",
    ).json()
    [mistake] = data["mistakes"]
    assert mistake["cells"] == [[1, 1], [1, 2]] and mistake["reasons"]
    assert data["status"] == "mistakes" and data["hints"]


def test_an_impossible_cake_is_explained_by_a_minimal_set_of_toppings_and_shares(cli):
    run = cli("explain", "cake", "unsolvable-4x4-corner", "--format", "json")
    conflict = run.json()["conflict"]
    instance = aspuzzles.load("cake", "unsolvable-4x4-corner").parsed
    assert not _satisfiable("cake", instance, conflict)
    for dropped in conflict:
        assert _satisfiable("cake", instance, [r for r in conflict if r != dropped])
    assert {"topping": "1", "per_piece": 1} in conflict
    text = cli("explain", "cake", "unsolvable-4x4-corner").out
    assert "the skull (1) at (1,1)" in text and "[1]" in text


def test_a_cake_grade_counts_its_steps(cli):
    graded = cli("grade", "cake", "unique-4x4-4-pieces", "--format", "json").json()
    assert graded["unique"] is True and graded["grade"] == "search"
    assert sum(graded["steps"].values()) > 0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"pieces": ["AB"]}', 'p.json: expected {"pieces": [...]} with 5 rows'),
        ('{"pieces": ["AB", ".", ".", ".", "."]}', "p.json: row 1 of the pieces must have 5 cells"),
        (
            '{"pieces": ["A!...", ".....", ".....", ".....", "....."]}',
            "p.json: row 1: a cell is '!', not a piece letter or .",
        ),
        ('{"pieces": [', "p.json:1: not JSON: Expecting value"),
        ("\n  \n", "p.json: no progress found (the text is empty)"),
    ],
)
def test_malformed_cake_progress_is_refused_with_its_place(
    cli, tmp_path, monkeypatch, text, message
):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.json").write_text(text)
    run = cli("hint", "cake", "unique-5x5-5-pieces", "--progress", "p.json")
    assert (run.code, run.err) == (2, f"aspuzzles: error: {message}\n")


# ----------------------------------------------------------------------------- tiles
def test_a_tiles_hint_with_a_fixed_piece_rests_on_a_minimal_set_of_tiles():
    data = aspuzzles.hint("tiles", "seed-big-cats-3x3-hint").to_dict()
    [hint] = data["hints"]
    entry = hint["entry"]
    assert hint["level"] == "trial"
    placement = aspuzzles.solve("tiles", "seed-big-cats-3x3-hint").solution.data.placement
    assert placement[entry["row"] - 1][entry["col"] - 1][0] == entry["tile"]
    _assert_rests_on_a_minimal_set("tiles", "seed-big-cats-3x3-hint", hint)


def test_an_unsolvable_tiles_board_is_explained_by_tiles_that_cannot_all_be_laid(cli):
    conflict = cli("explain", "tiles", "unsolvable-animal-3x3", "--format", "json").json()[
        "conflict"
    ]
    instance = aspuzzles.load("tiles", "unsolvable-animal-3x3").parsed
    assert conflict and all(set(reason) == {"tile"} for reason in conflict)
    assert not _satisfiable("tiles", instance, conflict)
    for dropped in conflict:
        assert _satisfiable("tiles", instance, [r for r in conflict if r != dropped])


def test_a_board_unique_only_up_to_turning_offers_a_choice_that_keeps_a_solution(cli, tmp_path):
    data = cli("hint", "tiles", "seed-big-cats-3x3", "--format", "json").json()
    [hint] = data["hints"]
    assert hint["level"] == "choice" and hint["reasons"] == []
    entry = hint["entry"]
    placement: list[list[Any]] = [[None] * 3 for _ in range(3)]
    placement[entry["row"] - 1][entry["col"] - 1] = [entry["tile"], entry["turn"]]
    (tmp_path / "p.json").write_text(json.dumps({"placement": placement}))
    after = cli("hint", "tiles", "seed-big-cats-3x3", "--progress", str(tmp_path / "p.json"))
    assert after.code == 0 and "mistake" not in after.out
    assert "hint (choice)" not in after.out  # one tile laid: the board's turn is fixed


def _trials_counted(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every entry the hint tries (assumes, to see it fail at once), as it tries it."""
    from aspuzzles.driver.reasoning import Reasoner

    tried: list[Any] = []
    original = Reasoner.fails_at_once

    def counted(self: Reasoner, assumptions: Any, trial: Any) -> bool:
        tried.append(trial)
        return original(self, assumptions, trial)

    monkeypatch.setattr(Reasoner, "fails_at_once", counted)
    return tried


def test_where_solutions_share_no_open_entry_no_entry_is_tried(monkeypatch):
    """Unique only up to turning, the board's solutions share no placement: nothing
    can follow by trial, and the search for solutions says so before any entry is
    tried (every one of its 324 was before; a 10x10 board's 40,000 took minutes)."""
    tried = _trials_counted(monkeypatch)
    [hint] = aspuzzles.hint("tiles", "seed-big-cats-3x3").to_dict()["hints"]
    assert hint["level"] == "choice"
    assert tried == []


@pytest.mark.parametrize(
    ("puzzle", "name"), [("tiles", "seed-big-cats-3x3-hint"), ("cake", "unique-5x5-5-pieces")]
)
def test_searches_cut_short_beside_the_trials_find_the_same_hints(monkeypatch, puzzle, name):
    """The searches that take turns with the trials, each cut at a few conflicts, rule
    nothing out that follows: every hint and the first one are as with none at all."""
    from aspuzzles.hinting import questions

    found = {every: aspuzzles.hint(puzzle, name, every=every).to_dict() for every in (0, 1)}
    tried = _trials_counted(monkeypatch)
    monkeypatch.setattr(questions, "_FIRST_SEARCH", 1)
    for every in (0, 1):
        assert aspuzzles.hint(puzzle, name, every=bool(every)).to_dict() == found[every]
    assert tried  # the trials were made: the cut searches ended nothing


# ------------------------------------------------------------------------------ dice
@pytest.mark.slow
def test_dice_progress_of_half_a_tiling_gets_a_hint_for_an_open_cell(cli, tmp_path):
    cells = aspuzzles.solve("geniussquare").solution.data.cells
    board = get_puzzle("geniussquare")
    half = {board.label(n): name for n, name in list(cells.items())[:14]}
    (tmp_path / "p.json").write_text(json.dumps({"cells": half}))
    data = cli("hint", "geniussquare", "--progress", str(tmp_path / "p.json"), "--format", "json")
    [hint] = data.json()["hints"]
    assert hint["entry"]["cell"] not in half
    assert data.json()["mistakes"] == []


@pytest.mark.slow
def test_a_dice_hint_near_the_end_rests_on_a_minimal_set_of_dice_and_pieces(cli, tmp_path):
    cells = aspuzzles.solve("geniussquare").solution.data.cells
    board = get_puzzle("geniussquare")
    last = sorted(set(cells.values()))[-1]  # one piece left to lay
    laid = {board.label(n): name for n, name in cells.items() if name != last}
    (tmp_path / "p.json").write_text(json.dumps({"cells": laid}))
    report = aspuzzles.hint("geniussquare", progress=str(tmp_path / "p.json"))
    [hint] = report.to_dict()["hints"]
    assert hint["entry"]["piece"] == last  # at whatever level this tiling's last piece needs
    _assert_rests_on_a_minimal_set("geniussquare", "roll-b2-d6-c3-f2-f1-d2-f5", hint)


def test_dice_progress_that_covers_a_die_is_refused(cli, tmp_path):
    (tmp_path / "p.json").write_text('{"cells": {"B2": "M1"}}')
    run = cli("hint", "geniussquare", "--progress", str(tmp_path / "p.json"))
    assert (run.code, run.err) == (
        2,
        f"aspuzzles: error: {tmp_path / 'p.json'}: B2 holds a die, not a piece\n",
    )


# --------------------------------------------------------------------------- capture
@pytest.mark.slow
def test_a_capture_hint_is_the_first_move_of_a_shortest_plan(cli):
    data = cli("hint", "capture", "--format", "json").json()
    [hint] = data["hints"]
    assert hint["moves_left"] == 6
    move = f"{hint['entry']['row']} {hint['entry']['col']} {hint['entry']['direction']}"
    after = cli("hint", "capture", "--progress", move, "--format", "json").json()
    assert after["hints"][0]["moves_left"] == 5  # the move keeps a shortest plan


def test_capture_moves_that_cannot_clear_the_board_say_so(cli):
    run = cli("hint", "capture", "--progress", "6 2 Left")
    assert run.code == 1 and "can no longer lead to a clear board" in run.out
    done = cli(
        "hint", "capture", "--progress", "6 2 Right; 6 3 Up; 7 1 Up; 6 2 Down; 7 5 Left; 6 6 Down"
    )
    assert done.code == 0 and "solved" in done.out
    unclearable = cli("hint", "capture", "unsolvable-two-reds")
    assert unclearable.code == 1 and unclearable.out.splitlines()[:2] == [
        "capture unsolvable-two-reds.txt: stuck",
        "no plan clears this board",
    ]
    illegal = cli("hint", "capture", "--progress", "6 3 Right")
    assert illegal.code == 2
    assert illegal.err == (
        "aspuzzles: error: <argument>: move 1 (6 3 Right) is illegal: "
        "no run of 3 passes through a swapped cell\n"
    )


@pytest.mark.parametrize("command", ["explain", "grade"])
def test_capture_says_its_hints_are_moves_when_asked_to_explain_or_grade(cli, command):
    run = cli(command, "capture", "unsolvable-two-reds")
    assert run.code == 2
    assert run.err == (
        "aspuzzles: error: puzzle 'capture' gives hints as moves only (aspuzzles hint): "
        "it has no clues to explain or grade by\n"
    )


def test_hints_explanations_and_grades_keep_their_time_limit(cli):
    graded = cli("grade", "haunted", "gen-15x15-s15", "--timeout", "0.05")
    # The phase the limit strikes in depends on the machine's speed; the words do not.
    assert graded.code == 3
    assert re.fullmatch(
        r"aspuzzles: error: time limit of 0\.05 s reached while (loading|grounding|reasoning)\n",
        graded.err,
    ), graded.err
    planned = cli("hint", "capture", "wight", "--timeout", "0.05")
    assert planned.code == 3
    # Loading the capture board may already take the whole limit on a slow machine.
    assert re.fullmatch(
        r"aspuzzles: error: time limit of 0\.05 s reached "
        r"(while (loading|solving)|before a shortest plan was proved( \(proved: [^)]+\))?: no hint)\n",
        planned.err,
    ), planned.err
    zero = cli("explain", "haunted", "--timeout", "0")
    assert zero.code == 2 and "--timeout: must be a number of seconds from 0.001" in zero.err


@pytest.mark.slow
def test_a_capture_hint_past_its_limit_says_what_the_search_proved(cli):
    """A game's board whose shortest plan takes some 20 s to prove: the hint's limit
    names what the search had proved by then, as ``solve`` does."""
    from tests.conftest import long_plan

    run = cli("hint", "capture", long_plan(), "--timeout", "2")
    assert run.code == 3 and run.out == ""
    assert re.fullmatch(
        r"aspuzzles: error: time limit of 2 s reached before a shortest plan was proved "
        r"\(proved: [^)]+\): no hint\n",
        run.err,
    ), run.err


def test_a_tiles_board_with_several_solutions_grades_as_not_unique():
    """The corner tile laid first must not hide a second solution that lays another."""
    graded = aspuzzles.grade("tiles", "gen-animal-4x4-4-kinds")
    assert not graded.unique and graded.laid_first, graded.summary()
    assert aspuzzles.solve("tiles", "gen-animal-4x4-4-kinds", unique=True).verdict == "multiple"


def test_a_unique_tiles_board_is_known_unique_under_its_anchor_from_its_counted_turns():
    """Counting a tiles board's solutions up to one more than its turns finds all of
    them (the four turns of one tiling, each checked), and one holds the corner tile
    laid first: no other search is needed to know the anchored board is unique."""
    from aspuzzles.hinting.grading import _anchored
    from aspuzzles.hinting.grounding import ground_instance, loaded

    game = get_puzzle("tiles")
    parsed, _ = loaded(game, "seed-big-cats-3x3")
    ground = ground_instance(game, parsed, None)
    every = ground.reasoner.solutions([], 5)
    assert len(every) == 4 == ground.reasoner.count([], 5)
    assert len({frozenset(entries) for entries in every}) == 4
    for entries in every:  # each a tiling the puzzle's own checker accepts
        assert game.check(parsed, game.decode(parsed, sorted(entries))) == []
    anchored = _anchored(ground)
    assert anchored.holding is not None and len(anchored.holding) == 1
    assert set(anchored.laid) <= anchored.holding[0] and anchored.unshared == []
    assert aspuzzles.grade("tiles", "seed-big-cats-3x3").unique


@pytest.mark.parametrize("puzzle", sorted(CLUES))
def test_each_encoding_declares_its_clues_and_entries(puzzle):
    """The clues are the facts the encoding does not declare structure; the entries the
    atoms it (or its hints part) shows."""
    from aspuzzles.declarations import declarations
    from aspuzzles.driver import load_instance

    game = get_puzzle(puzzle)
    declared = declarations(ROOT / "encodings" / f"{puzzle}.lp")
    instance, _ = load_instance(game, None)
    names = {f.name for f in game.hints().hint_facts(instance)}
    structure = {name for name, _ in declared.structure}
    assert names - structure == CLUES[puzzle]
    assert declared.entries == (ENTRIES[puzzle],)


def test_every_puzzle_reads_progress_written_as_facts_of_its_entries(cli):
    """Besides each puzzle's own formats, progress may be the entry atoms themselves."""
    run = cli(
        "hint", "haunted", "gen-5x5-s3", "--progress", "monster(4,4,ghost).", "--format", "json"
    )
    assert [(m["row"], m["col"], m["monster"]) for m in run.json()["mistakes"]] == [(4, 4, "G")]
    run = cli(
        "hint", "cake", "unique-5x5-5-pieces", "--progress", "side(0,1,cut).", "--format", "json"
    )
    assert run.json()["mistakes"][0]["cells"] == [[1, 1], [1, 2]]
    run = cli("hint", "haunted", "gen-5x5-s3", "--progress", "zzz")
    assert run.code == 2 and "is not a totals line" in run.err
