"""A board's formula for every puzzle on it, no dot known: compiled once, each puzzle's dots
are assumptions (`flowsat.sat.compiled`). Every clause is true in every solution of every
puzzle on the board:

- degrees, through the dot variables; colors through free binary codes (a path has its dots'
  code, the cells off the paths form cycles, which are cut; an unused code needs no clause);
- the corner rule (`rules.corner_rules`) with `inside is a dot` as one more way out, under
  the uniqueness switch as in the per-puzzle encodings; the turns it rules out
  (`degree = "turns"`) by a clause a turn, `a dot lies on the inside diagonal`, and what
  each leaves, `the cell links another neighbor, or is a dot, or a dot lies there`, which
  the dot assumptions settle by unit propagation;
- a cycle cut says that an edge leaves the cycle's cells *or one of them is a dot*: a cycle
  is wrong in every solution of every puzzle, so cuts stay for the next puzzle, as do the
  no-self-touch clauses stated where a model touched, and the solver's learned clauses;
- a found or known solution is blocked under a selector assumed for its puzzle only, and
  retired (a unit) when the puzzle is done.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain

import numpy as np

from flowsat.puzzle.board import Board
from flowsat.puzzle.model import EMPTY, Puzzle
from flowsat.puzzle.rules import Rules
from flowsat.sat import card
from flowsat.sat.bulk import WAYS
from flowsat.sat.cells import Arrays, Binary
from flowsat.sat.deduce import corners_hold
from flowsat.sat.encoder import Encoder
from flowsat.sat.estimate import Size
from flowsat.sat.links import CORNERS, TYPES, Edges
from flowsat.sat.rules import corners_written, inside_table
from flowsat.sat.spec import Spec

# Cells over which a compiled board states the turns the corner rule rules out (`turn_rows`):
# on smaller ones their clauses cost more to build and load than they save the solver
# (docs/performance.md, "Compiled boards")
TURNS_OVER = 144
MAX_APART = 8  # differences of an edge's nodes `touches` counts by; past them, one by one


Block = tuple[list[int], ...] | list[Sequence[int]]  # a clause each k: k-th of each column


# Blocks of columns, not a list a clause: no object a clause to make, free and go over
# (docs/performance.md, "Compiled boards")
class Clauses:
    """A compiled formula's clauses, kept in blocks: the columns of a matrix of literals as
    lists (a clause is the k-th entries of each), or clauses made one by one; their literals
    counted as they come. Read, a block's clauses are made as they go (`zip`: one tuple,
    reused while the reader keeps none, as PySAT's loader keeps none): the formula holds no
    object a clause, for the allocator to make and free and the cycle collector to go over."""

    def __init__(self):
        self.blocks: list[Block] = []
        self.count = self.literals = 0

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Sequence[int]]:
        return chain.from_iterable(zip(*block, strict=True) if isinstance(block, tuple)
                                   else block for block in self.blocks)

    def batches(self, size: int) -> Iterator[Iterable[Sequence[int]]]:
        """The clauses in batches of at most `size`: a block each, or a part of one."""
        for block in self.blocks:
            columns = block if isinstance(block, tuple) else (block,)
            count = len(columns[0])
            for at in range(0, count, size):
                part = columns if count <= size else tuple(c[at:at + size] for c in columns)
                yield zip(*part, strict=True) if isinstance(block, tuple) else part[0]

    def __iadd__(self, clauses: list[Sequence[int]]) -> Clauses:
        self.more(clauses)
        return self

    def append(self, clause: Sequence[int]) -> None:
        self.more([clause])

    def rows(self, rows: np.ndarray) -> None:
        """A clause a row of the matrix."""
        if rows.shape[1]:
            self.columns(*rows.T)
        else:
            self.more([()] * len(rows))

    def columns(self, *columns: np.ndarray | list[int]) -> None:
        """A clause for each k: the k-th entries of the columns (of one length)."""
        if len(columns[0]):
            self.blocks.append(tuple(c if isinstance(c, list) else c.tolist() for c in columns))
            self.count += len(columns[0])
            self.literals += len(columns[0]) * len(columns)

    def more(self, clauses: list[Sequence[int]]) -> None:
        """Clauses made one by one (the list is kept, not copied)."""
        if clauses:
            self.blocks.append(clauses)
            self.count += len(clauses)
            self.literals += sum(map(len, clauses))


def blank(board: Board) -> Puzzle:
    """The board without dots."""
    return Puzzle((EMPTY * board.width,) * board.height, board=board)


class BoardCodes(Binary):
    """Free binary codes of `nbits` bits on every node, no dot known (`Binary`'s clauses)."""

    def __init__(self, enc: Encoder, nbits: int):
        self.enc, self.full = enc, nbits
        self.nbits, self.codes, self.layout = nbits, np.arange(1 << nbits), ()
        self.bits = self.new_bits(nbits)
        self.sign = np.zeros((enc.size, nbits), dtype=np.int64)
        self.diff_keys = self.diff_first = np.zeros(0, dtype=np.int64)
        self.equals, self.joined = {}, []

    def same(self, pairs: Arrays, key: tuple | None = None) -> None:
        """`Binary.same` on a board without dots: [-lit, -a, b] for every pair and bit, then
        [-lit, a, -b], as three columns."""
        i, j, lit = pairs
        a, b = self.bits[i].ravel(), self.bits[j].ravel()
        lits = np.repeat(-lit, self.nbits)
        for sign in (1, -1):
            self.enc.clauses.columns(lits, -sign * a, sign * b)


class BoardEdges(Edges):
    """`Edges` with a dot variable per node in place of the dots: a dot has one linked edge,
    another node two (or, when cells may stay empty, none or two)."""

    def __init__(self, enc: Encoder, cells: BoardCodes, rules: Rules, touch_lazily: bool):
        self.enc, self.fill_all, self.turns = enc, rules.fill_all, False
        count = len(enc.edges)
        self.vars = enc.new_vars("edge", range(count))
        self.var_array = np.arange(self.vars[0] if count else 1, enc.top + 1, dtype=np.int64)
        self.dot = np.array(enc.new_vars("dot", range(enc.size)), dtype=np.int64)
        self.degrees_by_dots()
        self._apart = None if self.fill_all else self.apart_when_used()
        if not self.fill_all:  # a dot is used
            enc.clauses.more([(-int(self.dot[i]), self.used[i]) for i in enc.nodes])
        self.last = (None, np.zeros(0, dtype=bool))
        ends = enc.edge_array
        cells.same((ends[:, 0], ends[:, 1], self.var_array))
        if not (rules.self_touch or touch_lazily):
            cells.differ(self.apart_arrays)

    def degrees_by_dots(self) -> None:
        """Each node's degree clauses, the nodes grouped by their number of edges: at most
        two (all), exactly one if a dot, and if not, at least two (or, cells may stay empty:
        an edge pulls another)."""
        enc = self.enc
        matrix = np.append(self.var_array, 0)[enc.graph.incident_rows]
        count, on = enc.graph.degree, enc.graph.on_array
        for n in np.flatnonzero(np.bincount(count[on])).tolist():
            rows = np.flatnonzero(on & (count == n))
            edges, dot = matrix[rows, :n], self.dot[rows, None]
            parts = [np.hstack((-dot, edges))]  # a dot: at least one
            for k, sign in ((3, -1), (2, -1)):  # at most two; a dot: at most one
                if n >= k:
                    lits = sign * edges[:, card.subset_columns(n, k)].reshape(-1, k)
                    parts.append(lits if k == 3 else np.hstack((
                        np.repeat(-dot, len(lits) // len(rows), 0), lits)))
            if self.fill_all:  # another node: at least two
                parts.append(dot if n <= 1 else np.hstack((np.repeat(dot, n, 0), edges[
                    :, card.subset_columns(n, n - 1)].reshape(-1, n - 1))))
            elif n:  # an edge pulls another
                others = np.array([[c for c in range(n) if c != k] for k in range(n)],
                                  dtype=np.intp).reshape(n, n - 1)
                parts.append(np.hstack((np.repeat(dot, n, 0), -edges.reshape(-1, 1),
                                        edges[:, others].reshape(len(rows) * n, n - 1))))
            for part in parts:
                enc.clauses.rows(part)

    def apart_when_used(self) -> list[tuple[int, int, int]]:
        """`Edges.apart_when_used` with a `used` variable on every node (any may be a dot)."""
        enc = self.enc
        self.used = {i: enc.new_var("used", enc.cell(i)) for i in enc.nodes}
        enc.clauses.more([(-e, u) for i, u in self.used.items() for e in self.incident[i]])
        pairs = list(self.index.items())
        apart = enc.new_vars("apart", range(len(pairs)))
        enc.clauses.more([(e, -self.used[i], -self.used[j], t)
                          for ((i, j), e), t in zip(pairs, apart, strict=True)])
        return [(i, j, t) for ((i, j), _), t in zip(pairs, apart, strict=True)]

    def cut_dots(self, cycle: list[int], model: list[int]) -> list[int]:
        """`cut`, or one of the cycle's nodes is a dot: true for every puzzle on the board."""
        return self.cut(cycle, model) + self.dot[cycle].tolist()


def corner_rows(enc: Encoder, links: BoardEdges, active: int) -> None:
    """The corner rule (`rules.corner_rules`), each clause with `q is a dot` added: a turn
    at x whose inside cell q is no dot makes q turn the same way (or, if q cannot, is out)."""
    q, open_ = inside_table(enc.board)
    for turn, glyph in enumerate(CORNERS):
        nodes, lits = links.corners(glyph)
        row = np.full(enc.size, -1, dtype=np.int64)  # each node's row of `lits`, if any
        row[nodes] = np.arange(len(nodes))
        keep = open_[turn, nodes]
        qs = q[turn, nodes[keep]]
        head = np.column_stack((np.full(len(qs), -active), -lits[keep], links.dot[qs]))
        turns = row[qs] >= 0  # q may turn so
        enc.clauses.rows(head[~turns])
        for t in range(lits.shape[1]):
            enc.clauses.rows(np.column_stack((head[turns], lits[row[qs[turns]], t])))


DIAGONALS = {glyph: (TYPES[glyph][0][0] + TYPES[glyph][1][0],
                     TYPES[glyph][0][1] + TYPES[glyph][1][1]) for glyph in CORNERS}


# A clause a turn, not a chain of variables per diagonal: fewer variables and clauses, fewer
# propagations (docs/performance.md, "Compiled boards"). With the degree clauses and the turn
# rows, unit propagation finds a cell whose turn is out taking that turn only by a conflict,
# where the per-puzzle clauses (`links.turn_clauses`, prime implicates) propagate its other
# links; the rows of what a turn leaves make up for it: the compiled route took twice the
# per-puzzle conflicts without them (docs/performance.md, "Hard mid boards")
def turn_rows(enc: Encoder, links: BoardEdges) -> None:
    """The turns the corner rule rules out, as `degree = "turns"` states them per puzzle, for
    every puzzle: a turn needs a dot on its inside diagonal, up to the border (one clause a
    turn, with every dot variable there; none where a hole lies on the way: a walk stops
    there). No variable of its own: the dots are assumptions, so once they are set each
    clause is the turn's two literals or true, as per puzzle. The turns nearest the border
    first; after them, in the same order, what a turn ruled out leaves: the cell links one
    of its other neighbors, or is a dot, or a dot lies on the turn's diagonal."""
    rows, _ = enc.graph.way_rows
    ways = np.append(links.var_array, 0)[rows]
    left: list[tuple[int, ...]] = []
    for glyph in CORNERS:
        nodes, lits = links.corners(glyph)
        ray, steps = rays(enc, links, glyph)
        order = np.argsort(steps[nodes], kind="stable")
        nodes, lits = nodes[order], lits[order]
        heads = zip(*(-lits).T.tolist(), strict=True)
        enc.clauses.more([head + ray[x] for x, head in zip(nodes.tolist(), heads, strict=True)
                          if ray[x] is not None])
        heads = zip(*ways[nodes][:, others(glyph)].T.tolist(), links.dot[nodes].tolist(),
                    strict=True)  # (0: no link that way)
        left += [tuple(lit for lit in head if lit) + ray[x] if 0 in head else head + ray[x]
                 for x, head in zip(nodes.tolist(), heads, strict=True) if ray[x] is not None]
    enc.clauses.more(left)


def others(glyph: str) -> list[int]:
    """The ways (indexes in `bulk.WAYS`) a turn `glyph` does not take."""
    return [w for w, way in enumerate(WAYS) if way not in TYPES[glyph]]


def rays(enc: Encoder, links: BoardEdges, glyph: str
         ) -> tuple[list[tuple[int, ...] | None], np.ndarray]:
    """For each cell, the dot variables of the cells on the inside diagonal of a turn `glyph`
    there, up to the border (None: a hole on the way), and how many cells that is."""
    w, h = enc.width, enc.height
    dr, dc = DIAGONALS[glyph]
    r, c = np.divmod(np.arange(w * h), w)
    steps = np.minimum(r if dr < 0 else h - 1 - r, c if dc < 0 else w - 1 - c)
    on, dot, step = enc.graph.on_array.tolist(), links.dot.tolist(), dr * w + dc
    ray: list[tuple[int, ...] | None] = [()] * (w * h)
    for x in np.argsort(steps, kind="stable")[np.count_nonzero(steps == 0):].tolist():
        y = x + step  # the next cell inwards
        ray[x] = (dot[y],) + ray[y] if on[y] and ray[y] is not None else None
    return ray, steps


@dataclass
class Formula:
    """A board as compiled (see the module docstring), before any puzzle: its clauses, the
    encoder's state with the variables numbered so far, the uniqueness switch. It depends on
    its key alone, never on the puzzles solved before: kept across blocks (`boards.Formulas`), a
    fresh solver is made from it (`loaded`) as from a new compile."""

    key: tuple
    enc: Encoder
    links: BoardEdges
    cells: BoardCodes
    clauses: Clauses  # (read, never changed)
    unique: int  # the uniqueness switch (0: none)
    lazy_touch: bool
    size: Size

    @cached_property
    def tables(self) -> Tables:
        return tables(self)


def compile_board(key: tuple, board: Board, spec: Spec, rules: Rules, nbits: int) -> Formula:
    """The board's formula (see the module docstring)."""
    enc = Encoder(blank(board), "pairwise", rules)
    enc.clauses = Clauses()
    lazy_touch = spec.touch == "lazy" and not rules.self_touch and corners_written(enc)
    cells = BoardCodes(enc, nbits)
    links = BoardEdges(enc, cells, rules, lazy_touch)
    switch = 0
    if spec.degree == "turns" and board.size > TURNS_OVER and corners_hold(board, rules):
        turn_rows(enc, links)
    if spec.unique and not rules.self_touch:
        switch = enc.new_var("uniqueness rule on", True)
        if corners_written(enc):
            corner_rows(enc, links, switch)
    clauses, enc.clauses = enc.clauses, []
    size = Size(enc.top, len(clauses), clauses.literals)
    return Formula(key, enc, links, cells, clauses, switch, lazy_touch, size)


@dataclass(frozen=True)
class Tables:
    """What a compiled board's puzzles are read and written with, as lists: the assumptions of
    a puzzle without dots (the uniqueness switch first, if any, then `not a dot` for every
    node), each node's place in them, each node's code bits and the signs of each code's
    bits, each node's (model index of an edge, its other node), each edge's model index and
    nodes, the edges by the difference of their nodes (`apart`), each node's bit."""

    no_dots: list[int]
    place: list[int]
    bits: list[list[int]]
    signs: list[tuple[int, ...]]
    ways: list[list[tuple[int, int]]]
    edges: list[tuple[int, int, int]]
    edge_index: list[int]
    apart: list[tuple[int, int]] | None
    bit: list[int]
    nodes: int



def tables(board: Formula) -> Tables:
    """The board's `Tables`."""
    g, links = board.enc.graph, board.links
    switch = [board.unique] if board.unique else []
    place = [-1] * g.size
    for k, i in enumerate(g.nodes, len(switch)):
        place[i] = k
    index = (links.var_array - 1).tolist()
    ways: list[list[tuple[int, int]]] = [[] for _ in range(g.size)]
    edges = []
    for e, (i, j) in zip(index, g.edge_array.tolist(), strict=True):
        ways[i].append((e, j))
        ways[j].append((e, i))
        edges.append((e, i, j))
    nbits = board.cells.nbits
    signs = [tuple(1 if k >> n & 1 else -1 for n in range(nbits)) for k in range(1 << nbits)]
    return Tables(switch + (-links.dot[g.nodes]).tolist(), place, board.cells.bits.tolist(),
                  signs, ways, edges, index, apart(edges), [1 << i for i in range(g.size)],
                  len(g.nodes))


def apart(edges: list[tuple[int, int, int]]) -> list[tuple[int, int]] | None:
    """The differences of the edges' nodes, each with the bits of the first nodes of the
    edges so far apart (None: two edges join the same nodes, or too many differences)."""
    pairs = {(min(i, j), max(i, j)) for _, i, j in edges}
    masks: dict[int, int] = {}
    for i, j in pairs:
        masks[j - i] = masks.get(j - i, 0) | 1 << i
    return None if len(pairs) < len(edges) or len(masks) > MAX_APART else sorted(masks.items())


