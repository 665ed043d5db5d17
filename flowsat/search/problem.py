"""The search problem: partly drawn boards, their successors, checks, forced moves and goal.

A state holds the free cells and, for each flow, its two open ends: the head, which the search
moves, and the tail, which starts at the goal dot and is only ever extended by deduction (a
link every solution makes). It also holds the open ends of the flows not yet complete as one
mask, which flows are complete, the last color moved and the cost so far. Only one color moves
from a state (the last one moved until it is complete, then the most constrained), so no state
is reached twice by reordering moves. Successors pass through `settle`: the checks, cheapest
first, then any forced move, applied in place (fast-forward) and checked again, so a chain of
forced moves never enters the queue and is dropped whole when one of its states fails a check.

Every deduction is sound in the rule mode it runs in: it prunes a state only when no solution
extends it, and forces a move only when every solution extending the state makes it.
"""

from __future__ import annotations

from dataclasses import dataclass

from flowsat.puzzle.model import Paths
from flowsat.search.board import Board, indices

Move = tuple[int, int, bool]  # color, cell, at the tail


@dataclass(frozen=True)
class Switches:
    """What the search does; see `flowsat.search.PRESETS` for the defaults."""

    allow_self_touch: bool = False
    deadends: bool = True  # prune a free cell with at most one open neighbor
    stranded: bool = True  # prune a flow cut off from its goal, or free space no flow can fill
    bottleneck: int = 3  # prune a line of <= N free cells from the last head that cuts > N flows
    parity: bool = True  # prune a region whose black/white balance its flows cannot make
    links: bool = True  # propagate the links each cell must make; follow the sure ones
    tails: bool = True  # with links: extend goal ends along sure links too
    squares: bool = True  # with links: no three links in a 2x2 square (no-self-touch rule)
    corners: bool = True  # with links, without self-touch: a corner sees a dot inside
    queue_always: bool = False  # forced moves go through the queue (no fast-forward)


class State:
    """A partly drawn board (mutated only while it is being built by `settle`)."""

    __slots__ = ("dirty", "done", "drawn", "ends", "free", "g", "heads", "last", "links",
                 "moves", "near", "parent", "regions", "tails")

    def __init__(self, free: int, heads: list[int], tails: list[int], near: list[int],
                 drawn: tuple[int, int], ends: int, done: int, last: int, g: int,
                 parent: State | None, moves: list[Move], regions: list[int]):
        self.free, self.heads, self.tails, self.ends, self.done = free, heads, tails, ends, done
        self.near = near  # per flow: the cells next to its inner cells (no-self-touch only)
        self.drawn = drawn  # the links drawn so far, horizontal and vertical (see `propagate`)
        self.last, self.g, self.parent, self.moves = last, g, parent, moves
        self.regions = regions  # the connected components of free, as masks
        self.links: tuple[int, ...] | None = None  # see `propagate`
        self.dirty = 0  # the flows moved since `links` was found, as a mask

    def child(self) -> State:
        """A copy to make a move in; it points back to this state."""
        child = State(self.free, self.heads[:], self.tails[:], self.near[:], self.drawn,
                      self.ends, self.done, self.last, self.g, self, [], self.regions)
        child.links = self.links
        return child


class FlowProblem:
    """A puzzle as a search problem over `State`s (colors are numbers 0..k-1)."""

    def __init__(self, board: Board, starts: list[int], goals: list[int], priority: list[int],
                 switches: Switches, user_order: bool = False,
                 hint: dict[int, int] | None = None):
        self.board, self.starts, self.goals, self.sw = board, starts, goals, switches
        self.priority, self.user_order = priority, user_order  # colors, first tried first
        self.all_done = (1 << len(starts)) - 1
        self.touch = not switches.allow_self_touch
        self.black = sum(1 << i for i, (r, c) in board.cell.items() if (r + c) % 2 == 0)
        self.stats = {"forced": 0, "pruned_deadend": 0, "pruned_links": 0,
                      "pruned_stranded": 0, "pruned_bottleneck": 0, "pruned_parity": 0,
                      "pruned_blocked": 0}
        # hint: cell -> color; a hinted cell is closed to every other color and preferred by
        # its own color
        self.hinted = [0] * len(starts)
        for i, color in (hint or {}).items():
            self.hinted[color] |= 1 << i
        any_hint = sum(self.hinted)
        self.closed = [any_hint & ~mine for mine in self.hinted]
        self.sure = (0, 0, 0)  # the sure links of the state last checked (see `propagate`)
        self.dots = sum(1 << i for i in starts + goals)
        if switches.corners and self.touch:  # corners whose inside diagonal meets no dot
            self.no_corner = [sum(1 << i for i in board.cell if not self.sees_dot(i, *way))
                              for way in ((1, 1), (1, -1), (-1, 1), (-1, -1))]

    # --- states --------------------------------------------------------------------------

    def initial(self) -> State | None:
        """The board with only the dots, settled (None when it fails a check at once)."""
        return self.settle(self.start())

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

    def is_goal(self, s: State) -> bool:
        return s.free == 0 and s.done == self.all_done

    def priority_of(self, s: State) -> int:
        """Cost so far plus free cells left (lower is expanded first)."""
        return s.g + s.free.bit_count()

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
            if self.sw.links:
                self.sure = self.propagate(s) or (0, 0, 0)
            child = s.child()
            made = self.force(child)
            if made is not None:
                return [child] if made and self.checks(child) else []
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
            made = self.force(s)
            if made is None:
                return s
            if not made:
                return None
        return None

    def force(self, s: State) -> bool | None:
        """Make the forced moves in place: with links, every sure link from a head or a tail
        (whole chains; one move when forced moves go through the queue), else one move by
        the 2016 rules. True when some move was made, None when none is forced, False when
        s has no solution."""
        last = s.last  # a forced move does not change the color that moves next
        if self.sw.links:
            made = self.follow(s, single=self.sw.queue_always)
        else:
            move = self.forced(s)
            if not move:
                return move
            self.apply(s, *move)
            self.stats["forced"] += 1
            made = True
        if made and last >= 0 and not s.done >> last & 1:
            s.last = last
        return made

    # --- forced moves --------------------------------------------------------------------

    def forced(self, s: State) -> tuple[int, int] | bool | None:
        """A move every solution from s makes by the 2016 rules, None if there is none, False
        if some flow is blocked (so that s has no solution)."""
        heads, tails, done = s.heads, s.tails, s.done
        incomplete = [c for c in self.priority if not done >> c & 1]
        legal = {}
        for c in incomplete:  # a flow with a single move
            moves = legal[c] = self.legal(s, c)
            if not moves & (moves - 1):
                if not moves:
                    self.stats["pruned_blocked"] += 1
                    return False
                return c, moves.bit_length() - 1
        nbrs, free = self.board.nbrs, s.free
        open_ = free | s.ends
        for c in incomplete:  # a free cell next to a head with one other way out
            h, tb = heads[c], 1 << tails[c]
            others = open_ & ~(1 << h)
            if self.touch:
                others &= ~tb  # next to c's tail, the cell can only follow h
            way_out = free | tb
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

    def follow(self, s: State, single: bool = False) -> bool | None:
        """Extend heads and tails along the sure links of the last propagation, in place.
        True when some move was made, None when none was, False when a link leads a flow where
        it cannot go (another flow's end, a cell next to its own path or hinted for another).
        """
        hs, vs, linked = self.sure
        if not linked:
            return None
        made = 0
        for c in self.priority:
            if not (linked >> s.heads[c] & 1 or linked >> s.tails[c] & 1):
                continue
            for at_tail in (False, True) if self.sw.tails else (False,):
                while not s.done >> c & 1:
                    x = s.tails[c] if at_tail else s.heads[c]
                    y = self.linked(x, hs, vs, s.free | s.ends)
                    if y < 0:
                        break
                    other = s.heads[c] if at_tail else s.tails[c]
                    if y == other:
                        self.apply(s, c, s.tails[c])
                    elif not s.free >> y & 1 or (self.closed[c] | s.near[c]) >> y & 1 \
                            or (not at_tail and not self.legal(s, c) >> y & 1):
                        self.stats["pruned_blocked"] += 1
                        return False
                    elif at_tail:
                        self.extend(s, c, y)
                    else:
                        self.apply(s, c, y)
                    made += 1
                    self.stats["forced"] += 1
                    if single:
                        return True
        return True if made else None

    def linked(self, x: int, hs: int, vs: int, open_: int) -> int:
        """An open cell that x has a sure link to, or -1."""
        st = self.board.stride
        if hs >> x & 1 and open_ >> (x + 1) & 1:
            return x + 1
        if vs >> x & 1 and open_ >> (x + st) & 1:
            return x + st
        if x >= 1 and hs >> (x - 1) & 1 and open_ >> (x - 1) & 1:
            return x - 1
        if x >= st and vs >> (x - st) & 1 and open_ >> (x - st) & 1:
            return x - st
        return -1

    # --- checks --------------------------------------------------------------------------

    def checks(self, s: State) -> bool:
        """Whether s passes every check that is on, cheapest first."""
        sw = self.sw
        if sw.deadends and self.dead_end(s.free, s.ends):
            self.stats["pruned_deadend"] += 1
            return False
        if sw.links:
            sure = self.propagate(s)
            if sure is None:
                self.stats["pruned_links"] += 1
                return False
            self.sure = sure
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
        """Some free cell has at most one open neighbor (free, or a head or tail of a flow
        not yet complete): a path could enter it but never leave."""
        st = self.board.stride
        o = free | ends
        a, b, c, d = o << 1, o >> 1, o << st, o >> st
        two = (a & b) | (c & d) | ((a | b) & (c | d))
        return bool(free & ~two)

    def propagate(self, s: State) -> tuple[int, int, int] | None:
        """The links every solution from s makes, as masks of horizontal links (bit i: cells
        i and i+1) and vertical ones (bit i: cells i and i+stride), and the open ends with a
        sure link; None when there is no solution. A free cell needs two links, an open end
        one; links go between open cells, never between the ends of two flows, nor from a
        flow's end to a cell that flow may not enter. A cell with only as many possible links
        as it needs makes them all; a cell with as many sure links as it needs makes no other;
        without self-touch, a 2x2 square holds at most two links; repeated until nothing
        changes. Starts from the parent's links (a move only takes links away) and keeps the
        result in `s.links`."""
        board, st = self.board, self.board.stride
        free, ends = s.free, s.ends
        open_ = free | ends
        if s.links is None:
            h, v, hs, vs, new, dirty = open_, open_, 0, 0, ends, self.all_done
        else:
            h, v, hs, vs, old = s.links
            new, dirty = ends & ~old, s.dirty | (self.all_done if any(self.hinted) else 0)
        h &= open_ & (open_ >> 1) & ~((new & (ends >> 1)) | (ends & (new >> 1)))
        v &= open_ & (open_ >> st) & ~((new & (ends >> st)) | (ends & (new >> st)))
        for c in indices(dirty & ~s.done):  # the flows' ends link only where they may go
            x, t, legal = s.heads[c], s.tails[c], self.legal(s, c)
            bad = board.nbrs[x] & free & ~legal
            if bad:
                h, v = unlink(h, v, x, bad, st)
            bad = board.nbrs[t] & free & (self.closed[c] | s.near[c])
            if bad:
                h, v = unlink(h, v, t, bad, st)
            if legal >> t & 1 and new & ((1 << x) | (1 << t)):  # may join at once
                if abs(t - x) == 1:
                    h |= 1 << min(x, t)
                else:
                    v |= 1 << min(x, t)
        hs &= h
        vs &= v
        dh, dv = s.drawn
        while True:
            h0, v0, hs0, vs0 = h, v, hs, vs
            one, two, three = counts(h, v, st)
            if free & ~two or ends & ~one:
                return None
            full = (free & two & ~three) | (ends & one & ~two)  # as many links as needed
            hs |= h & (full | (full >> 1))
            vs |= v & (full | (full >> st))
            one, two, three = counts(hs, vs, st)
            if free & three or ends & two:
                return None
            sat = (free & two) | (ends & one)  # as many sure links as needed
            h = hs | (h & ~(sat | (sat >> 1)))
            v = vs | (v & ~(sat | (sat >> st)))
            if self.touch and self.sw.squares:  # three links in a 2x2 square: a U-turn
                sh, sv = hs | dh, vs | dv
                a, b, c, d = sh, sh >> st, sv, sv >> 1  # top, bottom, left, right of squares
                two = (a & b) | (c & d) | ((a | b) & (c | d))
                if (a & b & (c | d)) | (c & d & (a | b)):
                    return None
                h &= ~((two | two << st) & ~sh)
                v &= ~((two | two << 1) & ~sv)
            if self.touch and self.sw.corners:
                h, v, hs, vs = self.turns(h, v, hs | dh, vs | dv, dh, dv)
                if hs & ~h or vs & ~v:
                    return None
            if h == h0 and v == v0 and hs == hs0 and vs == vs0:
                s.links, s.dirty = (h, v, hs, vs, ends), 0
                return hs, vs, ends & one

    def sees_dot(self, i: int, dr: int, dc: int) -> bool:
        """Whether walking from cell i diagonally (dr, dc) meets a dot before the edge."""
        r, c = self.board.cell[i]
        while (r := r + dr, c := c + dc) in self.board.index:
            if self.dots >> self.board.index[r, c] & 1:
                return True
        return False

    def turns(self, h: int, v: int, sh: int, sv: int, dh: int, dv: int
              ) -> tuple[int, int, int, int]:
        """Corners, without self-touch (h, v possible links; sh, sv sure or drawn; dh, dv
        drawn): where a path turns, say ┌ at x, the cell q diagonally inside is a dot or turns
        the same way. (q is next to both of x's neighbors on the path: a link from q to one of
        them would make q touch the other or close a 2x2 cycle, so q's links go right and
        down.) Walking inwards, the diagonal must meet a dot before the edge of the board. So
        a corner whose inside diagonal meets no dot is out: a cell with one of its links loses
        the other; and a cell that turns makes the cell inside turn too. Returns h, v and the
        sure links."""
        st = self.board.stride
        r, l_, d, u = sh, sh << 1, sv, sv << st  # cells with a link right, left, down, up
        rd, ld, ru, lu = self.no_corner  # ┌ ┐ └ ┘
        v &= ~((r & rd) | (l_ & ld) | ((r & ru) | (l_ & lu)) >> st)
        h &= ~((d & rd) | (u & ru) | ((d & ld) | (u & lu)) >> 1)
        free = ~self.dots
        rd, ld = (r & d) << (st + 1) & free, (l_ & d) << (st - 1) & free
        ru, lu = (r & u) >> (st - 1) & free, (l_ & u) >> (st + 1) & free
        sh |= (rd | ru | (ld | lu) >> 1) & ~dh
        sv |= (rd | ld | (ru | lu) >> st) & ~dv
        return h, v, sh & ~dh, sv & ~dv

    def joined(self, s: State, c: int) -> bool:
        """Whether flow c can end without another free cell (its head is next to its tail)."""
        return not self.touch and bool(self.board.nbrs[s.heads[c]] >> s.tails[c] & 1)

    def served(self, s: State) -> list[int]:
        """For each region of free space, the flows whose head and tail both touch it."""
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
        black, heads, tails = self.black, s.heads, s.tails
        seen = twice = 0
        for ok in served:
            twice |= seen & ok
            seen |= ok
        optional = twice | self.joinable(s)
        for region, ok in zip(s.regions, served, strict=True):
            surplus = 2 * (region & black).bit_count() - region.bit_count()
            low = high = 0
            for c in indices(ok):
                e = 1 - (black >> heads[c] & 1) - (black >> tails[c] & 1)
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
        nbrs = self.board.nbrs
        return sum(1 << c for c, h in enumerate(s.heads)
                   if not s.done >> c & 1 and nbrs[h] >> s.tails[c] & 1)

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
        board, heads, tails = self.board, s.heads, s.tails
        regions = []
        for r in s.regions:
            if r & line:
                regions += board.regions(r & ~line) if line & (line - 1) else \
                    board.carve([r], s.free, line.bit_length() - 1)
            else:
                regions.append(r)
        around = [board.dilate(r) for r in regions]
        return sum(1 for c in colors
                   if not any(a >> heads[c] & 1 and a >> tails[c] & 1 for a in around))


def counts(h: int, v: int, st: int) -> tuple[int, int, int]:
    """The cells with at least one, two and three of the links h (horizontal) and v
    (vertical)."""
    r, l_, d, u = h, h << 1, v, v << st
    one = r | l_ | d | u
    two = (r & l_) | (d & u) | ((r | l_) & (d | u))
    three = (r & l_ & (d | u)) | (d & u & (r | l_))
    return one, two, three


def unlink(h: int, v: int, x: int, cells: int, st: int) -> tuple[int, int]:
    """The links h (horizontal) and v (vertical) less those between x and the cells."""
    if cells >> (x + 1) & 1:
        h &= ~(1 << x)
    if x >= 1 and cells >> (x - 1) & 1:
        h &= ~(1 << (x - 1))
    if cells >> (x + st) & 1:
        v &= ~(1 << x)
    if x >= st and cells >> (x - st) & 1:
        v &= ~(1 << (x - st))
    return h, v
