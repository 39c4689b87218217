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
#: ``structure(p, n).`` in the hints part: the instance's ``p/n`` facts are structure.
STRUCTURE = "structure"


@dataclass(frozen=True)
class Declarations:
    """An encoding's declarations (see the module's docstring)."""

    #: ``#show p/n.`` outside the hints and generate parts: the answer's atoms.
    shown: tuple[Signature, ...] = ()
    #: Whether the answer shows every atom (no ``#show`` statement at all).
    shows_all: bool = True
    #: ``#show p/n.`` in the hints part: the entries, where the answer's atoms are not.
    hint_shown: tuple[Signature, ...] = ()
    #: The instance predicates declared structure (``structure(p, n).``).
    structure: frozenset[Signature] = field(default_factory=frozenset)
    #: The atoms the ``generate`` part derives (its rules' heads): the candidate clues.
    generated: tuple[Signature, ...] = ()

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
    resolved = path.resolve()
    return _read(resolved, resolved.stat().st_mtime_ns)


@lru_cache(maxsize=32)
def _read(path: Path, _modified: int) -> Declarations:
    from clingo import ast

    shown: list[Signature] = []
    hint_shown: list[Signature] = []
    structure: set[Signature] = set()
    generated: list[Signature] = []
    any_show = False
    part = "base"
    messages: list[str] = []

    def take(statement: ast.AST) -> None:
        nonlocal part, any_show
        kind = statement.ast_type
        if kind == ast.ASTType.Program:
            part = statement.name
        elif kind == ast.ASTType.Rule and part == GENERATE_PART:
            generated.extend(_head_signatures(statement.head))
        elif kind in (ast.ASTType.ShowSignature, ast.ASTType.ShowTerm):
            if part == GENERATE_PART:
                return
            signature = _show_signature(statement)
            if part == HINTS_PART:
                if signature is not None:
                    hint_shown.append(signature)
                return
            any_show = True
            if signature is not None:
                shown.append(signature)
        elif part == HINTS_PART and (declared := _structure_fact(statement)) is not None:
            structure.add(declared)

    try:
        ast.parse_files([str(path)], take, logger=lambda _code, message: messages.append(message))
    except RuntimeError:
        first = messages[0] if messages else f"{path}: syntax error"
        raise InputError(clingo_message(first)) from None
    return Declarations(
        tuple(dict.fromkeys(shown)),
        not any_show,
        tuple(dict.fromkeys(hint_shown)),
        frozenset(structure),
        tuple(dict.fromkeys(generated)),
    )


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
