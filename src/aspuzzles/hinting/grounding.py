"""An instance grounded for reasoning, and a player's progress read: what every
question (hint, explain, grade) starts from."""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clingo import Symbol

from ..asp import split_facts
from ..capabilities import Hints
from ..declarations import Declarations, declarations
from ..driver import load_instance
from ..driver.guard import note_phase
from ..driver.loading import checked_encoding
from ..driver.reasoning import Reasoner
from ..errors import CheckFailed, InputError, TimeLimit, check_number_lengths
from ..paths import display_path, referenced_text
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
    #: The instance's facts that are not clues (the board's shape): what says which
    #: entries are given (``given_entries``) whatever clues are in force.
    structure: tuple[Symbol, ...] = ()


def ground_instance(
    game: Puzzle[Any, Any],
    instance: Any,
    encoding: str | Path | None,
    timeout: float | None = None,
    options: Sequence[str] = (),
) -> Grounded:
    """The instance grounded for reasoning, with what holds without any clue (given
    entries, which are never hints). Clues stay assumptions even where none is dropped
    (grading): as facts the grounder would simplify them away, and a step's level
    could then differ from the hint's. ``options``: clingo's, after the puzzle's."""
    puzzle = hintable(game)
    used = checked_encoding(game, encoding)
    declared = declarations(used.path)
    facts = list(puzzle.hint_facts(instance))
    signed = [(fact, (fact.name, len(fact.arguments))) for fact in facts]  # each read once
    clues = [fact for fact, signature in signed if signature not in declared.structure]
    others = [fact for fact, signature in signed if signature in declared.structure]
    entries_of = _entry_signatures(declared, {signature for _, signature in signed}, used.path)
    _kept_entry_kinds(game, puzzle, entries_of, used.path)
    started = time.perf_counter()
    note_phase("grounding")
    program = puzzle.hint_program(instance)
    arguments = [*game.clingo_options, *options]
    reasoner = Reasoner(used.path, others, clues, entries_of, arguments, program)
    note_phase("reasoning")
    if timeout is not None:
        reasoner.deadline, reasoner.time_limit = started + timeout, timeout
        if time.perf_counter() > reasoner.deadline:  # worded as the engine's guard words it
            raise TimeLimit(f"time limit of {timeout:g} s reached while grounding")
    instance = puzzle.with_entries(instance, reasoner.entries)
    given = given_entries(reasoner, others)
    return Grounded(game, puzzle, instance, reasoner, given, used.standing, tuple(others))


def given_entries(reasoner: Reasoner, structure: Iterable[Symbol] | None = None) -> set[Symbol]:
    """The entries a person finds made: those that the board's ``structure`` (the
    instance's facts that are not clues) states outright and that hold without any
    clue (Haunted's given monster, ``monster(2,2,ghost)`` for ``given(2,2,ghost)``),
    and those that the clues in force state outright (``_restated``).

    An entry that the structure only forces (a Norinori region of two cells shades
    both; a board of regions and no clue at all forces every entry) is the player's
    to find, a hint like any other: the regions are that puzzle's clues. Without
    ``structure`` (not known to the caller), every entry that holds without any clue
    counts as given."""
    without_clues = reasoner.propagate([], clues=[])
    given = set() if without_clues is None else without_clues.true
    if structure is not None and given:  # a large board's structure is read only if needed
        stating = {tuple(fact.arguments) for fact in structure}
        given = {entry for entry in given if tuple(entry.arguments) in stating}
    return given | _restated(reasoner)


def _restated(reasoner: Reasoner) -> set[Symbol]:
    """The entries that clues state outright: an entry with a clue's very arguments
    (``cell(1,1,5)`` for ``given(1,1,5)``) that the clues in force of that kind place by
    propagation. A person sees them on the board as given, so they are never hints."""
    clue_arities = {len(clue.arguments) for clue in reasoner.in_force}
    if not any(arity in clue_arities for _, arity in reasoner.entry_signatures):
        return set()  # no clue has an entry's arguments (read no entry's: tens of thousands)
    by_arguments: dict[tuple[Symbol, ...], list[Symbol]] = {}
    for entry in reasoner.entries:
        by_arguments.setdefault(tuple(entry.arguments), []).append(entry)
    stating = [clue for clue in reasoner.in_force if tuple(clue.arguments) in by_arguments]
    if not stating:
        return set()
    stated = {e for clue in stating for e in by_arguments[tuple(clue.arguments)]}
    seen = reasoner.propagate([], clues=stating, among=stated)
    return set() if seen is None else stated & seen.true


def _entry_signatures(
    declared: Declarations, given: set[tuple[str, int]], encoding: Path
) -> list[tuple[str, int]] | None:
    """The entries' signatures: the hints part's shown ones as declared; else the
    answer's, less those of the instance's facts (an answer that shows its givens
    again does not make them entries). An encoding that shows only terms (``#show
    t : body.``) names no entry kind: a one-line error says how to declare them."""
    if declared.hint_shown:
        return list(declared.hint_shown)
    if declared.entries is None:
        return None
    entries = [signature for signature in declared.entries if signature not in given]
    if not entries:
        raise InputError(
            "no kind of entry to hint: the encoding shows no predicate of its own with "
            "'#show p/n.' (declare the entries with '#show p/n.' in a '#program hints.' "
            "part)",
            display_path(encoding),
        )
    return entries


def _kept_entry_kinds(
    game: Puzzle[Any, Any],
    puzzle: Hints[Any, Any],
    entries: list[tuple[str, int]] | None,
    encoding: Path,
) -> None:
    """Refuse an encoding whose entries are not of the kinds the puzzle's hints slot
    reads (``Hints.entry_kinds``): an edit that shows other atoms would have them read,
    drawn and checked as entries they are not."""
    kinds = puzzle.entry_kinds
    if kinds is None or (entries is not None and set(entries) == set(kinds)):
        return
    expected = ", ".join(f"{name}/{arity}" for name, arity in kinds)
    found = "every atom" if entries is None else ", ".join(f"{n}/{a}" for n, a in entries)
    raise InputError(
        f"its entries are {found}, not {expected} as {game.name}'s hints read them: an "
        "edited encoding keeps the shipped one's entries (its '#show' lines)",
        display_path(encoding),
    )


def places(entry: Symbol) -> list[tuple[int, Symbol]]:
    """Where an entry is, as a person reads a board: each argument but the last (the
    value) at its position (a row, a column); an entry of one argument is a place of
    its own. Entries that share a place are near each other (a walkthrough's and a
    fix's reasons are sought among them first)."""
    arguments = entry.arguments
    return list(enumerate(arguments[:-1])) if len(arguments) >= 2 else [(-1, entry)]


def value_of(entry: Symbol) -> Symbol:
    """An entry's value: its last argument (the entry itself where it has none)."""
    arguments = entry.arguments
    return arguments[-1] if arguments else entry


def read_progress(
    game: Puzzle[Any, Any], instance: Any, reference: str | None, ground: Grounded | None = None
) -> list[Symbol]:
    """A player's progress from a file, ``-`` (standard input) or the text itself; with
    ``ground``, an atom that is not one of its entries' kinds is refused (a bare
    encoding's progress is any fact file: ``cel(1,2,3)`` is most likely a typo)."""
    if reference is None:
        return []
    text, source = referenced_text(reference)
    check_number_lengths(text, source)
    try:
        entries = hintable(game).parse_progress(instance, text, source)
    except InputError:
        written = _entry_facts(text, source, ground) if ground is not None else None
        if written is None:
            raise
        entries = written
    if ground is not None:
        _refuse_foreign(ground, entries, text, source)
    return entries


def _refuse_foreign(ground: Grounded, entries: list[Symbol], text: str, source: str) -> None:
    """Refuse, naming it, an entry that is not one of the grounding's: of no entry's
    kind (``cel(1,2,3)``, most likely a typo), or of an entry's kind but not one this
    board can hold (off the board, a value no place takes, a place no entry fills):
    a person's slip, said as such, not a question the reasoner could answer."""
    kinds = _entry_kinds(ground)
    possible = set(ground.reasoner.entries)
    for entry in entries:
        if entry in possible:
            continue
        line = _line_of(text, entry)
        if (entry.name, len(entry.arguments)) not in kinds:
            listed = ", ".join(f"{name}/{arity}" for name, arity in sorted(kinds)) or "none"
            raise InputError(f"{entry} is not an entry (entries: {listed})", source, line)
        raise InputError(
            f"{entry} is not an entry this board can hold (off the board, or a value "
            "no place there takes)",
            source,
            line,
        )


#: Text that opens with an atom's name and its parenthesis (comments aside) is meant as facts.
_FACT_START = re.compile(r"\A(?:\s*%[^\n]*\n)*\s*[a-z_][A-Za-z0-9_']*\s*\(")


def _entry_facts(text: str, source: str, ground: Grounded) -> list[Symbol] | None:
    """Progress written as facts (``monster(1,2,ghost).``), which every puzzle reads
    besides its own formats; None where the text is not that. Facts that are not
    entries are refused by the caller, naming the fact (not the puzzle's own format,
    which the writer evidently did not mean)."""
    try:
        facts, rest = split_facts(text, source)
    except InputError:
        if _FACT_START.match(text):
            raise  # meant as facts: clingo's reading says what is wrong with them
        return None
    symbols = [fact.symbol for fact in facts]
    if rest or not symbols:
        return None
    return symbols


def _entry_kinds(ground: Grounded) -> set[tuple[str, int]]:
    """The signatures of the grounding's entries."""
    return {(entry.name, len(entry.arguments)) for entry in ground.reasoner.entries}


def _line_of(text: str, atom: Symbol) -> int | None:
    """The first line that writes the atom (spaces aside), if any."""
    written = str(atom)
    for number, line in enumerate(text.splitlines(), 1):
        if written in line.replace(" ", "").replace("\t", ""):
            return number
    return None


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


def check_in_solution(
    ground: Grounded,
    kept: list[Symbol],
    entries: list[Symbol],
    what: str,
    ruled_out: Iterable[Symbol] = (),
) -> None:
    """A solution that keeps the ``kept`` entries (and holds none ``ruled_out``),
    decoded and passed by the puzzle's checker, and each of ``entries`` read from it in
    Python (``entry_holds``): what a hint, a repair or a walkthrough says is checked by
    code that shares nothing with the encoding. ``what`` names the answer in the
    errors ("a hint")."""
    name = ground.game.name
    assumed = [(entry, True) for entry in kept] + [(entry, False) for entry in ruled_out]
    found = ground.reasoner.one_solution(assumed)
    if found is None:
        raise CheckFailed(f"{what} of '{name}' leaves no solution")
    solution = ground.game.decode(ground.instance, found[0])
    problems = ground.game.check(ground.instance, solution)
    if problems:
        raise CheckFailed(f"the solution behind {what} of '{name}': {problems[0]}")
    for entry in entries:
        if not ground.puzzle.entry_holds(ground.instance, solution, entry):
            raise CheckFailed(f"{what} of '{name}' is not in a checked solution: {entry}")
