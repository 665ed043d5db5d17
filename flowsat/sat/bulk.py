"""Propagation's first phase on large square boards: rounds of numpy steps over a frontier.

Where the corner rule holds (`deduce.corners_hold`), most links are forced by the degree,
corner-pair and 2x2 rules alone, ring after ring: each round applies them, with numpy, to the
nodes next to a link decided in the round before that still have undecided links (the
frontier), not to the whole board; the first round to the cells with a dot or fewer than
four links (an empty cell with four undecided links keeps them all).
Chains and their colors are left to the worklist that follows (`deduce.Propagation`), which
also takes over once the frontier is small. Every rule here is one of the worklist's, so
what this phase decides every solution has; a node left without its links is a
contradiction.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from flowsat.sat.encoder import DOWN, LEFT, RIGHT, UP, Encoder

UNDECIDED, ON, OFF = 0, 1, 2
WAYS = (UP, DOWN, LEFT, RIGHT)  # the order of a node's links in the masks (bit k: WAYS[k])
SMALL = 256  # a frontier this small goes to the worklist: numpy's fixed costs outweigh it
BITS = np.array([1, 2, 4, 8], dtype=np.int64)  # a direction's bit (deduce.WAYS order)
POPCOUNT = np.array([bin(m).count("1") for m in range(16)], dtype=np.int64)


class Contradiction(Exception):
    """Some node cannot get its links."""


def rounds(enc: Encoder, ways: np.ndarray, pairs: np.ndarray, partners: np.ndarray,
           state: np.ndarray, made: np.ndarray, need: np.ndarray,
           on_time: Callable[[], None] = lambda: None) -> np.ndarray:
    """Decide links in `state` (and count them in `made`) round by round over the frontier
    until it is small; that last frontier, not looked at yet. `ways`: each node's link each
    way (deduce.WAYS order, -1: none); `partners`: `deduce.partner_table` flattened;
    `on_time()` is called every round (it raises past the deadline)."""
    dots = enc.dots
    u, v = enc.graph.edge_array[:, 0], enc.graph.edge_array[:, 1]
    undecided = enc.graph.degree.copy()  # each node's links left undecided
    # an empty cell with four links, none decided, keeps them all (each pairs straight):
    # the first round looks at the others only
    frontier = np.flatnonzero(enc.graph.on_array & ((undecided < len(WAYS)) | (dots >= 0)))
    link_stamp, node_stamp = np.zeros(len(u), dtype=np.int64), np.zeros(enc.size, np.int64)
    # each node's directions (bits) not toward a dot of another color
    allowed = ~color_clash(dots, list(enc.board.toward_arrays.values()))
    room = made < need
    # each node's room, and a row of padding before and after it: a node's neighbors are
    # at `steps` from it (square board, no wrap), and a missing one is never looked at
    steps = np.array([-enc.width, enc.width, -1, 1]) + enc.width  # WAYS, in the padded row
    room_around = np.r_[np.zeros(enc.width, bool), room, np.zeros(enc.width, bool)]
    room = room_around[enc.width:enc.width + len(room)]  # a view: kept up to date there
    # each node's part of the `corner_table`, its first index (pair mask x 256)
    rule = np.where(dots >= 0, NO_RULE, pairs.astype(np.int64)) * 256
    table = corner_table(partners)
    while len(frontier) >= SMALL:
        on_time()
        links = ways[frontier]
        s = np.where(links >= 0, state[links], OFF)
        mk, nd = made[frontier], need[frontier]
        undecided_here = s == UNDECIDED
        possible = undecided_here & room_around[frontier[:, None] + steps]
        open_ = (possible @ BITS) & allowed[frontier]
        open_[mk >= nd] = 0
        left = table[rule[frontier] + ((s == ON) @ BITS) * 16 + open_]
        count = mk + POPCOUNT[left]
        if (count < nd).any():
            raise Contradiction
        keep = (left[:, None] & BITS) > 0
        close = links[undecided_here & ~keep]
        force = ((count == nd) & (mk < nd))[:, None] & keep
        made_on = distinct(links[force], link_stamp)
        made_off = distinct(close, link_stamp)
        state[made_off] = OFF
        if (state[made_on] == OFF).any():  # one end needs the link, the other cannot take it
            raise Contradiction
        state[made_on] = ON
        first, second = u[made_on], v[made_on]
        ends = np.concatenate([first, second])
        np.add.at(made, ends, 1)
        have, needs = made[ends], need[ends]
        room[ends] = have < needs
        if (have > needs).any():
            raise Contradiction
        squared = squares(enc.width, ways, state, first, second, link_stamp)
        frontier = next_frontier(u, v, np.concatenate([made_on, made_off, squared]), undecided,
                                 made, need, node_stamp)
    return frontier


def color_clash(dots: np.ndarray, near: list[np.ndarray]) -> np.ndarray:
    """Each node's directions (bits) toward a dot of another color (`near`: each node's
    neighbor each way): a dot's only."""
    clash = np.zeros(len(dots), dtype=np.int64)
    dotted = np.flatnonzero(dots >= 0)
    other = np.stack([way[dotted] for way in near], axis=1)
    other_color = np.where(other >= 0, dots[other], -1)
    clash[dotted] = ((other_color >= 0) & (other_color != dots[dotted][:, None])) @ BITS
    return clash


NO_RULE = 64  # the part of the corner table of a dot: no corner rule, every link kept


def corner_table(partners: np.ndarray) -> np.ndarray:
    """The corner rule as one table: at [(pair mask * 16 + links made) * 16 + links open]
    (direction bits), the open links that pair with a made one straight or in a turn that
    is not out, or, with none made, with another open one (a fixed point); at pair mask
    NO_RULE the open links all."""
    pair, made, open_ = np.meshgrid(np.arange(NO_RULE), np.arange(16), np.arange(16),
                                    indexing="ij")
    partner = partners.reshape(NO_RULE, 16)
    alone = open_.copy()
    for _ in range(len(WAYS)):  # each step removes a direction or none
        alone &= partner[pair, alone]
    table = np.where(made > 0, open_ & partner[pair, made], alone)
    return np.concatenate([table.ravel(), np.tile(np.arange(16), 16)])


def next_frontier(u: np.ndarray, v: np.ndarray, changed: np.ndarray, undecided: np.ndarray,
                  made: np.ndarray, need: np.ndarray, stamp: np.ndarray) -> np.ndarray:
    """The nodes of the links just decided that still have undecided links (counted down in
    `undecided`); one left with no links to make and fewer than it needs is a
    contradiction."""
    ends = np.concatenate([u[changed], v[changed]])
    np.subtract.at(undecided, ends, 1)
    ends = distinct(ends, stamp)
    done = undecided[ends] == 0
    if (made[ends[done]] < need[ends[done]]).any():
        raise Contradiction
    return ends[~done]


def distinct(values: np.ndarray, stamp: np.ndarray) -> np.ndarray:
    """The values without repeats, in linear time (no sort): `stamp` is scratch space as
    long as the largest value."""
    at = np.arange(len(values))
    stamp[values] = at
    return values[stamp[values] == at]


def squares(width: int, ways: np.ndarray, state: np.ndarray, first: np.ndarray,
            second: np.ndarray, stamp: np.ndarray) -> np.ndarray:
    """The 2x2 squares beside new links (their first and second nodes, on a square board
    `width` wide): three links made are a contradiction, two close the others. The links
    closed, each once (`stamp`: scratch space as long as the links)."""
    flat, n = ways.ravel(), len(WAYS)  # ways[x, k] is flat[x * n + k]
    a, b = np.repeat(first, 2), np.repeat(second, 2)  # each new link's two sides
    across = b == a + 1
    side = np.where(across, 0, 2) + (np.arange(len(a)) & 1)  # up, down / left, right
    ea, eb = flat[a * n + side], flat[b * n + side]  # the links from a and b to that side
    ok = (ea >= 0) & (eb >= 0)
    ea, eb, a, across, side = ea[ok], eb[ok], a[ok], across[ok], side[ok]
    # the side's link along, from a's neighbor that side (a step on the flat board: no
    # gather from the links' ends, which are far apart in memory on a large board)
    far = flat[(a + np.array([-width, width, -1, 1])[side]) * n + np.where(across, 3, 1)]
    ok = far >= 0
    square = ea[ok], eb[ok], far[ok]
    now = [state[links] for links in square]
    made = sum(s == ON for s in now)
    if (made >= 2).any():
        raise Contradiction
    two = made == 1
    closed = distinct(np.concatenate([links[two & (s == UNDECIDED)]
                                      for links, s in zip(square, now, strict=True)]), stamp)
    state[closed] = OFF
    return closed


def links_in(ends: np.ndarray, state: np.ndarray, value: int) -> np.ndarray:
    """The rows of `ends` (the links' two nodes) whose link is in that state (`compress`: a
    fraction of the time of a boolean index of rows)."""
    return np.compress(state == value, ends, axis=0)


def chains(size: int, ends: np.ndarray, start: np.ndarray | None = None) -> np.ndarray:
    """Each node's component along the made links (the smallest node in it): hook every link's
    larger label under its smaller, then jump pointers, until the links agree. `start`: the
    labels of some of these links' components (each node's no larger than the node, in its
    component), as `chain_ends` leaves them: only the links made since are hooked."""
    label = np.arange(size) if start is None else start.copy()
    u, v = ends[:, 0], ends[:, 1]
    while True:
        lu, lv = label[u], label[v]
        apart = lu != lv
        if not apart.any():
            return label
        low, high = np.minimum(lu[apart], lv[apart]), np.maximum(lu[apart], lv[apart])
        np.minimum.at(label, high, low)
        while True:
            jumped = label[label]
            if (jumped == label).all():
                break
            label = jumped


def chain_ends(enc: Encoder, state: np.ndarray, made: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The made links as chains: each node's other chain end (itself when alone; right at the
    ends only), each chain's color (-1 unknown), by node, and each node's chain (`chains`).
    A cycle, or two colors on one chain, is a contradiction."""
    size, on_board = enc.size, enc.graph.on_array
    ends = links_in(enc.graph.edge_array, state, ON)
    label = chains(size, ends)
    links = np.bincount(label[ends[:, 0]], minlength=size)
    nodes = np.bincount(label[on_board.nonzero()[0]], minlength=size)
    if (links[links > 0] >= nodes[links > 0]).any():
        raise Contradiction
    dots = enc.dots
    dotted = np.flatnonzero(dots >= 0)
    color = np.full(size, -1, dtype=np.int64)
    color[label[dotted]] = dots[dotted]
    if (color[label[dotted]] != dots[dotted]).any():
        raise Contradiction
    other = np.arange(size)
    tips = np.flatnonzero((made == 1) & on_board)
    tips = tips[np.argsort(label[tips], kind="stable")]
    a, b = tips[0::2], tips[1::2]
    other[a], other[b] = b, a
    return other, color[label], label
