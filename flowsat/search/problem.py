"""The search problem: partly drawn boards, their successors, checks, forced moves and goal.

A state holds the free cells, each flow's head and body, the open ends (heads and goal dots of
the flows not yet complete), which flows are complete, the last color moved and the cost so far.
Only one color moves from a state (the last one moved until it is complete, then the most
constrained), so no state is reached twice by reordering moves. Successors pass through
`settle`: the checks, cheapest first, then any forced move, applied in place (fast-forward) and
checked again, so a chain of forced moves never enters the queue and is dropped whole when one
of its states fails a check.

Every deduction is sound in the rule mode it runs in: it prunes a state only when no solution
extends it, and forces a move only when every solution extending the state makes it.
"""

from __future__ import annotations

from dataclasses import dataclass

from flowsat.puzzle.model import Paths
from flowsat.search.board import Board, indices


@dataclass(frozen=True)
class Switches:
    """What the search does; see `flowsat.search.PRESETS` for the defaults."""

    allow_self_touch: bool = False
    deadends: bool = True  # prune a free cell with at most one open neighbor
    stranded: bool = True  # prune a flow cut off from its goal, or free space no flow can fill
    bottleneck: int = 3  # prune a line of <= N free cells from the last head that cuts > N flows
    parity: bool = True  # prune a region whose black/white balance its flows cannot make
    links: bool = True  # links every cell must make (degree 2, ends 1), propagated
    queue_always: bool = False  # forced moves go through the queue (no fast-forward)


class State:
    """A partly drawn board (mutated only while it is being built by `settle`)."""

    __slots__ = ("bodies", "done", "ends", "free", "g", "heads", "last", "moves", "parent",
                 "regions")

    def __init__(self, free: int, heads: list[int], bodies: list[int], ends: int, done: int,
                 last: int, g: int, parent: State | None, moves: list[tuple[int, int]],
                 regions: list[int]):
        self.free, self.heads, self.bodies, self.ends, self.done = free, heads, bodies, ends, done
        self.last, self.g, self.parent, self.moves = last, g, parent, moves
        self.regions = regions  # the connected components of free, as masks

    def child(self) -> State:
        """A copy to make a move in; it points back to this state."""
        return State(self.free, self.heads[:], self.bodies[:], self.ends, self.done, self.last,
                     self.g, self, [], self.regions)


class FlowProblem:
    """A puzzle as a search problem over `State`s (colors are numbers 0..k-1)."""

    def __init__(self, board: Board, starts: list[int], goals: list[int], priority: list[int],
                 switches: Switches, user_order: bool = False,
                 hint: dict[int, int] | None = None):
        self.board, self.starts, self.goals, self.sw = board, starts, goals, switches
        self.priority, self.user_order = priority, user_order  # colors, first tried first
        self.goalbit = [1 << g for g in goals]
        self.all_done = (1 << len(starts)) - 1
        self.touch = not switches.allow_self_touch
        self.black = sum(1 << i for i, (r, c) in board.cell.items() if (r + c) % 2 == 0)
        self.stats = {"forced": 0, "pruned_deadend": 0, "pruned_stranded": 0,
                      "pruned_bottleneck": 0, "pruned_parity": 0, "pruned_blocked": 0,
                      "pruned_links": 0}
        self.sure = None  # (state, horizontal, vertical): the sure links found by propagate
        # hint: cell -> color; a hinted cell is closed to every other color and preferred by
        # its own color
        self.hinted = [0] * len(starts)
        for i, color in (hint or {}).items():
            self.hinted[color] |= 1 << i
        any_hint = sum(self.hinted)
        self.closed = [any_hint & ~mine for mine in self.hinted]

    # --- states --------------------------------------------------------------------------

    def initial(self) -> State | None:
        """The board with only the dots, settled (None when it fails a check at once)."""
        return self.settle(self.start())

    def start(self) -> State:
        """The board with only the dots (and, without self-touch, adjacent pairs joined)."""
        dots = sum(1 << i for i in self.starts + self.goals)
        free = self.board.all & ~dots
        state = State(free, list(self.starts), [1 << i for i in self.starts], dots, 0, -1, 0,
                      None, [], self.board.regions(free))
        if self.touch:  # two adjacent dots of a color can only be joined directly
            for c, (s, g) in enumerate(zip(self.starts, self.goals, strict=True)):
                if self.board.nbrs[s] >> g & 1:
                    self.apply(state, c, g)
            state.last = -1
        return state

    def is_goal(self, s: State) -> bool:
        return s.free == 0 and s.done == self.all_done

    def priority_of(self, s: State) -> int:
        """Cost so far plus free cells left (lower is expanded first)."""
        return s.g + s.free.bit_count()

    def paths(self, s: State) -> Paths:
        """Each color's cells from its start dot, by the moves that led to s."""
        chain = []
        while s is not None:
            chain.append(s.moves)
            s = s.parent
        paths = {c: [self.starts[c]] for c in range(len(self.starts))}
        for moves in reversed(chain):
            for c, x in moves:
                paths[c].append(x)
        cell = self.board.cell
        return {c: [cell[i] for i in path] for c, path in paths.items()}

    # --- moves ---------------------------------------------------------------------------

    def apply(self, s: State, c: int, x: int) -> None:
        """Extend color c into cell x, in place; completing the flow when x is its goal or
        (under the no-self-touch rule) next to it."""
        b = 1 << x
        if s.free & b:
            s.regions = self.board.carve(s.regions, s.free, x)
            s.free ^= b
        s.bodies[c] |= b
        s.ends ^= (1 << s.heads[c]) | b
        s.heads[c] = x
        s.moves.append((c, x))
        s.last = c
        goal = self.goals[c]
        if x == goal:
            s.done |= 1 << c
        elif self.touch and self.board.nbrs[x] >> goal & 1:
            self.apply(s, c, goal)

    def legal(self, s: State, c: int) -> int:
        """The cells color c may move into, as a mask."""
        h = s.heads[c]
        cand = self.board.nbrs[h] & (s.free | self.goalbit[c]) & ~self.closed[c]
        if cand & self.hinted[c]:
            cand &= self.hinted[c]
        if self.touch and cand:  # not next to its own body, but for the head
            cand &= ~self.board.spread(s.bodies[c] & ~(1 << h))
        return cand

    def choose(self, s: State) -> int:
        """The color to move: the last one moved until it is complete, then the most
        constrained (fewest free cells around its head), ties in priority order."""
        done = s.done
        if s.last >= 0 and not done >> s.last & 1:
            return s.last
        nbrs, free, heads = self.board.nbrs, s.free, s.heads
        best, fewest = -1, 5
        for c in self.priority:
            if not done >> c & 1:
                if self.user_order:
                    return c
                n = (nbrs[heads[c]] & free).bit_count()
                if n < fewest:
                    best, fewest = c, n
        return best

    def expand(self, s: State) -> list[State]:
        """The settled successors of s: each move of the chosen color (or, when forced moves
        go through the queue, the forced move alone)."""
        if self.sw.queue_always:
            forced = self.forced(s)
            if forced is False:
                return []
            if forced:
                child = s.child()
                self.apply(child, *forced)
                self.stats["forced"] += 1
                return [child] if self.checks(child) else []
        c = self.choose(s)
        if c < 0:  # every flow is complete, yet some cell is free
            return []
        children = []
        nbrs = self.board.nbrs
        legal = self.legal(s, c)
        for x in self.board.nbr_list[s.heads[c]]:
            if not legal >> x & 1:
                continue
            child = s.child()
            self.apply(child, c, x)
            if not child.done >> c & 1 and (nbrs[x] & child.free).bit_count() != 1:
                child.g += 1  # completing a flow or entering a one-way cell costs nothing
            child = self.settle(child)
            if child is not None:
                children.append(child)
        return children

    def settle(self, s: State) -> State | None:
        """s after its chain of forced moves, or None when a state of the chain fails."""
        while self.checks(s):
            if self.sw.queue_always:
                return s
            forced = self.forced(s)
            if forced is None:
                return s
            if forced is False:
                return None
            last = s.last  # a forced move does not change the color that moves next
            self.apply(s, *forced)
            if last >= 0 and not s.done >> last & 1:
                s.last = last
            self.stats["forced"] += 1
        return None

    # --- forced moves --------------------------------------------------------------------

    def forced(self, s: State) -> tuple[int, int] | bool | None:
        """A move every solution from s makes, None if there is none, False if some flow is
        blocked (so that s has no solution)."""
        heads, done = s.heads, s.done
        incomplete = [c for c in self.priority if not done >> c & 1]
        legal = {}
        for c in incomplete:  # a flow with a single move
            moves = legal[c] = self.legal(s, c)
            if not moves & (moves - 1):
                if not moves:
                    self.stats["pruned_blocked"] += 1
                    return False
                return c, moves.bit_length() - 1
        if self.sw.links and self.sure is not None and self.sure[0] is s:
            _, hs, vs = self.sure
            st = self.board.stride
            for c in incomplete:
                h = heads[c]
                for x in (h + 1, h - 1, h + st, h - st):
                    lo = min(h, x)
                    if lo >= 0 and (hs if abs(x - h) == 1 else vs) >> lo & 1:
                        if legal[c] >> x & 1:
                            return c, x
                        self.stats["pruned_blocked"] += 1
                        return False
        nbrs, free = self.board.nbrs, s.free
        open_ = free | s.ends
        for c in incomplete:  # a free cell next to a head with one other way out
            h = heads[c]
            others = open_ & ~(1 << h)
            if self.touch:
                others &= ~self.goalbit[c]  # next to c's body, the cell can only follow h
            way_out = free | self.goalbit[c]
            for x in self.board.nbr_list[h]:
                if not free >> x & 1:
                    continue
                ways = nbrs[x] & others
                if not ways & (ways - 1) and not ways & ~way_out:
                    if legal[c] >> x & 1:
                        return c, x
                    self.stats["pruned_blocked"] += 1
                    return False
        return None

    # --- checks --------------------------------------------------------------------------

    def checks(self, s: State) -> bool:
        """Whether s passes every check that is on, cheapest first."""
        sw = self.sw
        if sw.deadends and self.dead_end(s.free, s.ends):
            self.stats["pruned_deadend"] += 1
            return False
        if sw.links and not self.propagate(s):
            self.stats["pruned_links"] += 1
            return False
        if sw.stranded or sw.parity:
            served = self.served(s)
            if sw.stranded and not self.regions_ok(s, served):
                self.stats["pruned_stranded"] += 1
                return False
            if sw.parity and not self.parity_ok(s, served):
                self.stats["pruned_parity"] += 1
                return False
        if sw.bottleneck and s.last >= 0 and self.choked(s, sw.bottleneck):
            self.stats["pruned_bottleneck"] += 1
            return False
        return True

    def dead_end(self, free: int, ends: int) -> bool:
        """Some free cell has at most one open neighbor (free, or a head or goal of a flow
        not yet complete): a path could enter it but never leave."""
        st = self.board.stride
        o = free | ends
        a, b, c, d = o << 1, o >> 1, o << st, o >> st
        two = (a & b) | (c & d) | ((a | b) & (c | d))
        return bool(free & ~two)

    def joined(self, s: State, c: int) -> bool:
        """Whether flow c can end without another free cell (its head is next to its goal)."""
        return not self.touch and bool(self.board.nbrs[s.heads[c]] & self.goalbit[c])

    def served(self, s: State) -> list[int]:
        """For each region of free space, the flows whose head and goal both touch it."""
        board, heads, goals, done = self.board, s.heads, self.goals, s.done
        incomplete = [c for c in self.priority if not done >> c & 1]
        found = []
        for region in s.regions:
            around = board.dilate(region)
            ok = 0
            for c in incomplete:
                if around >> heads[c] & 1 and around >> goals[c] & 1:
                    ok |= 1 << c
            found.append(ok)
        return found

    def regions_ok(self, s: State, served: list[int]) -> bool:
        """Every region is served by some flow (else no path can fill it), and every flow not
        complete by some region (else it is cut off from its goal)."""
        if not all(served):
            return False
        every = 0
        for ok in served:
            every |= ok
        return all(every >> c & 1 or self.joined(s, c)
                   for c in self.priority if not s.done >> c & 1)

    def parity_ok(self, s: State, served: list[int]) -> bool:
        """Checkerboard parity: a path alternates black and white cells, so the free cells a
        flow fills have one more black than white when both its ends are white, one more
        white when both are black, as many when they differ. Each region's surplus of black
        cells must be the sum over the flows that fill it: those it alone serves must, the
        others may."""
        black, heads, goals = self.black, s.heads, self.goals
        seen = twice = 0
        for ok in served:
            twice |= seen & ok
            seen |= ok
        for region, ok in zip(s.regions, served, strict=True):
            surplus = 2 * (region & black).bit_count() - region.bit_count()
            low = high = 0
            optional = twice | self.joinable(s)
            for c in indices(ok):
                e = 1 - (black >> heads[c] & 1) - (black >> goals[c] & 1)
                if optional >> c & 1:
                    low, high = low + min(e, 0), high + max(e, 0)
                else:
                    low, high = low + e, high + e
            if not low <= surplus <= high:
                return False
        return True

    def joinable(self, s: State) -> int:
        """The flows that may end without another free cell, as a mask."""
        if self.touch:
            return 0
        nbrs, goalbit = self.board.nbrs, self.goalbit
        return sum(1 << c for c, h in enumerate(s.heads)
                   if not s.done >> c & 1 and nbrs[h] & goalbit[c])

    def choked(self, s: State, limit: int) -> bool:
        """A line of n <= limit free cells from the last head to a wall or filled cell whose
        filling would cut more than n other flows from their goals: those flows must each
        cross the line at a cell of their own, and there are only n."""
        board, free, h = self.board, s.free, s.heads[s.last]
        others = [c for c in self.priority if not s.done >> c & 1 and c != s.last
                  and not self.joined(s, c)]
        for step in board.steps:
            x = step[h]
            line, n = 0, 0
            while x >= 0 and free >> x & 1 and n < limit:
                line |= 1 << x
                n += 1
                x = step[x]
            if n and (x < 0 or not free >> x & 1) and len(others) > n \
                    and self.cut_off(s, line, others) > n:
                return True
        return False

    def cut_off(self, s: State, line: int, colors: list[int]) -> int:
        """How many of the colors have no region touching both their ends once the cells of
        the line are filled."""
        board, heads, goals = self.board, s.heads, self.goals
        regions = []
        for r in s.regions:
            if r & line:
                regions += board.regions(r & ~line) if line & (line - 1) else \
                    board.carve([r], s.free, line.bit_length() - 1)
            else:
                regions.append(r)
        around = [board.dilate(r) for r in regions]
        return sum(1 for c in colors
                   if not any(a >> heads[c] & 1 and a >> goals[c] & 1 for a in around))

    def propagate(self, s: State) -> bool:
        """Links between open cells (free cells need two, open ends one): a cell with as many
        possible links as it needs makes them all, a cell with enough sure links makes no
        other; to a fixpoint. False when some cell cannot get what it needs, or a chain of
        sure links joins the ends of two flows."""
        board, st = self.board, self.board.stride
        free, ends = s.free, s.ends
        open_ = free | ends
        h = open_ & (open_ >> 1)
        v = open_ & (open_ >> st)
        h &= ~(ends & (ends >> 1))
        v &= ~(ends & (ends >> st))
        for c in range(len(self.goals)):
            if s.done >> c & 1:
                continue
            x = s.heads[c]
            bad = board.nbrs[x] & ~self.legal(s, c) & open_
            g = self.goals[c]
            if board.nbrs[x] >> g & 1 and not bad >> g & 1:
                lo = min(x, g)
                if abs(g - x) == 1:
                    h |= 1 << lo
                else:
                    v |= 1 << lo
            if self.touch:
                bad_g = board.nbrs[g] & free & board.spread(s.bodies[c] & ~(1 << x))
                if bad_g:
                    h, v = cut(h, v, g, bad_g, st)
            if bad:
                h, v = cut(h, v, x, bad, st)
        hs = vs = 0
        while True:
            r, l_, d, u = h, h << 1, v, v << st
            one = r | l_ | d | u
            two = (r & l_) | (d & u) | ((r | l_) & (d | u))
            if free & ~two or ends & ~one:
                return False
            three = (r & l_ & (d | u)) | (d & u & (r | l_))
            full = (free & two & ~three) | (ends & one & ~two)
            hs |= h & (full | (full >> 1))
            vs |= v & (full | (full >> st))
            r, l_, d, u = hs, hs << 1, vs, vs << st
            one = r | l_ | d | u
            two = (r & l_) | (d & u) | ((r | l_) & (d | u))
            three = (r & l_ & (d | u)) | (d & u & (r | l_))
            if free & three or ends & two:
                return False
            sat = (free & two) | (ends & one)
            nh = hs | (h & ~(sat | (sat >> 1)))
            nv = vs | (v & ~(sat | (sat >> st)))
            if nh == h and nv == v:
                break
            h, v = nh, nv
        self.sure = (s, hs, vs)
        return self.chains_ok(s, hs, vs)

    def chains_ok(self, s: State, hs: int, vs: int) -> bool:
        """No chain of sure links from a goal reaches the head or goal of another flow."""
        st = self.board.stride
        owner = {}
        for c in range(len(self.goals)):
            if not s.done >> c & 1:
                owner[s.heads[c]] = c
                owner[self.goals[c]] = c
        free = s.free
        for c in range(len(self.goals)):
            if s.done >> c & 1:
                continue
            prev, x = -1, self.goals[c]
            while True:
                nxt = -1
                for y in (x + 1, x - 1, x + st, x - st):
                    if y != prev and y >= 0 and (hs if abs(y - x) == 1 else vs) >> min(x, y) & 1:
                        nxt = y
                        break
                if nxt < 0:
                    break
                prev, x = x, nxt
                if not free >> x & 1:
                    if owner.get(x, c) != c:
                        return False
                    break
        return True


def cut(h: int, v: int, x: int, cells: int, st: int) -> tuple[int, int]:
    """The links h (horizontal) and v (vertical) less those between x and the cells."""
    if cells >> (x + 1) & 1:
        h &= ~(1 << x)
    if x and cells >> (x - 1) & 1:
        h &= ~(1 << (x - 1))
    if cells >> (x + st) & 1:
        v &= ~(1 << x)
    if x >= st and cells >> (x - st) & 1:
        v &= ~(1 << (x - st))
    return h, v
