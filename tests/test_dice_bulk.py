"""Checking a sweep's tilings in bulk (``kit/dice_bulk``): every tiling the compiled
search finds passes, each kind of corrupted answer the one-by-one checker rejects is
rejected too, and a sweep whose answers are rejected stops with the checker's line."""

from __future__ import annotations

import numpy as np
import pytest

from aspuzzles import CheckFailed
from aspuzzles.driver import Session
from aspuzzles.kit import dice_bulk, dice_search
from aspuzzles.kit.dice_bulk import COUNT, COVERED, FINE, GAP, OUTSIDE, OVERLAP, SHAPE, mask_of
from aspuzzles.kit.dice_search import TilingSearch
from aspuzzles.registry import get_puzzle


def _tiled(puzzle: str, step: int):
    """A sample of the puzzle's rolls, each tiled by the compiled search in one call."""
    game = get_puzzle(puzzle)
    swept = game.sweep()
    base = swept.base({})
    variants = [base._replace(blocked=roll) for roll in game.all_rolls()[::step]]
    answers = swept.firsts_in_bulk(variants)
    assert answers is not None and all(answers.found)
    return game, swept, variants, answers


def _check(game, variants, tiled, blocked=None):
    if blocked is None:
        blocked = [mask_of(v.blocked) for v in variants]
    return game.bulk_checker.check(blocked, tiled.found, tiled.masks, tiled.shapes, tiled.names)


@pytest.mark.parametrize(("puzzle", "step"), [("geniussquare", 97), ("geniusstar", 1009)])
def test_every_tiling_found_in_bulk_passes_both_checkers(puzzle, step):
    """The bulk checker and the one-by-one checker agree on every sampled roll."""
    game, swept, variants, answers = _tiled(puzzle, step)
    assert swept.check_in_bulk(variants, answers) == {}
    tiled = answers.answers
    for row in range(0, len(variants), 7):
        cells: dict[int, str] = {}
        copies: dict[str, int] = {}  # twins named apart as a decoded answer names them
        for mask, shape in zip(tiled.masks[row], tiled.shapes[row], strict=True):
            placed = [cell for cell in range(1, 64) if int(mask) >> (cell - 1) & 1]
            cells.update(game.name_cells(tiled.names[shape], placed, copies))
        assert game.check(variants[row], game.as_tiling(variants[row], cells)) == []


def _corrupt(puzzle: str = "geniussquare"):
    """One roll's good tiling, as arrays to spoil (one row)."""
    game, _, variants, answers = _tiled(puzzle, 5003)
    tiled = answers.answers
    one = tiled._replace(found=tiled.found[:1], masks=tiled.masks[:1].copy())
    return game, variants[:1], one._replace(shapes=tiled.shapes[:1].copy())


def _column(tiled, name: str) -> int:
    return [tiled.names[s] for s in tiled.shapes[0]].index(name)


def test_a_good_tiling_is_fine():
    game, variants, tiled = _corrupt()
    assert _check(game, variants, tiled).tolist() == [FINE]


def test_overlapping_pieces_are_rejected():
    game, variants, tiled = _corrupt()
    lone = _column(tiled, "M1")
    domino = _column(tiled, "D2")
    domino_cells = int(tiled.masks[0, domino])
    tiled.masks[0, lone] = domino_cells & -domino_cells  # the monomino on the domino
    assert _check(game, variants, tiled).tolist() == [OVERLAP]


def test_a_gap_is_rejected():
    game, variants, tiled = _corrupt()
    tiled.masks[0, _column(tiled, "M1")] = 0  # the monomino taken away
    assert _check(game, variants, tiled).tolist() == [GAP]


def test_a_piece_off_the_board_is_rejected():
    game, variants, tiled = _corrupt()
    tiled.masks[0, _column(tiled, "M1")] = 1 << 40  # the square has 36 cells
    assert _check(game, variants, tiled).tolist() == [OUTSIDE]


def test_a_covered_blocker_is_rejected():
    game, variants, tiled = _corrupt()
    lone = int(tiled.masks[0, _column(tiled, "M1")])
    blocked = [mask_of(variants[0].blocked) | lone]  # the monomino's cell blocked too
    assert _check(game, variants, tiled, blocked).tolist() == [COVERED]


def test_a_piece_of_another_shape_is_rejected():
    game, variants, tiled = _corrupt()
    lone, domino = _column(tiled, "M1"), _column(tiled, "D2")
    tiled.shapes[0, lone], tiled.shapes[0, domino] = tiled.shapes[0, domino], tiled.shapes[0, lone]
    assert _check(game, variants, tiled).tolist() == [SHAPE]
    unknown = tiled._replace(names=("NOPE",) * len(tiled.names))
    assert _check(game, variants, unknown).tolist() == [SHAPE]


def test_a_wrong_piece_count_is_rejected():
    """The 2x2 square laid as two dominoes: every piece a true shape, the cells covered
    once each, but two dominoes and no square."""
    game, variants, tiled = _corrupt()
    square = _column(tiled, "O4")
    cells = [c for c in range(36) if int(tiled.masks[0, square]) >> c & 1]
    pairs = [(a, b) for a in cells for b in cells if b in (a + 1, a + 6)]
    first = next(p for p in pairs if cells[0] in p)
    second = [c for c in cells if c not in first]
    masks = np.concatenate([tiled.masks, np.zeros((1, 1), np.int64)], axis=1)
    shapes = np.concatenate([tiled.shapes, np.zeros((1, 1), np.int64)], axis=1)
    masks[0, square] = (1 << first[0]) | (1 << first[1])
    masks[0, -1] = (1 << second[0]) | (1 << second[1])
    shapes[0, square] = shapes[0, -1] = tiled.names.index("D2")
    doubled = tiled._replace(masks=masks, shapes=shapes)
    assert _check(game, variants, doubled).tolist() == [COUNT]
    missing = tiled.masks.copy()
    missing[0, square] = 0
    assert _check(game, variants, tiled._replace(masks=missing)).tolist() == [GAP]


def test_the_star_checks_its_twins_and_cells_past_the_square():
    """The star's 48 cells and its pair of triiamonds (one shape, two pieces)."""
    game, variants, tiled = _corrupt("geniusstar")
    assert _check(game, variants, tiled).tolist() == [FINE]
    twins = [n for n, s in enumerate(tiled.shapes[0]) if tiled.names[s] == "T3"]
    assert len(twins) == 2
    tiled.shapes[0, twins[0]] = tiled.names.index("D2")
    assert _check(game, variants, tiled).tolist() == [SHAPE]


def test_counting_bits_without_numpys_own(monkeypatch):
    words = np.array([[0, 1, (1 << 47) | 5, -1]], np.int64)
    assert dice_bulk.popcount(words).tolist() == [[0, 1, 3, 64]]
    monkeypatch.delattr(np, "bitwise_count", raising=False)
    assert dice_bulk.popcount(words).tolist() == [[0, 1, 3, 64]]


def test_a_golden_star_sweep_is_checked_one_by_one():
    """The golden star's hexagon rule is known to the one-by-one checker only."""
    game = get_puzzle("geniusstar")
    swept = game.sweep()
    base = swept.base({"golden": True})
    assert swept.firsts_in_bulk([base._replace(blocked=game.all_rolls()[0])]) is None


def _overlapping(tiled):
    tiled.masks[:, 0] |= tiled.masks[:, 1]
    return tiled


def _misnamed(tiled):
    return tiled._replace(names=("NOPE",) * len(tiled.names))


@pytest.mark.parametrize(
    ("spoil", "broken"),
    [(_overlapping, "two pieces overlap"), (_misnamed, "a piece is not the shape it is named")],
)
def test_rejected_answers_stop_a_sweep_with_the_checkers_line(
    monkeypatch, cli, tmp_path, spoil, broken
):
    """A search that covers a cell twice, or names its pieces wrongly: the session
    refuses its answers, and the command says so in one line, exit 4, naming the roll
    and the rule broken."""
    real = TilingSearch.firsts

    def spoilt(self, rolls, steps=None):
        return spoil(real(self, rolls, steps))

    monkeypatch.setattr(TilingSearch, "firsts", spoilt)
    game = get_puzzle("geniussquare")
    swept = game.sweep()
    base = swept.base({})
    variants = [base._replace(blocked=roll) for roll in game.all_rolls()[:3]]
    with pytest.raises(CheckFailed, match=rf"rejected 3 answer.*roll A1 .*{broken}"):
        Session(game, base).firsts_of(swept, variants)
    result = cli("sweep", "geniussquare", "--limit", "40", "--jobs", "1", "-o", tmp_path / "r.tsv")
    assert result.code == 4
    assert "checker rejected" in result.err and "Traceback" not in result.err


def _census_placements(puzzle: str, count: int):
    """Placements of a census (blockers anywhere, many with no tiling), spread out."""
    from itertools import combinations, islice

    game = get_puzzle(puzzle)
    swept = game.sweep()
    base = swept.base({})
    cells = len(game.board())
    chosen = islice(combinations(range(1, cells + 1), 7), 0, None, 104_729)
    return game, swept, base, [base._replace(blocked=p) for p in islice(chosen, count)]


@pytest.mark.parametrize("steps", [dice_search.COMPILED_STEPS, 40])
@pytest.mark.parametrize("puzzle", ["geniussquare", "geniusstar"])
def test_bulk_verdicts_are_clingos_on_placements_with_and_without_tilings(
    puzzle, steps, monkeypatch
):
    """What the compiled search settles (a tiling, or none after trying every
    placement) is clingo's verdict too; with a tiny step bound most placements are left
    undecided and clingo settles them."""
    monkeypatch.setattr(dice_search, "COMPILED_STEPS", steps)
    game, swept, base, variants = _census_placements(puzzle, 80)
    session = Session(game, base)
    answers = swept.firsts_in_bulk(variants)
    assert False in answers.found and True in answers.found
    if steps == 40:
        assert None in answers.found
    by_clingo = [session.first(v, swept.assumptions(v)) is not None for v in variants]
    assert session.firsts_of(swept, variants) == by_clingo
    assert [known for known in answers.found if known is not None] == [
        clingo for known, clingo in zip(answers.found, by_clingo, strict=True) if known is not None
    ]
