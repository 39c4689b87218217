"""Reasoning about one instance as a person solving it by hand would: what follows from
the clues and the entries made so far, how hard it is to see, and which clues it rests
on. One grounding serves every question (clingo's multi-shot solving): the clues are
free atoms assumed true, so that a set of them can be dropped by not assuming it, and
the entries made so far are assumptions too.

Three levels of reasoning, the easiest first:

- ``propagation``: the entry holds once clasp has propagated the clues and the entries
  (no guess at all). A propagator reads the assignment at the moment every assumption
  is set and propagated, before the first decision, and ends the solve call there.
- ``trial``: assuming the entry false propagates to a contradiction at once (one trial
  that fails without search: a failed literal).
- ``search``: the entry holds in every solution (a cautious consequence).

The levels belong to the puzzle, not to the questions asked before: clasp forgets the
lemmas it learnt at every solve call (``--forget-on-step=lemmas``), so what propagation
gives does not grow with the searches made on the same grounding.

Why a set of clues an entry rests on is minimal: an unsatisfiable core of the clue
assumptions (with the entry assumed false) is shrunk by dropping each clue in turn and
keeping it out while the entry still follows.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import clingo
from clingo import Symbol
from clingo.propagator import PropagateControl, PropagateInit, Propagator, PropagatorCheckMode

from ..errors import InputError, TimeLimit
from . import solving
from .answered import Answered, symbol_handle, true_bits

PROPAGATION, TRIAL, SEARCH = "propagation", "trial", "search"
LEVELS = (PROPAGATION, TRIAL, SEARCH)
#: Not a level of reasoning: an entry of some solution, where none is forced (a puzzle
#: with several solutions leaves a choice).
CHOICE = "choice"
#: The atom a propagation probe is switched on by (assumed true only while probing).
PROBE = clingo.Function("__aspuzzles_probe")
PROBE_SIGNATURE = ("__aspuzzles_probe", 0)


@dataclass
class _Propagated:
    """What a probe saw: the entries true and false after propagation alone."""

    true: set[Symbol] = field(default_factory=set)
    false: set[Symbol] = field(default_factory=set)


class _Probe(Propagator):
    """Reads the entries' values once every assumption is set and propagated (the
    decision level equals the root level: clasp pushes assumptions as root levels),
    then ends the solve call with a clause that holds for that call only."""

    def __init__(
        self,
        entries: Sequence[tuple[Symbol, int | None]],
        others: Sequence[tuple[Symbol, int | None]],
    ) -> None:
        #: The entries, and the others it maps (the clues, the probe), each with its
        #: program literal (None where the grounding does not hold it), as the reasoner
        #: found them: looking 40,000 entries up again costs a large board 0.2 s.
        self.entries = list(entries)
        self.others = list(others)
        #: Each solver literal's entries (several share one where clasp found them
        #: equivalent, or fixed them before solving).
        self.watch: dict[int, list[Symbol]] = {}
        self.solver: dict[Symbol, int] = {}
        #: The same solver literals by the atoms' program literals (what a question's
        #: assumptions are given to clingo as).
        self.of_program: dict[int, int] = {}
        #: The assumed literals, the last pushed first: until all are set, the check
        #: stops at one of the last, so a probe costs one look per propagation fixpoint.
        self.assumed: list[int] | None = None
        #: Whether a probe records the entries' values (not needed for a trial).
        self.record = True
        #: The literals a probe looks at, with their entries (None: every entry's).
        self.looked_at: list[tuple[int, list[Symbol]]] | None = None
        self.seen: _Propagated | None = None

    def init(self, init: PropagateInit) -> None:
        """Map the entries to solver literals: once, since clingo calls this before
        every solve call and the program, grounded once, does not change. Checks
        are asked for only in a probe's solve call: every other call (a walkthrough
        makes thousands) would call into Python at every fixpoint for nothing (432,260
        calls in a 9x9 Sudoku's walkthrough)."""
        probing = self.assumed is not None
        init.check_mode = PropagatorCheckMode.Fixpoint if probing else PropagatorCheckMode.Off
        if self.solver:
            return
        for symbol, literal in [*self.entries, *self.others]:
            if literal is not None:
                self.solver[symbol] = init.solver_literal(literal)
                self.of_program[literal] = self.solver[symbol]
        self.watch = {}
        for entry, literal in self.entries:
            if literal is not None:
                self.watch.setdefault(self.solver[entry], []).append(entry)

    def literals(self, assumed: Sequence[int]) -> list[int]:
        """The solver literals of the program literals ``assumed`` that are entries,
        clues or the probe's, the others left out."""
        of_program = self.of_program
        return [
            of_program[lit] if lit > 0 else -of_program[-lit]
            for lit in assumed
            if abs(lit) in of_program
        ]

    def check(self, control: PropagateControl) -> None:
        """Called at every propagation fixpoint, so once per assumption pushed: the
        cheapest test first (the probe, the last assumption, is not set yet)."""
        if self.assumed is None or self.seen is not None:
            return
        assignment = control.assignment
        if self.assumed and not assignment.is_true(self.assumed[0]):
            return
        if assignment.decision_level != assignment.root_level:
            return
        if not all(assignment.is_true(literal) for literal in self.assumed):
            return
        if self.record:
            seen = self.seen = _Propagated()
            value = assignment.value  # one call into clingo a literal: the probe's cost
            looked_at = self.watch.items() if self.looked_at is None else self.looked_at
            for literal, entries in looked_at:
                decided = value(literal)
                if decided is not None:
                    (seen.true if decided else seen.false).update(entries)
        else:  # only whether propagation got here without a conflict
            self.seen = _Propagated()
        control.add_clause([-self.solver[PROBE]], tag=True)


Assumption = tuple[Symbol, bool]


class _SolveOptions:
    """The solve options a question sets (models, enumeration mode, a conflict limit),
    written to clingo only when they change: a walkthrough asks thousands of questions
    of one kind, and each write is several calls into clingo (a tenth of a short
    walkthrough's time when every call set and restored them). The Reasoner owns its
    Control, so nothing else reads them between its calls."""

    def __init__(self, settings: clingo.Configuration) -> None:
        self.settings = settings
        #: The conflict limit of a call that asks none: the one given at the start
        #: (``--solve-limit``), or none.
        self.base_limit = str(settings.solve_limit)
        self.current: tuple[int, str, str] = (-1, "", "")

    def set(self, models: int, enum_mode: str, conflicts: int | None) -> None:
        wanted = (models, enum_mode, self.base_limit if conflicts is None else str(conflicts))
        if wanted == self.current:
            return
        if wanted[0] != self.current[0]:
            self.settings.models = str(models)
        if wanted[1] != self.current[1]:
            self.settings.enum_mode = enum_mode
        if wanted[2] != self.current[2]:
            self.settings.solve_limit = wanted[2]
        self.current = wanted


class SearchLimit(Exception):
    """A question given a number of conflicts was not answered within them."""


#: What an identity not looked up yet finds (``Reasoner._program_literal``): an int
#: that is no program literal, so that a lookup's result needs no cast.
_UNKNOWN = -(1 << 62)


class Reasoner:
    """An instance grounded once, asked many questions under assumptions.

    ``facts`` hold whatever is not a clue; ``clues`` are facts that may be dropped
    (each made a free atom, assumed true); ``entries_of`` names the atoms a person
    fills in (the signatures of a puzzle's shown atoms, or of its ``hints`` part's;
    None for every atom that is neither a fact nor a clue), every one that can be true.
    ``program`` is further program text of the instance (a bare encoding's instance:
    its ``#const`` lines and rules)."""

    def __init__(
        self,
        encoding: Path,
        facts: Sequence[Symbol],
        clues: Sequence[Symbol],
        entries_of: Sequence[tuple[str, int]] | None,
        arguments: Sequence[str] = (),
        program: str = "",
    ) -> None:
        messages: list[str] = []
        arguments = ["--models=0", "--forget-on-step=lemmas", *arguments]
        self.control = solving.new_control(arguments, messages, warnings=False)
        try:
            # Facts before the encoding, as ``solving.loaded_control`` adds them.
            solving.add_facts(self.control, facts, choices=clues, externals=[PROBE])
            self.control.load(str(encoding))
            # Consequences are computed over shown atoms only: the entries are shown,
            # whether or not the encoding shows them (the cake's side/3 it does not).
            shows = "".join(f"#show {name}/{arity}." for name, arity in entries_of or ())
            self.control.add("base", [], program + shows)
            # The hints part defines entries that solving has no use for.
            self.control.ground([("base", []), ("hints", [])])
        except RuntimeError as error:
            raise InputError(solving.clingo_error(messages, error, None)) from None
        self.clues = list(dict.fromkeys(clues))
        #: The clues assumed where a question names none (``only``): all of them.
        self.in_force: list[Symbol] = self.clues
        #: The entries' signatures (those named, or found in the grounding).
        self.entry_signatures = self._named_or_found(entries_of, [*facts, *clues])
        entries = self._entries()
        self.entries = [entry for entry, _ in entries]
        self._entry_set = frozenset(self.entries)
        self._literals: dict[Symbol, int | None] = {}
        clue_literals = [(clue, self._looked_up(clue)) for clue in self.clues]
        #: The program literals of the entries and clues by the identity of their
        #: symbol objects (kept alive in ``entries`` and ``clues``, so an identity
        #: found here is theirs): a walkthrough asks for them a million times, and a
        #: symbol's hash is a call into clingo.
        self._by_identity: dict[int, int | None] = {
            id(kept): literal for kept, literal in [*entries, *clue_literals]
        }
        self._own: dict[Symbol, Symbol] | None = None
        probe = self._looked_up(PROBE)
        assert probe is not None  # an external: always in the grounding
        self.probe = _Probe(entries, [*clue_literals, (PROBE, probe)])
        self.control.register_propagator(self.probe)
        #: The probe's program literal: assumed false in every call but a probe's.
        self._probe_literal = probe
        self._options = _SolveOptions(solving.solve_settings(self.control))
        #: What ``core``'s questions found, to answer later ones without a search
        #: (``keep_answers``); None: every question goes to clasp.
        self.answered: Answered | None = None
        self._bits: dict[Symbol, int] = {}
        self._handles: dict[int, int] = {}
        self.solve_calls = 0
        #: When the questions must have been answered (``time.perf_counter()``), if ever,
        #: and the limit it stands for (seconds), for the message.
        self.deadline: float | None = None
        self.time_limit: float | None = None

    def _named_or_found(
        self, entries_of: Sequence[tuple[str, int]] | None, given: Sequence[Symbol]
    ) -> list[tuple[str, int]]:
        """The signatures named, else every signature but the ``given`` facts' (read
        only then: a large board has tens of thousands)."""
        if entries_of is not None:
            return list(entries_of)
        signatures = {(s.name, len(s.arguments)) for s in given}
        return [
            (name, arity)
            for name, arity, positive in self.control.symbolic_atoms.signatures
            if positive and (name, arity) not in signatures and (name, arity) != PROBE_SIGNATURE
        ]

    def _entries(self) -> list[tuple[Symbol, int]]:
        """The entries in order, each with its program literal."""
        atoms = self.control.symbolic_atoms
        found = [
            (atom.symbol, atom.literal)
            for signature in self.entry_signatures
            for atom in atoms.by_signature(*signature)
        ]
        return sorted(found, key=lambda pair: pair[0])

    @contextmanager
    def only(self, clues: Sequence[Symbol]) -> Iterator[None]:
        """Questions asked within assume only ``clues`` of the clues (a generator's
        puzzle, a subset of the candidate clues, on the same grounding)."""
        kept = self.in_force
        self.in_force = list(clues)
        try:
            yield
        finally:
            self.in_force = kept

    # -- the three levels ------------------------------------------------------------
    def propagate(
        self,
        assumptions: Sequence[Assumption],
        clues: Sequence[Symbol] | None = None,
        among: Collection[Symbol] | None = None,
    ) -> _Propagated | None:
        """The entries decided by propagation alone under the assumptions and the clues
        (all of them, unless given), or None if they contradict each other outright.
        With ``among``, only those entries are looked at: a probe reads each entry's
        value with a call into clingo, its main cost on a large board."""
        self.probe.seen = None
        if among is not None:
            wanted = set(among)
            self.probe.looked_at = [
                (literal, [e for e in entries if e in wanted])
                for literal, entries in self.probe.watch.items()
                if any(e in wanted for e in entries)
            ]
        try:
            self._solve(assumptions, probing=True, clues=clues)
        finally:
            self.probe.looked_at = None
        return self.probe.seen

    def fails_at_once(self, assumptions: Sequence[Assumption], trial: Assumption) -> bool:
        """Whether one more assumption propagates to a contradiction (without search)."""
        self.probe.record = False
        try:
            return self.propagate([*assumptions, trial]) is None
        finally:
            self.probe.record = True

    def consequences(
        self, assumptions: Sequence[Assumption], models: int = 0
    ) -> set[Symbol] | None:
        """The entries true in every solution under the assumptions (cautious
        consequences); None if there is no solution. With ``models``, the enumeration
        stops after that many models: the set is then a superset of the consequences
        (every entry outside it is certainly not shared by every solution)."""
        return self.consequences_within(assumptions, models)[0]

    def consequences_within(
        self, assumptions: Sequence[Assumption], models: int = 0, conflicts: int | None = None
    ) -> tuple[set[Symbol] | None, bool]:
        """``consequences`` within ``conflicts`` conflicts, and whether the enumeration
        ended (the set is then the consequences, or None for no solution). Cut short,
        the set is what the solutions found share, a superset of the consequences, and
        None says only that none was found."""
        last: list[Symbol] = []
        result = self._solve(
            assumptions,
            on_model=lambda model: last.__setitem__(slice(None), model.symbols(atoms=True)),
            models=models,
            enum_mode="cautious",
            conflicts=conflicts,
        )
        ended = bool(result.exhausted)
        if not result.satisfiable:
            return None, ended
        return self._entries_among(last), ended

    def possible(
        self, assumptions: Sequence[Assumption], clues: Sequence[Symbol] | None = None
    ) -> set[Symbol] | None:
        """The entries true in some solution under the assumptions and the clues (all
        in force, unless given; the others free): brave consequences. An entry outside
        the set is false in every solution. None if there is no solution."""
        last: list[Symbol] = []
        result = self._solve(
            assumptions,
            clues=clues,
            on_model=lambda model: last.__setitem__(slice(None), model.symbols(atoms=True)),
            enum_mode="brave",
        )
        if not result.satisfiable:
            return None
        return self._entries_among(last)

    def core(
        self,
        fixed: Sequence[Assumption],
        members: Sequence[Assumption],
        conflicts: int | None = None,
    ) -> list[Assumption] | None:
        """The members of an unsatisfiable core of ``fixed`` and ``members`` (clues among
        the members assumed as clues, the other clues free), or None if they have a
        solution. The core is unsatisfiable with ``fixed``, not necessarily minimal.
        With ``conflicts``, a search that needs more conflicts raises SearchLimit.
        Assumptions go to clingo as solver-independent literals, looked up once: a
        question asked thousands of times (a walkthrough) spends no time on symbols."""
        literal = self._program_literal
        identity = self._by_identity.get
        by_literal: dict[int, Assumption] = {}
        assumed: list[int] = []
        # ``fixed`` first, then the members in their order: clasp assigns assumptions
        # in turn, and its core holds those the first conflict needs, so the members
        # early in the list are the ones a core prefers (it is far smaller this way).
        for symbol, value in fixed:
            number = literal(symbol)
            if number is None:
                if value:
                    return []
                continue
            assumed.append(number if value else -number)
        key = tuple(assumed)
        for member in members:
            symbol, value = member
            # ``_program_literal`` written out: this loop runs a million times a walk.
            number = identity(id(symbol), _UNKNOWN)
            if number == _UNKNOWN:
                number = self._looked_up(symbol)
            if number is None:
                if value:  # an atom no rule can make true, assumed true: no solution
                    return [member]
                continue
            signed = number if value else -number
            by_literal[signed] = member
            assumed.append(signed)
        found = self._answer(key, assumed, conflicts)
        if found is None:
            return None
        # The members themselves, not copies (a caller may tell them apart by identity),
        # each once: told apart by their solver literals, not by their symbols (a
        # symbol's hash is a call into clingo).
        return [by_literal[lit] for lit in dict.fromkeys(found) if lit in by_literal]

    def keep_answers(self) -> None:
        """Keep the answer sets ``core``'s questions find, to answer later questions
        they satisfy with no solve call (``driver/answered.py``): worth it where the
        same questions come back (a walkthrough asks about a candidate again after
        every step near it), not where each is asked once (``fix``'s deletion tests,
        where reading each answer set would cost a tenth more). Questions are asked
        about the entries and the clues: they have the bits."""
        if self.answered is not None:
            return
        asked = [*self.entries, *self.clues]
        literals = [self._by_identity[id(atom)] for atom in asked]
        self.answered = Answered(lit for lit in literals if lit is not None)
        bits = self.answered.bits
        self._bits = {
            atom: bits[lit] for atom, lit in zip(asked, literals, strict=True) if lit is not None
        }
        self._handles = {
            handle: bit
            for atom, bit in self._bits.items()
            if (handle := symbol_handle(atom)) is not None
        }

    def _answer(
        self, fixed: tuple[int, ...], assumed: list[int], conflicts: int | None
    ) -> list[int] | None:
        """An unsatisfiable core of the ``assumed`` program literals (``fixed`` the first
        of them), or None where they have an answer set: one kept from an earlier
        question (``keep_answers``), else clasp's, read and kept in its turn."""
        answered = self.answered
        masks = None
        if answered is not None:
            masks = answered.masks(assumed)
            if masks is not None and answered.satisfied(fixed, *masks):
                return None
        found: list[int] = []
        model: list[int] = []

        def read(answer: clingo.Model) -> None:
            model.append(true_bits(answer, self._bits, self._handles))

        result = self._solve(
            (),
            literals=assumed,
            clues=[],
            on_core=found.extend,
            on_model=read if masks is not None else None,
            conflicts=conflicts,
            models=1,
        )
        if result.satisfiable:
            if model and answered is not None:
                answered.keep_model(fixed, model[0])
            return None
        if not result.unsatisfiable:
            raise SearchLimit(f"no answer within {conflicts} conflicts")
        return found

    def trimmed(
        self,
        fixed: Sequence[Assumption],
        core: Sequence[Assumption],
        conflicts: int | None = None,
    ) -> list[Assumption]:
        """A core made smaller by asking again with its members in reverse order, while
        that shrinks it (clasp's core holds the members its first conflict needs, so
        the late members of one order come early in the other): a few solve calls
        that save many deletion tests (on a 15x15 Haunted board a core of all 63 clues
        often comes back as one). Stops where a question runs out of ``conflicts``."""
        kept = list(core)
        for _ in range(3):
            try:
                again = self.core(fixed, kept[::-1], conflicts)
            except SearchLimit:
                break
            if again is None or len(again) >= len(kept):
                break
            kept = again
        return kept

    def own(self, symbols: Sequence[Symbol]) -> list[Symbol]:
        """The symbols as the reasoner's own objects where they are its entries or
        clues (equal, found by identity in ``core``: a question asked thousands of
        times looks them up without a hash, a call into clingo each)."""
        if self._own is None:
            self._own = {kept: kept for kept in [*self.entries, *self.clues]}
        return [self._own.get(symbol, symbol) for symbol in symbols]

    def _assumed(self, assumptions: Sequence[Assumption]) -> list[int]:
        """Assumptions as program literals, each symbol looked up once a grounding
        (given as symbols, clingo looks each up again in every solve call: 432,000
        look-ups in a 15x15 walkthrough). An atom the grounding does not hold, assumed
        true, is a contradiction (1 and -1, as clingo makes it); assumed false, it is
        left out."""
        every: list[int] = []
        for symbol, value in assumptions:
            number = self._program_literal(symbol)
            if number is not None:
                every.append(number if value else -number)
            elif value:
                return [1, -1]
        return every

    def _program_literal(self, symbol: Symbol) -> int | None:
        """A symbol's program literal (None for an atom the grounding does not hold)."""
        found = self._by_identity.get(id(symbol), _UNKNOWN)
        return self._looked_up(symbol) if found == _UNKNOWN else found

    def _looked_up(self, symbol: Symbol) -> int | None:
        known = self._literals
        if symbol not in known:
            atom = self.control.symbolic_atoms[symbol]
            known[symbol] = None if atom is None else atom.literal
        return known[symbol]

    def one_solution(
        self, assumptions: Sequence[Assumption]
    ) -> tuple[list[Symbol], set[Symbol]] | None:
        """Some solution under the assumptions: its shown atoms (for the puzzle to
        decode and check) and the entries true in it; None if there is none."""
        shown: list[Symbol] = []
        true: list[Symbol] = []

        def keep(model: clingo.Model) -> None:
            shown.extend(model.symbols(shown=True))
            true.extend(model.symbols(atoms=True))

        result = self._solve(assumptions, on_model=keep, models=1)
        if not result.satisfiable:
            return None
        return shown, self._entries_among(true)

    def count(self, assumptions: Sequence[Assumption], limit: int) -> int:
        """How many solutions there are under the assumptions, counted up to ``limit``.
        The clues out of force are absent (assumed false), not free: a free clue would
        count each solution once with it and once without."""
        found = 0

        def tally(_: clingo.Model) -> None:
            nonlocal found
            found += 1

        self._solve(self._absent_clues_false(assumptions), on_model=tally, models=limit)
        return found

    def solutions(self, assumptions: Sequence[Assumption], limit: int) -> list[set[Symbol]]:
        """The entries true in each solution under the assumptions, up to ``limit``
        solutions (those ``count`` counts): where fewer are found, these are all."""
        found: list[set[Symbol]] = []

        def keep(model: clingo.Model) -> None:
            found.append(self._entries_among(model.symbols(atoms=True)))

        self._solve(self._absent_clues_false(assumptions), on_model=keep, models=limit)
        return found

    def _entries_among(self, atoms: Iterable[Symbol]) -> set[Symbol]:
        """The entries among a model's atoms (the set of entries made once: a large
        board has 40,000)."""
        entries = self._entry_set
        return {atom for atom in atoms if atom in entries}

    def _absent_clues_false(self, assumptions: Sequence[Assumption]) -> list[Assumption]:
        """The assumptions, and every clue out of force assumed false (``count``)."""
        in_force = set(self.in_force)
        return [*assumptions, *((clue, False) for clue in self.clues if clue not in in_force)]

    def satisfiable(self, assumptions: Sequence[Assumption], clues: Sequence[Symbol]) -> bool:
        """Whether a solution exists with only ``clues`` of the clues assumed."""
        result = self._solve(assumptions, clues=clues, models=1)
        return bool(result.satisfiable)

    def minimal(
        self, assumptions: Sequence[Assumption], droppable: Sequence[Symbol] = ()
    ) -> list[Symbol]:
        """A minimal set of clues and ``droppable`` entries (assumed true) that, with
        the assumptions, has no solution: an unsatisfiable core, shrunk by dropping each
        member while no solution appears. Every member is needed: dropping any one of
        them admits a solution."""
        core = self._core(assumptions, droppable)
        needed = list(core)
        for member in core:
            trial = [kept for kept in needed if kept != member]
            if not self._holds_without(assumptions, trial):
                needed = trial
        return needed

    def _holds_without(self, assumptions: Sequence[Assumption], kept: list[Symbol]) -> bool:
        """Whether a solution exists with only the ``kept`` clues and entries."""
        clues = set(self.clues)
        entries = [(symbol, True) for symbol in kept if symbol not in clues]
        return self.satisfiable([*assumptions, *entries], [s for s in kept if s in clues])

    # -- clingo ----------------------------------------------------------------------
    def _core(self, assumptions: Sequence[Assumption], droppable: Sequence[Symbol]) -> list[Symbol]:
        literal = {}
        for member in [*self.clues, *droppable]:
            atom = self.control.symbolic_atoms[member]
            if atom is not None:
                literal[atom.literal] = member
        found: list[int] = []
        result = self._solve(
            [*assumptions, *((entry, True) for entry in droppable)],
            on_core=found.extend,
            models=1,
        )
        if result.satisfiable:
            return []
        return [literal[lit] for lit in found if lit in literal]

    def _solve(
        self,
        assumptions: Sequence[Assumption],
        *,
        literals: Sequence[int] = (),
        probing: bool = False,
        clues: Sequence[Symbol] | None = None,
        on_model: Callable[[clingo.Model], None] | None = None,
        on_core: Callable[[Sequence[int]], None] | None = None,
        conflicts: int | None = None,
        models: int = 0,
        enum_mode: str = "auto",
    ) -> clingo.SolveResult:
        """One solve call under the assumptions, the program ``literals`` (assumed as
        they are: ``core`` looks its own up) and the clues (all in force, unless
        given), the probe switched on only when ``probing``; ``models``, ``enum_mode``
        and ``conflicts`` hold for this call (``_options``)."""
        self.solve_calls += 1
        assumed_clues = self.in_force if clues is None else clues
        every = self._assumed([*((clue, True) for clue in assumed_clues), *assumptions])
        every.extend(literals)
        if probing:
            every.append(self._probe_literal)
            self.probe.assumed = list(dict.fromkeys(reversed(self.probe.literals(every))))
        else:
            every.append(-self._probe_literal)
            self.probe.assumed = None
        self._options.set(models, enum_mode, conflicts)
        result = solving.solve_until(
            self.control,
            self.deadline,
            assumptions=every,
            on_model=on_model,
            on_core=on_core,
            short=conflicts is not None and conflicts <= solving.SHORT_SEARCH,
        )
        if result is None:
            # Worded as the engine's guard words it, whichever of the two sees it first.
            limit = f" of {self.time_limit:g} s" if self.time_limit is not None else ""
            raise TimeLimit(f"time limit{limit} reached while reasoning")
        return result
