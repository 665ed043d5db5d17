"""The enumerate counter, the baseline: SAT on the default route (the encoding's formula,
cycles cut as models show them), each solution checked, counted, blocked by its links, until
the formula has no model left. Any encoding and solver; the count so far is a lower bound
when it stops early."""

from __future__ import annotations

import time
from dataclasses import dataclass

from flowsat.checker import check
from flowsat.count.contract import Count, Limits, Progress
from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import Rules
from flowsat.sat.options import DEFAULT_ENCODING, DEFAULT_SOLVER

PROGRESS_EVERY_S = 1.0


@dataclass(frozen=True)
class Enumerate:
    """Counts by finding every solution (see the module docstring)."""

    encoding: str = DEFAULT_ENCODING
    solver: str = DEFAULT_SOLVER
    name = "enumerate"
    summary = "SAT enumeration with blocking clauses (the baseline)"

    def refuses(self, puzzle: Puzzle, rules: Rules) -> str | None:
        return None

    def count(self, puzzle: Puzzle, rules: Rules, limits: Limits, limit: int | None = None,
              progress: Progress | None = None) -> Count:
        from flowsat.sat.formula import encode
        from flowsat.sat.fresh import Fresh, carried
        from flowsat.sat.loop import next_solution
        from flowsat.sat.oracle import open_oracle, solver_name

        start = time.perf_counter()
        end = None if limits.timeout is None else start + limits.timeout
        formula = encode(puzzle, self.encoding, rules)
        stats: dict = {"encoding": formula.spec.name, "solver": solver_name(self.solver),
                       "cycle_cuts": 0, "rounds": 0, "solve_s": 0.0}
        found, answer, shown = 0, True, start
        with open_oracle(self.solver, formula.clauses) as sat:
            carried(formula, sat)  # a propagator, where the encoding has one
            # the uniqueness (corner) rule holds for every solution without self-touch: kept
            # on (a route that never relaxes it: `limit` 0)
            route = Fresh(formula, sat, end, stats, 0, ())
            while limit is None or found < limit:
                answer, paths, model = next_solution(route)
                if answer is not True:
                    break
                check(puzzle, paths, rules)
                found += 1
                route.block(model)
                if progress and time.perf_counter() - shown > PROGRESS_EVERY_S:
                    shown = time.perf_counter()
                    progress(found, 0, found)
        stats["total_s"] = round(time.perf_counter() - start, 6)
        stats["solve_s"] = round(stats["solve_s"], 6)
        status = "counted" if answer is False else "timeout" if answer is None else "limit"
        return Count(found, answer is False, status, stats)


COUNTER = Enumerate()
