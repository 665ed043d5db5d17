"""Link propagation as a check and its rules (the propagation is `flowsat.search.links`).

Rules: a free cell needs two links or, with cells left empty (`--allow-empty`), none; so there
a free cell with a sure link (on a path) needs two, and one with fewer than two possible links
stays empty and loses them; an open end needs one either way: the propagation, the sure links
from heads and the tails hold under both rules. The 2x2 and triangle rules are about links
all on one path (they hold wherever a path may not touch itself). The corner rule needs the
cell inside a corner filled (it turns because it has two links and cannot link to the
corner's cells): with cells left empty it may stay empty, so it is off.

Kinds: links are masks, one for each way of the board's links (`Board.ways`), and the
propagation counts a cell's links whatever the graph: every kind (a bridge's two passes are two
cells, with two links each; a warp is a link like any other), and so the tails. The 2x2 rule
holds on any cycle of four cells whose four links are open (three links make a U-turn whose
ends touch), counted on the square grid's 2x2 squares without a wall, and on any other board
on the cycles i, i+s, i+s+t, i+t of two ways s, t (`GraphLinks.find_fours`: hexagonal
rhombi, squares across warps; a square around a bridge is no cycle of its passes, which is
right: a U-turn round a bridge passes one way and is next to the other pass, no touch): every
kind. The triangle rule holds on any graph too (of three cells each linked to the others, two
links make a path touch itself): every kind, though only hexagonal boards (and warps across 3
cells) have triangles. The corner rule is proved for the square grid without walls
(`Links.turns`; a hole ends a corner's diagonal as a dot does; a wall beside the cell inside a
corner breaks the proof, and so does a bridge: the cell inside may be one; a hexagonal board
has no such corners).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from flowsat.search.checks import EVERY, FILL_ALL, SQUARE, Switch

if TYPE_CHECKING:
    from flowsat.search.state import State


def check(problem) -> Callable[[State], bool]:
    """Whether every cell can get its links (`Links.check`)."""
    return problem.links.check


SWITCHES = (
    Switch("links", "propagate the links each cell must make; prune, and force sure links "
           "from heads", 20, presets=("full",), kinds=EVERY, check=check, stat="pruned_links"),
    Switch("tails", "with links: sure links from goal dots extend the flows' tails", 21,
           presets=("full",), kinds=EVERY),
    Switch("squares", "with links, without self-touch: no three links in a 2x2 square (a cycle "
           "of four cells)", 22, kinds=EVERY, presets=("full",)),
    Switch("triangles", "with links, without self-touch: at most one link in a triangle of "
           "cells", 24, kinds=EVERY, presets=("full",)),
    Switch("corners", "with links, without self-touch: a corner's inside diagonal meets a dot "
           "or a hole", 23, kinds=SQUARE - {"walls"}, presets=("full",), fills=FILL_ALL),
)
