"""The SAT backend's search: compile a puzzle to CNF, solve it with a PySAT solver, cut
cycles, decode; or propagate first and solve what is left (`residue`).

Cycles detached from the dots satisfy the local clauses; each model is traced from the dots
(`decode`), the cells left over form cycles, each cycle is cut by a clause added to the same
solver instance, and the solver runs again (incrementally: nothing is rebuilt or reloaded).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

from flowsat.backend import NO_LIMITS, Limits, Observer
from flowsat.memory import cap_mb, collector_paused, shown
from flowsat.parallel import FRESH
from flowsat.puzzle.model import Paths, Puzzle
from flowsat.puzzle.rules import DEFAULT_RULES, Rules
from flowsat.result import Result, UsageError
from flowsat.sat.decode import BrokenModel, trace
from flowsat.sat.deduce import OFF, ON, RESIDUE_SHARE, Propagation, corners_hold, counts, propagated
from flowsat.sat.encoder import Encoder
from flowsat.sat.estimate import Size, deduction_mb, formula_size, size_of
from flowsat.sat.formula import Encoding, cell_count, encode
from flowsat.sat.options import DEDUCE_FROM, SatOptions
from flowsat.sat.oracle import FromScratch, Oracle, open_oracle, solver_name
from flowsat.sat.spec import load_spec

if TYPE_CHECKING:  # imported where used: only propagation on large boards needs it
    from flowsat.sat import residue

Answer = tuple[Result, list[Paths]]  # a search's result and the solutions it found
DEFAULTS = SatOptions()


@collector_paused()
def search(puzzle: Puzzle, limit: int, options: SatOptions = DEFAULTS,
           rules: Rules = DEFAULT_RULES, limits: Limits = NO_LIMITS, *,
           known: Sequence[Paths] = (), observe: Observer | None = None) -> Answer:
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
    status `limit`.
    """
    return Search(puzzle, limit, options, rules, limits, known, observe).run()


# a run's first puzzle (`compiled.Boards.first`'s arguments: the puzzle, then its cost once
# solved), until the compiled boards are imported
FIRST: list[list] = []
BLOCK: list[Puzzle] = []  # the block under way's puzzles (`flowsat.parallel`; none: no block)


def forget_boards(items: Sequence = ()) -> None:
    """The compiled boards' solvers and the puzzles seen forgotten: a block of puzzles starts
    afresh (`flowsat.parallel.FRESH`), its items told (`BLOCK`, the puzzles among them). Their
    formulas are kept from then on (`compiled.FORMULAS`): a block after the first here (the
    module is imported from a run's first block of more than one puzzle on, or its second
    puzzle) may load them."""
    FIRST.clear()
    BLOCK[:] = [item for item in items if isinstance(item, Puzzle)]
    if (compiled := sys.modules.get("flowsat.sat.compiled")) is not None:
        compiled.BOARDS.clear(BLOCK)
        compiled.FORMULAS.keeping = True


FRESH.append(forget_boards)


def boards_imported() -> ModuleType:
    """The compiled boards' module, imported now (not at the top: see
    `Search.on_compiled_board`) and told the block under way."""
    from flowsat.sat import compiled

    compiled.BOARDS.clear(BLOCK)
    return compiled


class Search:
    """One search: what it looks for and with what, when it started, its deadline and memory
    cap, what its result names (`config`) and its stats so far."""

    def __init__(self, puzzle: Puzzle, limit: int, options: SatOptions, rules: Rules,
                 limits: Limits, known: Sequence[Paths] = (), observe: Observer | None = None):
        self.start = time.perf_counter()
        self.puzzle, self.limit, self.options, self.rules = puzzle, limit, options, rules
        self.known, self.observe = known, observe
        self.deadline = None if limits.timeout is None else self.start + limits.timeout
        self.solver = solver_name(options.solver, limits.timeout)
        self.spec, self.cap = load_spec(options.encoding), cap_mb(limits.max_memory)
        if (needed := self.spec.needs_solver()) and self.solver != needed:  # (propagator)
            raise UsageError(f"encoding {self.spec.name} (cycles = '{self.spec.cycles}') runs "
                             f"on --solver {needed} only, not {self.solver}")
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
        return self.options.compiled == "auto" and self.options.max_conflicts is None

    def on_compiled_board(self) -> tuple | None:
        """`compiled.attempt`: the puzzle on its board's compiled solver, or None (the board's
        first puzzle alone, or one that does not fit). The module is imported from a block of
        more than one puzzle on, else from the second search: a run of one puzzle pays nothing
        for it (its first puzzle waits in `FIRST`, to count as its board's first)."""
        if (compiled := sys.modules.get("flowsat.sat.compiled")) is None:
            if not FIRST and len(BLOCK) < 2:
                FIRST.append([self.puzzle, self.spec, self.rules, self.solver, self.cap])
                return None
            compiled = boards_imported()
        while FIRST:
            compiled.BOARDS.first(*FIRST.pop())
        return compiled.attempt(self.puzzle, self.limit, self.spec, self.rules, self.solver,
                                self.cap, trace, self.deadline, self.known,
                                self.options.max_conflicts, self.observe)

    def measured(self, literals: int) -> None:
        """The per-puzzle route's cost on a puzzle the compiled route could have answered,
        for its board's choice of route (`compiled.Boards.measured`)."""
        if FIRST:  # the run's first puzzle (this one): told with it
            FIRST[-1] += [self.stats, literals]
        elif (compiled := sys.modules.get("flowsat.sat.compiled")) is not None:
            key = compiled.board_key(self.puzzle, self.spec, self.rules, self.solver)
            compiled.BOARDS.measured(key, False, compiled.cost(self.stats, literals))

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
            answer, found, _, out_of_budget, self.stats = done
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
            stats["load_s"] = time.perf_counter() - loading
            engine = connected(formula, sat, rules) if self.spec.cycles == "propagator" else None
            for paths in self.known:
                block_known(formula, sat, paths)
            oracle = sat if self.options.max_conflicts is None else self.budgeted(sat)
            answer, found, rule_on = self.solutions(formula, oracle)
            stats.update(sat.stats(), **(engine.stats() if engine else {}))
            out_of_budget = isinstance(oracle, Budget) and oracle.left() <= 0
        if formula.unique and self.limit == 1 and not self.known:
            stats["route"] = "uniqueness rule" if rule_on else "complete"
        formula.enc.clauses = []  # freed now: the cycle collector would (its names point back)
        if forced is None and self.compiles:
            self.measured(built.literals)
        return self.finished(answer, found, out_of_budget)

    def solutions(self, formula: Encoding, sat: Oracle | FromScratch | Budget
                  ) -> tuple[bool | None, list[Paths], bool]:
        """The formula's solutions, each blocked before the next: the last answer (False: no
        more, None: stopped), the solutions, and whether the uniqueness rule was still on (a
        search for one solution that finds none with it falls back to the complete rule)."""
        assumptions = [formula.unique] if formula.unique else []
        found: list[Paths] = []
        while len(found) < self.limit:
            answer, paths, model = next_solution(formula, sat, self.deadline, self.stats,
                                                 self.observe, assumptions)
            if answer is False and assumptions and self.limit == 1 and not self.known:
                assumptions = []
                for clause in formula.state_lazy_touch():  # without the corner rule,
                    sat.add(clause)                         # models touch all over
                continue
            if answer is not True:
                break
            found.append(paths)
            if len(found) < self.limit:
                sat.add(formula.links.block(model))
        return answer, found, bool(assumptions)

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
    res = None
    if p is not None:
        state = np.frombuffer(p.state, dtype=np.uint8)
        if counts(state)["undecided"] <= RESIDUE_SHARE * len(state):
            from flowsat.sat import residue

            try:
                res = residue.residue(p)
            except residue.NoSolution:
                p = None
    stats = {"deduce_s": time.perf_counter() - t,
             **(counts(np.frombuffer(p.state, dtype=np.uint8)) if p else {"deduced": "unsolvable"})}
    return Forced(p, res, stats)


def connected(formula: Encoding, sat: Oracle, rules: Rules):
    """The connectivity propagator attached to the formula's solver (`cycles = "propagator"`)."""
    from flowsat.sat.connectivity import attach

    return attach(sat.solver, formula.enc.edges, formula.links.vars, formula.enc.dot, rules,
                  colors=formula.spec.links != "edges" or formula.spec.cells != "none")


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


def next_solution(formula: Encoding, sat: Oracle | FromScratch, deadline: float | None, stats: dict,
                  observe: Observer | None = None, assumptions: list[int] = ()
                  ) -> tuple[bool | None, Paths | None, list[int] | None]:
    """Solve, cutting the cycles of each model (and, when the no-self-touch clauses are
    lazy, adding them where the model touches), until a model of right paths only (True,
    its paths, the model), no model (False) or the deadline (None)."""
    while True:
        t = time.perf_counter()
        answer = sat.solve(deadline, assumptions)
        stats["solve_s"] += time.perf_counter() - t
        stats["rounds"] += 1
        if answer is not True:
            return answer, None, None
        t = time.perf_counter()
        model = sat.model()
        try:
            traced = trace(formula.enc, formula.links.links(model))
        except BrokenModel:  # short color codes join two colors: one more bit, or a bug
            stats["decode_s"] = stats.get("decode_s", 0.0) + time.perf_counter() - t
            if not (longer := formula.complete_codes(1)):
                raise
            sat.extend(longer)
            stats["code_completions"] = stats.get("code_completions", 0) + 1
            continue
        paths, cycles = traced.paths, traced.cycles
        touching = (formula.links.touching(traced.colors(formula.enc.size), model)
                    if formula.lazy_touch else [])
        stats["decode_s"] = stats.get("decode_s", 0.0) + time.perf_counter() - t
        if not cycles and not touching:
            return True, paths, model
        if observe and cycles:
            observe("model", paths, [[formula.enc.cell(i) for i in c] for c in cycles])
        cuts = [formula.links.cut(c, model) for c in cycles] + formula.differ(touching)
        if not cuts:
            raise BrokenModel(f"{formula.enc.puzzle.name}: a model breaks a stated touch")
        for clause in cuts:
            sat.add(clause)
        stats["cycle_cuts"] += len(cycles)
        if touching:
            stats["touch_cuts"] = stats.get("touch_cuts", 0) + len(touching)


class Budget:
    """An oracle whose calls share a conflict limit: `solve` answers None once it is spent
    (or, looked at between calls only, once the deadline has passed)."""

    def __init__(self, sat: Oracle, conflicts: int):
        if not isinstance(sat, Oracle):
            raise UsageError(f"solver {sat.name} takes no conflict limit")
        self.sat, self.end = sat, sat.stats().get("conflicts", 0) + conflicts

    def __getattr__(self, name: str):  # add, model, stats: the oracle's own
        return getattr(self.sat, name)

    def left(self) -> int:
        return self.end - self.sat.stats().get("conflicts", 0)

    def solve(self, deadline: float | None = None, assumptions: list[int] = ()
              ) -> bool | None:
        if self.left() <= 0 or (deadline is not None and time.perf_counter() > deadline):
            return None
        return self.sat.solve_within(self.left(), assumptions)


def block_known(formula: Encoding, sat: Oracle, paths: Paths) -> None:
    """Rule out a solution known beforehand: its model, found with its links (and no other)
    assumed through a selector variable, is blocked as a found one is. ValueError if it is
    no solution."""
    enc = formula.enc
    linked = {(min(i, j), max(i, j)) for path in paths.values()
              for i, j in pairwise(enc.path_nodes(path))}
    if not linked <= set(enc.edges):
        raise ValueError(f"{enc.puzzle.name}: the known paths are not a solution")
    selector = enc.new_var("known solution", len(enc.blocks))
    for i, j in enc.edges:
        lits = formula.links.linked(i, j)
        for clause in [lits] if (i, j) in linked else [[-x] for x in lits]:
            sat.add([-selector, *clause])
    if sat.solve(None, [selector]) is not True:
        raise ValueError(f"{enc.puzzle.name}: the known paths are not a solution")
    sat.add(formula.links.block(sat.model()))
    sat.add([-selector])


