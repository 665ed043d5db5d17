"""The frontier counter: dynamic programming over the board's graph, an edge at a time (the
frontier method behind ZDD counters such as TdZdd's `ddnumlin`; Yoshinaka et al., Algorithms
5(2), 2012), counting by summing, never listing.

The graph is the encoder's (`flowsat.sat.encoder.graph`): a node per cell, a bridge cell two
nodes (one per pass), so every board kind is one graph. Edges are taken in the order of their
nodes along the board's shorter side; after edge k the frontier is the nodes met by an edge up
to k and by one after it. A state says, for each frontier node, its links so far and its
component (a label), and for each label its color (0: no dot reached yet). States that agree
on all this have the same futures, so each is kept once with the number of ways to reach it.

A link closing a cycle, or joining two colors, is refused; a node leaving the frontier must
have its final degree (a dot 1, another node 2, or 0 when cells may stay empty); what leaves
the frontier whole is then a path from a dot to its twin. Under the no-self-touch rule a link
left out joins two nodes that must never be on one path: every frontier node keeps its label
(not just the open ends), and each such pair of components is kept in the state until one of
them leaves (two components of one color that may not meet can never both be right: refused).
"""

from __future__ import annotations

import time

from flowsat.count.apart import ApartSweeper
from flowsat.count.arrays import ArraySweeper, held_memory, raced
from flowsat.count.contract import Count, Limits, Progress, loosened, state_cap
from flowsat.count.sweep import COLORS, FRESH, Step, sweep
from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import Rules

Key = tuple[tuple[int, ...], tuple[tuple[int, int], ...]]
# a state: each frontier node's int (`Sweeper`), the pairs of labels that may never join
CHECK_EVERY = 4096  # transitions between looks at the clock


class Sweeper:
    """One count's run: the states after each step and what they are worth (under every
    rule; the counter sweeps as arrays, `arrays.py` and `apart.py`, and this sweep is their
    reference in the tests and takes frontiers too wide for `apart.py`). A frontier node
    is one int: its degree (2 bits), its component's color, and its component's label above
    them (0: none); a state is the tuple of them, and (no-self-touch) the pairs of labels
    that may never join."""

    def __init__(self, puzzle: Puzzle, rules: Rules, limits: Limits,
                 progress: Progress | None = None):
        self.plan = sweep(puzzle, rules)
        self.touch = rules.self_touch
        self.shift = 2 + max(len(puzzle.dots), 1).bit_length()  # where the label starts
        self.limits, self.progress = limits, progress
        self.end = None if limits.timeout is None else time.perf_counter() + limits.timeout
        self.cap = state_cap(limits)
        self.stats: dict = {"steps": len(self.plan.steps), "most_states": 1}

    def run(self) -> Count:
        """The exact count, or a stop (timeout, memory) with no bound but 0."""
        start = time.perf_counter()
        if self.plan.impossible:
            return self.done(0, start)
        states: dict[Key, int] = {((), ()): 1}
        seen = 0
        for k, step in enumerate(self.plan.steps):
            states, stop = self.advance(states, step)
            seen += len(states)
            if stop:
                self.stats["stopped_at_step"] = k
                return Count(0, False, stop, self.finish(start, seen))
            if self.progress:
                self.progress(k + 1, len(self.plan.steps), len(states))
            self.stats["most_states"] = max(self.stats["most_states"], len(states))
        return self.done(states.get(((), ()), 0), start, seen)

    def done(self, value: int, start: float, seen: int = 0) -> Count:
        return Count(value, True, "counted", self.finish(start, seen))

    def finish(self, start: float, seen: int) -> dict:
        self.stats.update(states=seen, total_s=round(time.perf_counter() - start, 6))
        return self.stats

    def advance(self, states: dict[Key, int], step: Step) -> tuple[dict[Key, int], str | None]:
        """The states after one more edge (its link made or not), and why it stopped, if it
        did."""
        out: dict[Key, int] = {}
        get = out.get
        new = self.entering(step)
        skip, link, leave = self.skip, self.link, self.leave
        # with self-touch, an edge left out keeps the labels' order (a new node has no label,
        # a node that may leave none): where no node leaves, the state is as it was
        same = self.touch and not step.leaving and not step.tight
        for n, ((slots, apart), ways) in enumerate(states.items(), 1):
            slots = slots + new if new else slots
            if same:
                key = (slots, apart)
                out[key] = get(key, 0) + ways
            elif (made := skip(step, slots, apart)) is not None and (
                    made := leave(step, *made, relabel=not self.touch)) is not None:
                out[made] = get(made, 0) + ways
            if (made := link(step, slots, apart)) is not None and (
                    made := leave(step, *made)) is not None:
                out[made] = get(made, 0) + ways
            if n % CHECK_EVERY == 0:
                if self.end is not None and time.perf_counter() > self.end:
                    return out, "timeout"
                if len(out) > self.cap:
                    return out, "limit"
        return out, None

    def entering(self, step: Step) -> tuple[int, ...]:
        """The step's new nodes' ints: degree 0, their dot's color, and under no-self-touch a
        label each, above every label a state can hold (each node is its own component)."""
        color = [self.plan.color.get(n, 0) << 2 for n in step.entering]
        if self.touch:
            return tuple(color)
        return tuple(c | (FRESH + k) << self.shift for k, c in enumerate(color))

    def skip(self, step: Step, slots: tuple[int, ...], apart: tuple):
        """The edge left out: under no-self-touch its nodes' components never meet."""
        if self.touch:
            return slots, apart
        sh = self.shift
        ea, eb = slots[step.a], slots[step.b]
        x, y = ea >> sh, eb >> sh
        if x == y:
            return None  # two nodes of one path side by side, not linked: a touch
        ca, cb = ea & COLORS[sh], eb & COLORS[sh]
        if ca and cb:
            return None if ca == cb else (slots, apart)  # one color, one path: they must meet
        return slots, (*apart, (min(x, y), max(x, y)))

    def link(self, step: Step, slots: tuple[int, ...], apart: tuple):
        """The edge made: both nodes have room, their components differ, colors agree."""
        a, b = step.a, step.b
        ea, eb = slots[a], slots[b]
        if (ea & 3) >= step.most[0] or (eb & 3) >= step.most[1]:
            return None
        sh = self.shift
        mask = COLORS[sh]
        ca, cb = ea & mask, eb & mask
        if ca and cb and ca != cb:
            return None
        x, y = ea >> sh, eb >> sh
        if self.touch:  # a node's first link gives it a label of its own
            x, y = x or FRESH, y or FRESH + 1
        if x == y or (apart and (min(x, y), max(x, y)) in apart):
            return None
        c = ca | cb
        joined = c | x << sh
        out = [(e & 3) | joined if (e >> sh) in (x, y) else e for e in slots]
        out[a] = (ea & 3) + 1 | joined
        out[b] = (eb & 3) + 1 | joined
        if apart:
            apart = tuple((min(p, q), max(p, q)) for p, q in
                          ((x if p == y else p, x if q == y else q) for p, q in apart))
            if c and any(x in pair for pair in apart) and self.same_color(out, apart, x, c):
                return None
        if self.touch:  # a full node is done: only open ends carry their path's label
            for s, most in ((a, step.most[0]), (b, step.most[1])):
                if out[s] & 3 == most:
                    out[s] &= 3
        return out, apart

    def same_color(self, slots: list[int], apart: tuple, x: int, c: int) -> bool:
        """Whether component x (of color c) may never meet a component of its own color."""
        sh, mask = self.shift, COLORS[self.shift]
        colored = {e >> sh for e in slots if e & mask == c}
        return any(p in colored and q in colored for p, q in apart if x in (p, q))

    def leave(self, step: Step, slots, apart: tuple, relabel: bool = True) -> Key | None:
        """The state with the leaving nodes gone (each at its final degree), labels renumbered
        in order of first use (unless they are already), pairs of labels still on the
        frontier only."""
        for s, allowed in step.leaving:
            if slots[s] & 3 not in allowed:
                return None
        out = [slots[k] for k in step.keep] if step.leaving else list(slots)
        for j, ok in step.tight:
            if out[j] & 3 not in ok:
                return None
        if not relabel:
            return tuple(out), apart
        sh = self.shift
        low = (1 << sh) - 1
        names: dict[int, int] = {}
        for k, e in enumerate(out):
            label = e >> sh
            if label:
                new = names.get(label)
                if new is None:
                    new = names[label] = len(names) + 1
                if new != label:
                    out[k] = (e & low) | new << sh
        if apart:
            colors = {e >> sh: e & COLORS[sh] for e in out}
            apart = tuple(sorted({(min(names[p], names[q]), max(names[p], names[q]))
                                  for p, q in apart if p in names and q in names
                                  and not (colors[names[p]] and colors[names[q]])}))
        return tuple(out), apart


class FrontierCounter:
    """Counts by the frontier method (see the module docstring): every board kind, every
    rule; the count is exact or, stopped, no bound but 0."""

    name = "frontier"
    summary = "frontier-based dynamic programming over the board graph (the ZDD method)"

    def refuses(self, puzzle: Puzzle, rules: Rules) -> str | None:
        return None

    def count(self, puzzle: Puzzle, rules: Rules, limits: Limits, limit: int | None = None,
              progress: Progress | None = None) -> Count:
        # swept as arrays, several times faster: under self-touch states of nodes only; else
        # also their components and pairs kept apart, as bitmasks (a frontier of at most 62
        # nodes: an int64), or else by the dict sweep. Under loosened rules from the end
        # that keeps fewer states (`raced`); else from the top: there both ends keep few,
        # and the race would sweep the board twice (docs/counting.md)
        kind = ArraySweeper if rules.self_touch else ApartSweeper
        sweeps = [kind(puzzle, rules, limits, None, False)]
        if not sweeps[0].fits():
            return Sweeper(puzzle, rules, limits, progress).run()
        if loosened(rules):
            sweeps += [s for s in [kind(puzzle, rules, limits, None, True)] if s.fits()]
        with held_memory():
            return raced(sweeps, progress)


COUNTER = FrontierCounter()
