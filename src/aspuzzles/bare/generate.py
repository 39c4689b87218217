"""New puzzles from an encoding alone: ``aspuzzles generate NAME SKELETON``.

The skeleton is an instance holding what every puzzle of the kind shares (``#const
n = 9.``, a region layout). A solution is drawn at random under the seed; the
encoding's ``#program generate.`` part derives from its shown atoms every fact that
could be given as a clue; of those, a set is kept that leaves exactly one solution and
from which none can be dropped (``generating.fewest_clues``), every clue of a kind the
part declares kept (``kept(p, n).``) given whatever; with ``--difficulty``,
proposed at that grade by propagation and kept where its walkthrough grades as asked
(``generating.walked_as``). The
output is the skeleton's text and the chosen clues, one fact a line: an instance that
``aspuzzles solve NAME - --unique`` calls unique. The same seed gives the same puzzle.
"""

from __future__ import annotations

import argparse
import random
import shlex
from typing import TYPE_CHECKING, ClassVar

from clingo import Symbol, SymbolType

from ..capabilities import Generator
from ..driver import load_instance
from ..driver.derivation import RandomSolutions
from ..driver.loading import checked_encoding
from ..errors import InputError, NoSolution
from ..generating import GRADED_DIFFICULTIES, fewest_clues, walked_as
from ..hinting import Grounded, ground_instance
from ..puzzle import Option
from .hints import BareHints

if TYPE_CHECKING:
    from . import BareInstance, BarePuzzle

#: Solutions drawn before a generator asking for a difficulty gives up.
ATTEMPTS = 30
#: ``kept(p, n).`` in the generate part (or a fact of the skeleton): the ``p/n`` clues
#: a solution gives are all kept, never dropped (Hitori's numbers, Killer's sums).
KEPT = "kept"


class BareGenerator(Generator):
    """The generator of an encoding with a ``generate`` part."""

    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "skeleton",
            help="an instance with what every puzzle of the kind shares (#const lines, a "
            "region layout): a file, a name in instances/NAME/, - for standard input, or "
            "the text",
        ),
        Option(
            "--seed", type=int, default=None, help="random seed (the same seed, the same puzzle)"
        ),
        Option(
            "--difficulty",
            choices=GRADED_DIFFICULTIES,
            help="a puzzle whose walkthrough grades as asked (aspuzzles grade "
            "--difficulty): easy, normal, tricky or hard",
        ),
    )

    def __init__(self, puzzle: BarePuzzle) -> None:
        super().__init__(puzzle)
        self.bare = puzzle

    def generate(self, args: argparse.Namespace) -> str:
        declared = self.bare.declared()
        if not declared.generates:
            raise InputError(
                f"encodings/{self.bare.name}.lp has no '#program generate.' part deriving "
                "clues from a solution: nothing to generate from (see docs/encodings.md)"
            )
        skeleton, name = load_instance(self.bare, args.skeleton)
        seed = random.randrange(1_000_000) if args.seed is None else args.seed
        derived = tuple(head for head in declared.generated if head in declared.read)
        if not derived:
            names = ", ".join(f"{name}/{arity}" for name, arity in declared.generated)
            raise InputError(
                f"the generate part derives no atom the encoding reads ({names}): "
                "nothing it derives can be a clue"
            )
        clues = self._clues(skeleton, seed, args.difficulty, derived, (*derived, (KEPT, 2)))
        options = f"--seed {seed}" + (f" --difficulty {args.difficulty}" if args.difficulty else "")
        # The command as it would be typed again: a skeleton given inline, quoted.
        named = "SKELETON" if "\n" in str(args.skeleton) else name
        named = named if named in ("SKELETON", "<stdin>") else shlex.quote(named)
        header = f"% aspuzzles generate {self.bare.name} {named} {options}\n"
        written = skeleton.program if skeleton.written is None else skeleton.written
        body = written.rstrip("\n") + "\n" if written.strip() else ""
        return header + body + "".join(f"{clue}.\n" for clue in clues)

    def _clues(
        self,
        skeleton: BareInstance,
        seed: int,
        difficulty: str | None,
        derived: tuple[tuple[str, int], ...],
        heads: tuple[tuple[str, int], ...],
    ) -> list[Symbol]:
        """The clues of a puzzle drawn as asked (``derived``: the generate part's
        clue predicates; ``heads``: all its heads, ``kept/2`` too): another solution is
        drawn where one's clues cannot single it out, or (with a difficulty) where its
        walkthrough grades otherwise."""
        encoding = checked_encoding(self.bare, None).path
        rng = random.Random(seed)
        solutions = RandomSolutions(
            encoding,
            skeleton.program,
            seed,
            self.bare.clingo_options,
            skeleton.source,
            heads,
        )
        fixed = set(BareHints(self.bare).hint_facts(skeleton))
        drawn: list[list[Symbol]] = []
        several = 0

        def propose(level: str | None) -> BareInstance | None:
            """The fewest clues of a solution drawn (graded ``level`` by propagation,
            where asked), as an instance; None where they cannot be had."""
            nonlocal several
            if solutions.draw() is None:
                raise NoSolution(f"the skeleton has no solution: no {self.bare.name} to generate")
            candidates, kept = _candidates(solutions.clues, fixed, derived)
            ground = ground_instance(self.bare, self._with_clues(skeleton, candidates), None)
            droppable = [clue for clue in candidates if clue not in kept]
            given = _fixed(ground, droppable)
            # The kept clues may do alone (Killer's sums): one question, not one a clue.
            chosen = fewest_clues(ground, given, [], rng, level) if kept else None
            if chosen is None:
                chosen = fewest_clues(ground, given, droppable, rng, level)
            if chosen is None:
                several += _several(ground)
                return None
            picked = kept.union(chosen)
            chosen = [clue for clue in candidates if clue in picked]
            drawn.append(chosen)
            return self._with_clues(skeleton, chosen)

        try:
            if difficulty is not None:
                walked_as(self.bare, propose, difficulty, f"{self.bare.name} puzzle", ATTEMPTS)
                return drawn[-1]
            for _ in range(ATTEMPTS):
                if propose(None) is not None:
                    return drawn[-1]
        except InputError:
            if several < ATTEMPTS:
                raise
        if several == ATTEMPTS:
            raise InputError(
                f"in {ATTEMPTS} solutions drawn, every time all the clues the generate part "
                "derives left more than one solution: it must derive enough to single one out"
            )
        raise InputError(
            f"no unique {self.bare.name} found in {ATTEMPTS} solutions (try another seed "
            "or skeleton)"
        )

    def _with_clues(self, skeleton: BareInstance, clues: list[Symbol]) -> BareInstance:
        from . import BareInstance

        text = skeleton.program.rstrip("\n") + "\n" + "".join(f"{clue}.\n" for clue in clues)
        return BareInstance(text, skeleton.source)


def _signature(atom: Symbol) -> tuple[str, int]:
    return (atom.name, len(atom.arguments))


def _candidates(
    clues: list[Symbol], fixed: set[Symbol], derived: tuple[tuple[str, int], ...]
) -> tuple[list[Symbol], set[Symbol]]:
    """A solution's candidate clues (those the skeleton does not give already), and
    which of them are of a kind declared kept (``kept(p, n).``, in the generate part
    or the skeleton)."""
    kinds = _kept([*fixed, *clues], derived)
    candidates = [clue for clue in clues if _signature(clue) in derived and clue not in fixed]
    names = ", ".join(f"{name}/{arity}" for name, arity in derived)
    if not candidates and any(_signature(clue) in derived for clue in clues):
        raise InputError(
            f"the skeleton gives every clue ({names}) already: it is a puzzle, not a "
            "skeleton; a skeleton holds what the puzzles share (such as #const n = 8. and "
            "a layout), and generate adds the clues"
        )
    if not candidates:
        raise InputError(
            f"the generate part derives no clue ({names}) from a solution: its "
            "rules' bodies never hold in an answer set of the encoding"
        )
    return candidates, {clue for clue in candidates if _signature(clue) in kinds}


def _kept(facts: list[Symbol], derived: tuple[tuple[str, int], ...]) -> set[tuple[str, int]]:
    """The kinds of clue declared always kept (``kept(p, n).``, in the generate part or
    the skeleton); InputError for one that names no clue the generate part derives."""
    kept: set[tuple[str, int]] = set()
    for fact in facts:
        if _signature(fact) != (KEPT, 2):
            continue
        name, arity = fact.arguments
        if name.type != SymbolType.Function or name.arguments or arity.type != SymbolType.Number:
            raise InputError(f"{fact}: a kind of clue kept is written kept(p, n), as kept(sum, 3)")
        if (name.name, arity.number) not in derived:
            clues = ", ".join(f"{p}/{n}" for p, n in derived)
            raise InputError(
                f"{fact} names no clue: the generate part derives {clues}, "
                f"not {name.name}/{arity.number}"
            )
        kept.add((name.name, arity.number))
    return kept


def _several(ground: Grounded) -> bool:
    """Whether every clue derived, all given at once, still leaves several solutions
    (the generate part derives too little, not this solution's bad luck)."""
    return ground.reasoner.count([], 2) > 1


def _fixed(ground: Grounded, candidates: list[Symbol]) -> list[Symbol]:
    """The clues of the grounding that are not candidates: the skeleton's own."""
    chosen = set(candidates)
    return [clue for clue in ground.reasoner.clues if clue not in chosen]
