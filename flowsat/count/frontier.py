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
from dataclasses import dataclass

from flowsat.count.contract import Count, Limits, Progress, state_cap
from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import Rules

Key = tuple[tuple[int, ...], tuple[tuple[int, int], ...]]
# a state: each frontier node's int (`Sweeper`), the pairs of labels that may never join
CHECK_EVERY = 4096  # transitions between looks at the clock


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


def sweep(puzzle: Puzzle, rules: Rules) -> Sweep:
    """The edges in order along the board's shorter side, with what enters and leaves."""
    from flowsat.sat.encoder import graph

    g = graph(puzzle.board)
    w = puzzle.width
    color = {r * w + c: k + 1 for k, ends in enumerate(puzzle.dots.values()) for r, c in ends}
    across = puzzle.width <= puzzle.height

    def place(node: int) -> tuple[int, int, int]:
        r, c = divmod(g.home[node], w)
        return (r, c, node) if across else (c, r, node)

    order = {n: k for k, n in enumerate(sorted(g.nodes, key=place))}
    edges = sorted((tuple(sorted(e, key=order.__getitem__)) for e in g.edges),
                   key=lambda e: (order[e[0]], order[e[1]]))
    last = {n: k for k, e in enumerate(edges) for n in e}
    final = frozenset({2} if rules.fill_all else {0, 2})
    links_left = {n: 0 for n in last}
    for e in edges:
        for n in e:
            links_left[n] += 1
    steps, frontier = [], []
    for k, (a, b) in enumerate(edges):
        entering = tuple(n for n in (a, b) if n not in frontier)
        frontier += entering
        links_left[a] -= 1
        links_left[b] -= 1
        gone = sorted((frontier.index(n) for n in (a, b) if last[n] == k), reverse=True)
        leaving = tuple((s, bounds(frontier[s], color, final)[1]) for s in gone)
        a_at, b_at = frontier.index(a), frontier.index(b)
        for s in gone:
            del frontier[s]
        tight = tuple((j, ok) for j, n in enumerate(frontier)
                      if len(ok := mendable(*bounds(n, color, final), links_left[n]))
                      <= bounds(n, color, final)[0])
        keep = tuple(k for k in range(len(frontier) + len(gone)) if k not in gone)
        steps.append(Step(a_at, b_at, entering, leaving, keep,
                          (bounds(a, color, final)[0], bounds(b, color, final)[0]), tight))
    lonely = set(g.nodes) - set(last)  # nodes without a link: a dot there has no path
    impossible = any(n in color for n in lonely) or (rules.fill_all and bool(lonely))
    return Sweep(tuple(steps), color, impossible)


def bounds(node: int, color: dict[int, int], final: frozenset[int]
           ) -> tuple[int, frozenset[int]]:
    """A node's most links and its final degrees: a dot 1 and 1, another 2 and `final`."""
    return (1, frozenset({1})) if node in color else (2, final)


def mendable(most: int, final: frozenset[int], left: int) -> frozenset[int]:
    """The degrees now from which `left` more links can reach a final degree."""
    return frozenset(d for d in range(most + 1) if any(0 <= f - d <= left for f in final))


class Sweeper:
    """One count's run: the states after each step and what they are worth. A frontier node
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


FRESH = 1 << 20  # labels of new components, above any a state holds (a frontier's nodes)
COLORS = {shift: ((1 << shift) - 1) & ~3 for shift in range(3, 16)}  # the color bits


class FrontierCounter:
    """Counts by the frontier method (see the module docstring): every board kind, every
    rule; the count is exact or, stopped, no bound but 0."""

    name = "frontier"
    summary = "frontier-based dynamic programming over the board graph (the ZDD method)"

    def refuses(self, puzzle: Puzzle, rules: Rules) -> str | None:
        return None

    def count(self, puzzle: Puzzle, rules: Rules, limits: Limits, limit: int | None = None,
              progress: Progress | None = None) -> Count:
        return Sweeper(puzzle, rules, limits, progress).run()


COUNTER = FrontierCounter()
