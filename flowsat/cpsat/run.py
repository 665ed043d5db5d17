"""The cpsat backend's work: the puzzle's model (`flowsat.cpsat.model`) within the memory cap,
CP-SAT run within the time left and the conflict budget, its answer read back as paths."""

from __future__ import annotations

import time
from typing import Any

from flowsat.backend import Limits, described
from flowsat.cpsat.model import FlowModel, cp_model, size
from flowsat.cpsat.options import INSTALL, CpsatOptions
from flowsat.memory import cap_mb, resident_mb, shown
from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import Rules
from flowsat.result import Result, UsageError

# MB a literal or clause of the model costs CP-SAT at its peak (the model, its presolved
# copy, the solver's own): about 2.3 KB, measured on the 2016 set and a 50x50 Numberlink
# board (docs/solving.md#cp-sat); the estimate is what the cap is checked against
MB_PER_ITEM = 0.0023
FLOOR_MB = 64.0  # CP-SAT's own start, whatever the model


def solve(puzzle: Puzzle, options: CpsatOptions, rules: Rules, limits: Limits) -> Result:
    """The puzzle's answer by CP-SAT: solved with paths (checked by `flowsat.solve`),
    unsolvable, or why there is none (timeout, limit: the conflicts or the memory)."""
    if cp_model is None:
        raise UsageError(f"the cpsat backend needs OR-Tools: {INSTALL}")
    start = time.perf_counter()
    config = described(options)
    cap = cap_mb(limits.max_memory)
    literals, clauses = size(puzzle)
    need = FLOOR_MB + MB_PER_ITEM * (literals + clauses)
    if need > cap:
        return Result("limit", stats={"literals": literals, "clauses": clauses,
                                      "total_s": round(time.perf_counter() - start, 6)},
                      error=f"the CP-SAT model would need about {shown(need)} ({literals:,} "
                            f"literals, {clauses:,} clauses), above the memory cap of "
                            f"{shown(cap)} (--max-memory)", config=config)
    model = FlowModel(puzzle, rules)
    built = time.perf_counter()
    solver = cp_model.CpSolver()
    set_parameters(solver.parameters, options, limits, cap, built - start)
    status = solver.solve(model.model)
    stats = {"conflicts": solver.num_conflicts, "branches": solver.num_branches,
             "literals": literals, "clauses": clauses,
             "build_s": round(built - start, 6), "solve_s": round(solver.wall_time, 6),
             "total_s": round(time.perf_counter() - start, 6)}
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Result("solved", model.paths(solver), stats, config=config)
    if status == cp_model.INFEASIBLE:
        return Result("unsolvable", stats=stats, config=config)
    if status == cp_model.MODEL_INVALID:
        raise AssertionError(f"CP-SAT finds the model invalid: "
                             f"{model.model.validate() or solver.solution_info()}")
    status, why = stopped(solver, options, limits, cap)
    return Result(status, stats=stats, error=why, config=config)


def set_parameters(parameters: Any, options: CpsatOptions, limits: Limits, cap: float,
                   spent: float) -> None:
    """CP-SAT's limits (the time left of the timeout, the conflicts, the memory cap less
    what this process holds) and its workers and seed."""
    parameters.num_workers = options.workers
    parameters.random_seed = options.seed
    parameters.cp_model_presolve = options.presolve
    if options.linearization is not None:
        parameters.linearization_level = options.linearization
    if limits.timeout is not None:
        parameters.max_time_in_seconds = max(limits.timeout - spent, 0.001)
    if options.max_conflicts is not None:
        parameters.max_number_of_conflicts = options.max_conflicts
    parameters.max_memory_in_mb = max(int(cap - (resident_mb() or 0.0)), 1)


def stopped(solver: Any, options: CpsatOptions, limits: Limits, cap: float
            ) -> tuple[str, str]:
    """Why CP-SAT gave up without an answer (status UNKNOWN), as a status and a line: the
    conflict budget spent, the time up, else the memory cap."""
    if options.max_conflicts is not None and solver.num_conflicts >= options.max_conflicts:
        return "limit", f"no answer within {options.max_conflicts:,} conflicts (--max-conflicts)"
    allowed = solver.parameters.max_time_in_seconds
    if limits.timeout is not None and solver.wall_time >= 0.9 * allowed:
        return "timeout", f"no answer after {solver.wall_time:.3g} s"
    return "limit", (f"CP-SAT stopped at the memory cap of {shown(cap)} (--max-memory): "
                     f"{solver.solution_info() or 'no answer'}")
