"""A bare encoding's board for an answer or a progress: its ``view`` part's atoms when
it has one (grounded by ``driver.answers.view_atoms``), else the default drawing of
the instance's facts and the atoms (``view.default_view``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from clingo import Symbol

from ..driver.answers import view_atoms
from ..driver.loading import checked_encoding
from .view import View, default_view, from_atoms, with_values

if TYPE_CHECKING:
    from . import BareInstance, BarePuzzle


def board_view(
    puzzle: BarePuzzle,
    instance: BareInstance,
    atoms: Sequence[Symbol],
    places: Sequence[tuple[int, int]] = (),
) -> View:
    """What the board shows with ``atoms`` (an answer's shown atoms, or a player's
    entries), each place's value as the web board reads it; ``places``: cells drawn
    as places whatever the view says (where an entry can be set)."""
    from .hints import instance_facts

    encoding = checked_encoding(puzzle, None).path
    if puzzle.declared().views:
        shown = view_atoms(
            encoding, instance.program, atoms, puzzle.clingo_options, instance.source
        )
        view = from_atoms(shown)
    else:
        view = default_view(instance_facts(instance), set(puzzle.declared().structure), atoms)
    view.places |= set(places)
    return with_values(view, atoms)
