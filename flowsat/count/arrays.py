"""The frontier counter's sweep with a step's states as numpy arrays, for the self-touch rule:
each step's moves and checks are array operations over all states at once, and equal states
are merged by a sort. A state is a column (the arrays are frontier by states, so that a frontier
node's ints over all states lie together). A frontier node is one int (int32 while it fits:
half the bytes to move): its degree (2 bits), its path's color, and above them its *mate*,
the code of its path's other open end (0: none, the other end being a dot already full, or
the node has no link yet; `mate_codes`: a code stays with its node while the node is on the
frontier). A full node keeps only its degree: only open ends carry their path. Since a node
leaves the frontier only at its final degree (full, or empty), no mate points to a leaving
node, and a leave changes no other node's int: no renumbering. Counts are int64 while their
total is far from 2^63, then Python integers (an object array), exact at any size. Which end
of the board to sweep from decides between a few and many states (dead ones, that the part
still to sweep will kill) and cannot be told from the board: `raced` sweeps from both ends
in turn and goes on with the one that keeps fewer. Under no-self-touch, whose states also
hold pairs of components, `apart.py` sweeps."""

from __future__ import annotations

import ctypes
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from flowsat.count.contract import Count, Limits, Progress, state_cap
from flowsat.count.sweep import COLORS, Step, sweep
from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import Rules

States = tuple[np.ndarray, np.ndarray]  # (..., frontier, N) nodes' ints, (N,) counts
SAFE = float(2**60)  # a total of counts below this cannot overflow int64 in the next step
_MIXER = random.Random(20161)
MIX = np.array([_MIXER.getrandbits(62) | 1 for _ in range(256)], dtype=np.int64)
# odd multipliers of a state's hash (fixed, so that a run is reproducible; int64 products wrap;
# by the standard library's generator: numpy.random's import took 16 ms of a count's start)


class ArraySweeper:
    """One count's run under self-touch, a step's states as arrays (see the module)."""

    def __init__(self, puzzle: Puzzle, rules: Rules, limits: Limits,
                 progress: Progress | None = None, backward: bool = False):
        self.plan, self.backward = sweep(puzzle, rules, backward), backward
        self.shift = 2 + max(len(puzzle.dots), 1).bit_length()
        self.progress = progress
        self.end = None if limits.timeout is None else time.perf_counter() + limits.timeout
        self.cap = state_cap(limits)
        self.stats: dict = {"steps": len(self.plan.steps), "most_states": 1, "arrays": True}
        codes = mate_codes(self.plan.steps)
        self.codes = dict(zip(map(id, self.plan.steps), codes, strict=True))
        widest = max((len(slots) for _, slots in codes), default=1) << self.shift
        self.node = np.int32 if widest < 2**31 else np.int64  # a node's int's type
        self.states: States | None = None  # after the steps `done` (None: before the first)
        self.done = self.seen = 0

    def fits(self) -> bool:
        """Whether this sweep takes the board: any (a node is one int; `apart.py`'s states
        also hold bitmasks of the frontier)."""
        return True

    def run(self, start: float | None = None) -> Count:
        """The exact count, or a stop (timeout, memory) with no bound but 0: the steps left
        swept (all of them, unless `raced` swept some)."""
        start = time.perf_counter() if start is None else start
        if self.plan.impossible:
            return self.count(0, "counted", start)
        steps = len(self.plan.steps)
        while self.done < steps:
            n = self.step()
            if self.progress:
                self.progress(self.done, steps, n)
            if (stop := self.stopped(n)) and self.done < steps:
                return self.count(0, stop, start)
        return self.count(int(sum(self.states[1].tolist())), "counted", start)

    def step(self) -> int:
        """One more step swept: the states after it."""
        if self.states is None:
            self.states = (self.empty(), np.array([1], dtype=np.int64))
        self.states = self.advance(*widened(*self.states), self.plan.steps[self.done])
        self.done += 1
        n = len(self.states[1])
        self.seen += n
        self.stats["most_states"] = max(self.stats["most_states"], n)
        return n

    def stopped(self, n: int) -> str | None:
        """Why the sweep stops after a step of `n` states (the timeout, the memory cap), if
        it does."""
        stop = ("timeout" if self.end is not None and time.perf_counter() > self.end
                else "limit" if n > self.cap else None)
        if stop:
            self.stats["stopped_at_step"] = self.done - 1
        return stop

    def empty(self) -> np.ndarray:
        """The one state before the first step: an empty frontier."""
        return np.zeros((0, 1), dtype=self.node)

    def count(self, value: int, status: str, start: float) -> Count:
        self.stats.update(states=self.seen, total_s=round(time.perf_counter() - start, 6))
        return Count(value, status == "counted", status, self.stats)  # type: ignore[arg-type]

    def advance(self, nodes: np.ndarray, ways: np.ndarray, step: Step) -> States:
        """The states after one more edge, its link left out or made, merged, the leaving
        nodes dropped."""
        if step.entering:
            new = np.array([self.plan.color.get(n, 0) << 2 for n in step.entering],
                           dtype=self.node)
            grown = np.empty((len(nodes) + len(new), nodes.shape[1]), dtype=self.node)
            grown[:len(nodes)], grown[len(nodes):] = nodes, new[:, None]
            nodes = grown
        linked, linked_ways = self.link(step, *self.codes[id(step)], nodes, ways)
        parts = [(nodes, ways, self.passing(step, nodes)),
                 (linked, linked_ways, self.passing(step, linked))]
        return merged_parts(parts, step.keep if step.leaving else None)

    def link(self, step: Step, codes: np.ndarray, slots: np.ndarray, nodes: np.ndarray,
             ways: np.ndarray) -> States:
        """The edge made where both nodes have room, it closes no cycle and colors agree;
        the two paths' far ends become each other's mates (`mate_codes`)."""
        sh, mask = self.shift, COLORS[self.shift]
        a, b = step.a, step.b
        ea, eb = nodes[a], nodes[b]
        da, db, ca, cb = ea & 3, eb & 3, ea & mask, eb & mask
        ok = (da < step.most[0]) & (db < step.most[1])
        ok &= ~((ca > 0) & (cb > 0) & (ca != cb))
        ok &= ~((da > 0) & ((ea >> sh) == codes[b]))  # b is a's other end: a cycle
        nodes, ways = np.compress(ok, nodes, axis=1), ways[ok]
        da, db, c = da[ok], db[ok], (ca | cb)[ok]
        far_a = far_end(a, da, slots[ea[ok] >> sh], step.most[0])
        far_b = far_end(b, db, slots[eb[ok] >> sh], step.most[1])
        n = nodes.shape[1]
        flat = nodes.reshape(-1)  # (a view: nodes is a fresh copy)
        for end, mate in ((far_a, far_b), (far_b, far_a)):
            there = np.flatnonzero(end >= 0)
            at = end[there] * n + there
            flat[at] = (flat[at] & 3) | c[there] | codes[mate[there]] << sh
        for s, d, most in ((a, da, step.most[0]), (b, db, step.most[1])):
            nodes[s] = np.where(d + 1 == most, d + 1, (nodes[s] & ~3) | (d + 1))
        return nodes, ways

    def passing(self, step: Step, nodes: np.ndarray) -> np.ndarray | None:
        """Which states have their leaving nodes at a final degree and their staying nodes
        able to reach one (None: all)."""
        ok = None
        for s, allowed in step.leaving:
            ok = fine(nodes[s] & 3, allowed, ok)
        for j, allowed in step.tight:
            ok = fine(nodes[step.keep[j]] & 3, allowed, ok)
        return ok

    def kept(self, step: Step, node: np.ndarray, nodes: np.ndarray,
             ways: np.ndarray) -> States:
        """The states that `passing` lets through (`node`: the frontier's nodes' ints),
        without the leaving nodes (`apart.py`'s leave)."""
        ok = self.passing(step, node)
        if ok is not None:
            nodes, ways = np.compress(ok, nodes, axis=-1), ways[ok]
        if step.leaving:
            nodes = nodes.take(step.keep, axis=-2)
        return nodes, ways


M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters
HELD_BELOW = 32 << 20  # arrays under this size (glibc's most) reuse the heap's freed memory
DEFAULT = 128 << 10  # glibc's default for both (a set value stays fixed: glibc's dynamic
# threshold is not restored, a small matter outside the sweep)


@contextmanager
def held_memory() -> Iterator[None]:
    """glibc's malloc kept from handing a sweep's freed arrays back to the system while it
    runs (then trimmed): each step allocates and frees arrays of a few MB, and without this
    each new one is fresh pages, zeroed by the kernel at first touch (a tenth of the sweep's
    time). Elsewhere (no glibc) nothing changes."""
    try:
        libc = ctypes.CDLL(None)
        mallopt, trim = libc.mallopt, libc.malloc_trim
    except (OSError, AttributeError):
        yield
        return
    mallopt(M_TRIM_THRESHOLD, 2**31 - 1)
    mallopt(M_MMAP_THRESHOLD, HELD_BELOW)
    try:
        yield
    finally:
        mallopt(M_TRIM_THRESHOLD, DEFAULT)
        mallopt(M_MMAP_THRESHOLD, DEFAULT)
        trim(0)


RACE_FACTOR = 1.5  # a sweep with this many times the other's states so far (and RACE_SLACK
RACE_SLACK = 10_000  # more: small boards race on) is dropped
RACE_BUDGET = 1_000_000  # past this many states so far, the sweep with fewer goes on alone


def raced(both: list[ArraySweeper], progress: Progress | None = None) -> Count:
    """The count by the sweep from whichever end of the board keeps fewer states, which the
    board does not tell (docs/counting.md): the sweeps from both ends (`both`, not begun:
    from the first cell, from the last; or one sweep alone) step by step in turn, until one
    has RACE_FACTOR times the other's states so far (and RACE_SLACK more), or the fewer pass
    RACE_BUDGET; the one left goes on alone."""
    start, racing = time.perf_counter(), len(both) > 1
    steps, dropped = len(both[0].plan.steps), 0
    while len(both) > 1 and both[0].done < steps and not both[0].plan.impossible:
        n = max(s.step() for s in both)
        if progress:
            progress(both[0].done, steps, n)
        if (stop := both[0].stopped(n)) and both[0].done < steps:
            return both[0].count(0, stop, start)
        fewer = min(s.seen for s in both)
        kept = [s for s in both if s.seen <= RACE_FACTOR * fewer + RACE_SLACK]
        if len(kept) > 1 and fewer > RACE_BUDGET:
            kept = [min(kept, key=lambda s: s.seen)]
        dropped += sum(s.seen for s in both if s not in kept)
        both = kept
    winner = both[0]
    dropped += sum(s.seen for s in both[1:])  # (small boards: both swept to the end)
    winner.progress = progress
    if racing:
        winner.stats.update(backward=winner.backward, raced_states=dropped)
    return winner.run(start)


def fine(degree: np.ndarray, allowed: frozenset[int], ok: np.ndarray | None) -> np.ndarray:
    """`ok` (None: all) where the degree is one allowed."""
    bits = sum(1 << d for d in allowed)
    here = ((bits >> degree) & 1).astype(bool)
    return here if ok is None else ok & here


def far_end(slot: int, degree: np.ndarray, mate: np.ndarray, most: int) -> np.ndarray:
    """The slot of the path's other open end seen from `slot` once linked (-1: none): the
    node itself when it had no link and stays open, else its mate's slot."""
    itself = np.where(degree + 1 < most, slot, -1)
    return np.where(degree == 0, itself, mate)


def mate_codes(steps: tuple[Step, ...]) -> list[tuple[np.ndarray, np.ndarray]]:
    """For each step, each slot's code (after the nodes entering; one more entry, 0, for
    slot -1) and each code's slot (-1 for code 0, none). A node's code is its rank among
    the nodes entering, modulo the widest span of ranks a frontier holds, plus 1: distinct
    within a frontier and the same while the node stays, so a leave moves no mate."""
    frontiers, frontier, rank = [], [], 0
    for step in steps:
        frontier = frontier + list(range(rank, rank + len(step.entering)))
        rank += len(step.entering)
        frontiers.append(frontier)
        frontier = [frontier[k] for k in step.keep]
    span = max((max(f) - min(f) + 1 for f in frontiers if f), default=1)
    out = []
    for f in frontiers:
        codes = np.array([r % span + 1 for r in f] + [0], dtype=np.int64)
        slots = np.full(span + 1, -1, dtype=np.int64)
        slots[codes[:-1]] = np.arange(len(f))
        out.append((codes, slots))
    return out


def widened(nodes: np.ndarray, ways: np.ndarray) -> States:
    """The counts as Python integers once their total nears int64's end."""
    if ways.dtype != object and len(ways) and float(ways.sum(dtype=np.float64)) > SAFE:
        ways = ways.astype(object)
    return nodes, ways


def merged_parts(parts: list[tuple[np.ndarray, np.ndarray, np.ndarray | None]],
                 rows: tuple[int, ...] | None) -> States:
    """Equal states of several (frontier, N) arrays merged into one, each part's states
    those its mask (None: all) keeps and of each only `rows` (None: all): the states are
    packed from the parts in place and only the merged ones gathered (see `merged`)."""
    rows = tuple(range(len(parts[0][0]))) if rows is None else rows
    spans, words, ways, picks = [], [], [], []
    tops = [0] * len(rows)
    for nodes, _, _ in parts:
        if nodes.shape[1]:  # (one reduction over all rows: fewer calls than one a row)
            top = nodes.max(axis=1).tolist()
            tops = [max(t, top[r]) for t, r in zip(tops, rows, strict=True)]
    start = 0
    for nodes, w, ok in parts:
        if ok is None:
            words.append(packed(nodes, rows, tops))
            ways.append(w)
            picks.append(np.arange(start, start + nodes.shape[1]))
        else:  # only the states kept packed: the mask often keeps a fifth or less
            keep = np.flatnonzero(ok)
            words.append(packed(nodes.take(keep, axis=1), rows, tops))
            ways.append(w[keep])
            picks.append(keep + start)
        spans.append(start)
        start += nodes.shape[1]
    all_ways = np.concatenate(ways)
    if len(all_ways) == 0 or not rows:
        return (np.zeros((len(rows), min(len(all_ways), 1)), dtype=parts[0][0].dtype),
                all_ways.sum(keepdims=True)[:len(all_ways)])
    firsts, sums = grouped(np.concatenate(words, axis=1), all_ways)
    cols = np.concatenate(picks)[firsts]  # ascending: each part's in a run
    out = np.empty((len(rows), len(cols)), dtype=parts[0][0].dtype)
    cuts = np.searchsorted(cols, [*spans, start])
    contiguous = rows == tuple(range(rows[0], rows[-1] + 1))
    for (nodes, _, _), lo, i, j in zip(parts, spans, cuts[:-1], cuts[1:], strict=True):
        if contiguous:  # a view: the leaving nodes are never gathered
            out[:, i:j] = nodes[rows[0]:rows[-1] + 1].take(cols[i:j] - lo, axis=1)
        else:
            out[:, i:j] = nodes.take(cols[i:j] - lo, axis=1)[list(rows)]
    return out, sums


def grouped(words: np.ndarray, ways: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The first column of each group of equal columns of `words`, in their first order,
    and each group's sum of `ways`: sorted by a 64-bit hash, then split wherever two
    neighbours differ (so a hash collision can only leave a state twice, never merge two).
    The column's index fills the hash's low bits: a plain sort of the ints (several times
    faster than an argsort) gives the order."""
    n = words.shape[1]
    low = (1 << max(n - 1, 1).bit_length()) - 1
    keys = MIX[:len(words)] @ words  # (the high bits mixed from every bit)
    ranked = np.sort((keys & ~low) | np.arange(n, dtype=np.int64))
    order, ways = ranked & low, ways[ranked & low]
    differ = ((ranked[1:] ^ ranked[:-1]) & ~low) != 0  # another hash: another state
    same = np.flatnonzero(~differ)  # one hash: the words say (rarely two states)
    differ[same] = (words.take(order[same], axis=1) != words.take(order[same + 1], axis=1)
                    ).any(axis=0)
    starts = np.flatnonzero(np.r_[True, differ])
    firsts = order[starts]
    seen = np.zeros(n, dtype=bool)  # the states kept in their first order: a gather that
    seen[firsts] = True             # streams (a scatter: cheaper than an argsort)
    rank = np.empty(n, dtype=np.int64)
    rank[firsts] = np.arange(len(firsts))
    kept = np.flatnonzero(seen)
    return kept, np.add.reduceat(ways, starts)[rank[kept]]


def merged(nodes: np.ndarray, ways: np.ndarray) -> States:
    """Equal states merged into one, their counts summed (`grouped` on their rows as they
    are, up to MIX's 256: packing `apart.py`'s some 45 rows into a few words first cost
    more than hashing them all; wider, packed first); the states kept stay in the order
    they came."""
    n = len(ways)
    if n == 0:
        return nodes, ways
    flat = nodes.reshape(-1, n)
    if len(flat) == 0:
        return nodes[..., :1], ways.sum(keepdims=True)
    firsts, sums = grouped(flat if len(flat) <= len(MIX) else packed(flat), ways)
    return flat.take(firsts, axis=1).reshape(*nodes.shape[:-1], len(firsts)), sums


def packed(flat: np.ndarray, rows: tuple[int, ...] | None = None,
           tops: list[int] | None = None) -> np.ndarray:
    """The rows (those of `rows`, None: all) of non-negative ints, each at most its `tops`
    (None: its max), packed side by side into as few int64 words as their widths allow
    (equal states, equal words)."""
    rows = tuple(range(len(flat))) if rows is None else rows
    if tops is None:  # (one reduction for all the rows, not a call a row)
        most = flat.max(axis=1).tolist()
        tops = [most[r] for r in rows]
    words: list[np.ndarray] = []
    used = 64
    for r, top in zip(rows, tops, strict=True):
        width = int(top).bit_length()
        if width == 0:
            continue
        if used + width > 63:
            words.append(flat[r].astype(np.int64))
            used = width
        else:
            words[-1] |= flat[r].astype(np.int64) << used
            used += width
    return np.array(words) if words else np.zeros((1, flat.shape[1]), dtype=np.int64)
