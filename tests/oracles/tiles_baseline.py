"""A plain Python backtracking search for edge-matching boards (the benchmark baseline).

Cells are filled in reading order; each takes an unused tile in each of its distinct
rotations that matches the left and upper neighbours (and, on framed boards, shows grey
exactly towards the border); a fixed cell takes only its fixed tile, showing the
picture of its fixed turn. It counts raw placements: no symmetry is broken.
"""

from __future__ import annotations

from aspuzzles.puzzles.tiles.model import FRAME, TilesInstance, distinct_rotations, partner, rotate


def count_raw(instance: TilesInstance, limit: int | None = None) -> int:
    rows, cols, style = instance.rows, instance.cols, instance.style
    framed = style == "e2"
    turned = [
        [rotate(tile, turns) for turns in distinct_rotations(tile)] for tile in instance.tiles
    ]
    used = [False] * len(turned)
    fixed_at = {(fix.row - 1, fix.col - 1): fix for fix in instance.fixed}
    for fix in instance.fixed:
        used[fix.tile - 1] = True  # placed on its own cell only
    board: list[tuple[str, str, str, str]] = []
    found = 0

    def fits(edges: tuple[str, str, str, str], row: int, col: int) -> bool:
        if col > 0 and partner(style, board[-1][1]) != edges[3]:
            return False
        if row > 0 and partner(style, board[-cols][2]) != edges[0]:
            return False
        if framed:
            border = (row == 0, col == cols - 1, row == rows - 1, col == 0)
            return all(
                (edge == FRAME) == outside for edge, outside in zip(edges, border, strict=True)
            )
        return True

    def place(index: int) -> bool:
        nonlocal found
        if index == rows * cols:
            found += 1
            return limit is not None and found >= limit
        row, col = divmod(index, cols)
        if (row, col) in fixed_at:
            fix = fixed_at[row, col]
            edges = rotate(instance.tiles[fix.tile - 1], fix.turns)
            if not fits(edges, row, col):
                return False
            board.append(edges)
            stop = place(index + 1)
            board.pop()
            return stop
        for tile, forms in enumerate(turned):
            if used[tile]:
                continue
            for edges in forms:
                if fits(edges, row, col):
                    used[tile] = True
                    board.append(edges)
                    stop = place(index + 1)
                    board.pop()
                    used[tile] = False
                    if stop:
                        return True
        return False

    place(0)
    return found
