"""What a generator asks of an encoding alone: a solution drawn at random, and the
facts its ``generate`` part derives from that solution (the clues it could give).

The encoding and its ``generate`` part are grounded together, once per generator run,
so that the part may use every predicate the encoding derives (a Skyscrapers clue
counts the buildings the encoding says are ``seen`` from a side), not only the shown
atoms. Solutions are drawn on that grounding by clasp's random decisions
(``--rand-freq=1``, signs drawn too) under a seed, so a seed draws the same solutions
on every run of the same clingo; the clues of a solution are the atoms of the
generate part's heads in the same answer set.
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
    """Solutions of an encoding with an instance's program, drawn at random, each with
    the clues its ``generate`` part derives (``derived``: that part's heads)."""

    def __init__(
        self,
        encoding: Path,
        program: str,
        seed: int,
        arguments: Sequence[str] = (),
        source: str | None = None,
        derived: Sequence[tuple[str, int]] = (),
    ) -> None:
        messages: list[str] = []
        options = ["--models=1", f"--seed={seed % 2**31}", "--rand-freq=1", "--sign-def=rnd"]
        self.control = solving.new_control([*options, *arguments], messages, source)
        parts: list[tuple[str, list[clingo.Symbol]]] = [("base", [])]
        if derived:
            parts.append((GENERATE_PART, []))
        try:
            self.control.load(str(encoding))
            self.control.add("base", [], program)
            self.control.ground(parts)
        except RuntimeError as error:
            raise InputError(solving.clingo_error(messages, error, source)) from None
        self.source = source
        self.messages = messages
        self.derived = set(derived)
        #: The clues of the solution drawn last (``draw``).
        self.clues: list[Symbol] = []

    def draw(self, deadline: float | None = None) -> list[Symbol] | None:
        """The shown atoms of a solution drawn at random; None if there is none. Its
        clues (the atoms of the generate part's heads in the same answer set, but the
        shown ones) are kept in ``clues``."""
        shown: list[Symbol] = []
        clues: list[Symbol] = []

        def keep(model: clingo.Model) -> None:
            shown[:] = model.symbols(shown=True)
            clues[:] = [
                atom
                for atom in model.symbols(atoms=True)
                if (atom.name, len(atom.arguments)) in self.derived
            ]

        result = solving.solve_until(self.control, deadline, on_model=keep)
        if result is None:
            raise TimeLimit("time limit reached while drawing a solution")
        inputs = set(shown)
        self.clues = sorted(atom for atom in clues if atom not in inputs)
        return shown if result.satisfiable else None
