"""How many solutions a puzzle has: counters behind one contract (`contract.Counter`), in a
registry like the backends', so that `flowsat count` and bench plans can race them.

- `frontier`: dynamic programming over the board's graph (`frontier.py`);
- `sharp-sat`: projected model counting of flowsat's CNF with Ganak (`sharpsat.py`);
- `enumerate`: SAT enumeration with blocking clauses, the baseline (`enumerate.py`);
- `auto` (the default): enumerate while quick, then enumerate and the frontier raced
  (`auto.py`).
"""

from __future__ import annotations

import importlib

from flowsat.count.contract import Count, Counter, Limits, Progress
from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import DEFAULT_RULES, Rules
from flowsat.result import UsageError

REGISTRY: dict[str, str] = {  # name -> module whose `COUNTER` is the counter
    "frontier": "flowsat.count.frontier",
    "sharp-sat": "flowsat.count.sharpsat",
    "enumerate": "flowsat.count.enumerate",
    "auto": "flowsat.count.auto",
}
DEFAULT = "auto"

__all__ = ["DEFAULT", "REGISTRY", "Count", "Counter", "count", "counter"]


def counter(name: str) -> Counter:
    """The registered counter of that name (a UsageError naming the choices otherwise)."""
    if name not in REGISTRY:
        raise UsageError(f"unknown counter {name!r}; choose from {', '.join(REGISTRY)}")
    return importlib.import_module(REGISTRY[name]).COUNTER


def count(puzzle: Puzzle, rules: Rules = DEFAULT_RULES, counter_name: str = DEFAULT, *,
          limit: int | None = None, limits: Limits | None = None,
          progress: Progress | None = None) -> Count:
    """The puzzle's number of solutions by the counter named, or by the next one that takes
    the board when it cannot (`stats["instead_of"]` says which refused, and why)."""
    limits = limits or Limits()
    chosen = counter(counter_name)
    why = chosen.refuses(puzzle, rules)
    if why is not None:
        chosen = next(c for name in REGISTRY if (c := counter(name)).refuses(puzzle, rules)
                      is None)
    found = chosen.count(puzzle, rules, limits, limit, progress).capped(limit)
    found.counter = chosen.name
    if why is not None:
        found.stats["instead_of"] = {"counter": counter_name, "why": why}
    return found
