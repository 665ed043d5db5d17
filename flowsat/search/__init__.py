"""The best-first search backend, in the style of the 2016 C solver (see README, "Search").

`problem.py` is the search problem (states, moves, checks, forced moves, goal, heuristic),
`algorithm.py` the search (queue, limits, stats), `board.py` the bitboards both stand on, and
`backend.py` turns a puzzle and options into a problem and the outcome into a `Result`.
"""

from flowsat.search.backend import DEFAULT_PRESET, OPTIONS, PRESETS, SWITCHES, solve

__all__ = ["DEFAULT_PRESET", "OPTIONS", "PRESETS", "SWITCHES", "solve"]
