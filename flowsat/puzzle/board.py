"""The board as a graph: every kind of Flow Free board is one description, asked by all of flowsat.

API (stable):

- `Board(width, height, shape="square"|"hex", wrap=False, holes=frozenset(),
  walls=frozenset(), bridges=frozenset())`, frozen and hashable. Cells are numbered
  `row * width + column` (holes included, so numbers are the same as the game's); `holes`,
  `bridges` are sets of cell numbers, `walls` a set of `(a, b)` pairs (a < b) of neighboring
  cells (a wrap included) whose link is blocked. `Board.square(w, h)` is the plain board.
- `problem()`: what makes the description impossible (None when it is fine); `kind`: a name
  such as `square`, `hex+holes`, `square+walls+bridges+warps`; `plain`: kind == "square".
- `number((r, c))`, `cell(i)`, `size` (= width * height, holes included), `on_board[i]`
  (`on_array` as an array),
  `cells` (the numbers of the cells on the board, increasing).
- `directions`: the direction names of the shape, in a fixed order (square: up, down, left,
  right; hex: up, down, up-left, up-right, down-left, down-right), `OPPOSITE[d]`.
- `toward[d][i]`: the neighbor of cell i in direction d through an open link (no wall, no
  hole, wraps followed), or None; `toward_arrays[d]` the same as an int array, -1 for None.
  `neighbors[i]`: those neighbors in direction order.
- `links`: numpy int array (L, 2) of the open links (a < b), in the order `for i in cells: for
  j in neighbors[i]: if i < j` (on a plain square board the order flowsat always used);
  `link_ways`: each cell's row of `links` each way (-1: none);
  `link_index[(a, b)]`: a link's row; `wraps`: numpy bool array (L,), the links that wrap.
- `axes[b]` for each bridge cell b: its straight-through pairs of neighbors `((left, right),
  (up, down))`, one per flow that crosses it (pass 0 across, pass 1 up and down);
  `axis_of(b, n)`: the pass of bridge b that the link to neighbor n belongs to.
- `center(i)`: where cell i is drawn, (x, y) in cell heights from the top left corner (hex:
  flat-topped hexagons one cell high, columns sqrt(3)/2 apart, even columns half a cell lower).
- `geometric_neighbor(i, d)`: the cell in direction d ignoring walls and holes (wraps followed
  on wrap boards), or None off the board: what renderers and parsers need to place walls;
  `step(i, d, wrap)` the same with wrapping chosen; `adjacent(i)`: the set of them all;
  `way_between(a, b)`: the direction from cell a to cell b when b is one of them (else None),
  `ways_along(path)` the same for each step of a path.

Hexagonal boards: the neighbors of (r, c) are (r±1, c), (r, c±1), and (r+1, c±1) when c is
even (0-based), (r-1, c±1) when c is odd: even columns sit half a cell lower.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import pairwise, repeat

import numpy as np

Cell = tuple[int, int]

SQUARE = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
# hex offsets by column parity: [even column, odd column]
HEX = {"up": ((-1, 0), (-1, 0)), "down": ((1, 0), (1, 0)),
       "up-left": ((0, -1), (-1, -1)), "up-right": ((0, 1), (-1, 1)),
       "down-left": ((1, -1), (0, -1)), "down-right": ((1, 1), (0, 1))}
OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left",
            "up-left": "down-right", "down-right": "up-left",
            "up-right": "down-left", "down-left": "up-right"}
SHAPES = ("square", "hex")
DIRECTIONS = {"square": tuple(SQUARE), "hex": tuple(HEX)}
MIN_WRAP = 3  # a wrap board narrower than this would link a cell to itself or twice


@dataclass(frozen=True)
class Board:
    """The cells and the open links between them (see the module docstring)."""

    width: int
    height: int
    shape: str = "square"
    wrap: bool = False
    holes: frozenset[int] = frozenset()
    walls: frozenset[tuple[int, int]] = frozenset()
    bridges: frozenset[int] = frozenset()

    def __hash__(self) -> int:  # a board keys the caches of what it derives: hashed often
        return self.hashed

    @cached_property
    def hashed(self) -> int:
        """The board's hash, made once (of no text: the same in every process)."""
        return hash((self.width, self.height, self.shape == "hex", self.wrap, self.holes,
                     self.walls, self.bridges))

    @classmethod
    def square(cls, width: int, height: int) -> Board:
        """The plain board of that size: one instance per size, so that what it derives
        (links, neighbors, link_index) is made once for all the puzzles of that size."""
        return plain_board(width, height)

    # -- description -----------------------------------------------------------------------

    @property
    def size(self) -> int:
        return self.width * self.height

    @cached_property
    def kind(self) -> str:
        """The board's kind: its shape and what it has, e.g. 'hex+holes+warps'."""
        parts = [self.shape] + [name for name, present in (
            ("holes", self.holes), ("walls", self.walls), ("bridges", self.bridges),
            ("warps", self.wrap)) if present]
        return "+".join(parts)

    @property
    def plain(self) -> bool:
        return self.kind == "square"

    def problem(self) -> str | None:
        """Why this is no board, or None."""
        if self.shape not in SHAPES:
            return f"unknown board shape {self.shape!r}; shapes are {', '.join(SHAPES)}"
        if self.width < 1 or self.height < 1:
            return f"board {self.width}x{self.height} has no cells"
        if self.wrap and min(self.width, self.height) < MIN_WRAP:
            return f"a board with warps needs at least {MIN_WRAP} rows and columns"
        if self.wrap and self.shape == "hex" and self.width % 2:
            return "a hexagonal board with warps needs an even number of columns"
        for name, numbers in (("hole", self.holes), ("bridge", self.bridges)):
            bad = next((i for i in sorted(numbers) if not 0 <= i < self.size), None)
            if bad is not None:
                return f"{name} cell {bad} is off the {self.width}x{self.height} board"
        if self.holes & self.bridges:
            return f"cell {self.cell(min(self.holes & self.bridges))} is a hole and a bridge"
        if len(self.holes) == self.size:
            return "every cell is a hole"
        for a, b in sorted(self.walls):
            if not (0 <= a < self.size and 0 <= b < self.size) or b not in self.adjacent(a):
                return f"wall {a}|{b}: cells {a} and {b} are not neighbors"
        if self.bridges and self.shape != "square":
            return "bridges are only known on square boards"
        for b in sorted(self.bridges):
            if len(self.axes[b]) != 2:
                return f"bridge at {self.cell(b)} has no straight way through in both directions"
        return None

    # -- cells -----------------------------------------------------------------------------

    def number(self, cell: Cell) -> int:
        return cell[0] * self.width + cell[1]

    def cell(self, i: int) -> Cell:
        return divmod(i, self.width)

    @cached_property
    def cell_list(self) -> list[Cell]:
        """Each cell number's (row, column), one tuple a cell for every board of this size: a
        path of these very tuples is known by identity (the checker and the JSON writer read
        no value of it)."""
        return cell_tuples(self.width, self.size)

    @cached_property
    def on_board(self) -> tuple[bool, ...]:
        if not self.holes:
            return (True,) * self.size
        return tuple(i not in self.holes for i in range(self.size))

    @cached_property
    def on_array(self) -> np.ndarray:
        """`on_board` as a bool array."""
        found = np.ones(self.size, dtype=bool)
        found[sorted(self.holes)] = False
        return found

    @cached_property
    def cells(self) -> tuple[int, ...]:
        if not self.holes:
            return tuple(range(self.size))
        return tuple(i for i in range(self.size) if i not in self.holes)

    @property
    def directions(self) -> tuple[str, ...]:
        return DIRECTIONS[self.shape]

    def geometric_neighbor(self, i: int, direction: str) -> int | None:
        """The cell next to i that way, walls and holes ignored (wraps followed)."""
        return self.step(i, direction, self.wrap)

    def step(self, i: int, direction: str, wrap: bool) -> int | None:
        """The cell next to i that way on this board's grid, wrapping around or not."""
        r, c = self.cell(i)
        dr, dc = SQUARE[direction] if self.shape == "square" else HEX[direction][c % 2]
        r, c = r + dr, c + dc
        if wrap:
            r, c = r % self.height, c % self.width
        elif not (0 <= r < self.height and 0 <= c < self.width):
            return None
        return r * self.width + c

    @cached_property
    def way_by_offset(self) -> dict[tuple[int, int, int], str]:
        """The direction of each step on the grid, by (column parity, rows, columns) it goes
        (modulo the height and width with warps); the first direction where two are one step."""
        found: dict[tuple[int, int, int], str] = {}
        for parity in (0, 1):
            for d in self.directions:
                dr, dc = SQUARE[d] if self.shape == "square" else HEX[d][parity]
                if self.wrap:
                    dr, dc = dr % self.height, dc % self.width
                found.setdefault((parity, dr, dc), d)
        return found

    def way_between(self, a: Cell, b: Cell) -> str | None:
        """The direction d in which `geometric_neighbor(number(a), d)` is b, the first in
        `directions` (None: b is no such neighbor, or a cell is off the grid)."""
        return self.ways_along((a, b))[0]

    def ways_along(self, path: Sequence[Cell]) -> list[str | None]:
        """`way_between` each cell of the path and the next."""
        h, w, wrap, table = self.height, self.width, self.wrap, self.way_by_offset
        found: list[str | None] = []
        for (ra, ca), (rb, cb) in pairwise(path):
            if not (0 <= ra < h and 0 <= ca < w and 0 <= rb < h and 0 <= cb < w):
                found.append(None)
            elif wrap:
                found.append(table.get((ca % 2, (rb - ra) % h, (cb - ca) % w)))
            else:
                found.append(table.get((ca % 2, rb - ra, cb - ca)))
        return found

    def adjacent(self, i: int) -> set[int]:
        """The cells next to i, walls and holes ignored."""
        return {n for d in self.directions if (n := self.geometric_neighbor(i, d)) is not None}

    # -- links -----------------------------------------------------------------------------

    def is_open(self, a: int, b: int) -> bool:
        """Whether cells a and b (neighbors) are joined: both on the board, no wall between."""
        return (self.on_board[a] and self.on_board[b]
                and (min(a, b), max(a, b)) not in self.walls)

    @cached_property
    def toward(self) -> dict[str, tuple[int | None, ...]]:
        """For each direction, each cell's neighbor that way through an open link, or None."""
        out = {}
        for d, row in self.toward_arrays.items():
            ways = row.astype(object)
            ways[row < 0] = None
            out[d] = tuple(ways.tolist())
        return out

    @cached_property
    def toward_arrays(self) -> dict[str, np.ndarray]:
        """`toward` as int arrays, -1 where there is no neighbor (made with numpy on square
        boards: a million cells in well under a second)."""
        out = {}
        for d in self.directions:
            if self.shape == "square":
                row = self.square_steps(*SQUARE[d])
            else:
                row = np.array([-1 if (n := self.step(i, d, self.wrap)) is None else n
                                for i in range(self.size)], dtype=np.int64)
            if self.holes:
                holes = np.array(sorted(self.holes), dtype=np.int64)
                row[holes] = -1
                row[np.isin(row, holes)] = -1
            for a, b in self.walls:
                for i, j in ((a, b), (b, a)):
                    if row[i] == j:
                        row[i] = -1
            out[d] = row
        return out

    def square_steps(self, dr: int, dc: int) -> np.ndarray:
        """Each cell's neighbor one step (dr, dc) away on the square grid (|dr|, |dc| <= 1),
        -1 off the board: each cell's number plus the step's, the border rows and columns
        set apart (wrapped round with warps)."""
        w, h = self.width, self.height
        row = np.arange(dr * w + dc, self.size + dr * w + dc, dtype=np.int64)
        grid = row.reshape(h, w)  # a view: the border rows and columns in place
        for line, step, wrapped in ((grid[0] if dr < 0 else grid[-1], dr, h * w),
                                    (grid[:, 0] if dc < 0 else grid[:, -1], dc, w)):
            if step:
                line[...] = line - step * wrapped if self.wrap else -1
        return row

    @cached_property
    def neighbors(self) -> tuple[tuple[int, ...], ...]:
        ways = [self.toward[d] for d in self.directions]
        return tuple(tuple(n for n in around if n is not None)
                     for around in zip(*ways, strict=True))

    @cached_property
    def ways(self) -> np.ndarray:
        """`toward_arrays` as one (size, directions) array."""
        return self.stack_ways()

    def stack_ways(self) -> np.ndarray:
        return np.stack([self.toward_arrays[d] for d in self.directions], axis=1)

    @cached_property
    def _links(self) -> tuple[np.ndarray, np.ndarray]:
        """The links as an (L, 2) array in the documented order, and each one's direction
        (an index into `directions`, a byte) from its first cell."""
        if self.shape == "square" and not self.wrap:
            return self.square_links()
        ways = self.stack_ways()  # made for this, then let go (32 MB a million cells)
        cells = np.arange(self.size, dtype=np.int64)[:, None]
        at = np.flatnonzero(ways > cells)  # holes have no neighbors: no links from them
        first, ks = np.divmod(at, ways.shape[1])
        found = np.empty((len(at), 2), dtype=np.int64)
        found[:, 0], found[:, 1] = first, ways.ravel()[at]
        return found, ks.astype(np.int8)

    def square_links(self) -> tuple[np.ndarray, np.ndarray]:
        """`_links` of a square board without warps, where a link's larger cell is the one
        below or to the right of its first: those two ways only (`forward_rows`)."""
        names = self.directions
        forward = np.array([names.index("down"), names.index("right")], dtype=np.int8)
        at = np.flatnonzero(self.forward_rows.ravel() >= 0)  # (each cell's down, right)
        found = np.empty((len(at), 2), dtype=np.int64)
        found[:, 0] = at >> 1
        found[:, 1] = found[:, 0] + np.where(at & 1, 1, self.width)
        return found, forward[at & 1]

    @cached_property
    def forward_rows(self) -> np.ndarray:
        """On a square board without warps, each cell's row of `links` down and right (a
        (size, 2) array, -1 where none): the links in their order, counted."""
        rows = np.stack([self.toward_arrays["down"], self.toward_arrays["right"]], axis=1)
        linked = rows >= 0  # holes have no neighbors: no links from them
        rows[linked] = np.arange(np.count_nonzero(linked))
        return rows

    @cached_property
    def links(self) -> np.ndarray:
        return self._links[0]

    @cached_property
    def link_ways(self) -> np.ndarray:
        """Each cell's row of `links` each way (a (size, directions) array, -1 where none),
        made by scattering each link to its two cells (a step is one to one: no sort), on a
        square board without warps by shifting `forward_rows` (a cell's link up is the one
        down from the cell above it, its link left the one right from the cell before)."""
        if self.shape == "square" and not self.wrap:
            return self.square_link_ways()
        (links, ks), names = self._links, self.directions
        n = len(names)
        back = np.array([names.index(OPPOSITE[d]) for d in names])[ks]
        rows = np.arange(len(links), dtype=np.int64)
        found = np.full((self.size, n), -1, dtype=np.int64)
        flat = found.ravel()  # a view: each cell's row, then its direction
        flat[links[:, 0] * n + ks] = rows
        flat[links[:, 1] * n + back] = rows
        found.flags.writeable = False  # shared (the graph's way rows)
        return found

    def square_link_ways(self) -> np.ndarray:
        """`link_ways` of a square board without warps, from `forward_rows`."""
        names, w, ahead = self.directions, self.width, self.forward_rows
        found = np.full((self.size, len(names)), -1, dtype=np.int64)
        found[:, names.index("down")], found[:, names.index("right")] = ahead.T
        found[w:, names.index("up")] = ahead[:-w, 0]
        found[1:, names.index("left")] = ahead[:-1, 1]  # column 0: the row before's last, -1
        found.flags.writeable = False  # shared (the graph's way rows)
        return found

    @cached_property
    def link_list(self) -> list[tuple[int, int]]:
        """`links` as a list of Python pairs (what loops over links want)."""
        return list(map(tuple, self._links[0].tolist()))

    @cached_property
    def link_index(self) -> dict[tuple[int, int], int]:
        return {pair: k for k, pair in enumerate(self.link_list)}

    @cached_property
    def wraps(self) -> np.ndarray:
        """For each link, whether it goes across the border (a warp)."""
        names = self.directions
        return np.array([self.step(a, names[d], False) != b
                         for (a, b), d in zip(self.link_list, self._links[1].tolist(),
                                              strict=True)], dtype=bool)

    @cached_property
    def axes(self) -> dict[int, tuple[tuple[int, int], ...]]:
        """Each bridge cell's straight-through pairs of neighbors: (left, right), (up, down)."""
        found = {}
        for b in self.bridges:
            pairs = []
            for one, other in (("left", "right"), ("up", "down")):
                if self.shape != "square":
                    break
                x, y = self.toward[one][b], self.toward[other][b]
                if x is not None and y is not None:
                    pairs.append((x, y))
            found[b] = tuple(pairs)
        return found

    def axis_of(self, b: int, n: int) -> int | None:
        """Which of bridge b's passes the link from b to n belongs to (None: no pass)."""
        return next((k for k, pair in enumerate(self.axes.get(b, ())) if n in pair), None)

    # -- drawing ---------------------------------------------------------------------------

    def center(self, i: int) -> tuple[float, float]:
        """Where cell i is drawn, (x, y) in cell widths from the top left corner."""
        r, c = self.cell(i)
        if self.shape == "square":
            return c + 0.5, r + 0.5
        radius = 3 ** -0.5  # flat-topped hexagons one cell high: columns 1.5 radii apart
        return radius * (1 + 1.5 * c), r + 0.5 + 0.5 * (c % 2 == 0)


@lru_cache(maxsize=16)  # the boards of a set's few sizes
def cell_tuples(width: int, size: int) -> list[Cell]:
    """`Board.cell_list`."""
    return list(map(divmod, range(size), repeat(width)))


@lru_cache(maxsize=64)
def plain_board(width: int, height: int) -> Board:
    return Board(width, height)
