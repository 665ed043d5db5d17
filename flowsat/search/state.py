"""The search's states and the moves between them.

A state holds the free cells and, for each flow, its two open ends: the head, which the search
moves, and the tail, which starts at the goal dot and is only ever extended by deduction (a
link every solution makes). It also holds the open ends of the flows not yet complete as one
mask, which flows are complete, the last color moved and the cost so far. `Moves` knows the
board, the dots and the rules, and makes moves on states in place.
"""

from __future__ import annotations

from flowsat.puzzle.model import Paths
from flowsat.puzzle.rules import DEFAULT_RULES, Rules
from flowsat.search.board import Board, indices

Move = tuple[int, int, bool]  # color, cell, at the tail


class State:
    """A partly drawn board (mutated only while it is being built by `settle`)."""

    __slots__ = ("dirty", "done", "drawn", "ends", "free", "g", "heads", "last", "links",
                 "moves", "near", "parent", "regions", "tails")

    def __init__(self, free: int, heads: list[int], tails: list[int], near: list[int],
                 drawn: tuple[int, int], ends: int, done: int, last: int, g: int,
                 parent: State | None, moves: list[Move], regions: list[int]):
        self.free, self.heads, self.tails, self.ends, self.done = free, heads, tails, ends, done
        self.near = near  # per flow: the cells next to its inner cells (no-self-touch only)
        self.drawn = drawn  # the links drawn so far, horizontal and vertical (see `Links`)
        self.last, self.g, self.parent, self.moves = last, g, parent, moves
        self.regions = regions  # the connected components of free, as masks
        self.links: tuple[int, ...] | None = None  # see `Links.propagate`
        self.dirty = 0  # the flows moved since `links` was found, as a mask

    def child(self) -> State:
        """A copy to make a move in; it points back to this state."""
        child = State(self.free, self.heads[:], self.tails[:], self.near[:], self.drawn,
                      self.ends, self.done, self.last, self.g, self, [], self.regions)
        child.links = self.links
        return child


class Moves:
    """The dots, the rules and the hint of a puzzle on a board, and the moves they allow
    (colors are numbers 0..k-1)."""

    def __init__(self, board: Board, starts: list[int], goals: list[int], priority: list[int],
                 rules: Rules = DEFAULT_RULES, user_order: bool = False,
                 hint: dict[int, int] | None = None):
        self.board, self.starts, self.goals = board, starts, goals
        self.fill_all = fill_all = rules.fill_all  # every cell filled, or cells may stay empty
        # with cells left empty, for each flow: each cell's steps from its goal dot
        self.apart = [] if fill_all else [steps_from(board, g) for g in goals]
        self.priority, self.user_order = priority, user_order  # colors, first tried first
        self.all_done = (1 << len(starts)) - 1
        self.touch = not rules.self_touch
        self.dots = sum(1 << i for i in starts + goals)
        # hint: cell -> color; a hinted cell is closed to every other color and preferred by
        # its own color
        self.hinted = [0] * len(starts)
        for i, color in (hint or {}).items():
            self.hinted[color] |= 1 << i
        any_hint = sum(self.hinted)
        self.closed = [any_hint & ~mine for mine in self.hinted]
        self.served_for: State | None = None  # the state `served` was last found for
        self.served_found: list[int] = []

    # --- states --------------------------------------------------------------------------

    def start(self) -> State:
        """The board with only the dots (and, without self-touch, adjacent pairs joined)."""
        dots = self.dots
        free = self.board.all & ~dots
        k = len(self.starts)
        state = State(free, list(self.starts), list(self.goals), [0] * k, (0, 0), dots, 0, -1,
                      0, None, [], self.board.regions(free))
        if self.touch:  # two adjacent dots of a color can only be joined directly
            for c, (s, g) in enumerate(zip(self.starts, self.goals, strict=True)):
                if self.board.nbrs[s] >> g & 1:
                    self.apply(state, c, g)
            state.last = -1
        return state

    def paths(self, s: State) -> Paths:
        """Each color's cells from its start dot to its goal dot, by the moves that led to s
        (a flow not complete: its head's part, then its tail's)."""
        chain = []
        while s is not None:
            chain.append(s.moves)
            s = s.parent
        k = len(self.starts)
        heads = {c: [self.starts[c]] for c in range(k)}
        tails = {c: [self.goals[c]] for c in range(k)}
        for moves in reversed(chain):
            for c, x, at_tail in moves:
                (tails if at_tail else heads)[c].append(x)
        cell = self.board.cell
        paths = {}
        for c in range(k):
            back = tails[c][::-1]
            if heads[c][-1] == back[0]:
                back = back[1:]
            paths[c] = [cell[i] for i in heads[c] + back]
        return paths

    # --- moves ---------------------------------------------------------------------------

    def apply(self, s: State, c: int, x: int) -> None:
        """Extend color c's head into cell x, in place; completing the flow when x is its tail
        or (under the no-self-touch rule) next to it."""
        self.step(s, c, x, at_tail=False)
        s.last = c
        t = s.tails[c]
        if x == t:
            s.done |= 1 << c
        elif self.touch and self.board.nbrs[x] >> t & 1:
            self.apply(s, c, t)

    def extend(self, s: State, c: int, x: int) -> None:
        """Extend color c's tail into the free cell x, in place (joining as `apply` does)."""
        self.step(s, c, x, at_tail=True)
        if self.touch and self.board.nbrs[x] >> s.heads[c] & 1:
            self.apply(s, c, x)

    def step(self, s: State, c: int, x: int, at_tail: bool) -> None:
        """Move color c's head or tail into cell x, in place."""
        ends = s.tails if at_tail else s.heads
        b, e = 1 << x, ends[c]
        if s.free & b:
            s.regions = self.board.carve(s.regions, s.free, x)
            s.free ^= b
        if self.touch:
            s.near[c] |= self.board.nbrs[e]
            s.drawn = self.draw(s.drawn, e, x)
        s.ends ^= (1 << e) | b
        ends[c] = x
        s.dirty |= 1 << c
        s.moves.append((c, x, at_tail))

    def draw(self, drawn: tuple[int, int], x: int, y: int) -> tuple[int, int]:
        """The drawn links and the one between the neighbors x and y."""
        h, v = drawn
        if abs(x - y) == 1:
            return h | 1 << min(x, y), v
        return h, v | 1 << min(x, y)

    def legal(self, s: State, c: int) -> int:
        """The cells color c's head may move into, as a mask."""
        cand = self.board.nbrs[s.heads[c]] & (s.free | 1 << s.tails[c]) & ~self.closed[c]
        if cand & self.hinted[c]:
            cand &= self.hinted[c]
        return cand & ~s.near[c]  # not next to its own path, but for its ends

    def choose(self, s: State) -> int:
        """The color to move: the last one moved until it is complete, then the most
        constrained (fewest free cells around its head), ties in priority order."""
        done = s.done
        if s.last >= 0 and not done >> s.last & 1:
            return s.last
        nbrs, free, heads = self.board.nbrs, s.free, s.heads
        best, fewest = -1, len(nbrs)  # more than any cell's neighbors
        for c in self.priority:
            if not done >> c & 1:
                if self.user_order:
                    return c
                n = (nbrs[heads[c]] & free).bit_count()
                if n < fewest:
                    best, fewest = c, n
        return best

    # --- flows and regions ---------------------------------------------------------------

    def joined(self, s: State, c: int) -> bool:
        """Whether flow c can end without another free cell (its head is next to its tail)."""
        return not self.touch and bool(self.board.nbrs[s.heads[c]] >> s.tails[c] & 1)

    def joinable(self, s: State) -> int:
        """The flows that may end without another free cell, as a mask."""
        if self.touch:
            return 0
        nbrs = self.board.nbrs
        return sum(1 << c for c, h in enumerate(s.heads)
                   if not s.done >> c & 1 and nbrs[h] >> s.tails[c] & 1)

    def served(self, s: State) -> list[int]:
        """For each region of free space, the flows whose head and tail both touch it (found
        once per state and round of checks: `served_for` is reset when s may have changed)."""
        if self.served_for is s:
            return self.served_found
        board, heads, tails, done = self.board, s.heads, s.tails, s.done
        incomplete = [c for c in self.priority if not done >> c & 1]
        found = []
        for region in s.regions:
            around = board.dilate(region)
            ok = 0
            for c in incomplete:
                if around >> heads[c] & 1 and around >> tails[c] & 1:
                    ok |= 1 << c
            found.append(ok)
        self.served_for, self.served_found = s, found
        return found


def steps_from(board: Board, x: int) -> list[int]:
    """Each cell's number of steps from cell x through the board's open links (0 for the cells
    x cannot reach), flood-filled layer by layer."""
    steps = [0] * len(board.nbrs)
    seen = layer = 1 << x
    n = 0
    while layer:
        for i in indices(layer):
            steps[i] = n
        n += 1
        layer = board.spread(layer) & ~seen
        seen |= layer
    return steps
