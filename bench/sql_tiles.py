"""The seed's way to solve an animal edge-matching board: SQL, here in sqlite3.

The seed (``../shared/seeds/edge-matching-sql.txt``) fills a table with each piece in
its four turns (the turns made by the database itself, from the unturned pieces), then
joins the table with itself once per place, each place matched head to tail with its
left and upper neighbours and every piece used once. This module writes that query
for any board of animal tiles, so that ``bench/peers.py`` can time it beside
aspuzzles on the same board. The seed counts every turn of the board as a solution of
its own (4 rows for its 3x3).
"""

from __future__ import annotations

import sqlite3
from typing import Any

SIDES = ("top", "right", "bottom", "left")


def solutions(rows: int, cols: int, tiles: list[tuple[str, str, str, str]]) -> list[Any]:
    """Every placement the query finds: per place, piece id and turn."""
    database = sqlite3.connect(":memory:")
    *filling, query = statements(rows, cols, tiles)
    for statement in filling:
        database.execute(statement)
    return database.execute(query).fetchall()


def script(rows: int, cols: int, tiles: list[tuple[str, str, str, str]]) -> str:
    """The same statements as one script, for the ``sqlite3`` command (a whole process,
    as a user would run the seed)."""
    return ";\n".join(statements(rows, cols, tiles)) + ";\n"


def statements(rows: int, cols: int, tiles: list[tuple[str, str, str, str]]) -> list[str]:
    """The table of turned pieces filled, then the query (the last statement)."""
    columns = ", ".join(f"{side} TEXT, {side}_head TEXT" for side in SIDES)
    made = [f"CREATE TABLE turned (piece INTEGER, turn INTEGER, {columns})"]
    for piece, edges in enumerate(tiles, start=1):
        halves = [edge.rsplit("_", 1) for edge in edges]
        values = ", ".join(_quoted(part) for animal, half in halves for part in (animal, half))
        made.append(f"INSERT INTO turned VALUES ({piece}, 0, {values})")
    # A quarter turn, then a half turn of both: all four turns, as the seed makes them.
    for shift, step in ((1, 1), (2, 2)):
        moved = [SIDES[(index + shift) % 4] for index in range(4)]
        picks = ", ".join(f"{side}, {side}_head" for side in moved)
        made.append(f"INSERT INTO turned SELECT piece, turn + {step}, {picks} FROM turned")
    return [*made, _query(rows, cols)]


def _quoted(text: str) -> str:
    """A string literal of SQL."""
    return "'" + text.replace("'", "''") + "'"


def _query(rows: int, cols: int) -> str:
    names = [f"p{row}_{col}" for row in range(rows) for col in range(cols)]
    joins, conditions = [], []
    for row in range(rows):
        for col in range(cols):
            name = f"p{row}_{col}"
            here = []
            if col:
                left = f"p{row}_{col - 1}"
                here.append(f"{left}.right = {name}.left AND {left}.right_head != {name}.left_head")
            if row:
                up = f"p{row - 1}_{col}"
                here.append(f"{up}.bottom = {name}.top AND {up}.bottom_head != {name}.top_head")
            joins.append(f"turned {name}" + (f" ON ({' AND '.join(here)})" if here else ""))
    for index, first in enumerate(names):
        conditions += [f"{first}.piece != {other}.piece" for other in names[index + 1 :]]
    picked = ", ".join(f"{name}.piece, {name}.turn" for name in names)
    return f"SELECT {picked} FROM {' JOIN '.join(joins)} WHERE {' AND '.join(conditions)}"
