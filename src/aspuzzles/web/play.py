"""What the web board shows beside a board to play with, asked of the puzzle's own
``Play`` slot (:class:`aspuzzles.capabilities.Play`): counts, notes, a tray, a legend,
pencil marks, a link. The page draws any puzzle's panel from these shared fields; a
puzzle without the slot is played on its board alone (an empty panel)."""

from __future__ import annotations

from typing import Any

from clingo import Symbol

from ..puzzle import Puzzle


def panel(game: Puzzle[Any, Any], instance: Any, entries: list[Symbol]) -> dict[str, Any]:
    """The puzzle's panel for the board with ``entries`` made; empty without one."""
    play = game.play()
    return {} if play is None else play.panel(instance, entries)
