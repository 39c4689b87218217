"""The README's example sessions are what the command prints today.

Every ``$ aspuzzles ...`` line in a fenced block of README.md is run in-process and its
output (stdout, then stderr) compared with the lines shown under it, up to the next
``$`` line or the end of the block. Times (``in 0.014s``) are compared as any time.
Examples that need files outside the checkout or a minute of search (they say
``omitted here`` or name ``../shared``) and the bare-encoding session (its files are
written by the reader) are skipped; capture's plan may be any of its shortest plans,
so only its first and last lines are compared.
"""

from __future__ import annotations

import re
import shlex

import pytest

from .conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
TIME = re.compile(r"in \d+\.\d+s")


def _sessions() -> list[tuple[str, list[str]]]:
    """(command, expected lines) for each ``$ aspuzzles`` line in a fenced block."""
    sessions: list[tuple[str, list[str]]] = []
    fenced, current = False, None
    for line in README.splitlines():
        if line.startswith("```"):
            fenced, current = not fenced, None
        elif fenced and line.startswith("$ "):
            current = [] if line.startswith("$ aspuzzles ") else None
            if current is not None:
                sessions.append((line[2:], current))
        elif current is not None:
            current.append(line)
    return sessions


def _runnable(command: str, expected: list[str]) -> bool:
    return (
        "../shared" not in command
        and "latin" not in command
        and not any("omitted here" in line for line in expected)
    )


SESSIONS = [session for session in _sessions() if _runnable(*session)]


def test_the_readme_shows_sessions_for_every_puzzle():
    shown = {shlex.split(command, comments=True)[2] for command, _ in SESSIONS}
    assert shown >= {"haunted", "cake", "tiles", "geniusstar", "geniussquare", "capture"}


@pytest.mark.parametrize(("command", "expected"), SESSIONS, ids=[c for c, _ in SESSIONS])
def test_readme_session_prints_what_it_shows(cli, command, expected):
    words = shlex.split(command, comments=True)[1:]
    run = cli(*words)
    printed = TIME.sub("in Ts", run.out + run.err).rstrip("\n").splitlines()
    shown = [TIME.sub("in Ts", line) for line in expected]
    if words[1] == "capture" and words[0] == "solve":  # any shortest plan will do
        assert (printed[0], printed[-1]) == (shown[0], shown[-1])
    elif run.err:  # a terminal interleaves stdout and stderr: the lines, in any order
        assert sorted(printed) == sorted(shown)
    else:
        assert printed == shown
