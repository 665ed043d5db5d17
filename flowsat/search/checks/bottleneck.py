"""Bottlenecks: a short line of free cells from the last head that too many flows must cross.

Rules: each flow cut off without the line must take a cell of the line on its path; the line
need not be filled, so it holds whatever the rule on cells (`--allow-empty` too).

Kinds: a flow cut off once the line is filled must cross it at a cell of its own, whatever
the line's shape (it runs straight to the edge, a hole or a filled cell), with regions found
through open links: every kind (on a hexagonal board the line runs along one of the six
directions; a bridge's passes are two cells, the line takes the pass of its way, and a flow
crossing the line by the other pass does not cross the line).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from flowsat.options import BOTTLENECK
from flowsat.search.checks import EVERY, Switch

if TYPE_CHECKING:
    from flowsat.search.state import State


def choked(problem, s, limit: int) -> bool:
    """A line of n <= limit free cells from the last head to a wall or filled cell whose
    filling would cut more than n other flows from their goals: those flows must each cross
    the line at a cell of their own, and there are only n."""
    board, free, h = problem.board, s.free, s.heads[s.last]
    others = [c for c in problem.priority if not s.done >> c & 1 and c != s.last
              and not problem.joined(s, c)]
    for step in board.steps:
        x = step[h]
        line, n = 0, 0
        while x >= 0 and free >> x & 1 and n < limit:
            line |= 1 << x
            n += 1
            x = step[x]
        if n and (x < 0 or not free >> x & 1) and len(others) > n \
                and cut_off(board, s, line, others) > n:
            return True
    return False


def cut_off(board, s, line: int, colors: list[int]) -> int:
    """How many of the colors have no region touching both their ends once the cells of the
    line are filled."""
    heads, tails = s.heads, s.tails
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


def check(problem) -> Callable[[State], bool]:
    limit = problem.sw.bottleneck
    return lambda s: s.last < 0 or not choked(problem, s, limit)


SWITCHES = (Switch("bottleneck", "a line of n ≤ N free cells from the last head whose filling "
                   "cuts off more than n flows", 50, on=3, kinds=EVERY, check=check,
                   stat="pruned_bottleneck", bounds=BOTTLENECK),)
