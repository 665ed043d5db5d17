"""A model read back as paths: `trace` walks each color's path from its first dot, and the
linked cells no path reaches are the cycles the search cuts."""

from __future__ import annotations

from typing import NamedTuple
from weakref import WeakKeyDictionary

import numpy as np

from flowsat.puzzle.model import Paths
from flowsat.sat.encoder import Encoder


class BrokenModel(AssertionError):
    """A model whose links do not form paths from the dots: a bug in an encoding."""


class Traced(NamedTuple):
    """A model's links read back: the paths from each color's first dot (a bridge's pass as
    its cell), the cycles (nodes, each in order along it: the linked nodes no path reaches),
    and the paths' nodes, one path after another, with each path's length."""

    paths: Paths
    cycles: list[list[int]]
    nodes: list[int]
    lengths: list[int]

    def colors(self, size: int) -> np.ndarray:
        """Each node's path (its color's index), -1 where no path goes."""
        color = np.full(size, -1, dtype=np.int64)
        color[np.fromiter(self.nodes, np.intp, len(self.nodes))] = np.repeat(
            np.arange(len(self.lengths)), self.lengths)
        return color


class Needs(NamedTuple):
    """What the links of a model must give each node of an encoder (made once per encoder):
    its number of links (a dot one, another cell two, a hole none), and `size` at a dot,
    where a node's sum of neighbors takes the end of the walk as its other one; with cells
    that may stay empty, which nodes may have no link at all."""

    links: np.ndarray
    at_ends: np.ndarray
    may_stay_empty: np.ndarray | None


NEEDS: WeakKeyDictionary[Encoder, Needs] = WeakKeyDictionary()


def needs(enc: Encoder) -> Needs:
    """The encoder's `Needs`, made on first use."""
    found = NEEDS.get(enc)
    if found is None:
        dot = enc.dots >= 0
        links = np.where(dot, 1, 2) * enc.graph.on_array
        found = NEEDS[enc] = Needs(links, dot * float(enc.size),
                                   None if enc.rules.fill_all else ~dot)
    return found


def trace(enc: Encoder, linked: np.ndarray | list[tuple[int, int]]) -> Traced:
    """The paths and cycles of a model's linked node pairs. Where every node has the links
    it must (`Needs`), each node's two neighbors are known by their sum (an end's other one:
    the node `size`), so that a path is walked one list look-up a node and the cycles are
    the linked nodes left over; otherwise cell by cell (`trace_by_cells`). BrokenModel where
    a path from a dot does not end at its color's other dot."""
    size, need = enc.size, needs(enc)
    ends = np.asarray(linked, dtype=np.int64).reshape(-1, 2)
    nodes_at = ends.ravel()
    degree = np.bincount(nodes_at, minlength=size)
    wrong = degree != need.links
    if need.may_stay_empty is not None:
        wrong &= (degree > 0) | ~need.may_stay_empty
    if wrong.any():
        return trace_by_cells(enc, ends.tolist())
    ahead = (np.bincount(nodes_at, ends[:, ::-1].ravel(), size) + need.at_ends).astype(
        np.int64).tolist()  # from node i, having come from p: ahead[i] - p
    nodes: list[int] = []
    lengths, paths, visit, cell_of = [], {}, nodes.append, enc.graph.cells
    for color, (first, last) in enc.puzzle.dots.items():
        start, prev, cur = len(nodes), size, enc.index(first)
        while cur != size:  # a dot has one link, others two: the walk ends at a dot
            visit(cur)
            prev, cur = cur, ahead[cur] - prev
        if prev != enc.index(last):  # a path to another color's dot (short color codes)
            raise BrokenModel(f"{enc.puzzle.name}: path {color!r} breaks at {enc.cell(prev)}")
        paths[color] = list(map(cell_of.__getitem__, nodes[start:]))
        lengths.append(len(nodes) - start)
    cycles = [] if len(nodes) == np.count_nonzero(degree) else cycles_left(ends, degree,
                                                                          nodes, ahead)
    return Traced(paths, cycles, nodes, lengths)


def cycles_left(ends: np.ndarray, degree: np.ndarray, nodes: list[int], ahead: list[int]
                ) -> list[list[int]]:
    """The cycles of the linked nodes off the paths (`nodes`), each node with two links
    (`ahead`: their sum), each cycle walked from its smallest node."""
    left = degree > 0
    left[nodes] = False
    cycles = []
    for start in np.flatnonzero(left).tolist():
        if not left[start]:
            continue
        cycle, prev, cur = [], int(ends[(ends == start).any(axis=1)][0].sum()) - start, start
        while True:
            cycle.append(cur)
            prev, cur = cur, ahead[cur] - prev
            if cur == start:
                break
        left[cycle] = False
        cycles.append(cycle)
    return cycles


def trace_by_cells(enc: Encoder, linked: list[tuple[int, int]] | list[list[int]]) -> Traced:
    """`trace` one cell at a time, with a list of each node's links: any links at all
    (BrokenModel where a path from a dot breaks off, meets another path or runs on)."""
    adjacent: list[list[int]] = [[] for _ in range(enc.size)]  # by node
    for i, j in linked:
        adjacent[i].append(j)
        adjacent[j].append(i)
    paths: Paths = {}
    reached = set()
    nodes: list[int] = []
    lengths = []
    cell_of = enc.graph.cells
    for color, (a, b) in enc.puzzle.dots.items():
        path, prev, cur, end = [enc.index(a)], -1, enc.index(a), enc.index(b)
        while cur != end:
            ahead = adjacent[cur]
            if len(ahead) == 2 and prev in ahead:  # on the way: the other link
                ahead = [ahead[ahead[0] == prev]]
            elif prev in ahead:
                ahead = [n for n in ahead if n != prev]
            if len(ahead) != 1 or ahead[0] in reached or len(path) > enc.size:
                raise BrokenModel(f"{enc.puzzle.name}: path {color!r} breaks at {enc.cell(cur)}")
            prev, cur = cur, ahead[0]
            path.append(cur)
        reached.update(path)
        nodes += path
        lengths.append(len(path))
        paths[color] = list(map(cell_of.__getitem__, path))
    fill_all = enc.rules.fill_all
    left = {i for i in enc.nodes if fill_all or adjacent[i]} - reached  # not the empty ones
    return Traced(paths, components(adjacent, left), nodes, lengths)


def components(adjacent: list[list[int]], cells: set[int]) -> list[list[int]]:
    """The cells split into walks along the links; every cell off the paths has two links,
    so each walk goes once around a whole cycle."""
    parts = []
    while cells:
        cur = cells.pop()
        part = [cur]
        while ahead := [n for n in adjacent[cur] if n in cells]:
            cur = ahead[0]
            cells.discard(cur)
            part.append(cur)
        parts.append(part)
    return parts
