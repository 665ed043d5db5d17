"""A puzzle as a CP-SAT model: the board graph's links as arcs of one multiple-circuit
constraint (CP-SAT's "VRP" constraint) through a depot node, a color per node.

Node 0 is the depot; every cell is a node, a bridge cell two (one a pass, as the checker
counts them). Each color's route runs from the depot to its first dot, along arcs between
neighbors, to its last dot and back to the depot: `AddMultipleCircuit` forbids every cycle
that does not pass the depot, so each route is a path from a first dot to a last one, and
connectivity is the constraint's to reason about during search, not a loop around the
solver. A node's color is an integer (a dot's is known); a used link joins two nodes of one
color, so a route ends at its own color's last dot (one-hot literals a node and color were
slower to build and to solve: docs/solving.md, CP-SAT). A cell may stay empty
(`--allow-empty`) when its node takes its self-loop, the circuit constraint's way of leaving
a node out; under the default rule an unused link joins two colors, or an empty cell (no
path touches itself side by side). Arcs that cannot be used (into a first dot, out of a last
one, between dots of two colors) are never made.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
    """The model's variables and constraints, counted before it is built (what its memory
    grows with): a color and a self-loop a node, two arcs a link; three constraints a link
    (a color for each way it is used, another color when it is not)."""
    board = puzzle.board
    nodes = len(board.cells) + len(board.bridges)
    links = len(board.links)
    return 2 * nodes + 2 * links, 3 * links + nodes


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
        self.arcs: dict[tuple[int, int], Any] = {}
        self.empty: dict[int, Any] = {}  # a node's self-loop: the cell left empty
        circuit = [(DEPOT, a, on) for a in self.firsts] + [(b, DEPOT, on) for _, b in ends]
        self.color = [self.node_color(n, rules.fill_all, circuit)
                      for n in range(len(self.graph.cells))]
        for u, v in self.graph.links:
            self.link(u, v, circuit, rules.self_touch)
        self.model.add_multiple_circuit(circuit)

    def node_color(self, n: int, fill_all: bool, circuit: list) -> Any:
        """The node's color, a number from 0 (a dot's is known); where cells may stay empty,
        its self-loop may be taken instead (the color then means nothing)."""
        if n == DEPOT:
            return None
        if n in self.dot:
            return self.model.new_constant(self.dot[n])
        if not fill_all:
            self.empty[n] = self.model.new_bool_var(f"empty{n}")
            circuit.append((n, n, self.empty[n]))
        return self.model.new_int_var(0, self.colors - 1, f"color{n}")

    def link(self, u: int, v: int, circuit: list, self_touch: bool) -> None:
        """The arcs of a link that a route can take, and what its use says of the colors at
        its ends: used either way, it joins one color; unused between two cells on paths, it
        joins two (no self-touch)."""
        arcs = [self.arc(x, y) for x, y in ((u, v), (v, u)) if self.can_go(x, y)]
        circuit += arcs
        for _, _, used in arcs:
            self.model.add(self.color[u] == self.color[v]).only_enforce_if(used)
        if not self_touch:
            unused = [~lit for _, _, lit in arcs] + [~self.empty[n] for n in (u, v)
                                                      if n in self.empty]
            self.model.add(self.color[u] != self.color[v]).only_enforce_if(unused)

    def can_go(self, x: int, y: int) -> bool:
        """Whether a route may step from node x to y: not out of a last dot, not into a
        first, not between two colors' dots."""
        if x in self.lasts or (y in self.dot and y not in self.lasts):
            return False
        return x not in self.dot or y not in self.dot or self.dot[x] == self.dot[y]

    def arc(self, x: int, y: int) -> tuple[int, int, Any]:
        lit = self.model.new_bool_var(f"arc{x}_{y}")
        self.arcs[x, y] = lit
        return x, y, lit

    def paths(self, solver: Any) -> Paths:
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

