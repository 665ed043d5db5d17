"""The frontier counter's sweep with every state of a step as one row of a numpy array, for
the self-touch rule: each step's moves and checks are array operations over all states at
once, and equal states are merged by a sort. A frontier node is one int: its degree (2 bits),
its path's color, and above them its *mate*, the slot + 1 of its path's other open end (0:
none, the other end being a dot already full, or the node has no link yet). A full node keeps
only its degree: only open ends carry their path. Since a node leaves the frontier only at
its final degree (full, or empty), no mate points to a leaving node, so a leave just shifts
the mates above it: no renumbering. Counts are int64 while their total is far from 2^63,
then Python integers (an object array), exact at any size. Under no-self-touch, whose states
also hold pairs of components, `apart.py` sweeps."""

from __future__ import annotations

import time

import numpy as np

from flowsat.count.contract import Count, Limits, Progress, state_cap
from flowsat.count.sweep import COLORS, Step, sweep
from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import Rules

States = tuple[np.ndarray, np.ndarray]  # (N, frontier) int64 nodes, (N,) counts
SAFE = float(2**60)  # a total of counts below this cannot overflow int64 in the next step
MIX = np.random.default_rng(20161).integers(1, 2**63, size=64, dtype=np.uint64) | np.uint64(1)
# odd multipliers of a row hash (fixed: a run is reproducible)


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
        states: States = (self.empty(), np.array([1], dtype=np.int64))
        for k, step in enumerate(self.plan.steps):
            states = self.advance(*widened(*states), step)
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
        return self.count(int(sum(states[1].tolist())), "counted", start, seen)

    def empty(self) -> np.ndarray:
        """The one state before the first step: an empty frontier."""
        return np.zeros((1, 0), dtype=np.int64)

    def count(self, value: int, status: str, start: float, seen: int) -> Count:
        self.stats.update(states=seen, total_s=round(time.perf_counter() - start, 6))
        return Count(value, status == "counted", status, self.stats)  # type: ignore[arg-type]

    def advance(self, nodes: np.ndarray, ways: np.ndarray, step: Step) -> States:
        """The states after one more edge, its link left out or made, merged."""
        if step.entering:
            new = np.array([self.plan.color.get(n, 0) << 2 for n in step.entering],
                           dtype=np.int64)
            nodes = np.hstack([nodes, np.broadcast_to(new, (len(nodes), len(new)))])
        skipped = self.leave(step, nodes, ways)
        linked = self.leave(step, *self.link(step, nodes, ways))
        return merged(np.vstack([skipped[0], linked[0]]),
                      np.concatenate([skipped[1], linked[1]]))

    def link(self, step: Step, nodes: np.ndarray, ways: np.ndarray) -> States:
        """The edge made where both nodes have room, it closes no cycle and colors agree;
        the two paths' far ends become each other's mates."""
        sh, mask = self.shift, COLORS[self.shift]
        a, b = step.a, step.b
        ea, eb = nodes[:, a], nodes[:, b]
        da, db, ca, cb = ea & 3, eb & 3, ea & mask, eb & mask
        ok = (da < step.most[0]) & (db < step.most[1])
        ok &= ~((ca > 0) & (cb > 0) & (ca != cb))
        ok &= ~((da > 0) & ((ea >> sh) == b + 1))  # b is a's other end: a cycle
        nodes, ways = nodes[ok], ways[ok]
        ea, eb, da, db, c = ea[ok], eb[ok], da[ok], db[ok], (ca | cb)[ok]
        far_a = far_end(a, da, ea >> sh, step.most[0])
        far_b = far_end(b, db, eb >> sh, step.most[1])
        rows = np.arange(len(nodes))
        for end, mate in ((far_a, far_b), (far_b, far_a)):
            there = end >= 0
            r, e = rows[there], end[there]
            nodes[r, e] = (nodes[r, e] & 3) | c[there] | (mate[there] + 1) << sh
        for s, d, most in ((a, da, step.most[0]), (b, db, step.most[1])):
            nodes[:, s] = np.where(d + 1 == most, d + 1, (nodes[:, s] & ~3) | (d + 1))
        return nodes, ways

    def leave(self, step: Step, nodes: np.ndarray, ways: np.ndarray) -> States:
        """The leaving nodes gone (each at its final degree), the lookahead's checks, and the
        mates above each leaving slot moved down one."""
        ok = np.ones(len(nodes), dtype=bool)
        for s, allowed in step.leaving:
            ok &= np.isin(nodes[:, s] & 3, list(allowed))
        nodes, ways = nodes[ok][:, list(step.keep)], ways[ok]
        if step.tight:
            ok = np.ones(len(nodes), dtype=bool)
            for j, allowed in step.tight:
                ok &= np.isin(nodes[:, j] & 3, list(allowed))
            nodes, ways = nodes[ok], ways[ok]
        if step.leaving and nodes.size:
            sh = self.shift
            mates = nodes >> sh
            for s, _ in step.leaving:  # highest first
                mates -= mates > s + 1
            nodes = (nodes & ((1 << sh) - 1)) | mates << sh
        return nodes, ways


def far_end(slot: int, degree: np.ndarray, mate: np.ndarray, most: int) -> np.ndarray:
    """The slot of the path's other open end seen from `slot` once linked (-1: none): the
    node itself when it had no link and stays open, else its mate."""
    itself = np.where(degree + 1 < most, slot, -1)
    return np.where(degree == 0, itself, mate - 1)


def widened(nodes: np.ndarray, ways: np.ndarray) -> States:
    """The counts as Python integers once their total nears int64's end."""
    if ways.dtype != object and len(ways) and float(ways.sum(dtype=np.float64)) > SAFE:
        ways = ways.astype(object)
    return nodes, ways


def merged(nodes: np.ndarray, ways: np.ndarray) -> States:
    """Equal rows merged into one, their counts summed: sorted by a 64-bit hash of the row,
    checked row by row (a collision falls back to sorting whole rows)."""
    if len(nodes) == 0:
        return nodes, ways
    if nodes.size == 0:
        return nodes[:1], ways.sum(keepdims=True)
    flat = nodes.reshape(len(nodes), -1)
    h = row_hashes(flat)
    order = np.argsort(h)
    h, flat, nodes, ways = h[order], flat[order], nodes[order], ways[order]
    same = h[1:] == h[:-1]
    if (flat[1:][same] != flat[:-1][same]).any():
        return merged_exactly(nodes, ways)
    starts = np.flatnonzero(np.r_[True, ~same])
    return nodes[starts], np.add.reduceat(ways, starts)


def row_hashes(nodes: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each row (mixing each column in by a multiply)."""
    rows = nodes.astype(np.uint64)
    h = np.zeros(len(rows), dtype=np.uint64)
    for j in range(rows.shape[1]):
        h = (h ^ rows[:, j]) * MIX[j % len(MIX)]
        h ^= h >> np.uint64(29)
    return h


def merged_exactly(nodes: np.ndarray, ways: np.ndarray) -> States:
    """Equal rows merged by sorting the rows themselves (slower; no hash)."""
    flat = np.ascontiguousarray(nodes.reshape(len(nodes), -1))
    keys = flat.view(np.dtype((np.void, 8 * flat.shape[1]))).ravel()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    order = np.argsort(inverse, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(inverse[order]) != 0])
    return nodes[first], np.add.reduceat(ways[order], starts)
