"""An instance grounded for reasoning, and a player's progress read: what every
question (hint, explain, grade) starts from."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clingo import Symbol

from ..capabilities import Hints
from ..driver import load_instance
from ..driver.guard import note_phase
from ..driver.loading import checked_encoding
from ..driver.reasoning import Reasoner
from ..errors import TimeLimit, check_number_lengths
from ..paths import referenced_text
from ..puzzle import Puzzle
from .reports import hintable


@dataclass
class Grounded:
    game: Puzzle[Any, Any]
    puzzle: Hints[Any, Any]
    instance: Any
    reasoner: Reasoner
    given: set[Symbol]
    #: The encoding's standing: ``shipped``, ``edited`` or ``own`` (a bare encoding).
    standing: str = "shipped"


def ground_instance(
    game: Puzzle[Any, Any],
    instance: Any,
    encoding: str | Path | None,
    timeout: float | None = None,
) -> Grounded:
    """The instance grounded for reasoning, with what holds without any clue (given
    entries, which are never hints). Clues stay assumptions even where none is dropped
    (grading): as facts the grounder would simplify them away, and a step's level
    could then differ from the hint's."""
    puzzle = hintable(game)
    facts = list(puzzle.hint_facts(instance))
    clues = [fact for fact in facts if puzzle.is_clue(fact)]
    others = [fact for fact in facts if not puzzle.is_clue(fact)]
    used = checked_encoding(game, encoding)
    started = time.perf_counter()
    note_phase("grounding")
    reasoner = Reasoner(used.path, others, clues, puzzle.entry, game.clingo_options)
    note_phase("reasoning")
    if timeout is not None:
        reasoner.deadline = started + timeout
        if time.perf_counter() > reasoner.deadline:
            raise TimeLimit("time limit reached while grounding")
    without_clues = reasoner.propagate([], clues=[])
    given = set() if without_clues is None else without_clues.true
    return Grounded(game, puzzle, instance, reasoner, given, used.standing)


def read_progress(game: Puzzle[Any, Any], instance: Any, reference: str | None) -> list[Symbol]:
    """A player's progress from a file, ``-`` (standard input) or the text itself."""
    if reference is None:
        return []
    text, source = referenced_text(reference)
    check_number_lengths(text, source)
    return hintable(game).parse_progress(instance, text, source)


def complete(ground: Grounded, progress: list[Symbol]) -> bool:
    seen = ground.reasoner.propagate([(entry, True) for entry in progress])
    return seen is not None and not any(
        entry not in seen.true and entry not in seen.false for entry in ground.reasoner.entries
    )


def loaded(puzzle: Puzzle[Any, Any], instance: str | Path | None) -> tuple[Any, str]:
    """The instance of a puzzle that gives hints (a one-line error for one that does
    not), parsed, and its name."""
    hintable(puzzle)
    return load_instance(puzzle, instance)
