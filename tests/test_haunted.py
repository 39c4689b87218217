"""Haunted (Undead): every shipped instance, the parsers, the checker, the generator."""

from __future__ import annotations

import argparse
import itertools
import random
from typing import Any

import clingo
import pytest

from aspuzzles import InputError, solve, solve_instance
from aspuzzles.paths import find_encoding
from aspuzzles.puzzles.haunted import PUZZLE, search
from aspuzzles.puzzles.haunted.checker import check_board
from aspuzzles.puzzles.haunted.gameid import encode_game_id, parse_game_id
from aspuzzles.puzzles.haunted.generate import clued, random_board
from aspuzzles.puzzles.haunted.model import HauntedInstance
from aspuzzles.puzzles.haunted.sight import clue_place, clues_of, opposite, sight_range, trace

from .conftest import INSTANCES, ROOT, expected_answer, shared_data

SEED_ID = "4x4:2,4,3,cRLbRaRRbLLa,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,2"
SEED_ANSWER = ["GZZ/", "\\VV/", "V//V", "G\\\\Z"]
HAUNTED_FILES = sorted(
    path for path in (INSTANCES / "haunted").iterdir() if path.suffix in (".txt", ".lp")
)


def test_seed_answer_is_the_blogs():
    # ghosts (1,1),(4,1); zombies (1,2),(1,3),(4,4); draculas (2,2),(2,3),(3,1),(3,4)
    grid = solve("haunted", SEED_ID).solution.data.grid
    at = {(r + 1, c + 1): grid[r][c] for r in range(4) for c in range(4)}
    assert [p for p, v in at.items() if v == "G"] == [(1, 1), (4, 1)]
    assert [p for p, v in at.items() if v == "Z"] == [(1, 2), (1, 3), (4, 4)]
    assert [p for p, v in at.items() if v == "V"] == [(2, 2), (2, 3), (3, 1), (3, 4)]


def test_a_game_id_file_may_comment_after_the_id():
    game_id = "4x4:2,4,3,cRLbRaRRbLLa,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,2"
    commented = PUZZLE.parse(f"# janko 1\n{game_id}   # from undead.c\n", "janko.txt")
    assert commented == PUZZLE.parse(game_id, "<argument>")
    with pytest.raises(InputError, match="a random seed"):
        PUZZLE.parse("4x4de#12345\n", "seed.txt")


def test_a_link_to_tathams_web_version_is_its_game_id():
    game_id = "4x4:2,4,3,cRLbRaRRbLLa,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,2"
    page = "https://www.chiark.greenend.org.uk/~sgtatham/puzzles/js/undead.html"
    assert PUZZLE.parse(f"{page}#{game_id}", "<argument>") == PUZZLE.parse(game_id, "<argument>")
    assert PUZZLE.parse(f"# saved\nundead.html#{game_id}\n", "l.txt") == PUZZLE.parse(game_id, "x")
    with pytest.raises(InputError, match="a random seed"):
        PUZZLE.parse(f"{page}#4x4de#12345", "<argument>")


def saved_game(**changed: str | None) -> str:
    """The seed as Undead's File > Save writes it (midend.c: an 8-character key, the
    value's length, the value), with fields changed or (None) left out."""
    fields = {
        "SAVEFILE": "Simon Tatham's Portable Puzzle Collection",
        "VERSION": "1",
        "GAME": "Undead",
        "PARAMS": "4x4dn",
        "CPARAMS": "4x4dn",
        "SEED": "730569215388171",
        "DESC": SEED_ID.split(":", 1)[1],
        "UI": "",
        "NSTATES": "2",
        "STATEPOS": "2",
        "MOVE": "G0,0",  # a move played since: not part of the puzzle
    } | changed
    return "".join(
        f"{key:<8}:{len(value)}:{value}\n" for key, value in fields.items() if value is not None
    )


def test_a_game_saved_by_undead_is_its_game_id():
    seed = PUZZLE.parse(SEED_ID, "<argument>")
    assert PUZZLE.parse(saved_game(), "seed.sav") == seed
    assert PUZZLE.parse(saved_game().replace("\n", "\r\n"), "seed.sav") == seed
    assert PUZZLE.parse(saved_game(CPARAMS=None), "seed.sav") == seed  # PARAMS then


@pytest.mark.parametrize(
    ("changed", "message"),
    [
        ({"GAME": "Net"}, "seed.sav:3: a saved game of Net, not of Undead"),
        ({"DESC": None}, "seed.sav: the saved game has no DESC line"),
        ({"PARAMS": None, "CPARAMS": None}, "seed.sav: the saved game has no PARAMS line"),
        ({"SAVEFILE": "Another Collection"}, "seed.sav:1: not a save file of Tatham's puzzles"),
        ({"DESC": "2,4,3,cRLbRaRRbLLa,0,2"}, "seed.sav:7: expected 16 clues after the grid, got 2"),
    ],
)
def test_a_saved_game_that_cannot_be_read_says_why(changed, message):
    with pytest.raises(InputError) as error:
        PUZZLE.parse(saved_game(**changed), "seed.sav")
    assert str(error.value).startswith(message)


def test_a_saved_game_cut_short_or_garbled_names_the_line():
    cut = saved_game()[:-3]  # the last value, MOVE, loses two characters
    with pytest.raises(InputError, match=r"seed.sav:11: the MOVE value is cut short"):
        PUZZLE.parse(cut, "seed.sav")
    garbled = saved_game().replace("VERSION :1:1", "VERSION 1")
    with pytest.raises(InputError, match=r"seed.sav:2: expected 'KEY     :LENGTH:VALUE'"):
        PUZZLE.parse(garbled, "seed.sav")


def test_fact_format_and_game_id_are_the_same_puzzle():
    from_facts = PUZZLE.parse((INSTANCES / "haunted" / "seed-4x4.lp").read_text(), "seed.lp")
    assert from_facts == parse_game_id(SEED_ID, "<argument>")
    assert encode_game_id(from_facts) == SEED_ID


@pytest.mark.parametrize("name", ["janko-001-4x4.txt", "janko-014-8x5-fixed.txt"])
def test_tathams_own_examples_solve_uniquely(name):
    result = solve("haunted", shared_data("haunted", name), unique=True)
    assert result.verdict == "unique"
    assert check_board(result.solution.instance, result.solution.data.grid) == []


def test_given_monsters_are_kept():
    result = solve("haunted", shared_data("haunted", "janko-014-8x5-fixed.txt"))
    instance, grid = result.solution.instance, result.solution.data.grid
    givens = [
        (r, c) for r, row in enumerate(instance.grid) for c, v in enumerate(row) if v in "GVZ"
    ]
    assert givens and all(grid[r][c] == instance.grid[r][c] for r, c in givens)


# ---------------------------------------------------------------- the checker
def _instance() -> HauntedInstance:
    return parse_game_id(SEED_ID, "<argument>")


def test_checker_accepts_the_answer():
    assert check_board(_instance(), SEED_ANSWER) == []


@pytest.mark.parametrize(
    ("board", "problems"),
    [
        (  # two monsters swapped
            ["ZGZ/", "\\VV/", "V//V", "G\\\\Z"],
            ["line 1 sees 1 monsters, its clue says 0", "line 2 sees 1 monsters, its clue says 2"],
        ),
        (  # wrong totals
            ["GZZ/", "\\VV/", "V//V", "G\\\\V"],
            ["5 vampires placed, 4 required", "2 zombies placed, 3 required"],
        ),
        (["GZZ\\", "\\VV/", "V//V", "G\\\\Z"], ["cell (1,4) changes a mirror"]),
        (  # a monster on a mirror
            ["GZZ/", "\\VV/", "VZ/V", "G\\\\Z"],
            ["cell (3,2) changes a mirror", "4 zombies placed, 3 required"],
        ),
        (["GZZ/", "\\VV/", "V//V"], ["board is not 4x4"]),
        (
            ["GZZ/", "\\.V/", "V//V", "G\\\\Z"],
            ["cell (2,2) holds no monster", "3 vampires placed, 4 required"],
        ),
    ],
)
def test_checker_rejects_broken_boards(board, problems):
    """Every problem named, at its cell (rows and columns from 1) or line."""
    assert check_board(_instance(), board) == problems


def test_checker_keeps_a_given_monster():
    """A board that moves a given monster is refused at the given's cell."""
    given = _instance()._replace(grid=("G../", "\\../", ".//.", ".\\\\."))
    moved = ["ZGZ/", "\\VV/", "V//V", "G\\\\Z"]
    assert check_board(given, moved)[0] == "cell (1,1) must hold the given G"


def test_an_answer_decodes_from_its_atoms_text_as_from_their_symbols():
    """Decoding reads each ``monster(R,C,K)`` from its text; every cell lands where
    reading the symbol's arguments puts it, with double-digit rows and columns, and an
    atom of another shape (an edited encoding's) is still read through the symbol."""
    board = clued(random_board(12, 12, random.Random(5), 0.3))
    atoms = [
        clingo.Function("monster", [clingo.Number(r + 1), clingo.Number(c + 1), clingo.Function(k)])
        for (r, c), k in zip(board.cells(), itertools.cycle(("ghost", "vampire", "zombie")))
    ]
    grid = PUZZLE.decode(board, atoms).grid
    for atom in atoms:
        row, col, kind = atom.arguments
        assert grid[row.number - 1][col.number - 1] == kind.name[0].upper()
    assert all("." not in row for row in grid) and grid[11][11] in "GVZ/\\"
    assert str(atoms[-1]).startswith("monster(12,12,")  # the shape the text is read in
    others = [
        clingo.Tuple_([clingo.Number(1)]),
        clingo.Function("seen_directly", atoms[0].arguments[:2]),
    ]
    assert PUZZLE.decode(board, others).grid == board.grid  # other shapes skipped, as before


def test_a_line_crossing_a_cell_twice_counts_it_twice():
    # Line 1 enters column 1 from the top, goes down through (1,1), turns right at the
    # "\\" of (2,1), up at the "/" of (2,2), left at the "\\" of (1,2) and crosses (1,1)
    # again, now behind mirrors.
    grid = ("...", "..\\", ".\\/")
    assert trace(grid, 1) == [(0, 1, False), (1, 1, False), (1, 1, True), (1, 0, True)]
    assert clues_of(("VVV", "VZ\\", "V\\/"))[1] == 1 + 2 + 0  # V, Z twice, V behind mirrors unseen
    assert clues_of(("ZZZ", "GZ\\", "Z\\/"))[1] == 1 + 2 + 1  # Z, Z twice, G behind
    assert clues_of(("ZZZ", "GV\\", "Z\\/"))[1] == 1 + 1 + 1  # V only on its first crossing


def test_clue_counts_a_monster_once_per_crossing():
    board = ("Z/", "//")
    # line 0: down into (0,0) zombie, then (1,0) "/" turns left and leaves: 1 sighting.
    # line 3 (right edge, row 0 from the right): (0,1) "/" turns down to (1,1) "/"
    # turns left to (1,0) "/" turns down and leaves: no monster.
    clues = clues_of(board)
    assert clues[0] == 1
    instance = HauntedInstance(2, 2, {"G": 0, "V": 0, "Z": 1}, ("./", "//"), clues)
    result = solve("haunted", encode_game_id(instance), unique=True)
    assert result.verdict == "unique" and result.solution.data.grid == board


# ---------------------------------------------------------------- game IDs
def test_runs_longer_than_26_cells():
    # "za" is a run of 27 empty cells: 27 + 1 mirror + 8 = 36 cells of a 6x6.
    instance = parse_game_id("6x6:0,0,35,zaRh," + ",".join(["0"] * 24), "<argument>")
    assert "".join(instance.grid).index("/") == 27
    assert encode_game_id(instance).startswith("6x6:0,0,35,zaRh,")


def test_square_shorthand_and_difficulty_are_accepted():
    assert (
        parse_game_id("4de:2,4,3,cRLbRaRRbLLa,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,2", "x") == _instance()
    )


@pytest.mark.parametrize(
    ("game_id", "message"),
    [
        ("hello", "not a game ID"),
        ("4x4de#12345", "a random seed ('WxH#SEED') names a puzzle only Undead's own"),
        ("4x4:2,4,3", "expected three totals and a grid"),
        (
            "4x4:2,4,3,cRLbRaRRbLLa,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1",
            "expected 16 clues after the grid, got 15",
        ),
        (
            "4x4:2,4,3,cRLbRaRRbLLa,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,2,4",
            "expected 16 clues after the grid, got 17",
        ),
        ("4x4:2,4,3,cRLbRaRRbLL,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,2", "grid is too short"),
        ("4x4:2,4,3,cRLbRaRRbLLab,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,2", "grid is too long"),
        (
            "4x4:2,4,3,cRLbRaRRbLL?,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,2",
            "bad character '?' at position 12",
        ),
        (  # a control character is shown escaped, not written out raw
            "4x4:2,4,3,cRLbRaRRbLL\x07,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,2",
            "bad character '\\x07' at position 12",
        ),
        ("4x4:2,4,4,cRLbRaRRbLLa,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,2", "do not match the 9 monster"),
        ("4x4:x,4,3,cRLbRaRRbLLa,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,2", "ghost total 'x'"),
        ("4x4:2,4,3,cRLbRaRRbLLa,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,-2", "clue 16 '-2'"),
        # a superscript is a digit to str.isdigit, not to int()
        ("4x4:2,4,3,cRLbRaRRbLLa,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,²", "clue 16 '²'"),
        ("4x4:2,4,²,cRLbRaRRbLLa,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,2", "zombie total '²'"),
        ("0x4:0,0,0,a,", "out of range"),
        ("4x4:0,4,3,GbRLbRaRRbLLa,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,2", "totals"),
    ],
)
def test_bad_game_ids_are_named_precisely(game_id, message):
    with pytest.raises(InputError) as error:
        parse_game_id(game_id, "puzzle.txt", 3)
    assert message in str(error.value)
    assert str(error.value).startswith("puzzle.txt:3: ")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no puzzle found (the file is empty)"),
        ("# from undead.c\n\n", "no puzzle found (the file holds only comments)"),
        ("4x4:1,1,1,a\n4x4:1,1,1,a\n", "bad.txt:2: expected one game ID, found more lines"),
    ],
)
def test_a_game_id_file_without_exactly_one_id_says_why(text, message):
    with pytest.raises(InputError) as error:
        PUZZLE.parse(text, "bad.txt")
    assert message in str(error.value)


# ------------------------------------------------------- clues no board can show
def test_clues_are_placed_clockwise_from_the_top_left_corner():
    places = [clue_place(3, 2, line) for line in range(10)]
    assert places == [
        *(f"top of column {n}" for n in (1, 2, 3)),
        *(f"right of row {n}" for n in (1, 2)),
        *(f"bottom of column {n}" for n in (3, 2, 1)),
        *(f"left of row {n}" for n in (2, 1)),
    ]


@pytest.mark.parametrize("path", HAUNTED_FILES, ids=lambda p: p.name)
def test_every_answer_sees_within_the_range_each_line_allows(path):
    """What a line can see lies between the given monsters it sees and the monster
    cells it crosses; the shipped answers agree, so no shipped puzzle is refused."""
    answer = expected_answer(path)["grid"]
    instance = PUZZLE.parse(path.read_text(), path.name)
    assert PUZZLE.strategy(instance).infeasible() is None
    for line, seen in enumerate(clues_of(answer)):
        fewest, most = sight_range(instance.grid, line)
        assert fewest <= seen <= most


@pytest.mark.parametrize(
    ("picture", "reason"),
    [
        (
            "G 1 V 1 Z 0\n  2 1\n1 . . 1\n  1 1\n",
            "the clue 2 at the top of column 1 asks for more monsters than its line crosses (1)",
        ),
        (
            "G 0 V 1 Z 1\n  1 1\n1 Z . 1\n  0 1\n",
            "the clue 0 at the bottom of column 1 asks for fewer monsters than the given "
            "monsters its line sees (1)",
        ),
    ],
)
def test_a_clue_its_line_cannot_show_is_unsatisfiable_without_search(picture, reason):
    result = solve_instance(PUZZLE, PUZZLE.parse(picture, "pic.txt"), count=True)
    assert (result.status, result.count, result.reason) == ("unsatisfiable", 0, reason)


# ------------------------------------------------------------- the board picture
UNDEAD_C_PICTURE = r"""
# Janko puzzle No. 1, as drawn in the header comment of Tatham's undead.c
Ghosts: 0 Vampires: 2 Zombies: 6
    2 1 1 1
  1 \ \ . / 2
  0 \ . / . 2
  0 / . / . 2
  3 . . . \ 2
    3 3 2 2
"""
UNDEAD_C_ID = "4x4:0,2,6,LLaRLaRaRaRdL,2,1,1,1,2,2,2,2,2,2,3,3,3,0,0,1"


def test_a_board_picture_is_the_same_puzzle_as_its_game_id():
    assert PUZZLE.parse(UNDEAD_C_PICTURE, "janko.txt") == parse_game_id(UNDEAD_C_ID, "id")


def test_a_picture_may_write_rows_solid_totals_in_any_order_and_cells_with_dashes():
    solid = (
        "z 6, G 0, dracula 2\n  2 1 1 1\n1 \\\\-/ 2\n0 \\./. 2\n0 /./. 2\n3 ...\\ 2\n  3 3 2 2\n"
    )
    assert PUZZLE.parse(solid, "solid.txt") == parse_game_id(UNDEAD_C_ID, "id")
    given = solid.replace("1 \\\\-/ 2", "1 \\\\z/ 2")
    assert PUZZLE.parse(given, "given.txt").grid[0] == "\\\\Z/"


def test_a_picture_may_frame_its_clues_and_give_each_total_on_its_own_line():
    framed = "ghosts 0\nvampires 2\nzombies 6\n" + "\n".join(
        [
            "- 2 1 1 1 -",
            "1 \\ \\ . / 2",
            "0 \\ . / . 2",
            "0 / . / . 2",
            "3 . . . \\ 2",
            "- 3 3 2 2 -",
        ]
    )
    assert PUZZLE.parse(framed, "framed.txt") == parse_game_id(UNDEAD_C_ID, "id")
    # Unframed, a row of top clues that starts and ends without one stays four clues wide.
    open_ends = UNDEAD_C_PICTURE.replace("    2 1 1 1", "    - 1 1 -")
    assert PUZZLE.parse(open_ends, "open.txt").clues[:4] == (None, 1, 1, None)


#: Janko's puzzle 1 as janko.at's own puzzle data writes it (the site undead.c cites).
JANKO_FILE = r"""begin
puzzle spukschloss
author Otto Janko
size 4
ghosts 0
vampires 2
zombies 6
problem
- 2 1 1 1 -
1 \ \ - / 2
0 \ - / - 2
0 / - / - 2
3 - - - \ 2
- 3 3 2 2 -
solution
- - - - - -
- \ \ z / -
- \ v / z -
- / z / z -
- z z v \ -
- - - - - -
end
"""


def test_a_clue_clingo_could_not_hold_is_refused_as_more_than_a_line_can_see():
    huge = UNDEAD_C_ID.rsplit(",", 1)[0] + ",99999999999"
    with pytest.raises(InputError, match="the clue 99999999999 at the left of row 1 is more than"):
        parse_game_id(huge, "id")


def test_janko_at_puzzle_data_is_read_as_its_game_id():
    assert PUZZLE.parse(JANKO_FILE, "001.txt") == parse_game_id(UNDEAD_C_ID, "id")
    rectangle = JANKO_FILE.replace("size 4", "rows 4\ncols 4")
    assert PUZZLE.parse(rectangle, "001.txt") == parse_game_id(UNDEAD_C_ID, "id")
    page = f"<html><body>\n<script type='application/x-janko'>\n{JANKO_FILE}</script>\n</html>"
    assert PUZZLE.parse(page, "001.a.htm") == parse_game_id(UNDEAD_C_ID, "id")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("size 4", "size 5"), "001.txt:4: 'size 5' does not match the problem grid, which is 4x4"),
        (("size 4", "rows 4\ncols 3"), "001.txt:5: 'cols 3' does not match the problem grid"),
        (("problem\n", ""), "001.txt:8: a grid row before any 'problem' line"),
        (("zombies 6\n", ""), "001.txt:6: the totals lines give no zombie total"),
        (("1 \\ \\ - / 2", "1 \\ x - / 2"), "001.txt:10: bad cell 'x' in column 2"),
    ],
)
def test_janko_at_puzzle_data_errors_name_the_line(change, message):
    with pytest.raises(InputError) as error:
        PUZZLE.parse(JANKO_FILE.replace(*change), "001.txt")
    assert message in str(error.value)


def test_janko_at_puzzle_data_without_a_grid_says_so():
    header = JANKO_FILE.split("problem")[0] + "end\n"
    with pytest.raises(InputError, match=r"001\.txt: janko\.at puzzle data without a 'problem'"):
        PUZZLE.parse(header, "001.txt")


def test_a_solved_board_as_printed_reads_back_as_a_puzzle_with_every_monster_given():
    solved = solve("haunted", SEED_ID).solution
    reread = PUZZLE.parse(solved.text(), "solved.txt")
    assert reread.clues == solved.instance.clues and reread.grid == solved.data.grid
    result = solve_instance(PUZZLE, reread, unique=True)
    assert result.verdict == "unique" and result.solution.data.grid == solved.data.grid


def test_a_picture_may_leave_clues_out_and_the_others_still_bind():
    full = PUZZLE.parse(UNDEAD_C_PICTURE, "janko.txt")
    lines = UNDEAD_C_PICTURE.splitlines()
    lines[3] = "    2 - 1 -"  # no clue on columns 2 and 4 at the top
    lines[5] = "  - \\ . / . 2"  # nor on row 2 at the left
    partial = PUZZLE.parse("\n".join(lines), "partial.txt")
    assert partial.clues.count(None) == 3
    assert [c for c, p in zip(full.clues, partial.clues, strict=True) if p is not None] == [
        c for c in partial.clues if c is not None
    ]
    clue_lines = {
        atom.arguments[0].number for atom in PUZZLE.facts(partial) if atom.match("clue", 2)
    }
    assert clue_lines == {line for line, clue in enumerate(partial.clues) if clue is not None}
    result = solve_instance(PUZZLE, partial, models=0)
    assert result.solutions, "the full puzzle's answer still fits the clues left"
    for solution in result.solutions:
        assert check_board(partial, solution.data.grid) == []
    full_answer = solve("haunted", UNDEAD_C_ID).solution.data.grid
    assert full_answer in [solution.data.grid for solution in result.solutions]
    assert " -" in result.solutions[0].text()
    with pytest.raises(InputError, match="a game ID needs every clue"):
        encode_game_id(partial)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("  1 1\n1 . . 1\n  1 1\n", "pic.txt: expected a totals line"),
        ("G 1 V 1 Z 0\nG 1 V 1 Z 0\n  1 1\n1 . . 1\n  1 1\n", "pic.txt:2: the ghost total is"),
        (
            "ghosts 1, vampires 1\n  1 1\n1 . . 1\n  1 1\n",
            "pic.txt:1: the totals line gives no zombie",
        ),
        (
            "ghosts 1 vampires 1 werewolves 0\n  1 1\n1 . . 1\n  1 1\n",
            "pic.txt:1: 'ghosts 1 vampires 1 w",
        ),
        ("G 1 V 1 Z 0 G 2\n  1 1\n1 . . 1\n  1 1\n", "pic.txt:1: the ghost total is given twice"),
        ("G 1 V 1 Z 0\n  1 1\n", "pic.txt: expected a row of top clues, the grid rows"),
        ("G 1 V 1 Z 0\n  1 x\n1 . . 1\n  1 1\n", "pic.txt:2: 'x' is not a clue"),
        (
            "G 1 V 1 Z 0\n  1 1\n1 . . . 1\n  1 1\n",
            "pic.txt:3: expected a clue, 2 cells and a clue",
        ),
        ("G 1 V 1 Z 0\n  1 1\n1 .. . 1\n  1 1\n", "pic.txt:3: expected a clue, 2 cells"),
        ("G 1 V 1 Z 0\n  1 1\n1 . x 1\n  1 1\n", "pic.txt:3: bad cell 'x' in column 2 (cells: "),
        (
            "G 1 V 1 Z 0\n  1 1\n1 . . 1\n  1 1 1\n",
            "pic.txt:4: the bottom row has 3 clues, expected 2",
        ),
        ("G 1 V 1 Z 1\n  1 1\n1 . . 1\n  1 1\n", "totals 1+1+1=3 do not match the 2 monster cells"),
        (
            "G 1 V 1 Z 0\n  1 9\n1 . . 1\n  1 1\n",
            "the clue 9 at the top of column 2 is more than any line of sight in a 2x1 grid",
        ),
    ],
)
def test_bad_board_pictures_are_named_precisely(text, message):
    with pytest.raises(InputError) as error:
        PUZZLE.parse(text, "pic.txt")
    assert message in str(error.value)


def test_large_clues_and_zero_totals_are_accepted():
    board = ("ZZZZZZZZZZZZ",)
    instance = HauntedInstance(12, 1, {"G": 0, "V": 0, "Z": 12}, ("." * 12,), clues_of(board))
    assert max(instance.clues) == 12
    result = solve("haunted", encode_game_id(instance), unique=True)
    assert result.verdict == "unique"


# ---------------------------------------------------------------- fact format
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("count(0,1,0).", "missing '#const n = SIZE.'"),
        ('#const n=2.\nghost(0). dracula(0). zombie(4).\nmirror(3,1,"/").', ":3: mirror (3,1)"),
        ('#const n=2.\nghost(0). dracula(0).\nzombie(4).\nmirror(1,1,"x").', ":4: mirror type"),
        ("#const n=2.\nghost(0). dracula(0). zombie(4).\ncount(0,0,1).", ":3: count must be"),
        (
            "#const n=2.\nghost(0). dracula(0). zombie(4).\ncount(0,1,1).",
            "7 border counts are missing",
        ),
        ("#const n=2.\ndracula(0). zombie(4).", "missing ghost(N)"),
        ("#const n=2.\nghost(0) :- zombie(1).", ":2: only facts"),
        ("#const n=2.\nghost(0", ":3:1: syntax error, unexpected EOF"),
        ("#const n=2.\nghost(0 1).", ":2:9: syntax error, unexpected <NUMBER>"),
        (
            "#const n=2.\nghost(0). \ufeffzombie(4).",
            ":2:11: unexpected character '\\ufeff' (U+FEFF)",
        ),
        ('#const n=2. % café\nmirror(1,1,"/"). dracula(1)é.', ":2:28: unexpected character 'é'"),
        ("#const n=2.\nghost(0). zombi(4).", ":2: unknown fact zombi(4) (expected count/3, "),
        ("#const n=2.\nghost(0).\nghost(1).", ":3: the ghost total is given twice"),
        ('#const n=2.\nmirror(1,1,"/").\nmirror(1,1,"\\\\").', ":3: cell (1,1) is given two"),
        (
            "#const n=1.\nghost(0). dracula(0). zombie(1).\ncount(0,1,1).\ncount(0,1,2).",
            ":4: (0,1) is given two different counts",
        ),
    ],
)
def test_bad_fact_files_are_named_precisely(text, message):
    with pytest.raises(InputError) as error:
        PUZZLE.parse(text, "bad.lp")
    assert message in str(error.value)
    assert str(error.value).startswith("bad.lp:")


# ---------------------------------------------------------------- generator
def test_generator_is_seeded_and_makes_unique_puzzles():
    args = argparse.Namespace(size="5x4", seed=7, mirrors=0.35)
    game_id = PUZZLE.generator().generate(args)
    assert game_id == PUZZLE.generator().generate(args)
    assert game_id.startswith("5x4:")
    assert solve("haunted", game_id, unique=True).verdict == "unique"


def test_generator_draws_pictures_and_sparse_pictures_stay_unique():
    args = argparse.Namespace(size="6x5", seed=3, mirrors=0.35, picture=False, sparse=False)
    game_id = PUZZLE.generator().generate(args)
    picture = PUZZLE.generator().generate(argparse.Namespace(**{**vars(args), "picture": True}))
    assert picture.startswith(
        "# aspuzzles generate haunted --size 6x5 --mirrors 0.35 --difficulty normal --seed 3"
    )
    assert PUZZLE.parse(picture, "gen.txt") == parse_game_id(game_id, "id")
    sparse_args = argparse.Namespace(**{**vars(args), "picture": True, "sparse": True})
    sparse = PUZZLE.parse(PUZZLE.generator().generate(sparse_args), "sparse.txt")
    full = parse_game_id(game_id, "id")
    assert sparse.grid == full.grid and sparse.totals == full.totals
    assert 0 < sparse.clues.count(None) < len(sparse.clues)
    assert all(c in (None, f) for c, f in zip(sparse.clues, full.clues, strict=True))
    result = solve_instance(PUZZLE, sparse, unique=True)
    assert result.verdict == "unique"
    assert result.solution.data.grid == solve("haunted", game_id).solution.data.grid
    with pytest.raises(InputError, match="--sparse needs --picture"):
        PUZZLE.generator().generate(argparse.Namespace(**{**vars(args), "sparse": True}))


@pytest.mark.parametrize(("size", "message"), [("5by4", "--size"), ("1x9", "out of range")])
def test_generator_rejects_bad_sizes(size, message):
    with pytest.raises(InputError, match=message):
        PUZZLE.generator().generate(argparse.Namespace(size=size, seed=1, mirrors=0.3))


def test_renderings_show_clues_and_monsters():
    solution = solve("haunted", SEED_ID).solution
    text = solution.text().splitlines()
    assert text[0] == "ghosts 2, vampires 4, zombies 3"
    assert text[1].split() == ["0", "2", "2", "3"]
    assert text[2].split() == ["2", "G", "Z", "Z", "/", "1"]
    assert text[-1].split() == ["1", "1", "1", "2"]
    svg = solution.svg()
    assert svg.startswith("<svg") and svg.count("<circle") == 9 and svg.count("<line") == 7


def random_small_board(rng: random.Random) -> HauntedInstance:
    """Mirrors, givens and unknown cells at random (at most 8 unknown), clues and totals
    from a random filling, sometimes off by one so that no filling fits."""
    while True:
        width, height = rng.choice([(3, 3), (4, 2), (2, 4), (3, 2), (5, 1)])
        grid = ["".join(rng.choice("....../\\G") for _ in range(width)) for _ in range(height)]
        if sum(row.count(".") for row in grid) <= 8:
            break
    filled = ["".join(c if c != "." else rng.choice("GVZ") for c in row) for row in grid]
    clues = list(clues_of(filled))
    if rng.random() < 0.3:
        clues[rng.randrange(len(clues))] += 1
    totals = {kind: sum(row.count(kind) for row in filled) for kind in "GVZ"}
    return HauntedInstance(width, height, totals, tuple(grid), tuple(clues))


def count_by_brute_force(instance: HauntedInstance) -> int:
    """Every filling of the unknown cells, judged by the independent checker."""
    unknown = [(r, c) for r, row in enumerate(instance.grid) for c, x in enumerate(row) if x == "."]
    count = 0
    for monsters in itertools.product("GVZ", repeat=len(unknown)):
        board = [list(row) for row in instance.grid]
        for (row, col), monster in zip(unknown, monsters, strict=True):
            board[row][col] = monster
        count += not check_board(instance, ["".join(row) for row in board])
    return count


def test_counts_agree_with_brute_force_on_random_small_boards(monkeypatch):
    """Neither the encoding nor the search in Python loses or invents solutions: on 60
    random boards (mirrors, lines crossing cells twice, givens, impossible clues, clues
    left out) each count is the brute force's."""
    rng = random.Random(10)
    counts = []
    for _ in range(60):
        instance = random_small_board(rng)
        if rng.random() < 0.2:
            clues = list(instance.clues)
            clues[rng.randrange(len(clues))] = None
            instance = instance._replace(clues=tuple(clues))
        expected = count_by_brute_force(instance)
        assert _by_clingo(instance, monkeypatch, count=True).count == expected, instance
        in_python = solve_instance(PUZZLE, instance, count=True)
        assert in_python.count == expected, instance
        assert in_python.reason or "python_search_time" in in_python.stats
        counts.append(expected)
    assert 0 in counts and 1 in counts and max(counts) > 1  # all three kinds of answer


def _by_clingo(instance: HauntedInstance, monkeypatch: pytest.MonkeyPatch, **asked: Any) -> Any:
    """The encoding's answers (or count) with the search in Python off."""
    with monkeypatch.context() as patched:
        patched.setattr(search, "MOST_CELLS", -1)
        result = solve_instance(PUZZLE, instance, **asked)
    assert "python_search_time" not in result.stats
    return result


def _grids(result: Any) -> set[tuple[str, ...]]:
    return {solution.data.grid for solution in result.solutions}


@pytest.mark.parametrize("share", [0.4, 0.6])
def test_tatham_size_boards_are_answered_in_python_as_clingo_answers_them(share, monkeypatch):
    """On random boards of Tatham's sizes (the clues of a planted filling, so some have
    one answer and some several; now and then a monster given or a clue that no filling
    meets), the search in Python gives clingo's verdict, the same set of answers when
    all are listed, and a first answer the checker accepts; it answers nearly all of
    them itself (the rest pass its bound on choices and go to clingo)."""
    rng = random.Random(share)
    verdicts, searched = [], 0
    for _ in range(25):
        width, height = rng.randint(4, 7), rng.randint(4, 7)
        planted = random_board(width, height, rng, share)
        instance = clued(planted)
        if rng.random() < 0.3:  # a monster given
            row, col = rng.choice(instance.cells())
            grid = list(instance.grid)
            grid[row] = grid[row][:col] + planted[row][col] + grid[row][col + 1 :]
            instance = instance._replace(grid=tuple(grid))
        if rng.random() < 0.15:  # a clue one too many
            clues = list(instance.clues)
            clues[0] = (clues[0] or 0) + 1
            instance = instance._replace(clues=tuple(clues))
        unique = solve_instance(PUZZLE, instance, unique=True)
        searched += bool(unique.reason) or "python_search_time" in unique.stats
        assert unique.verdict == _by_clingo(instance, monkeypatch, unique=True).verdict
        verdicts.append(unique.verdict)
        first = solve_instance(PUZZLE, instance)
        assert first.status == unique.status and first.checked
        if first.solutions:
            assert check_board(instance, first.solution.data.grid) == []
        listed = solve_instance(PUZZLE, instance, models=50)
        if len(listed.solutions) < 50:
            assert listed.exhausted
            assert _grids(listed) == _grids(_by_clingo(instance, monkeypatch, models=50))
    assert {"unique", "multiple", "none"} <= set(verdicts) and searched >= 22


def test_boards_past_the_python_searchs_bounds_go_to_clingo(monkeypatch, tmp_path):
    """A board of more monster cells than the search takes, a search that passes its
    bound on choices, and an edited encoding are clingo's, with the same answer."""
    planted = random_board(11, 11, random.Random(2), 0.1)
    large = solve_instance(PUZZLE, clued(planted), models=1)
    assert sum(row.count(".") for row in clued(planted).grid) > search.MOST_CELLS
    assert large.checked and "python_search_time" not in large.stats
    monkeypatch.setattr(search, "MOST_CHECKS", 0)
    monkeypatch.setattr(search, "CLOCK_EVERY", 1)
    bounded = solve("haunted", "gen-9x9-s10", unique=True)
    assert bounded.verdict == "unique" and "python_search_time" not in bounded.stats
    monkeypatch.undo()
    in_python = solve("haunted", "gen-9x9-s10", unique=True)
    assert "python_search_time" in in_python.stats and "ground_time" not in in_python.stats
    assert in_python.solution.data.grid == bounded.solution.data.grid
    edited = tmp_path / "haunted.lp"
    edited.write_text(find_encoding("haunted").read_text() + "\n:- monster(1,1,ghost).\n")
    by_clingo = solve("haunted", "gen-9x9-s10", unique=True, encoding=edited)
    assert "python_search_time" not in by_clingo.stats
    assert by_clingo.verdict in ("none", "unique")


def test_large_boards_are_searched_by_two_different_threads_unless_the_user_says_otherwise():
    from aspuzzles.driver.solving import solver_arguments
    from aspuzzles.puzzles.haunted import LARGE_BOARD_PORTFOLIO
    from aspuzzles.puzzles.haunted.generate import clued, random_board

    large = clued(random_board(25, 25, random.Random(1), 0.3))
    small = clued(random_board(6, 6, random.Random(1), 0.3))
    settings = PUZZLE.strategy(large).settings()
    portfolio = f"--configuration={LARGE_BOARD_PORTFOLIO}"
    assert settings == ("--parallel-mode=2", portfolio, "--trans-ext=no")
    assert PUZZLE.strategy(small).settings() == ()
    threads = solver_arguments(PUZZLE, 4, [], settings)
    assert threads == [portfolio, "--trans-ext=no", "--parallel-mode=4"]
    own = solver_arguments(PUZZLE, 1, ["--configuration=crafty"], settings)
    assert own == ["--parallel-mode=2", "--trans-ext=no", "--configuration=crafty"]
    heuristic = solver_arguments(PUZZLE, 1, ["--heuristic=Berkmin"], settings)
    assert heuristic == [*settings, "--heuristic=Berkmin"]


def test_the_shipped_portfolio_gives_clasps_two_threads_different_searches():
    """clasp reads the portfolio file: the first thread decides by VMTF on the ASP
    preset (tweety: Luby restarts, progress saving), the second by VSIDS on clasp's
    plain defaults (geometric restarts, no progress saving)."""
    from aspuzzles.puzzles.haunted import LARGE_BOARD_SETTINGS

    control = clingo.Control(list(LARGE_BOARD_SETTINGS))  # kept: its solvers live in it
    first, second = control.configuration.solver[0], control.configuration.solver[1]
    assert (first.heuristic, first.restarts, first.save_progress) == ("vmtf,0", "l,60", "160")
    assert (second.heuristic, second.restarts, second.save_progress) == (
        "vsids,0",
        "x,100,1.5,0",
        "0",
    )
    mine = clingo.Control([*LARGE_BOARD_SETTINGS, "--heuristic=Berkmin"])
    solvers = mine.configuration.solver
    assert solvers[0].heuristic == solvers[1].heuristic == "berkmin,0"  # the user's wins


@pytest.mark.slow
def test_a_large_board_keeps_its_verdict_and_its_checked_answer_with_clasps_defaults():
    from aspuzzles.puzzles.haunted.generate import clued, random_board

    grid = random_board(25, 25, random.Random(3), 0.5)
    game_id = encode_game_id(clued(grid))
    tuned = solve("haunted", game_id, unique=True)
    default = solve("haunted", game_id, unique=True, clingo_args=["--heuristic=Berkmin"])
    assert tuned.verdict == default.verdict == "multiple"
    assert check_board(clued(grid), tuned.solution.data.grid) == []
    assert check_board(clued(grid), default.solution.data.grid) == []


def test_opposite_lines_run_along_one_path_the_other_way():
    """``opposite`` (the encoding's ``opposite/2`` facts) pairs each line with the one
    entering where it leaves: never itself, each other's pair, the same crossings in
    reverse order, on random boards with and without mirrors."""
    rng = random.Random(4)
    for _ in range(200):
        width, height = rng.randint(1, 7), rng.randint(1, 7)
        grid = ["".join(rng.choice("../\\") for _ in range(width)) for _ in range(height)]
        for line in range(2 * (width + height)):
            other = opposite(grid, line)
            assert other != line and opposite(grid, other) == line
            cells = [(row, col) for row, col, _ in trace(grid, line)]
            assert cells == [(row, col) for row, col, _ in trace(grid, other)][::-1]


def test_the_clue_difference_of_opposite_lines_cuts_the_search_on_boards_of_many_mirrors(
    tmp_path,
):
    """The encoding's redundant rule (two opposite lines' clues differ by what each sees
    before its first mirror, stated on the sightings and on the kinds) keeps the answer
    and shortens the proof: a 40x40 board half mirrors, one thread, takes a few dozen
    conflicts with it and thousands without."""
    board = ROOT / "bench" / "data" / "undead-mirrors-40x40-s3.txt"
    text = find_encoding("haunted").read_text()
    while ":- opposite(L,M)" in text:  # the rule, on the sightings and on the kinds
        rule = text.index(":- opposite(L,M)")
        text = text[:rule] + text[text.index("}.", rule) + 2 :]
    without = tmp_path / "haunted.lp"
    without.write_text(text)
    one_thread = ["--parallel-mode=1"]
    shipped = solve("haunted", str(board), unique=True, clingo_args=one_thread)
    edited = solve("haunted", str(board), unique=True, clingo_args=one_thread, encoding=without)
    assert shipped.verdict == edited.verdict == "unique" and shipped.checked
    assert shipped.solution.data.grid == edited.solution.data.grid
    assert shipped.stats["conflicts"] * 20 < edited.stats["conflicts"], (
        shipped.stats["conflicts"],
        edited.stats["conflicts"],
    )
