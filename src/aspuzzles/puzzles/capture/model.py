"""Capture's boards, moves and plans, and the alphabet they are written in."""

from __future__ import annotations

from typing import NamedTuple

SIZE = 8


EMPTY = "_"


SKULL, FLAMING = "s", "S"


TILES = "ybgrpcsS"


TILE_NAMES = {
    "y": "yellow",
    "b": "blue",
    "g": "green",
    "r": "red",
    "p": "purple star",
    "c": "coin",
    "s": "skull",
    "S": "flaming skull",
}


#: Direction names of the seed, and the (row, column) step each one takes.
DIRECTIONS = {"Up": (-1, 0), "Down": (1, 0), "Left": (0, -1), "Right": (0, 1)}


#: ASP constants for tiles (``S`` is not a constant in ASP, so flaming skulls are ``f``).
ATOM_OF_TILE = {tile: ("f" if tile == FLAMING else tile) for tile in TILES}


TILE_OF_ATOM = {atom: tile for tile, atom in ATOM_OF_TILE.items()}


Board = str  # 64 characters, row by row; row 0 is the top


EMPTY_BOARD: Board = EMPTY * SIZE * SIZE


Cell = tuple[int, int]


class Move(NamedTuple):
    """Swap the tile at (row, col) with its neighbour in ``direction``."""

    row: int
    col: int
    direction: str

    @property
    def target(self) -> Cell:
        step = DIRECTIONS[self.direction]
        return self.row + step[0], self.col + step[1]

    @property
    def cells(self) -> tuple[int, int]:
        """The two cells swapped, as numbers (row * 8 + column): this one, the target."""
        target_row, target_col = self.target
        return self.row * SIZE + self.col, target_row * SIZE + target_col

    def __str__(self) -> str:
        return f"{self.row} {self.col} {self.direction}"


#: After how many moves of a plan the simulator takes over by default.
LOOKAHEAD = 1
#: For how many seconds the breadth-first search in Python may try by default.
BREADTH_FIRST_SECONDS = 2.0


class CaptureInstance(NamedTuple):
    """The starting board as 64 characters, row by row; after how many moves of a plan
    the simulator takes over refuting boards (0: never; see `Lookahead`); and for how
    many seconds a breadth-first search in Python may try to answer the board before
    clingo starts (0: not at all; see `plans.shortest_plan`)."""

    board: Board
    lookahead: int = LOOKAHEAD
    breadth_first: float = BREADTH_FIRST_SECONDS

    def tiles(self) -> int:
        return sum(tile != EMPTY for tile in self.board)


class MoveEffect(NamedTuple):
    """What one move did: the board after it, and its cascade in figures."""

    board: Board
    removed: int
    phases: int
    explosions: int


class CaptureSolution(NamedTuple):
    """A shortest move list, with the settled board after each move as ASP saw it."""

    moves: tuple[Move, ...]
    boards: tuple[Board, ...]
    #: Proved minimal by the solver (not given by a person, nor found before a time limit).
    shortest: bool = True
    #: What the first board is called where it is drawn: the start, or (a hint's move
    #: drawn from a board the player has already played on) the board as it is now.
    first_board: str = "start"
