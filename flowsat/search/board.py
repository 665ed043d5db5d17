"""Bitboards: a set of cells is one Python integer, cell (r, c) its bit r*stride + c.

Why integers and not numpy: a search state is mostly sets of cells (free space, a flow's body,
the open ends), and the checks are set algebra on them: neighbors, flood fills, counts. On an
int every such step is one C-level operation over the whole board (a 14x14 board is four
machine words), with no per-call overhead, and the ints are immutable, so children share them
with their parents. numpy pays microseconds a call on arrays of 200 cells, more than the work.

The stride is width + 1: the spare column is never set, so a one-bit shift never carries a cell
from the end of one row to the start of the next.

`Board` is the square grid (holes and walls or not), whose neighbors are the four shifts by 1
and by the stride; `GraphBoard` is any other board (hexagonal, bridges, warps), built from the
puzzle's board graph: its links grouped by the distance between their ends' bits, each group
a (shift, mask) pair, so that its neighbors are a few shifts too (on a hexagonal board, by 1,
the stride and the stride +- 1, masked by column parity). A bridge's two passes are two cells:
the across pass takes the bridge's bit, the up-and-down pass a bit in a second plane beyond the
last row.
"""

from __future__ import annotations

from functools import cache

from flowsat.puzzle.board import Board as Graph
from flowsat.puzzle.model import Cell

KINDS = frozenset({"square", "holes", "walls", "bridges", "hex", "warps"})  # the kinds they hold
# the order each cell's neighbors are tried in (on the square grid as in 2016)
ORDER = {"square": ("left", "right", "up", "down"),
         "hex": ("up", "down", "up-left", "up-right", "down-left", "down-right")}


class Board:
    """The geometry of a height x width square board, less its holes (cells not on the board,
    never set in any mask) and the links its walls block: cell indices, neighbor masks, flood
    fills."""

    def __init__(self, height: int, width: int, holes: frozenset[Cell] = frozenset(),
                 walls: frozenset[frozenset[Cell]] = frozenset()):
        self.height, self.width, self.stride = height, width, width + 1
        # the kinds of board (see `flowsat.search.checks`)
        self.kinds = frozenset(["square"] + ["holes"] * bool(holes) + ["walls"] * bool(walls))
        self.index = {(r, c): r * self.stride + c for r in range(height) for c in range(width)
                      if (r, c) not in holes}
        self.cell = {i: cell for cell, i in self.index.items()}
        self.all = sum(1 << i for i in self.index.values())
        # the open links: bit i of `across` joins cells i and i+1, of `down` i and i+stride
        self.across, self.down = self.all & self.all >> 1, self.all & self.all >> self.stride
        for wall in walls:
            if not wall <= self.index.keys():  # beside a hole: no link to block
                continue
            i, j = sorted(self.index[cell] for cell in wall)
            if j == i + 1:
                self.across &= ~(1 << i)
            else:
                self.down &= ~(1 << i)
        self.ways = [(1, self.across), (self.stride, self.down)]  # see `GraphBoard.ways`
        if walls:  # the shifts and 3x3 blocks below know no walls
            self.spread, self.regions = self.spread_linked, self.regions_linked
            self.carve = self.carve_linked
        # one color of a two-coloring (a checkerboard's black cells)
        self.black = sum(1 << i for (r, c), i in self.index.items() if (r + c) % 2 == 0)
        size = height * self.stride
        self.nbrs = [self.spread(1 << i) if i in self.cell else 0 for i in range(size)]
        # steps[d][i]: the next cell from i in direction d (left, right, up, down), or -1
        self.steps = [[self.step(i, dr, dc) for i in range(size)]
                      for dr, dc in ((0, -1), (0, 1), (-1, 0), (1, 0))]
        # each cell's neighbors in that order (the order moves are tried in, as in 2016)
        self.nbr_list = [[j for j in (step[i] for step in self.steps)
                          if j >= 0 and self.nbrs[i] >> j & 1] for i in range(size)]

    @staticmethod
    def tables_mb(height: int, width: int, planes: int = 1) -> float:
        """About the memory the tables of a board take, before it is made: the neighbor mask
        of cell i is an int of i bits (i / 7.5 bytes), so the masks grow with the square of
        the cells (64 GB for 1002x1002), plus some 350 bytes a cell for the rest (with
        bridges, a second plane of cells: `GraphBoard`)."""
        size = height * (width + 1) * planes
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

    def sides(self, m: int) -> list[int]:
        """For each way of a link (each direction), the cells whose neighbor that way
        (through an open link) is in m."""
        found = []
        for shift, links in self.ways:
            found += [(m >> shift) & links, (m & links) << shift]
        return found

    def spread_linked(self, m: int) -> int:
        """`spread` through open links only."""
        around = 0
        for shift, links in self.ways:
            around |= ((m >> shift) & links) | ((m & links) << shift)
        return around

    def regions_linked(self, free: int) -> list[int]:
        """`regions` through open links only."""
        found = []
        while free:
            region = free & -free
            while (grown := (region | self.spread_linked(region)) & free) != region:
                region = grown
            found.append(region)
            free ^= region
        return found

    def carve_linked(self, regions: list[int], free: int, x: int) -> list[int]:
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
        flood-filled again only when x may separate its free neighbors (`split_table`)."""
        b = 1 << x
        k = next(k for k, r in enumerate(regions) if r & b)
        rest = regions[k] & ~b
        split = split_table()[ring(free, x, self.stride)]
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


class GraphBoard(Board):
    """The bitboards of any board graph (hexagonal, bridges, warps, with holes and walls or
    not): the same masks and methods as `Board`, its neighbors given by `ways`."""

    def __init__(self, graph: Graph):  # (all made here, not by Board's)
        self.height, self.width, self.stride = graph.height, graph.width, graph.width + 1
        self.kinds = frozenset(graph.kind.split("+"))
        self.graph, self.plane = graph, graph.height * self.stride  # bit of a second pass
        self.index = {graph.cell(i): self.bit(i) for i in graph.cells}
        self.cell = {i: cell for cell, i in self.index.items()}
        self.cell.update({self.bit(b) + self.plane: graph.cell(b) for b in graph.bridges})
        self.all = sum(1 << i for i in self.cell)
        # the open links grouped by the distance between their ends: (shift, mask) pairs, bit
        # i of the mask joining cells i and i + shift
        ways: dict[int, int] = {}
        for a, b in graph.link_list:
            i, j = sorted((self.node(a, b), self.node(b, a)))
            ways[j - i] = ways.get(j - i, 0) | 1 << i
        self.ways = sorted(ways.items())
        self.spread, self.regions, self.carve = (self.spread_linked, self.regions_linked,
                                                 self.carve_linked)
        # a two-coloring on the square grid (a bridge's passes take its cell's color); a
        # hexagonal board has none (parity is off there)
        square = graph.shape == "square"
        self.black = sum(1 << i for i, (r, c) in self.cell.items() if square and (r + c) % 2 == 0)
        size = self.plane * (2 if graph.bridges else 1)
        self.nbrs = [self.spread(1 << i) if i in self.cell else 0 for i in range(size)]
        self.steps = [[-1] * size for _ in ORDER[graph.shape]]
        for step, d in zip(self.steps, ORDER[graph.shape], strict=True):
            for i, n in enumerate(graph.toward[d]):
                if n is not None:
                    step[self.node(i, n)] = self.node(n, i)
        self.nbr_list = [list(dict.fromkeys(step[i] for step in self.steps if step[i] >= 0))
                         for i in range(size)]

    def bit(self, i: int) -> int:
        """The bit of the graph's cell i (a bridge's across pass)."""
        r, c = self.graph.cell(i)
        return r * self.stride + c

    def node(self, i: int, n: int) -> int:
        """The bit of the graph's cell i as the link to its neighbor n reaches it (a bridge's
        pass of that way)."""
        up_down = i in self.graph.bridges and self.graph.axis_of(i, n) == 1
        return self.bit(i) + self.plane * up_down


def indices(m: int) -> list[int]:
    """The bit positions of m, lowest first."""
    found = []
    while m:
        low = m & -m
        found.append(low.bit_length() - 1)
        m ^= low
    return found


def tally(masks: list[int]) -> tuple[int, int, int]:
    """The cells in at least one, two and three of the masks."""
    one = two = three = 0
    for m in masks:
        three |= two & m
        two |= one & m
        one |= m
    return one, two, three


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


@cache
def split_table() -> list[bool]:
    """`splits` of each of the 512 blocks, made on first use: by a search, not by every run
    that imports the search's options."""
    return [splits(block) for block in range(512)]
