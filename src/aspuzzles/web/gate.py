"""What the web board's server lets in, checked before any work starts: the request's
origin, its body (size, JSON shape) and its fields (a puzzle by its registered name,
an instance by a shipped name or as text holding no directive, progress as atoms).
Every refusal is a :class:`Refused` with its HTTP status and one line.

Nothing here reaches a file by name: a puzzle is one of ``registry.module_puzzles()``
or an exact name among ``paths.encoding_names()``; a shipped instance is passed on as
the file the puzzle's own folder lists; anything else is text, read as text.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

from ..asp import LARGEST_NUMBER

#: The largest request body read, in bytes.
MOST_BYTES = 1 << 20
#: The deepest JSON nesting read (the API's own is two levels).
MOST_DEPTH = 32
#: The most digits a JSON number may have.
MOST_DIGITS = 30
#: The longest progress the page may send, in entries (or moves).
MOST_ENTRIES = 10_000
#: The longest entry (an atom, or a move), in characters.
MOST_ENTRY = 1_000
#: What the page may ask, by path.
ACTIONS = (
    "board",
    "check",
    "hint",
    "explain",
    "grade",
    "solve",
    "generate",
    "walkthrough",
    "fix",
)


class Refused(Exception):
    """A request refused: its HTTP status and one line saying why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = " ".join(message.split())


# -- the body --------------------------------------------------------------------------
def _depth(body: bytes) -> int:
    """How deep a JSON text's arrays and objects nest, brackets in strings aside: a
    quick scan (linear in the body's length), before ``json.loads`` recurses."""
    if body.count(b"[") + body.count(b"{") <= MOST_DEPTH:
        return 0
    plain = re.sub(rb'"[^"]*"', b"", re.sub(rb"\\.", b"", body, flags=re.DOTALL))
    steps = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
    marks = (steps[byte] for byte in re.sub(rb"[^\[\]{}]", b"", plain))
    return max(itertools.accumulate(marks), default=0)


def _number(text: str) -> int | float:
    digits = sum(char.isdigit() for char in text)
    if digits > MOST_DIGITS:
        raise Refused(400, f"a number of {digits} digits: at most {MOST_DIGITS}")
    return float(text) if any(char in text for char in ".eE") else int(text)


def _constant(text: str) -> Any:
    raise Refused(400, f"{text} is not a JSON number")


def json_object(body: bytes) -> dict[str, Any]:
    """The request's JSON object (an empty body is ``{}``), or a 400 saying why not."""
    if not body.strip():
        return {}
    if _depth(body) > MOST_DEPTH:
        raise Refused(400, f"the JSON nests deeper than {MOST_DEPTH} levels")
    try:
        request = json.loads(
            body.decode("utf-8"),
            parse_int=_number,
            parse_float=_number,
            parse_constant=_constant,
        )
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise Refused(400, "the body is not JSON") from None
    except RecursionError:  # not reached after the scan: to be sure
        raise Refused(400, "the JSON nests too deep") from None
    if not isinstance(request, dict):
        raise Refused(400, "the body is not a JSON object")
    return request


# -- the fields ------------------------------------------------------------------------
def _field(request: dict[str, Any], name: str, kind: type, default: Any) -> Any:
    value = request.get(name, default)
    if value is None:
        return default
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise Refused(400, f"'{name}' must be {'a string' if kind is str else kind.__name__}")
    return value


def _strings(request: dict[str, Any], name: str, what: str) -> list[str]:
    values = _field(request, name, list, [])
    if not all(isinstance(value, str) for value in values):
        raise Refused(400, f"'{name}' must be a list of strings ({what})")
    if len(values) > MOST_ENTRIES:
        raise Refused(400, f"'{name}': more than {MOST_ENTRIES} entries")
    for value in values:
        if len(value) > MOST_ENTRY or "\n" in value or "\r" in value:
            raise Refused(400, f"'{name}': an entry is one line of at most {MOST_ENTRY} characters")
        if (problem := number_problem(value)) is not None:
            raise Refused(400, f"'{name}': {problem}")
        if (problem := directive_problem(value)) is not None:
            raise Refused(400, f"'{name}': {problem}")
    return values


def puzzle_name(request: dict[str, Any]) -> str:
    """The request's puzzle: a registered puzzle's name, or a bare encoding's exact
    name in an ``encodings/`` folder; never a path."""
    from ..paths import encoding_names
    from ..registry import module_puzzles

    name = _field(request, "puzzle", str, "")
    if not name.strip():
        raise Refused(400, "no puzzle named")
    if name in module_puzzles():
        return str(name)
    if re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_.-]*", name) and name in encoding_names():
        return str(name)
    shown = name if len(name) <= 60 else name[:57] + "..."
    raise Refused(400, f"unknown puzzle '{shown}' (a puzzle's name, as 'aspuzzles list' shows)")


def fields(action: str, request: dict[str, Any]) -> dict[str, Any]:
    """The request's fields for ``action``, checked: types, names, instance text,
    progress, and a generator's difficulty among its choices."""
    puzzle = puzzle_name(request)
    instance = _field(request, "instance", str, "")
    if not shipped_instance(puzzle, instance) and (problem := directive_problem(instance)):
        raise Refused(400, f"instance: {problem}")
    checked: dict[str, Any] = {"puzzle": puzzle, "instance": instance}
    checked["progress"] = _strings(request, "progress", "atoms, or moves")
    if action == "board":
        checked["marked"] = _strings(request, "marked", "atoms")
    if action == "generate":
        checked["difficulty"] = _difficulty(puzzle, _field(request, "difficulty", str, None))
        seed = _field(request, "seed", int, None)
        if seed is not None and not 0 <= seed <= LARGEST_NUMBER:
            raise Refused(400, f"'seed' must be from 0 to {LARGEST_NUMBER}")
        checked["seed"] = seed
    return checked


def _difficulty(puzzle: str, difficulty: str | None) -> str | None:
    """A difficulty among those the puzzle's generator declares (none: its default)."""
    if not difficulty:
        return None
    from ..registry import get_puzzle

    generator = get_puzzle(puzzle).generator()
    options = {option.name: option for option in generator.options} if generator else {}
    declared = options.get("difficulty")
    choices = [str(choice) for choice in (declared.choices or ())] if declared else []
    if difficulty not in choices:
        shown = difficulty if len(difficulty) <= 30 else difficulty[:27] + "..."
        offered = f"one of {', '.join(choices)}" if choices else "none: its generator takes none"
        raise Refused(400, f"unknown difficulty '{shown}' for {puzzle} ({offered})")
    return difficulty


def shipped_instance(puzzle: str, instance: str) -> bool:
    """Whether ``instance`` is a shipped instance's exact name (with or without its
    extension)."""
    from ..paths import instance_files

    return any(instance in (file.name, file.stem) for file in instance_files(puzzle))


# -- text read as facts ----------------------------------------------------------------
#: A string or a comment of clingo's language, each also matched unterminated (to the
#: line's or the text's end, a lone backslash included), so that no match fails and
#: is tried again further on (a run of ``\\"`` takes a pattern that must close its
#: string quadratic time). A string ends at its line's end (as clingo's), a block
#: comment at its first ``*%`` (clingo's ends no sooner): nothing clingo reads as code
#: is blanked.
_QUIET = re.compile(r'"(?:\\[^\n]|\\|[^"\\\n])*(?:"|(?=\n)|\Z)|%\*[\s\S]*?(?:\*%|\Z)|%[^\n]*')


def _blank(match: re.Match[str]) -> str:
    said = match.group(0)
    return re.sub(r"[^\n]", " ", said) if "\n" in said else " " * len(said)


#: A directive: ``#`` and a word, as clingo's lexer reads one (``# include`` it does not).
_DIRECTIVE = re.compile(r"#([A-Za-z_]\w*)")
#: The one directive a pasted instance may hold: a constant set to a number, as a
#: shipped instance (``#const n = 4.``) and a bare generator's skeleton write them.
_NUMBER_CONSTANT = re.compile(r"#const\s+[a-z_]\w*\s*=\s*-?\d+\s*\.")


def directive_problem(text: str) -> str | None:
    """What keeps a pasted text from being read as facts, if anything: a directive of
    clingo's (``#include``, ``#script``, ``#external``, ``#program``, ``#show``, ...),
    outside strings and comments, is refused, since some read files or run code; only
    ``#const NAME = NUMBER.`` is let through."""
    if "#" not in text:
        return None
    code = _QUIET.sub(_blank, text)
    for match in _DIRECTIVE.finditer(code):
        if _NUMBER_CONSTANT.match(code, match.start()):
            continue
        line = code.count("\n", 0, match.start()) + 1
        return f"line {line}: the directive #{match.group(1)[:20]} is not taken here (facts only)"
    return None


def number_problem(text: str) -> str | None:
    """A number in an entry that clingo's integers cannot hold (it would wrap around)."""
    for digits in re.findall(r"\d+", text):
        if len(digits) > MOST_DIGITS or int(digits) > LARGEST_NUMBER:
            shown = digits if len(digits) <= 20 else digits[:17] + "..."
            return f"the number {shown} is larger than clingo's integers hold ({LARGEST_NUMBER})"
    return None
