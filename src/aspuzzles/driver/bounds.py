"""A puzzle's lower bound on the steps a plan still needs, applied inside clingo's search.

Some bounds are cheap in Python and costly in ASP (capture's sideways travel is a
shortest-path computation over an automaton, per class, per tick). clingo's propagator
interface lets the search ask Python at the right moments instead: whenever the
encoding's ``ready(T)`` atom becomes true, the state at tick T is read off the
assignment, the puzzle's :class:`~aspuzzles.puzzle.StepBound` says whether the steps
the budget leaves can finish the plan, and if not, a nogood cuts this partial plan and
every other that reaches the same state with as many steps made. clingo keeps the
nogood like one it learned, so it serves later paths too.

The module knows nothing of any puzzle: predicates and the bound come from the
puzzle's ``StepBound``; the budget is the planning protocol's ``query(N)``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from clingo import PropagateControl, PropagateInit, Symbol, SymbolType
from clingo.propagator import Propagator

from ..strategy import State, StepBound

#: The planning protocol's budget atom (see ``puzzle.Incremental``).
QUERY = "query"


def _value(symbol: Symbol) -> Any:
    """An argument as Python sees it: numbers as ints, constants as their names."""
    if symbol.type == SymbolType.Number:
        return symbol.number
    if symbol.type == SymbolType.Function and not symbol.arguments:
        return symbol.name
    return str(symbol)


@dataclass(eq=False)
class _Tick:
    """The solver literals of one tick: its state atoms and its step counters."""

    state: list[tuple[str, tuple[Any, ...], int]] = field(default_factory=list)
    made: list[tuple[int, int]] = field(default_factory=list)  # (M, literal of made(T,M))


class StepBoundPropagator(Propagator):
    """Cuts partial plans whose state needs more steps than the budget leaves."""

    def __init__(self, bound: StepBound) -> None:
        self.bound = bound
        self.ticks: dict[int, _Tick] = {}
        self.ready: dict[int, set[int]] = {}  # literal of ready(T) -> ticks T
        self.queries: list[tuple[int, int]] = []  # (N, literal of query(N))
        self.arguments: dict[int, tuple[Any, ...]] = {}  # program literal -> arguments
        #: How often a state was bounded, and how often that cut the plan.
        self.checked = self.cut = 0

    # -- clingo's propagator interface ---------------------------------------------
    def init(self, init: PropagateInit) -> None:
        """Map the atoms of every tick grounded so far (called before each solve)."""
        self.ticks, self.queries = {}, []
        for arguments, literal in self._atoms(init, QUERY, 1):
            self.queries.append((arguments[0], literal))
        for name, arity in self.bound.state:
            for arguments, literal in self._atoms(init, name, arity):
                tick = self.ticks.setdefault(arguments[0], _Tick())
                tick.state.append((name, arguments[1:], literal))
        for (tick, made), literal in self._atoms(init, self.bound.made, 2):
            self.ticks.setdefault(tick, _Tick()).made.append((made, literal))
        for (tick,), literal in self._atoms(init, self.bound.ready, 1):
            if literal not in self.ready:
                init.add_watch(literal)
            self.ready.setdefault(literal, set()).add(tick)

    def propagate(self, control: PropagateControl, changes: Sequence[int]) -> None:
        assignment = control.assignment
        budget = next(
            ((n, literal) for n, literal in self.queries if assignment.is_true(literal)), None
        )
        if budget is None:
            return
        for literal in changes:
            for tick in self.ready.get(literal, ()):
                if tick in self.ticks and not self._bound(control, tick, *budget):
                    return

    # -- the bound -------------------------------------------------------------------
    def _bound(self, control: PropagateControl, tick: int, budget: int, query: int) -> bool:
        """Bound the state at ``tick``; False when the nogood added conflicts (clingo
        then backtracks, and propagation must stop)."""
        assignment = control.assignment
        atoms = self.ticks[tick]
        made = [(m, lit) for m, lit in atoms.made if assignment.is_true(lit)]
        if not made:
            return True
        steps, made_literal = max(made)
        state: State = {name: [] for name, _ in self.bound.state}
        for name, arguments, literal in atoms.state:
            value = assignment.value(literal)
            if value is None:  # not yet complete: nothing to say
                return True
            if value:
                state[name].append(arguments)
        self.checked += 1
        rests_on = self.bound.refute(state, budget - steps, steps)
        if rests_on is None:
            return True
        self.cut += 1
        nogood = [made_literal, query]
        for name, arguments, literal in atoms.state:
            if rests_on(name, arguments):
                nogood.append(literal if assignment.is_true(literal) else -literal)
        return control.add_nogood(nogood)

    def _atoms(
        self, init: PropagateInit, name: str, arity: int
    ) -> Iterator[tuple[tuple[Any, ...], int]]:
        """The atoms name/arity: their arguments as Python values, and solver literals.
        An atom's arguments are decoded once, by its program literal, which stays the
        same from one solve call to the next (init runs before each)."""
        for atom in init.symbolic_atoms.by_signature(name, arity):
            literal = atom.literal
            arguments = self.arguments.get(literal)
            if arguments is None:
                arguments = tuple(_value(argument) for argument in atom.symbol.arguments)
                self.arguments[literal] = arguments
            yield arguments, init.solver_literal(literal)
