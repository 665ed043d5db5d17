"""The frontier counter's array sweep under the no-self-touch rule (`arrays.py` sweeps
self-touch; its layout: a state is a column). A state is three rows of ints, one a frontier
node: its degree and its component's color (as `frontier.Sweeper` has them, without the
label), its component as a bitmask of frontier slots, and the bitmask of the slots whose
components it may never meet (a link left out between them). Both bitmasks are the same for
every node of a component and need no labels: a state is canonical as it stands, and a leave
deletes its slots' bits. A pair is dropped once both sides have colors (a link between them is
refused by color; one color apart is refused on the spot), or once one side can take no more
links (it meets nothing again). Each step's moves and checks run over all states at once."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from flowsat.count.arrays import MIX, ArraySweeper, States, merged
from flowsat.count.contract import Limits, Progress
from flowsat.count.sweep import COLORS, Step
from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import Rules

NODE, COMP, APART = 0, 1, 2  # the three rows of a state
WIDEST = 62  # frontier slots a bitmask of an int64 holds


class ApartSweeper(ArraySweeper):
    """One count's run under no-self-touch, a step's states as (3, frontier, N) arrays."""

    def __init__(self, puzzle: Puzzle, rules: Rules, limits: Limits,
                 progress: Progress | None = None, backward: bool = False):
        super().__init__(puzzle, rules, limits, progress, backward)
        # the crossing check (`crossing`) where cells may stay empty: with every cell filled
        # it cuts 0 to 10 % of the states and costs more than that saves (docs/counting.md)
        self.along = None if rules.fill_all else self.plan.along
        self.after = {id(step): after for step, after in zip(self.plan.steps, self.frontiers(),
                                                             strict=True)}

    def frontiers(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray | None]]:
        """For each step, the frontier after it: for each node the degrees (bits) from which
        it can take another link and still end at a final degree (`forget_frozen`), whether
        it is a dot, and its slots in their order along the frontier's line (None: not a
        plain grid, `Sweep.along`, or no crossing check)."""
        along = self.along
        frontier: list[int] = []
        left: dict[int, int] = {}
        for step in self.plan.steps:
            frontier += step.entering
            for s in (step.a, step.b):
                left[frontier[s]] = left.get(frontier[s], 0) + 1
            for s, _ in step.leaving:
                del frontier[s]
        frontier = []
        for step in self.plan.steps:
            frontier += step.entering
            for s in (step.a, step.b):
                left[frontier[s]] -= 1
            for s, _ in step.leaving:
                del frontier[s]
            yield (np.array([reach(left[n], n in self.plan.color) for n in frontier],
                            dtype=np.int64)[:, None],
                   np.array([n in self.plan.color for n in frontier], dtype=bool)[:, None],
                   None if along is None else np.argsort([along[n] for n in frontier]))

    def fits(self) -> bool:
        """Whether every frontier fits a bitmask (else the dict sweep counts)."""
        width = most = 0
        for step in self.plan.steps:
            width += len(step.entering)
            most = max(most, width)
            width -= len(step.leaving)
        return most <= WIDEST

    def empty(self) -> np.ndarray:
        return np.zeros((3, 0, 1), dtype=np.int64)

    def advance(self, nodes: np.ndarray, ways: np.ndarray, step: Step) -> States:
        """The states after one more edge, its link left out or made, merged."""
        if step.entering:
            nodes = self.entered(nodes, step)
        skipped = self.leave(step, *self.skip(step, nodes, ways))
        if any(n in self.plan.color for n in step.entering):  # a new open end
            skipped = self.uncrossed(step, *skipped)
        linked = self.uncrossed(step, *self.leave(step, *self.link(step, nodes, ways)))
        return merged(np.concatenate([skipped[0], linked[0]], axis=2),
                      np.concatenate([skipped[1], linked[1]]))

    def uncrossed(self, step: Step, nodes: np.ndarray, ways: np.ndarray) -> States:
        """The states `crossing` lets through (all, off a plain grid or with every cell
        filled). Only states with a new link or a new dot are asked: in the others no open
        end moved, so no pair of them came to cross."""
        _, dot, order = self.after[id(step)]
        if order is None or not len(ways):
            return nodes, ways
        ok = ~crossing(nodes[NODE] & (COLORS[self.shift] | 3), nodes[COMP], dot, order)
        return np.compress(ok, nodes, axis=2), ways[ok]

    def entered(self, nodes: np.ndarray, step: Step) -> np.ndarray:
        """The step's new nodes appended: degree 0, their dot's color, each its own
        component, apart from none."""
        width = nodes.shape[1]
        new = np.zeros((3, len(step.entering), 1), dtype=np.int64)
        for k, n in enumerate(step.entering):
            new[:, k, 0] = (self.plan.color.get(n, 0) << 2, 1 << (width + k), 0)
        return np.concatenate([nodes, np.repeat(new, nodes.shape[2], axis=2)], axis=1)

    def skip(self, step: Step, nodes: np.ndarray, ways: np.ndarray) -> States:
        """The edge left out: its nodes' components may never meet (refused if they are one,
        or have one color)."""
        mask = COLORS[self.shift]
        a, b = step.a, step.b
        comp_a, comp_b = nodes[COMP, a], nodes[COMP, b]
        ca, cb = nodes[NODE, a] & mask, nodes[NODE, b] & mask
        ok = ((comp_a >> b) & 1 == 0) & ~((ca > 0) & (ca == cb))
        nodes, ways = np.compress(ok, nodes, axis=2), ways[ok]
        record = ((ca == 0) | (cb == 0))[ok]
        comp_a, comp_b = comp_a[ok] * record, comp_b[ok] * record  # 0: nothing to record
        comp, apart = nodes[COMP], nodes[APART]
        apart |= np.where(comp == comp_a, comp_b, 0)
        apart |= np.where(comp == comp_b, comp_a, 0)
        return nodes, ways

    def link(self, step: Step, nodes: np.ndarray, ways: np.ndarray) -> States:
        """The edge made where both nodes have room, their components differ, may meet and
        agree in color; refused if the joined component is apart from one of its color."""
        mask = COLORS[self.shift]
        a, b = step.a, step.b
        ea, eb = nodes[NODE, a], nodes[NODE, b]
        ca, cb = ea & mask, eb & mask
        ok = ((ea & 3) < step.most[0]) & ((eb & 3) < step.most[1])
        ok &= ~((ca > 0) & (cb > 0) & (ca != cb))
        ok &= ((nodes[COMP, a] | nodes[APART, a]) >> b) & 1 == 0
        nodes, ways = np.compress(ok, nodes, axis=2), ways[ok]
        node, comp, apart = nodes
        joined = comp[a] | comp[b]
        away = apart[a] | apart[b]
        c = (ca | cb)[ok]
        member = (comp & joined) != 0
        apart[...] = np.where(member, away, np.where(apart & joined, apart | joined, apart))
        comp[...] = np.where(member, joined, comp)
        node[...] = np.where(member, (node & ~mask) | c, node)
        node[a] += 1
        node[b] += 1
        kin = bitmask((c > 0) & ((node & mask) == c))
        ok = (away & kin) == 0
        return np.compress(ok, nodes, axis=2), ways[ok]

    def leave(self, step: Step, nodes: np.ndarray, ways: np.ndarray) -> States:
        """The leaving nodes gone (each at its final degree) with their bits, the lookahead's
        checks, and the pairs whose both sides have colors dropped."""
        nodes, ways = self.kept(step, nodes[NODE], nodes, ways)
        if not len(ways):
            return nodes, ways
        sets = nodes[COMP:]
        for s, _ in step.leaving:  # highest first
            sets[...] = (sets & ((1 << s) - 1)) | ((sets >> (s + 1)) << s)
        colored = (nodes[NODE] & COLORS[self.shift]) > 0
        nodes[APART] = np.where(colored, nodes[APART] & ~bitmask(colored), nodes[APART])
        self.forget_frozen(nodes, self.after[id(step)][0])
        return nodes, ways

    def forget_frozen(self, nodes: np.ndarray, reaching: np.ndarray) -> None:
        """Pairs with a component none of whose nodes can take another link (and still end
        at a final degree) dropped: it will never meet anything, so states that differ
        only there have the same futures."""
        can = ((reaching >> (nodes[NODE] & 3)) & 1).astype(bool)
        frozen = (nodes[COMP] & bitmask(can)) == 0
        nodes[APART] = np.where(frozen, 0, nodes[APART] & ~bitmask(frozen))


def reach(left: int, dot: bool) -> int:
    """The degrees (as bits) from which a node with `left` links to come can take one more
    and still end at a final degree: a dot from 0 (it ends at 1), a cell from 1, or from 0
    with two links or more to come (it ends at 2)."""
    if left == 0:
        return 0
    return 0b01 if dot else 0b10 | (0b01 if left > 1 else 0)


def bitmask(where: np.ndarray) -> np.ndarray:
    """Each state's (column's) slots where `where` holds, as the bits of an int."""
    weights = np.int64(1) << np.arange(len(where), dtype=np.int64)
    return (where.astype(np.int64) * weights[:, None]).sum(axis=0)


def crossing(node: np.ndarray, comp: np.ndarray, dot: np.ndarray,
             order: np.ndarray) -> np.ndarray:
    """Which states (columns of `node`, each frontier node's degree and color, and `comp`,
    its component) can never be finished on a plain grid: two colors each have two open ends
    on the frontier (paths from both dots, to be joined), in the order a, b, a, b along it.
    Every link to come lies in the part of the board still to come, a disk with the
    frontier's nodes on its edge in that order: a's path splits it, b's ends lie on both
    sides. A loose path (no color yet: it joins some path later) is a way round that above
    the frontier, over the open ends between its two ends: such states are kept, unless each
    loose path's two ends are neighbours among the open ends (it passes over none, and
    passing over nothing changes no order)."""
    color = node >> 2
    degree = node & 3
    bad = np.zeros(node.shape[1], dtype=bool)
    if not color.size or int(color.max()) > 62:  # (a color bit must fit an int64)
        return bad
    open_ = (color > 0) & np.where(dot, degree == 0, degree == 1)
    ends = np.where(open_, np.int64(1) << color, 0)
    chords = ends & ~np.bitwise_xor.reduce(ends, axis=0)  # colors with both ends here
    check = np.flatnonzero(np.count_nonzero(chords, axis=0) >= 4)
    if not len(check):
        return bad
    pick = np.ix_(order, check)  # those states, their rows in order along the line
    check = check[crossed_chords(chords[pick], color[pick])]
    if not len(check):
        return bad
    pick = np.ix_(order, check)  # of those, the ones whose chords cross: is a way round?
    dot = dot[order]
    loose = (color[pick] == 0) & (degree[pick] == 1) & ~dot
    bad[check] = 2 * beside(loose, loose | open_[pick], comp[pick]) == loose.sum(axis=0)
    return bad


def crossed_chords(chords: np.ndarray, color: np.ndarray) -> np.ndarray:
    """Whether two chords cross (rows in order along the line, each a color's bit at both
    its ends, else 0): the set of chords open (an XOR of bits) before a chord's first end
    equals the set after its second end unless another chord crossed it. Each end's set,
    hashed with its color (an odd multiplier: equal sets, equal hashes), is XORed over all
    ends: 0 when every chord's two agree (a collision can only miss a crossing)."""
    after = np.bitwise_xor.accumulate(chords, axis=0)
    before = after ^ chords
    seen = np.where((before & chords) == 0, before, after)
    return np.bitwise_xor.reduce(np.where(chords != 0, seen * MIX[color], 0), axis=0) != 0


def beside(loose: np.ndarray, end: np.ndarray, comp: np.ndarray) -> np.ndarray:
    """For each state, how many loose paths have their two ends side by side among the open
    ends (`end`, rows in order along the line; the last and the first are side by side)."""
    at = np.where(end, np.arange(len(end))[:, None], -1)
    last = np.maximum.accumulate(at, axis=0)  # the last end so far
    before = np.vstack([np.full((1, end.shape[1]), -1), last[:-1]])
    columns = np.arange(end.shape[1])
    same = loose & (before >= 0) & (comp[before.clip(0), columns] == comp)
    first = np.argmax(end, axis=0)
    round_ = loose[first, columns] & (comp[first, columns] == comp[last[-1].clip(0), columns])
    return same.sum(axis=0) + (round_ & (last[-1] != first))
