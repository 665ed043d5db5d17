"""Connection families: how the links between neighboring cells of one path are represented.

Each family adds its clauses on top of a cell-state family (`cells.same` / `cells.differ`)
and answers what the other families and the solve loop ask of links:
`links(model)` (the linked pairs of a model), `cut(cycle, model)` (a clause against a cycle),
`block(model)` (a clause against the model's solution), `linked(i, j)` (literals whose OR
says i and j are linked) and `corner(i, glyph)` (literals whose AND says cell i turns so).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, cached_property
from itertools import combinations

import numpy as np

from flowsat.puzzle.rules import Rules
from flowsat.sat import card
from flowsat.sat.bulk import WAYS
from flowsat.sat.cells import at_most_code
from flowsat.sat.deduce import PAIRS, corners_hold, pair_masks
from flowsat.sat.encoder import DOWN, LEFT, RIGHT, UP, Encoder, Keys, cut_rows

# The 2016 direction types of a non-dot cell, each linking it to two neighbors.
TYPES = {"─": (LEFT, RIGHT), "│": (UP, DOWN), "┘": (UP, LEFT), "└": (UP, RIGHT),
         "┐": (DOWN, LEFT), "┌": (DOWN, RIGHT)}
CORNERS = ("┘", "└", "┐", "┌")

Model = list[int]


class Edges:
    """One variable per board edge: a dot has exactly one linked edge, other cells two (or,
    when cells may stay empty, none or two).

    A linked edge joins cells of one color; under the no-self-touch rule an unlinked edge
    joins cells of different colors (both used, when cells may stay empty), so the edge
    variable means 'same color'.
    """

    name = "edges"

    def __init__(self, enc: Encoder, cells, rules: Rules, lazy_touch: bool = False,
                 degree: str = "direct"):
        self.enc, self.fill_all = enc, rules.fill_all
        self.turns = degree == "turns" and corners_hold(enc.board, rules)
        edges = enc.edges
        self.vars = enc.new_vars("edge", Keys(len(edges), lambda t: (enc.cell(edges[t][0]),
                                                                      enc.cell(edges[t][1]))))
        self.var_array = np.arange(1, len(edges) + 1, dtype=np.int64) + (self.vars[0] - 1
                                                                         if edges else 0)
        if self.fill_all:
            self.degrees()
        else:  # a dot has one linked edge, another cell none or two
            for i in enc.nodes:
                if enc.dot[i] >= 0:
                    enc.exactly(self.incident[i], 1)
                else:
                    self.none_or_two(self.incident[i])
        self._apart = None if self.fill_all else self.apart_when_used()  # (made when asked)
        self.last: tuple[Model | None, np.ndarray] = (None, np.zeros(0, dtype=bool))
        self.couple_colors(cells, rules.self_touch or lazy_touch)

    @property
    def key(self) -> tuple:
        """What the edge variables' numbers depend on besides the board (`Encoder.shared`)."""
        return ("edges", int(self.var_array[0]) if len(self.var_array) else 0)

    @cached_property
    def index(self) -> dict[tuple[int, int], int]:
        """Each edge's variable (made when first asked: the default route seldom needs it)."""
        return dict(zip(self.enc.edges, self.vars, strict=True))

    @cached_property
    def incident(self) -> list[list[int]]:
        """Each node's edge variables, in edge order."""
        incident: list[list[int]] = [[] for _ in range(self.enc.size)]
        for (i, j), e in self.index.items():
            incident[i].append(e)
            incident[j].append(e)
        return incident

    def degrees(self) -> None:
        """A dot has exactly one linked edge, another cell two: the direct clauses of every
        node at once, its edges in edge order, nodes grouped by their number of edges."""
        enc = self.enc
        matrix = np.append(self.var_array, 0)[enc.graph.incident_rows]
        count, on = enc.graph.degree, enc.graph.on_array
        need = np.where(enc.dots >= 0, 1, 2)
        if self.turns:
            self.turn_degrees(on & (need == 2))
        for n in np.flatnonzero(np.bincount(count[on])).tolist():  # the degrees there are
            for k in (1,) if self.turns else (1, 2):
                rows = np.flatnonzero(on & (count == n) & (need == k))
                if not len(rows):
                    continue
                if k <= n and enc.card_method == "pairwise":
                    for sign, columns in card.exactly_parts(n, k):
                        codes = (rows[:, None] * len(columns) + np.arange(len(columns))).ravel()
                        enc.clauses += enc.shared(("degree", *self.key, n, k, sign), codes,
                                                  enc.size * len(columns),
                                                  subset_rows(matrix, sign, columns))
                    continue
                for i in rows:  # too few edges (an empty clause), or a pysat.card method
                    enc.exactly(matrix[i, :n].tolist(), k)

    def turn_degrees(self, free: np.ndarray) -> None:
        """The corner rule's `degree = "turns"`: each cell without a dot takes one pair of
        its links that the rule leaves it (straight, or a turn whose inside diagonal meets a
        dot: `deduce.pair_masks`), stated by the clauses of `turn_clauses`; the cells are
        grouped by the links they have and the pairs left to them, and each clause is named
        by its cell and its literals' ways and signs (`pattern_rows`), shorter clauses first."""
        if not free.any():
            return
        _, present = self.enc.graph.way_rows
        key = (present << len(PAIRS) | self.pairs)[free]  # (no np.unique: it imports numpy.ma)
        kinds = np.flatnonzero(np.bincount(key, minlength=1 << len(WAYS) + len(PAIRS)))
        kind = np.zeros(1 << len(WAYS) + len(PAIRS), dtype=np.intp)
        kind[kinds] = np.arange(len(kinds))
        kind = kind[key]
        tables = [turn_clauses(k >> len(PAIRS), k & (1 << len(PAIRS)) - 1)
                  for k in kinds.tolist()]
        columns, signs, lengths = (np.concatenate([t[i] for t in tables]) for i in range(3))
        pattern = (np.where(columns < len(WAYS), 2 - (signs > 0), 0)
                   * 3 ** columns).sum(axis=1)
        count = np.array([len(t[2]) for t in tables])
        per_cell = count[kind]
        cell = np.repeat(np.flatnonzero(free), per_cell)
        row = np.repeat((np.cumsum(count) - count)[kind] - (np.cumsum(per_cell) - per_cell),
                        per_cell) + np.arange(len(cell))  # the row of `tables` of each clause
        order = np.argsort(lengths[row], kind="stable")
        self.enc.clauses += self.enc.shared(
            ("turns", *self.key), (cell * PATTERNS + pattern[row])[order],
            self.enc.size * PATTERNS, self.turn_rows)

    def turn_rows(self, codes: np.ndarray) -> list[list[int]]:
        """The clauses of `turn_degrees` named by codes cell * PATTERNS + pattern."""
        rows, _ = self.enc.graph.way_rows
        ways = np.append(self.var_array, 0)[rows]
        ways = np.column_stack((ways, np.zeros(len(ways), dtype=np.int64)))  # way 4: none
        cell, pattern = np.divmod(codes, PATTERNS)
        columns, signs, lengths = (x[pattern] for x in pattern_rows())
        return cut_rows(ways[cell[:, None], columns] * signs, lengths)

    @cached_property
    def pairs(self) -> np.ndarray:
        """`deduce.pair_masks`: each cell's pairs of links (bits of PAIRS) the corner rule
        leaves it."""
        return pair_masks(self.enc)

    def turns_left(self, glyph: str) -> np.ndarray:
        """For each cell, whether the corner rule leaves it that turn (`pairs`)."""
        k = PAIRS.index(tuple(sorted(WAYS.index(d) for d in TYPES[glyph])))
        return (self.pairs >> k & 1).astype(bool)

    def none_or_two(self, lits: list[int]) -> None:
        """Cells may stay empty: no linked edge or two, never one."""
        self.enc.at_most(lits, 2)
        self.enc.clauses += [[-e, *(f for f in lits if f != e)] for e in lits]

    def apart_when_used(self) -> list[tuple[int, int, int]]:
        """Cells may stay empty: for each pair of neighbors, a literal implied by 'not linked,
        both used' (a cell is used when an edge of it is linked; a dot always is)."""
        enc = self.enc
        used = {i: enc.new_var("used", enc.cell(i)) for i in enc.nodes if enc.dot[i] < 0}
        for i, u in used.items():
            enc.clauses += [[-e, u] for e in self.incident[i]]
        pairs = list(self.index.items())
        apart = enc.new_vars("apart", Keys(len(pairs), lambda t: tuple(map(enc.cell,
                                                                          pairs[t][0]))))
        for ((i, j), e), t in zip(pairs, apart, strict=True):
            enc.clauses.append([e, *(-used[k] for k in (i, j) if k in used), t])
        return [(i, j, t) for ((i, j), _), t in zip(pairs, apart, strict=True)]

    def couple_colors(self, cells, allow_self_touch: bool) -> None:
        """Linked cells share a color; without self-touch, unlinked neighbors do not."""
        ends = self.enc.edge_array
        cells.same((ends[:, 0], ends[:, 1], self.var_array), self.key)
        if not allow_self_touch:
            cells.differ(self.apart_arrays)

    @cached_property
    def apart_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """`apart()` as three arrays: cells i, cells j, literals (made once: for the formula
        and for each model's `touching`)."""
        if not self.fill_all:
            i, j, lit = np.array(self._apart, dtype=np.int64).reshape(-1, 3).T
            return i, j, lit
        ends = self.enc.edge_array
        return ends[:, 0], ends[:, 1], -self.var_array

    def apart(self) -> list[tuple[int, int, int]]:
        """Every pair of neighbors with the literal 'not linked' (and both used, when cells
        may stay empty): then their colors differ."""
        if self._apart is None:
            self._apart = [(i, j, -e) for (i, j), e in self.index.items()]
        return self._apart

    def touching(self, color: np.ndarray, model: Model) -> list[tuple[int, int, int]]:
        """The unlinked neighbors on one path (they touch), with their 'apart' literal, from
        each node's path (`color`: -1 on none)."""
        i, j, lit = self.apart_arrays
        ci = color[i]
        hit = np.flatnonzero((ci == color[j]) & (ci >= 0) & ~self.linked_in(model))
        if not len(hit):
            return []
        return list(zip(i[hit].tolist(), j[hit].tolist(), lit[hit].tolist(), strict=True))

    def edge(self, i: int, j: int) -> int:
        return self.index[min(i, j), max(i, j)]

    def linked(self, i: int, j: int) -> list[int]:
        return [self.edge(i, j)]

    def corner(self, i: int, glyph: str) -> list[int] | None:
        if self.enc.dot[i] >= 0:
            return None
        first, second = TYPES[glyph]
        a, b = int(self.toward_vars[first][i]), int(self.toward_vars[second][i])
        return None if a == 0 or b == 0 else [a, b]

    def corners(self, glyph: str) -> tuple[np.ndarray, np.ndarray]:
        """`corner(i, glyph)` of every node that has one: the nodes, and their literals as
        the rows of a matrix."""
        first, second = TYPES[glyph]
        a, b = self.toward_vars[first], self.toward_vars[second]
        nodes = np.flatnonzero((a > 0) & (b > 0) & (self.enc.dots < 0))
        return nodes, np.column_stack((a[nodes], b[nodes]))

    @cached_property
    def toward_vars(self) -> dict[tuple[int, int], np.ndarray]:
        """The edge variable each way from each node, 0 where there is none."""
        var = np.append(self.var_array, 0)  # row -1 (no edge): 0
        return {d: var[rows] for d, rows in self.enc.graph.toward_edge.items()}

    def linked_in(self, model: Model) -> np.ndarray:
        """Which edges a model links (its edge variables are one block: that slice is read
        once a model, and kept for the model's other questions: a model is never changed)."""
        if model is not self.last[0]:
            first, count = int(self.var_array[0]) - 1 if len(self.var_array) else 0, len(
                self.var_array)
            self.last = (model, np.fromiter(model[first:first + count], np.int64, count) > 0)
        return self.last[1]

    def links(self, model: Model) -> np.ndarray:
        """The linked pairs of nodes, as the rows of an array."""
        return self.enc.edge_array[self.linked_in(model)]

    def block(self, model: Model) -> list[int]:
        """A clause that rules out the model's links (its solution) and nothing else."""
        return (-self.var_array[self.linked_in(model)]).tolist()

    def cut(self, cycle: list[int], model: Model) -> list[int]:
        """Cells without a dot cannot be closed off: some edge must leave the set (or, when
        cells may stay empty, some edge of the cycle must go); in edge order."""
        inside = np.zeros(self.enc.size, dtype=bool)
        inside[cycle] = True
        ends = self.enc.edge_array
        a, b = inside[ends[:, 0]], inside[ends[:, 1]]
        leave = self.var_array[a != b].tolist()
        if self.fill_all:
            return leave
        return leave + (-self.var_array[a & b & self.linked_in(model)]).tolist()


def subset_rows(matrix: np.ndarray, sign: int, columns: np.ndarray
                ) -> Callable[[np.ndarray], list[list[int]]]:
    """The clauses of a block of `card.exactly_parts`: for code node * len(columns) + s,
    the node's row of `matrix` at subset s, times sign."""
    def make(codes: np.ndarray) -> list[list[int]]:
        node, subset = np.divmod(codes, len(columns))
        return (sign * matrix[node[:, None], columns[subset]]).tolist()
    return make


@cache
def allowed() -> list[tuple[tuple[int, int], int]]:
    """Every clause over a cell's four links (WAYS order) as bit masks, (ways in it positive,
    ways in it negative), with the mask of the 16 link sets (bit w: way w linked) it allows
    (made on first use: the turns are for boards of LEAN_FROM cells or more)."""
    return [((pos, neg), sum(1 << a for a in range(16) if a & pos or ~a & neg))
            for pos in range(16) for neg in range(16) if not pos & neg]


@cache
def turn_clauses(present: int, pairs: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Clauses for 'of the links present (bits of WAYS), exactly one pair of PAIRS allowed
    in `pairs` is linked': its prime implicates, less each of two literals that the others
    of two imply, so that unit propagation reaches all that the prime implicates would (a
    cell without an allowed pair: the empty clause). As arrays of a row per clause: the
    ways in it (in a cell's WAYS row; 4 pads), their signs, and its length."""
    models = sum(1 << (1 << a | 1 << b) for k, (a, b) in enumerate(PAIRS)
                 if pairs >> k & 1 and present >> a & 1 and present >> b & 1)
    valid = sorted(((pos, neg) for (pos, neg), allows in allowed()
                    if not (pos | neg) & ~present and models & ~allows == 0),
                   key=lambda c: (c[0] | c[1]).bit_count())
    known = set(valid)  # a superset of a valid clause is valid: a prime has no valid
    primes = [(pos, neg) for pos, neg in valid  # clause one literal shorter inside it
              if not any((pos & ~(1 << w), neg & ~(1 << w)) in known
                         for w in range(len(WAYS)) if (pos | neg) >> w & 1)]
    two = [literals(c) for c in primes if (c[0] | c[1]).bit_count() == 2]
    kept = [literals(c) for c in primes if (c[0] | c[1]).bit_count() != 2]
    for a, b in list(two):  # two-literal ones: out if the others of two imply them
        others = [c for c in two if c != [a, b]]
        if implies(others, a ^ 1, b):
            two = others
    return clause_arrays(kept + two)


def clause_arrays(rows: list[list[int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Clauses of `literals` as the arrays of `turn_clauses`."""
    pad = [2 * len(WAYS)] * len(WAYS)  # way 4, positive
    return (np.array([[x >> 1 for x in (c + pad)[:len(WAYS)]] for c in rows],
                     dtype=np.intp).reshape(-1, len(WAYS)),
            np.array([[1 - 2 * (x & 1) for x in (c + pad)[:len(WAYS)]] for c in rows],
                     dtype=np.int64).reshape(-1, len(WAYS)),
            np.array([len(c) for c in rows], dtype=np.int64))


def literals(clause: tuple[int, int]) -> list[int]:
    """A clause (bit masks, as in `allowed`) as literals 2w (way w linked) and 2w + 1 (not)."""
    pos, neg = clause
    return ([2 * w for w in range(len(WAYS)) if pos >> w & 1]
            + [2 * w + 1 for w in range(len(WAYS)) if neg >> w & 1])


# A clause over a cell's links named by its pattern: digit w (base 3) of way w is 0 (not in
# it), 1 (linked) or 2 (not linked)
PATTERNS = 3 ** len(WAYS)


@cache
def pattern_rows() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each pattern's clause as `clause_arrays` makes it (the literals in the order `literals`
    gives them), made on first use."""
    return clause_arrays([literals(tuple(
        sum(1 << w for w in range(len(WAYS)) if p // 3 ** w % 3 == digit) for digit in (1, 2)))
        for p in range(PATTERNS)])


def implies(clauses: list[list[int]], start: int, goal: int) -> bool:
    """Whether the two-literal clauses take literal `start` to `goal` (a or b: not a, b)."""
    seen, todo = {start}, [start]
    while todo:
        x = todo.pop()
        for a, b in clauses:
            for y in (b,) if a == x ^ 1 else (a,) if b == x ^ 1 else ():
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
    return goal in seen


class EdgeColors(Edges):
    """Colors carried only along edges: ceil(log2 C) color bits on every edge, none on cells.

    Two linked edges of a cell carry one color, an edge linked to a dot carries its color,
    and (no self-touch) two cells side by side without a link have edges of different colors.
    """

    name = "edgecolors"

    def couple_colors(self, cells, allow_self_touch: bool) -> None:
        enc = self.enc
        nbits = max(1, (len(enc.colors) - 1).bit_length())
        self.bits = {}
        for (i, j), e in self.index.items():
            self.bits[e] = enc.new_vars("edge color", Keys(nbits, lambda t, i=i, j=j: (
                enc.cell(i), enc.cell(j), t)))
            enc.clauses += [[-e, *c] for c in at_most_code(self.bits[e], len(enc.colors) - 1)]
        for i, incident in enumerate(self.incident):
            if enc.dot[i] >= 0:
                enc.clauses += [[-e, x] for e in incident for x in self.code(e, enc.dot[i])]
            else:
                enc.clauses += [[-f, -g, *c] for f, g in combinations(incident, 2)
                                for a, b in zip(self.bits[f], self.bits[g], strict=True)
                                for c in ([-a, b], [a, -b])]
        if not allow_self_touch:
            for (i, j), e in self.index.items():
                self.touching(i, j, e)

    def code(self, e: int, k: int) -> list[int]:
        return [b if k >> t & 1 else -b for t, b in enumerate(self.bits[e])]

    def touching(self, i: int, j: int, e: int) -> None:
        """Unless e links i and j, the colors on their other linked edges differ."""
        enc, dot = self.enc, self.enc.dot
        others_i = [f for f in self.incident[i] if f != e]
        others_j = [g for g in self.incident[j] if g != e]
        if dot[i] >= 0 and dot[j] >= 0:
            if dot[i] == dot[j]:
                enc.clauses.append([e])
        elif dot[i] >= 0 or dot[j] >= 0:
            k, others = (dot[i], others_j) if dot[i] >= 0 else (dot[j], others_i)
            enc.clauses += [[e, -g] + [-x for x in self.code(g, k)] for g in others]
        else:
            for f in others_i:
                for g in others_j:
                    ds = enc.new_vars("edge colors differ", Keys(len(self.bits[f]),
                                                                 lambda t, f=f, g=g: (f, g, t)))
                    enc.clauses += [c for d, a, b in zip(ds, self.bits[f], self.bits[g],
                                                         strict=True)
                                    for c in ([-d, a, b], [-d, -a, -b])]
                    enc.clauses.append([e, -f, -g, *ds])

