"""The frontier counter's sweep with every state of a step as one row of a numpy array, for
the self-touch rule (where a state is only its nodes' ints: `frontier.Sweeper`'s encoding):
each step's moves, checks and renumbering are array operations over all states at once, and
equal states are merged by a sort. Counts stay Python integers (an object array), exact at
any size. Under no-self-touch, whose states also hold pairs of components, the dict sweep
(`frontier.Sweeper`) runs."""

from __future__ import annotations

import time

import numpy as np

from flowsat.count.contract import Count, Limits, Progress, state_cap
from flowsat.count.sweep import COLORS, FRESH, Step, sweep
from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import Rules

States = tuple[np.ndarray, np.ndarray]  # (N, frontier) int64 nodes, (N,) object counts


class ArraySweeper:
    """One count's run under self-touch, a step's states as arrays (see the module)."""

    def __init__(self, puzzle: Puzzle, rules: Rules, limits: Limits,
                 progress: Progress | None = None):
        self.plan = sweep(puzzle, rules)
        self.shift = 2 + max(len(puzzle.dots), 1).bit_length()
        self.progress = progress
        self.end = None if limits.timeout is None else time.perf_counter() + limits.timeout
        self.cap = state_cap(limits)
        self.stats: dict = {"steps": len(self.plan.steps), "most_states": 1, "arrays": True}

    def run(self) -> Count:
        """The exact count, or a stop (timeout, memory) with no bound but 0."""
        start = time.perf_counter()
        seen = 0
        if self.plan.impossible:
            return self.count(0, "counted", start, seen)
        states: States = (np.zeros((1, 0), dtype=np.int64), np.array([1], dtype=object))
        for k, step in enumerate(self.plan.steps):
            states = self.advance(states, step)
            n = len(states[1])
            seen += n
            self.stats["most_states"] = max(self.stats["most_states"], n)
            if self.progress:
                self.progress(k + 1, len(self.plan.steps), n)
            stop = ("timeout" if self.end is not None and time.perf_counter() > self.end
                    else "limit" if n > self.cap else None)
            if stop and k + 1 < len(self.plan.steps):
                self.stats["stopped_at_step"] = k
                return self.count(0, stop, start, seen)
        return self.count(int(states[1].sum()) if len(states[1]) else 0, "counted", start, seen)

    def count(self, value: int, status: str, start: float, seen: int) -> Count:
        self.stats.update(states=seen, total_s=round(time.perf_counter() - start, 6))
        return Count(value, status == "counted", status, self.stats)  # type: ignore[arg-type]

    def advance(self, states: States, step: Step) -> States:
        """The states after one more edge, its link left out or made, merged."""
        nodes, ways = states
        if step.entering:
            new = np.array([self.plan.color.get(n, 0) << 2 for n in step.entering],
                           dtype=np.int64)
            nodes = np.hstack([nodes, np.broadcast_to(new, (len(nodes), len(new)))])
        skipped = self.leave(step, nodes, ways, relabel=False)
        linked = self.link(step, nodes, ways)
        return merged(np.vstack([skipped[0], linked[0]]),
                      np.concatenate([skipped[1], linked[1]]))

    def link(self, step: Step, nodes: np.ndarray, ways: np.ndarray) -> States:
        """The edge made where both nodes have room, their paths differ and colors agree."""
        sh, mask = self.shift, COLORS[self.shift]
        ea, eb = nodes[:, step.a], nodes[:, step.b]
        ca, cb = ea & mask, eb & mask
        x, y = ea >> sh, eb >> sh
        x = np.where(x == 0, FRESH, x)  # a node's first link gives it a label of its own
        y = np.where(y == 0, FRESH + 1, y)
        ok = ((ea & 3) < step.most[0]) & ((eb & 3) < step.most[1]) & (x != y)
        ok &= ~((ca > 0) & (cb > 0) & (ca != cb))
        nodes, ways = nodes[ok], ways[ok]
        ea, eb, x, y = ea[ok], eb[ok], x[ok], y[ok]
        joined = ((ca | cb)[ok] | x << sh)[:, None]
        labels = nodes >> sh
        member = (labels == x[:, None]) | (labels == y[:, None])
        nodes = np.where(member, (nodes & 3) | joined, nodes)
        nodes[:, step.a] = ((ea & 3) + 1) | joined[:, 0]
        nodes[:, step.b] = ((eb & 3) + 1) | joined[:, 0]
        for s, most in ((step.a, step.most[0]), (step.b, step.most[1])):
            full = (nodes[:, s] & 3) == most  # a full node is done: only open ends carry
            nodes[full, s] &= 3               # their path's label
        return self.leave(step, nodes, ways, relabel=True)

    def leave(self, step: Step, nodes: np.ndarray, ways: np.ndarray, relabel: bool) -> States:
        """The leaving nodes gone (each at its final degree), the lookahead's checks, and the
        labels renumbered in order of first use (`relabel`; an edge left out keeps them)."""
        ok = np.ones(len(nodes), dtype=bool)
        for s, allowed in step.leaving:
            ok &= np.isin(nodes[:, s] & 3, list(allowed))
        nodes, ways = nodes[ok][:, list(step.keep)], ways[ok]
        if step.tight:
            ok = np.ones(len(nodes), dtype=bool)
            for j, allowed in step.tight:
                ok &= np.isin(nodes[:, j] & 3, list(allowed))
            nodes, ways = nodes[ok], ways[ok]
        if relabel and nodes.size:
            nodes = renumbered(nodes, self.shift)
        return nodes, ways


def renumbered(nodes: np.ndarray, shift: int) -> np.ndarray:
    """Each row's labels renumbered 1, 2, ... in order of first appearance (0 stays 0)."""
    n, width = nodes.shape
    labels = nodes >> shift
    labels = np.where(labels >= FRESH, labels - FRESH + width + 1, labels)  # small numbers
    names = np.zeros((n, width + 3), dtype=np.int64)
    used = np.zeros(n, dtype=np.int64)
    rows = np.arange(n)
    for j in range(width):
        label = labels[:, j]
        if not label.any():  # (a column of nodes that are full or have no link yet)
            continue
        fresh = (label > 0) & (names[rows, label] == 0)
        used += fresh
        names[rows[fresh], label[fresh]] = used[fresh]
        labels[:, j] = np.where(label > 0, names[rows, label], 0)
    return (nodes & ((1 << shift) - 1)) | labels << shift


def merged(nodes: np.ndarray, ways: np.ndarray) -> States:
    """Equal rows merged into one, their counts summed."""
    if len(nodes) == 0:
        return nodes, ways
    if nodes.shape[1] == 0:
        return nodes[:1], np.array([ways.sum()], dtype=object)
    keys = np.ascontiguousarray(nodes).view(np.dtype((np.void, 8 * nodes.shape[1]))).ravel()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    order = np.argsort(inverse, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(inverse[order]) != 0])
    return nodes[first], np.add.reduceat(ways[order], starts)
