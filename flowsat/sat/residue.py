"""The part of a board propagation leaves undecided, as a small CNF of its own.

After `deduce`, the links made form chains (each a piece of one path); the undecided links
join chain ends. The residue formula has a variable per undecided link and, for each chain
whose color is not known, a one-hot color; it says:

- each open node makes as many of its undecided links as it still needs (fill-all off: a
  cell with no link yet makes none or two);
- a link made joins two chains of one color; without self-touch a link left out, or decided
  out, between two different chains makes their colors differ (they are next to each other),
  and two neighbors on one chain must be linked (else the puzzle has no solution);
- cycles of chains are cut as models show them (as the full encodings do).

Its size follows the undecided part, not the board: on the 1002x1002 spirals a few thousand
variables for a million cells.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from itertools import pairwise

import numpy as np

from flowsat.puzzle.model import Cell, CellPath, Paths
from flowsat.sat import card
from flowsat.sat.bulk import chains, links_in
from flowsat.sat.deduce import OFF, ON, UNDECIDED, Propagation
from flowsat.sat.encoder import Encoder
from flowsat.sat.loop import Decoded, solutions
from flowsat.sat.oracle import open_oracle


class NoSolution(Exception):
    """The decided links already break a rule (two neighbors on one chain not linked)."""


@dataclass
class Residue:
    """The residue formula and what its models are read with."""

    state: np.ndarray  # each link's state after propagation
    edges: np.ndarray  # the undecided links, in variable order (variable k + 1)
    chain: np.ndarray  # each node's chain (the smallest node on it)
    joins: list[tuple[int, int]] = field(default_factory=list)  # each undecided link's chains
    clauses: list[list[int]] = field(default_factory=list)
    top: int = 0

    def links(self, model: list[int]) -> np.ndarray:
        """The state of every link under a model of the residue."""
        state = self.state.copy()
        on = np.asarray(model[:len(self.edges)]) > 0
        state[self.edges] = np.where(on, ON, OFF)
        return state

    def cycles(self, model: list[int]) -> list[list[int]]:
        """The cycles of chains the model's links close, each as the variables of the links
        around it (a chain has two ends, so a component that closes is one cycle)."""
        parent: dict[int, int] = {}

        def root(c: int) -> int:
            while parent.get(c, c) != c:
                parent[c] = c = parent.get(parent[c], parent[c])
            return c

        made = [k for k in range(len(self.joins)) if model[k] > 0]
        closed = set()
        for k in made:
            a, b = map(root, self.joins[k])
            if a == b:
                closed.add(a)
            else:
                parent[a] = b
        around: dict[int, list[int]] = {}
        for k in made:
            r = root(self.joins[k][0])
            if r in closed:
                around.setdefault(r, []).append(k + 1)
        return list(around.values())

    def block(self, model: list[int]) -> list[int]:
        """A clause ruling out this assignment of the undecided links."""
        return [-x for x in model[:len(self.edges)]]


def residue(p: Propagation) -> Residue:
    """The residue formula of a finished propagation (NoSolution when the decided links
    already break the touch rule)."""
    enc = p.enc
    state = np.frombuffer(p.state, dtype=np.uint8)
    ends = enc.graph.edge_array
    # the rounds' chains grown by the worklist's links (else every made link hooked)
    chain = (chains(enc.size, links_in(ends, state, ON)) if p.chain is None
             else chains(enc.size, ends[p.linked], p.chain))
    undecided = np.flatnonzero(state == UNDECIDED)
    res = Residue(state, undecided, chain, top=len(undecided))
    color = np.full(enc.size, -1, dtype=np.int64)  # each chain's known color, by its label
    dots = enc.dots
    has_dot = dots >= 0
    color[chain[has_dot]] = dots[has_dot]
    colors = len(enc.colors)
    unknown = np.unique(chain[ends[undecided].ravel()])
    unknown = unknown[color[unknown] < 0]
    first = res.top + 1
    res.top += len(unknown) * colors
    var = {int(c): first + t * colors for t, c in enumerate(unknown.tolist())}  # chain -> vars
    base = np.zeros(enc.size, dtype=np.int64)  # each unknown chain's first color variable
    base[unknown] = first + colors * np.arange(len(unknown))

    clauses = res.clauses
    may_stay_empty = [c for c in var if p.optional and p.made[c] == 0 and enc.dot[c] < 0]
    one_color = base[unknown][:, None] + np.arange(colors)  # each chain's color literals
    clauses += (-one_color[:, card.subset_columns(colors, 2)]).reshape(-1, 2).tolist()
    clauses += one_color[~np.isin(unknown, may_stay_empty)].tolist()  # (none: stays empty)
    for c in may_stay_empty:  # a single cell: used when linked
        for k in np.flatnonzero((ends[undecided] == c).any(axis=1)).tolist():
            clauses.append([-(k + 1), *range(var[c], var[c] + colors)])
    degree_clauses(p, undecided, clauses)
    u_chain, v_chain = chain[ends[undecided, 0]], chain[ends[undecided, 1]]
    res.joins = list(zip(u_chain.tolist(), v_chain.tolist(), strict=True))
    sides = Sides(base, color, colors)
    clauses += sides.relate(np.arange(1, len(undecided) + 1), u_chain, v_chain, p.touch)
    if p.touch:
        off = links_in(ends, state, OFF)
        ca, cb = chain[off[:, 0]], chain[off[:, 1]]
        if (ca == cb).any():
            raise NoSolution
        keys = np.unique(np.minimum(ca, cb) * enc.size + np.maximum(ca, cb))  # each pair once
        low, high = np.divmod(keys, enc.size)
        ka, kb = color[low], color[high]
        matter = (ka < 0) | (kb < 0) | (ka == kb)  # not two chains of known colors apart
        clauses += sides.relate(None, low[matter], high[matter], True)
    if min(map(len, clauses), default=1) == 0:  # an empty clause
        raise NoSolution
    return res


@dataclass
class Sides:
    """The chains' color literals, for clauses over many pairs of chains at once: `base`,
    the first color variable of each chain of unknown color at an undecided link (by its
    label; 0: none); `color`, each chain's known color (-1 unknown: with no variable, a
    cell that stays empty, of no color)."""

    base: np.ndarray
    color: np.ndarray
    colors: int

    def relate(self, x: np.ndarray | None, a: np.ndarray, b: np.ndarray, differ: bool
               ) -> list[list[int]]:
        """Clauses for chains a[i] and b[i] joined by link x[i]: x makes them one color and,
        when `differ`, not x makes their colors differ (x None: never linked). A chain
        whose color is known has no literal: a clause it satisfies is left out, a literal
        it falsifies is dropped."""
        out: list[list[int]] = []
        n = len(a)
        x = np.zeros(n, dtype=np.int64) if x is None else x  # 0: no link literal
        unknown_a, unknown_b = self.base[a] > 0, self.base[b] > 0  # (else none of k: empty)
        both, only_b, only_a = unknown_a & unknown_b, ~unknown_a & unknown_b, unknown_a & ~unknown_b
        neither = ~unknown_a & ~unknown_b
        for k in range(self.colors):
            la, lb = self.base[a] + k, self.base[b] + k  # 'has color k' (unknown chains)
            ka, kb = self.color[a] == k, self.color[b] == k  # has it (known chains)
            if x.any():  # x -> (a has k <-> b has k)
                rows(out, x, both, -x, -la, lb)
                rows(out, x, both, -x, -lb, la)
                rows(out, x, only_b, -x, np.where(ka, lb, -lb))
                rows(out, x, only_a, -x, np.where(kb, la, -la))
                rows(out, x, neither & (ka != kb), -x)
            if differ:  # not x -> not (a has k and b has k)
                rows(out, x, both, x, -la, -lb)
                rows(out, x, only_b & ka, x, -lb)
                rows(out, x, only_a & kb, x, -la)
                rows(out, x, neither & ka & kb, x)
        return out


def rows(out: list[list[int]], x: np.ndarray, pick: np.ndarray, *columns: np.ndarray) -> None:
    """Append the picked rows of the columns as clauses (the link column left out where x
    is 0: no link)."""
    if not pick.any():
        return
    table = np.stack([c[pick] for c in columns], axis=1)
    linked = x[pick] != 0
    out += table[linked].tolist()
    out += table[~linked, 1:].tolist()


def degree_clauses(p: Propagation, undecided: np.ndarray, clauses: list[list[int]]) -> None:
    """Each open node makes as many undecided links as it still needs (the nodes with as
    many links, and as many to make, at once)."""
    enc = p.enc
    if not len(undecided):
        return
    nodes = enc.graph.edge_array[undecided].ravel()
    order = np.argsort(nodes, kind="stable")  # by node, each node's links in edge order
    nodes, lits = nodes[order], np.repeat(np.arange(1, len(undecided) + 1), 2)[order]
    starts = np.flatnonzero(np.r_[True, nodes[1:] != nodes[:-1]])
    count = np.diff(np.r_[starts, len(nodes)])
    node = nodes[starts]
    made = np.asarray(p.made)[node]
    left = np.asarray(p.need)[node] - made
    empty = (made == 0) & (enc.dots[node] < 0) if p.optional else np.zeros(len(node), bool)
    for at in np.flatnonzero(empty | (left < 1) | (left > count)).tolist():
        xs = lits[starts[at]:starts[at] + count[at]].tolist()
        if empty[at]:  # none or two
            clauses += card.at_most(xs, 2, "pairwise", None)
            clauses += [[-x, *(y for y in xs if y != x)] for x in xs]
        else:
            clauses += card.exactly(xs, int(left[at]), "pairwise", None)
    plain = ~empty & (left >= 1) & (left <= count)
    for n, k in set(zip(count[plain].tolist(), left[plain].tolist(), strict=True)):
        pick = plain & (count == n) & (left == k)
        for rows_ in card.exactly_rows(lits[starts[pick][:, None] + np.arange(n)], k):
            clauses += rows_.tolist()


def search(p: Propagation, res: Residue, limit: int, name: str, deadline: float | None,
           stats: dict, known: list[Paths] = (), budget=None
           ) -> tuple[bool | None, list[Paths]]:
    """Up to `limit` solutions of a finished propagation's residue (see `search.search`):
    the answer (False: no more solutions, None: deadline or budget) and the solutions found.
    `budget(oracle)` wraps the solver in a conflict budget."""
    stats.update(variables=res.top, clauses=len(res.clauses))
    t = time.perf_counter()
    with open_oracle(name, res.clauses) as sat:
        stats["load_s"] = time.perf_counter() - t
        for paths in known:
            sat.add(res.block(assignment(res, p.enc, paths)))
        oracle = budget(sat) if budget else sat
        answer, found = solutions(Rest(p, res, oracle, deadline, stats), limit)
        stats.update(sat.stats())
        if budget:
            stats["out_of_budget"] = oracle.left() <= 0
    return answer, found


class Rest:
    """The residue formula on its solver, as the loop takes it (`flowsat.sat.loop.Route`):
    cycles of chains cut, each model traced whole (`trace`)."""

    def __init__(self, p: Propagation, res: Residue, sat, deadline: float | None, stats: dict):
        self.p, self.res, self.sat, self.deadline, self.stats = p, res, sat, deadline, stats

    def solve(self) -> bool | None:
        return self.sat.solve(self.deadline)

    def model(self) -> list[int]:
        return self.sat.model()

    def decode(self, model: list[int]) -> Decoded:
        """The cycles of chains the model closes (as the links around each), or, if none,
        its paths."""
        around = self.res.cycles(model)
        if around:
            return Decoded(None, around)
        return Decoded(trace(self.p.enc, self.res.links(model)))

    def cuts(self, decoded: Decoded, model: list[int]) -> list[list[int]]:
        return [[-x for x in around] for around in decoded.cycles]

    def add(self, clauses: list[list[int]]) -> None:
        for clause in clauses:
            self.sat.add(clause)

    def block(self, model: list[int]) -> None:
        self.sat.add(self.res.block(model))

    def relax(self) -> bool:
        return False  # no rule to switch off

    def cells(self, cycles: list[list[int]]) -> list[list[Cell]]:
        """The cells at the ends of the links around each cycle."""
        ends, enc = self.p.enc.graph.edge_array, self.p.enc
        return [sorted({enc.cell(int(n)) for k in around for n in ends[self.res.edges[k - 1]]})
                for around in cycles]


def assignment(res: Residue, enc: Encoder, paths: Paths) -> list[int]:
    """The residue literals of a known solution (ValueError if it breaks a forced link)."""
    linked = {(min(i, j), max(i, j)) for path in paths.values()
              for i, j in pairwise(enc.path_nodes(path))}
    ends = enc.graph.edge_array
    on = np.array([tuple(e) in linked for e in ends.tolist()], dtype=bool)
    if not linked <= set(map(tuple, ends.tolist())) or (on & (res.state == OFF)).any() \
            or (~on & (res.state == ON)).any():
        raise ValueError(f"{enc.puzzle.name}: the known paths are not a solution")
    return [k + 1 if on[e] else -(k + 1) for k, e in enumerate(res.edges.tolist())]


def trace(enc: Encoder, state: np.ndarray) -> Paths:
    """The paths along the made links, each from its color's first dot (the links form no
    cycle: the residue's cycles are cut before), as arrays (`CellPath`). A straight run of
    nodes numbered one or a row apart is crossed in one step (`Runs`), so a spiral's million
    cells take a few thousand steps, and its nodes are made with the others in one pass."""
    runs = Runs(enc, state)
    home = np.asarray(enc.home) if enc.second else None  # else each node is its cell
    paths: Paths = {}
    for color, (a, b) in enc.puzzle.dots.items():
        pieces = runs.walk(enc.index(a), enc.index(b))
        if pieces is None:
            raise AssertionError(f"{enc.puzzle.name}: path {color!r} breaks")
        nodes = piece_nodes(pieces)
        paths[color] = CellPath(*np.divmod(nodes if home is None else home[nodes], enc.width))
    return paths


def piece_nodes(pieces: list[tuple[int, int, int]]) -> np.ndarray:
    """The nodes of a path of pieces (first node, last node, step), in order."""
    first, last, step = np.array(pieces, dtype=np.int64).T
    length = (last - first) // step + 1
    at = np.arange(int(length.sum())) - np.repeat(np.cumsum(length) - length, length)
    return np.repeat(first, length) + at * np.repeat(step, length)


class Runs:
    """The made links, each node's one or two linked neighbors, and the straight runs: a node
    whose two neighbors are the nodes numbered one less and one more (a row less and more) is
    inside a run, whose end (the next node that is not) is found by bisection in the row's
    run ends, or, along a column (a few thousand nodes at most), as the first node of the
    column onwards that is not inside one."""

    def __init__(self, enc: Encoder, state: np.ndarray):
        ends = links_in(enc.graph.edge_array, state, ON)
        nodes, others = ends.ravel(), ends[:, ::-1].ravel()
        degree = np.bincount(nodes, minlength=enc.size)
        if (degree > 2).any():
            raise AssertionError(f"{enc.puzzle.name}: a node with more than two links")
        first = np.full(enc.size, -1)
        first[nodes] = others  # a node's two links: the last one written here, the other
        then = np.bincount(nodes, others, enc.size).astype(np.int64)  # the two summed
        then -= first
        then[degree < 2] = -1
        self.first, self.then = first, then  # read a few times per run: arrays
        self.size, self.width = enc.size, enc.width
        in_row = inside(ends, 1, enc.size)
        self.in_column = inside(ends, self.width, enc.size)
        self.in_row, self.row_stops = in_row.tobytes(), np.flatnonzero(~in_row)

    def walk(self, start: int, end: int) -> list[tuple[int, int, int]] | None:
        """The nodes from start to end along the links, as pieces (first node, last node,
        step): single nodes and runs (None: the links break off or loop)."""
        first, then, w = self.first, self.then, self.width
        pieces, prev, cur, length = [(start, start, 1)], -1, start, 1
        while cur != end:
            nxt = int(first[cur] if first[cur] != prev else then[cur])
            if nxt < 0 or length > self.size:
                return None
            step = nxt - cur
            if step in (1, -1) and self.in_row[nxt]:
                stop = run_end(self.row_stops, nxt, step > 0)
            elif step in (w, -w) and self.in_column[nxt]:  # the column's first node not inside
                stop = nxt + step * int(np.argmin(self.in_column[nxt::step]))
            else:
                pieces.append((nxt, nxt, 1))
                prev, cur, length = cur, nxt, length + 1
                continue
            pieces.append((nxt, stop, step))  # the run, and the node that ends it
            prev, cur, length = stop - step, stop, length + (stop - nxt) // step + 1
        return pieces


def inside(ends: np.ndarray, step: int, size: int) -> np.ndarray:
    """Each node linked to the nodes numbered `step` less and `step` more (`ends`: the made
    links, smaller node first; no node has more than two): found from the links, not from
    each node's two neighbors (no temporaries a node long but the two masks)."""
    onwards = np.zeros(size, dtype=bool)  # linked to the node numbered `step` more
    onwards[ends[ends[:, 1] - ends[:, 0] == step, 0]] = True
    found = np.zeros(size, dtype=bool)
    found[step:] = onwards[:-step] & onwards[step:]
    return found


def run_end(stops: np.ndarray, node: int, onwards: bool) -> int:
    """The stop next to a node inside a run, onwards or backwards (both ends of a run are
    stops: the first and the last node are never inside one)."""
    at = np.searchsorted(stops, node, "right" if onwards else "left")
    return int(stops[at if onwards else at - 1])
