"""The counters as a backend for the bench (`counter = "NAME"` in a plan's configuration):
a run counts the puzzle's solutions instead of finding one. Its result is `solved` when the
count is exact (stats: `count`, `exact`, `counter`), else `timeout` or `limit` with the lower
bound in the stats. It is no backend of `flowsat solve` (not in `flowsat.backend.REGISTRY`):
the bench's workers find it by its module."""

from __future__ import annotations

from dataclasses import dataclass

from flowsat.backend import Limits, Observer, made
from flowsat.options import SOLUTIONS, option
from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import Rules
from flowsat.result import Result, UsageError


@dataclass(frozen=True)
class CountOptions:
    counter: str = option("frontier, sharp-sat, enumerate or auto.",
                          default="frontier")
    limit: int | None = option("Stop counting at this many.", bounds=SOLUTIONS)


class CountBackend:
    """Counting as a bench configuration (see the module docstring)."""

    name = "count"
    Options = CountOptions
    kinds = None
    outside = False
    argument = None
    observes = False
    engine = "flowsat.count"
    counts = True  # its `solved` carries a count, not paths: `solve.run` has nothing to check

    def options(self, **given) -> CountOptions:
        from flowsat.count import REGISTRY

        found = made(self, given)
        if found.counter not in REGISTRY:
            raise UsageError(f"unknown counter {found.counter!r}; choose from "
                             f"{', '.join(REGISTRY)}")
        return found

    def solve(self, puzzle: Puzzle, options: CountOptions, rules: Rules, limits: Limits,
              observe: Observer | None = None) -> Result:
        from flowsat.count import count

        found = count(puzzle, rules, options.counter, limit=options.limit, limits=limits)
        stats = {**found.stats, "count": found.value, "exact": found.exact,
                 "counter": found.counter}
        status = "solved" if found.exact else found.status
        return Result(status, None, stats=stats, config={"counter": found.counter})


BACKEND = CountBackend()
