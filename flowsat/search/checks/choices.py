"""The search's choices: not checks, but switches like them (which dot starts, the color
order on ties, the queue), sound on every kind of board."""

from __future__ import annotations

from flowsat.search.checks import EVERY, Switch

SWITCHES = (
    Switch("outside_in", "each flow starts at its dot nearer a wall", 60, kinds=EVERY),
    Switch("autosort", "colors tried on ties: start nearer a wall, goal farther, ends farther "
           "apart", 61, kinds=EVERY),
    Switch("breadth_first", "breadth-first instead of best-first", 70, presets=(), kinds=EVERY),
    Switch("queue_always", "forced moves go through the queue too", 71, presets=(),
           kinds=EVERY),
)
