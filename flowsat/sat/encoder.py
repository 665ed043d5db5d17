"""The CNF under construction for one puzzle: board geometry, variables, clauses.

Cells are numbered r * width + c. Variables are handed out in consecutive named blocks (an
explicit scheme in place of `IDPool.id`, which costs about 2 µs a variable: a fifth of the
time budget of a 14x14 puzzle); `describe(v)` names any variable, e.g. for DIMACS comments.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from pysat.formula import IDPool

from flowsat.puzzle.model import Cell, Puzzle
from flowsat.sat import card

UP, DOWN, LEFT, RIGHT = (-1, 0), (1, 0), (0, -1), (0, 1)


class Encoder:
    """Geometry and bookkeeping shared by the clause families of an encoding."""

    def __init__(self, puzzle: Puzzle, card_method: str = "pairwise"):
        self.puzzle = puzzle
        self.height, self.width = puzzle.height, puzzle.width
        self.size = self.height * self.width
        self.colors = puzzle.colors
        self.dot = [-1] * self.size  # color index of the dot on each cell, -1 when empty
        for k, ends in enumerate(puzzle.dots.values()):
            for cell in ends:
                self.dot[self.index(cell)] = k
        self.toward = {d: [self._step(i, d) for i in range(self.size)]
                       for d in (UP, DOWN, LEFT, RIGHT)}  # the neighbor each way, or None
        self.neighbors = [[n for d in (UP, DOWN, LEFT, RIGHT) if (n := self.toward[d][i])
                           is not None] for i in range(self.size)]
        self.edges = [(i, j) for i in range(self.size) for j in self.neighbors[i] if i < j]
        self.top = 0
        self.blocks: list[tuple[int, str, Sequence[object]]] = []  # (first var, kind, keys)
        self.clauses: list[list[int]] = []
        self.card_method = card_method

    def index(self, cell: Cell) -> int:
        return cell[0] * self.width + cell[1]

    def cell(self, i: int) -> Cell:
        return divmod(i, self.width)

    def step(self, i: int, direction: tuple[int, int]) -> int | None:
        """The neighbor of cell i in a direction, or None off the board."""
        return self.toward[direction][i]

    def _step(self, i: int, direction: tuple[int, int]) -> int | None:
        r, c = divmod(i, self.width)
        r, c = r + direction[0], c + direction[1]
        return r * self.width + c if 0 <= r < self.height and 0 <= c < self.width else None

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
