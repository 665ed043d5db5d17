"""Link propagation as a check and its rules (the propagation is `flowsat.search.links`).

Kinds: links are two masks, horizontal and vertical, of the square bitboards: square boards,
with holes and walls or not (the masks hold no links across warps). The 2x2 rule counts only
squares with every side open (across a wall, two cells of a flow do not touch); the corner
rule is proved for the square grid without walls (`Links.turns`; a hole ends a corner's
diagonal as a dot does; a wall beside the cell inside a corner breaks the proof).
"""

from __future__ import annotations

from collections.abc import Callable

from flowsat.search.checks import SQUARE, Switch
from flowsat.search.state import State


def check(problem) -> Callable[[State], bool]:
    """Whether every cell can get its links (`Links.check`)."""
    return problem.links.check


SWITCHES = (
    Switch("links", "propagate the links each cell must make; prune, and force sure links "
           "from heads", 20, presets=("full",), check=check, stat="pruned_links"),
    Switch("tails", "with links: sure links from goal dots extend the flows' tails", 21,
           presets=("full",)),
    Switch("squares", "with links, without self-touch: no three links in a 2x2 square", 22,
           presets=("full",)),
    Switch("corners", "with links, without self-touch: a corner's inside diagonal meets a dot "
           "or a hole", 23, kinds=SQUARE - {"walls"}, presets=("full",)),
)
