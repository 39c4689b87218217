"""One grounding, many variants: the multi-shot session behind sweeps."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import clingo
from clingo import Symbol

from ..errors import InputError
from ..puzzle import Puzzle, Solution
from . import loading, results, solving
from .jobs import (
    Job,
)

if TYPE_CHECKING:
    from ..capabilities import Sweep


class Session:
    """Ground once, then solve many variants of one instance under assumptions.

    The encoding declares the atoms that vary as ``#external``; each call assigns them
    through assumptions (true or false), so a batch of thousands of variants costs one
    grounding (clingo's multi-shot solving, as in its examples).
    """

    def __init__(
        self,
        game: Puzzle[Any, Any],
        parsed: Any,
        clingo_args: Sequence[str] = (),
        encoding: str | Path | None = None,
    ) -> None:
        self.game = game
        used = loading.checked_encoding(game, encoding)
        #: Whether the encoding is the shipped one, unedited: only then may a search in
        #: Python that restates its rules answer first (``first``).
        self.shipped = used.standing == loading.SHIPPED
        self._parsed, self._encoding, self._clingo_args = parsed, used.path, clingo_args
        self._literals: dict[Symbol, int] = {}
        if not self.shipped:
            self.control  # noqa: B018  (an edited encoding's errors are told at once)

    @cached_property
    def _job(self) -> Job:
        """What clingo grounds, made with the grounding: a sweep's facts take a good
        part of its command's start-up, and its own search never needs them."""
        game, parsed = self.game, self._parsed
        return Job(
            encoding=str(self._encoding),
            facts=list(game.facts(parsed)),
            program=game.strategy(parsed).program(),
            arguments=solving.solver_arguments(game, 1, self._clingo_args),
            models=1,
            count_only=False,
            timeout=None,
            incremental=None,
        )

    @cached_property
    def control(self) -> clingo.Control:
        """The grounding, made when clingo is first asked: with the shipped encoding, a
        sweep whose own search answers every variant never needs it."""
        job, messages = self._job, list[str]()
        try:
            control = solving.loaded_control(job, messages)
            control.ground([("base", [])])
        except RuntimeError as error:
            raise InputError(solving.clingo_error(messages, error, job.program_source)) from None
        # Externals are false until assigned; set them free so assumptions decide them.
        for atom in control.symbolic_atoms:
            if atom.is_external:
                control.assign_external(atom.symbol, None)
        return control

    def _literals_of(self, assumptions: Sequence[tuple[Symbol, bool]]) -> list[Any]:
        """The assumptions as program literals: clingo takes a list of numbers without
        looking each atom up again, which for thousands of variants is a good part of
        a small solve call's cost. Where an atom is not in the grounding, the
        assumptions go as they are, for clingo to judge."""
        literals = []
        for symbol, value in assumptions:
            literal = self._literals.get(symbol)
            if literal is None:
                atom = self.control.symbolic_atoms[symbol]
                literal = self._literals[symbol] = atom.literal if atom is not None else 0
            if not literal:
                return list(assumptions)
            literals.append(literal if value else -literal)
        return literals

    def first(self, variant: Any, assumptions: Sequence[tuple[Symbol, bool]]) -> Solution | None:
        """The first solution of a variant (checked against it), or None if it has none."""
        found = self.solutions(variant, assumptions, models=1)
        return found[0] if found else None

    def first_of(self, sweep: Sweep[Any], variant: Any) -> Solution | None:
        """A sweep's variant's first solution: where the encoding is the shipped one,
        the sweep's own search in Python first (``Sweep.first_in_python``, checked like
        clingo's answers); then, or where it finds nothing, clingo under the variant's
        assumptions."""
        if self.shipped:
            atoms = sweep.first_in_python(variant)
            if atoms is not None:
                return results.checked_solution(self.game, variant, [], atoms)
        return self.first(variant, sweep.assumptions(variant))

    def load_for(self, sweep: Sweep[Any], variant: Any, counting: bool) -> None:
        """A variant solved, and for a count counted up to one solution, for what the
        work loads before a memory limit applies (see ``spread``): a count may run a
        search of its own that a first solution does not load."""
        self.first_of(sweep, variant)
        if counting:
            self.count_of(sweep, variant, most=1)

    def firsts_of(self, sweep: Sweep[Any], variants: Sequence[Any]) -> list[bool]:
        """Whether each of a sweep's variants has a solution: where the encoding is the
        shipped one and the sweep has a search over many variants at once, they are
        searched in one go, the solutions found checked in one go
        (``Sweep.check_in_bulk``), and clingo asked of each variant that search leaves
        undecided; otherwise each as ``first_of`` asks."""
        answers = sweep.firsts_in_bulk(variants) if self.shipped else None
        if answers is None:
            return [self.first_of(sweep, variant) is not None for variant in variants]
        results.check_bulk(self.game, sweep.check_in_bulk(variants, answers))
        return [
            known
            if known is not None
            else self.first(variant, sweep.assumptions(variant)) is not None
            for known, variant in zip(answers.found, variants, strict=True)
        ]

    def solutions(
        self, variant: Any, assumptions: Sequence[tuple[Symbol, bool]], models: int = 1
    ) -> list[Solution]:
        """Up to ``models`` solutions of a variant (0 for all), each checked against it."""
        return self.search(variant, assumptions, models)[0]

    def count_of(self, sweep: Sweep[Any], variant: Any, most: int = 0) -> int:
        """A sweep's variant's number of solutions (up to ``most``, if not 0: that many
        means that many or more): where the encoding is the shipped one, the sweep's
        own count outside clingo first (``Sweep.count_in_python``); then, or where it
        gives none, clingo's count under the variant's assumptions."""
        if self.shipped:
            found = sweep.count_in_python(variant, most)
            if found is not None:
                return found
        return self.count(sweep.assumptions(variant), most)

    def count(self, assumptions: Sequence[tuple[Symbol, bool]], most: int = 0) -> int:
        """How many solutions a variant has (every answer set, as ``solve --count``
        counts them), read from clingo's statistics: no answer is copied into Python,
        so a variant with thousands of solutions costs only their enumeration. With
        ``most``, the count stops there (``most`` means that many or more)."""
        settings = solving.solve_settings(self.control)
        settings.models, settings.enum_mode = most, "bt"  # backtracking: nothing recorded
        try:
            result = solving.solve_until(self.control, assumptions=self._literals_of(assumptions))
        finally:
            settings.enum_mode = "auto"
        assert result is not None  # no deadline
        return int(self.control.statistics["summary"]["models"]["enumerated"])

    def search(
        self,
        variant: Any,
        assumptions: Sequence[tuple[Symbol, bool]],
        models: int = 1,
        conflicts: int | None = None,
    ) -> tuple[list[Solution], bool]:
        """Up to ``models`` solutions of a variant, and whether the search was complete
        (``models`` found, or none left to find). ``conflicts`` stops the search after
        that many conflicts: a bound that a seed repeats on every machine, where a time
        limit would make a generator's output depend on the machine's speed."""
        solving.solve_settings(self.control).models = models
        shown: list[list[Symbol]] = []
        result = solving.solve_until(
            self.control,
            conflicts=conflicts,
            assumptions=self._literals_of(assumptions),
            on_model=lambda model: shown.append(list(model.symbols(shown=True))),
        )
        assert result is not None  # no deadline
        found = [results.checked_solution(self.game, variant, [], symbols) for symbols in shown]
        complete = bool(result.exhausted) or (models > 0 and len(found) >= models)
        return found, complete
