"""Errors a user can cause, and the exit codes the command line maps them to.

Every message is one line that names where the problem is (file, line, column when
they apply) so that the CLI can print it without a traceback.
"""

from __future__ import annotations

import re
from enum import IntEnum


class ExitCode(IntEnum):
    """Documented exit codes of the ``aspuzzles`` command."""

    SOLVED = 0
    NO_SOLUTION = 1
    BAD_INPUT = 2
    TIMEOUT = 3
    INTERNAL = 4
    #: The memory limit (``--memory``) was reached; what was found before is printed.
    MEMORY = 5
    #: Ctrl-C: what was found so far is printed first (the shell's code for SIGINT).
    INTERRUPTED = 130


class AspuzzlesError(Exception):
    """Base class of every error aspuzzles reports to its user."""

    exit_code: ExitCode = ExitCode.INTERNAL


class InputError(AspuzzlesError):
    """Bad input: an instance file, a game ID, an option or an encoding.

    ``source`` is the file name (or ``<argument>`` for text given on the command line);
    ``line`` and ``column`` are 1-based and optional.
    """

    exit_code = ExitCode.BAD_INPUT

    def __init__(
        self,
        message: str,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.message = shortened(message)
        self.source = source
        self.line = line
        self.column = column
        super().__init__(str(self))

    def __str__(self) -> str:
        where = [str(part) for part in (self.source, self.line, self.column) if part is not None]
        return f"{':'.join(where)}: {self.message}" if where else self.message


#: A word of a message longer than this is cut (an echoed token may be megabytes long).
LONGEST_WORD = 200
_LONG_WORD = re.compile(rf"\S{{{LONGEST_WORD + 1},}}")


def shortened(message: str) -> str:
    """The message with every overlong word cut to its start and its length, so that
    an echoed token of any size stays one readable line."""
    return _LONG_WORD.sub(
        lambda word: f"{word.group(0)[:60]}... ({len(word.group(0))} characters)", message
    )


#: The most digits a number of any instance may have: no puzzle counts that far, and
#: Python refuses to read a number of more than 4,300 digits at all.
MOST_DIGITS = 100
_LONG_NUMBER = re.compile(rf"\d{{{MOST_DIGITS + 1},}}")


def check_number_lengths(text: str, source: str) -> None:
    """Refuse a text holding a number longer than any puzzle means, naming its line,
    before a parser tries to read it."""
    if found := _LONG_NUMBER.search(text):
        line = text.count("\n", 0, found.start()) + 1
        digits = len(found.group(0))
        raise InputError(
            f"a number of {digits} digits: no puzzle reads numbers that long", source, line
        )


class CheckFailed(AspuzzlesError):
    """The independent checker rejected an answer set: encoding and checker disagree;
    or a shortest-plan search contradicted itself (a plan shorter than a budget it had
    refuted).

    This is always a bug (in the encoding or in the checker), never a user error.
    """

    exit_code = ExitCode.INTERNAL


class NoSolution(AspuzzlesError):
    """A question that needs a solution asked of a puzzle that has none (grading an
    unsolvable puzzle): the puzzle's fault, not the input's form."""

    exit_code = ExitCode.NO_SOLUTION


class MemoryLimit(AspuzzlesError):
    """The memory limit (``--memory``) stopped a question with no partial answer."""

    exit_code = ExitCode.MEMORY


class TimeLimit(AspuzzlesError):
    """A question with no partial answer (a hint, an explanation, a grade) ran out of
    its time limit."""

    exit_code = ExitCode.TIMEOUT


#: Where clingo says a message is: ``file:line:col-endcol: error: `` (or a range over
#: lines, ``file:2:1-3:4``); ours say ``file:line:col: ``.
_CLINGO_PLACE = re.compile(r"^(?P<place>.*?:\d+:\d+)(?:-[\d:]+)?: (?:error|info|warning): ")


def clingo_message(message: str) -> str:
    """clingo's message on one line, its place written as ours are (the double
    "error: ... error:" and the end column dropped): ``foo.lp:2:11: syntax error, ...``."""
    text = " ".join(line.strip() for line in message.splitlines() if line.strip())
    return _CLINGO_PLACE.sub(r"\g<place>: ", text, count=1)


def is_number(text: str) -> bool:
    """Whether text is a whole number in ASCII digits, so that int() takes it.

    str.isdigit alone also accepts superscripts such as '²', on which int() fails.
    """
    return text.isascii() and text.isdigit()


class LineReader:
    """Raises :class:`InputError` pinned to a source and line, for text parsers."""

    def __init__(self, source: str) -> None:
        self.source = source

    def error(self, line: int | None, message: str, column: int | None = None) -> InputError:
        return InputError(message, self.source, line, column)

    def lines(self, text: str, comment: str = "#") -> list[tuple[int, str]]:
        """Non-blank lines with comments removed, each with its 1-based line number."""
        kept = []
        for number, raw in enumerate(text.splitlines(), start=1):
            content = raw.split(comment, 1)[0].strip() if comment else raw.strip()
            if content:
                kept.append((number, content))
        return kept
