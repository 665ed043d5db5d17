"""The frontier counter's sweep order: the board's graph (the encoder's: a node per cell, a
bridge cell two nodes) with its edges in order along the board's shorter side, and for each
edge what enters the frontier, what leaves it and at which degrees (`flowsat.count.frontier`
says what a state is; `arrays.py` and `frontier.py` sweep it)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import Rules

FRESH = 1 << 20  # labels of new components, above any a state holds (a frontier's nodes)
COLORS = {shift: ((1 << shift) - 1) & ~3 for shift in range(3, 16)}  # a node's color bits


@dataclass(frozen=True)
class Step:
    """One edge's place in the sweep: its nodes' slots once the nodes entering are appended,
    and the slots of the nodes leaving after it (highest first), with their final degrees."""

    a: int
    b: int
    entering: tuple[int, ...]  # nodes appended to the frontier before the edge
    leaving: tuple[tuple[int, frozenset[int]], ...]  # (slot, degrees allowed)
    keep: tuple[int, ...]  # the slots that stay
    most: tuple[int, int]  # the most links each of the edge's nodes takes
    tight: tuple[tuple[int, frozenset[int]], ...]  # (slot after, degrees that can still end
    # well) for the nodes staying whose few links left cannot mend every degree: a lookahead


@dataclass(frozen=True)
class Sweep:
    """A puzzle's graph in sweep order: the steps, each node's color (0: no dot), and whether
    the puzzle is settled before any step (an isolated dot: no solution)."""

    steps: tuple[Step, ...]
    color: dict[int, int]
    impossible: bool
    along: dict[int, int] | None  # each node's place along the frontier's line (its column
    # in a sweep along rows): the order of the frontier's nodes on the boundary of the part
    # still to come; None where the graph is not a plain grid (holes, walls, bridges, warps,
    # hexagons: a node may enter off that order, or paths may cross)


def sweep(puzzle: Puzzle, rules: Rules, backward: bool = False) -> Sweep:
    """The edges in order along the board's shorter side (`backward`: from the other end,
    the last cell first), with what enters and leaves."""
    from flowsat.sat.encoder import graph

    g = graph(puzzle.board)
    w = puzzle.width
    color = {r * w + c: k + 1 for k, ends in enumerate(puzzle.dots.values()) for r, c in ends}
    across = puzzle.width <= puzzle.height

    def place(node: int) -> tuple[int, int, int]:
        r, c = divmod(g.home[node], w)
        return (r, c, node) if across else (c, r, node)

    order = {n: k for k, n in enumerate(sorted(g.nodes, key=place, reverse=backward))}
    edges = sorted((tuple(sorted(e, key=order.__getitem__)) for e in g.edges),
                   key=lambda e: (order[e[0]], order[e[1]]))
    last = {n: k for k, e in enumerate(edges) for n in e}
    final = frozenset({2} if rules.fill_all else {0, 2})
    links_left = {n: 0 for n in last}
    for e in edges:
        for n in e:
            links_left[n] += 1
    bound = {n: bounds(n, color, final) for n in last}
    steps, frontier = [], []
    for k, (a, b) in enumerate(edges):
        entering = tuple(n for n in (a, b) if n not in frontier)
        frontier += entering
        links_left[a] -= 1
        links_left[b] -= 1
        gone = sorted((frontier.index(n) for n in (a, b) if last[n] == k), reverse=True)
        leaving = tuple((s, bound[frontier[s]][1]) for s in gone)
        a_at, b_at = frontier.index(a), frontier.index(b)
        for s in gone:
            del frontier[s]
        tight = tuple((j, ok) for j, n in enumerate(frontier)
                      if len(ok := mendable(*bound[n], links_left[n])) <= bound[n][0])
        keep = tuple(k for k in range(len(frontier) + len(gone)) if k not in gone)
        steps.append(Step(a_at, b_at, entering, leaving, keep, (bound[a][0], bound[b][0]), tight))
    lonely = set(g.nodes) - set(last)  # nodes without a link: a dot there has no path
    impossible = any(n in color for n in lonely) or (rules.fill_all and bool(lonely))
    along = ({n: place(n)[1] for n in g.nodes} if puzzle.board.plain else None)
    return Sweep(tuple(steps), color, impossible, along)


def bounds(node: int, color: dict[int, int], final: frozenset[int]
           ) -> tuple[int, frozenset[int]]:
    """A node's most links and its final degrees: a dot 1 and 1, another 2 and `final`."""
    return (1, frozenset({1})) if node in color else (2, final)


@cache  # (few distinct arguments: called for every node of every step's frontier)
def mendable(most: int, final: frozenset[int], left: int) -> frozenset[int]:
    """The degrees now from which `left` more links can reach a final degree."""
    return frozenset(d for d in range(most + 1) if any(0 <= f - d <= left for f in final))
