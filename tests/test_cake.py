"""The 7th Guest cake: counts, the checker, the parser, the renderings."""

from __future__ import annotations

import random
import re

import pytest

from aspuzzles import InputError, solve, solve_instance
from aspuzzles.puzzles.cake import (
    PUZZLE,
    CakeInstance,
    CakeStrategy,
    candidates,
    check_partition,
    naming,
    parse_cake,
    planted_cake,
)

from .oracles import cake_baseline

SEED = ("122121", "021121", "022010", "112012", "221012")


def test_every_seed_partition_is_found_once_and_checks():
    result = solve("cake", "seed-7th-guest", models=0)
    partitions = {solution.data.pieces for solution in result.solutions}
    assert len(result.solutions) == len(partitions) == 67
    assert all(check_partition(result.solution.instance, p) == [] for p in partitions)


@pytest.mark.slow
@pytest.mark.parametrize("pieces", [6, 3])
def test_counts_agree_with_the_plain_python_search(pieces):
    instance = CakeInstance(pieces, SEED)
    from aspuzzles import solve_instance

    asp = solve_instance(PUZZLE, instance, count=True)
    assert asp.count == cake_baseline.count(list(SEED), pieces)


def test_labels_follow_reading_order_of_first_cells():
    pieces = solve("cake").solution.data.pieces
    firsts = []
    for line in pieces:
        for label in line:
            if label not in firsts:
                firsts.append(label)
    assert firsts == list("ABCDEF")


@pytest.mark.slow
def test_candidate_pieces_grow_with_cells_times_pieces_not_cells_squared():
    """A 100x100 cake in 50 pieces of 200 cells: naming a piece by its first cell would
    give every cell ~5,000 possible pieces (50 million facts); numbered, at most 50."""
    cake = CakeInstance(50, tuple("0" * 100 for _ in range(100)))  # toppings play no part
    assert naming(cake) == "number"
    assert naming(CakeInstance(8, tuple("0" * 16 for _ in range(16)))) == "first_cell"
    pairs = candidates(cake)
    assert len(pairs) <= 100 * 100 * 50
    assert {piece for piece, _ in pairs} == set(range(1, 51))
    # The last piece starts no earlier than cell 49, no later than cell 49 x 200.
    assert min(cell for piece, cell in pairs if piece == 50) == 49


@pytest.mark.slow
@pytest.mark.parametrize("named", ["first_cell", "number"])
def test_every_piece_of_a_planted_cut_lies_within_its_candidates(named, monkeypatch):
    cake = planted_cake(12, 12, 8, 3, random.Random(4))
    monkeypatch.setattr("aspuzzles.puzzles.cake.naming", lambda _instance: named)
    allowed = set(candidates(cake))
    for pieces in solve_instance(PUZZLE, cake, models=20).solutions:
        cells = "".join(pieces.data.pieces)
        firsts = {label: cells.index(label) for label in dict.fromkeys(cells)}
        numbers = {label: n for n, label in enumerate(firsts, 1)}
        names = firsts if named == "first_cell" else numbers
        for index, label in enumerate(cells):
            assert (names[label], index) in allowed


def test_totals_that_do_not_divide_are_reported_without_search(cli):
    result = solve("cake", "seed-5-pieces")
    assert result.status == "unsatisfiable"
    assert result.reason == "6 x plain (0) do not divide into 5 pieces"
    assert result.stats == {}
    run = cli("solve", "cake", "seed-5-pieces")
    assert run.code == 1 and "without search: 6 x plain (0)" in run.out


# ------------------------------------------------------------------ checker
SEED_INSTANCE = CakeInstance(6, SEED)
VALID = ("AAABBC", "ADABEC", "DDBBEC", "DDEEEC", "FFFFFC")


def test_checker_accepts_a_valid_partition():
    assert check_partition(SEED_INSTANCE, VALID) == []


@pytest.mark.parametrize(
    ("pieces", "problems"),
    [
        (
            ("AAABBC", "ADABEC", "DDBBEC", "DDEEEC", "FFFFFA"),
            [
                "piece A is not connected",
                "piece A holds 3 of topping 2, expected 2",
                "piece C holds 1 of topping 2, expected 2",
            ],
        ),
        (
            ("AAABBC", "ADABEC", "DDBBEC", "DDEEEC", "EEEEEC"),
            [
                "5 pieces, expected 6",
                "piece E holds 2 of topping 0, expected 1",
                "piece E holds 4 of topping 1, expected 2",
                "piece E holds 4 of topping 2, expected 2",
            ],
        ),
        (
            ("AAABBC", "AAABEC", "DDBBEC", "DDEEEC", "FFFFFC"),
            [
                "piece A holds 3 of topping 2, expected 2",
                "piece D holds 1 of topping 2, expected 2",
            ],
        ),
        (("AAABBC", "ADABEC"), ["the partition is not 5x6"]),
        (("AAABBC", "ADABEC", "DDBBEC", "DDEEEC", "FFFFF"), ["the partition is not 5x6"]),
    ],
)
def test_checker_names_every_problem_of_a_broken_partition(pieces, problems):
    assert check_partition(SEED_INSTANCE, pieces) == problems


def test_a_quota_no_whole_number_meets_is_named_as_a_fraction():
    """Six 0s shared among four pieces: 1.5 each, which no piece can hold."""
    halves = ("AAABBB", "AAABBB", "CCCDDD", "CCCDDD", "CCCDDD")
    assert check_partition(CakeInstance(4, SEED), halves)[:3] == [
        "piece A holds 1 of topping 0, expected 1.5",
        "piece A holds 2 of topping 1, expected 3",
        "piece B holds 0 of topping 0, expected 1.5",
    ]


# ------------------------------------------------------------------ parser
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("pieces 2\n1212\n121\n", "cake.txt:3: ragged row: 3 cells, expected 4 like line 2"),
        ("pieces 2\n12x2\n", "cake.txt:2:3: 'x' is not a topping digit"),
        ("pieces 2\nx212\n1212\n", "cake.txt:2:1: 'x' is not a topping digit"),
        ("piece 6\n122121\n021121\n", "cake.txt: missing the 'pieces K' line"),
        ("pieces 2\n1 2 x 2\n", "cake.txt:2:5: 'x' is not a topping digit"),
        ("pieces 2\n12²2\n", "cake.txt:2:3: '²' is not a topping digit"),
        ("pieces 2\n1 2 1 2\n1 2 1\n", "cake.txt:3: ragged row: 3 cells, expected 4 like line 2"),
        ("1212\n1212\n", "cake.txt: missing the 'pieces K' line"),
        ("pieces 0\n1212\n", "cake.txt:1: the piece count must be positive, not 0"),
        ("pieces -3\n1212\n", "cake.txt:1: the piece count must be positive, not -3"),
        ("pieces two\n1212\n", "cake.txt:1: expected 'pieces K' with a whole number"),
        ("# only a header\npieces 2\n", "cake.txt: no grid rows"),
        ("pieces 2\npieces 3\n12\n", "cake.txt:2: 'pieces' is given twice"),
        ("pieces 9\n12\n12\n", "cake.txt: cannot cut 4 cells into 9 pieces"),
    ],
)
def test_malformed_cakes_are_named_precisely(text, message):
    with pytest.raises(InputError) as error:
        parse_cake(text, "cake.txt")
    assert str(error.value).startswith(message)


def test_toppings_may_be_other_characters_each_its_own_topping():
    """The seed with S for skulls, T for tombstones and . for plain: the same cake."""
    letters = tuple(row.translate(str.maketrans("120", "ST.")) for row in SEED)
    text = "pieces 6\n" + "\n".join(" ".join(row) for row in letters)
    instance = parse_cake(text, "letters.txt")
    assert instance == CakeInstance(6, letters)
    assert solve_instance(PUZZLE, instance, count=True).count == 67
    with pytest.raises(InputError) as error:
        parse_cake("pieces 2\nSSTT\nS1TT\n", "cake.txt")
    assert str(error.value) == (
        "cake.txt:3:2: '1' is a digit in a grid that writes its toppings as other characters"
    )
    assert PUZZLE.strategy(CakeInstance(4, ("SSTT", "S.T."))).infeasible() == (
        "2 x '.' do not divide into 4 pieces"
    )


def test_digits_may_be_spaced_out():
    assert parse_cake("pieces 2\n1 2\n2  1\n", "x") == CakeInstance(2, ("12", "21"))


def test_comments_and_blank_lines_are_ignored():
    text = "# a cake\n\npieces 2  # two\n12 # row\n\n21\n"
    assert parse_cake(text, "x") == CakeInstance(2, ("12", "21"))


# ------------------------------------------------------------------ output
def test_json_is_one_string_per_row(cli):
    data = cli("solve", "cake", "--format", "json").json()
    pieces = data["solutions"][0]["pieces"]
    assert len(pieces) == 5 and all(len(row) == 6 for row in pieces)
    assert check_partition(SEED_INSTANCE, pieces) == []


def test_text_draws_cuts_and_svg_fills_pieces():
    solution = solve("cake").solution
    text = solution.text()
    assert text.splitlines()[0] == "6 pieces, each with 0 plain x1, 1 skull x2, 2 tombstone x2"
    assert text.splitlines()[1].startswith("┌") and "┼" not in text.splitlines()[1]
    assert "A1" in text
    svg = solution.svg()
    cell_fills = re.findall(r'width="44" height="44" fill="(#[0-9a-f]{6})"', svg)
    assert svg.startswith("<svg") and len(cell_fills) == 30 and len(set(cell_fills)) == 6
    assert "skull" in svg and "tombstone" in svg


def test_generator_plants_a_solution(tmp_path):
    import argparse

    text = PUZZLE.generator().generate(
        argparse.Namespace(size="6x4", pieces=4, kinds=3, seed=5, random=False)
    )
    instance = parse_cake(text, "gen")
    assert instance.pieces == 4 and len(instance.grid) == 6
    assert solve("cake", _write(text, tmp_path)).status == "solved"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_random_cake_has_dividing_totals_and_the_same_count_as_the_python_search(seed, tmp_path):
    """`generate cake --random` strews a random mix times K over the grid: the totals
    divide, no cut is planted, and what the encoding counts is what the search finds."""
    import argparse

    args = argparse.Namespace(size="4x4", pieces=4, kinds=3, seed=seed, random=True)
    text = PUZZLE.generator().generate(args)
    assert "--random" in text.splitlines()[0] and text == PUZZLE.generator().generate(args)
    instance = parse_cake(text, "gen")
    assert all(total % 4 == 0 for total in instance.totals().values())
    result = solve("cake", _write(text, tmp_path), count=True)
    assert result.count == cake_baseline.count(list(instance.grid), 4)


def test_large_cakes_race_luby_restarts_and_small_ones_do_not():
    small = parse_cake("pieces 2\n" + "01\n" * 4, "small")
    large = parse_cake("pieces 2\n" + "0110011001\n" * 10, "large")
    assert PUZZLE.strategy(small).portfolio() == ()
    assert PUZZLE.strategy(large).portfolio() == (("--restarts=L,128",),)


def _write(text: str, folder):
    path = folder / "generated.txt"
    path.write_text(text)
    return path


def test_counts_agree_with_the_plain_python_search_on_random_small_cakes():
    """Every partition is found exactly once (no lost shapes, no labelled duplicates)
    on 40 random cakes with 2 to 6 pieces, whether their totals divide or not."""
    from aspuzzles import solve_instance

    rng = random.Random(2)
    counts = []
    for _ in range(40):
        rows, cols = rng.choice([(3, 4), (4, 4), (2, 6), (3, 3), (4, 5)])
        pieces = rng.choice([k for k in (2, 3, 4, 5, 6) if rows * cols % k == 0])
        toppings = rng.choice(["01", "012", "0112"])
        grid = tuple("".join(rng.choice(toppings) for _ in range(cols)) for _ in range(rows))
        expected = cake_baseline.count(list(grid), pieces)
        assert solve_instance(PUZZLE, CakeInstance(pieces, grid), count=True).count == expected
        counts.append(expected)
    assert 0 in counts and min(c for c in counts if c) <= 2 and max(counts) > 10


@pytest.mark.parametrize("named", ["first_cell", "number"])
def test_small_cakes_are_cut_in_python_as_the_encoding_cuts_them(named, monkeypatch):
    """Cakes up to 100 cells get their first partition (or the proof of none) from the
    depth-first search in Python, as the encoding's ``in/2`` atoms under either naming
    of the pieces: the answer passes the checker, and has one exactly where clingo's
    search finds one (on random cakes, whose totals may not divide)."""
    monkeypatch.setattr("aspuzzles.puzzles.cake.naming", lambda _instance: named)
    rng = random.Random(named)
    verdicts = []
    for _ in range(30):
        rows, cols = rng.choice([(3, 4), (4, 4), (2, 6), (4, 5), (6, 6)])
        pieces = rng.choice([k for k in (2, 3, 4, 6) if rows * cols % k == 0])
        toppings = rng.choice(["01", "012", "0112"])
        grid = tuple("".join(rng.choice(toppings) for _ in range(cols)) for _ in range(rows))
        cake = CakeInstance(pieces, grid)
        cut = solve_instance(PUZZLE, cake)
        with monkeypatch.context() as patched:
            patched.setattr(CakeStrategy, "answer", lambda self, deadline, memory=None: None)
            by_clingo = solve_instance(PUZZLE, cake)
        assert cut.status == by_clingo.status, cake
        assert cut.reason or "python_search_time" in cut.stats  # or no search at all
        assert cut.checked and len(cut.solutions) == (cut.status == "solved")
        verdicts.append(cut.status)
    assert {"solved", "unsatisfiable"} <= set(verdicts)


def test_the_seed_cake_is_cut_without_clingo_unless_the_encoding_is_edited(tmp_path):
    from aspuzzles.paths import find_encoding

    cut = solve("cake")
    assert cut.status == "solved" and "python_search_time" in cut.stats
    assert "ground_time" not in cut.stats
    edited = tmp_path / "cake.lp"
    edited.write_text(find_encoding("cake").read_text() + "\n% an edit\n")
    by_clingo = solve("cake", encoding=edited)
    assert by_clingo.status == "solved" and "python_search_time" not in by_clingo.stats
