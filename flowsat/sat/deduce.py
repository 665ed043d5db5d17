"""Propagation first: the links every solution makes or leaves out, found before encoding.

The links of the encoder's graph (bridges as two passes; every kind of board) start undecided;
a worklist of nodes is revisited until nothing changes, each visit applying the rules that
hold under the puzzle's rules:

- degree: a dot makes one link, a cell two (with fill-all off: none or two); a node with as
  many possible links as it needs makes them all, one with as many links as it needs makes no
  other;
- chains: the links made so far form chains (kept by their two ends and their color, known
  once a dot is on them); a link that would close a chain into a cycle, or join two chains of
  different colors, or reach a node with all its links, is left out;
- no self-touch (without `self_touch`): two cells linked to a third and next to each other
  touch, so a cell linked to u makes no link to a neighbor of u (triangles: hexagonal boards,
  warps three wide); a 2x2 square of four links holds at most two of them (three put its
  four cells on one path, with an unlinked side between two of them);
- corners (square boards without walls, bridges or warps, fill-all on, no self-touch): where
  a path turns, the cell diagonally inside the turn is a dot, a hole, or turns the same way
  (the search backend's corner rule, `flowsat.search.links.Links.turns`); walking inwards the
  diagonal must meet a dot or a hole before the edge, so a turn whose diagonal meets neither
  is out: a cell keeps a link only if another of its possible links pairs with it straight
  or in a turn that is not out.

Every rule only removes what no solution has, so a node that cannot get its links is a proof
that the puzzle has no solution (`Contradiction`). With every link decided the links are the
only candidate solution, which still has to pass the touch rule as a whole.

Along a spiral one forced link forces the next, so the rules run on a worklist over flat
lists (one visit per change near a node), not in rounds over the whole board.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

from flowsat.deadline import Timeout
from flowsat.puzzle.board import Board
from flowsat.puzzle.rules import Rules
from flowsat.sat import bulk
from flowsat.sat.bulk import OFF, ON, UNDECIDED, WAYS, Contradiction
from flowsat.sat.encoder import DOWN, LEFT, RIGHT, UP, Encoder

# The residue goes to the solver alone (`flowsat.sat.residue`) when at most this share of the
# links is undecided; else the encoding goes, with the forced links as units: a large
# residue's chain colors and lazy cycle cuts solve far slower than the encodings (40x20
# boards: seconds instead of milliseconds).
RESIDUE_SHARE = 0.1
BULK_FROM = 10_000  # nodes: boards from this size start with numpy rounds (`bulk`)
CLOCK_EVERY = 1024  # visits between two looks at the deadline


class Deduced(NamedTuple):
    """Each link's state (`UNDECIDED`, `ON`, `OFF`, in the order of the encoder's edges), or
    None when the board has no solution."""

    state: np.ndarray | None

    @property
    def unsolvable(self) -> bool:
        return self.state is None

    def counts(self) -> dict[str, int]:
        return {} if self.state is None else counts(self.state)


def counts(state: np.ndarray) -> dict[str, int]:
    """How many links propagation made and left out, and how many it left to the solver."""
    made = np.bincount(state, minlength=3)
    return {"forced_on": int(made[ON]), "forced_off": int(made[OFF]),
            "undecided": int(made[UNDECIDED])}


def deduce(enc: Encoder) -> Deduced:
    """The links the puzzle forces (see the module docstring)."""
    p = propagated(enc)
    return Deduced(None if p is None else np.frombuffer(p.state, dtype=np.uint8))


def propagated(enc: Encoder, deadline: float | None = None) -> Propagation | None:
    """The finished propagation of the puzzle, None on a contradiction (Timeout past the
    deadline, a `time.perf_counter()` time)."""
    p = Propagation(enc, deadline)
    try:
        p.run()
    except Contradiction:
        return None
    return p


def corners_hold(board: Board, rules: Rules) -> bool:
    """Whether the corner rule is proved for a board under the rules (and so the numpy rounds
    run on a large one)."""
    return (board.shape == "square" and not (board.walls or board.bridges or board.wrap)
            and rules.fill_all and not rules.self_touch)


def has_triangles(enc: Encoder) -> bool:
    """Whether three nodes of the graph can be neighbors of each other."""
    board = enc.board
    return board.shape == "hex" or (board.wrap and min(board.width, board.height) == 3)


PAIRS = ((0, 1), (2, 3), (0, 2), (0, 3), (1, 2), (1, 3))  # bit k of a pair mask: PAIRS[k]


def blind(enc: Encoder) -> dict[tuple[int, int], np.ndarray]:
    """For each turn, named by its inside diagonal (dr, dc), the cells where that diagonal
    meets no dot nor hole before the edge of the board. The board is flipped so that the
    diagonal runs down and right, and padded with h empty columns: a step down it is then a
    step of w + h + 1 in the flat board, and the flat board cut into rows that long has each
    diagonal in a column, which is read backwards in log2(h) steps of doubling length (numpy's
    `accumulate` down a column takes 5x as long on a 1002x1002 board)."""
    h, w = enc.height, enc.width
    stop = ~enc.graph.on_array[:h * w].reshape(h, w) | (enc.dots[:h * w] >= 0).reshape(h, w)
    step = w + h + 1
    found = {}
    for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        flat = np.zeros((h + 1) * step, dtype=bool)
        flat[:h * (w + h)].reshape(h, w + h)[:, :w] = stop[::dr, ::dc]
        lines, k = flat.reshape(h + 1, step), 1
        while k < h:  # a stop here or up to 2k - 1 steps further (2k >= h: all)
            lines[:-k] |= lines[k:]
            k *= 2
        sees = flat[step:step + h * (w + h)].reshape(h, w + h)[:, :w]  # one step on
        found[(dr, dc)] = ~sees[::dr, ::dc].ravel()
    return found


def pair_masks(enc: Encoder) -> np.ndarray:
    """Each cell's pairs of directions (bits of PAIRS) its two links may take: straight, or a
    turn that is not out."""
    turns = blind(enc)
    mask = np.zeros(enc.size, dtype=np.int8)  # six bits: a byte a cell
    for k, (a, b) in enumerate(PAIRS):
        da, db = WAYS[a], WAYS[b]
        diagonal = (da[0] + db[0], da[1] + db[1])
        allowed = ~turns[diagonal] if diagonal in turns else np.ones(enc.size, dtype=bool)
        mask |= allowed.astype(np.int8) << k
    return mask


def partner_table() -> list[list[int]]:
    """[pair mask][direction mask]: the directions that pair with another of the mask."""
    table = []
    for pairs in range(1 << len(PAIRS)):
        row = []
        for ways in range(16):
            found = 0
            for k, (a, b) in enumerate(PAIRS):
                if pairs >> k & 1:
                    if ways >> b & 1:
                        found |= 1 << a
                    if ways >> a & 1:
                        found |= 1 << b
            row.append(found)
        table.append(row)
    return table


class Propagation:
    """The state of the links and chains while the worklist runs."""

    def __init__(self, enc: Encoder, deadline: float | None = None):
        g, rules = enc.graph, enc.rules
        self.enc, self.deadline = enc, deadline
        corners = corners_hold(enc.board, enc.rules)
        self.bulk = corners and enc.size >= BULK_FROM
        # the worklist's tables: Python lists, or, where the numpy rounds leave it a few
        # nodes to visit, the arrays themselves (made once, read a few thousand times)
        table = (lambda a: a) if self.bulk else (lambda a: a.tolist())
        self.u, self.v = table(g.edge_array[:, 0]), table(g.edge_array[:, 1])
        # padded with -1; after the numpy rounds, which may refute the board without it
        self.incident = None if self.bulk else table(g.incident_rows)
        self.state = bytearray(len(g.edge_array))
        # links made at each node and needed, a chain end's other end and color (-1 unknown)
        if self.bulk:
            self.made, self.need = np.zeros(enc.size, dtype=np.int64), np.where(enc.dots >= 0, 1, 2)
            self.other = self.color = None  # the rounds' chains' (`bulk.chain_ends`)
        else:
            self.made, self.need = [0] * enc.size, [1 if d >= 0 else 2 for d in enc.dot]
            self.other, self.color = list(range(enc.size)), list(enc.dot)
        self.chain = None  # each node's chain after the numpy rounds (`bulk.chains`)
        self.linked: list[int] = []  # the links the worklist made (grow `chain`: residue)
        self.optional = not rules.fill_all  # cells may stay empty
        self.touch = not rules.self_touch
        self.neighbors = g.neighbors if self.touch and has_triangles(enc) else None
        square = self.touch and enc.board.shape == "square"
        self.ways = ({d: table(g.toward_edge[d]) for d in (UP, DOWN, LEFT, RIGHT)}
                     if square else None)
        self.pairs = table(pair_masks(enc)) if corners else None
        self.partners = partner_table() if corners else None
        self.by_way = [self.ways[d] for d in WAYS] if corners else None
        self.todo = [] if self.bulk else list(enc.nodes)  # the bulk phase sets its own
        self.queued = bytearray(enc.size)
        for i in self.todo:
            self.queued[i] = 1

    def run(self) -> bytearray:
        """Visit nodes until no rule changes anything; the links' states. On a large board
        where the corner rule holds, rounds of numpy steps decide most links first
        (`flowsat.sat.bulk`)."""
        if self.bulk:
            self.rounds_first()
        todo, visit, queued = self.todo, self.visit, self.queued
        visits = 0
        while todo:
            x = todo.pop()
            queued[x] = 0
            visit(x)
            visits += 1
            if not visits % CLOCK_EVERY:
                self.on_time()
        return self.state

    def on_time(self) -> None:
        """Timeout once the deadline has passed (a clock of its own: the timer's signal can
        be lost in a garbage collector's callback, and this loop makes much garbage)."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise Timeout

    def rounds_first(self) -> None:
        """The bulk phase, then its links as chains, and the worklist set to the nodes with
        links left undecided and the last frontier."""
        g = self.enc.graph
        state = np.zeros(len(self.state), dtype=np.uint8)
        ways = self.enc.board.link_ways  # no bridges: the board's links are the graph's
        frontier = bulk.rounds(self.enc, ways, self.pairs, np.asarray(self.partners).ravel(),
                               state, self.made, self.need, self.on_time)
        self.other, self.color, self.chain = bulk.chain_ends(self.enc, state, self.made)
        self.incident = g.incident_rows
        self.state = bytearray(state.tobytes())
        # the rounds left every node stable under their rules but the last frontier's: what
        # the worklist adds is the chains' (no cycle, one color), which only bite at the
        # ends of an undecided link that would close a chain or join two colors
        a, b = bulk.links_in(g.edge_array, state, UNDECIDED).T
        ca, cb = self.color[a], self.color[b]
        bite = (self.other[a] == b) | ((ca >= 0) & (cb >= 0) & (ca != cb))
        todo = np.unique(np.concatenate([a[bite], b[bite], frontier]))
        queued = np.zeros(self.enc.size, dtype=np.uint8)
        queued[todo] = 1
        self.todo, self.queued = todo.tolist(), bytearray(queued.tobytes())

    def visit(self, x: int) -> None:
        """Apply the rules at node x."""
        state, made, need = self.state, self.made[x], self.need[x]
        open_ = []
        for e in self.incident[x]:
            if e < 0:
                break
            if state[e] == UNDECIDED:
                open_.append(e)
        if not open_:
            if made < need and not (made == 0 and self.optional and self.enc.dot[x] < 0):
                raise Contradiction
            return
        if made >= need:
            for e in open_:
                self.close(e)
            return
        keep = [e for e in open_ if self.possible(x, e)]
        if self.pairs is not None and self.enc.dot[x] < 0:
            keep = self.paired(x, keep)
        for e in open_:
            if e not in keep:
                self.close(e)
        if made + len(keep) < need:
            if made == 0 and self.optional and self.enc.dot[x] < 0:
                for e in keep:  # an empty cell
                    self.close(e)
                return
            raise Contradiction
        if made + len(keep) == need and not (made == 0 and self.optional
                                             and self.enc.dot[x] < 0):
            for e in keep:
                self.link(e)

    def possible(self, x: int, e: int) -> bool:
        """Whether undecided link e of node x (which has fewer links than it needs) may be
        made."""
        y = self.u[e] ^ self.v[e] ^ x
        if self.made[y] >= self.need[y] or self.other[x] == y:
            return False
        cx, cy = self.color[x], self.color[y]
        if cx >= 0 and cy >= 0 and cx != cy:
            return False
        if self.neighbors is not None and self.made[x]:  # x's linked neighbors next to y
            state, near = self.state, self.neighbors[y]
            for f in self.incident[x]:
                if f >= 0 and state[f] == ON and (self.u[f] ^ self.v[f] ^ x) in near:
                    return False
        return True

    def paired(self, x: int, keep: list[int]) -> list[int]:
        """The links of cell x that pair with another possible one straight or in a turn
        that is not out (the corner rule)."""
        state, made, open_ = self.state, 0, 0
        for k, way in enumerate(self.by_way):
            e = way[x]
            if e >= 0:
                if state[e] == ON:
                    made |= 1 << k
                elif e in keep:
                    open_ |= 1 << k
        partners = self.partners[self.pairs[x]]
        if made:
            left = open_ & partners[made]
        else:
            left = open_
            while (fewer := left & partners[left]) != left:
                left = fewer
        if left == open_:
            return keep
        return [self.by_way[k][x] for k in range(4) if left >> k & 1]

    def close(self, e: int) -> None:
        self.state[e] = OFF
        self.push(self.u[e])
        self.push(self.v[e])

    def push(self, x: int) -> None:
        if not self.queued[x]:
            self.queued[x] = 1
            self.todo.append(x)

    def link(self, e: int) -> None:
        """Make link e: join the chains of its ends (a cycle or two colors: no solution)."""
        u, v, other, color = self.u[e], self.v[e], self.other, self.color
        if self.state[e] == OFF:  # closed by a square while its node needed all its links
            raise Contradiction
        if other[u] == v:
            raise Contradiction
        cu, cv = color[u], color[v]
        if cu >= 0 and cv >= 0 and cu != cv:
            raise Contradiction
        a, b = other[u], other[v]
        other[a], other[b] = b, a
        color[a] = color[b] = cu if cu >= 0 else cv
        self.state[e] = ON
        self.linked.append(e)
        self.made[u] += 1
        self.made[v] += 1
        for x in (u, v, a, b):
            self.push(x)
        if self.ways is not None:
            self.squares(e, u, v)

    def squares(self, e: int, u: int, v: int) -> None:
        """The 2x2 squares beside the new link e = u-v: two links made close the others,
        three put four cells of one path around a side they do not link."""
        ways, state, ends_u, ends_v = self.ways, self.state, self.u, self.v
        if ways[RIGHT][u] == e or ways[LEFT][u] == e:
            sides, along = (UP, DOWN), RIGHT
        elif ways[DOWN][u] == e or ways[UP][u] == e:
            sides, along = (LEFT, RIGHT), DOWN
        else:  # a bridge's pass
            return
        a, b = (u, v) if ways[along][u] == e else (v, u)
        for side in sides:
            ea, eb = ways[side][a], ways[side][b]
            if ea < 0 or eb < 0:
                continue
            a2, b2 = ends_u[ea] ^ ends_v[ea] ^ a, ends_u[eb] ^ ends_v[eb] ^ b
            far = ways[along][a2]
            if far < 0 or ends_u[far] ^ ends_v[far] ^ a2 != b2:
                continue
            square = (ea, eb, far)
            made = (state[ea] == ON) + (state[eb] == ON) + (state[far] == ON)
            if made >= 2:
                raise Contradiction
            if made == 1:
                for f in square:
                    if state[f] == UNDECIDED:
                        self.close(f)
