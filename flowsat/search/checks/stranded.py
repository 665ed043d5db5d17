"""Stranded flows and regions: a flow cut off from its goal, free space no flow can fill.

Kinds: a graph notion; the regions are flood-filled on the bitboards through open links (warps
too): every kind (a bridge's two passes are two cells, so a bridge joins the regions on each
side of it way by way, as the paths through it do).
"""

from __future__ import annotations

from collections.abc import Callable

from flowsat.search.checks import EVERY, Switch
from flowsat.search.state import State


def regions_ok(problem, s, served: list[int]) -> bool:
    """Every region is served by some flow (else no path can fill it), and every flow not
    complete by some region (else it is cut off from its goal)."""
    if not all(served):
        return False
    every = 0
    for ok in served:
        every |= ok
    return all(every >> c & 1 or problem.joined(s, c)
               for c in problem.priority if not s.done >> c & 1)


def check(problem) -> Callable[[State], bool]:
    return lambda s: regions_ok(problem, s, problem.served(s))


SWITCHES = (Switch("stranded", "prune a flow cut off from its goal, or free space no flow can "
                   "fill", 30, kinds=EVERY, check=check,
                   stat="pruned_stranded"),)
