"""Edge-matching tiles: counts, the rotation convention, the checker, the parser."""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
from collections.abc import Sequence
from typing import Any
from xml.etree import ElementTree

import clingo
import pytest

from aspuzzles import InputError, load_instance, solve, solve_instance
from aspuzzles.driver import fact_program
from aspuzzles.paths import find_encoding
from aspuzzles.puzzles.tiles import PUZZLE, small_boards
from aspuzzles.puzzles.tiles.checker import check_placement, mismatched_edges
from aspuzzles.puzzles.tiles.formats import format_tiles, parse_tiles
from aspuzzles.puzzles.tiles.generate import planted_tiles
from aspuzzles.puzzles.tiles.model import Fix, TilesInstance, rotate
from aspuzzles.puzzles.tiles.search import FREED_CELLS, TilesStrategy, quick_placement
from aspuzzles.puzzles.tiles.symmetry import kept_rotations

from .conftest import INSTANCES, ROOT, shared_data
from .oracles import tiles_baseline

SEED = INSTANCES / "tiles" / "seed-big-cats-3x3.txt"
# The seed's SQL answer: (tile, counter-clockwise turns), row by row.
SEED_SQL_ROW = [(2, 1), (1, 0), (6, 0), (8, 3), (9, 3), (7, 2), (5, 3), (3, 0), (4, 0)]


def test_seed_prints_exactly_one_solution_the_seeds_first_row():
    result = solve("tiles", SEED, models=0)
    assert len(result.solutions) == 1
    placement = [cell for row in result.solution.data.placement for cell in row]
    assert placement == [(tile, (4 - ccw) % 4) for tile, ccw in SEED_SQL_ROW]
    assert solve("tiles", SEED, unique=True).verdict == "unique"


def test_seed_answer_in_the_seeds_own_convention_is_accepted_once_converted():
    instance = parse_tiles(SEED.read_text(), "seed")
    clockwise = [(t, (4 - r) % 4) for t, r in SEED_SQL_ROW]
    grid = [clockwise[0:3], clockwise[3:6], clockwise[6:9]]
    assert check_placement(instance, grid) == []
    assert check_placement(instance, [SEED_SQL_ROW[0:3], SEED_SQL_ROW[3:6], SEED_SQL_ROW[6:9]])


def test_other_half_names_match_as_head_and_tail_do():
    """The seed with each cat cut another way (top/bottom, front/back, upper/lower):
    the same unique answer, checked, since only the names of the halves changed."""
    renamed = {
        "lion": ("top", "bottom"),
        "tiger": ("front", "back"),
        "panther": ("upper", "lower"),
        "cheetah": ("head", "tail"),
    }
    text = SEED.read_text()
    for cat, (first, second) in renamed.items():
        text = text.replace(f"{cat}_head", f"{cat}_{first}")
        text = text.replace(f"{cat}_tail", f"{cat}_{second}")
    assert "lion_bottom" in text and "tiger_front" in text
    result = solve_instance(PUZZLE, parse_tiles(text, "renamed.txt"), unique=True)
    assert result.verdict == "unique"
    placement = [cell for row in result.solution.data.placement for cell in row]
    assert placement == [(tile, (4 - ccw) % 4) for tile, ccw in SEED_SQL_ROW]


def test_halves_written_with_a_hyphen_are_the_same_edges():
    hyphenated = parse_tiles(SEED.read_text().replace("_", "-"), "hyphens.txt")
    assert hyphenated == parse_tiles(SEED.read_text(), "hyphens.txt")
    assert "lion-head" in SEED.read_text().replace("_", "-")
    with pytest.raises(InputError) as error:
        parse_tiles("style animal\nsize 1 1\nlion-head lion lion_tail x_head\n", "t.txt")
    assert str(error.value) == "t.txt:3: tile 1: edge 'lion' is not KIND_HALF (or KIND-HALF)"


def test_piece_lists_as_csv_with_a_column_header_are_read():
    """Commas or semicolons part the edges as spaces do, and a header naming the sides
    (with an id column or not, in any order) says in which order the edges come."""
    text = (INSTANCES / "tiles" / "gen-e2-6x6-8-kinds.txt").read_text()
    tiles = [line.split() for line in text.splitlines() if len(line.split()) == 4]
    plain = parse_tiles("\n".join(" ".join(tile) for tile in tiles), "plain.txt")
    csv = "id,north,east,south,west\n" + "\n".join(
        f"{k},{','.join(tile)}" for k, tile in enumerate(tiles, start=1)
    )
    assert parse_tiles(csv, "pieces.csv") == plain
    with_empty_rows = csv.replace("\n", "\n,,,,\n", 3) + "\n;;;;\n , \n"  # spreadsheets' blanks
    assert parse_tiles(with_empty_rows, "pieces.csv") == plain
    top, right, bottom, left = zip(*tiles, strict=True)
    reordered = "Top; Bottom; Left; Right\n" + "\n".join(
        ";".join(edges) for edges in zip(top, bottom, left, right, strict=True)
    )
    assert parse_tiles(reordered, "pieces.csv") == plain


def test_raw_option_keeps_all_board_rotations():
    result = solve("tiles", SEED, count=True, options={"raw": True})
    assert (result.count, result.count_details["count_raw"]) == (4, 4)


def test_rotation_convention_is_clockwise():
    tile = ("a", "b", "c", "d")  # top right bottom left
    assert rotate(tile, 1) == ("d", "a", "b", "c")  # the top edge moves to the right
    assert rotate(tile, 2) == ("c", "d", "a", "b")
    assert rotate(tile, 4) == tile


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    [
        "gen-animal-4x4-4-kinds",
        "gen-e2-5x5-6-kinds",
        "duplicates-e2-2x2",
        "seed-big-cats-3x3",
        "gen-unframed-3x4-6-kinds",
    ],
)
def test_raw_counts_agree_with_plain_backtracking(name):
    path = INSTANCES / "tiles" / f"{name}.txt"
    instance = parse_tiles(path.read_text(), name)
    result = solve_instance(PUZZLE, instance, count=True)
    assert result.count_details["count_raw"] == tiles_baseline.count_raw(instance)


@pytest.mark.parametrize("name", ["clue1_6x6_e2.txt", "clue3_6x6_e2.txt"])
def test_eternity_ii_clue_puzzles_solve(name):
    result = solve("tiles", shared_data("tiles", name), timeout=120)
    assert result.status == "solved"


# ------------------------------------------------------------------ checker
def _seed() -> TilesInstance:
    return parse_tiles(SEED.read_text(), "seed")


GOOD = [[(2, 3), (1, 0), (6, 0)], [(8, 1), (9, 1), (7, 2)], [(5, 1), (3, 0), (4, 0)]]


@pytest.mark.parametrize(
    ("placement", "problems"),
    [
        (
            [[(2, 0), (1, 0), (6, 0)], GOOD[1], GOOD[2]],
            ["(1,1) right lion_head vs tiger_head", "(1,1) bottom tiger_tail vs cheetah_tail"],
        ),
        (
            [[(2, 3), (1, 0), (6, 0)], GOOD[1], [(5, 1), (3, 0), (3, 0)]],
            ["tile 3 is used 2 times", "tiles [4] are not placed"],
        ),
        ([GOOD[0], GOOD[1]], ["placement is not 3x3"]),
        (
            [[(1, 0), (2, 3), (6, 0)], GOOD[1], GOOD[2]],
            [
                "(1,1) right tiger_tail vs lion_tail",
                "(1,1) bottom lion_head vs cheetah_tail",
                "(1,2) bottom cheetah_head vs lion_tail",
            ],
        ),
        (  # the last tile turned: an edge below and one to the right
            [GOOD[0], GOOD[1], [(5, 1), (3, 0), (4, 1)]],
            ["(2,3) bottom panther_head vs lion_tail", "(3,2) right lion_head vs panther_tail"],
        ),
        (
            [[(99, 3), (1, 0), (6, 0)], GOOD[1], GOOD[2]],
            ["no tile has id 99 (ids are 1-9)", "tiles [2] are not placed"],
        ),
        ([[(2, 3), (1, 0), (6, 4)], GOOD[1], GOOD[2]], ["a rotation is not 0-3"]),
    ],
)
def test_checker_rejects_corrupted_placements(placement, problems):
    """Every problem named, at its cell (rows and columns from 1), with both edges."""
    assert check_placement(_seed(), GOOD) == []
    assert check_placement(_seed(), placement) == problems


def test_checker_enforces_the_frame():
    instance = parse_tiles((INSTANCES / "tiles" / "duplicates-e2-2x2.txt").read_text(), "d")
    solved = solve_instance(PUZZLE, instance).solution.data.placement
    assert check_placement(instance, solved) == []
    good = [[(2, 3), (1, 0)], [(3, 2), (4, 1)]]  # one answer of several (duplicate tiles)
    assert check_placement(instance, good) == []
    turned = [[(t, (r + 1) % 4) for t, r in row] for row in good]
    frame = [p for p in check_placement(instance, turned) if p.endswith(("border", "inside"))]
    # each tile's grey sides turned a quarter: a grey side inside, a border side not grey
    assert frame == [
        "(1,1) right is 0 inside",
        "(1,1) left is 1 on the border",
        "(1,2) top is 1 on the border",
        "(1,2) bottom is 0 inside",
        "(2,1) top is 0 inside",
        "(2,1) bottom is 1 on the border",
        "(2,2) right is 1 on the border",
        "(2,2) left is 0 inside",
    ]


@pytest.mark.parametrize("cell", [[1], [1, 0, 2], ["1", 0], [1, 0.5], "10"])
def test_a_placement_in_json_is_pairs_of_whole_numbers(cell):
    """A cell that is not [tile id, turns] is refused as bad input, not checked."""
    rows = [[list(c) for c in row] for row in GOOD]
    rows[1][1] = cell
    with pytest.raises(InputError, match="rows of \\[tile id, turns\\] pairs"):
        PUZZLE.from_dict(_seed(), {"placement": rows}, "mine.json")


# ------------------------------------------------------------------ parser
@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "style animal\nsize 1 2\nlion_head a_tail b_tail\nx_head a_tail b_tail c_head\n",
            "tiles.txt:3: tile 1 has 3 edges, expected 4",
        ),
        (
            "style animal\nsize 1 1\nlion_paw a_tail b_tail c_head\n",
            "tiles.txt:3: tile 1: unknown half 'paw' in 'lion_paw' (expected head or tail, "
            "top or bottom, front or back, upper or lower)",
        ),
        (
            "style animal\nsize 1 2\nlion_top a_tail b_tail c_head\nx_head lion_head b_tail c_head\n",
            "tiles.txt:4: kind 'lion' has halves 'top' (line 3) and 'head': a kind's halves "
            "are one pair (top and bottom)",
        ),
        (
            "style animal\nsize 1 2\nlion_head a_tail b_tail c_head\n",
            "tiles.txt: 1 tiles for a 1x2 board, expected 2",
        ),
        (
            "style e2\nsize 1 1\n0 0 lion_head 0\n",
            "tiles.txt:3: tile 1: edge 'lion_head' is not a colour",
        ),
        (
            "style animal\nsize 1 1\n1 2 3 4\n",
            "tiles.txt:3: tile 1: edge '1' is a colour (mixed styles?)",
        ),
        ("style animal\nstyle e2\n", "tiles.txt:2: mixed styles"),
        ("style square\n", "tiles.txt:1: expected 'style animal', 'style e2' or 'style unframed'"),
        ("style e2\nsize 0 3\n", "tiles.txt:2: expected 'size ROWS COLS'"),
        ("style e2\nsize ² 3\n", "tiles.txt:2: expected 'size ROWS COLS'"),
        ("style e2\nsize 1 2\nsize 2 1\n", "tiles.txt:3: 'size' is given twice: 2x1 after 1x2"),
        ("style e2\nsize 1 1\n0 0 ² 0\n", "tiles.txt:3: tile 1: edge '²' is not a colour"),
        ("0 0 0 0\nsize 1 1\n", "tiles.txt:2: the 'size' line must come before the tiles"),
        ("style e2\n", "tiles.txt: no tiles"),
        ("size 1 1\n", "tiles.txt: no tiles"),
        ("styel e2\n1 2 3 4\n", "tiles.txt:1: unknown line starting 'styel'"),
        ("0 7 8 8\n8 7 8 7\n", "tiles.txt: no 'size ROWS COLS' line, and 2 tiles (0 corner"),
        ("7 7 8 8\n8 7 8 7\n", "tiles.txt: no 'size ROWS COLS' line, and 2 tiles without a frame"),
        ("lion_head a_tail b_tail c_head\n" * 3, "tiles.txt: no 'size ROWS COLS' line, and 3"),
        ("2 2\n0 0 0 0\n", "tiles.txt: 1 tiles for a 2x2 board, expected 4"),
        ("1 0 1 0 0\n3 0 0 1 0\n", "tiles.txt:2: tile line starts with '3', expected the id 2"),
        ("1 0 1 0 0\n2 0 0 1\n", "tiles.txt:2: tile 2 has 3 edges, expected 4"),
        ("style e2\nsize 1 1\n1 0 0 0 0\n", "tiles.txt:3: tile 1 has 5 edges, expected 4"),
    ],
)
def test_malformed_tile_files_are_named_precisely(text, message):
    with pytest.raises(InputError) as error:
        parse_tiles(text, "tiles.txt")
    assert str(error.value).startswith(message)


@pytest.mark.parametrize(
    "name",
    ["seed-big-cats-3x3", "gen-e2-5x8-8-kinds", "gen-e2-10x10-16-kinds", "gen-animal-3x5-3-kinds"],
)
def test_a_bare_list_of_tiles_is_read_with_its_style_and_size_told_from_the_tiles(name):
    """Eternity II piece files list the tiles alone; the style follows from the edges
    and the size from the tile count and (framed) the border tiles: R x C, R <= C."""
    listed = (ROOT / "instances" / "tiles" / f"{name}.txt").read_text()
    bare = "".join(
        line + "\n" for line in listed.splitlines() if line.split()[:1] not in (["style"], ["size"])
    )
    instance = parse_tiles(listed, "listed.txt")
    if name == "gen-animal-3x5-3-kinds":  # 15 unframed tiles: no shape to tell
        with pytest.raises(InputError, match="15 tiles without a frame fit no square board"):
            parse_tiles(bare, "bare.txt")
        return
    assert parse_tiles(bare, "bare.txt") == instance


@pytest.mark.parametrize("first_id", [0, 1])
def test_a_bare_list_may_open_with_its_size_and_number_its_tiles(first_id):
    """Eternity2Puzzles.jl's files may open with a 'ROWS COLS' line; other solvers' files
    give each tile's id before its edges ('1 7 7 8 8'): both read as the plain list."""
    listed = (ROOT / "instances" / "tiles" / "gen-e2-5x8-8-kinds.txt").read_text()
    edges = [line for line in listed.splitlines() if line[:1].isdigit()]
    numbered = [f"{first_id + index} {line}" for index, line in enumerate(edges)]
    expected = parse_tiles(listed, "listed.txt")
    assert parse_tiles("5 8\n" + "\n".join(edges), "sized.txt") == expected
    assert parse_tiles("\n".join(numbered), "numbered.txt") == expected
    assert parse_tiles("# ids and size\n5 8\n" + "\n".join(numbered), "both.txt") == expected


def _signed(tiles: Sequence[tuple[str, ...]]) -> tuple[list[str], dict[str, int]]:
    """Animal tiles as signed numbers (each kind numbered from 1, head +, tail -)."""
    kinds: dict[str, int] = {}
    lines = []
    for tile in tiles:
        edges = []
        for edge in tile:
            kind, half = edge.rsplit("_", 1)
            number = kinds.setdefault(kind, len(kinds) + 1)
            edges.append(f"{'' if half == 'head' else '-'}{number}")
        lines.append(" ".join(edges))
    return lines, kinds


def test_signed_numbers_are_heads_and_tails():
    """Some puzzle code writes a heads-and-tails tile as signed numbers (n meets -n):
    a bare list with a negative number is read so, as an animal board whose kinds are
    the numbers; the seed written that way has the seed's unique answer."""
    seed = parse_tiles(SEED.read_text(), "seed.txt")
    lines, kinds = _signed(seed.tiles)
    signed = parse_tiles("\n".join(lines), "signed.txt")
    assert signed.style == "animal" and (signed.rows, signed.cols) == (3, 3)
    assert signed.tiles[0] == tuple(
        f"{kinds[edge.rsplit('_', 1)[0]]}_{edge.rsplit('_', 1)[1]}" for edge in seed.tiles[0]
    )
    expected = solve_instance(PUZZLE, seed, unique=True).solution.data.placement
    result = solve_instance(PUZZLE, signed, unique=True)
    assert (result.verdict, result.solution.data.placement) == ("unique", expected)
    assert "+3" in result.solution.text() and "-1" in result.solution.text()
    assert parse_tiles("+1 +2 -3 04\n", "p").tiles == (("1_head", "2_head", "3_tail", "4_head"),)
    numbered = [f"{k} {line}" for k, line in enumerate(lines, start=1)]
    assert parse_tiles("\n".join(numbered), "numbered.txt") == signed


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "1 0 -1 2\n",
            "t.txt: signed edges (n meets -n) make a heads-and-tails puzzle, where 0 has no "
            "other half: number the kinds from 1",
        ),
        ("style e2\nsize 1 1\n0 0 -1 0\n", "t.txt:3: tile 1: edge '-1' is not a colour number"),
        ("1 2 -1 x\n", "t.txt:1: tile 1: edge 'x' is not a colour number"),
    ],
)
def test_signed_edges_are_refused_where_they_cannot_be_halves(text, message):
    with pytest.raises(InputError) as error:
        parse_tiles(text, "t.txt")
    assert str(error.value) == message


def test_the_layouts_of_an_edge_matching_suite_for_sat_solvers_are_read():
    """JamesGallicchio/eternity2 writes boards as 'p tile ROWS COLS COLOURS' and tiles,
    or (its .puz files) a lone side, 'c' comment lines and tiles that may end in a sign
    ('+' or '-') for its SAT encoding; a lone number may also count the tiles."""
    listed = (ROOT / "instances" / "tiles" / "gen-e2-6x6-8-kinds.txt").read_text()
    edges = [line for line in listed.splitlines() if line[:1].isdigit()]
    expected = parse_tiles(listed, "listed.txt")
    assert parse_tiles("p tile 6 6 8\n" + "\n".join(edges), "board.txt") == expected
    signed = [line + (" +", " -", "")[k % 3] for k, line in enumerate(edges)]
    puz = "c generated by a script\n6\nc the tiles\n" + "\n".join(signed)
    assert parse_tiles(puz, "puzzle.puz") == expected
    assert parse_tiles("36\n" + "\n".join(edges), "counted.txt") == expected
    with pytest.raises(InputError) as error:
        parse_tiles("5\n" + "\n".join(edges), "five.txt")
    assert str(error.value) == (
        "five.txt:1: the list opens with 5, but its 36 tiles are neither a 5x5 board nor 5 tiles"
    )
    with pytest.raises(InputError, match=r"p.txt:1: expected 'p tile ROWS COLS COLOURS'"):
        parse_tiles("p tile 6\n" + "\n".join(edges), "p.txt")
    with pytest.raises(InputError, match="tile 1 has 5 edges"):  # no sign in the documented format
        parse_tiles("style e2\nsize 6 6\n" + "\n".join(signed), "signed.txt")


@pytest.mark.parametrize("first", ["b", "o"])
def test_a_letter_tile_whose_top_edge_is_c_or_p_is_a_tile(first):
    """'c a b d' is a tile coded in letters, not a comment line, and 'p a q q' opening
    a list is a tile too, not a 'p tile' line."""
    words, instance = _lettered("gen-e2-4x4-4-kinds", "a", first)
    spaced = [" ".join(word) for word in words]
    spaced.sort(key=lambda line: line[0] != "p")  # a tile starting with p first, if any
    assert any(line.startswith(("c ", "p ")) for line in spaced)
    if first == "o":
        assert spaced[0].startswith("p ")
    assert sorted(parse_tiles("\n".join(spaced), "letters.txt").tiles) == sorted(instance.tiles)


def _lettered(name: str, frame: str, first: str) -> tuple[list[str], TilesInstance]:
    """A shipped e2 board's tiles as letter words (frame letter for 0, colour n as the
    n-th letter from ``first``), with the instance they must read as."""
    listed = (ROOT / "instances" / "tiles" / f"{name}.txt").read_text()
    instance = parse_tiles(listed, "listed.txt")

    def letter(colour: str) -> str:
        return frame if colour == "0" else chr(ord(first) + int(colour) - 1)

    return ["".join(map(letter, tile)) for tile in instance.tiles], instance


@pytest.mark.parametrize(("frame", "first"), [("a", "b"), ("X", "A")])
def test_letter_coded_tiles_read_as_colour_numbers_with_the_frame_told_by_the_corners(frame, first):
    """e2.bucas.name lists Eternity II's pieces as 'aabd' (a: the frame), other files as
    'AQXX' (X: the frame): the letter on two sides of the four corners is the frame, and
    the other letters number the colours in alphabetical order."""
    words, expected = _lettered("gen-e2-5x8-8-kinds", frame, first)
    assert parse_tiles("\n".join(words), "letters.txt") == expected
    spaced = [" ".join(word) for word in words]
    assert parse_tiles("# spaced\n5 8\n" + "\n".join(spaced), "spaced.txt") == expected
    by_tens = [" ".join(words[start : start + 10]) for start in range(0, len(words), 10)]
    assert parse_tiles("\n".join(by_tens), "tens.txt") == expected


def test_an_e2_bucas_link_is_a_board_and_solves_from_a_file_or_the_command_line(cli, tmp_path):
    """A board linked from e2.bucas.name: board_h rows of board_w cells, four letters a
    cell; its pieces are the tiles (the '#' of the link is not a comment)."""
    words, expected = _lettered("gen-e2-5x8-8-kinds", "a", "b")
    link = (
        "https://e2.bucas.name/#puzzle=mine&board_w=8&board_h=5"
        f"&board_edges={''.join(words)}&board_pieces=000"
    )
    assert parse_tiles(f"# from the site\n{link}  # mine\n", "link.txt") == expected
    path = tmp_path / "link.txt"
    path.write_text(link + "\n")
    for reference in (path, link):
        run = cli("solve", "tiles", reference, "--format", "json")
        assert run.code == 0, run.err
        placement = run.json()["solutions"][0]["placement"]
        assert check_placement(expected, placement) == []
    # A link a thousand characters long goes by its start in the summary and JSON.
    assert run.json()["instance"] == link[:69] + "..."
    # A file may add hint pieces after the link.
    corner = next(i for i, tile in enumerate(expected.tiles) if tile.count("0") == 2)
    turns = next(t for t in range(4) if rotate(expected.tiles[corner], t)[::3] == ("0", "0"))
    hinted = parse_tiles(f"{link}\nfix 1 1 {corner + 1} {turns}  # a corner\n", "link.txt")
    assert hinted == expected._replace(fixed=(Fix(1, 1, corner + 1, turns),))
    assert solve_instance(PUZZLE, hinted).solution.data.placement[0][0] == (corner + 1, turns)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("abcd\n" * 4, "tiles.txt: no letter fits the grey frame"),
        ("abba\naabb\nbbaa\nbaab\n", "tiles.txt: letters a, b could each be the grey frame"),
        ("aabb\na a 7 b\n", "tiles.txt:2: tile 2: edge '7' is not a letter"),
        ("aabb\nabcde\n", "tiles.txt:2: tile 2 has 1 edge, expected 4"),
        ("x.org/#board_w=2&board_h=2&board_edges=aab\n", "tiles.txt:1: board_edges has 3"),
        ("x.org/#board_w=2&board_edges=" + "a" * 16, "tiles.txt:1: the link needs board_w"),
        ("x.org/#board_w=1&board_h=1&board_edges=aaaa\n1 2 3 4\n", "tiles.txt:2: expected only"),
        (
            "x.org/#board_w=2&board_h=2&board_edges=abcaaaebcdaaeaad\nfix 3 1 1 0",
            "tiles.txt:2: fix: cell (3,1)",
        ),
    ],
)
def test_malformed_letter_lists_and_links_are_named_precisely(text, message):
    with pytest.raises(InputError) as error:
        parse_tiles(text, "tiles.txt")
    assert str(error.value).startswith(message)


@pytest.mark.parametrize(
    ("size", "tiles", "reason"),
    [
        (
            "2 2",
            ["0 1 0 1", "0 0 2 1", "2 3 0 0", "2 0 0 3"],
            "tile 1 has two grey edges opposite each other, which no cell of a 2x2 board has",
        ),
        (
            "3 3",
            ["0 1 1 0", "0 0 1 1", "1 0 0 1", *["0 1 1 1"] * 6],
            "6 tiles have one grey edge, a 3x3 board has 4 such places",
        ),
    ],
)
def test_grey_edges_that_no_cell_can_take_are_reported_without_search(size, tiles, reason):
    text = f"style e2\nsize {size}\n" + "\n".join(tiles) + "\n"
    result = solve_instance(PUZZLE, parse_tiles(text, "tiles.txt"))
    assert (result.status, result.reason) == ("unsatisfiable", reason)


def test_a_one_row_board_takes_grey_edges_on_three_sides_and_on_opposite_sides():
    text = "style e2\nsize 1 3\n0 1 0 0\n0 2 0 1\n0 0 0 2\n"
    result = solve_instance(PUZZLE, parse_tiles(text, "row.txt"), count=True)
    assert (result.status, result.count) == ("solved", 1)


def test_cli_json_count_and_placement(cli):
    data = cli("solve", "tiles", "--count", "--format", "json").json()
    assert (data["count"], data["count_raw"]) == (1, 4)
    data = cli("solve", "tiles", "--format", "json").json()
    assert data["solutions"][0]["placement"][0] == [[2, 3], [1, 0], [6, 0]]
    run = cli("solve", "tiles", "odd-colour-e2-2x2")
    assert run.code == 1 and "without search: colour 1 is on 5 edges" in run.out


def test_renderings():
    solution = solve("tiles").solution
    text = solution.text()
    assert "2/3" in text and "lionH" in text
    svg = solution.svg()
    assert svg.startswith("<svg") and svg.count("<polygon") == 36


UNFRAMED_PAIR = "0 5 6 7\n0 8 9 1\n"  # only 0 can meet 0: there is no frame


def test_a_bare_list_without_colour_0_is_an_unframed_board():
    """No grey frame: outer sides are free and 0 is an ordinary colour. A bare list of
    numbers without a 0 can only be such a board; one with a 0 stays e2, and so does a
    file that says 'style e2' (told why it cannot be solved)."""
    bare = parse_tiles("1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n", "bare.txt")
    assert (bare.style, bare.rows, bare.cols, bare.framed) == ("unframed", 2, 2, False)
    assert parse_tiles("0 0 1 2\n0 1 2 0\n2 0 0 1\n1 2 0 0\n", "grey.txt").style == "e2"
    declared = parse_tiles("style e2\nsize 1 2\n1 2 3 4\n4 3 2 1\n", "e2.txt")
    assert solve_instance(PUZZLE, declared).reason == (
        "0 grey frame edges, the board's border needs 6 (a board without a frame is "
        "'style unframed')"
    )
    assert solve_instance(PUZZLE, declared._replace(style="unframed")).status == "solved"


def test_unframed_boards_match_equal_colours_and_leave_the_border_free():
    instance = parse_tiles("style unframed\nsize 1 2\n" + UNFRAMED_PAIR, "pair.txt")
    assert not any(atom.match("frame", 1) for atom in PUZZLE.facts(instance))
    counted = solve_instance(PUZZLE, instance, count=True)
    # Tile 1 turned once beside tile 2 turned three times (0 against 0), or the half
    # turn of that; every other edge lies on the border, where anything goes.
    assert (counted.count, counted.count_details["count_raw"]) == (1, 2)
    assert tiles_baseline.count_raw(instance) == 2
    solution = solve_instance(PUZZLE, instance).solution.data
    assert solution.placement == (((1, 1), (2, 3)),)
    assert check_placement(instance, solution.placement) == []
    assert check_placement(instance, [[(1, 0), (2, 0)]]) == ["(1,1) right 5 vs 1"]
    assert "; unframed: outer edges are free)" in solve_instance(PUZZLE, instance).solution.text()
    colours = set(PUZZLE.template_context(instance, solution)["colours"].values())
    assert "#8a8a8a" not in colours and len(colours) == 7  # 0 has its own, not grey


def test_svg_escapes_markup_in_edge_names():
    """Animal kinds are free text: '<b>&x' must reach the SVG as text, not as markup
    (the templates are *.svg.j2, which Jinja's autoescape did not match before)."""
    text = (
        "style animal\nsize 1 2\n<b>&x_head q_tail x_head x_tail\n<b>&x_tail y_head y_tail y_head\n"
    )
    instance = parse_tiles(text, "markup.txt")
    svg = solve_instance(PUZZLE, instance).solution.svg()
    root = ElementTree.fromstring(svg)  # raises on malformed XML
    labels = [element.text for element in root.iter() if element.tag.endswith("text")]
    assert any(label and "<b>&" in label for label in labels)


def test_generator_plants_a_solvable_board():
    for style in ("animal", "e2", "unframed"):
        args = argparse.Namespace(style=style, size="3x4", kinds=5, border_kinds=0, fix=0, seed=3)
        text = PUZZLE.generator().generate(args)
        assert text == PUZZLE.generator().generate(args)
        instance = parse_tiles(text, "generated")
        assert solve_instance(PUZZLE, instance).status == "solved"


def test_generator_keeps_border_colours_along_the_frame():
    args = argparse.Namespace(style="e2", size="5x6", kinds=4, border_kinds=2, fix=0, seed=7)
    instance = parse_tiles(PUZZLE.generator().generate(args), "generated")
    for tile in instance.tiles:
        sides = [int(edge) for edge in tile]
        for side, colour in enumerate(sides):
            if colour == 0:
                continue
            # A side next to a grey side runs along the frame once the grey faces out.
            along_frame = 0 in (sides[(side - 1) % 4], sides[(side + 1) % 4])
            assert (1 <= colour <= 2) if along_frame else (3 <= colour <= 6), tile
    assert solve_instance(PUZZLE, instance).status == "solved"


@pytest.mark.parametrize(
    ("style", "border_kinds", "message"),
    [
        ("animal", 2, "--border-kinds needs --style e2"),
        ("unframed", 2, r"--border-kinds needs --style e2 \(unframed boards have no frame\)"),
        ("e2", 61, "--border-kinds must be from 0 to 60"),
        ("e2", -1, "--border-kinds must be from 0 to 60"),
    ],
)
def test_generator_rejects_bad_border_kinds(style, border_kinds, message):
    args = argparse.Namespace(
        style=style, size="4x4", kinds=4, border_kinds=border_kinds, fix=0, seed=1
    )
    with pytest.raises(InputError, match=message):
        PUZZLE.generator().generate(args)


def test_larger_boards_race_a_second_search_order_small_ones_do_not():
    """Both orders are complete searches, so either may answer: each one alone solves
    and its answer passes the checker; a 3x3 is not worth a second process."""
    puzzle = PUZZLE
    small = load_instance(puzzle, "seed-big-cats-3x3")[0]
    large = load_instance(puzzle, "gen-e2-6x6-8-kinds")[0]
    assert puzzle.strategy(small).portfolio() == ()
    [racer] = puzzle.strategy(large).portfolio()
    alone = solve("tiles", "gen-e2-6x6-8-kinds", portfolio=False, clingo_args=list(racer))
    raced = solve("tiles", "gen-e2-6x6-8-kinds", count=True)
    assert alone.status == "solved" and alone.solution is not None
    assert raced.count == solve("tiles", "gen-e2-6x6-8-kinds", count=True, portfolio=False).count


def test_cli_one_search_order_in_one_process(cli):
    run = cli("solve", "tiles", "gen-e2-6x6-8-kinds", "--no-portfolio", "--count")
    assert run.code == 0 and "count 2, count_raw 8" in run.out


@pytest.mark.slow
def test_counts_agree_with_plain_backtracking_on_random_small_boards():
    """Symmetry breaking keeps exactly one placement per class, and duplicate and
    symmetric tiles are counted as documented: on 36 small random boards of the three styles
    (some with a tile spoiled, some with a tile repeated), count_raw is the
    backtracking's raw count, and --raw gives it directly."""
    rng = random.Random(4)
    raw_counts = []
    for number in range(36):
        style = ("animal", "e2", "unframed")[number % 3]
        rows, cols = rng.choice([(2, 2), (2, 3), (3, 2), (3, 3)])
        kinds = rng.randint(2, 4) if style == "e2" else rng.randint(3, 5)  # not too many
        board = planted_tiles(style, rows, cols, kinds, rng)  # solutions to enumerate
        tiles = list(board.tiles)
        if rng.random() < 0.3:  # a repeated tile (the last one is lost)
            tiles[-1] = tiles[0]
        if rng.random() < 0.3:  # a spoiled edge
            edges = list(tiles[1])
            edges[rng.randrange(4)] = tiles[0][0]
            tiles[1] = (edges[0], edges[1], edges[2], edges[3])
        instance = board._replace(tiles=tuple(tiles))
        raw = tiles_baseline.count_raw(instance)
        counted = solve_instance(PUZZLE, instance, count=True, portfolio=False)
        assert counted.count_details["count_raw"] == raw, instance
        no_symmetry = instance._replace(symmetry_breaking=False)
        assert solve_instance(PUZZLE, no_symmetry, count=True, portfolio=False).count == raw
        raw_counts.append(raw)
    assert 0 in raw_counts and max(raw_counts) > instance.board_rotations


def _planted_symmetric_tiles(rows: int, cols: int, rng: random.Random) -> TilesInstance:
    """A solvable board of tiles that look the same after a half turn (x y x y).

    Each column has a kind for its vertical edges and each row one for its horizontal
    edges; halves alternate along them, so neighbouring edges are head against tail.
    On an odd board the centre's tile is listed first, so that tile 1 can stand on the
    centre cell, where no rotation moves it.
    """
    column_kinds = [rng.choice("ab") for _ in range(cols)]
    row_kinds = [rng.choice("ab") for _ in range(rows)]
    halves = ("head", "tail")
    tiles = []
    for row in range(rows):
        for col in range(cols):
            upright = f"{column_kinds[col]}_{halves[row % 2]}"
            sideways = f"{row_kinds[row]}_{halves[col % 2]}"
            tile = (upright, sideways, upright, sideways)
            tiles.append(rotate(tile, rng.randrange(4)))
    centre = tiles.pop(rows // 2 * cols + cols // 2) if rows % 2 and cols % 2 else None
    rng.shuffle(tiles)
    return TilesInstance("animal", rows, cols, tuple(([centre] if centre else []) + tiles))


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (2, 3), (3, 3), (1, 4), (3, 5)])
def test_boards_of_symmetric_tiles_count_each_rotation_class_once(shape):
    """With no tile whose four turns differ, no turn can pick one board per class, so a
    tile's cell does (and a second tile's when the first stands on the centre): count
    x rotations is still the backtracking's raw count, on boards with and without a
    centre cell, and a 1x1 board's turns are one class."""
    rows, cols = shape
    rng = random.Random(rows * 10 + cols)
    raw_counts = []
    for _ in range(4):
        instance = _planted_symmetric_tiles(rows, cols, rng)
        raw = tiles_baseline.count_raw(instance)
        counted = solve_instance(PUZZLE, instance, count=True, portfolio=False)
        assert counted.count_details["count_raw"] == raw, instance
        if rows * cols > 1:
            assert counted.count * instance.board_rotations == raw
        else:
            assert counted.count == 1
        raw_counts.append(raw)
    assert min(raw_counts) > 0


def test_identical_symmetric_tiles_count_classes_and_a_lone_tile_is_unique():
    """Four identical half-turn-symmetric tiles on a 2x2: 48 raw placements, 12 classes;
    a lone tile's four turns on a 1x1 board are one solution up to rotation."""
    tile = ("a_head", "a_tail", "a_head", "a_tail")
    instance = TilesInstance("animal", 2, 2, (tile,) * 4)
    counted = solve_instance(PUZZLE, instance, count=True, portfolio=False)
    assert (counted.count, counted.count_details["count_raw"]) == (12, 48)
    lone = TilesInstance("animal", 1, 1, (("a_head", "b_head", "a_tail", "b_tail"),))
    assert solve_instance(PUZZLE, lone, unique=True, portfolio=False).verdict == "unique"


def test_keywords_styles_and_halves_are_read_in_any_case():
    text = (
        "Style Animal\nSIZE 1 2\nlion_Head x_TAIL x_head x_tail\nlion_tail y_head y_tail y_head\n"
    )
    instance = parse_tiles(text, "cased.txt")
    assert instance.style == "animal"
    assert instance.tiles[0] == ("lion_head", "x_tail", "x_head", "x_tail")
    assert solve_instance(PUZZLE, instance).status == "solved"


def test_e2_colours_are_numbers_so_leading_zeros_do_not_matter():
    """Files that pad colours ('07') name the same colour as '7'."""
    instance = parse_tiles("style e2\nsize 1 2\n0 07 0 0\n0 0 0 7\n", "padded.txt")
    assert instance.tiles == (("0", "7", "0", "0"), ("0", "0", "0", "7"))
    assert solve_instance(PUZZLE, instance).status == "solved"
    spoiled = parse_tiles("style e2\nsize 1 2\n0 07 0 0\n0 0 0 8\n", "spoiled.txt")
    assert solve_instance(PUZZLE, spoiled).reason == (
        "colour 7 is on 1 edge, an odd number cannot pair up"
    )


def test_position_anchor_rules_add_nothing_to_boards_with_a_turn_anchor():
    """The rules for all-symmetric boards must ground to nothing elsewhere: a stray
    anonymous variable once made gringo project place/4 (5,000 more atoms on a 10x10)
    and changed the search on every board (7,523 conflicts became 38,599)."""
    encoding = find_encoding("tiles").read_text()
    without = "\n".join(
        line
        for line in encoding.splitlines()
        if "cell_anchor" not in line and "orbit_first(R,C)." not in line
    )
    instance = parse_tiles((INSTANCES / "tiles" / "gen-e2-6x6-8-kinds.txt").read_text(), "b")
    facts = "".join(f"{fact}." for fact in PUZZLE.facts(instance))
    sizes = []
    for program in (encoding, without):
        control = clingo.Control(["--warn=none"])
        control.add("base", [], program + facts)
        control.ground([("base", [])])
        control.solve()
        lp = control.statistics["problem"]["lp"]
        sizes.append((lp["atoms"], lp["rules"], lp["bodies"]))
    assert sizes[0] == sizes[1]


# ------------------------------------------------------------- fixed pieces
def _raw_solutions(instance: TilesInstance) -> list:
    """Every raw placement, found by the solver with no symmetry broken."""
    result = solve_instance(
        PUZZLE, instance._replace(symmetry_breaking=False), models=0, portfolio=False
    )
    return [solution.data.placement for solution in result.solutions]


@pytest.mark.slow
def test_fixed_pieces_count_agrees_with_plain_backtracking_on_random_boards():
    """Hints taken from a solution and hints drawn at random (often impossible): the
    raw count is the backtracking's, and off the centre a hint pins the board, so
    every placement is its own class (count = count_raw)."""
    rng = random.Random(16)
    counts = []
    for style, rows, cols, kinds in [("animal", 3, 3, 2), ("e2", 3, 4, 2), ("animal", 2, 4, 2)]:
        for _ in range(3):
            board = planted_tiles(style, rows, cols, kinds, rng)
            placement = rng.choice(_raw_solutions(board))
            cells = rng.sample([(r, c) for r in range(rows) for c in range(cols)], 2)
            fixes = [Fix(r + 1, c + 1, *placement[r][c]) for r, c in cells[:1]]
            if rng.random() < 0.5:  # a second hint, turned at random
                r, c = cells[1]
                fixes.append(Fix(r + 1, c + 1, placement[r][c][0], rng.randrange(4)))
            instance = board._replace(fixed=tuple(fixes))
            raw = tiles_baseline.count_raw(instance)
            counted = solve_instance(PUZZLE, instance, count=True, portfolio=False)
            assert (counted.count, counted.count_details["count_raw"]) == (raw, raw), fixes
            counts.append(raw)
    assert 0 in counts and max(counts) > 1


def _centre_hint_board(rng: random.Random) -> TilesInstance:
    """A framed 3x3 whose centre tile shows colour 1 on all four sides, listed first."""
    colour = {}  # each shared edge, keyed by its two cells
    for r in range(3):
        for c in range(3):
            for other in ((r, c + 1), (r + 1, c)):
                if max(other) <= 2:  # a neighbour on the board
                    centre = (1, 1) in ((r, c), other)
                    colour[(r, c), other] = "1" if centre else rng.choice("23")

    def side(cell: tuple[int, int], other: tuple[int, int]) -> str:
        key = (cell, other) if (cell, other) in colour else (other, cell)
        return colour.get(key, "0")  # off the board: the grey frame

    tiles = []
    for r in range(3):
        for c in range(3):
            edges = [side((r, c), n) for n in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1))]
            tiles.append(rotate(edges, rng.randrange(4)))
    centre = tiles.pop(4)
    rng.shuffle(tiles)
    return TilesInstance("e2", 3, 3, (centre, *tiles), fixed=(Fix(2, 2, 1, 0),))


def test_a_fixed_centre_tile_that_rotations_keep_leaves_them_to_the_symmetry_breaking():
    """A 1 1 1 1 tile fixed on the centre of a 3x3 looks the same after every turn of
    the board, so the four rotations still make classes of four solutions."""
    rng = random.Random(3)
    raws = []
    for _ in range(4):
        instance = _centre_hint_board(rng)
        assert kept_rotations(instance) == 4
        raw = tiles_baseline.count_raw(instance)
        counted = solve_instance(PUZZLE, instance, count=True, portfolio=False)
        assert (counted.count * 4, counted.count_details["count_raw"]) == (raw, raw)
        raws.append(raw)
    assert min(raws) >= 4


def test_a_fixed_symmetric_centre_keeps_the_rotations_that_do_not_change_its_picture():
    """x y x y tiles on a 3x3 with the centre one fixed: the half turn keeps the hint
    (and the quarter turns too when x = y), so classes hold two (or four) solutions."""
    rng = random.Random(5)
    seen = set()
    for turns in (0, 1, 0, 1, 0, 1):
        board = _planted_symmetric_tiles(3, 3, rng)  # tile 1 belongs on the centre
        instance = board._replace(fixed=(Fix(2, 2, 1, turns),))
        kept = kept_rotations(instance)
        raw = tiles_baseline.count_raw(instance)
        counted = solve_instance(PUZZLE, instance, count=True, portfolio=False)
        assert (counted.count * kept, counted.count_details["count_raw"]) == (raw, raw)
        seen.add((kept, raw > 0))
    assert {(2, True), (4, True)} <= seen


def test_fixed_pieces_are_read_written_and_shown(tmp_path):
    text = SEED.read_text() + "fix 3 3 2 1   # the seed's answer turned half way round\n"
    instance = parse_tiles(text, "hinted.txt")
    assert instance.fixed == (Fix(3, 3, 2, 1),)
    assert parse_tiles(format_tiles(instance), "again.txt") == instance
    result = solve_instance(PUZZLE, instance, unique=True)
    assert result.verdict == "unique"
    placement = result.solution.data.placement
    assert placement[2][2] == (2, 1) and placement[0][0] == (4, 2)
    assert "2/1*" in result.solution.text() and "* fixed" in result.solution.text()
    assert result.solution.svg().count("<title>fixed</title>") == 1
    counted = solve_instance(PUZZLE, instance, count=True)
    assert (counted.count, counted.count_details["count_raw"]) == (1, 1)


def test_checker_holds_fixed_pieces_to_their_cell_and_picture():
    hinted = _seed()._replace(fixed=(Fix(1, 1, 2, 3),))
    assert check_placement(hinted, GOOD) == []
    turned = _seed()._replace(fixed=(Fix(1, 1, 2, 0),))
    assert "(1,1) holds 2/3, fixed as 2/0" in check_placement(turned, GOOD)
    moved = _seed()._replace(fixed=(Fix(1, 2, 2, 3),))
    assert "(1,2) holds 1/0, fixed as 2/3" in check_placement(moved, GOOD)
    symmetric = TilesInstance("e2", 1, 2, (("0", "1", "0", "0"), ("0", "0", "0", "1")))
    picture = symmetric._replace(fixed=(Fix(1, 1, 1, 0),))
    assert check_placement(picture, [[(1, 0), (2, 0)]]) == []


def test_impossible_fixes_are_reported_unsolvable_without_search():
    framed = "style e2\nsize 2 2\n0 1 1 0\n0 0 1 1\n1 0 0 1\n1 1 0 0\n"
    assert solve_instance(PUZZLE, parse_tiles(framed, "framed.txt")).status == "solved"
    turned = parse_tiles(framed + "fix 1 1 1 1\n", "framed.txt")
    assert solve_instance(PUZZLE, turned).reason == (
        "fixed tile 1 turned 1 cannot stand on (1,1): "
        "grey edges must face the border, and only there"
    )
    apart = parse_tiles(SEED.read_text() + "fix 1 1 2 3\nfix 2 1 5 1\n", "seed.txt")
    result = solve_instance(PUZZLE, apart)
    assert result.status == "unsatisfiable"
    assert result.reason == (
        "fixed tiles 2 on (1,1) and 5 on (2,1) do not match: cheetah_head against lion_tail"
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("fix 1 1 1", "tiles.txt:5: expected 'fix ROW COL TILE TURNS' (whole numbers), got"),
        ("fix 1 1 one 0", "tiles.txt:5: expected 'fix ROW COL TILE TURNS'"),
        ("fix 1 1 1 4", "tiles.txt:5: fix: 4 turns, expected 0-3 clockwise quarter turns"),
        ("fix 3 1 1 0", "tiles.txt:5: fix: cell (3,1) is off the 2x1 board"),
        ("fix 1 0 1 0", "tiles.txt:5: fix: cell (1,0) is off the 2x1 board"),
        ("fix 1 1 3 0", "tiles.txt:5: fix: no tile has id 3 (ids are 1-2)"),
        ("fix 1 1 1 0\nfix 1 1 2 0", "tiles.txt:6: fix: cell (1,1) is already fixed on line 5"),
        ("fix 1 1 1 0\nfix 2 1 1 0", "tiles.txt:6: fix: tile 1 is already fixed on line 5"),
    ],
)
def test_malformed_fix_lines_are_named_precisely(line, message):
    text = "style e2\nsize 2 1\n0 0 1 0\n1 0 0 0\n" + line + "\n"
    with pytest.raises(InputError) as error:
        parse_tiles(text, "tiles.txt")
    assert str(error.value).startswith(message)


def test_generator_gives_planted_tiles_as_fixed_pieces():
    args = argparse.Namespace(style="e2", size="6x6", kinds=6, border_kinds=0, fix=3, seed=4)
    text = PUZZLE.generator().generate(args)
    assert "--fix 3 --seed 4" in text.splitlines()[0] and text.count("\nfix ") == 3
    instance = parse_tiles(text, "generated")
    plain = parse_tiles(PUZZLE.generator().generate(replace_namespace(args, fix=0)), "plain")
    assert instance.tiles == plain.tiles and len(instance.fixed) == 3
    result = solve_instance(PUZZLE, instance)
    assert result.status == "solved"  # the driver checked the fixes before returning
    with pytest.raises(InputError, match="--fix must be from 0 to 36"):
        PUZZLE.generator().generate(replace_namespace(args, fix=37))


def replace_namespace(args: argparse.Namespace, **changes) -> argparse.Namespace:
    return argparse.Namespace(**{**vars(args), **changes})


# --------------------------------------------------------------- score mode
def _fewest_mismatches_by_brute_force(instance: TilesInstance) -> int:
    """Every placement of every tile in every turn whose grey edges face out, the
    fewest shared edges that do not match: what score mode must find. Corner tiles
    (two grey edges) can only go to corners, border tiles to the border: the cells are
    filled group by group."""
    cells = [(r, c) for r in range(instance.rows) for c in range(instance.cols)]
    group = {cell: sum(_turns_border(instance, cell)) for cell in cells}  # grey sides
    groups = sorted(set(group.values()))
    cells_of = {g: [cell for cell in cells if group[cell] == g] for g in groups}
    tiles_of = {
        g: [t for t, tile in enumerate(instance.tiles, start=1) if tile.count("0") == g]
        if instance.style == "e2"
        else list(range(1, len(instance.tiles) + 1))
        for g in groups
    }
    best = instance.shared_edges
    for orders in itertools.product(*(itertools.permutations(tiles_of[g]) for g in groups)):
        at = {
            cell: tile
            for g, order in zip(groups, orders, strict=True)
            for cell, tile in zip(cells_of[g], order, strict=True)
        }
        turns = [_turns_that_fit(instance, at[cell], cell) for cell in cells]
        for chosen in itertools.product(*turns):
            placement = [
                [(at[r, c], chosen[r * instance.cols + c]) for c in range(instance.cols)]
                for r in range(instance.rows)
            ]
            best = min(best, len(mismatched_edges(instance, placement)))
    return best


def _turns_border(instance: TilesInstance, cell: tuple[int, int]) -> list[bool]:
    """Which sides of a 0-based cell (top, right, bottom, left) face out on a framed
    board (none count on an animal board, whose edges are free outside)."""
    if instance.style != "e2":
        return [False] * 4
    return [cell[0] == 0, cell[1] == instance.cols - 1, cell[0] == instance.rows - 1, cell[1] == 0]


def _turns_that_fit(instance: TilesInstance, tile: int, cell: tuple[int, int]) -> list[int]:
    border = _turns_border(instance, cell)
    edges = instance.tiles[tile - 1]
    if instance.style != "e2":
        return list(range(4))
    return [t for t in range(4) if [e == "0" for e in rotate(edges, t)] == border]


def _spoiled(board: TilesInstance, rng: random.Random) -> TilesInstance:
    """The board with one inner edge of a tile changed, so that it may have no exact
    solution (and often has odd colour counts)."""
    tiles = [list(tile) for tile in board.tiles]
    tile = rng.randrange(len(tiles))
    sides = [s for s in range(4) if tiles[tile][s] != "0"]
    tiles[tile][rng.choice(sides)] = (
        rng.choice(["1", "2", "3"]) if board.style == "e2" else "x_head"
    )
    return board._replace(tiles=tuple(tuple(t) for t in tiles), scored=True)


@pytest.mark.parametrize(("style", "rows", "cols"), [("e2", 3, 3), ("animal", 2, 2), ("e2", 2, 4)])
def test_score_mode_finds_the_fewest_mismatches_that_brute_force_finds(style, rows, cols):
    rng = random.Random(rows * cols)
    costs = []
    for _ in range(4):
        board = _spoiled(planted_tiles(style, rows, cols, 3, rng), rng)
        result = solve_instance(PUZZLE, board, portfolio=False)
        assert result.status == "solved" and result.optimal  # checked by the driver
        solution = result.solution.data
        assert result.cost == [len(solution.mismatched)]
        assert result.cost[0] == _fewest_mismatches_by_brute_force(board)
        costs.append(result.cost[0])
    assert max(costs) > 0


def _completes(board: TilesInstance, atoms: list[clingo.Symbol]) -> bool:
    """Whether clingo accepts the atoms as (part of) an answer of the board's score mode."""
    control = clingo.Control()
    control.load(str(find_encoding("tiles")))
    control.add("base", [], "".join(f"{fact}." for fact in PUZZLE.facts(board)))
    control.ground([("base", []), ("score", [])])
    return control.solve(assumptions=[(atom, True) for atom in atoms]).satisfiable


@pytest.mark.parametrize(
    ("style", "rows", "cols", "fixed"),
    [("e2", 5, 5, 0), ("e2", 4, 6, 0), ("animal", 4, 4, 0), ("e2", 5, 5, 1), ("e2", 6, 6, 2)],
)
def test_score_mode_starts_from_a_greedy_placement_that_clingo_accepts(style, rows, cols, fixed):
    """The greedy placement is a whole board that keeps the frame, the fixed pieces and
    (turned as a whole) the symmetry breaking's anchor, so clingo completes it."""
    rng = random.Random(rows * cols + fixed)
    for _ in range(3):
        board = _spoiled(planted_tiles(style, rows, cols, 3, rng, fixed=fixed), rng)
        placement = quick_placement(board)
        assert placement is not None
        assert check_placement(board, placement, scored=True) == []
        assert _completes(board, PUZZLE.strategy(board).warm_start().first_answer())
        assert (
            PUZZLE.strategy(board._replace(scored=False)).warm_start().first_answer() == []
        )  # exact mode: no start


def test_a_neighbourhood_frees_cells_beside_mismatches_and_never_a_fixed_one():
    """A round of the large-neighbourhood search keeps every placement but those of
    ten cells, half of them beside a mismatched edge; small boards get no rounds."""
    rng = random.Random(7)
    board = _spoiled(planted_tiles("e2", 6, 6, 3, rng, fixed=2), rng)
    placement = quick_placement(board)
    assert placement is not None
    mismatched = mismatched_edges(board, placement)
    assert mismatched  # a spoiled board, greedily filled
    placed = set(PUZZLE.strategy(board).warm_start().first_answer())
    atoms = [*placed] + [
        clingo.Function("mismatch", [clingo.Number(r), clingo.Number(c), clingo.Function(side)])
        for r, c, side in mismatched
    ]
    beside = {(r, c) for r, c, side in mismatched} | {
        (r, c + 1) if side == "right" else (r + 1, c) for r, c, side in mismatched
    }
    for seed in range(5):
        kept = PUZZLE.strategy(board).warm_start().neighbourhood(atoms, random.Random(seed))
        assert set(kept) <= placed and len(kept) == 36 - FREED_CELLS
        freed = {(a.arguments[0].number, a.arguments[1].number) for a in placed - set(kept)}
        assert not freed & {(fix.row, fix.col) for fix in board.fixed}
        assert len(freed & beside) >= min(len(beside - {(f.row, f.col) for f in board.fixed}), 5)
    small = _spoiled(planted_tiles("e2", 4, 5, 3, rng), rng)
    assert (
        PUZZLE.strategy(small).warm_start().neighbourhood(atoms, rng) == []
    )  # 20 cells: the complete search
    assert (
        PUZZLE.strategy(board._replace(scored=False)).warm_start().neighbourhood(atoms, rng) == []
    )


def test_a_lone_centre_hint_keeps_the_greedy_board_from_turning_off_its_picture():
    """A ``1 2 1 2`` tile fixed on the centre keeps only the half turn of the board, so
    the greedy board may be turned by half turns only, to suit the anchor."""
    planted = planted_tiles("e2", 3, 3, 3, random.Random(5))
    centre = next(i for i, t in enumerate(planted.tiles) if "0" not in t)
    tiles = list(planted.tiles)
    tiles[centre] = ("1", "2", "1", "2")
    for seed in range(4):  # tie-breaks differ, so the anchor's turn does too
        board = TilesInstance("e2", 3, 3, tuple(random.Random(seed).sample(tiles, 9)))
        tile_id = board.tiles.index(("1", "2", "1", "2")) + 1
        hinted = board._replace(fixed=(Fix(2, 2, tile_id, 1),), scored=True)
        assert kept_rotations(hinted) == 2
        placement = quick_placement(hinted)
        assert placement is not None and check_placement(hinted, placement, scored=True) == []
        assert _completes(hinted, PUZZLE.strategy(hinted).warm_start().first_answer())


def test_score_mode_reports_the_score_and_marks_mismatches(cli):
    run = cli("solve", "tiles", "unsolvable-animal-3x3", "--score")
    assert run.code == 0, run.err
    assert "score: 11 of 12 shared edges match; mismatched: (" in run.out
    assert "solved, cost 1 (optimal), 1 solution" in run.out
    data = cli("solve", "tiles", "unsolvable-animal-3x3", "--score", "--format", "json").json()
    solution = data["solutions"][0]
    assert (data["cost"], data["optimal"], solution["matching"]) == ([1], True, 11)
    assert len(solution["mismatched"]) == 1
    svg = cli("solve", "tiles", "unsolvable-animal-3x3", "--score", "--format", "svg").out
    assert svg.count("<title>mismatch</title>") == 1
    exact = cli("solve", "tiles", "seed-big-cats-3x3", "--score", "--count")
    assert "cost 0 (optimal), count 1, count_raw 4" in exact.out


def test_score_mode_allows_odd_colours_and_clashing_hints_but_not_a_short_frame():
    odd = parse_tiles((INSTANCES / "tiles" / "odd-colour-e2-2x2.txt").read_text(), "odd.txt")
    assert solve_instance(PUZZLE, odd._replace(scored=True)).cost == [1]
    apart = parse_tiles(SEED.read_text() + "fix 1 1 2 3\nfix 2 1 5 1\n", "seed.txt")
    hinted = solve_instance(PUZZLE, apart._replace(scored=True), portfolio=False)
    assert hinted.status == "solved" and hinted.cost[0] >= 1
    short = TilesInstance("e2", 1, 2, (("0", "1", "0", "0"), ("1", "0", "0", "1")), scored=True)
    assert "grey frame edges" in solve_instance(PUZZLE, short).reason


def test_score_mode_checker_recounts_the_mismatched_edges():
    board = parse_tiles(
        (INSTANCES / "tiles" / "unsolvable-animal-3x3.txt").read_text(), "u"
    )._replace(
        scored=True,
    )
    solution = solve_instance(PUZZLE, board).solution.data
    assert PUZZLE.check(board, solution) == []
    hidden = solution._replace(mismatched=())
    assert PUZZLE.check(board, hidden)[0].startswith(
        "the answer set names 0 mismatched edges, the checker finds 1"
    )
    exact = board._replace(scored=False)
    assert any("vs" in problem for problem in PUZZLE.check(exact, solution))


def test_score_mode_grounds_its_own_part_and_leaves_the_exact_program_as_it_is(cli):
    """The exact mode's ground program must not change with score mode in the encoding:
    clasp's search on hard boards follows the program's order, so even a rule that
    grounds to nothing could make a board that solved in 4 s time out."""
    instance = parse_tiles(SEED.read_text(), "seed.txt")
    exact = fact_program(PUZZLE, instance)
    assert "pair(" not in exact and "% This instance needs" not in exact
    scored = cli("facts", "tiles", "seed-big-cats-3x3", "--score").out
    assert "partner(" not in scored and 'pair("lion_head","lion_tail").' in scored
    assert scored.rstrip().endswith('control.ground([("base", []), ("score", [])]), then solve.')
    encoding = find_encoding("tiles").read_text()
    base = encoding.split("#program score.")[0]
    assert "pair(" not in base.replace("%   pair(V,W)", "") and "#minimize" not in base


def test_check_takes_the_puzzles_options_so_a_scored_placement_is_judged_by_score_rules(cli):
    answer = cli("solve", "tiles", "unsolvable-animal-3x3", "--score", "--format", "json").out
    [(row, col, side)] = json.loads(answer)["solutions"][0]["mismatched"]  # one of the optima
    exact = cli("check", "tiles", "unsolvable-animal-3x3", answer)
    assert exact.code == 1 and f"rejected: ({row},{col}) {side}" in exact.err
    scored = cli("check", "tiles", "unsolvable-animal-3x3", answer, "--score")
    assert scored.code == 0, scored.err
    assert f"score: 11 of 12 shared edges match; mismatched: ({row},{col}) {side}" in scored.out


def test_score_mode_races_the_exact_search_as_a_shortcut():
    """A perfect placement mismatches nothing, so the exact search (the board without
    score mode, its own program, facts and race) runs as shortcuts whose answers cost 0: its
    answer is optimal, its finding none says nothing, and it is left out where the
    board cannot be perfect without search."""
    exact = load_instance(PUZZLE, "gen-e2-6x6-8-kinds")[0]
    board = exact._replace(scored=True)
    shortcuts = PUZZLE.strategy(board).shortcuts()  # both orders of the exact search's own race
    assert [shortcut.arguments for shortcut in shortcuts] == [
        (),
        *PUZZLE.strategy(exact).portfolio(),
    ]
    assert {(shortcut.instance, shortcut.cost) for shortcut in shortcuts} == {(exact, (0,))}
    assert PUZZLE.strategy(exact).shortcuts() == ()  # the exact search is the search itself
    assert (
        PUZZLE.strategy(
            load_instance(PUZZLE, "gen-e2-4x4-4-kinds")[0]._replace(scored=True)
        ).shortcuts()
        == ()
    )
    spoiled = _spoiled(board, random.Random(1))  # one edge changed: an odd colour
    assert PUZZLE.strategy(spoiled._replace(scored=False)).infeasible() is not None
    assert PUZZLE.strategy(spoiled).shortcuts() == ()
    imperfect = load_instance(PUZZLE, "unsolvable-animal-3x3")[0]._replace(scored=False)
    assert solve_instance(PUZZLE, imperfect).status == "unsatisfiable"  # not the race's verdict


@pytest.mark.slow
def test_score_mode_with_a_perfect_placement_answers_as_fast_as_the_exact_search(cli):
    """The 16-colour 10x10: 91 s in score mode before the shortcut, 0.9 s exact."""
    run = cli("solve", "tiles", "gen-e2-10x10-16-kinds", "--score", "--timeout", "60")
    assert run.code == 0, run.err
    assert "score: 180 of 180 shared edges match" in run.out
    assert "solved, cost 0 (optimal), 1 solution" in run.out


def test_score_mode_races_core_guided_optimization_against_the_default():
    """clasp's usc asks first whether no edge need mismatch, which on a board with an
    exact solution is the exact search; its answer is proved optimal at once."""
    board = load_instance(PUZZLE, "gen-e2-6x6-8-kinds")[0]._replace(scored=True)
    assert PUZZLE.strategy(board).portfolio() == (("--opt-strategy=usc",),)
    alone = solve_instance(PUZZLE, board, portfolio=False, clingo_args=["--opt-strategy=usc"])
    raced = solve_instance(PUZZLE, board, timeout=60)
    for result in (alone, raced):
        assert (result.status, result.cost, result.optimal) == ("solved", [0], True)


def _by_clingo(instance: TilesInstance, monkeypatch: pytest.MonkeyPatch, **asked: bool) -> Any:
    """The encoding's answer (or count) with the searches in Python (``Strategy.answer``
    and ``Strategy.count``) off."""
    with monkeypatch.context() as patched:
        patched.setattr(TilesStrategy, "count", lambda self, deadline: None)
        patched.setattr(TilesStrategy, "answer", lambda self, deadline, memory=None: None)
        result = solve_instance(PUZZLE, instance, portfolio=False, **asked)
    assert "python_search_time" not in result.stats
    return result


def _fixed_at_random(instance: TilesInstance, rng: random.Random) -> TilesInstance:
    """The board with one tile fixed on a cell, in a turn, both drawn at random (the
    tile's planted cell or not: a fixed piece may rule every placement out)."""
    cell = rng.randrange(instance.rows * instance.cols)
    row, col = divmod(cell, instance.cols)
    fix = Fix(row + 1, col + 1, rng.randrange(len(instance.tiles)) + 1, rng.randrange(4))
    return instance._replace(fixed=(fix,))


@pytest.mark.parametrize("style", ["animal", "e2", "unframed"])
def test_small_boards_are_searched_in_python_as_the_encoding_searches_them(style, monkeypatch):
    """The depth-first search serves ``--count`` and a first answer on boards up to
    4x4: on random boards (planted, some spoiled or with a tile repeated, some with a
    fixed piece, symmetric tiles among them), with symmetry breaking and without, it
    gives clingo's count, and a placement the checker accepts exactly where there is one."""
    rng = random.Random(style)
    counts = []
    shapes = [(2, 2), (2, 3), (3, 3), (3, 4)] + ([] if style == "unframed" else [(4, 4)])
    for number in range(14):
        rows, cols = rng.choice(shapes)
        if number % 7 == 6 and style == "animal":
            instance = _planted_symmetric_tiles(rows, cols, rng)
        else:  # few colours on larger boards: tens of thousands of placements
            fewest = (5 if style == "unframed" else 2) + (rows * cols > 9)
            instance = planted_tiles(style, rows, cols, rng.randint(fewest, fewest + 3), rng)
        tiles = list(instance.tiles)
        if rng.random() < 0.2:
            tiles[-1] = tiles[0]
        instance = instance._replace(tiles=tuple(tiles))
        if rng.random() < 0.3:
            instance = _fixed_at_random(instance, rng)
        for broken in (True, False):
            board = instance._replace(symmetry_breaking=broken)
            solved = solve_instance(PUZZLE, board, portfolio=False)  # the first placement
            assert solved.status == _by_clingo(board, monkeypatch).status, board
            assert solved.checked and len(solved.solutions) == (solved.status == "solved")
            if small_boards.count_placements(board, time.perf_counter() + 60) is None:
                continue  # a 4x4 board, or past the search's bound: clingo's own count
            counted = solve_instance(PUZZLE, board, count=True, portfolio=False)
            assert counted.reason or "python_search_time" in counted.stats  # or no search
            assert counted.count == _by_clingo(board, monkeypatch, count=True).count, board
            counts.append(counted.count)
    assert len(counts) >= 14 and 0 in counts and max(counts) > 20


def test_the_seeds_count_needs_no_clingo_search_unless_the_encoding_is_edited(tmp_path):
    counted = solve("tiles", "seed-big-cats-3x3", count=True, options={"raw": True})
    assert (counted.count, counted.status) == (4, "solved")
    assert "python_search_time" in counted.stats and "ground_time" not in counted.stats
    edited = tmp_path / "tiles.lp"
    edited.write_text(find_encoding("tiles").read_text() + "\n:- place(1,1,T,O), O > 0.\n")
    by_clingo = solve("tiles", "seed-big-cats-3x3", count=True, encoding=edited)
    assert (by_clingo.count, by_clingo.status) == (1, "solved")
    assert "python_search_time" not in by_clingo.stats


def test_a_board_past_the_python_count_bound_is_counted_by_clingo(monkeypatch):
    monkeypatch.setattr(small_boards, "MOST_STEPS", 10)
    counted = solve("tiles", "gen-animal-3x3-2-kinds", count=True, options={"raw": True})
    assert counted.count == 1768 and "python_search_time" not in counted.stats
