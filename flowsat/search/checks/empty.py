"""The switches of the rule that lets cells stay empty (`--allow-empty`): shortcuts (the search
draws only paths that never touch themselves) and filling first.

Rules: both hold with cells left empty only (with every cell filled they are the search itself
or unsound). Shortcuts: a path p_0 … p_n that touches itself has two cells p_i, p_j
(j > i + 1) joined by an open link, and so a shortcut p_0 … p_i p_j … p_n between the same
dots; the cells it skips are on no other path and are no dots (a path's dots are its ends), so
they may stay empty. Each shortcut makes the path shorter, so taking them while there are any
ends with a path that touches itself nowhere, and doing so for every path gives a solution
under the no-self-touch rule, which is one under `--allow-self-touch` too. So a puzzle has a
solution with cells left empty exactly when it has one without self-touch: with
`--allow-self-touch` the search looks only for those, with every rule of the no-self-touch
search (a head next to its tail joins it, the 2x2 rule). Off with `--hint` (a hinted cell may
be one a shortcut skips). Filling first: a solution with every cell filled is one with cells
left empty, and the search finds it with far stronger deductions (a free cell needs two
links, parity, regions no flow can fill); so a bounded search for one comes first, then the
complete search with cells left empty (whose answer, unsolvable too, is the puzzle's).

Kinds: arguments on the board's graph: every kind (a warp is a link like any other; a
bridge's pass has only the two links of its way, both to cells next to it on its path, so it
never touches its path).
"""

from __future__ import annotations

from flowsat.options import Bounds
from flowsat.search.checks import ALLOW_EMPTY, EVERY, Switch

SWITCHES = (
    Switch("shortcuts", "with --allow-empty: draw only paths that never touch themselves, "
           "also under --allow-self-touch (a path that does has a shortcut)", 55, kinds=EVERY,
           fills=ALLOW_EMPTY),
    Switch("fill_first", "with --allow-empty: first search for a solution with every cell "
           "filled, for at most N nodes", 56, presets=("full",), on=1000, kinds=EVERY,
           fills=ALLOW_EMPTY, bounds=Bounds(0, 10**12, "states")),
)
