"""Stranded flows and regions: a flow cut off from its goal, free space no flow can fill.

Rules: with cells left empty (`--allow-empty`) free space no flow can fill stays empty, so only
the flows are checked (`flows_reach`): a flow's path from its head to its tail runs through
free cells, all in one region touching both ends (or it joins them at once), whatever the rule
on cells.

Kinds: a graph notion; the regions are flood-filled on the bitboards through open links (warps
too): every kind (a bridge's two passes are two cells, so a bridge joins the regions on each
side of it way by way, as the paths through it do).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from flowsat.search.checks import EVERY, Switch

if TYPE_CHECKING:
    from flowsat.search.state import State


def regions_ok(problem, s, served: list[int]) -> bool:
    """Every region is served by some flow (else no path can fill it), and every flow not
    complete by some region (else it is cut off from its goal)."""
    return all(served) and flows_reach(problem, s, served)


def flows_reach(problem, s, served: list[int]) -> bool:
    """Every flow not complete is served by some region or may end at once."""
    every = 0
    for ok in served:
        every |= ok
    return all(every >> c & 1 or problem.joined(s, c)
               for c in problem.priority if not s.done >> c & 1)


def check(problem) -> Callable[[State], bool]:
    ok = regions_ok if problem.fill_all else flows_reach
    return lambda s: ok(problem, s, problem.served(s))


SWITCHES = (Switch("stranded", "prune a flow cut off from its goal, or free space no flow can "
                   "fill", 30, kinds=EVERY, check=check,
                   stat="pruned_stranded"),)
