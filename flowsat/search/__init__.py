"""The best-first search backend, in the style of the 2016 C solver (see README, "Search").

`problem.py` is the search problem (successors, forced moves, goal, heuristic) over the states
and moves of `state.py`, with the link propagation of `links.py` and the checks of the
registry `checks/` (every switch: a module each); `options.py` makes the backend's options,
the switches, presets and stats from that registry. `algorithm.py` is the search (queue,
limits, stats), `board.py` the bitboards all stand on, and `backend.py` turns a puzzle and
options into a problem and the outcome into a `Result`. Its options (`Options`) are light to
import; the backend is imported on first use of `solve`.
"""

from flowsat.search.options import DEFAULT_PRESET, PRESETS, SWITCHES
from flowsat.search.options import SearchOptions as Options

OPTIONS = (*Options.__dataclass_fields__, "observe")  # what `flowsat solve` may pass to solve()
DEFAULTS = {"preset": DEFAULT_PRESET}  # what a result names when no option was given
LAZY = ("solve",)

__all__ = ["DEFAULT_PRESET", "OPTIONS", "PRESETS", "SWITCHES", "Options", "solve"]


def __getattr__(name: str):
    if name not in LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from flowsat.search import backend

    return getattr(backend, name)
