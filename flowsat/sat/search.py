"""The SAT backend's search: which route answers a puzzle (propagation first, the board's
compiled solver, or a formula of its own), each run by the one loop (`flowsat.sat.loop`).

Cycles detached from the dots satisfy the local clauses; each model is traced from the dots
(`decode`), the cells left over form cycles, each cycle is cut by a clause added to the same
solver instance, and the solver runs again (incrementally: nothing is rebuilt or reloaded).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from flowsat.backend import NO_LIMITS, Limits, Observer
from flowsat.memory import cap_mb, collector_paused, shown
from flowsat.puzzle.model import Paths, Puzzle
from flowsat.puzzle.rules import DEFAULT_RULES, Rules
from flowsat.result import Result, UsageError
from flowsat.sat.choices import wrong_solver
from flowsat.sat.deduce import OFF, ON, RESIDUE_SHARE, Propagation, corners_hold, counts, propagated
from flowsat.sat.encoder import Encoder
from flowsat.sat.estimate import Size, deduction_mb, formula_size, size_of
from flowsat.sat.formula import Encoding, cell_count, encode
from flowsat.sat.fresh import Fresh, block_known, carried
from flowsat.sat.kept import Kept
from flowsat.sat.loop import Budget, solutions
from flowsat.sat.options import DEDUCE_FROM, SatOptions
from flowsat.sat.oracle import Oracle, open_oracle, solver_name

if TYPE_CHECKING:  # imported where used: only propagation on large boards needs it
    from flowsat.sat import residue

Answer = tuple[Result, list[Paths]]  # a search's result and the solutions it found
DEFAULTS = SatOptions()


@collector_paused()
def search(puzzle: Puzzle, limit: int, options: SatOptions = DEFAULTS,
           rules: Rules = DEFAULT_RULES, limits: Limits = NO_LIMITS, *,
           known: Sequence[Paths] = (), observe: Observer | None = None,
           kept: Kept | None = None) -> Answer:
    """Up to `limit` distinct solutions, each one blocked before the next is looked for.

    With limit > 1 the stats say how many were found (`solutions`) and whether the search ran
    out of solutions (`exhausted`), so that one solution and `exhausted` means it is unique.
    `known` solutions are blocked before the search and not counted: with one known solution,
    `unsolvable` proves it unique. An encoding with the uniqueness rule looking for one
    solution solves with it first and, finding nothing, again without it (`route` in the
    stats says which answered); counting and proofs keep it on with no fall-back, as every
    solution obeys it (it follows from the no-self-touch rule: see `rules.corner_rules`).
    `options.max_conflicts` bounds the solver's conflicts over the whole search (status
    `limit`): a budget that, unlike a timeout, ends the same way on every machine.
    `observe("model", paths, cycles)` is called with each model that has cycles, before they
    are cut (for animations). A formula whose estimate (then whose built size) passes
    `limits.max_memory` MB (default: `memory.default_cap_mb()`) is not built (not loaded):
    status `limit`. `kept` is what the caller keeps from one puzzle to the next (its compiled
    boards: `flowsat.sat.kept`); None: the puzzle is encoded alone.
    """
    return Search(puzzle, limit, options, rules, limits, known, observe, kept).run()


class Search:
    """One search: what it looks for and with what, when it started, its deadline and memory
    cap, what its result names (`config`) and its stats so far."""

    def __init__(self, puzzle: Puzzle, limit: int, options: SatOptions, rules: Rules,
                 limits: Limits, known: Sequence[Paths] = (), observe: Observer | None = None,
                 kept: Kept | None = None):
        self.start = time.perf_counter()
        self.puzzle, self.limit, self.options, self.rules = puzzle, limit, options, rules
        self.known, self.observe, self.kept = known, observe, kept
        self.deadline = None if limits.timeout is None else self.start + limits.timeout
        self.solver = solver_name(options.solver, limits.timeout)
        self.spec, self.cap = options.spec, cap_mb(limits.max_memory)
        if wrong := wrong_solver(self.spec, self.solver):  # (a propagator's)
            raise UsageError(f"encoding {self.spec.name}: {wrong}")
        self.config: dict = {"encoding": self.spec.name, "solver": self.solver}
        self.stats: dict = {}

    def run(self) -> Answer:
        """Propagation first where it is on (alone, when the residue is small enough), then
        the formula."""
        if not deducing(self.options.deduce, self.puzzle, self.rules):
            return self.by_formula()
        needed = deduction_mb(self.puzzle)
        if needed > self.cap:
            return self.over_cap(f"propagation would need about {shown(needed)}", needed)
        forced = first_deduce(self.puzzle, self.rules, self.deadline)
        self.config["deduce"] = True
        if forced.residue is not None or forced.propagation is None:
            return self.by_deduction(forced)
        return self.by_formula(forced)

    @property
    def compiles(self) -> bool:
        """Whether the board's compiled solver may answer: asked for, and no conflict budget
        (a budget must end the same way whatever the solver met before)."""
        return (self.kept is not None and self.options.compiled == "auto"
                and self.options.max_conflicts is None)

    def on_compiled_board(self) -> tuple | None:
        """`compiled.attempt`: the puzzle on its board's compiled solver, or None (the board's
        first puzzle alone, or one that does not fit). The boards are made from a block of
        more than one puzzle on, else from the second search: a run of one puzzle pays
        nothing for them (its first puzzle waits in `Kept.first`, to count as its board's
        first)."""
        kept = self.kept
        if kept.waits():
            kept.first.append([self.puzzle, self.spec, self.rules, self.solver, self.cap])
            return None
        boards = kept.compiled()
        return kept.attempt(boards, self)

    def measured(self, literals: int) -> None:
        """The per-puzzle route's cost on a puzzle the compiled route could have answered,
        for its board's choice of route (`boards.Boards.measured`)."""
        kept = self.kept
        if kept.first:  # the run's first puzzle (this one): told with it
            kept.first[-1] += [self.stats, literals]
        elif (boards := kept.boards) is not None:
            from flowsat.sat.boards import board_key, cost

            key = board_key(self.puzzle, self.spec, self.rules, self.solver)
            boards.measured(key, False, cost(self.stats, literals))

    def by_deduction(self, forced: Forced) -> Answer:
        """By propagation and the residue formula (or none: a contradiction)."""
        self.stats = {"cycle_cuts": 0, "rounds": 0, "solve_s": 0.0, "decode_s": 0.0,
                      **forced.stats}
        budget = None if self.options.max_conflicts is None else self.budgeted
        answer, found = False, []
        if forced.propagation is not None:
            from flowsat.sat import residue

            answer, found = residue.search(forced.propagation, forced.residue, self.limit,
                                           self.solver, self.deadline, self.stats,
                                           list(self.known), budget)
        return self.finished(answer, found, self.stats.pop("out_of_budget", False))

    def by_formula(self, forced: Forced | None = None) -> Answer:
        """By the whole formula (with the links propagation forced, if it ran), unless its
        estimate or its built size passes the memory cap."""
        puzzle, rules = self.puzzle, self.rules
        if forced is None and self.compiles and (done := self.on_compiled_board()):
            answer, found, out_of_budget, self.stats = done
            return self.finished(answer, found, out_of_budget)
        estimate = formula_size(puzzle, self.spec, rules, self.cap)
        if estimate is not None and estimate.mb > self.cap:
            return self.formula_over_cap(estimate, "would need about")
        formula = encode(puzzle, self.spec, rules)
        if forced is not None:
            formula.enc.clauses += fixed(formula, forced.propagation.state)
        built = size_of(formula)
        if built.mb > self.cap:
            return self.formula_over_cap(built, "needs")
        self.stats = stats = {
            "variables": formula.enc.top, "clauses": len(formula.clauses), "cycle_cuts": 0,
            "rounds": 0, "encode_s": time.perf_counter() - self.start, "solve_s": 0.0,
            "decode_s": 0.0, **(forced.stats if forced else {})}
        loading = time.perf_counter()
        with open_oracle(self.solver, formula.clauses) as sat:
            engine = carried(formula, sat)
            stats["load_s"] = time.perf_counter() - loading
            for paths in self.known:
                block_known(formula, sat, paths)
            oracle = sat if self.options.max_conflicts is None else self.budgeted(sat)
            route = Fresh(formula, oracle, self.deadline, stats, self.limit, self.known)
            answer, found = solutions(route, self.limit, self.observe)
            stats.update(sat.stats(), **getattr(engine, "stats", {}))
            out_of_budget = isinstance(oracle, Budget) and oracle.left() <= 0
        if formula.unique and self.limit == 1 and not self.known:
            stats["route"] = "uniqueness rule" if route.assumptions else "complete"
        formula.enc.clauses = []  # freed now: the cycle collector would (its names point back)
        if forced is None and self.compiles:
            self.measured(built.literals)
        return self.finished(answer, found, out_of_budget)

    def budgeted(self, sat: Oracle) -> Budget:
        """The oracle under the search's conflict budget."""
        return Budget(sat, self.options.max_conflicts)

    def finished(self, answer: bool | None, found: list[Paths], out_of_budget: bool) -> Answer:
        """The result of a search that ended with `answer` (False: no more solutions, None:
        stopped, by the budget or the deadline) and the solutions found."""
        stats = self.stats
        if self.limit > 1:
            stats.update(solutions=len(found), exhausted=answer is False)
        stats["total_s"] = time.perf_counter() - self.start
        for k, v in stats.items():  # (rounded in place: the search's own, made afresh)
            if type(v) is float:
                stats[k] = round(v, 6)
        stopped = "limit" if out_of_budget else "timeout"
        if answer is None and self.limit > 1:
            stats["stopped"] = stopped
        status = "solved" if found else "unsolvable" if answer is False else stopped
        return Result(status, found[0] if found else None, stats=stats,
                      config=self.config), found

    def formula_over_cap(self, size: Size, needs: str) -> Answer:
        """Status `limit` for a formula above the memory cap, saying what it would take."""
        return self.over_cap(f"the formula {needs} {shown(size.mb)} ({size.variables:,} "
                             f"variables, {size.clauses:,} clauses, {size.literals:,} "
                             f"literals)", size.mb)

    def over_cap(self, text: str, mb: float) -> Answer:
        """Status `limit`: what would pass the memory cap."""
        return Result("limit", stats={"memory_mb": round(mb, 1),
                                      "total_s": round(time.perf_counter() - self.start, 6)},
                      error=f"{text}, above the memory cap of {shown(self.cap)} "
                            f"(--max-memory)", config=self.config), []


def deducing(deduce: str, puzzle: Puzzle, rules: Rules) -> bool:
    """Whether to propagate first: on, off, or auto (on boards of DEDUCE_FROM cells or more
    where the corner rule holds, where the numpy rounds run: they pay there)."""
    if deduce == "auto":
        return cell_count(puzzle) >= DEDUCE_FROM and corners_hold(puzzle.board, rules)
    return deduce == "on"


@dataclass
class Forced:
    """What propagation first found: the finished propagation (None: a contradiction), the
    residue formula when the residue is small enough to go alone (else None: the encoding
    goes, with the forced links as units), and the stats."""

    propagation: Propagation | None
    residue: residue.Residue | None
    stats: dict


def first_deduce(puzzle: Puzzle, rules: Rules, deadline: float | None = None) -> Forced:
    """Propagate, then make the residue formula if the residue is small (RESIDUE_SHARE)."""
    t = time.perf_counter()
    p = propagated(Encoder(puzzle, rules=rules), deadline)
    res, made = None, {}
    if p is not None:
        state = np.frombuffer(p.state, dtype=np.uint8)
        made = counts(state)  # (a count of a million links: once)
        if made["undecided"] <= RESIDUE_SHARE * len(state):
            from flowsat.sat import residue

            try:
                res = residue.residue(p)
            except residue.NoSolution:
                p = None
    stats = {"deduce_s": time.perf_counter() - t, **(made if p else {"deduced": "unsolvable"})}
    return Forced(p, res, stats)


def fixed(formula: Encoding, state: bytearray) -> list[list[int]]:
    """The forced links as clauses of the encoding: each made link's literals (one clause:
    linked), each left-out link's negated (units)."""
    clauses: list[list[int]] = []
    for (i, j), s in zip(formula.enc.edges, state, strict=True):
        if s == ON:
            clauses.append(formula.links.linked(i, j))
        elif s == OFF:
            clauses += [[-x] for x in formula.links.linked(i, j)]
    return clauses
