"""The cell-by-cell search problem (`--problem cells`): links decided cell after cell.

The Go Numberlink solver's idea (a sweep over the cells, each deciding its links to the cells
after it; reimplemented), with this backend's link propagation (`flowsat.search.links`) after
every decision. A state is the board's possible and sure links (`Links`' masks) and the
fragments the sure links make: each fragment end's other end and the fragment's cells. Its
successors: the first cell in sweep order (rows, or columns on a board wider than tall) that
lacks links (every cell before it has all of its, so at most its links right and down are
open) takes each way it may complete them; each child's links are propagated and the new sure
links join fragments, to a fixpoint: a link that closes a cycle or joins two colors prunes
the child, a possible link that would do so goes; without self-touch, so does a link that
would take a cell next to its path's other cells, and a fragment (or a color's two) whose
cells run beside themselves prunes the child. With every link decided each fragment is a path
between two dots of one color. Priority: the cells still lacking links (the deepest first).

Square boards (holes and walls or not), every cell filled; under either rule on touching.
Every deduction is sound: a link goes only when no solution has it, a sure link is in every
solution (the propagation's rules; the 2x2 and corner rules and the touch rules above only
without self-touch).
"""

from __future__ import annotations

from flowsat.puzzle.model import Paths
from flowsat.puzzle.rules import DEFAULT_RULES, Rules
from flowsat.search.board import Board, indices
from flowsat.search.links import Links, counts
from flowsat.search.options import SearchOptions, for_kinds
from flowsat.search.state import Moves

STATS = ("pruned_links", "pruned_fragments", "pruned_touch")


class Cells:
    """A state of the cell-by-cell search: links (possible h and v, sure hs and vs) and the
    fragments (each end's other end and the fragment's cells; a cell with no sure link is a
    fragment of its own, not listed)."""

    __slots__ = ("body", "dirty", "ends", "free", "line", "links", "other")
    done, drawn = 0, (0, 0)  # what `Links.propagate` reads of a head's state: no flow moves

    def __init__(self, free: int, ends: int, links: tuple[int, ...], other: dict[int, int],
                 body: dict[int, int], line: int = 0):
        self.free, self.ends = free, ends  # the cells that need two links, and the dots
        self.links, self.other, self.dirty = links, other, 0
        self.body = body  # each fragment end's fragment, as a mask
        self.line = line  # the sweep's line (row or column) of the first cell lacking links


class CellProblem:
    """A puzzle as a cell-by-cell search problem (colors are numbers 0..k-1)."""

    def __init__(self, board: Board, starts: list[int], goals: list[int],
                 options: SearchOptions, rules: Rules = DEFAULT_RULES, way: int = 0):
        sw = for_kinds(options, board.kinds, rules.fill_all)
        self.moves = Moves(board, starts, goals, list(range(len(starts))), rules)
        self.board, self.st, self.touch = board, board.stride, not rules.self_touch
        self.starts, self.goals = starts, goals
        self.color = {x: c for c, pair in enumerate(zip(starts, goals, strict=True))
                      for x in pair}
        self.dots = self.moves.dots
        self.links = Links(self.moves, sw.squares, sw.corners)
        self.lines, self.backward = sweeps(board, self.dots)[way]  # (see `sweeps`)
        self.stats = dict.fromkeys(STATS, 0)

    # --- the problem ---------------------------------------------------------------------

    def initial(self) -> Cells | None:
        """Every link open but those between dots of two colors (without self-touch, two
        neighboring dots of a color are joined), propagated."""
        board, st, dots = self.board, self.st, self.dots
        h, v, hs, vs = board.across, board.down, 0, 0
        for x in indices(dots):
            for y, way in ((x + 1, 0), (x + st, 1)):
                if not dots >> y & 1 or not (h, v)[way] >> x & 1:
                    continue
                if self.color[x] != self.color[y]:
                    h, v = (h & ~(1 << x), v) if way == 0 else (h, v & ~(1 << x))
                elif self.touch:
                    hs, vs = (hs | 1 << x, vs) if way == 0 else (hs, vs | 1 << x)
        s = Cells(board.all & ~dots, dots, (h, v, hs, vs, dots), {}, {})
        return self.settle(s, 0, 0)

    def is_goal(self, s: Cells) -> bool:
        """Every cell has its links (so each fragment is a path between a color's dots) and,
        without self-touch, no path runs beside itself."""
        return not self.lacking(s) and not (self.touch and self.touching(s))

    def priority_of(self, s: Cells) -> int:
        """The cells still lacking links."""
        return self.lacking(s).bit_count()

    def expand(self, s: Cells) -> list[Cells]:
        """The settled children of s: each way the first cell lacking links in sweep order
        completes them (every cell before it has all of its, so it has at most two ways)."""
        lacking = self.lacking(s)
        if not lacking:
            return []
        k, lines = s.line, self.lines
        while not lacking & lines[k]:
            k += 1
        first = lacking & lines[k]
        x = first.bit_length() - 1 if self.backward else (first & -first).bit_length() - 1
        return self.children(s, x, k)

    def children(self, s: Cells, x: int, k: int) -> list[Cells]:
        """The settled children of s: each way cell x may complete its links."""
        h, v, hs, vs, _ = s.links
        st = self.st
        # x's open links, as (way, bit): right, down, left, up
        open_ = [(w, b) for w, b, ok in ((0, x, h & ~hs), (1, x, v & ~vs),
                                          (0, x - 1, h & ~hs), (1, x - st, v & ~vs))
                 if b >= 0 and ok >> b & 1]
        need = (1 if self.dots >> x & 1 else 2) - sum(
            (m >> b & 1) for m, b in ((hs, x), (vs, x), (hs, x - 1), (vs, x - st)) if b >= 0)
        choices = ([[link] for link in open_] if need == 1 else
                   [[a, b] for i, a in enumerate(open_) for b in open_[i + 1:]])
        children = []
        for chosen in choices:
            ch, cv = hs, vs
            for w, b in chosen:
                if w == 0:
                    ch |= 1 << b
                else:
                    cv |= 1 << b
            child = Cells(s.free, s.ends, (h, v, ch, cv, s.ends), dict(s.other),
                          dict(s.body), k)
            child = self.settle(child, hs, vs)
            if child is not None:
                children.append(child)
        return children

    # --- deductions ----------------------------------------------------------------------

    def settle(self, s: Cells, hs0: int, vs0: int) -> Cells | None:
        """s propagated, its new sure links (beyond hs0, vs0) joined into fragments, the
        links that would close a cycle or join two colors gone; again until nothing changes.
        None when s has no solution."""
        while True:
            if self.links.propagate(s) is None:
                self.stats["pruned_links"] += 1
                return None
            h, v, hs, vs, ends = s.links
            new_ends = self.join(s, hs & ~hs0, vs & ~vs0)
            if new_ends is None:
                self.stats["pruned_fragments"] += 1
                return None
            if self.touch and self.touches(s, new_ends):
                self.stats["pruned_touch"] += 1
                return None
            cut_h, cut_v = self.cuts(s, new_ends, h & ~hs, v & ~vs)
            if not cut_h and not cut_v:
                return s
            s.links = (h & ~cut_h, v & ~cut_v, hs, vs, ends)
            hs0, vs0 = hs, vs

    def join(self, s: Cells, new_h: int, new_v: int) -> list[int] | None:
        """Join the fragments along the new sure links (in place): the ends of the fragments
        made, or None when a link closes a cycle or joins two colors."""
        other, body, color, st = s.other, s.body, self.color, self.st
        made = []
        for links, step in ((new_h, 1), (new_v, st)):
            for a in indices(links):
                b = a + step
                ea, eb = other.pop(a, a), other.pop(b, b)
                if ea == b:
                    return None
                ca, cb = color.get(ea, color.get(a, -1)), color.get(eb, color.get(b, -1))
                if ca >= 0 and cb >= 0 and ca != cb:
                    return None
                other[ea], other[eb] = eb, ea
                m = body.pop(a, 1 << a) | body.pop(b, 1 << b)
                body.pop(ea, None)
                body.pop(eb, None)
                body[ea] = body[eb] = m
                made += (ea, eb)
        return [x for x in set(made) if x in other]  # (some are ends no more)

    def touches(self, s: Cells, ends: list[int]) -> bool:
        """Whether a fragment given by an end, or a color's two fragments together, has two
        neighboring cells that are not linked and never will be: two cells of one fragment,
        or of a color's two, but for the link that may join the two (no self-touch)."""
        body, other, color = s.body, s.other, self.color
        seen = set()
        for x in ends:
            c = color.get(x, color.get(other.get(x, x), -1))
            if c < 0:
                m = body[x]
                if m not in seen:
                    seen.add(m)
                    if self.pairs(m) >= m.bit_count():
                        return True
                continue
            if c in seen:
                continue
            seen.add(c)
            d1, d2 = self.starts[c], self.goals[c]
            m1, m2 = body.get(d1, 1 << d1), body.get(d2, 1 << d2)
            if m1 == m2:  # the path is whole
                allowed = m1.bit_count() - 1
            else:
                e1, e2 = other.get(d1, d1), other.get(d2, d2)
                allowed = (m1 | m2).bit_count() - 2 + (self.board.nbrs[e1] >> e2 & 1)
            if self.pairs(m1 | m2) > allowed:
                return True
        return False

    def pairs(self, m: int) -> int:
        """The open links of the board between two cells of m."""
        board = self.board
        return (m & m >> 1 & board.across).bit_count() + (
            m & m >> self.st & board.down).bit_count()

    def cuts(self, s: Cells, ends: list[int], h: int, v: int) -> tuple[int, int]:
        """The open links (h, v) from the given fragment ends (and, without self-touch, the
        ends of their colors' other fragments) that would close a cycle or join two colors,
        or (without self-touch) take a cell next to the path's other cells (`rest_of_path`)."""
        other, color, st, nbrs = s.other, self.color, self.st, self.board.nbrs
        loose = h | h << 1 | v | v << st  # the cells with an open link
        todo = set(ends)
        if self.touch:  # a color's other fragment may have grown
            for x in ends:
                c = color.get(x, color.get(other.get(x, x), -1))
                if c >= 0:
                    todo.update(other.get(d, d) for d in (self.starts[c], self.goals[c]))
        cut_h = cut_v = 0
        for x in todo:
            if not loose >> x & 1:
                continue
            ex = other.get(x, x)
            cx = color.get(x, color.get(ex, -1))
            path, partner = self.rest_of_path(s, x, cx) if self.touch else (0, -1)
            for y, across, bit in ((x + 1, True, x), (x - 1, True, x - 1),
                                   (x + st, False, x), (x - st, False, x - st)):
                if bit < 0 or not (h if across else v) >> bit & 1:
                    continue
                ey = other.get(y, y)
                if ey == x or (nbrs[y] & path and y != partner) or (
                        cx >= 0 and color.get(y, color.get(ey, cx)) != cx):
                    if across:
                        cut_h |= 1 << bit
                    else:
                        cut_v |= 1 << bit
        return cut_h, cut_v

    def rest_of_path(self, s: Cells, x: int, c: int) -> tuple[int, int]:
        """The cells of the path of end x's fragment but x (of color c, of both its
        fragments, less the open end of the other, which x may join: returned too, else -1):
        x may not link to a cell next to one but that end, it would touch the path (no
        self-touch)."""
        body, other = s.body, s.other
        if c < 0:
            return body.get(x, 1 << x) & ~(1 << x), -1
        d1, d2 = self.starts[c], self.goals[c]
        e1, e2 = other.get(d1, d1), other.get(d2, d2)
        partner = e2 if e1 == x else e1
        path = body.get(d1, 1 << d1) | body.get(d2, 1 << d2)
        return path & ~(1 << x | 1 << partner), partner

    def lacking(self, s: Cells) -> int:
        """The cells with fewer sure links than they need."""
        one, two, _ = counts(s.links[2], s.links[3], self.st)
        return (s.free & ~two) | (s.ends & ~one)

    def touching(self, s: Cells) -> bool:
        """Whether some path has two neighboring cells not linked to each other (every cell
        with its links)."""
        for path in self.cell_paths(s):
            if self.pairs(sum(1 << x for x in path)) != len(path) - 1:
                self.stats["pruned_touch"] += 1
                return True
        return False

    # --- answers -------------------------------------------------------------------------

    def cell_paths(self, s: Cells) -> list[list[int]]:
        """Each color's cells from its start dot along the sure links, as far as they go."""
        _, _, hs, vs, _ = s.links
        st = self.st
        found = []
        for start in self.starts:
            path, prev, x = [start], -1, start
            while True:
                nxt = [y for y, ok in ((x + 1, hs >> x & 1), (x + st, vs >> x & 1),
                                       (x - 1, x >= 1 and hs >> (x - 1) & 1),
                                       (x - st, x >= st and vs >> (x - st) & 1))
                       if ok and y != prev]
                if not nxt or (len(path) > 1 and self.dots >> x & 1):
                    break
                prev, x = x, nxt[0]
                path.append(x)
            found.append(path)
        return found

    def paths(self, s: Cells) -> Paths:
        cell = self.board.cell
        return {c: [cell[x] for x in path] for c, path in enumerate(self.cell_paths(s))}


def sweeps(board: Board, dots: int) -> list[tuple[list[int], bool]]:
    """The ways to sweep the board, best first by a guess: the lines the sweep takes in turn
    (rows or columns: of the two, the shorter, fewer fragments cross them; either on a square
    board), and whether it takes them and their cells backwards (from the last row or column,
    the last cell first). The guess: from the side with the most dots in its first two lines,
    then in its first six (a sweep from an empty side decides much before a dot tells it
    anything; on ties rows before columns, forwards before backwards)."""
    rows, columns = lines_of(board)
    kinds = [rows, columns] if board.width == board.height else [
        rows if board.width < board.height else columns]
    ways = [(lines[::-1] if backward else lines, backward) for lines in kinds
            for backward in (False, True)]

    def near_dots(way: tuple[list[int], bool]) -> tuple[int, int]:
        return tuple(sum((dots & line).bit_count() for line in way[0][:n]) for n in (2, 6))

    return sorted(ways, key=near_dots, reverse=True)


def lines_of(board: Board) -> tuple[list[int], list[int]]:
    """The rows and the columns of the board, as masks."""
    row = (1 << board.width) - 1
    column = sum(1 << (r * board.stride) for r in range(board.height))
    return ([(row << (r * board.stride)) & board.all for r in range(board.height)],
            [(column << c) & board.all for c in range(board.width)])
