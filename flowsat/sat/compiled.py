"""A board compiled once: one solver for every puzzle on a board, its dots as assumptions.

Most puzzles of a pack share their board and differ only in their dots. Here a board (with
the rules, the encoding and the solver) is encoded once, for every puzzle it can carry, and
each puzzle is solved on the same solver under assumptions: which nodes are dots (a variable
per node: a dot has one link, any other node two) and each dot's color code. Every clause is
true in every solution of every puzzle on the board:

- degrees, through the dot variables; colors through free binary codes (a path has its dots'
  code, the cells off the paths form cycles, which are cut; an unused code needs no clause);
- the corner rule (`rules.corner_rules`) with `inside is a dot` as one more way out, under
  the uniqueness switch as in the per-puzzle encodings; the turns it rules out
  (`degree = "turns"`) by a clause a turn, `a dot lies on the inside diagonal`, which the
  dot assumptions settle by unit propagation;
- a cycle cut says that an edge leaves the cycle's cells *or one of them is a dot*: a cycle
  is wrong in every solution of every puzzle, so cuts stay for the next puzzle, as do the
  no-self-touch clauses stated where a model touched, and the solver's learned clauses;
- a found or known solution is blocked under a selector assumed for its puzzle only, and
  retired (a unit) when the puzzle is done.

Decoding is the per-puzzle route's (`trace`, given by the caller).

A board keeps the compiled route while it costs less a puzzle than the per-puzzle route: the
cost of each puzzle on either route is estimated from what the solve counted (`cost`: the
solver's propagations, the models read and the per-puzzle formula's literals), the same on
every machine, so that the choice, made from the puzzles of a block only (`flowsat.parallel`),
is the same whatever `--jobs` is.

A block starts with fresh solvers (no learned clause, no cut: `Boards`), but the formula a
board compiles to depends on the board alone: kept in the process (`Formulas`), it is loaded
into a new solver by the later blocks, not compiled again. What is kept never shows in an
answer: a block decides its routes as if nothing were.
"""

from __future__ import annotations

import copy
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain, pairwise
from operator import mul

import numpy as np

from flowsat.puzzle.board import Board
from flowsat.puzzle.model import EMPTY, Paths, Puzzle
from flowsat.puzzle.rules import Rules
from flowsat.sat import card
from flowsat.sat.cells import Arrays, Binary
from flowsat.sat.deduce import corners_hold
from flowsat.sat.encoder import Encoder, graph
from flowsat.sat.estimate import Size, formula_size
from flowsat.sat.links import CORNERS, TYPES, Edges
from flowsat.sat.oracle import DIRECT_ADD, Oracle, release
from flowsat.sat.rules import corners_written, inside_table
from flowsat.sat.spec import Spec

COMPILE_UP_TO = 5_000  # nodes: larger boards are encoded per puzzle (their solve dominates)
KEEP_BOARDS = 8  # compiled boards kept at once (the least recently used dropped), on solvers
KEEP_CLAUSES = 2_000_000  # and their clauses in all, at most (and so the formulas kept)
KEEP_SHARE = 0.125  # and the formulas kept (`Formulas`), of the memory cap (`Size.mb`), at most
# A fresh solver once the kept cuts and touch clauses outnumber the formula's clauses, or the
# variables made since (differ bits, each search's selector for blocked solutions: every
# model read is a list of all variables) pass this share of the formula's: reading a 9x9
# board's model of 874 variables takes 137,000 instructions (callgrind) and compiling it is
# of the order of a per-puzzle encoding and load (a few million; not measured alone), so a
# quarter more on each of the next ~200 searches costs about as much as a recompile
FRESH_VARIABLES = 0.25
# A board compiles the COMPILE_AT-th time a puzzle asks for it (the earlier ones are encoded
# per puzzle; later costs more on the 2016 set, docs/performance.md), or at the first where
# this many puzzles of its block share it (`Boards.shared`)
COMPILE_AT = 2
# Cells up to which a board compiles at the first of the puzzles its block shares it with:
# on larger ones the compiled route can cost more, and the first puzzle, encoded alone,
# measures the per-puzzle route (`Costs`); on main 9cc23a1 the compiled route lost on the
# repo's 25x25 and 30x30 boards (puzzles/large: 4 to 7 times the propagations), and kept
# it on the 20x20 and 24x14 ones of /work/packs/mid.txt
SHARED_UP_TO = 400
SEEN_KEYS = 10_000  # the keys asked for so far, kept (and their costs)
# A board's usual colors, times the square root of its cells (`key_bits`). Instructions
# against main's exact bits (callgrind, `flowsat solve --jobs 1`; about 1 % from build to
# build): the 2016 set -4.3 % (its 8x8 levels of 5 and 6 colors get a 4th bit for nothing),
# /work/packs/mid.txt -5.9 %, /work/packs/k1000.txt -4.7 % (its 8x8 levels of 6 to 10
# colors compile once a block); the bits of the board's longer side instead: -5.6 %,
# -5.4 %, -3.1 %
USUAL_COLORS = 1.1
# Cells up to which a board's bits cover its usual colors: on larger ones a puzzle's solve
# dominates, and the per-puzzle formula solves it faster than a compiled board (the 50x50
# levels of ../shared/puzzles/numberlink/inputs10-part.txt: three times the propagations);
# there a board compiles only for puzzles with as many code bits, as it did before
USUAL_UP_TO = 1_000
# Cells over which a compiled board states the turns the corner rule rules out (`turn_rows`):
# on smaller ones their clauses cost more to build and load than they save the solver.
# Instructions against stating them on every board (callgrind, `flowsat solve --jobs 1`):
# over 144 cells: /work/packs/k1000.txt -1.1 %, the 2016 set -2.6 %, /work/packs/mid.txt
# -1.9 %; over 100: -1.1, -1.1, -0.9 %; over 196: -1.1, -3.5, -2.6 %; over 225: mid +12 %
# (its 15x15 puzzles of few colors need them); on no board: mid +11 %
TURNS_OVER = 144
# Instructions (callgrind, glucose4) a puzzle costs, for `cost`: each propagation of the
# solver (its calls on the 2016 set: 24 M for 41,000), each variable of a model read (see
# FRESH_VARIABLES), each literal of the per-puzzle formula encoded and loaded (a 14x14 board
# of the 2016 set: 16.5 M for 7,427, compiling it 45.7 M, some 37 M since the formula is kept
# as columns: `Clauses`); docs/performance.md
PER_PROPAGATION = 600
PER_MODEL_VARIABLE = 160
PER_LITERAL = 2_200


def cost(stats: dict, literals: int = 0) -> float:
    """A puzzle's solve in instructions, estimated from its stats (the per-puzzle route: with
    its formula's literals): the same on every machine."""
    return (PER_PROPAGATION * stats.get("propagations", 0) + PER_LITERAL * literals
            + PER_MODEL_VARIABLE * stats.get("variables", 0) * stats.get("rounds", 0))


@dataclass
class Costs:
    """The estimated `cost` of a board's puzzles so far in the block, and their number, on
    each route."""

    per_puzzle: float = 0.0
    per_puzzle_count: int = 0
    compiled: float = 0.0
    compiled_count: int = 0

    def add(self, compiled: bool, spent: float) -> None:
        if compiled:
            self.compiled, self.compiled_count = self.compiled + spent, self.compiled_count + 1
        else:
            self.per_puzzle += spent
            self.per_puzzle_count += 1

    @property
    def compiled_loses(self) -> bool:
        """Whether a puzzle costs more on the compiled route, on average (a puzzle measured on
        each route at least)."""
        return (self.per_puzzle_count > 0 and self.compiled_count > 0
                and self.compiled * self.per_puzzle_count > self.per_puzzle * self.compiled_count)


def code_bits(colors: int) -> int:
    """The bits of a color code for that many colors."""
    return max(1, (colors - 1).bit_length())


def key_bits(puzzle: Puzzle) -> int:
    """The code bits of a puzzle's compiled board (it is keyed by them): enough for its
    colors and, if that is more, for about as many colors as most puzzles on its board have,
    a little over the square root of its cells (`flowsat generate` makes 0.8 to 1.2 times
    it): puzzles with a few colors fewer share one compile (a pack of 10x10 levels of 7 to
    12 colors compiles once, not once for 3 bits and once for 4), on boards up to
    USUAL_UP_TO cells. A puzzle's unused high bits are 0 in its assumptions."""
    cells = puzzle.width * puzzle.height
    usual = round(USUAL_COLORS * cells ** 0.5) if cells <= USUAL_UP_TO else 0
    return code_bits(max(len(puzzle.colors), usual))


Block = tuple[list[int], ...] | list[Sequence[int]]  # a clause each k: k-th of each column


# Blocks of columns, not a list a clause (each row of a matrix an array, then a list; their
# lengths summed): instructions (callgrind) to build the formulas of blank 10x10, 15x15 and
# 20x20 boards -55 %, to build and load them -21 % (the load, one C call a clause, is most of
# it now: some 3,000 instructions a clause); `flowsat solve --jobs 1` against main f8d8489:
# /work/packs/mid.txt -4.9 %, the 2016 set -1.9 %, /tmp/p500.txt -0.3 %,
# /work/packs/k1000.txt -0.2 %, the solver's counts unchanged (the same clauses, in order)
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


# A clause a turn, not a chain of variables per diagonal (`a dot lies further along`, as
# before): 37 % fewer variables on a 15x15 board, 9 % fewer clauses; instructions
# (callgrind, `flowsat solve --jobs 1`): /work/packs/mid.txt -1.6 %, /work/packs/k1000.txt
# -3.7 %, the 2016 set +0.1 %, with fewer propagations (-15 % to -36 %)
def turn_rows(enc: Encoder, links: BoardEdges) -> None:
    """The turns the corner rule rules out, as `degree = "turns"` states them per puzzle, for
    every puzzle: a turn needs a dot on its inside diagonal, up to the border (one clause a
    turn, with every dot variable there; none where a hole lies on the way: a walk stops
    there). No variable of its own: the dots are assumptions, so once they are set each
    clause is the turn's two literals or true, as per puzzle. The turns nearest the border
    first."""
    for glyph in CORNERS:
        nodes, lits = links.corners(glyph)
        ray, steps = rays(enc, links, glyph)
        order = np.argsort(steps[nodes], kind="stable")
        heads = zip(*(-lits[order]).T.tolist(), strict=True)
        enc.clauses.more([head + ray[x] for x, head in zip(nodes[order].tolist(), heads,
                                                           strict=True) if ray[x] is not None])


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


def board_key(puzzle: Puzzle, spec: Spec, rules: Rules, solver: str) -> tuple:
    """What a compiled board is kept by: the board, rules, encoding, solver, code bits
    (`key_bits`)."""
    return puzzle.board, rules, spec, solver, key_bits(puzzle)


def fits(spec: Spec, rules: Rules, board: Board, solver: str) -> bool:
    """Whether a board can be compiled for the encoding and solver: choices that compile
    (`Spec.compiles`: edge variables with binary codes and lazy cycle cuts, the default
    encodings and the proofs'), a PySAT solver that keeps its state between calls, a board
    below COMPILE_UP_TO nodes."""
    return spec.compiles and solver in DIRECT_ADD and graph(board).size <= COMPILE_UP_TO


@dataclass
class Formula:
    """A board as compiled (see the module docstring), before any puzzle: its clauses, the
    encoder's state with the variables numbered so far, the uniqueness switch. It depends on
    its key alone, never on the puzzles solved before: kept across blocks (`FORMULAS`), a
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


@dataclass
class Compiled:
    """A board's formula for every puzzle on it, loaded into one solver."""

    key: tuple
    enc: Encoder
    links: BoardEdges
    cells: BoardCodes
    sat: Oracle
    unique: int  # the uniqueness switch (0: none)
    lazy_touch: bool
    clauses: int  # loaded so far (the formula, then cuts and touch clauses)
    size: Size  # of the formula
    compile_s: float  # to compile it (or load it, compiled before)
    tables: Tables
    stated: set[tuple[int, int, int]] = field(default_factory=set)
    puzzles: int = 0  # answered on this solver
    cuts: int = 0  # cycle cuts and touch clauses learned on its puzzles, kept
    counted: dict = field(default_factory=dict)  # the solver's stats after its last puzzle

    @property
    def variables(self) -> int:
        """The formula's variables (not those its puzzles made since: selectors, differ bits)."""
        return self.size.variables

    @property
    def worn(self) -> bool:
        """Whether a fresh solver costs less than this one from now on (FRESH_VARIABLES)."""
        return (self.clauses > 2 * self.size.clauses or self.enc.top - self.variables
                > FRESH_VARIABLES * self.variables)


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


def loaded(formula: Formula, solver: str, start: float) -> Compiled:
    """A fresh solver for the board: the formula's clauses loaded into a new one, and copies
    of what its puzzles change in the encoder (variables made later, differ bits), as they
    were when it was compiled (`start`: when the compile or the load began)."""
    enc = copy.copy(formula.enc)
    enc.blocks, enc.clauses = list(enc.blocks), []
    cells = copy.copy(formula.cells)
    cells.enc, cells.equals, cells.joined = enc, {}, []
    links = copy.copy(formula.links)
    links.enc = enc
    sat = Oracle(solver, formula.clauses, keep=False)
    return Compiled(formula.key, enc, links, cells, sat, formula.unique, formula.lazy_touch,
                    formula.size.clauses, formula.size, time.perf_counter() - start,
                    formula.tables)


class Formulas:
    """The boards compiled in this process, by `board_key`, kept across blocks (a block
    loads them into fresh solvers) once `keeping`: from a process's second block on (kept
    clauses are long-lived lists, which the cycle collector goes over now and then: a run
    of one block, as the 2016 set, would pay for them and never use them). The least
    recently used is dropped past KEEP_BOARDS, or KEEP_CLAUSES, or KEEP_SHARE of the memory
    cap."""

    def __init__(self):
        self.formulas: OrderedDict[tuple, Formula] = OrderedDict()
        self.keeping = False

    def solver(self, key: tuple, board: Board, spec: Spec, rules: Rules, solver: str,
               cap: float | None = None) -> Compiled:
        """A fresh solver for the board, compiled now if it is not kept."""
        start = time.perf_counter()
        formula = self.formulas.pop(key, None) or compile_board(key, board, spec, rules,
                                                                key[-1])
        if self.keeping:
            self.formulas[key] = formula  # the most recently used last
            self.keep(cap)
        return loaded(formula, solver, start)

    def keep(self, cap: float | None) -> None:
        """The least recently used dropped until the rest fit."""
        room = float("inf") if cap is None else KEEP_SHARE * cap
        while self.formulas and (
                len(self.formulas) > KEEP_BOARDS
                or sum(len(f.clauses) for f in self.formulas.values()) > KEEP_CLAUSES
                or sum(f.size.mb for f in self.formulas.values()) > room):
            self.formulas.popitem(last=False)

    def clear(self) -> None:
        self.formulas.clear()


FORMULAS = Formulas()


class Boards:
    """The compiled boards of a run (of a block of it), by `board_key`, each on its solver: a
    board is loaded (`FORMULAS`) the COMPILE_AT-th time a puzzle asks for it (the first is
    encoded alone, as a single puzzle should be, and measures the per-puzzle route's cost),
    or at the first if COMPILE_AT puzzles of the block share it (`shared`), the least
    recently used dropped past KEEP_BOARDS or KEEP_CLAUSES, and a board whose compiled route
    costs more than the per-puzzle route (`Costs`) is dropped for good."""

    def __init__(self):
        self.boards: OrderedDict[tuple, Compiled] = OrderedDict()
        self.seen: OrderedDict[tuple, int] = OrderedDict()  # times asked
        self.costs: dict[tuple, Costs] = {}
        self.lost: set[tuple] = set()  # the boards whose compiled route lost
        self.shared: set[tuple[Board, int]] = set()  # compiled at their first: see `shared`

    def get(self, puzzle: Puzzle, spec: Spec, rules: Rules, solver: str, cap: float | None = None
            ) -> Compiled | None:
        """The puzzle's compiled board, made now if it is asked for the COMPILE_AT-th time or
        its block's puzzles share it (None: before, or a board that does not fit, or whose
        formula's estimate passes the memory cap, MB, or whose compiled route lost)."""
        key = board_key(puzzle, spec, rules, solver)
        if key in self.lost:
            return None
        found = self.boards.get(key)
        if found is not None:
            self.boards.move_to_end(key)
            return found
        self.seen[key] = asked = self.seen.pop(key, 0) + 1
        if len(self.seen) > SEEN_KEYS:
            old = self.seen.popitem(last=False)[0]
            self.costs.pop(old, None)
            self.lost.discard(old)
        if asked < COMPILE_AT and (key[0], key[-1]) not in self.shared:
            return None
        if not fits(spec, rules, puzzle.board, solver) or (
                cap is not None and (guess := formula_size(puzzle, spec, rules, cap)) is not None
                and guess.mb > cap):
            return None
        found = self.boards[key] = FORMULAS.solver(key, puzzle.board, spec, rules, solver, cap)
        while len(self.boards) > KEEP_BOARDS or (
                len(self.boards) > 1 and sum(b.clauses for b in self.boards.values())
                > KEEP_CLAUSES):
            release(self.boards.popitem(last=False)[1].sat.solver)
        return found

    def measured(self, key: tuple, compiled: bool, spent: float) -> bool:
        """Count a puzzle's `cost` on its route; True if the board's compiled route loses
        from now on (it is dropped, and the board's puzzles go the per-puzzle route)."""
        costs = self.costs.setdefault(key, Costs())
        costs.add(compiled, spent)
        if key in self.lost or not costs.compiled_loses:
            return False
        self.lost.add(key)
        if (board := self.boards.get(key)) is not None:
            self.drop(board)
        return True

    def first(self, puzzle: Puzzle, spec: Spec, rules: Rules, solver: str, cap: float | None,
              stats: dict | None = None, literals: int = 0) -> None:
        """A run's first puzzle, seen before the boards were imported, and what it cost (if
        it was solved)."""
        self.get(puzzle, spec, rules, solver, cap)
        if stats is not None:
            self.measured(board_key(puzzle, spec, rules, solver), False, cost(stats, literals))

    def drop(self, compiled: Compiled) -> None:
        """Forget a board (a fresh solver next time)."""
        if self.boards.get(compiled.key) is compiled:
            del self.boards[compiled.key]
            release(compiled.sat.solver)

    def clear(self, block: Sequence[Puzzle] = ()) -> None:
        """Forget every board: the block of these puzzles starts (none: no block)."""
        for board in self.boards.values():
            release(board.sat.solver)
        self.boards.clear()
        self.seen.clear()
        self.costs.clear()
        self.lost.clear()
        self.shared = shared(block)


def shared(block: Sequence[Puzzle]) -> set[tuple[Board, int]]:
    """The boards with their code bits (`board_key` but the encoding, rules and solver, the
    same for a whole run) that COMPILE_AT puzzles of the block or more share: each compiles
    at its first puzzle, not alone first, up to SHARED_UP_TO cells."""
    counts = Counter((puzzle.board, key_bits(puzzle)) for puzzle in block
                     if puzzle.width * puzzle.height <= SHARED_UP_TO)
    return {board for board, count in counts.items() if count >= COMPILE_AT}


BOARDS = Boards()


Trace = Callable[[Encoder, np.ndarray], object]  # decode.trace: paths, cycles, colors
Observer = Callable[[str, Paths, list], None]


@dataclass
class Run:
    """One puzzle's search on a compiled board: its assumptions, its selector (for blocked
    solutions), its budget and stats."""

    board: Compiled
    puzzle: Puzzle
    rules: Rules
    assumptions: list[int]
    stats: dict
    deadline: float | None
    end: int | None = None  # the solver's conflict count where the budget ends
    selector: int = 0

    @cached_property
    def enc(self) -> Encoder:
        """The puzzle's encoder, for what `walk` leaves to `trace` and for known paths."""
        return Encoder(self.puzzle, "pairwise", self.rules)

    def solve(self, assumptions: list[int]) -> bool | None:
        sat = self.board.sat
        if self.deadline is not None and time.perf_counter() > self.deadline:
            return None
        if self.end is None:
            return sat.solve(self.deadline, assumptions)
        left = self.end - sat.stats().get("conflicts", 0)
        return None if left <= 0 else sat.solve_within(left, assumptions)

    def block(self, clause: list[int]) -> None:
        """A clause for this puzzle alone, under its selector."""
        if not self.selector:
            self.selector = self.board.enc.new_var("puzzle", self.board.puzzles)
            self.assumptions.append(self.selector)
        self.board.sat.add([-self.selector, *clause])

    def retire(self) -> None:
        if self.selector:
            self.board.sat.add([-self.selector])


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


# Nodes over which `assumptions_of` puts the dots and their codes before the nodes that are no
# dots (Glucose makes a decision level of each assumption, in order): on small boards the first
# propagation of them all is most of a solve, and the dots first cost more; on larger ones the
# conflicts are, and fewer. The solver's propagations with the dots first on every board,
# against the node order with the codes last (`flowsat solve --format json`): 20x20 levels
# -19 % (/work/packs/mid.txt), -5 % and -9 % (40 generated levels, twice); 15x15 -3 %, -10 %;
# 14x14 +2 %, -8 % (the 2016 set); 12x12 +7 %, +3 %; 10x10 +12 %; /tmp/p500.txt +2 % (0.75
# conflicts a level; +0.8 % instructions). Over 200 nodes: mid's propagations -5.6 %,
# conflicts -5.5 %; instructions (callgrind, `flowsat solve --jobs 1 --format json`, against
# main a207d24 in the same run): mid -0.55 %, the 2016 set, /tmp/p500.txt and
# /work/packs/k1000.txt unchanged (0.0 %, 0.0 %, +0.05 %: the same solver counts). The codes
# first instead: propagations mid -4.9 %, generated -11.2 % and +5.4 %; the reverse of the
# node order: mid -12.4 % (chance on its 20x20), generated +2.7 %
DOTS_FIRST_OVER = 200
MAX_APART = 8  # differences of an edge's nodes `touches` counts by; past them, one by one


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


def assumptions_of(board: Compiled, puzzle: Puzzle) -> list[int]:
    """The puzzle's dots: the uniqueness switch (if any), then which nodes are dots and each
    dot's code (the dots and their codes first on boards over DOTS_FIRST_OVER nodes)."""
    t, width = board.tables, puzzle.width
    lits, place, bits, codes = t.no_dots[:], t.place, t.bits, []
    for signs, ends in zip(t.signs, puzzle.dots.values(), strict=False):  # (codes to spare)
        for r, c in ends:
            i = r * width + c
            lits[place[i]] *= -1
            codes += map(mul, signs, bits[i])
    if t.nodes <= DOTS_FIRST_OVER:
        return lits + codes
    switch = 1 if board.unique else 0
    nodes = lits[switch:]
    return lits[:switch] + [x for x in nodes if x > 0] + codes + [x for x in nodes if x < 0]


def walk(board: Compiled, puzzle: Puzzle, model: list[int]
         ) -> tuple[Paths, list[tuple[int, int, int]]] | None:
    """The model's paths from each color's first dot and (with lazy touch) the unlinked
    neighbors on one path with their 'apart' literal, walked one linked edge at a time (the
    formula gives a dot one, another node on a path two: a path never meets itself or
    another); None where there is more to it (cycles, or a path that breaks: `trace` tells)."""
    t, width, cells = board.tables, puzzle.width, board.enc.graph.cells
    ways, steps = t.ways, range(t.nodes)
    paths: Paths = {}
    walked: list[list[int]] = []
    for color, (a, b) in puzzle.dots.items():
        cur, end, prev = a[0] * width + a[1], b[0] * width + b[1], -1
        nodes = [cur]
        step = nodes.append
        for _ in steps:  # (a bound: a model that breaks the formula still ends its walk)
            if cur == end:
                break
            for e, n in ways[cur]:
                if n != prev and model[e] > 0:
                    break
            else:
                return None
            prev, cur = cur, n
            step(n)
        else:
            return None
        walked.append(nodes)
        paths[color] = list(map(cells.__getitem__, nodes))
    on_paths = sum(map(len, walked)) - len(walked)  # the links on the paths
    if on_paths + len(walked) != t.nodes if board.links.fill_all else on_paths != sum(
            map((0).__lt__, map(model.__getitem__, t.edge_index))):  # links off the paths: cycles
        return None
    if not board.lazy_touch or (t.apart is not None and touches(t, walked) == on_paths):
        return paths, []
    owner = [-1] * len(ways)
    for k, nodes in enumerate(walked):
        for n in nodes:
            owner[n] = k
    return paths, [(i, j, -1 - e) for e, i, j in t.edges
                   if owner[i] == owner[j] >= 0 and model[e] < 0]


def touches(t: Tables, walked: list[list[int]]) -> int:
    """The edges whose nodes are on one path (the links of the paths, and any touch), counted
    on each path's nodes as bits of a number."""
    count = 0
    for nodes in walked:
        on = sum(map(t.bit.__getitem__, nodes))
        for d, first in t.apart:
            count += (on & on >> d & first).bit_count()
    return count


def attempt(puzzle: Puzzle, limit: int, spec: Spec, rules: Rules, solver: str, cap: float,
            trace: Trace, deadline: float | None = None, known: Sequence[Paths] = (),
            max_conflicts: int | None = None, observe: Observer | None = None
            ) -> tuple[bool | None, list[Paths], int, bool, dict] | None:
    """`flowsat.sat.search` on the puzzle's compiled board, as `Search.finished` takes it
    (answer, solutions, limit, out of budget, stats), or None: the per-puzzle route (the
    board's first puzzle, a board that does not fit or whose formula passes the cap)."""
    board = BOARDS.get(puzzle, spec, rules, solver, cap)
    if board is None or board.size.mb > cap:
        return None
    answer, found, stats, out = search(board, puzzle, limit, rules, trace, deadline, known,
                                       max_conflicts, observe)
    if BOARDS.measured(board.key, True, cost(stats)):
        stats["compiled_lost"] = True  # the board's next puzzles go the per-puzzle route
    return answer, found, limit, out, stats


def search(board: Compiled, puzzle: Puzzle, limit: int, rules: Rules, trace: Trace,
           deadline: float | None = None, known: Sequence[Paths] = (),
           max_conflicts: int | None = None, observe: Observer | None = None
           ) -> tuple[bool | None, list[Paths], dict, bool]:
    """`flowsat.sat.search` on a compiled board: the last answer (False: no more solutions, None:
    stopped), the solutions, the stats, and whether the conflict budget ran out. Any
    exception (a timeout) drops the board: its solver may be half way through a call."""
    try:
        return search_on(board, puzzle, limit, rules, trace, deadline, known, max_conflicts,
                         observe)
    except BaseException:
        BOARDS.drop(board)
        raise


def search_on(board: Compiled, puzzle: Puzzle, limit: int, rules: Rules, trace: Trace,
              deadline: float | None, known: Sequence[Paths], max_conflicts: int | None,
              observe: Observer | None) -> tuple[bool | None, list[Paths], dict, bool]:
    """`search` (its exceptions not caught)."""
    start = time.perf_counter()
    sat = board.sat
    before = board.counted or sat.stats()  # (the solver ran for nothing else since)
    stats = {"route": "compiled", "variables": board.enc.top, "clauses": board.clauses,
             "cuts_kept": board.cuts, "board_puzzles": board.puzzles, "cycle_cuts": 0,
             "rounds": 0, "solve_s": 0.0, "decode_s": 0.0, "load_s": 0.0}
    if board.puzzles == 0:
        stats["compile_s"] = board.compile_s
    run = Run(board, puzzle, rules, assumptions_of(board, puzzle), stats, deadline,
              None if max_conflicts is None else before.get("conflicts", 0) + max_conflicts)
    for paths in known:
        block_known(run, paths)
    stats["encode_s"] = time.perf_counter() - start
    found: list[Paths] = []
    rule = bool(board.unique)  # the corner rule on (assumed: the first assumption)
    while len(found) < limit:
        answer, paths, model = next_solution(
            run, trace, observe, run.assumptions[1 if board.unique and not rule else 0:])
        if answer is False and rule and limit == 1 and not known:  # the fall-back
            state_all_touches(board)
            rule = False
            continue
        if answer is not True:
            break
        found.append(paths)
        if len(found) < limit:
            run.block(board.links.block(model))
    run.retire()
    board.puzzles += 1
    after = board.counted = sat.stats()  # before a worn solver is released
    if board.worn:
        BOARDS.drop(board)
        stats["fresh_solver"] = True  # the next puzzle on the board compiles it anew
    if board.unique and limit == 1 and not known:
        stats["uniqueness"] = "uniqueness rule" if rule else "complete"
    stats.update({k: v - before.get(k, 0) for k, v in after.items()})
    out_of_budget = run.end is not None and after.get("conflicts", 0) >= run.end
    return answer, found, stats, out_of_budget


def next_solution(run: Run, trace: Trace, observe: Observer | None, assumptions: list[int]
                  ) -> tuple[bool | None, Paths | None, list[int] | None]:
    """`Search.solutions` on a compiled board: the cuts kept for every puzzle."""
    board, stats = run.board, run.stats
    while True:
        t = time.perf_counter()
        answer = run.solve(assumptions)
        stats["solve_s"] += time.perf_counter() - t
        stats["rounds"] += 1
        if answer is not True:
            return answer, None, None
        t = time.perf_counter()
        model = board.sat.model()
        walked = walk(board, run.puzzle, model)
        if walked is not None:
            (paths, touching), cycles = walked, []
        else:  # cycles (or a broken path: BrokenModel)
            traced = trace(run.enc, board.links.links(model))
            paths, cycles = traced.paths, traced.cycles
            touching = (board.links.touching(traced.colors(run.enc.size), model)
                        if board.lazy_touch else [])
        stats["decode_s"] += time.perf_counter() - t
        if not cycles and not touching:
            return True, paths, model
        if observe and cycles:
            observe("model", paths, [[run.enc.cell(i) for i in c] for c in cycles])
        cuts = [board.links.cut_dots(c, model) for c in cycles] + differ(board, touching)
        if not cuts:
            raise AssertionError(f"{run.puzzle.name}: a model breaks a stated touch")
        board.sat.extend(cuts)
        board.clauses += len(cuts)
        board.cuts += len(cuts)
        stats["cycle_cuts"] += len(cycles)
        if touching:
            stats["touch_cuts"] = stats.get("touch_cuts", 0) + len(touching)


def differ(board: Compiled, pairs: list[tuple[int, int, int]]) -> list[list[int]]:
    """The clauses for lit -> color(i) != color(j), for each pair not stated yet."""
    pairs = [p for p in pairs if p not in board.stated]
    if not pairs:
        return []
    board.stated.update(pairs)
    board.cells.differ(pairs)
    made, board.enc.clauses = board.enc.clauses, []
    return made


def state_all_touches(board: Compiled) -> None:
    """Every no-self-touch clause not stated yet (the complete formula, kept from now on)."""
    if board.lazy_touch:
        board.lazy_touch = False
        clauses = differ(board, board.links.apart())
        board.sat.extend(clauses)
        board.clauses += len(clauses)


def block_known(run: Run, paths: Paths) -> None:
    """Rule out a solution known beforehand (for this puzzle): its links, and no other, are
    a model (else ValueError: no solution), blocked under the puzzle's selector."""
    enc, links = run.enc, run.board.links
    linked = {(min(i, j), max(i, j)) for path in paths.values()
              for i, j in pairwise(enc.path_nodes(path))}
    if not linked <= set(enc.edges):
        raise ValueError(f"{enc.puzzle.name}: the known paths are not a solution")
    on = np.array([(i, j) in linked for i, j in enc.edges], dtype=bool)
    given = np.where(on, links.var_array, -links.var_array).tolist()
    rule_off = run.assumptions[1 if run.board.unique else 0:]
    if run.board.sat.solve(None, rule_off + given) is not True:
        raise ValueError(f"{enc.puzzle.name}: the known paths are not a solution")
    run.block((-links.var_array[on]).tolist())
