"""The dice puzzles' search outside clingo (``kit/dice_search``, compiled by numba with
the ``fast`` extra): its tilings pass the checker, its counts are clingo's, Algorithm
X's and the known ones, and it never answers for an edited encoding or a roll it
cannot settle (an edited encoding: tests/test_census.py)."""

from __future__ import annotations

import pytest

from aspuzzles import solve
from aspuzzles.driver import Session
from aspuzzles.kit import dice_native, dice_search
from aspuzzles.registry import get_puzzle

from .oracles import geniusstar_algx

#: The Genius Star's reference roll: 30,583 tilings, 118 of them golden
#: (test_geniusstar.test_reference_roll_counts has clingo count them).
STAR_REFERENCE = "1 10 16 29 33 38 39"


def _roll(puzzle: str, text: str, **options: bool):
    game = get_puzzle(puzzle)
    swept = game.sweep()
    base = swept.base(options)
    return game, swept, base._replace(blocked=game.parse_roll(text, "<test>").blocked)


def test_the_compiled_search_is_installed_with_the_test_extra():
    assert dice_search.compiled() is not None


@pytest.mark.parametrize(("options", "known"), [({}, 30583), ({"golden": True}, 118)])
def test_the_stars_reference_roll_is_counted_as_clingo_counts_it(options, known):
    """Twins (the blue pair) count once per tiling, and the golden star's hexagon once."""
    _, swept, roll = _roll("geniusstar", STAR_REFERENCE, **options)
    assert swept.count_in_python(roll) == known


def _grounded(puzzle: str):
    """The puzzle, its sweep slot, the sweep's base roll and its one grounding."""
    game = get_puzzle(puzzle)
    swept = game.sweep()
    base = swept.base({})
    return game, swept, base, Session(game, base)


def test_square_counts_agree_with_algorithm_x_and_with_clingo():
    game, swept, base, session = _grounded("geniussquare")
    for blocked in game.all_rolls()[::9973]:
        roll = base._replace(blocked=blocked)
        counted = swept.count_in_python(roll)
        assert counted == session.count(swept.assumptions(roll)), blocked
        assert counted == geniusstar_algx.count_tilings(blocked, game), blocked


@pytest.mark.parametrize("most", [1, 2, 5, 32])
def test_a_capped_count_is_clingos_capped_count(most):
    """``--count-cap``: the compiled count stops at ``most`` as clingo's enumeration does
    (``most`` meaning that many or more), on blockers anywhere (a census's placements:
    some with no tiling, some with few, some with many)."""
    import random

    _, swept, base, session = _grounded("geniussquare")
    rng = random.Random(7)
    chosen: dict[str, list[tuple[int, ...]]] = {"none": [], "few": [], "many": []}
    while min(len(found) for found in chosen.values()) < 3:  # most have hundreds
        blocked = tuple(sorted(rng.sample(range(1, 37), 7)))
        tilings = swept.count_in_python(base._replace(blocked=blocked)) or 0
        kind = "none" if tilings == 0 else "few" if tilings < 32 else "many"
        chosen[kind].append(blocked)
    for blocked in [placement for found in chosen.values() for placement in found[:3]]:
        roll = base._replace(blocked=blocked)
        capped = swept.count_in_python(roll, most) or 0  # None: no tiling (clingo proves it)
        assert capped == session.count(swept.assumptions(roll), most), blocked
        assert capped == min(most, swept.count_in_python(roll) or 0), blocked


#: Rolls with a few hundred tilings each (clingo counts them in a fraction of a second).
MEMO_ROLLS = {
    "geniussquare": ["A5 C2 C4 D6 E4 F1 F3", "A2 A6 B4 B5 C1 D5 F2", "A6 B1 B5 D3 E1 E2 E6"],
    "geniusstar": ["1 9 20 22 31 40 42", "8 15 18 27 29 32 40", "5 8 21 23 31 37 39"],
}


def _fresh_search(game, roll) -> dice_search.TilingSearch:
    """A search of its own, its memo empty (``tiling_search`` keeps one a process)."""
    return dice_search.TilingSearch(game.shape_table(roll), len(game.board()), game.adjacent)


@pytest.mark.parametrize("puzzle", ["geniussquare", "geniusstar"])
def test_the_memo_counts_as_clingo_counts_whatever_was_counted_before(puzzle):
    """The compiled count remembers the (free cells, pieces left) it has counted, from
    one roll to the next: a roll counted first, after the others, or twice is counted
    as clingo counts it, capped or not, and a step bound stops it where the search
    without a memo stops (the steps of a remembered count are charged again)."""
    game, swept, base, session = _grounded(puzzle)
    rolls = [
        base._replace(blocked=game.parse_roll(text, "<test>").blocked)
        for text in MEMO_ROLLS[puzzle]
    ]
    counted = [(roll, session.count(swept.assumptions(roll))) for roll in rolls]
    warm = _fresh_search(game, base)
    for roll, count in [*counted, *reversed(counted)]:
        cold = _fresh_search(game, base)
        assert cold.count(roll.blocked) == count == warm.count(roll.blocked), roll.blocked
        for most in (1, 32, count, count + 1):
            assert warm.count(roll.blocked, most=most) == min(most, count), (roll.blocked, most)
        for steps in (10, 200, 2_000, 20_000):  # some stop the count, some not
            unbounded = _fresh_search(game, base).count(roll.blocked, steps=steps)
            assert warm.count(roll.blocked, steps=steps) == unbounded, (roll.blocked, steps)
            assert unbounded in (None, count), (roll.blocked, steps)
    assert warm.count(rolls[0].blocked, steps=10) is None


def test_without_room_for_the_memo_the_count_is_the_same(monkeypatch):
    """A memo key too wide for a machine word (a larger board) leaves the count without
    one: the same count, searched in full."""
    game, swept, base, _ = _grounded("geniussquare")
    roll = base._replace(blocked=game.parse_roll(MEMO_ROLLS["geniussquare"][0], "<test>").blocked)
    monkeypatch.setattr(dice_search, "MEMO_SLOTS", 1)
    search = _fresh_search(game, base)
    assert search._table[-1].shape[0] == 1
    assert search.count(roll.blocked) == swept.count_in_python(roll)


@pytest.mark.slow
def test_star_counts_agree_with_clingo_on_sampled_rolls():
    game, swept, base, session = _grounded("geniusstar")
    for blocked in game.all_rolls()[::41_000]:
        roll = base._replace(blocked=blocked)
        assert swept.count_in_python(roll) == session.count(swept.assumptions(roll)), blocked


@pytest.mark.parametrize("puzzle", ["geniussquare", "geniusstar"])
def test_compiled_tilings_pass_the_checker_on_every_hundredth_roll(puzzle):
    game, swept, base, _ = _grounded(puzzle)
    for blocked in game.all_rolls()[::100]:
        roll = base._replace(blocked=blocked)
        atoms = swept.first_in_python(roll)
        assert atoms is not None, blocked
        assert game.check(roll, game.decode(roll, atoms)) == [], blocked


def test_placements_that_cannot_be_tiled_are_left_to_clingo():
    """Cells walled in beyond the one monomino, and a free area that is not the
    pieces': the search answers nothing, and clingo proves there is no tiling."""
    game, swept, walled = _roll("geniussquare", "A2 B1 A6 B5 F2 E1 C3")  # A1 and F1 walled in
    session = Session(game, swept.base({}))
    for roll in (walled, walled._replace(blocked=walled.blocked[:6])):
        assert swept.first_in_python(roll) is None
        assert swept.count_in_python(roll) is None
        assert session.first_of(swept, roll) is None
        assert session.count_of(swept, roll) == 0


def test_a_count_past_its_step_bound_is_left_to_clingo():
    game, _, roll = _roll("geniussquare", "B2 D6 C3 F2 F1 D2 F5")
    search = game.tiling_search(roll)
    assert search.count(roll.blocked) == 271
    assert search.count(roll.blocked, steps=10) is None
    assert search.first(roll.blocked, steps=1) is None


def test_without_numba_the_search_runs_in_python_and_clingo_counts(monkeypatch):
    monkeypatch.setattr(dice_search, "compiled", lambda: None)
    monkeypatch.setattr(dice_native, "native", lambda: None)  # built with numba
    game, swept, roll = _roll("geniussquare", "B2 D6 C3 F2 F1 D2 F5")
    assert swept.count_in_python(roll) is None
    atoms = swept.first_in_python(roll)
    assert atoms is not None and game.check(roll, game.decode(roll, atoms)) == []
    assert Session(game, swept.base({})).count_of(swept, roll) == 271


@pytest.mark.parametrize(
    ("puzzle", "roll"), [("geniusstar", STAR_REFERENCE), ("geniussquare", "B2 D6 C3 F2 F1 D2 F5")]
)
def test_a_roll_solved_alone_is_tiled_in_python_and_checked(puzzle, roll):
    solved = solve(puzzle, roll)
    assert solved.status == "solved" and solved.checked and len(solved.solutions) == 1
    assert "python_search_time" in solved.stats and "ground_time" not in solved.stats


def test_a_roll_the_python_search_gives_up_on_is_solved_by_clingo(monkeypatch):
    monkeypatch.setattr(dice_search, "STEPS", 0)
    solved = solve("geniussquare", "B2 D6 C3 F2 F1 D2 F5")
    assert solved.status == "solved" and solved.checked
    assert "python_search_time" not in solved.stats and "ground_time" in solved.stats


def test_an_untileable_roll_solved_alone_is_proved_so_by_clingo():
    unsolved = solve("geniussquare", "A2 B1 A6 B5 F2 E1 C3")  # A1 and F1 walled in
    assert unsolved.status == "unsatisfiable" and "ground_time" in unsolved.stats


def test_an_edited_encoding_gets_no_python_tiling(tmp_path):
    from aspuzzles.paths import find_encoding

    edited = tmp_path / "geniusstar.lp"
    edited.write_text(find_encoding("geniusstar").read_text() + "\n% an edit\n")
    solved = solve("geniusstar", STAR_REFERENCE, encoding=edited)
    assert solved.status == "solved" and "python_search_time" not in solved.stats


def _first_tilings_by(compiled, puzzle: str, step: int):
    game = get_puzzle(puzzle)
    search = game.tiling_search(game.sweep().base({}))
    frees = [search.free_cells(roll) or 0 for roll in game.all_rolls()[::step]]
    return dice_native.first_tilings(compiled, frees, search._left, search._table, 20_000)


def test_the_search_compiled_ahead_of_time_is_built_by_make():
    """``make test`` (and ``make solve``) build it; a sweep then loads no compiler."""
    assert dice_native.native() is not None


@pytest.mark.parametrize(("puzzle", "step"), [("geniussquare", 31), ("geniusstar", 331)])
def test_the_build_made_ahead_of_time_finds_numbas_tilings(puzzle, step):
    ahead = _first_tilings_by(dice_native.native(), puzzle, step)
    jit = _first_tilings_by(dice_search.compiled(), puzzle, step)
    assert ahead[0].tolist() == jit[0].tolist() and (ahead[1] == jit[1]).all()
    assert set(ahead[0].tolist()) <= {1, 0, -1} and 1 in ahead[0]


@pytest.mark.parametrize(
    ("puzzle", "step", "most"),
    [("geniussquare", 997, 0), ("geniusstar", 4999, 0), ("geniussquare", 1999, 32)],
)
def test_the_build_made_ahead_of_time_counts_as_numbas_does(puzzle, step, most):
    """Counting loads no compiler either: the build's count is numba's, roll by roll
    (each with its own memo, as both keep what they counted), capped or not."""
    game = get_puzzle(puzzle)
    search = game.tiling_search(game.sweep().base({}))
    frees = [free for roll in game.all_rolls()[::step] if (free := search.free_cells(roll))]
    counts = {}
    for compiled in (dice_native.native(), dice_search.compiled()):
        table = (*search._table[:-1], search._table[-1].copy())  # a memo of its own
        counts[compiled] = [
            dice_native.count_tilings(compiled, free, search._left, table, 10**9, most)
            for free in frees
        ]
    ahead, jit = counts.values()
    assert ahead == jit and len(ahead) > 20 and max(ahead) > 1
    if most:
        assert max(ahead) == most


def test_a_build_of_another_kernel_is_not_used(monkeypatch):
    """The build is named after the kernel's source: after an edit, numba's own runs."""
    monkeypatch.setattr(dice_native, "digest", lambda: "0" * 16)
    dice_native.native.cache_clear()
    try:
        assert dice_native.native() is None
        game = get_puzzle("geniussquare")
        search = game.tiling_search(game.sweep().base({}))
        assert (dice_native.native() or search.kernel) is dice_search.compiled()
        tiled = search.firsts(game.all_rolls()[::5000])
        assert tiled is not None and tiled.found.all()
    finally:
        dice_native.native.cache_clear()


def test_a_build_that_fails_says_so_in_one_line(monkeypatch, capsys):
    def failing(folder=None):
        raise RuntimeError("unable to find a C compiler\nmore details")

    monkeypatch.setattr(dice_native, "build", failing)
    assert dice_native.main(["--force"]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unable to find a C compiler" in err and "numba" in err


@pytest.mark.slow
def test_building_ahead_of_time_replaces_earlier_builds(tmp_path):
    (tmp_path / f"{dice_native.PREFIX}0123.cpython-311-x86_64-linux-gnu.so").write_text("old")
    built = dice_native.build(tmp_path)
    assert built.name.startswith(dice_native.PREFIX + dice_native.digest())
    assert [p.name for p in tmp_path.iterdir()] == [built.name]
