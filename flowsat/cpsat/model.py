"""A puzzle as a CP-SAT model: the board graph's links as arcs of one multiple-circuit
constraint (CP-SAT's "VRP" constraint) through a depot node, a color per node.

Node 0 is the depot; every cell is a node, a bridge cell two (one a pass, as the checker
counts them). Each color's route runs from the depot to its first dot, along arcs between
neighbors, to its last dot and back to the depot: `AddMultipleCircuit` forbids every cycle
that does not pass the depot, so each route is a path from a first dot to a last one, and
connectivity is the constraint's to reason about during search, not a loop around the
solver. Colors are one-hot literals a node (`ExactlyOne`); a used link joins two nodes of one
color, so a route ends at its own color's last dot. A cell may stay empty
(`--allow-empty`) when its node takes its self-loop, the circuit constraint's way of leaving
a node out; under the default rule a link between two nodes of one color is used (no path
touches itself side by side). Arcs that cannot be used (into a first dot, out of a last one,
between dots of two colors) are never made.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flowsat.puzzle.board import Board
from flowsat.puzzle.model import Paths, Puzzle
from flowsat.puzzle.rules import Rules

try:
    from ortools.sat.python import cp_model
except ImportError:  # the optional extra is not installed: the backend says how to get it
    cp_model = None

DEPOT = 0


@dataclass(frozen=True)
class Graph:
    """The board's nodes (node 0 the depot) with each one's cell number, and its open links
    as pairs of nodes (a bridge's link joins the pass that goes that way)."""

    cells: tuple[int, ...]
    links: tuple[tuple[int, int], ...]
    node: dict[tuple[int, int], int] = field(compare=False)  # (cell, pass) -> node


def graph(board: Board) -> Graph:
    """The nodes and links of the board: a cell a node, a bridge cell one a pass."""
    cells, node = [-1], {}
    for i in board.cells:
        for way in range(2 if i in board.bridges else 1):
            node[i, way] = len(cells)
            cells.append(i)

    def at(i: int, n: int) -> int:
        return node[i, board.axis_of(i, n) if i in board.bridges else 0]

    return Graph(tuple(cells), tuple((at(a, b), at(b, a)) for a, b in board.link_list), node)


def size(puzzle: Puzzle) -> tuple[int, int]:
    """The model's literals and clauses, about (what its memory grows with), counted
    before it is built: a color a node, two arcs and a link literal a link, three clauses a
    link and color."""
    board, colors = puzzle.board, len(puzzle.dots)
    nodes = len(board.cells) + len(board.bridges)
    links = len(board.links)
    return nodes * (colors + 1) + 3 * links, 3 * links * colors + nodes


class FlowModel:
    """The CP-SAT model of one puzzle under the rules, and the paths read from a solution."""

    def __init__(self, puzzle: Puzzle, rules: Rules):
        self.puzzle, self.graph = puzzle, graph(puzzle.board)
        self.model = cp_model.CpModel()
        self.colors = len(puzzle.dots)
        number, node = puzzle.board.number, self.graph.node
        ends = [(node[number(a), 0], node[number(b), 0]) for a, b in puzzle.dots.values()]
        self.firsts = [a for a, _ in ends]
        self.dot = {n: k for k, pair in enumerate(ends) for n in pair}
        self.lasts = {b for _, b in ends}
        on = self.model.new_bool_var("on")
        self.model.add_bool_or([on])
        self.arcs: dict[tuple[int, int], object] = {}
        circuit = [(DEPOT, a, on) for a in self.firsts] + [(b, DEPOT, on) for _, b in ends]
        self.color = [self.node_colors(n, rules.fill_all, circuit)
                      for n in range(len(self.graph.cells))]
        for u, v in self.graph.links:
            self.link(u, v, circuit, rules.self_touch)
        self.model.add_multiple_circuit(circuit)

    def node_colors(self, n: int, fill_all: bool, circuit: list) -> list | None:
        """The node's color literals, one of them true (or, where cells may stay empty, its
        self-loop instead); None for the depot and for a dot, whose color is known."""
        if n == DEPOT or n in self.dot:
            return None
        color = [self.model.new_bool_var(f"c{n}_{k}") for k in range(self.colors)]
        if fill_all:
            self.model.add_exactly_one(color)
        else:
            empty = self.model.new_bool_var(f"empty{n}")
            circuit.append((n, n, empty))
            self.model.add_exactly_one([*color, empty])
        return color

    def literal(self, n: int, k: int) -> object | bool:
        """Whether node n has color k: a literal, or known (a dot's)."""
        return self.dot[n] == k if self.color[n] is None else self.color[n][k]

    def link(self, u: int, v: int, circuit: list, self_touch: bool) -> None:
        """The arcs of a link that a route can take, and what its use says of the colors at
        its ends: a used link joins one color; unused, it joins two (no self-touch)."""
        arcs = [self.arc(x, y) for x, y in ((u, v), (v, u)) if self.can_go(x, y)]
        circuit += [(x, y, lit) for x, y, lit in arcs]
        used: list = []
        if len(arcs) == 1:
            used = [arcs[0][2]]
        elif arcs:
            used = [self.model.new_bool_var(f"l{u}_{v}")]
            self.model.add(used[0] == arcs[0][2] + arcs[1][2])
        for k in range(self.colors):
            here, there = self.literal(u, k), self.literal(v, k)
            for one, other in ((here, there), (there, here)):
                if arcs:  # used: the same color at both ends
                    self.clause([*map(negated, used), negated(one), other])
            if not self_touch:  # both ends of one color: the link is used
                self.clause([negated(here), negated(there), *used])

    def can_go(self, x: int, y: int) -> bool:
        """Whether a route may step from node x to y: not out of a last dot, not into a
        first, not between two colors' dots."""
        if x in self.lasts or (y in self.dot and y not in self.lasts):
            return False
        return x not in self.dot or y not in self.dot or self.dot[x] == self.dot[y]

    def arc(self, x: int, y: int) -> tuple[int, int, object]:
        lit = self.model.new_bool_var(f"a{x}_{y}")
        self.arcs[x, y] = lit
        return x, y, lit

    def clause(self, literals: list) -> None:
        """The clause, literals known false left out; nothing when one is known true."""
        if any(lit is True for lit in literals):
            return
        self.model.add_bool_or([lit for lit in literals if lit is not False])

    def paths(self, solver: object) -> Paths:
        """Each color's path in the solver's solution, from its first dot to its last."""
        after = {x: y for (x, y), lit in self.arcs.items() if solver.boolean_value(lit)}
        cells, on = self.graph.cells, self.puzzle.board.cell_list
        found = {}
        for color, first in zip(self.puzzle.dots, self.firsts, strict=True):
            path, n = [on[cells[first]]], first
            while n not in self.lasts:
                n = after[n]
                path.append(on[cells[n]])
            found[color] = path
        return found


def negated(literal: object | bool) -> object | bool:
    return (not literal) if isinstance(literal, bool) else ~literal
