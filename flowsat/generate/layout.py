"""A filling under edit: paths that cover the board, joined end to end or cut in two.

A layout is its set of links (pairs of consecutive cells of a path): joining two paths adds
the link between an end of each, cutting one removes a link. So edits commute, and undoing a
join is cutting its link again. No edit lets a path touch itself side by side.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise

from flowsat.generate.filling import around
from flowsat.puzzle.board import Board
from flowsat.puzzle.model import Cell, Paths

Link = tuple[Cell, Cell]


class Layout:
    """Paths covering a height x width board (by default the plain square one: any board
    without bridges), each path's cells in order, and who owns each cell."""

    def __init__(self, paths: list[list[Cell]], height: int, width: int,
                 board: Board | None = None):
        self.height, self.width = height, width
        self.board = board or Board.square(width, height)
        self.paths: dict[int, list[Cell]] = dict(enumerate(p[:] for p in paths))
        self.owner = {cell: k for k, path in self.paths.items() for cell in path}
        self.next_id = len(paths)

    def __len__(self) -> int:
        return len(self.paths)

    def neighbors(self, cell: Cell) -> list[Cell]:
        """The cells joined to cell by an open link of the board, in its direction order."""
        return around(self.board)[cell]

    def ends(self, longest: int | None = None) -> list[Cell]:
        """The ends of every path (of at most `longest` cells)."""
        return [end for path in self.paths.values() if longest is None or len(path) <= longest
                for end in (path[0], path[-1])]

    def joins(self) -> list[Link]:
        """Every link that would join two paths into one obeying the rule: from an end of
        one to an end of another, next to it."""
        found = []
        for a in self.ends():
            for b in self.neighbors(a):
                if a < b and self.owner[a] != self.owner[b] and self.is_end(b) \
                        and self.joinable(self.owner[a], self.owner[b]):
                    found.append((a, b))
        return found

    def is_end(self, cell: Cell) -> bool:
        path = self.paths[self.owner[cell]]
        return cell in (path[0], path[-1])

    def joinable(self, p: int, q: int) -> bool:
        """Whether paths p and q touch side by side only once (at the joint), so that the
        joined path does not touch itself."""
        small, other = sorted((p, q), key=lambda k: len(self.paths[k]))
        contacts = 0
        for cell in self.paths[small]:
            contacts += sum(self.owner[n] == other for n in self.neighbors(cell))
            if contacts > 1:
                return False
        return True

    def join(self, a: Cell, b: Cell) -> None:
        """Join the path ending at a to the path ending at b by the link a-b."""
        p, q = self.owner[a], self.owner[b]
        first, second = self.paths[p], self.paths.pop(q)
        if first[-1] != a:
            first.reverse()
        if second[0] != b:
            second.reverse()
        first += second
        for cell in second:
            self.owner[cell] = p

    def rewire(self, a: Cell, x: Cell, y: Cell) -> bool:
        """Join the path ending at a to the cell x of another path, whose link to its
        neighbor y is cut: the part of x's path beyond x (from y on) becomes a path of its
        own. False, and nothing changes, when that part would be shorter than 3 cells (a
        pair of adjacent dots gives nothing to solve) or the joined path would touch itself."""
        p, q = self.owner[a], self.owner[x]
        if p == q or self.owner[y] != q:
            return False
        path = self.paths[q]
        i, j = path.index(x), path.index(y)
        if abs(i - j) != 1 or (len(path) - j if j > i else j + 1) < 3:
            return False
        self.cut(x, y)
        if not self.joinable(p, self.owner[x]):
            self.join(x, y)
            return False
        self.join(a, x)
        return True

    def cut(self, a: Cell, b: Cell) -> None:
        """Cut the path through the link a-b in two."""
        k = self.owner[a]
        path = self.paths[k]
        i = path.index(a)
        i += path[i + 1:i + 2] == [b]  # the cut falls after a when b follows a
        self.paths[k], tail = path[:i], path[i:]
        self.paths[self.next_id] = tail
        for cell in tail:
            self.owner[cell] = self.next_id
        self.next_id += 1

    def links(self) -> list[Link]:
        """Every link inside a path, each as a pair of consecutive cells."""
        return [(a, b) for path in self.paths.values() for a, b in pairwise(path)]

    def cuts(self, shortest: int = 3) -> list[Link]:
        """The links whose cut leaves two paths of at least `shortest` cells each."""
        return [(path[i - 1], path[i]) for path in self.paths.values()
                for i in range(shortest, len(path) - shortest + 1)]

    def lettered(self, letters: str) -> Paths:
        return lettered(self.paths.values(), letters)


def lettered(paths: Iterable[list[Cell]], letters: str) -> Paths:
    """The paths named by letters in reading order of their first dot; each path runs from
    its dot that comes first in reading order."""
    ordered = sorted((p if p[0] < p[-1] else p[::-1] for p in paths), key=lambda p: p[0])
    return dict(zip(letters, ordered, strict=False))
