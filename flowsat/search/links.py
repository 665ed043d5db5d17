"""Link propagation: the links every solution from a state makes, on bitboards.

A link joins two neighboring cells. Links are masks, one for each way of the board's links
(`Board.ways`): on the square grid horizontal ones (bit i: cells i and i+1) and vertical ones
(bit i: cells i and i+stride), on any other board graph one per shift (`GraphLinks`). The
rules `Links` applies (each sound in the rule mode it runs in) are switched on by the `links`,
`squares`, `corners` and `triangles` switches (see `flowsat.search.checks.links`); what the
search does with the sure links is the problem's (`FlowProblem.follow`).
"""

from __future__ import annotations

from flowsat.search.board import indices, tally
from flowsat.search.state import Moves, State

Sure = tuple[tuple[int, ...], int]  # the sure links of each way, the open ends with one
NONE_SURE: Sure = ((), 0)


class Links:
    """The link propagation of one puzzle's moves."""

    def __init__(self, moves: Moves, squares: bool, corners: bool, triangles: bool = False):
        self.moves, self.board, self.st = moves, moves.board, moves.board.stride
        self.sure = NONE_SURE  # of the state last checked (see `FlowProblem.follow`)
        self.squares = squares and moves.touch
        self.corners = corners and moves.touch
        self.inner = self.board.all & ~moves.dots  # the cells that may have to turn
        across, down = self.board.across, self.board.down  # the 2x2 squares without a wall
        self.open_squares = across & across >> self.st & down & down >> 1
        if self.corners:  # corners whose inside diagonal meets no dot
            self.no_corner = [self.blind(*way) for way in ((1, 1), (1, -1), (-1, 1), (-1, -1))]

    def check(self, s: State) -> bool:
        """Whether every cell of s can get its links; keeps the sure links in `sure`."""
        sure = self.propagate(s)
        if sure is None:
            return False
        self.sure = sure
        return True

    def propagate(self, s: State) -> Sure | None:
        """The links every solution from s makes, and the open ends with a sure link; None
        when there is no solution. A free cell needs two links, an open end one (with cells
        left empty, a free cell needs two once it has a sure link, and one with fewer than two
        possible links stays empty: it needs none and loses them); links go between open
        cells, never between the ends of two flows, nor from a flow's end to a cell that flow
        may not enter. A cell with only as many possible links as it needs makes them all; a
        cell with as many sure links as it needs makes no other; without self-touch, a 2x2
        square holds at most two links; repeated until nothing changes.
        Starts from the parent's links (a move only takes links away) and keeps the result in
        `s.links`."""
        moves, board, st = self.moves, self.board, self.st
        free, ends = s.free, s.ends
        open_ = free | ends
        if s.links is None:
            h, v, hs, vs = open_ & board.across, open_ & board.down, 0, 0
            new, dirty = ends, moves.all_done
        else:
            h, v, hs, vs, old = s.links
            new = ends & ~old
            dirty = s.dirty | (moves.all_done if any(moves.hinted) else 0)
        h &= open_ & (open_ >> 1) & ~((new & (ends >> 1)) | (ends & (new >> 1)))
        v &= open_ & (open_ >> st) & ~((new & (ends >> st)) | (ends & (new >> st)))
        for c in indices(dirty & ~s.done):  # the flows' ends link only where they may go
            x, t, legal = s.heads[c], s.tails[c], moves.legal(s, c)
            bad = board.nbrs[x] & free & ~legal
            if bad:
                h, v = unlink(h, v, x, bad, st)
            bad = board.nbrs[t] & free & (moves.closed[c] | s.near[c])
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
        empty = not moves.fill_all
        used = free & counts(hs, vs, st)[0] if empty else free  # the free cells on a path
        while True:
            h0, v0, hs0, vs0 = h, v, hs, vs
            one, two, three = counts(h, v, st)
            if used & ~two or ends & ~one:
                return None
            lone = free & ~two  # (cells left empty) on no path
            full = (used & two & ~three) | (ends & one & ~two)  # as many links as needed
            hs |= h & (full | (full >> 1))
            vs |= v & (full | (full >> st))
            one, two, three = counts(hs, vs, st)
            if free & three or ends & two:
                return None
            if empty:
                used = free & one
            sat = (free & two) | (ends & one) | lone  # as many sure links as needed
            h = hs | (h & ~(sat | (sat >> 1)))
            v = vs | (v & ~(sat | (sat >> st)))
            if self.squares:  # three links in a 2x2 square: a U-turn
                sh, sv = hs | dh, vs | dv
                a, b, c, d = sh, sh >> st, sv, sv >> 1  # top, bottom, left, right of squares
                two = ((a & b) | (c & d) | ((a | b) & (c | d))) & self.open_squares
                if ((a & b & (c | d)) | (c & d & (a | b))) & self.open_squares:
                    return None
                h &= ~((two | two << st) & ~sh)
                v &= ~((two | two << 1) & ~sv)
            if self.corners:
                h, v, hs, vs = self.turns(h, v, hs | dh, vs | dv, dh, dv)
                if hs & ~h or vs & ~v:
                    return None
            if h == h0 and v == v0 and hs == hs0 and vs == vs0:
                s.links, s.dirty = (h, v, hs, vs, ends), 0
                return (hs, vs), ends & one

    def blind(self, dr: int, dc: int) -> int:
        """The cells whose diagonal (dr, dc) meets no dot nor hole (which ends the chain of
        corners as a dot does) before the edge: row by row from the edge it runs to, each
        cell's answer is its next cell's."""
        board, stop = self.board, self.moves.dots | ~self.board.all  # a dot or a hole
        height, width, st = board.height, board.width, board.stride
        sees = [False] * (height * st)
        mask = 0
        for r in range(height - 1, -1, -1) if dr > 0 else range(height):
            inside = 0 <= r + dr < height
            for c in range(width):
                i = r * st + c
                j = i + dr * st + dc
                sees[i] = seen = inside and 0 <= c + dc < width and bool(stop >> j & 1
                                                                        or sees[j])
                if not seen:
                    mask |= 1 << i
        return mask & board.all

    def turns(self, h: int, v: int, sh: int, sv: int, dh: int, dv: int
              ) -> tuple[int, int, int, int]:
        """Corners, without self-touch (h, v possible links; sh, sv sure or drawn; dh, dv
        drawn): where a path turns, say ┌ at x, the cell q diagonally inside is a dot or turns
        the same way. (q is next to both of x's neighbors on the path: a link from q to one of
        them would make q touch the other or close a 2x2 cycle, so q's links go right and
        down.) Walking inwards, the diagonal must meet a dot before the edge of the board. So
        a corner whose inside diagonal meets no dot is out: a cell with one of its links loses
        the other; and a cell that turns makes the cell inside turn too. (A hole on the
        diagonal ends it as a dot does: no cell there must turn.) Returns h, v and the sure
        links."""
        st = self.st
        r, l_, d, u = sh, sh << 1, sv, sv << st  # cells with a link right, left, down, up
        rd, ld, ru, lu = self.no_corner  # ┌ ┐ └ ┘
        v &= ~((r & rd) | (l_ & ld) | ((r & ru) | (l_ & lu)) >> st)
        h &= ~((d & rd) | (u & ru) | ((d & ld) | (u & lu)) >> 1)
        free = self.inner
        rd, ld = (r & d) << (st + 1) & free, (l_ & d) << (st - 1) & free
        ru, lu = (r & u) >> (st - 1) & free, (l_ & u) >> (st + 1) & free
        sh |= (rd | ru | (ld | lu) >> 1) & ~dh
        sv |= (rd | ld | (ru | lu) >> st) & ~dv
        return h, v, sh & ~dh, sv & ~dv

    def linked(self, x: int, sure: tuple[int, ...], open_: int) -> int:
        """An open cell that x has a sure link to, or -1."""
        st, (hs, vs) = self.st, sure
        if hs >> x & 1 and open_ >> (x + 1) & 1:
            return x + 1
        if vs >> x & 1 and open_ >> (x + st) & 1:
            return x + st
        if x >= 1 and hs >> (x - 1) & 1 and open_ >> (x - 1) & 1:
            return x - 1
        if x >= st and vs >> (x - st) & 1 and open_ >> (x - st) & 1:
            return x - st
        return -1


class GraphLinks(Links):
    """`Links` on any board graph (`GraphBoard`): a mask of links for each of the board's ways
    (shifts), the same rules but the corners' (square grid only, see
    `flowsat.search.checks.links`); without self-touch, the 2x2 rule on every cycle of four
    cells with two pairs of parallel sides, and the triangle rule."""

    def __init__(self, moves: Moves, squares: bool, corners: bool, triangles: bool = False):
        self.moves, self.board = moves, moves.board
        self.sure = NONE_SURE
        self.shifts = [shift for shift, _ in self.board.ways]
        self.way_of = {shift: k for k, shift in enumerate(self.shifts)}
        self.triangles = self.find_triangles() if triangles and moves.touch else []
        self.fours = self.find_fours() if squares and moves.touch else []

    def find_triangles(self) -> list[tuple[int, int, int, int, int]]:
        """The kinds of triangle of the board (three cells, each linked to the others), as
        (way i to j, way i to k, way j to k, j - i, the cells i that are a triangle's
        first) for cells i < j < k."""
        ways, found = self.board.ways, []
        for a, (s1, m1) in enumerate(ways):
            for b, (s2, m2) in enumerate(ways):
                c = self.way_of.get(s2 - s1, -1)
                if s1 < s2 and c >= 0 and (first := m1 & m2 & ways[c][1] >> s1):
                    found.append((a, b, c, s1, first))
        return found

    def find_fours(self) -> list[tuple[int, int, int, int, int]]:
        """The kinds of cycle of four cells i, i+s, i+s+t, i+t (a 2x2 square, a hexagonal
        board's rhombus, a square across a warp), as (way s, way t, s, t, the cells i that
        are one's first) for shifts s < t."""
        ways, found = self.board.ways, []
        for a, (s, m) in enumerate(ways):
            for b, (t, n) in enumerate(ways):
                if s < t and (first := m & m >> t & n & n >> s):
                    found.append((a, b, s, t, first))
        return found

    def cut_fours(self, links: list[int], sure: list[int]) -> bool:
        """Without self-touch, a cycle of four cells holds at most two links (three make a
        U-turn that touches itself): False when one holds three sure links, else where it
        holds two its other links go (in place)."""
        for a, b, s, t, first in self.fours:
            x, y = sure[a] & first, (sure[a] >> t) & first  # sides i to i+s, i+t to i+s+t
            z, w = sure[b] & first, (sure[b] >> s) & first  # sides i to i+t, i+s to i+s+t
            _, two, three = tally([x, y, z, w])
            if three:
                return False
            links[a] &= ~((two & ~x) | (two & ~y) << t)
            links[b] &= ~((two & ~z) | (two & ~w) << s)
        return True

    def cut_triangles(self, links: list[int], sure: list[int]) -> bool:
        """Without self-touch, a triangle holds at most one link (two make a path touch
        itself): False when one holds two sure links, else its other links go (in place)."""
        for a, b, c, s1, first in self.triangles:
            x, y, z = sure[a] & first, sure[b] & first, (sure[c] >> s1) & first
            if (x & y) | (x & z) | (y & z):
                return False
            links[a] &= ~(y | z)
            links[b] &= ~(x | z)
            links[c] &= ~((x | y) << s1)
        return True

    def propagate(self, s: State) -> Sure | None:
        """`Links.propagate`, way by way."""
        moves, board, shifts = self.moves, self.board, self.shifts
        free, ends = s.free, s.ends
        open_ = free | ends
        if s.links is None:
            links, sure = [mask for _, mask in board.ways], [0] * len(shifts)
            new, dirty = ends, moves.all_done
        else:
            links, sure, old = s.links
            new = ends & ~old
            dirty = s.dirty | (moves.all_done if any(moves.hinted) else 0)
        links = [m & open_ & (open_ >> k) & ~((new & (ends >> k)) | (ends & (new >> k)))
                 for m, k in zip(links, shifts, strict=True)]
        for c in indices(dirty & ~s.done):  # the flows' ends link only where they may go
            x, t, legal = s.heads[c], s.tails[c], moves.legal(s, c)
            self.unlink(links, x, board.nbrs[x] & free & ~legal)
            self.unlink(links, t, board.nbrs[t] & free & (moves.closed[c] | s.near[c]))
            if legal >> t & 1 and new & ((1 << x) | (1 << t)):  # may join at once
                links[self.way_of[abs(t - x)]] |= 1 << min(x, t)
        sure = [m & n for m, n in zip(sure, links, strict=True)]
        empty = not moves.fill_all  # (as in `Links.propagate`)
        used = free & tally(self.sides(sure))[0] if empty else free  # the free cells on a path
        while True:
            before = links + sure
            one, two, three = tally(self.sides(links))
            if used & ~two or ends & ~one:
                return None
            lone = free & ~two  # (cells left empty) on no path
            full = (used & two & ~three) | (ends & one & ~two)  # as many links as needed
            sure = [m | (n & (full | full >> k)) for m, n, k in zip(sure, links, shifts,
                                                                      strict=True)]
            one, two, three = tally(self.sides(sure))
            if free & three or ends & two:
                return None
            if empty:
                used = free & one
            sat = (free & two) | (ends & one) | lone  # as many sure links as needed
            links = [m | (n & ~(sat | sat >> k)) for m, n, k in zip(sure, links, shifts,
                                                                      strict=True)]
            if self.triangles and not self.cut_triangles(links, sure):
                return None
            if self.fours and not self.cut_fours(links, sure):
                return None
            if links + sure == before:
                s.links, s.dirty = (links, sure, ends), 0
                return tuple(sure), ends & one

    def sides(self, links: list[int]) -> list[int]:
        """For each way, the cells with a link to the cell that far on, and to the cell that
        far back."""
        return [side for m, k in zip(links, self.shifts, strict=True) for side in (m, m << k)]

    def unlink(self, links: list[int], x: int, cells: int) -> None:
        """Remove from links (in place) those between x and the cells."""
        if not cells:
            return
        for w, k in enumerate(self.shifts):
            if cells >> (x + k) & 1:
                links[w] &= ~(1 << x)
            if x >= k and cells >> (x - k) & 1:
                links[w] &= ~(1 << (x - k))

    def linked(self, x: int, sure: tuple[int, ...], open_: int) -> int:
        for m, k in zip(sure, self.shifts, strict=True):
            if m >> x & 1 and open_ >> (x + k) & 1:
                return x + k
            if x >= k and m >> (x - k) & 1 and open_ >> (x - k) & 1:
                return x - k
        return -1


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
