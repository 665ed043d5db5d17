"""Dead ends: a free cell that a path could enter but never leave.

Rules: with cells left empty (`--allow-empty`) such a cell may simply stay empty, so the check
becomes `dead_head`: an open end of a flow not complete must still leave by a free cell (or
join its other end), which holds whatever the rule on cells.

Kinds: a graph notion, counted with the square bitboards' shifts, or through the board's link
masks (`Board.sides`) on any other board: every kind (a bridge's two passes are two cells, each
with the two neighbors of its way).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from flowsat.search.board import tally
from flowsat.search.checks import EVERY, Switch

if TYPE_CHECKING:
    from flowsat.search.state import State


def dead_end(stride: int, free: int, ends: int) -> bool:
    """Some free cell has at most one open neighbor (free, or a head or tail of a flow not
    yet complete), on a board without walls or warps (by shifts alone)."""
    o = free | ends
    a, b, c, d = o << 1, o >> 1, o << stride, o >> stride
    two = (a & b) | (c & d) | ((a | b) & (c | d))
    return bool(free & ~two)


def dead_end_linked(board, free: int, ends: int) -> bool:
    """`dead_end` through the board's open links (walls, any board graph)."""
    return bool(free & ~tally(board.sides(free | ends))[1])


def dead_head(problem, s: State) -> bool:
    """Some open end of a flow not complete has no free neighbor and is not next to the
    flow's other end: the flow cannot go on (with cells left empty, the only dead ends)."""
    stuck = s.ends & ~problem.board.spread(s.free)
    if not stuck:
        return False
    nbrs, tails = problem.board.nbrs, s.tails
    return any((stuck >> h & 1 or stuck >> tails[c] & 1) and not nbrs[h] >> tails[c] & 1
               for c, h in enumerate(s.heads) if not s.done >> c & 1)


def check(problem) -> Callable[[State], bool]:
    if not problem.fill_all:
        return lambda s: not dead_head(problem, s)
    board = problem.board
    if board.kinds - {"holes"} != {"square"}:  # the neighbors through open links
        return lambda s: not dead_end_linked(board, s.free, s.ends)
    stride = board.stride
    return lambda s: not dead_end(stride, s.free, s.ends)


SWITCHES = (Switch("deadends", "prune a free cell with at most one open neighbor", 10,
                   kinds=EVERY, check=check, stat="pruned_deadend"),)
