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

KINDS = frozenset({"square", "holes", "walls", "warps"})  # the kinds the bitboards hold


class Board:
    """The geometry of a height x width board, less its holes (cells not on the board, never
    set in any mask) and the links its walls block, and with warps (the links from each
    row's and column's last cell to its first) or not: cell indices, neighbor masks, flood
    fills."""

    def __init__(self, height: int, width: int, holes: frozenset[Cell] = frozenset(),
                 walls: frozenset[frozenset[Cell]] = frozenset(), wrap: bool = False):
        self.height, self.width, self.stride = height, width, width + 1
        # the kinds of board (see `flowsat.search.checks`)
        self.kinds = frozenset(["square"] + ["holes"] * bool(holes) + ["walls"] * bool(walls)
                               + ["warps"] * wrap)
        self.index = {(r, c): r * self.stride + c for r in range(height) for c in range(width)
                      if (r, c) not in holes}
        self.cell = {i: cell for cell, i in self.index.items()}
        self.all = sum(1 << i for i in self.index.values())
        # the open links: bit i of `across` joins cells i and i+1, of `down` i and i+stride;
        # with warps, bit i of `warp_across` joins the last cell i of a row to its first,
        # i - warp_h, and of `warp_down` the last cell i of a column to its first, i - warp_v
        self.across, self.down = self.all & self.all >> 1, self.all & self.all >> self.stride
        self.warp_h, self.warp_v = width - 1, (height - 1) * self.stride
        self.warp_across = self.warp_down = 0
        if wrap:
            self.warp_across = self.all & (self.all << self.warp_h) & sum(
                1 << (r * self.stride + width - 1) for r in range(height))
            self.warp_down = self.all & (self.all << self.warp_v) & sum(
                1 << (self.warp_v + c) for c in range(width))
        for wall in walls:
            if not wall <= self.index.keys():  # beside a hole: no link to block
                continue
            i, j = sorted(self.index[cell] for cell in wall)
            if j == i + 1:
                self.across &= ~(1 << i)
            elif j == i + self.stride:
                self.down &= ~(1 << i)
            elif j == i + self.warp_h:
                self.warp_across &= ~(1 << j)
            else:
                self.warp_down &= ~(1 << j)
        if walls or wrap:  # the shifts and 3x3 blocks below know no walls or warps
            self.spread, self.regions = self.spread_walled, self.regions_walled
            self.carve = self.carve_walled
        # one color of a two-coloring (a checkerboard's black cells)
        self.black = sum(1 << i for (r, c), i in self.index.items() if (r + c) % 2 == 0)
        size = height * self.stride
        self.nbrs = [self.spread(1 << i) if i in self.cell else 0 for i in range(size)]
        # steps[d][i]: the next cell from i in direction d (left, right, up, down), or -1
        self.steps = [[self.step(i, dr, dc) for i in range(size)]
                      for dr, dc in ((0, -1), (0, 1), (-1, 0), (1, 0))]
        # each cell's neighbors in that order (the order moves are tried in, as in 2016)
        # (through open links; across the warps last)
        self.nbr_list = [[j for j in (step[i] for step in self.steps)
                          if j >= 0 and self.nbrs[i] >> j & 1] for i in range(size)]
        if wrap:
            for i, near in enumerate(self.nbr_list):
                near += [j for j in indices(self.nbrs[i]) if j not in near]

    @staticmethod
    def tables_mb(height: int, width: int) -> float:
        """About the memory the tables of a board take, before it is made: the neighbor mask
        of cell i is an int of i bits (i / 7.5 bytes), so the masks grow with the square of
        the cells (64 GB for 1002x1002), plus some 350 bytes a cell for the rest."""
        size = height * (width + 1)
        return (size * size / 15 + 350 * size) / (1 << 20)

    def step(self, i: int, dr: int, dc: int) -> int:
        if i not in self.cell:
            return -1
        r, c = self.cell[i]
        return self.index.get((r + dr, c + dc), -1)

    def spread(self, m: int) -> int:
        """The cells next to some cell of m (m itself only where its cells neighbor each other)."""
        s = self.stride
        return ((m << 1) | (m >> 1) | (m << s) | (m >> s)) & self.all

    def sides(self, m: int) -> tuple[int, int, int, int]:
        """The cells whose left, right, upper and lower neighbor (through an open link, across
        a warp too) is in m."""
        a, d, s = self.across, self.down, self.stride
        left, right, up, low = (m & a) << 1, (m >> 1) & a, (m & d) << s, (m >> s) & d
        if self.warp_across | self.warp_down:
            wa, wd, h, v = self.warp_across, self.warp_down, self.warp_h, self.warp_v
            left |= (m & wa) >> h  # a row's first cell: its left neighbor is the last
            right |= (m << h) & wa
            up |= (m & wd) >> v
            low |= (m << v) & wd
        return left, right, up, low

    def spread_walled(self, m: int) -> int:
        """`spread` through open links only (across the warps too)."""
        left, right, up, low = self.sides(m)
        return left | right | up | low

    def regions_walled(self, free: int) -> list[int]:
        """`regions` through open links only."""
        found = []
        while free:
            region = free & -free
            while (grown := (region | self.spread_walled(region)) & free) != region:
                region = grown
            found.append(region)
            free ^= region
        return found

    def carve_walled(self, regions: list[int], free: int, x: int) -> list[int]:
        """`carve`, flood-filling x's region again every time."""
        k = next(k for k, r in enumerate(regions) if r >> x & 1)
        return regions[:k] + self.regions(regions[k] & ~(1 << x)) + regions[k + 1:]

    def dilate(self, m: int) -> int:
        """m and every cell next to it."""
        return m | self.spread(m)

    def regions(self, free: int) -> list[int]:
        """The connected components of a set of cells, one mask each."""
        s, found = self.stride, []
        while free:
            region = free & -free
            while True:
                grown = (region | (region >> 1) | (region << s) | (region >> s)) & free
                grown |= ((free + grown) ^ free) & free  # the carry runs along each row
                if grown == region:
                    break
                region = grown
            found.append(region)
            free ^= region
        return found

    def carve(self, regions: list[int], free: int, x: int) -> list[int]:
        """The regions of `free` once its cell x is filled: only x's region changes, and it is
        flood-filled again only when x may separate its free neighbors (SPLITS)."""
        b = 1 << x
        k = next(k for k, r in enumerate(regions) if r & b)
        rest = regions[k] & ~b
        split = SPLITS[ring(free, x, self.stride)]
        parts = self.regions(rest) if split else [rest] if rest else []
        return regions[:k] + parts + regions[k + 1:]

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


def ring(free: int, x: int, stride: int) -> int:
    """The 3x3 block of `free` around cell x as 9 bits, row by row (x itself is bit 4)."""
    q = (free << (stride + 1)) >> x
    return (q & 7) | ((q >> stride) & 7) << 3 | ((q >> 2 * stride) & 7) << 6


def splits(block: int) -> bool:
    """Whether filling the center of a 3x3 block may disconnect its free orthogonal
    neighbors: they are not all joined around the ring of the 8 cells about the center."""
    around = (0, 1, 2, 5, 8, 7, 6, 3)  # the ring, clockwise; consecutive cells are neighbors
    free = [block >> i & 1 for i in around]
    groups = []  # ring components as sets of positions in `around`
    for k in range(8):
        if free[k]:
            if groups and free[k - 1] and (k - 1) in groups[-1]:
                groups[-1].add(k)
            else:
                groups.append({k})
    if len(groups) > 1 and free[0] and free[7]:  # the ring closes between 7 and 0
        groups[0] |= groups.pop()
    sides = {1, 3, 5, 7}  # N, E, S, W in ring positions
    return sum(1 for g in groups if g & sides) > 1


SPLITS = [splits(block) for block in range(512)]
