"""The cake on the web board: how many pieces to cut, of how many cells, and the
toppings each must hold, said above the board (the sides are cut by clicking them)."""

from __future__ import annotations

from typing import Any

from clingo import Symbol

from ...capabilities import Play
from . import CakeInstance, topping_name


def pieces_note(instance: CakeInstance) -> str:
    """``cut 6 pieces of 5 cells, each with 1 plain, 2 skull``."""
    totals = instance.totals()
    each = ", ".join(
        f"{totals[kind] // instance.pieces} {topping_name(kind) or kind}" for kind in sorted(totals)
    )
    return f"cut {instance.pieces} pieces of {instance.piece_size()} cells, each with {each}"


class CakePlay(Play[CakeInstance]):
    def panel(self, instance: CakeInstance, entries: list[Symbol]) -> dict[str, Any]:
        return {"notes": [pieces_note(instance)]}
