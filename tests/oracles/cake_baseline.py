"""A plain Python search for the cake: the baseline the ASP encoding is compared with.

Pieces are built one at a time, each from the first free cell in reading order, by
enumerating the connected cell sets of the piece size that contain it (each exactly
once: a candidate not taken is excluded from the later branches), pruned by the
topping quotas and by the free regions left behind (each must be a whole number of
pieces with whole quotas). It counts every partition exactly once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

Cell = tuple[int, int]


def partitions(grid: list[str], pieces: int) -> Iterator[list[frozenset[Cell]]]:
    rows, cols = len(grid), len(grid[0])
    totals = Counter("".join(grid))
    if any(total % pieces for total in totals.values()):
        return
    size = rows * cols // pieces
    quota = {kind: total // pieces for kind, total in totals.items()}

    def neighbours(cell: Cell) -> Iterator[Cell]:
        row, col = cell
        for d_row, d_col in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            if 0 <= row + d_row < rows and 0 <= col + d_col < cols:
                yield row + d_row, col + d_col

    def regions_ok(free: set[Cell]) -> bool:
        left = set(free)
        while left:
            stack = [left.pop()]
            region = [stack[0]]
            while stack:
                for other in neighbours(stack.pop()):
                    if other in left:
                        left.remove(other)
                        stack.append(other)
                        region.append(other)
            if len(region) % size:
                return False
            multiple = len(region) // size
            held = Counter(grid[r][c] for r, c in region)
            if any(held[kind] != multiple * q for kind, q in quota.items()):
                return False
        return True

    def pieces_from(root: Cell, free: set[Cell]) -> Iterator[frozenset[Cell]]:
        held = Counter({grid[root[0]][root[1]]: 1})

        def extend(piece: list[Cell], candidates: list[Cell], banned: set[Cell]):
            if len(piece) == size:
                yield frozenset(piece)
                return
            banned_here = set(banned)
            for index, cell in enumerate(candidates):
                kind = grid[cell[0]][cell[1]]
                if held[kind] < quota[kind]:
                    held[kind] += 1
                    piece.append(cell)
                    grown = candidates[index + 1 :] + [
                        n
                        for n in neighbours(cell)
                        if n in free
                        and n not in piece
                        and n not in banned_here
                        and n not in candidates
                    ]
                    yield from extend(piece, grown, banned_here | {cell})
                    piece.pop()
                    held[kind] -= 1
                banned_here.add(cell)

        first = [n for n in neighbours(root) if n in free]
        yield from extend([root], first, {root})

    def solve(free: set[Cell], done: list[frozenset[Cell]]):
        if not free:
            yield list(done)
            return
        root = min(free)
        rest = free - {root}
        for piece in pieces_from(root, rest):
            remaining = rest - piece
            if regions_ok(remaining):
                done.append(piece)
                yield from solve(remaining, done)
                done.pop()

    yield from solve({(r, c) for r in range(rows) for c in range(cols)}, [])


def count(grid: list[str], pieces: int) -> int:
    return sum(1 for _ in partitions(grid, pieces))


def first(grid: list[str], pieces: int) -> list[frozenset[Cell]] | None:
    return next(partitions(grid, pieces), None)
