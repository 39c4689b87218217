"""Questions answered by answer sets found before (``driver.answered``): a kept answer
set answers exactly the questions it satisfies, and a reasoner that answers from them
gives clasp's answer to every question."""

from __future__ import annotations

import random

import clingo
import pytest

from aspuzzles.driver import answered
from aspuzzles.driver.answered import KEPT, Answered
from aspuzzles.driver.reasoning import Reasoner


def _bits(kept: Answered, *atoms: int) -> int:
    found = 0
    for atom in atoms:
        found |= kept.bits[atom]
    return found


def test_a_kept_answer_set_answers_the_questions_it_satisfies_only() -> None:
    kept = Answered([1, 2, 3, 4])
    fixed = (-1,)
    kept.keep_model(fixed, _bits(kept, 2, 4))  # 1 and 3 false in it
    asks = {
        (-1, 2): True,
        (-1, 2, 4, -3): True,
        (-1,): True,
        (-1, 3): False,  # 3 is false in it
        (-1, -2): False,  # 2 is true in it
        (-1, 2, -4): False,
    }
    for literals, answers in asks.items():
        masks = kept.masks(list(literals))
        assert masks is not None
        assert kept.satisfied(fixed, *masks) is answers, literals
    # Kept under its own fixed assumptions only; an atom with no bit is not answered.
    masks = kept.masks([1, 2])
    assert masks is not None
    assert not kept.satisfied((1,), *masks)
    assert kept.masks([-1, 5]) is None


def test_only_the_latest_answer_sets_are_kept() -> None:
    kept = Answered(range(1, KEPT + 3))
    fixed = (-1,)
    kept.keep_model(fixed, _bits(kept, 2))
    masks = kept.masks([2])
    assert masks is not None
    assert kept.satisfied(fixed, *masks)
    for atom in range(3, KEPT + 3):
        kept.keep_model(fixed, _bits(kept, atom))
    assert not kept.satisfied(fixed, *masks)  # the first was let go
    newest = kept.masks([KEPT + 2])
    assert newest is not None
    assert kept.satisfied(fixed, *newest)


@pytest.fixture(scope="module")
def board() -> tuple[Reasoner, set[clingo.Symbol]]:
    from aspuzzles.hinting.grounding import ground_instance, loaded
    from aspuzzles.registry import get_puzzle

    game = get_puzzle("haunted")
    reasoner = ground_instance(game, loaded(game, "gen-5x5-s3")[0], None).reasoner
    reasoner.keep_answers()
    found = reasoner.one_solution([])
    assert found is not None
    return reasoner, found[1]


def _questions(reasoner: Reasoner, solution: set[clingo.Symbol], seed: int) -> list:
    """Questions as a walkthrough asks them: a candidate's negation fixed, members drawn
    from the clues and from entries valued as in the solution or not, each asked again
    with members left out (as deletion tests do)."""
    rng = random.Random(seed)
    asked = []
    for _ in range(40):
        candidate = rng.choice(reasoner.entries)
        fixed = [(candidate, candidate not in solution)]
        members = [(clue, True) for clue in rng.sample(reasoner.clues, rng.randint(0, 8))]
        for entry in rng.sample(reasoner.entries, rng.randint(0, 12)):
            members.append((entry, (entry in solution) != (rng.random() < 0.2)))
        for _ in range(6):
            asked.append((fixed, list(members)))
            if members:
                members.pop(rng.randrange(len(members)))
    return asked


def test_a_reasoner_answering_from_kept_answer_sets_agrees_with_clasp(board) -> None:
    reasoner, solution = board
    from aspuzzles.hinting.grounding import ground_instance, loaded
    from aspuzzles.registry import get_puzzle

    game = get_puzzle("haunted")
    clasp_only = ground_instance(game, loaded(game, "gen-5x5-s3")[0], None).reasoner
    assert clasp_only.answered is None  # every question to clasp: none kept unless asked
    assert reasoner.answered is not None
    before = reasoner.answered.answered
    for fixed, members in _questions(reasoner, solution, 3):
        ours = reasoner.core(fixed, members)
        theirs = clasp_only.core(fixed, members)
        assert (ours is None) == (theirs is None), (fixed, members)
    assert reasoner.answered.answered > before  # some were answered from kept ones


def test_a_question_a_kept_answer_set_answers_costs_no_solve_call(board) -> None:
    reasoner, solution = board
    candidate = next(entry for entry in reasoner.entries if entry in solution)
    fixed = [(candidate, True)]
    members = [(entry, entry in solution) for entry in reasoner.entries[:6] if entry != candidate]
    assert reasoner.core(fixed, members) is None  # the solution is one
    calls = reasoner.solve_calls
    assert reasoner.core(fixed, members[:3]) is None
    assert reasoner.solve_calls == calls


def test_an_answer_set_is_read_the_same_without_clingos_c_library(board, monkeypatch) -> None:
    reasoner, _ = board
    read: list[int] = []
    slow: list[int] = []

    def both(model: clingo.Model) -> None:
        read.append(answered.true_bits(model, reasoner._bits, reasoner._handles))
        with monkeypatch.context() as patched:
            patched.setattr(answered, "_lib", None)
            slow.append(answered.true_bits(model, reasoner._bits, reasoner._handles))

    reasoner._solve([], on_model=both, models=1)
    assert read == slow
    assert read[0] != 0


def test_the_answer_sets_kept_in_all_stay_within_a_budget(monkeypatch) -> None:
    monkeypatch.setattr(answered, "BUDGET_BITS", 4 * KEPT)
    kept = Answered([1, 2, 3, 4])  # four bits an answer set: KEPT of them in all
    for atom in range(1, 5):
        for _ in range(KEPT):
            kept.keep_model((-atom,), _bits(kept, atom))
    masks = kept.masks([4])
    assert masks is not None
    assert kept.satisfied((-4,), *masks)  # the latest fixed part kept
    first = kept.masks([1])
    assert first is not None
    assert not kept.satisfied((-1,), *first)  # the oldest let go
    assert sum(len(models) for models in kept._models.values()) <= KEPT


def test_walkthroughs_in_two_threads_at_once_walk_as_one_alone() -> None:
    """Answer sets are read through buffers of each call's own (clingo's C calls let go
    of Python's lock), so two threads' walkthroughs (a server's requests) keep the
    answer sets they found, not each other's."""
    from concurrent.futures import ThreadPoolExecutor

    import aspuzzles

    boards = ["gen-7x7-s5", "gen-6x6-s4"]
    alone = [aspuzzles.walkthrough("haunted", board).to_dict() for board in boards]
    with ThreadPoolExecutor(2) as pool:
        together = list(pool.map(lambda board: aspuzzles.walkthrough("haunted", board), boards))
    assert [walk.to_dict() for walk in together] == alone
