"""Bitboards: a set of cells is one Python integer, cell (r, c) its bit r*stride + c.

Why integers and not numpy: a search state is mostly sets of cells (free space, a flow's body,
the open ends), and the checks are set algebra on them: neighbors, flood fills, counts. On an
int every such step is one C-level operation over the whole board (a 14x14 board is four
machine words), with no per-call overhead, and the ints are immutable, so children share them
with their parents. numpy pays microseconds a call on arrays of 200 cells, more than the work.

The stride is width + 1: the spare column is never set, so a one-bit shift never carries a cell
from the end of one row to the start of the next.
"""

from __future__ import annotations

from flowsat.puzzle.model import Cell


class Board:
    """The geometry of a height x width board: cell indices, neighbor masks, flood fills."""

    def __init__(self, height: int, width: int):
        self.height, self.width, self.stride = height, width, width + 1
        self.index = {(r, c): r * self.stride + c for r in range(height) for c in range(width)}
        self.cell = {i: cell for cell, i in self.index.items()}
        self.all = sum(1 << i for i in self.index.values())
        size = height * self.stride
        self.nbrs = [self.spread(1 << i) if i in self.cell else 0 for i in range(size)]
        self.nbr_list = [indices(m) for m in self.nbrs]
        # steps[d][i]: the next cell from i in direction d (up, down, left, right), or -1
        self.steps = [[self.step(i, dr, dc) for i in range(size)]
                      for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]

    def step(self, i: int, dr: int, dc: int) -> int:
        if i not in self.cell:
            return -1
        r, c = self.cell[i]
        return self.index.get((r + dr, c + dc), -1)

    def spread(self, m: int) -> int:
        """The cells next to some cell of m (m itself only where its cells neighbor each other)."""
        s = self.stride
        return ((m << 1) | (m >> 1) | (m << s) | (m >> s)) & self.all

    def dilate(self, m: int) -> int:
        """m and every cell next to it."""
        return m | self.spread(m)

    def regions(self, free: int) -> list[int]:
        """The connected components of a set of cells, one mask each."""
        s, found = self.stride, []
        while free:
            region = free & -free
            while True:
                grown = (region | (region << 1) | (region >> 1) | (region << s)
                         | (region >> s)) & free
                if grown == region:
                    break
                region = grown
            found.append(region)
            free ^= region
        return found

    def wall_distance(self, i: int) -> int:
        r, c = self.cell[i]
        return min(r, c, self.height - 1 - r, self.width - 1 - c)

    def manhattan(self, i: int, j: int) -> int:
        (r, c), (q, d) = self.cell[i], self.cell[j]
        return abs(r - q) + abs(c - d)

    def mask(self, cells: list[Cell]) -> int:
        return sum(1 << self.index[cell] for cell in cells)


def indices(m: int) -> list[int]:
    """The bit positions of m, lowest first."""
    found = []
    while m:
        low = m & -m
        found.append(low.bit_length() - 1)
        m ^= low
    return found
