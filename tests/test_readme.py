"""The example sessions of the README and the docs are what the command prints today.

Every ``$ aspuzzles ...`` line in a fenced block of README.md or ``docs/*.md`` is run
in-process and its
output (stdout, then stderr) compared with the lines shown under it, up to the next
``$`` line or the end of the block. Times (``in 0.014s``) are compared as any time.
Examples that need files outside the checkout or a minute of search (they say
``omitted here`` or name ``../shared``) are skipped; the files a block shows with
``$ cat FILE`` (a bare encoding and its instance) are written to a fresh folder that
the block's sessions run in; capture's plan may be any of its shortest plans, so only
its first and last lines are compared.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from .conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TIME = re.compile(r"in \d+\.\d+s")


Files = dict[str, list[str]]


def _sessions(page: Path) -> list[tuple[str, list[str], Files]]:
    """(command, expected lines, files shown before it in its block) for each
    ``$ aspuzzles`` line in a fenced block; ``$ cat FILE`` shows a file's lines."""
    sessions: list[tuple[str, list[str], Files]] = []
    fenced, current, files = False, None, {}
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced, current, files = not fenced, None, {}
        elif fenced and line.startswith("$ cat "):
            current = files.setdefault(line[len("$ cat ") :], [])
        elif fenced and line.startswith("$ "):
            current = [] if line.startswith("$ aspuzzles ") else None
            if current is not None:
                sessions.append((line[2:], current, files))
        elif current is not None:
            current.append(line)
    return sessions


def _runnable(command: str, expected: list[str], files: Files) -> bool:
    return "../shared" not in command and not any("omitted here" in line for line in expected)


#: Sessions that take seconds (``make test-fast`` leaves them out).
SLOW = {
    "aspuzzles solve geniusstar --count",
    "aspuzzles census geniussquare --shard 500/1000 --limit 20 --quiet",
}

SESSIONS = [
    pytest.param(
        *session,
        id=f"{page.name}: {session[0]}",
        marks=[pytest.mark.slow] if session[0] in SLOW else [],
    )
    for page in PAGES
    for session in _sessions(page)
    if _runnable(*session)
]


def _puzzles_shown(page: Path) -> set[str]:
    return {shlex.split(command, comments=True)[2] for command, _, _ in _sessions(page)}


def test_the_readme_shows_every_puzzle_and_a_bare_encoding():
    shown = _puzzles_shown(ROOT / "README.md")
    assert shown >= {"haunted", "cake", "tiles", "geniusstar", "geniussquare", "capture"}
    assert "latin" in shown  # a bare encoding, run from the files shown


def test_the_docs_show_bare_encodings_with_objectives_and_horizons():
    assert {"latin", "cheap", "hanoi"} <= _puzzles_shown(ROOT / "docs" / "encodings.md")


def test_the_readme_stays_a_short_guide():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 400


@pytest.mark.parametrize(("command", "expected", "files"), SESSIONS)
def test_readme_session_prints_what_it_shows(cli, command, expected, files, tmp_path, monkeypatch):
    if files:  # a user's own folder, as the block shows it
        for name, lines in files.items():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_text("\n".join(lines) + "\n")
        monkeypatch.chdir(tmp_path)
    elif command.startswith("aspuzzles census"):  # its store and list: written to a fresh folder
        monkeypatch.chdir(tmp_path)
    words = shlex.split(command, comments=True)[1:]
    run = cli(*words)
    printed = TIME.sub("in Ts", run.out + run.err).rstrip("\n").splitlines()
    shown = [TIME.sub("in Ts", line) for line in expected]
    if words[1] == "capture" and words[0] in ("solve", "walkthrough"):  # any shortest plan
        assert (printed[0], printed[-1]) == (shown[0], shown[-1])
    elif run.err:  # a terminal interleaves stdout and stderr: the lines, in any order
        assert sorted(printed) == sorted(shown)
    else:
        assert printed == shown
