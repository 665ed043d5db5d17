"""The cpsat backend's work: the puzzle's model (`flowsat.cpsat.model`) within the memory cap,
CP-SAT run within the time left and the conflict budget, its answer read back as paths."""

from __future__ import annotations

import time
from typing import Any

from flowsat.backend import Limits, described
from flowsat.cpsat.model import FlowModel, cp_model, size
from flowsat.cpsat.options import INSTALL, CpsatOptions
from flowsat.deadline import Timeout, shielded
from flowsat.memory import cap_mb, resident_mb, shown
from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import Rules
from flowsat.result import Result, UsageError

# MB a variable or constraint of the model costs at its peak (the model, its presolved copy,
# the solver's own), and OR-Tools' own start (measured: docs/solving.md, CP-SAT)
MB_PER_ITEM = 0.003
FLOOR_MB = 70.0
# CP-SAT may notice its time limit late (in its presolve, on a busy machine): it is given
# this much less than the time left, so that it stops before the deadline's timer rings
EARLY_S = 0.5


def solve(puzzle: Puzzle, options: CpsatOptions, rules: Rules, limits: Limits) -> Result:
    """The puzzle's answer by CP-SAT: solved with paths (checked by `flowsat.solve`),
    unsolvable, or why there is none (timeout, limit: the conflicts or the memory)."""
    if cp_model is None:
        raise UsageError(f"the cpsat backend needs OR-Tools: {INSTALL}")
    start = time.perf_counter()
    config = described(options)
    cap = cap_mb(limits.max_memory)
    variables, constraints = size(puzzle)
    need = FLOOR_MB + MB_PER_ITEM * (variables + constraints)
    if need > cap:
        return Result("limit", stats={"variables": variables, "constraints": constraints,
                                      "total_s": round(time.perf_counter() - start, 6)},
                      error=f"the CP-SAT model would need about {shown(need)} ({variables:,} "
                            f"variables, {constraints:,} constraints), above the memory cap of "
                            f"{shown(cap)} (--max-memory)", config=config)
    model = FlowModel(puzzle, rules)
    built = time.perf_counter()
    solver = cp_model.CpSolver()
    set_parameters(solver.parameters, options, limits, cap, built - start)
    status = solved(solver, model)
    stats = {"conflicts": solver.num_conflicts, "branches": solver.num_branches,
             "variables": variables, "constraints": constraints,
             "build_s": round(built - start, 6), "solve_s": round(solver.wall_time, 6),
             "total_s": round(time.perf_counter() - start, 6)}
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Result("solved", model.paths(solver), stats, config=config)
    if status == cp_model.INFEASIBLE:
        return Result("unsolvable", stats=stats, config=config)
    if status == cp_model.MODEL_INVALID:
        raise AssertionError(f"CP-SAT finds the model invalid: "
                             f"{model.model.validate() or solver.solution_info()}")
    status, why = stopped(solver, options, limits, cap, time.perf_counter() - start)
    return Result(status, stats=stats, error=why, config=config)


def solved(solver: Any, model: FlowModel) -> Any:
    """CP-SAT's status on the model. Past the timeout CP-SAT stops by itself, but may notice
    it after the deadline's timer rings (on a busy machine, by a second): the timer waits
    for the solve to return (`shielded`), and its answer (UNKNOWN) is read all the same, so
    that a timeout keeps its counts."""
    try:
        with shielded():
            return solver.solve(model.model)
    except Timeout:
        return cp_model.UNKNOWN


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
        left = limits.timeout - spent
        parameters.max_time_in_seconds = max(left - min(EARLY_S, 0.05 * left), 0.001)
    if options.max_conflicts is not None:
        parameters.max_number_of_conflicts = options.max_conflicts
    parameters.max_memory_in_mb = max(int(cap - (resident_mb() or 0.0)), 1)


def stopped(solver: Any, options: CpsatOptions, limits: Limits, cap: float, spent: float
            ) -> tuple[str, str]:
    """Why CP-SAT gave up without an answer (status UNKNOWN), as a status and a line: the
    conflict budget spent, the time up, else the memory cap."""
    if options.max_conflicts is not None and solver.num_conflicts >= options.max_conflicts:
        return "limit", f"no answer within {options.max_conflicts:,} conflicts (--max-conflicts)"
    if limits.timeout is not None and spent >= 0.9 * limits.timeout - EARLY_S:
        return "timeout", f"no answer after {spent:.3g} s"
    return "limit", (f"CP-SAT stopped at the memory cap of {shown(cap)} (--max-memory): "
                     f"{solver.solution_info() or 'no answer'}")
