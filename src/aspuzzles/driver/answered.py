"""Questions answered by answer sets found before, without a search.

A walkthrough asks one grounding tens of thousands of questions "do these assumptions
have an answer set?", most of them about one candidate (its negation fixed, a set of
clues and known entries around it), and asks about the same candidate again after every
step that touches it. An answer set found for one question is an answer set of any later
question whose assumptions it satisfies: the program does not change. So each answer set
found is kept as the entries and clues true in it, as a bit mask, a few dozen for each
fixed part, the latest first, and a question one of them satisfies is answered at once.
On a 15x15 Haunted board's walkthrough half the questions that have an answer set are
answered this way. Only the entries and the clues have bits: a question about another
atom goes to clasp.

Cores are not kept to answer later questions, though a core is a core of any assumptions
that contain it: clasp's core of a question favours the members asked first (the
nearest), and a core found under another order made the walkthroughs' reasons longer (a
10x10 board's steps cost 1,867 in all instead of 468).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Sequence
from functools import reduce
from operator import or_

import clingo
from clingo import Symbol

#: Answer sets kept for each set of fixed assumptions: the latest are the
#: likeliest to answer the next question (a candidate's neighbourhood changes little
#: from one step to the next), and checking one costs two operations on integers.
KEPT = 64
#: Bits of answer sets kept in all (8 MB): the fixed parts asked about least recently
#: are let go first. A 15x15 Haunted board's walkthrough keeps some 20,000 answer sets
#: of 414 bits; a board of 10,000 entries keeps 6,700.
BUDGET_BITS = 1 << 26


class Answered:
    """Answer sets kept by the fixed assumptions they were found under."""

    def __init__(self, atoms: Iterable[int]) -> None:
        #: Each atom's bit by its program literal (atoms that share one, one bit).
        self.bits: dict[int, int] = {}
        for atom in atoms:
            self.bits.setdefault(atom, 1 << len(self.bits))
        self._models: OrderedDict[tuple[int, ...], list[int]] = OrderedDict()
        self._most = max(KEPT, BUDGET_BITS // max(1, len(self.bits)))
        self._kept = 0
        #: Questions answered by a kept answer set.
        self.answered = 0

    def masks(self, literals: Sequence[int]) -> tuple[int, int] | None:
        """The bits of the literals assumed true and of those assumed false, or None
        where one is not about an atom with a bit."""
        bits = self.bits
        true = false = 0
        for literal in literals:
            if literal > 0:
                bit = bits.get(literal)
                if bit is None:
                    return None
                true |= bit
            else:
                bit = bits.get(-literal)
                if bit is None:
                    return None
                false |= bit
        return true, false

    def satisfied(self, fixed: tuple[int, ...], true: int, false: int) -> bool:
        """Whether an answer set kept under ``fixed`` satisfies the assumptions."""
        for model in self._models.get(fixed, ()):
            if not (true & ~model) and not (false & model):
                self.answered += 1
                return True
        return False

    def keep_model(self, fixed: tuple[int, ...], model: int) -> None:
        """An answer set found under ``fixed``: the bits of the atoms true in it."""
        kept = self._models.setdefault(fixed, [])
        self._models.move_to_end(fixed)
        kept.insert(0, model)  # the latest first
        self._kept += 1
        if len(kept) > KEPT:
            kept.pop()
            self._kept -= 1
        while self._kept > self._most:
            _, oldest = self._models.popitem(last=False)
            self._kept -= len(oldest)


def true_bits(model: clingo.Model, bits: dict[Symbol, int], by_rep: dict[int, int]) -> int:
    """The bits of the atoms true in the model (``bits`` by symbol; ``by_rep``, the same
    by clingo's own handle of the symbol, a number: clingo keeps one of each symbol).
    The model's atoms are read as those numbers straight from clingo's C library where
    its Python bindings expose it: a symbol object made for each true atom, and hashed
    (a call into clingo), would cost more than the questions the model answers."""
    found = 0
    handles = _atom_handles(model) if _lib is not None else None
    if handles is None:  # bindings without cffi's library object, or a call refused
        for atom in model.symbols(atoms=True):
            found |= bits.get(atom, 0)
        return found
    # The atoms with a bit found by one set operation in C, then or-ed together: half
    # the time of a Python loop over the model's atoms (a 15x15 Haunted board's
    # grounding has 1,546 atoms, 414 of them entries or clues with a bit).
    return reduce(or_, map(by_rep.__getitem__, by_rep.keys() & handles), 0)


def _atom_handles(model: clingo.Model) -> list[int] | None:
    """The handles of the model's true atoms, or None where clingo refuses a call. The
    buffers are the call's own: cffi lets go of Python's lock around a C call, so two
    threads' walkthroughs (a server's) may read models at once."""
    show = _lib.clingo_show_type_atoms
    size = _ffi.new("size_t*")
    if not _lib.clingo_model_symbols_size(model._rep, show, size):
        return None
    atoms = _ffi.new("clingo_symbol_t[]", size[0])
    if not _lib.clingo_model_symbols(model._rep, show, atoms, size[0]):
        return None
    handles: list[int] = _ffi.unpack(atoms, size[0])
    return handles


def symbol_handle(symbol: Symbol) -> int | None:
    """clingo's own handle of a symbol (see ``true_bits``), None where the bindings
    do not show it."""
    return getattr(symbol, "_rep", None) if _lib is not None else None


try:  # clingo's C library as its Python bindings (cffi) load it
    from clingo._internal import _ffi, _lib
except ImportError:  # pragma: no cover - other bindings
    _lib = None
