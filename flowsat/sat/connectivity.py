"""Connectivity inside the solver: a user propagator (IPASIR-UP, `pysat.engines.Propagator`)
over the link variables of the edge encoding, attached to CaDiCaL 1.9.5 (`cycles =
"propagator"`).

The clauses say each node's degree (and, through the colors, that a link joins one color);
what they cannot say, that the links form paths from dot to dot with no cycle, the
propagator says during search, at each fixpoint of the solver's unit propagation:

- a chain of true links that closes on itself: the clause `not all of its links` (a cycle);
  a chain whose two ends are cells without a dot and next to each other: the link between
  them is false (it would close a cycle), its reason the chain's links;
- a chain joining two dots of different colors: `not all of its links` (a join); without
  colors in the formula (`cells = "none"`), also a chain touching itself (`touch`), and the
  links from a chain's end to a dot of another color than its start are false;
- a dot that can no longer reach its partner through links not yet false, or (every cell
  filled) a set of cells with no dot: a cut, `one of the false links around the set`.

The chains are walked from the links made true since the last fixpoint only. A cut can
only come from a link made false since then: two searches over the links not false, one from
each of its ends, a node in turn, either meet (no component split: mostly within a few nodes,
around a square) or one runs out first, and the side it closed, about the smaller, is the
one checked. Next to a chain the detour is the whole way around it: long, and mostly
fruitless, so a search gives up after SIDE nodes a side (a side closed within them, a pocket,
is what a cut mostly is), and a fixpoint searches from the last SEARCHES links made false
only (unless a square or triangle of links not false still joins their ends).
`check_model` walks every path of a full model, so a model with a cycle, two colors joined
(or, with `touch`, a path touching itself) is never accepted, whatever the checks during
search missed.

Each callback runs Python (about a microsecond for one that does nothing), so
`on_assignment` only records the value; the work is in `propagate`. PySAT's own
`Solver.propagate()` is never called on a solver with a propagator (pysathq/pysat#232: after
`solve()` it may report a false conflict on CaDiCaL 1.5.3/1.9.5).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pysat.engines import Propagator

from flowsat.puzzle.rules import Rules

if TYPE_CHECKING:
    from flowsat.sat.formula import Encoding

CYCLE = -1  # `walk`: the chain came back to where it started
SIDE = 100  # nodes a cut search takes from one side before it gives up (no cut found)
SEARCHES = 8  # cut searches at a fixpoint at most: from the links made false last


class Connectivity(Propagator):
    """The propagator of one formula: the board graph (each link's two nodes and its
    variable), each node's dot color (-1: none), the rules, and whether the formula has
    colors (without, joins and touches are the propagator's alone)."""

    def __init__(self, ends: Sequence[tuple[int, int]], links: Sequence[int],
                 dots: Sequence[int], rules: Rules, colors: bool = True):
        super().__init__()
        self.is_lazy = False
        self.ends, self.var = list(ends), list(links)
        self.edge_of = {v: k for k, v in enumerate(self.var)}
        self.dots, self.fill_all = list(dots), rules.fill_all
        self.colorless = not colors
        self.touch = self.colorless and not rules.self_touch
        self.adj: list[list[tuple[int, int]]] = [[] for _ in self.dots]
        for k, (i, j) in enumerate(self.ends):
            self.adj[i].append((j, k))
            self.adj[j].append((i, k))
        ends: dict[int, list[int]] = {}
        for i, color in enumerate(self.dots):
            if color >= 0:
                ends.setdefault(color, []).append(i)
        self.pairs = [tuple(p) for p in ends.values() if len(p) == 2]
        self.partner = list(range(len(self.dots)))  # each dot's partner (a lone dot: itself)
        for a, b in self.pairs:
            self.partner[a], self.partner[b] = b, a
        self.mark = [0] * len(self.dots)  # a cut search's side of each node it reached
        self.around = [self.short_cycles(k) for k in range(len(self.ends))]
        self.value = [0] * len(self.var)  # 1 true, -1 false, 0 unassigned
        self.fixed = bytearray(len(self.var))  # assigned for good (at the root)
        self.trail: list[int] = []  # links assigned, in order
        self.levels: list[int] = []  # where each decision level starts on the trail
        self.fresh_true: list[int] = []  # links made true since the last fixpoint
        self.fresh_false: list[int] = []
        self.seen = [0] * len(self.dots)  # a walk's stamp on the nodes it passed
        self.stamp = 0
        self.clauses: list[list[int]] = []  # to hand the solver (`add_clause`)
        self.reasons: dict[int, list[int]] = {}  # a propagated literal's reason
        self.counts = dict.fromkeys(("propagations", "cycles", "joins", "touches", "cuts",
                                     "cut_checks", "rejections"), 0)

    # --- the solver's notifications: record, nothing more -----------------------------------

    def on_assignment(self, lit: int, fixed: bool = False) -> None:
        k = self.edge_of[lit if lit > 0 else -lit]
        if fixed:
            self.fixed[k] = 1
        if self.value[k]:  # told again as it became fixed
            return
        if lit > 0:
            self.value[k] = 1
            self.fresh_true.append(k)
        else:
            self.value[k] = -1
            self.fresh_false.append(k)
        self.trail.append(k)

    def on_new_level(self) -> None:
        self.levels.append(len(self.trail))

    def on_backtrack(self, to: int) -> None:
        if to >= len(self.levels):
            return
        start, value, fixed = self.levels[to], self.value, self.fixed
        for k in self.trail[start:]:
            if not fixed[k]:
                value[k] = 0
        del self.trail[start:], self.levels[to:]

    def decide(self) -> int:
        return 0

    # --- reasoning --------------------------------------------------------------------------

    def propagate(self) -> list[int]:
        """At a fixpoint: the chains of the links made true since the last one (cycles,
        joins, links that would close a cycle), then, if a link made false may have split
        a component, the cuts. A conflict goes out as a clause (`add_clause`)."""
        if not (self.fresh_true or self.fresh_false) or self.clauses:
            return []
        found = self.follow_chains() if self.fresh_true else []
        self.fresh_true.clear()
        if self.fresh_false and not self.clauses:
            self.check_cuts()
            self.fresh_false.clear()
        self.counts["propagations"] += len(found)
        return found

    def follow_chains(self) -> list[int]:
        """Walk the chain of each link made true: a cycle, a join (or, with `touch`, a
        touch) is a conflict clause; the links that would close a cycle or join two colors
        are false."""
        self.stamp += 1
        value, var, found = self.value, self.var, []
        for k in self.fresh_true:
            if value[k] != 1 or self.seen[self.ends[k][0]] == self.stamp:
                continue
            nodes, links, closed = self.chain(k, value)
            if closed:
                self.explain("cycles", [-var[e] for e in links])
                return []
            wrong = self.wrong(nodes, links, value)
            if wrong is not None:
                return []
            because = [-var[e] for e in links]
            for e in self.closing(nodes):
                if value[e] == 0 and -var[e] not in found:
                    found.append(-var[e])
                    self.reasons[-var[e]] = [-var[e], *because]
        return found

    def chain(self, k: int, value: list[int]) -> tuple[list[int], list[int], bool]:
        """The chain of true links through link k: its nodes and links in order along it, and
        whether it closes on itself (then its links are the cycle's)."""
        a, b = self.ends[k]
        self.seen[a] = self.stamp
        ahead, ahead_links = [b], [k]
        if self.walk(b, k, a, ahead, ahead_links, value) == CYCLE:
            return ahead, ahead_links, True
        behind, behind_links = [a], []
        self.walk(a, k, -2, behind, behind_links, value)
        return behind[::-1] + ahead, behind_links[::-1] + ahead_links, False

    def walk(self, node: int, edge: int, start: int, nodes: list[int], links: list[int],
             value: list[int]) -> int:
        """Follow the true links from `node`, reached by `edge`, to the end of its chain
        (each node and link passed appended): the last node, or CYCLE back at `start`."""
        adj, seen, stamp = self.adj, self.seen, self.stamp
        seen[node] = stamp
        while True:
            for step in adj[node]:
                if step[1] != edge and value[step[1]] == 1:
                    break
            else:
                return node
            j, e = step
            links.append(e)
            if j == start:
                return CYCLE
            if seen[j] == stamp:  # a node of more than two links: the clauses will object
                return node
            seen[j] = stamp
            nodes.append(j)
            node, edge = j, e

    def wrong(self, nodes: list[int], links: list[int], value: list[int]) -> str | None:
        """What rules a chain out (explained as a clause), if anything: two dots of
        different colors joined, or (`touch`) two of its nodes side by side not linked, or
        its two ends side by side (linked: a cycle; not: a touch)."""
        var, dots = self.var, self.dots
        first, last = dots[nodes[0]], dots[nodes[-1]]
        if first >= 0 and last >= 0 and first != last:
            self.explain("joins", [-var[e] for e in links])
            return "joins"
        if not self.touch:
            return None
        at = {node: p for p, node in enumerate(nodes)}
        for p, i in enumerate(nodes):
            for j, e in self.adj[i]:
                q = at.get(j, -1)
                if q > p + 1 and (value[e] == -1 or (p == 0 and q == len(nodes) - 1)):
                    self.explain("touches", [*([var[e]] if value[e] == -1 else []),
                                             *(-var[x] for x in links[p:q])])
                    return "touches"
        return None

    def closing(self, nodes: list[int]) -> list[int]:
        """Links the chain rules out: between its two ends without a dot (a cycle), and
        (without colors in the formula) from its end to a dot of another color than the
        dot at its other end."""
        dots, first, last = self.dots, nodes[0], nodes[-1]
        if dots[first] < 0 and dots[last] < 0:
            e = self.link(first, last)
            return [] if e is None else [e]
        if not self.colorless or (dots[first] >= 0) == (dots[last] >= 0):
            return []
        color, end = (dots[first], last) if dots[first] >= 0 else (dots[last], first)
        return [e for j, e in self.adj[end] if dots[j] >= 0 and dots[j] != color]

    def link(self, i: int, j: int) -> int | None:
        """The link between two nodes, if any."""
        for n, e in self.adj[i]:
            if n == j:
                return e
        return None

    def short_cycles(self, k: int) -> list[tuple[int, ...]]:
        """The other links of each cycle of three or four links through link k (the squares
        beside it on a square board, the triangles on a hexagonal one)."""
        a, b = self.ends[k]
        found = [(e, f) for c, e in self.adj[a] if c != b for d, f in self.adj[b] if d == c]
        for c, e in self.adj[a]:
            for d, f in self.adj[b]:
                if c not in (a, b) and d not in (a, b, c) and (g := self.link(c, d)) is not None:
                    found.append((e, g, f))
        return found

    def split(self, k: int) -> tuple[list[int], int] | None:
        """If link k, made false, split the component of the links not false that held its
        ends: the nodes of the side found closed first (the smaller, about) and its mark in
        `mark`; None when the two searches, one from each end taking a node in turn, meet."""
        self.stamp += 1
        adj, value, mark, tags = self.adj, self.value, self.mark, (self.stamp, -self.stamp)
        sides, heads = tuple([i] for i in self.ends[k]), [0, 0]
        for side, tag in enumerate(tags):
            mark[sides[side][0]] = tag
        while heads[0] < SIDE:
            for side, tag in enumerate(tags):
                todo = sides[side]
                if heads[side] == len(todo):
                    return todo, tag
                i = todo[heads[side]]
                heads[side] += 1
                for j, e in adj[i]:
                    if value[e] != -1 and e != k and mark[j] != tag:
                        if mark[j] == -tag:
                            return None
                        mark[j] = tag
                        todo.append(j)
        return None

    def check_cuts(self) -> None:
        """For each link made false that split a component, a conflict clause if its closed
        side holds a dot without its partner or (every cell filled) no dot: one of the false
        links around it (the first such side only)."""
        dots, partner, mark = self.dots, self.partner, self.mark
        value = self.value
        for k in self.fresh_false[-SEARCHES:]:
            if value[k] != -1 or any(-1 not in [value[e] for e in cycle]
                                     for cycle in self.around[k]):
                continue  # its ends are still joined around a square (triangle)
            if (found := self.split(k)) is None:
                continue
            self.counts["cut_checks"] += 1
            side, tag = found
            held = [i for i in side if dots[i] >= 0]
            if any(mark[partner[i]] != tag for i in held) or (self.fill_all and not held):
                self.explain("cuts", [self.var[e] for i in side for j, e in self.adj[i]
                                      if mark[j] != tag])
                return

    def explain(self, kind: str, clause: list[int]) -> None:
        self.counts[kind] += 1
        self.clauses.append(clause)

    def provide_reason(self, lit: int) -> list[int]:
        return self.reasons[lit]

    def has_clause(self) -> bool:
        return bool(self.clauses)

    def add_clause(self) -> list[int]:
        return self.clauses.pop()

    # --- a full model: exact -------------------------------------------------------------

    def check_model(self, model: Sequence[int]) -> bool:
        """Whether a model's links are paths from dot to dot of one color, with no cycle
        (and, with `touch`, none touching itself); if not, a clause against each wrong path
        and each cycle is handed to the solver."""
        value = [0] * len(self.var)
        edge_of = self.edge_of
        for lit in model:
            k = edge_of.get(lit if lit > 0 else -lit)
            if k is not None:
                value[k] = 1 if lit > 0 else -1
        self.stamp += 1
        found = len(self.clauses)
        for a, _ in self.pairs:
            if self.seen[a] != self.stamp:
                nodes, links = [a], []
                self.walk(a, -1, -2, nodes, links, value)
                if self.dots[nodes[-1]] != self.dots[a]:
                    self.explain("joins", [-self.var[e] for e in links])
                else:
                    self.wrong(nodes, links, value)
        for k, (a, _) in enumerate(self.ends):  # links on no path from a dot: cycles
            if value[k] == 1 and self.seen[a] != self.stamp:
                self.explain("cycles", [-self.var[e] for e in self.chain(k, value)[1]])
        if len(self.clauses) == found:
            return True
        self.counts["rejections"] += 1
        return False

    @property
    def stats(self) -> dict[str, int]:
        """The events so far, as the result's stats name them (they join the search's)."""
        return {f"propagator_{name}": n for name, n in self.counts.items()}


def attach(solver, ends: Sequence[tuple[int, int]], links: Sequence[int],
           dots: Sequence[int], rules: Rules, colors: bool = True) -> Connectivity:
    """A propagator for the board graph (`ends`: each link's nodes, `links`: its variable,
    `dots`: each node's dot color or -1) under the rules, told whether the formula has
    colors, connected to a PySAT CaDiCaL 1.9.5 solver, its link variables observed."""
    engine = Connectivity(ends, links, dots, rules, colors)
    solver.connect_propagator(engine)
    for v in engine.var:
        solver.observe(v)
    return engine


def connect(formula: Encoding, solver) -> Connectivity:
    """`cycles = "propagator"`'s `connect` (`flowsat.sat.choices`): the formula's propagator
    attached to its PySAT solver, without colors where the formula has none (edge links,
    `cells = "none"`)."""
    spec = formula.spec
    return attach(solver, formula.enc.edges, formula.links.vars, formula.enc.dot,
                  formula.enc.rules, colors=spec.links != "edges" or spec.cells != "none")
