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
EMPTY_CELLS_SOLVER = "cadical195"  # with cells free to stay empty (docs/counting.md)
# and in its focused mode only (no stable phases, no local search): fewer conflicts in the
# proofs that no other solution is left (docs/counting.md, "Empty cells: the slow boards")
EMPTY_CELLS_OPTIONS = {"stabilize": 0, "walk": 0}


def solver_for(rules: Rules) -> str:
    """The solver enumerate uses by default under these rules: CaDiCaL 1.9.5 where cells
    may stay empty and paths may not touch themselves (it proves the 2016 puzzles have no
    second solution in 1.5 to 3 times fewer seconds than Glucose 4), Glucose 4 elsewhere."""
    return (EMPTY_CELLS_SOLVER if not rules.fill_all and not rules.self_touch
            else DEFAULT_SOLVER)


@dataclass(frozen=True)
class Enumerate:
    """Counts by finding every solution (see the module docstring)."""

    encoding: str = DEFAULT_ENCODING
    solver: str | None = None  # None: `solver_for` the rules
    name = "enumerate"
    summary = "SAT enumeration with blocking clauses (the baseline)"

    def refuses(self, puzzle: Puzzle, rules: Rules) -> str | None:
        return None

    def count(self, puzzle: Puzzle, rules: Rules, limits: Limits, limit: int | None = None,
              progress: Progress | None = None) -> Count:
        with Enumeration(puzzle, rules, self.encoding, self.solver) as listing:
            end = None if limits.timeout is None else listing.start + limits.timeout
            listing.run(end, limit, progress)
            return listing.counted()


class Enumeration:
    """One puzzle's enumeration under way: its solver (and what it has learnt) and the
    solutions found so far, run up to a deadline and run on again later (auto runs it in
    this process for a while, then on in a forked child, which keeps both)."""

    def __init__(self, puzzle: Puzzle, rules: Rules, encoding: str = DEFAULT_ENCODING,
                 solver: str | None = None):
        from flowsat.sat.formula import encode
        from flowsat.sat.fresh import Fresh, carried
        from flowsat.sat.oracle import open_oracle, solver_name

        self.start = time.perf_counter()
        chosen = solver_for(rules)
        options = EMPTY_CELLS_OPTIONS if not solver and chosen == EMPTY_CELLS_SOLVER else None
        solver = solver or chosen
        self.puzzle, self.rules = puzzle, rules
        formula = encode(puzzle, encoding, rules)
        self.stats: dict = {"encoding": formula.spec.name, "solver": solver_name(solver),
                            "cycle_cuts": 0, "rounds": 0, "solve_s": 0.0,
                            **({"solver_options": options} if options else {})}
        self.found, self.answer = 0, True  # True: none looked for yet (as at a limit)
        self.sat = open_oracle(solver, formula.clauses, options)
        try:
            carried(formula, self.sat)  # a propagator, where the encoding has one
        except BaseException:
            self.sat.__exit__(None, None, None)
            raise
        # the uniqueness (corner) rule holds for every solution without self-touch: kept on
        # (a route that never relaxes it: `limit` 0)
        self.route = Fresh(formula, self.sat, None, self.stats, 0, ())

    def __enter__(self) -> Enumeration:
        return self

    def __exit__(self, *exc) -> None:
        self.sat.__exit__(*exc)

    def run(self, end: float | None, limit: int | None = None,
            progress: Progress | None = None) -> bool | None:
        """Solutions found, checked, counted and blocked until none is left (False), the
        deadline (None) or `limit` solutions in all (True)."""
        from flowsat.sat.loop import next_solution

        self.route.deadline, shown = end, time.perf_counter()
        while self.answer is not False and (limit is None or self.found < limit):
            self.answer, paths, model = next_solution(self.route)
            if self.answer is not True:
                break
            check(self.puzzle, paths, self.rules)
            self.found += 1
            self.route.block(model)
            if progress and time.perf_counter() - shown > PROGRESS_EVERY_S:
                shown = time.perf_counter()
                progress(self.found, 0, self.found)
        return self.answer

    def counted(self) -> Count:
        """The count so far: exact once no model is left, else a lower bound."""
        stats = {**self.stats, "total_s": round(time.perf_counter() - self.start, 6),
                 "solve_s": round(self.stats["solve_s"], 6)}
        if (conflicts := self.sat.stats().get("conflicts")) is not None:
            stats["conflicts"] = conflicts
        status = ("counted" if self.answer is False else "timeout" if self.answer is None
                  else "limit")
        return Count(self.found, self.answer is False, status, stats)


COUNTER = Enumerate()
