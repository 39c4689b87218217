"""What a generator asks of an encoding alone: a solution drawn at random, and the
facts its ``generate`` part derives from that solution (the clues it could give).

Both ground the encoding once per generator run: solutions are drawn on one grounding
by clasp's random decisions (``--rand-freq=1``, signs drawn too) under a seed, so a
seed draws the same solutions on every run of the same clingo.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import clingo
from clingo import Symbol

from ..declarations import GENERATE_PART
from ..errors import InputError, TimeLimit
from . import solving


class RandomSolutions:
    """Solutions of an encoding with an instance's program, drawn at random."""

    def __init__(
        self,
        encoding: Path,
        program: str,
        seed: int,
        arguments: Sequence[str] = (),
        source: str | None = None,
    ) -> None:
        messages: list[str] = []
        options = ["--models=1", f"--seed={seed % 2**31}", "--rand-freq=1", "--sign-def=rnd"]
        self.control = solving.new_control([*options, *arguments], messages, source)
        try:
            self.control.load(str(encoding))
            self.control.add("base", [], program)
            self.control.ground([("base", [])])
        except RuntimeError as error:
            raise InputError(solving.clingo_error(messages, error, source)) from None
        self.source = source
        self.messages = messages

    def draw(self, deadline: float | None = None) -> list[Symbol] | None:
        """The shown atoms of a solution drawn at random; None if there is none."""
        shown: list[Symbol] = []

        def keep(model: clingo.Model) -> None:
            shown[:] = model.symbols(shown=True)

        result = solving.solve_until(self.control, deadline, on_model=keep)
        if result is None:
            raise TimeLimit("time limit reached while drawing a solution")
        return shown if result.satisfiable else None


def derived_clues(
    encoding: Path,
    program: str,
    solution: Sequence[Symbol],
    derived: Sequence[tuple[str, int]],
    source: str | None = None,
) -> list[Symbol]:
    """The facts of the ``derived`` signatures (the heads of the encoding's
    ``generate`` part) that it derives from a solution's shown atoms and the
    instance's program (a skeleton): the clues a generated puzzle may give, in clingo's
    order. Only the generate part is grounded; what it was given is not a candidate."""
    messages: list[str] = []
    control = solving.new_control([], messages, source, warnings=False)
    given = "".join(f"{atom}.\n" for atom in solution)
    try:
        control.load(str(encoding))
        control.add(GENERATE_PART, [], program + given)
        control.ground([(GENERATE_PART, [])])
    except RuntimeError as error:
        raise InputError(solving.clingo_error(messages, error, source)) from None
    inputs = set(solution)
    atoms = control.symbolic_atoms
    facts = [
        atom.symbol
        for signature in dict.fromkeys(derived)
        for atom in atoms.by_signature(*signature)
        if atom.is_fact and atom.symbol not in inputs
    ]
    return sorted(facts)
