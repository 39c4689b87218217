"""A web request's work, as its worker process runs it: started from the server's
fork server (which has imported this module and the engine before any request, so a
worker starts with them loaded), in the server's working folder, writing pasted text
only into the request's own folder (which the server removes when the request ends).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..errors import InputError
from . import actions

#: What the fork server imports once, so that each worker starts with it.
PRELOAD = ("clingo", "aspuzzles.web.preload")


def perform(action: str, fields: dict[str, Any], folder: str, cwd: str) -> dict[str, Any]:
    """The answer to ``action`` on the request's checked ``fields`` (``gate.fields``).
    Progress that names no entry of the board is an InputError naming the entry, as
    ``hint --progress`` says it: a board checks what it does not offer, and any work
    that breaks on progress is checked the same way (else its exception is a bug's)."""
    os.chdir(cwd)
    actions.scratch = Path(folder)
    puzzle, instance = fields["puzzle"], fields["instance"]
    progress: list[str] = fields["progress"]
    try:
        if action == "board":
            data = actions.board(puzzle, instance, progress, fields["marked"])
            if progress and not set(progress) <= _offered(data):
                _check_progress(puzzle, instance, progress)  # a given's entry, or none
            return data
        if action == "solve":
            return actions.solve(puzzle, instance, progress)
        if action == "walkthrough":
            return actions.walkthrough(puzzle, instance, progress)
        if action == "fix":
            return actions.fix(puzzle, instance, progress)
        if action == "generate":
            return actions.generate(puzzle, instance, fields["difficulty"], fields["seed"])
        return actions.question(action, puzzle, instance, progress)
    except InputError:
        raise
    except Exception:
        if progress:
            _check_progress(puzzle, instance, progress)
        raise


def _offered(data: dict[str, Any]) -> set[str]:
    """The atoms a board offers the player (its ``cells``' options)."""
    cells = data.get("cells")
    if not isinstance(cells, dict):
        return set()
    return {
        str(option.get("atom"))
        for options in cells.values()
        for option in options
        if isinstance(option, dict)
    }


def _check_progress(puzzle: str, instance: str, progress: list[str]) -> None:
    """Read the progress as ``hint --progress`` does, against the board's grounding:
    an InputError names the first atom that is not one of its entries."""
    from ..driver import load_instance
    from ..hinting import ground_instance
    from ..hinting.grounding import read_progress
    from ..registry import get_puzzle

    game = get_puzzle(puzzle)
    if game.hints() is None:
        return
    text = actions._progress_text(game, progress)
    parsed, _ = load_instance(game, actions._instance_reference(game, instance))
    ground = ground_instance(game, parsed, None)
    read_progress(game, parsed, text or "\n", ground)


def ready() -> int:
    """A worker's first answer (the server's warm-up): its pid."""
    return os.getpid()
