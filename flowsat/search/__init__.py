"""The best-first search backend, in the style of the 2016 C solver (see docs/search.md).

`problem.py` is the search problem (successors, forced moves, goal, heuristic) over the states
and moves of `state.py`, with the link propagation of `links.py` and the checks of the
registry `checks/` (every switch: a module each); `cells.py` is the other problem
(`--problem cells`: each cell's links decided in a sweep, with the same propagation);
`options.py` makes the backend's options, the switches, presets and stats from that registry.
`algorithm.py` is the search (queue, limits, stats), `board.py` the bitboards all stand on,
and `backend.py` turns a puzzle and options into a problem (or two sweeps taking turns) and
the outcome into a `Result`. The backend object (`BACKEND`) and its
options are light to import; the search is imported on first use of `solve`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from flowsat.backend import Limits, Observer, made
from flowsat.search.checks import EVERY
from flowsat.search.options import DEFAULT_PRESET, PRESETS, SWITCHES, SearchOptions

if TYPE_CHECKING:
    from flowsat.puzzle.model import Puzzle
    from flowsat.puzzle.rules import Rules
    from flowsat.result import Result

__all__ = ["BACKEND", "DEFAULT_PRESET", "PRESETS", "SWITCHES", "SearchOptions"]


class Search:
    """The best-first backend (`flowsat.backend.Backend`)."""

    name: ClassVar[str] = "astar"
    Options: ClassVar[type] = SearchOptions
    kinds: ClassVar[frozenset[str]] = EVERY  # what the bitboards know (`board.KINDS`)
    outside: ClassVar[bool] = False
    argument: ClassVar[str | None] = None
    observes: ClassVar[bool] = True
    engine: ClassVar[str] = "flowsat.search.backend"

    def options(self, **given: Any) -> SearchOptions:
        return made(self, given)

    def solve(self, puzzle: Puzzle, options: SearchOptions, rules: Rules, limits: Limits,
              observe: Observer | None = None) -> Result:
        from flowsat.search.backend import solve

        return solve(puzzle, options, rules, limits, observe)


BACKEND = Search()
