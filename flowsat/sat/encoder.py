"""The CNF under construction for one puzzle: the board's graph, variables, clauses.

The encoder's graph is the board's (`Board`): a node per cell, numbered r * width + c as the
board numbers cells, plus one node per bridge cell for its second pass (numbered from
width * height up): a bridge cell's first pass (across) is its own node, its second (up and
down) the extra one, each joined only by the two opposite links of its way, so that every
family sees a bridge as two cells of degree two, each with a color of its own. On a plain
square board the graph, its link order and so every variable's number are those of the grid.
What depends on the board alone (nodes, edges, neighbors and their arrays) is made once per
board by `graph(board)` and shared, read only, by every puzzle on it.

Variables are handed out in consecutive named blocks (an explicit scheme in place of
`IDPool.id`, which costs about 2 µs a variable: a fifth of the time budget of a 14x14 puzzle);
`describe(v)` names any variable, e.g. for DIMACS comments.

Clauses that depend on the board and the variables' numbering alone, not on the puzzle's dots
(a link's color clauses, a cell's degree or turn clauses, the corner rule's), are made once as
Python lists and handed, the same list objects, to every later formula of a board with that
numbering (`shared`; the first puzzle of a board makes its own, the second fills the tables):
a pack of levels of one size pays for most of its clauses once. A formula's clauses are
read, never changed in place.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
from pysat.formula import IDPool

from flowsat.puzzle.board import Board
from flowsat.puzzle.model import Cell, Puzzle
from flowsat.puzzle.rules import DEFAULT_RULES, Rules
from flowsat.sat import card

UP, DOWN, LEFT, RIGHT = (-1, 0), (1, 0), (0, -1), (0, 1)
# Shared clauses (`Encoder.shared`): on boards up to this many nodes, in tables of at most this
# many slots in all (the least recently used dropped first: each slot 8 bytes, each clause
# made about 100)
SHARE_UP_TO = 20_000
SHARED_SLOTS = 1_000_000
SEEN_KEYS = 10_000  # a table is made the second time its key is asked for
DIRECTION = {UP: "up", DOWN: "down", LEFT: "left", RIGHT: "right"}


class Encoder:
    """The graph and bookkeeping shared by the clause families of an encoding."""

    def __init__(self, puzzle: Puzzle, card_method: str = "pairwise",
                 rules: Rules = DEFAULT_RULES):
        self.puzzle, self.rules = puzzle, rules
        self.board = board = puzzle.board
        self.plain = board.plain
        self.height, self.width = puzzle.height, puzzle.width
        self.graph = g = graph(board)
        self.second, self.size = g.second, g.size
        self.second_pass = g.second_pass
        self.edge_array, self.toward_array = g.edge_array, g.toward_array
        self.colors = puzzle.colors
        self.dot = [-1] * self.size  # color index of the dot on each node, -1 when empty
        for k, ends in enumerate(puzzle.dots.values()):
            for cell in ends:
                self.dot[self.index(cell)] = k
        self.top = 0
        self.blocks: list[tuple[int, str, Sequence[object]]] = []  # (first var, kind, keys)
        self.clauses: list[list[int]] = []
        self.card_method = card_method

    # the graph's lists, taken on first use (a million cells' lists are made when asked for)
    @cached_property
    def home(self) -> list[int]:
        return self.graph.home

    @cached_property
    def on(self) -> list[bool]:
        return self.graph.on

    @cached_property
    def nodes(self) -> list[int]:
        return self.graph.nodes

    @property
    def edges(self) -> list[tuple[int, int]]:
        return self.graph.edges

    @property
    def neighbors(self) -> Sequence[Sequence[int]]:
        return self.graph.neighbors

    @property
    def toward(self) -> dict[tuple[int, int], Sequence[int | None]]:
        return self.graph.toward

    def node(self, i: int, n: int) -> int:
        """The node of cell i that its link to cell n joins (a bridge's pass that way)."""
        return self.second_pass.get((i, n), i)

    def path_nodes(self, path: Sequence[Cell]) -> list[int]:
        """The nodes a path of cells runs through (each bridge cell as the pass it takes)."""
        w = self.width
        numbers = [r * w + c for r, c in path]
        if not self.second:
            return numbers
        return [self.node(i, numbers[k - 1] if k else numbers[k + 1])
                for k, i in enumerate(numbers)]

    def index(self, cell: Cell) -> int:
        return cell[0] * self.width + cell[1]

    def cell(self, i: int) -> Cell:
        return divmod(self.home[i], self.width)

    def step(self, i: int, direction: tuple[int, int]) -> int | None:
        """The neighbor of node i in a direction through an open link (square boards), or None
        off the board, across a wall, at a hole, or from or to a bridge."""
        return self.toward[direction][i]

    def new_vars(self, kind: str, keys: Sequence[object]) -> list[int]:
        """Fresh consecutive variables, one per key; `describe` names them as (kind, key)."""
        first = self.top + 1
        self.top += len(keys)
        if keys:
            self.blocks.append((first, kind, keys))
        return list(range(first, self.top + 1))

    def new_var(self, kind: str, key: object) -> int:
        return self.new_vars(kind, (key,))[0]

    def true(self) -> int:
        """A variable fixed to true (made on first use)."""
        if not hasattr(self, "_true"):
            self._true = self.new_var("constant", True)
            self.clauses.append([self._true])
        return self._true

    def names(self) -> Iterator[tuple[int, str]]:
        """Each variable with what it stands for, e.g. (7, 'edge ((0, 0), (0, 1))')."""
        for first, kind, keys in self.blocks:
            for offset, key in enumerate(keys):
                yield first + offset, f"{kind} {key}"

    def add_rows(self, *arrays: np.ndarray) -> None:
        """Clauses made as arrays, a clause a row (the vectorized families)."""
        for rows in arrays:
            self.clauses += rows.tolist()

    def shared(self, key: tuple | None, codes: np.ndarray, space: int,
               make: Callable[[np.ndarray], list[list[int]]]) -> list[list[int]]:
        """Clauses a family names by codes (0 <= code < space), each clause's literals a
        function of its code, the board and `key` alone (the family and the first variables
        it uses): each made once, by `make(codes)` (in their order), and shared by every
        formula with that board and key (see the module docstring; no key: made now)."""
        table = (SHARED.get((self.board, *key), space)
                 if key is not None and self.size <= SHARE_UP_TO else None)
        if table is None:
            return make(codes)
        clauses, made = table
        new = codes[~made[codes]]
        if len(new):
            clauses[new], made[new] = objects(make(new)), True
        return clauses[codes].tolist()

    @cached_property
    def dots(self) -> np.ndarray:
        """`dot` as an array: each node's color index, -1 when it has no dot."""
        return np.array(self.dot, dtype=np.int64)

    def _card(self, clauses_of, lits: list[int], k: int) -> None:
        if self.card_method == "pairwise":
            self.clauses += clauses_of(lits, k, "pairwise", None)
            return
        pool = IDPool(start_from=self.top + 1)
        new = clauses_of(lits, k, self.card_method, pool)
        if pool.top > self.top:
            self.new_vars(f"{self.card_method} auxiliary", range(pool.top - self.top))
        self.clauses += new

    def exactly(self, lits: list[int], k: int) -> None:
        self._card(card.exactly, lits, k)

    def at_most(self, lits: list[int], k: int) -> None:
        self._card(card.at_most, lits, k)


def objects(rows: np.ndarray | list[list[int]]) -> np.ndarray:
    """Clauses (the rows of an array, or lists) as a one-dimensional array of lists."""
    rows = rows.tolist() if isinstance(rows, np.ndarray) else rows
    return np.fromiter(rows, dtype=object, count=len(rows))


def cut_rows(rows: np.ndarray, lengths: np.ndarray) -> list[list[int]]:
    """Each row of an array as a clause of its own length (the rows of one length at once)."""
    out = np.empty(len(rows), dtype=object)
    for n in np.flatnonzero(np.bincount(lengths)).tolist():
        out[lengths == n] = objects(rows[lengths == n, :n])
    return out.tolist()


class SharedTables:
    """The tables of shared clauses (`Encoder.shared`): for (board, *key), the clause
    of each code (None until made) and whether it is made; the least recently used dropped
    past SHARED_SLOTS slots in all."""

    def __init__(self):
        self.tables: OrderedDict[tuple, tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self.slots = 0
        self.seen: OrderedDict[tuple, None] = OrderedDict()  # keys asked for once so far

    def get(self, key: tuple, space: int) -> tuple[np.ndarray, np.ndarray] | None:
        """The table for a key, made empty if there is none (None: too large to keep, or
        asked for the first time: a board of one puzzle pays for no table)."""
        table = self.tables.get(key)
        if table is not None:
            self.tables.move_to_end(key)
            return table
        if space > SHARED_SLOTS or key not in self.seen:
            self.seen[key] = None
            if len(self.seen) > SEEN_KEYS:
                self.seen.popitem(last=False)
            return None
        self.tables[key] = table = np.full(space, None, dtype=object), np.zeros(space, bool)
        self.slots += space
        while self.slots > SHARED_SLOTS:
            self.slots -= len(self.tables.popitem(last=False)[1][1])
        return table

    def clear(self) -> None:
        self.tables.clear()
        self.seen.clear()
        self.slots = 0


SHARED = SharedTables()


class Keys(Sequence):
    """The names of a block of variables, made only when asked for: key(t) for t < n."""

    def __init__(self, n: int, key: Callable[[int], object]):
        self.n, self.key = n, key

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, t):  # type: ignore[override]
        if not 0 <= t < self.n:
            raise IndexError(t)
        return self.key(t)


@dataclass(frozen=True, eq=False, repr=False)  # one a board (`graph`): by identity; its
class Graph:  # arrays' eq and repr are worth less than their making (every start pays it)
    """What the encoder derives from a board alone (its nodes, edges and neighbors, as lists
    and arrays), made once per board and shared, read only, by every puzzle on it."""

    second: dict[int, int]  # bridge cell -> the node of its second pass
    size: int  # node numbers 0 .. size - 1 (holes unused)
    second_pass: dict[tuple[int, int], int]
    edge_array: np.ndarray  # `edges` as an (L, 2) array
    toward_array: dict[tuple[int, int], np.ndarray]  # `toward`, -1 where there is none
    toward_edge: dict[tuple[int, int], np.ndarray]  # the row of `edges` each way, or -1
    degree: np.ndarray  # each node's number of edges
    on_array: np.ndarray  # `on` as a bool array
    board: Board
    passes: tuple | None = None  # with bridges: (edges, neighbors, toward), made at once
    bridged_rows: np.ndarray | None = None  # with bridges: `incident_rows`, made at once

    @cached_property
    def incident_rows(self) -> np.ndarray:
        """Each node's rows of `edges`, in edge order, padded with -1 (on a board without
        bridges made on first use: a large board refuted by propagation's numpy rounds
        never reads it)."""
        return (self.bridged_rows if self.passes
                else board_incidence(self.board, max(int(self.degree.max(initial=0)), 1)))

    @cached_property
    def home(self) -> list[int]:
        """The cell number of each node (the bridges' second passes after the cells)."""
        return [*range(self.board.size), *sorted(self.second)]

    @cached_property
    def on(self) -> list[bool]:
        return [*self.board.on_board, *[True] * len(self.second)]

    @cached_property
    def nodes(self) -> list[int]:
        """The nodes on the board, in order."""
        return (list(range(self.size)) if not self.second and self.board.on_array.all()
                else np.flatnonzero(self.on_array).tolist())

    @cached_property
    def cells(self) -> list[tuple[int, int]]:
        """The cell (row, column) of each node: the board's own tuples (`Board.cell_list`)."""
        return list(map(self.board.cell_list.__getitem__, self.home))

    # the lists, made on first use from the board's (a board without bridges): a million
    # cells' arrays are ready at once, their lists in seconds
    @cached_property
    def edges(self) -> list[tuple[int, int]]:
        return self.passes[0] if self.passes else self.board.link_list

    @cached_property
    def neighbors(self) -> list[list[int]] | tuple[tuple[int, ...], ...]:
        return self.passes[1] if self.passes else self.board.neighbors

    @cached_property
    def way_rows(self) -> tuple[np.ndarray, np.ndarray]:
        """`toward_edge` of the ways in `bulk.WAYS` order as the columns of one (size, 4)
        array (-1: none), and each node's ways that have an edge as bits of a number."""
        rows = (np.stack([self.toward_edge[d] for d in (UP, DOWN, LEFT, RIGHT)], axis=1)
                if self.passes else self.board.link_ways)  # the board's: its edges are ours
        return rows, (rows >= 0) @ (1 << np.arange(rows.shape[1]))

    @cached_property
    def toward(self) -> dict[tuple[int, int], Sequence[int | None]]:
        """The neighbor each way, or None (square boards)."""
        if self.passes:
            return self.passes[2]
        return ({d: self.board.toward[name] for d, name in DIRECTION.items()}
                if self.board.shape == "square" else {})


@lru_cache(maxsize=16)  # the boards of a set's few sizes; each far smaller than its formula
def graph(board: Board) -> Graph:
    """The encoder's graph of a board (see the module docstring)."""
    bridges = sorted(board.bridges)
    second = {b: board.size + k for k, b in enumerate(bridges)}
    size = board.size + len(bridges)
    second_pass = {(b, n): second[b] for b in bridges for n in board.axes[b][1]}
    passes = bridge_passes(board, second_pass, size) if bridges else None
    edge_array = (np.array(passes[0], dtype=np.int64).reshape(-1, 2) if bridges
                  else board.links)
    toward_array = ({d: np.array([-1 if n is None else n for n in ns], dtype=np.int64)
                     for d, ns in passes[2].items()} if bridges
                    else {d: board.toward_arrays[name] for d, name in DIRECTION.items()
                          if board.shape == "square"})
    on_array = np.r_[board.on_array, np.ones(len(bridges), dtype=bool)]
    if bridges:
        rows, degree = incidence(edge_array, size)
        return Graph(second, size, second_pass, edge_array, toward_array,
                     edge_rows(edge_array, toward_array, size), degree, on_array, board,
                     passes, rows)
    names, ways = board.directions, board.link_ways  # read only: its columns are shared
    toward_edge = {d: ways[:, names.index(name)] for d, name in DIRECTION.items()
                   if d in toward_array}
    degree = np.count_nonzero(ways >= 0, axis=1)
    return Graph(second, size, second_pass, edge_array, toward_array, toward_edge, degree,
                 on_array, board)


def board_incidence(board: Board, width: int) -> np.ndarray:
    """`incidence`'s rows of a board without bridges, `width` wide (its largest degree), from
    the board's links each way (its links are the edges): no sort of the edges."""
    names, ways = board.directions, board.link_ways
    # on a square board without warps a cell's links come in the order up, left (from the
    # cells before it), down, right (from it, in `directions` order): only the rows with a
    # link missing are sorted
    square = board.shape == "square" and not board.wrap
    rows = ways[:, [names.index(d) for d in ("up", "left", "down", "right")]] if square \
        else ways.copy()
    none = rows < 0
    unsorted = np.flatnonzero(none.any(axis=1)) if square else np.arange(len(rows))
    part = rows[unsorted]
    part[part < 0] = len(board.links)  # sorted last, then -1 again
    part.sort(axis=1)
    part[part == len(board.links)] = -1
    rows[unsorted] = part
    return rows[:, :width]


def bridge_passes(board: Board, second_pass: dict[tuple[int, int], int], size: int
                  ) -> tuple[list, list, dict]:
    """The edges, neighbors and ways of a board with bridges, each pass its own node."""
    bridges = board.bridges
    edges = [tuple(sorted((second_pass.get((i, j), i), second_pass.get((j, i), j))))
             for i, j in board.link_list]
    neighbors: list[list[int]] = [[] for _ in range(size)]
    for i, j in edges:
        neighbors[i].append(j)
        neighbors[j].append(i)
    toward = ({d: [None if n is None or i in bridges or n in bridges
                   else n for i, n in enumerate(board.toward[name])]
               + [None] * (size - board.size) for d, name in DIRECTION.items()}
              if board.shape == "square" else {})
    return edges, neighbors, toward


def incidence(edge_array: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Each node's rows of the edges, in edge order (padded with -1), and its degree."""
    ends, rows = edge_array.ravel(), np.repeat(np.arange(len(edge_array)), 2)
    order = np.argsort(ends, kind="stable")  # by node, then by edge
    nodes, rows = ends[order], rows[order]
    count = np.bincount(nodes, minlength=size)
    slot = np.arange(len(nodes)) - (np.cumsum(count) - count)[nodes]
    matrix = np.full((size, max(int(count.max(initial=0)), 1)), -1, dtype=np.int64)
    matrix[nodes, slot] = rows
    return matrix, count


def edge_rows(edge_array: np.ndarray, toward_array: dict[tuple[int, int], np.ndarray],
              size: int) -> dict[tuple[int, int], np.ndarray]:
    """For each direction, the row of the edge from each node that way, -1 where none."""
    edges = edge_array[:, 0] * size + edge_array[:, 1]
    order = np.argsort(edges)
    found = {}
    for direction, n in toward_array.items():
        i = np.arange(size)
        keys = np.minimum(i, n) * size + np.maximum(i, n)
        at = order[np.searchsorted(edges[order], keys).clip(0, max(len(edges) - 1, 0))]
        found[direction] = np.where((n >= 0) & (edges[at] == keys), at, -1)
    return found
