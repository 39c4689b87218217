"""Haunted on the web board: how many of each monster are placed of how many there
must be (``ghosts 2/5``), the monsters a player may pencil into a cell (as in Tatham's
Undead), and the board's game ID to play it in Tatham's own page."""

from __future__ import annotations

from typing import Any

from clingo import Symbol

from ...capabilities import Play
from ...errors import InputError
from .gameid import encode_game_id
from .model import KINDS, LETTER, HauntedInstance

#: Each kind's name in a count (``ghosts 2/5``).
PLURAL = {"G": "ghosts", "V": "vampires", "Z": "zombies"}


def counts(instance: HauntedInstance, entries: list[Symbol]) -> list[dict[str, Any]]:
    """Each kind: placed (given on the board, or entered) of the total."""
    placed = dict.fromkeys(KINDS, 0)
    for row in instance.grid:
        for char in row:
            if char in placed:
                placed[char] += 1
    for entry in entries:
        if entry.match("monster", 3):
            letter = LETTER.get(entry.arguments[2].name)
            if letter is not None:
                placed[letter] += 1
    return [
        {"label": PLURAL[letter], "placed": placed[letter], "total": instance.totals[letter]}
        for letter in KINDS
    ]


class HauntedPlay(Play[HauntedInstance]):
    def panel(self, instance: HauntedInstance, entries: list[Symbol]) -> dict[str, Any]:
        from . import TATHAM_PAGE

        data: dict[str, Any] = {"counts": counts(instance, entries), "pencil": list(KINDS)}
        try:
            game_id = encode_game_id(instance)
        except InputError:  # a board picture that leaves clues out has no game ID
            return data
        data["link"] = {"label": f"Tatham's Undead: {game_id}", "href": TATHAM_PAGE + game_id}
        return data
