"""Tiles on the web board: a tray of the tiles not yet placed, each drawn with its
edges (as the board draws them) and its number, the number hints name it by. A tile
chosen in the tray is put on a place; a place's values ``TILE/TURN`` are the tile in
its turns."""

from __future__ import annotations

from html import escape
from typing import Any

from clingo import Symbol

from ...capabilities import Play
from . import palette, short_label
from .model import TilesInstance

#: A tray tile's side, in pixels.
SIDE = 56


def tile_svg(instance: TilesInstance, number: int) -> str:
    """Tile ``number`` unturned: four triangles in its edges' colours, each labelled,
    and its number in a white disc in the middle."""
    edges = instance.tiles[number - 1]
    values = sorted({edge for tile in instance.tiles for edge in tile})
    colours = palette(instance.style, values)
    label = short_label if instance.style == "animal" else str
    s, c = SIDE, SIDE / 2
    corners = ((0, 0), (s, 0), (s, s), (0, s))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{s}" height="{s}" '
        f'viewBox="0 0 {s} {s}" font-family="sans-serif">'
    ]
    for side in range(4):
        (x1, y1), (x2, y2) = corners[side], corners[(side + 1) % 4]
        fill = colours.get(edges[side], "#ffffff")
        parts.append(
            f'<polygon points="{x1},{y1} {x2},{y2} {c},{c}" fill="{fill}" stroke="#333" '
            'stroke-width="0.5"/>'
        )
    places = ((c, 9, 0), (s - 6, c, 90), (c, s - 4, 0), (6, c, -90))
    for (x, y, turn), edge in zip(places, edges, strict=True):
        text = escape(label(edge)[:5])
        rotation = f' transform="rotate({turn} {x} {y})"' if turn else ""
        baseline = ' dominant-baseline="central"' if turn else ""
        parts.append(
            f'<text x="{x}" y="{y}" text-anchor="middle" font-size="7"{baseline}{rotation}>'
            f"{text}</text>"
        )
    parts.append(f'<circle cx="{c}" cy="{c}" r="9" fill="white" stroke="#333"/>')
    parts.append(
        f'<text x="{c}" y="{c + 4}" text-anchor="middle" font-size="11" '
        f'font-weight="bold">{number}</text></svg>'
    )
    return "".join(parts)


def placed_tiles(entries: list[Symbol]) -> set[int]:
    """The tiles the entries put on the board (``place(R,C,TILE,TURN)``)."""
    return {entry.arguments[2].number for entry in entries if entry.match("place", 4)}


def tray(instance: TilesInstance, entries: list[Symbol]) -> list[dict[str, Any]]:
    """Every tile, drawn; ``placed`` the ones on the board (given or entered)."""
    placed = placed_tiles(entries) | {fix.tile for fix in instance.fixed}
    return [
        {
            "id": str(number),
            "label": f"tile {number}",
            "svg": tile_svg(instance, number),
            "prefix": f"{number}/",
            "placed": number in placed,
        }
        for number in range(1, len(instance.tiles) + 1)
    ]


class TilesPlay(Play[TilesInstance]):
    def panel(self, instance: TilesInstance, entries: list[Symbol]) -> dict[str, Any]:
        return {"tray": tray(instance, entries)}
