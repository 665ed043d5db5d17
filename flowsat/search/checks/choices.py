"""The search's choices: not checks, but switches like them (which dot starts, the color
order on ties, the queue), sound on every kind of board."""

from __future__ import annotations

from flowsat.options import Bounds
from flowsat.search.checks import EVERY, Switch

SWITCHES = (
    Switch("outside_in", "each flow starts at its dot nearer a wall", 60, kinds=EVERY),
    Switch("autosort", "colors tried on ties: start nearer a wall, goal farther, ends farther "
           "apart", 61, kinds=EVERY),
    Switch("lookahead", "from the Nth state expanded on, move the color whose moves leave the "
           "fewest states that pass the checks (each color's are tried), not the last one "
           "moved", 62, presets=("full",), on=300, kinds=EVERY,
           bounds=Bounds(0, 10**12, "states")),
    Switch("breadth_first", "breadth-first instead of best-first", 70, presets=(), kinds=EVERY),
    Switch("queue_always", "forced moves go through the queue too", 71, presets=(),
           kinds=EVERY),
)
