"""The CNF under construction for one puzzle: the board's graph, variables, clauses.

The encoder's graph is the board's (`Board`): a node per cell, numbered r * width + c as the
board numbers cells, plus one node per bridge cell for its second pass (numbered from
width * height up): a bridge cell's first pass (across) is its own node, its second (up and
down) the extra one, each joined only by the two opposite links of its way, so that every
family sees a bridge as two cells of degree two, each with a color of its own. On a plain
square board the graph, its link order and so every variable's number are those of the grid.

Variables are handed out in consecutive named blocks (an explicit scheme in place of
`IDPool.id`, which costs about 2 µs a variable: a fifth of the time budget of a 14x14 puzzle);
`describe(v)` names any variable, e.g. for DIMACS comments.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cached_property

import numpy as np
from pysat.formula import IDPool

from flowsat.puzzle.model import Cell, Puzzle
from flowsat.puzzle.rules import DEFAULT_RULES, Rules
from flowsat.sat import card

UP, DOWN, LEFT, RIGHT = (-1, 0), (1, 0), (0, -1), (0, 1)
DIRECTION = {UP: "up", DOWN: "down", LEFT: "left", RIGHT: "right"}


class Encoder:
    """The graph and bookkeeping shared by the clause families of an encoding."""

    def __init__(self, puzzle: Puzzle, card_method: str = "pairwise",
                 rules: Rules = DEFAULT_RULES):
        self.puzzle, self.rules = puzzle, rules
        self.board = board = puzzle.board
        self.plain = board.plain
        self.height, self.width = puzzle.height, puzzle.width
        bridges = sorted(board.bridges)
        self.second = {b: board.size + k for k, b in enumerate(bridges)}  # bridge -> 2nd pass
        self.size = board.size + len(bridges)  # node numbers 0 .. size - 1 (holes unused)
        self.home = list(range(board.size)) + bridges  # the cell number of each node
        self.on = [*board.on_board, *[True] * len(bridges)]
        self.nodes = [i for i in range(self.size) if self.on[i]]
        self.colors = puzzle.colors
        self.dot = [-1] * self.size  # color index of the dot on each node, -1 when empty
        for k, ends in enumerate(puzzle.dots.values()):
            for cell in ends:
                self.dot[self.index(cell)] = k
        self.second_pass = {(b, n): self.second[b] for b in bridges for n in board.axes[b][1]}
        self.edges = [tuple(sorted((self.node(i, j), self.node(j, i))))
                      for i, j in board.link_list] if bridges else board.link_list
        if bridges:  # each pass its own neighbors
            self.neighbors: list[list[int]] = [[] for _ in range(self.size)]
            for i, j in self.edges:
                self.neighbors[i].append(j)
                self.neighbors[j].append(i)
        else:  # in the board's direction order
            self.neighbors = [list(n) for n in board.neighbors]
        self.toward = ({d: [None if n is None or i in board.bridges or n in board.bridges
                            else n for i, n in enumerate(board.toward[name])]
                        + [None] * len(bridges) if bridges else board.toward[name]
                        for d, name in DIRECTION.items()}
                       if board.shape == "square" else {})  # the neighbor each way, or None
        self.top = 0
        self.blocks: list[tuple[int, str, Sequence[object]]] = []  # (first var, kind, keys)
        self.clauses: list[list[int]] = []
        self.card_method = card_method

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

    @cached_property
    def dots(self) -> np.ndarray:
        """`dot` as an array: each node's color index, -1 when it has no dot."""
        return np.array(self.dot, dtype=np.int64)

    @cached_property
    def edge_array(self) -> np.ndarray:
        """`edges` as an (L, 2) array."""
        return np.array(self.edges, dtype=np.int64).reshape(-1, 2)

    @cached_property
    def toward_array(self) -> dict[tuple[int, int], np.ndarray]:
        """`toward` as arrays, -1 where there is no neighbor (square boards)."""
        return {d: np.array([-1 if n is None else n for n in ns], dtype=np.int64)
                for d, ns in self.toward.items()}

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
