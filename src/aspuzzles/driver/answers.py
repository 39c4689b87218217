"""What a bare encoding's drawing and its ``check`` ask of clingo about one answer.

- ``view_atoms``: the encoding's ``#program view.`` part grounded alone, with the
  instance's program text and an answer's (or a progress's) atoms as facts: the atoms
  that say what the board shows (``aspuzzles.bare.view`` reads them). The encoding's
  ``base`` part is not grounded: the view sees the instance, the atoms handed in and
  its own rules, never the puzzle's choices, so drawing never searches.
- ``check_answer``: the encoding grounded with the instance, solved once under the
  answer's atoms as assumptions (each true, and every other atom of the answer's
  predicates false): whether some answer set shows exactly these atoms, and if not,
  which of them the grounding never holds and an answer set holding them all (where
  one does), to say what the answer misses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import clingo
from clingo import Symbol

from ..declarations import VIEW_PART
from ..errors import InputError
from . import solving

#: The part that says what the board shows.


def _facts(atoms: Sequence[Symbol]) -> str:
    return "".join(f"{atom}.\n" for atom in atoms)


def view_atoms(
    encoding: Path,
    program: str,
    atoms: Sequence[Symbol],
    arguments: Sequence[str] = (),
    source: str | None = None,
) -> list[Symbol]:
    """Every atom of the ``view`` part's (first) answer set, grounded with the
    instance's ``program`` and ``atoms`` as facts (see the module's docstring)."""
    control = _grounded(
        encoding, program + "\n" + _facts(atoms), [VIEW_PART], arguments, source, VIEW_PART
    )
    found: list[Symbol] = []

    def keep(model: clingo.Model) -> None:
        found[:] = model.symbols(atoms=True)

    control.solve(on_model=keep)
    return found


@dataclass
class AnswerCheck:
    """What ``check_answer`` found."""

    #: Whether some answer set shows exactly the answer's atoms (of their predicates).
    valid: bool
    #: The answer's atoms that no grounding of the encoding with the instance holds.
    unknown: list[Symbol] = field(default_factory=list)
    #: The shown atoms of an answer set that holds every atom of the answer (those it
    #: misses are there), where one does; None where none does.
    extended: list[Symbol] | None = None


def _grounded(
    encoding: Path,
    program: str,
    parts: Sequence[str],
    arguments: Sequence[str],
    source: str | None,
    into: str = "base",
) -> clingo.Control:
    """The encoding with ``program`` added to the part ``into``, ``parts`` grounded."""
    messages: list[str] = []
    control = solving.new_control(["--models=1", *arguments], messages, source, warnings=False)
    try:
        control.load(str(encoding))
        control.add(into, [], program)
        control.ground([(part, []) for part in parts])
    except RuntimeError as error:
        raise InputError(solving.clingo_error(messages, error, source)) from None
    return control


def _literals(control: clingo.Control, signatures: Sequence[tuple[str, int]]) -> dict[Symbol, int]:
    literals: dict[Symbol, int] = {}
    for name, arity in set(signatures):
        for atom in control.symbolic_atoms.by_signature(name, arity):
            literals[atom.symbol] = atom.literal
    return literals


def check_answer(
    encoding: Path,
    program: str,
    answer: Sequence[Symbol],
    signatures: Sequence[tuple[str, int]],
    arguments: Sequence[str] = (),
    source: str | None = None,
) -> AnswerCheck:
    """Whether ``answer`` is an answer of the encoding with the instance's ``program``:
    its atoms assumed true, every other ground atom of ``signatures`` (the answer's
    predicates) false."""
    control = _grounded(encoding, program, ["base"], arguments, source)
    literals = _literals(control, signatures)
    unknown = [atom for atom in answer if atom not in literals]
    if unknown:
        return AnswerCheck(False, unknown, None)
    held = set(answer)
    exact = [lit if symbol in held else -lit for symbol, lit in literals.items()]
    if control.solve(assumptions=exact).satisfiable:
        return AnswerCheck(True)
    shown: list[Symbol] = []

    def keep(model: clingo.Model) -> None:
        shown[:] = model.symbols(shown=True)

    positive = [literals[atom] for atom in answer]
    found = control.solve(assumptions=positive, on_model=keep).satisfiable
    return AnswerCheck(False, [], sorted(shown) if found else None)


def whole_answer(
    encoding: Path,
    program: str,
    answer: Sequence[Symbol],
    signatures: Sequence[tuple[str, int]],
    parts: Sequence[str] = ("base", "hints"),
    arguments: Sequence[str] = (),
    source: str | None = None,
) -> list[Symbol] | None:
    """Every atom of the answer set that shows exactly ``answer`` (of ``signatures``),
    with ``parts`` grounded: what a ``hints`` part derives from a solution (Star
    Battle's empty places); None where no answer set shows it."""
    control = _grounded(encoding, program, parts, arguments, source)
    literals = _literals(control, signatures)
    held = set(answer)
    if any(atom not in literals for atom in held):
        return None
    exact = [lit if symbol in held else -lit for symbol, lit in literals.items()]
    atoms: list[Symbol] = []

    def keep(model: clingo.Model) -> None:
        atoms[:] = model.symbols(atoms=True)

    found = control.solve(assumptions=exact, on_model=keep).satisfiable
    return atoms if found else None
