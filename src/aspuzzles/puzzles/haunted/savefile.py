"""Games saved by Tatham's collection (File > Save): the puzzle they were started from."""

from __future__ import annotations

import re

from ...errors import InputError
from .gameid import parse_game_id
from .model import HauntedInstance

#: What a save file of Tatham's puzzle collection opens with (midend.c).
SAVE_MAGIC = "Simon Tatham's Portable Puzzle Collection"


SAVE_KEY = re.compile(r"([A-Z ]{8}):(\d+):")


def is_save_file(text: str) -> bool:
    """A game saved by Tatham's collection (File > Save) opens with its magic line."""
    return text.lstrip("\r\n\ufeff").startswith("SAVEFILE:")


def parse_save_file(text: str, source: str) -> HauntedInstance:
    """The puzzle of a game saved by Undead (the desktop and phone versions of Tatham's
    collection save to such files): its parameters (``CPARAMS``, the size) and its
    description (``DESC``, the rest of the game ID) make the game ID; the moves played
    since are not read. Each line is ``KEY     :LENGTH:VALUE``, the key eight
    characters long, as midend.c writes it."""
    fields = _save_fields(text, source)
    if fields.get("SAVEFILE", (0, ""))[1] != SAVE_MAGIC:
        raise InputError(f"not a save file of Tatham's puzzles (no '{SAVE_MAGIC}')", source, 1)
    line, game = fields.get("GAME", (1, ""))
    if game != "Undead":
        raise InputError(f"a saved game of {game or 'no game'}, not of Undead", source, line)
    params = fields.get("CPARAMS") or fields.get("PARAMS")
    desc = fields.get("PRIVDESC") or fields.get("DESC")  # the start, as midend.c takes it
    if params is None or desc is None:
        missing = "PARAMS" if params is None else "DESC"
        raise InputError(f"the saved game has no {missing} line", source)
    return parse_game_id(f"{params[1]}:{desc[1]}", source, desc[0])


def _save_fields(text: str, source: str) -> dict[str, tuple[int, str]]:
    """Each key's first value, with the line it is on."""
    fields: dict[str, tuple[int, str]] = {}
    for key, line, value in save_entries(text, source):
        fields.setdefault(key, (line, value))
    return fields


def save_entries(text: str, source: str) -> list[tuple[str, int, str]]:
    """Every ``KEY:LENGTH:VALUE`` entry in order, with its line (a value may hold any
    printable character, ':' and '#' included, so lines are read by their lengths)."""
    entries: list[tuple[str, int, str]] = []
    at, line = 0, 1
    text = text.lstrip("\ufeff")
    while True:
        while text[at : at + 1] in ("\r", "\n"):
            line += text[at] == "\n"
            at += 1
        if at >= len(text):
            return entries
        match = SAVE_KEY.match(text, at)
        if match is None:
            raise InputError("expected 'KEY     :LENGTH:VALUE', a saved game's line", source, line)
        end = match.end() + int(match.group(2))
        if end > len(text) or "\n" in text[match.end() : end]:
            raise InputError(f"the {match.group(1).strip()} value is cut short", source, line)
        entries.append((match.group(1).strip(), line, text[match.end() : end]))
        at = end
