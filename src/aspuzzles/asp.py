"""Reading ASP fact files in Python, with line numbers for error messages.

Puzzles that accept instances as facts (the Haunted seed's format, for one) need the
facts in Python to precompute geometry, and need to point at the offending line when a
fact is wrong. clingo's own parser does the reading; a small evaluator turns each
ground fact (with ``#const`` names and integer arithmetic) into a :class:`clingo.Symbol`.
"""

from __future__ import annotations

import codecs
import operator
import os
import re
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import suppress
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from clingo import Function, Number, Symbol, SymbolType, parse_term

from .errors import InputError, clingo_message
from .paths import NOT_A_FILE, display_path, read_text_file, special_file

if TYPE_CHECKING:  # clingo.ast is imported where facts are read, not by every command
    from clingo import ast

#: How many symbols ``number`` and ``constant`` keep.
SYMBOLS_KEPT = 1 << 16


@lru_cache(maxsize=SYMBOLS_KEPT)
def number(value: int) -> Symbol:
    """clingo's number ``value``, made once: each symbol made is a call into clingo, and
    a board's facts repeat a few numbers thousands of times."""
    return Number(value)


@lru_cache(maxsize=SYMBOLS_KEPT)
def constant(name: str) -> Symbol:
    """clingo's constant ``name`` (a function without arguments), made once."""
    return Function(name)


@lru_cache(maxsize=SYMBOLS_KEPT)
def fact(name: str, *arguments: int | str) -> Symbol:
    """The fact ``name(arguments...)``, integers as numbers and strings as constants,
    made once: boards of one size share most of their facts, and each symbol made is a
    call into clingo for the function and each of its arguments."""
    return Function(name, [number(a) if isinstance(a, int) else constant(a) for a in arguments])


#: Arithmetic a fact file may use, by the name of clingo's operator.
_BINARY: dict[str, Callable[[int, int], int]] = {
    "Plus": operator.add,
    "Minus": operator.sub,
    "Multiplication": operator.mul,
    "Division": operator.floordiv,
    "Modulo": operator.mod,
}


class Fact(NamedTuple):
    """A ground fact and the line it was written on."""

    symbol: Symbol
    line: int

    @property
    def name(self) -> str:
        return self.symbol.name

    @property
    def args(self) -> list[Symbol]:
        return self.symbol.arguments


class FactFile:
    """The facts and ``#const`` definitions of one file."""

    def __init__(self, source: str, facts: list[Fact], constants: dict[str, Symbol]) -> None:
        self.source, self.facts, self.constants = source, facts, constants

    def named(self, name: str, arity: int | None = None) -> list[Fact]:
        return [
            fact
            for fact in self.facts
            if fact.name == name and (arity is None or len(fact.args) == arity)
        ]

    def error(self, fact: Fact | None, message: str) -> InputError:
        return InputError(message, self.source, fact.line if fact else None)

    def refuse_unknown(self, known: dict[str, int]) -> None:
        """A fact whose name or arity the format does not define is most likely a typo
        (``zombi(3)``): refuse it rather than ignore it."""
        for fact in self.facts:
            if known.get(fact.name) != len(fact.args):
                expected = ", ".join(f"{name}/{arity}" for name, arity in known.items())
                raise self.error(fact, f"unknown fact {fact.symbol} (expected {expected})")

    def numbers(self, fact: Fact) -> list[int]:
        """The fact's arguments, all of which must be integers."""
        if any(arg.type != SymbolType.Number for arg in fact.args):
            raise self.error(fact, f"expected integer arguments in {fact.symbol}")
        return [arg.number for arg in fact.args]


#: What clingo's lexer skips or takes whole outside strings (block and line comments),
#: or one character that is not ASCII, or a number, or a quote that may open a string.
_LEXEMES = re.compile(
    r'%\*.*?\*%|%[^\n]*|([^\x00-\x7f])|(?<![A-Za-z0-9_\'])(\d+)|(")',
    re.DOTALL,
)
#: A string's content after its opening quote (the closing quote not included).
_STRING_BODY = re.compile(r'(?:\\.|[^"\\\n])*', re.DOTALL)
#: The largest number clingo holds: its integers are 32 bits, and a larger one written
#: in a program silently wraps around (4294967298 is read as 2).
LARGEST_NUMBER = 2**31 - 1


def term_or_none(text: str) -> Symbol | None:
    """``clingo.parse_term`` of a user's text, or None where it is no term. clingo's
    message about a character outside ASCII ends inside that character's bytes, and
    reading the message then fails (UnicodeDecodeError, not the RuntimeError of any
    other syntax error): both mean the same here."""
    try:
        return parse_term(text)
    except (RuntimeError, UnicodeDecodeError):
        return None


def _lexemes(text: str) -> Iterator[re.Match[str]]:
    """``_LEXEMES``' matches outside strings, in order: a quote opens a string where a
    closing quote ends it, else it is a character like another and the text after it
    is read on (as clingo's lexer does).

    Linear in the text: where a string starting at a quote finds no closing quote, no
    quote inside that stretch can open one either (each is escaped, and the stretch
    read from just after it ends at the same place), so those quotes are not tried
    again; trying each (a regular expression with the string as an alternative) took
    two seconds on 16,000 characters of escaped quotes."""
    position, dead = 0, -1  # quotes before ``dead`` open no string
    while (match := _LEXEMES.search(text, position)) is not None:
        position = match.end()
        if match.group(3) is None:
            yield match
        elif match.start() >= dead:
            body = _STRING_BODY.match(text, position)
            assert body is not None  # it matches the empty string
            if text.startswith('"', body.end()):
                position = body.end() + 1  # a whole string: skipped
            else:
                dead = body.end()


def foreign_character(text: str) -> tuple[int, int, str] | None:
    """The first character outside ASCII where clingo's lexer would meet it (not in a
    string or comment), as (line, column, character), 1-based; None if there is none.

    Why it matters: clingo reports such a character with its first byte only, and its
    Python logger cannot decode half a character, so the whole process aborts ("PANIC:
    exception in nothrow scope") instead of raising.
    """
    for match in _lexemes(text):
        if match.group(1) is not None:
            return (*_place(text, match.start(1)), match.group(1))
    return None


def _place(text: str, index: int) -> tuple[int, int]:
    """The 1-based line and column of a character of the text."""
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def number_too_large(text: str) -> tuple[int, int, str] | None:
    """The first number outside strings and comments that clingo cannot hold, as (line,
    column, number); None if there is none."""
    for match in _lexemes(text):
        number = match.group(2)
        if number is not None and (len(number) > 10 or int(number) > LARGEST_NUMBER):
            return (*_place(text, match.start(2)), number)
    return None


def character_text(char: str) -> str:
    """A character as messages name it: ``'é' (U+00E9)``."""
    return f"{char!r} (U+{ord(char):04X})"


def check_characters(text: str, source: str) -> None:
    """Refuse a program text holding a character clingo cannot read (see
    :func:`foreign_character`). Strings and comments may hold any text; a byte-order
    mark at the very start is dropped when a file is read."""
    if found := foreign_character(text):
        line, column, char = found
        message = f"unexpected character {character_text(char)} outside a string or comment"
        raise InputError(message, source, line, column)
    if large := number_too_large(text):
        line, column, number = large
        message = f"the number {number} is larger than clingo's integers hold ({LARGEST_NUMBER})"
        raise InputError(message, source, line, column)


#: ``#include "file".`` (``<name>`` includes are clingo's own programs).
_INCLUDE = re.compile(r'#include\s*"((?:\\.|[^"\\\n])*)"\s*\.')


#: ``#include <incmode>.``: clingo's incremental mode (see ``driver.incmode_plan``).
_INCMODE = re.compile(r"#include\s*<incmode>\s*\.")


def _code(text: str) -> str:
    """The program text with its comments blanked out (strings kept), character for
    character, so that a place in it is the same place in the text."""

    def blank(match: re.Match[str]) -> str:
        lexeme = match.group(0)
        kept = lexeme.startswith('"') or lexeme.isdigit()
        return lexeme if kept else re.sub(r"[^\n]", " ", lexeme)

    return _LEXEMES.sub(blank, text)


def included_files(text: str) -> list[str]:
    """The files a program includes by name, comments aside."""
    if "#include" not in text:  # most programs: their comments need not be found
        return []
    return _INCLUDE.findall(_code(text))


def program_texts(
    path: Path, seen: set[Path] | None = None, read: list[Path] | None = None
) -> Iterator[str]:
    """The texts clingo loads itself: a program file and the files it includes, each
    once (each file's path is added to ``read``, if given). Each is checked here for
    characters its lexer would meet: clingo reports them in a message its Python logger
    cannot decode, and the process aborts (see :func:`check_characters`)."""
    seen = set() if seen is None else seen
    if path.resolve() in seen:
        return
    seen.add(path.resolve())
    if (kind := special_file(path)) is not None:
        raise InputError(f"{kind}, not a file: {NOT_A_FILE}", display_path(path))
    if read is not None:
        read.append(path)
    if path.read_bytes().startswith(codecs.BOM_UTF8):
        message = "starts with a byte-order mark, which clingo cannot read: save it without one"
        raise InputError(message, display_path(path), 1, 1)
    text = read_text_file(path)
    check_characters(text, display_path(path))
    yield text
    for name in included_files(text):
        found = include_target(name, path.parent)
        if found is not None:
            yield from program_texts(found, seen, read)


def include_target(name: str, folder: Path) -> Path | None:
    """The file ``#include "name".`` loads from a file in ``folder``, searched as clingo
    5.8 searches: the working folder, then the including file's folder, then the
    folders listed in ``CLINGOPATH``; None if clingo will not find it (and says so)."""
    candidates = [Path(name)]
    if not Path(name).is_absolute():
        candidates.append(folder / name)
        listed = os.environ.get("CLINGOPATH", "")
        candidates += [Path(entry) / name for entry in listed.split(":") if entry]
    for candidate in candidates:
        if (kind := special_file(candidate)) is not None:  # clingo would open it
            raise InputError(
                f'#include "{name}": {display_path(candidate)} is {kind}, not a file: ' + NOT_A_FILE
            )
        if candidate.is_file():
            return candidate
    return None


def anchor_includes(text: str, folder: Path) -> str:
    """A program text read from a file in ``folder``, each file it includes named by
    its full path: clingo is given the text, not the file, so it would not look beside
    it (see :func:`include_target`). Each such file is checked as clingo would load it
    (see :func:`program_texts`)."""
    pieces, last = [], 0
    for match in _INCLUDE.finditer(_code(text)):
        target = include_target(match.group(1), folder)
        if target is None:
            continue  # clingo reports it, at its place
        list(program_texts(target))
        quoted = str(target.resolve()).replace("\\", "\\\\").replace('"', '\\"')
        pieces += [text[last : match.start(1)], quoted]
        last = match.end(1)
    return "".join(pieces) + text[last:]


def includes_incmode(text: str) -> bool:
    """Whether a program asks for clingo's incremental mode, comments aside."""
    return "#include" in text and _INCMODE.search(_code(text)) is not None


def overriding(text: str, source: str, names: Collection[str]) -> str:
    """An instance's program text in which each ``#const`` of one of ``names`` (the
    constants its encoding defines) overrides the encoding's (``[override]``, as ``-c``
    would): clingo refuses a constant defined twice, and an instance that sets the
    board's size is what ``#const n = 9.`` in an encoding is there for. A definition
    written with ``[default]`` or ``[override]`` is left as written."""
    if "#const" not in text or not names:
        return text
    from clingo import ast

    raw = text.encode()
    starts = [0] + [index + 1 for index, byte in enumerate(raw) if byte == ord("\n")]
    ends: list[int] = []
    for statement in _statements(text, source):
        if statement.ast_type != ast.ASTType.Definition or statement.name not in names:
            continue
        begin, end = statement.location.begin, statement.location.end
        first = starts[begin.line - 1] + begin.column - 1
        last = starts[end.line - 1] + end.column - 1  # clingo's columns count bytes
        if b"[" not in raw[first:last]:
            ends.append(last)
    for last in sorted(ends, reverse=True):
        raw = raw[:last] + b" [override]" + raw[last:]
    return raw.decode()


def _statements(text: str, source: str) -> list[ast.AST]:
    """A program's statements by clingo's parser; a syntax error names its place."""
    from clingo import ast

    check_characters(text, source)
    statements: list[ast.AST] = []
    messages: list[str] = []
    try:
        ast.parse_string(text, statements.append, logger=lambda _c, m: messages.append(m))
    except RuntimeError:
        raise _syntax_error(messages, source) from None
    return statements


def read_facts(text: str, source: str) -> FactFile:
    """Parse a program made only of ground facts and ``#const`` definitions."""
    from clingo import ast

    statements = _statements(text, source)
    constants: dict[str, Symbol] = {}
    facts: list[Fact] = []
    for statement in statements:
        line = statement.location.begin.line
        kind = statement.ast_type
        if kind in (ast.ASTType.Program, ast.ASTType.Comment):
            continue
        if kind == ast.ASTType.Definition:
            constants[statement.name] = _evaluate(statement.value, constants, source, line)
        elif kind == ast.ASTType.Rule and not statement.body and _is_plain_atom(statement.head):
            symbol = _evaluate(statement.head.atom.symbol, constants, source, line)
            facts.append(Fact(symbol, line))
        else:
            raise InputError(
                f"only facts and #const are allowed here, not '{statement}'", source, line
            )
    return FactFile(source, facts, constants)


def split_facts(text: str, source: str) -> tuple[list[Fact], list[tuple[int, str]]]:
    """A program's plain ground facts of its base part (each one atom, ``#const`` names
    and integer arithmetic allowed), and the rest of it as program text: ``#const``
    lines, rules, and facts written with intervals or pools (``row(1..9).``), which
    stand for many atoms at once, each statement with its line (``program_text`` joins
    them)."""
    from clingo import ast

    statements = _statements(text, source)
    constants: dict[str, Symbol] = {}
    facts: list[Fact] = []
    rest: list[tuple[int, str]] = []
    part = "base"
    for statement in statements:
        line = statement.location.begin.line
        kind = statement.ast_type
        if kind == ast.ASTType.Program:
            part = statement.name
        if kind == ast.ASTType.Definition:
            with suppress(InputError):  # clingo says what is wrong with it
                constants[statement.name] = _evaluate(statement.value, constants, source, line)
        plain = kind == ast.ASTType.Rule and not statement.body and _is_plain_atom(statement.head)
        if plain and part == "base":
            try:
                symbol = _evaluate(statement.head.atom.symbol, constants, source, line)
            except InputError:
                symbol = None
            if symbol is not None and symbol.type == SymbolType.Function:
                facts.append(Fact(symbol, line))
                continue
        if kind != ast.ASTType.Program or statement.name != "base" or rest:
            rest.append((line, str(statement)))
    return facts, rest


def program_text(statements: Sequence[tuple[int, str]]) -> str:
    """Statements (``split_facts``'s rest) as one program text."""
    return "".join(f"{text}\n" for _, text in statements)


def _syntax_error(messages: list[str], source: str) -> InputError:
    """clingo's parser message, which places it in ``<string>``, placed in the file
    (``facts.lp:8:10: syntax error, unexpected <NUMBER>``)."""
    if not messages:
        return InputError("syntax error", source)
    return InputError(clingo_message(messages[0].replace("<string>", source, 1)))


def _is_plain_atom(head: ast.AST) -> bool:
    from clingo import ast

    return (
        head.ast_type == ast.ASTType.Literal
        and head.sign == ast.Sign.NoSign
        and head.atom.ast_type == ast.ASTType.SymbolicAtom
    )


def _evaluate(term: ast.AST, constants: dict[str, Symbol], source: str, line: int) -> Symbol:
    from clingo import ast

    kind = term.ast_type
    if kind == ast.ASTType.SymbolicTerm:
        symbol = term.symbol
        named = symbol.type == SymbolType.Function and not symbol.arguments
        if named and not symbol.negative and symbol.name in constants:
            return constants[symbol.name]
        return symbol
    if kind == ast.ASTType.Function and not term.external:
        if not term.arguments and term.name in constants:
            return constants[term.name]
        args = [_evaluate(arg, constants, source, line) for arg in term.arguments]
        return Function(term.name, args)
    if kind == ast.ASTType.UnaryOperation and term.operator_type == ast.UnaryOperator.Minus:
        value = _evaluate(term.argument, constants, source, line)
        if value.type == SymbolType.Number:
            return Number(-value.number)
    operations = {int(getattr(ast.BinaryOperator, name)): apply for name, apply in _BINARY.items()}
    if kind == ast.ASTType.BinaryOperation and int(term.operator_type) in operations:
        left = _evaluate(term.left, constants, source, line)
        right = _evaluate(term.right, constants, source, line)
        if left.type == right.type == SymbolType.Number:
            if (
                term.operator_type in (ast.BinaryOperator.Division, ast.BinaryOperator.Modulo)
                and right.number == 0
            ):
                raise InputError(f"division by zero in '{term}'", source, line)
            return Number(operations[int(term.operator_type)](left.number, right.number))
    raise InputError(f"'{term}' is not a ground term", source, line)
