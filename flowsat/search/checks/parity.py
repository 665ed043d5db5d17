"""Checkerboard parity of the regions of free space.

Rules: counts every free cell as filled; with cells left empty (`--allow-empty`) a region's
cells need not be, so its surplus says nothing (`A.A / ...` is solved by `A.A` alone): off.

Kinds: needs a two-colorable board, each link joining the two colors: square boards, holes,
walls and bridges or not (a bridge's two passes are two cells of its cell's color, each linked
only to its way's neighbors, of the other color). A hexagonal board is not two-colorable (three
cells meet at a corner, each next to the two others), a warp across an odd width or height
joins two cells of one color (parity is off on boards with warps, whatever their size).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from flowsat.search.board import indices
from flowsat.search.checks import FILL_ALL, SQUARE, Switch

if TYPE_CHECKING:
    from flowsat.search.state import State


def parity_ok(problem, s, served: list[int]) -> bool:
    """A path alternates black and white cells, so the free cells a flow fills have one more
    black than white when both its ends are white, one more white when both are black, as
    many when they differ. Each region's surplus of black cells must be the sum over the
    flows that fill it: those it alone serves must, the others may."""
    black, heads, tails = problem.board.black, s.heads, s.tails
    seen = twice = 0
    for ok in served:
        twice |= seen & ok
        seen |= ok
    optional = twice | problem.joinable(s)
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


def check(problem) -> Callable[[State], bool]:
    return lambda s: parity_ok(problem, s, problem.served(s))


SWITCHES = (Switch("parity", "checkerboard parity: each region's black/white surplus must be "
                   "what the flows filling it can make", 40, presets=("full",),
                   kinds=SQUARE | {"bridges"}, check=check, stat="pruned_parity",
                   fills=FILL_ALL),)
