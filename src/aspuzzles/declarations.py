"""What an encoding declares about itself, read with clingo's own parser: which atoms
are a person's entries, which instance facts are fixed structure rather than clues,
and whether it can turn a solution into clues (a ``generate`` part).

The declarations are plain clingo, in two program parts that solving never grounds:

- ``#program hints.`` (grounded by ``hint``, ``explain`` and ``grade``): rules that
  define entries a person fills in but the answer does not show (Star Battle's empty
  cells); ``#show p/n.`` there names the entries (instead of the answer's shown
  atoms); a fact ``structure(p, n).`` says that the instance's ``p/n`` facts are the
  board's shape (regions, sizes), never dropped by an explanation nor hinted as reasons.
- ``#program generate.`` (grounded by ``generate``): rules that derive from a
  solution's shown atoms every fact that could be given as a clue.

Without them, the entries are the answer's shown atoms and every fact of the instance
is a clue.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from .errors import InputError, clingo_message

Signature = tuple[str, int]

#: The part grounded only to reason about a person's entries.
HINTS_PART = "hints"
#: The part grounded only to derive candidate clues from a solution.
GENERATE_PART = "generate"
#: The part grounded alone to derive what a bare encoding's board shows.
VIEW_PART = "view"
#: ``structure(p, n).`` in the hints part: the instance's ``p/n`` facts are structure.
STRUCTURE = "structure"


@dataclass(frozen=True)
class Declarations:
    """An encoding's declarations (see the module's docstring)."""

    #: ``#show p/n.`` in the base part: the answer's atoms.
    shown: tuple[Signature, ...] = ()
    #: Whether the answer shows every atom (no ``#show`` statement at all).
    shows_all: bool = True
    #: ``#show p/n.`` in the hints part: the entries, where the answer's atoms are not.
    hint_shown: tuple[Signature, ...] = ()
    #: The instance predicates declared structure (``structure(p, n).``).
    structure: frozenset[Signature] = field(default_factory=frozenset)
    #: The atoms the ``generate`` part derives (its rules' heads): the candidate clues.
    generated: tuple[Signature, ...] = ()
    #: Whether the program asks for the best answers (``#minimize``, ``#maximize``,
    #: weak constraints): hints and generation, which are about every answer, are off.
    optimizes: bool = False
    #: Whether a ``#program view.`` part declares the board.
    views: bool = False
    #: The constants the encoding defines (``#const n = 9.``): an instance that defines
    #: one too overrides it (``asp.overriding``).
    constants: frozenset[str] = field(default_factory=frozenset)
    #: The predicates the encoding reads (in a rule's body, a condition of its head, or
    #: a ``#minimize``) outside its hints, generate and view parts: the instance facts
    #: it can be given, so what a generate part derives that is none of them is its
    #: own helper, never a clue.
    read: frozenset[Signature] = field(default_factory=frozenset)

    @property
    def generates(self) -> bool:
        """Whether a ``#program generate.`` part derives anything."""
        return bool(self.generated)

    @property
    def entries(self) -> tuple[Signature, ...] | None:
        """The entries' signatures; None where they are every atom the answer shows
        (an encoding without ``#show``)."""
        if self.hint_shown:
            return self.hint_shown
        return None if self.shows_all else self.shown


def declarations(path: Path) -> Declarations:
    """The declarations of the encoding at ``path`` (and the files it includes)."""
    from .asp import program_texts

    resolved = path.resolve()
    for _ in program_texts(resolved):  # a FIFO included is refused before clingo waits on it
        pass
    return _read(resolved, resolved.stat().st_mtime_ns)


@lru_cache(maxsize=32)
def _read(path: Path, _modified: int) -> Declarations:
    from clingo import ast

    reader = _Reader()
    messages: list[str] = []
    try:
        ast.parse_files([str(path)], reader.take, logger=lambda _c, m: messages.append(m))
    except RuntimeError:
        first = messages[0] if messages else f"{path}: syntax error"
        raise InputError(clingo_message(first)) from None
    return reader.declarations()


class _Reader:
    """The declarations gathered statement by statement, in the part each is in."""

    def __init__(self) -> None:
        self.part = "base"
        self.shown: list[Signature] = []
        self.hint_shown: list[Signature] = []
        self.structure: set[Signature] = set()
        self.generated: list[Signature] = []
        self.any_show = False
        self.optimizes = False
        self.views = False
        self.constants: set[str] = set()
        self.read: set[Signature] = set()

    def take(self, statement: object) -> None:
        from clingo import ast

        assert isinstance(statement, ast.AST)
        kind = statement.ast_type
        if kind in (ast.ASTType.Rule, ast.ASTType.Minimize) and self.part not in (
            HINTS_PART,
            GENERATE_PART,
            VIEW_PART,
        ):
            _atom_signatures(statement.body, self.read)
            for element in getattr(getattr(statement, "head", None), "elements", ()):
                _atom_signatures(element.condition, self.read)
        if kind == ast.ASTType.Program:
            self.part = statement.name
            self.views = self.views or self.part == VIEW_PART
        elif kind in (ast.ASTType.ShowSignature, ast.ASTType.ShowTerm):
            self._show(statement)
        elif kind == ast.ASTType.Definition:
            self.constants.add(statement.name)
        elif kind == ast.ASTType.Minimize and self.part not in (HINTS_PART, GENERATE_PART):
            self.optimizes = True
        elif kind == ast.ASTType.Rule and self.part == GENERATE_PART:
            self.generated.extend(_head_signatures(statement.head))
        elif self.part == HINTS_PART and (declared := _structure_fact(statement)) is not None:
            self.structure.add(declared)

    def _show(self, statement: object) -> None:
        signature = _show_signature(statement)
        if self.part == HINTS_PART:
            if signature is not None:
                self.hint_shown.append(signature)
        elif self.part == "base":  # another part's atoms (tiles' score) are not the answer
            self.any_show = True
            if signature is not None:
                self.shown.append(signature)

    def declarations(self) -> Declarations:
        return Declarations(
            tuple(dict.fromkeys(self.shown)),
            not self.any_show,
            tuple(dict.fromkeys(self.hint_shown)),
            frozenset(self.structure),
            tuple(dict.fromkeys(self.generated)),
            self.optimizes,
            self.views,
            frozenset(self.constants),
            frozenset(self.read),
        )


def _atom_signatures(node: object, found: set[Signature]) -> None:
    """The signatures of the atoms in a piece of a program's syntax tree, into ``found``."""
    from clingo import ast

    if isinstance(node, ast.ASTSequence):
        for item in node:
            _atom_signatures(item, found)
    elif not isinstance(node, ast.AST):
        return
    elif node.ast_type == ast.ASTType.SymbolicAtom:
        term = node.symbol
        if term.ast_type == ast.ASTType.Function:
            found.add((str(term.name), len(term.arguments)))
        elif term.ast_type == ast.ASTType.SymbolicTerm and term.symbol.type.name == "Function":
            found.add((term.symbol.name, len(term.symbol.arguments)))
    else:
        for key in node.child_keys:
            _atom_signatures(getattr(node, key), found)


def _head_signatures(head: object) -> list[Signature]:
    """The signatures of the atoms a rule's head may derive."""
    from clingo import ast

    assert isinstance(head, ast.AST)
    literals = [head] if head.ast_type == ast.ASTType.Literal else []
    if head.ast_type in (ast.ASTType.Aggregate, ast.ASTType.Disjunction):
        literals = [element.literal for element in head.elements]
    found = []
    for literal in literals:
        if literal.atom.ast_type != ast.ASTType.SymbolicAtom:
            continue
        term = literal.atom.symbol
        if term.ast_type == ast.ASTType.Function:
            found.append((str(term.name), len(term.arguments)))
        elif term.ast_type == ast.ASTType.SymbolicTerm and term.symbol.type.name == "Function":
            found.append((term.symbol.name, len(term.symbol.arguments)))
    return found


def _show_signature(statement: object) -> Signature | None:
    """``#show p/n.`` as (p, n); None for ``#show.`` and ``#show t : body.``."""
    from clingo import ast

    assert isinstance(statement, ast.AST)
    if statement.ast_type != ast.ASTType.ShowSignature or not statement.name:
        return None
    return (str(statement.name), int(statement.arity))


def _structure_fact(statement: object) -> Signature | None:
    """``structure(p, n).`` as (p, n); None for any other statement."""
    from clingo import SymbolType, ast

    assert isinstance(statement, ast.AST)
    if statement.ast_type != ast.ASTType.Rule or statement.body:
        return None
    head = statement.head
    if head.ast_type != ast.ASTType.Literal or head.atom.ast_type != ast.ASTType.SymbolicAtom:
        return None
    term = head.atom.symbol
    if term.ast_type != ast.ASTType.Function or term.name != STRUCTURE:
        return None
    if len(term.arguments) != 2:
        return None
    name, arity = (
        argument.symbol if argument.ast_type == ast.ASTType.SymbolicTerm else None
        for argument in term.arguments
    )
    if name is None or arity is None or arity.type != SymbolType.Number:
        return None
    if name.type != SymbolType.Function or name.arguments:
        return None
    return (name.name, arity.number)
