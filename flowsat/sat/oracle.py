"""SAT solvers behind one small interface: add clauses, solve before a deadline, read models.

`open_oracle(name, clauses)` gives a PySAT solver (`Oracle`) or, for `pycosat` (PicoSAT, as
the 2016 program used it), a solver rebuilt from all clauses for every call (`Rebuilt`).

The PySAT wrapper hides what those solvers differ in. MiniSat-family solvers are interrupted
by a timer (`solve_limited` + `interrupt`); CaDiCaL cannot be interrupted in PySAT, so it runs
in slices of a conflict budget sized to about a tenth of a second each, with the deadline
checked between slices. Kissat is not incremental (a second solve or a clause added after
solving aborts the process), so it is rebuilt with the added clauses for each round, and like
Lingeling, which has no limits at all, it runs only without a deadline.
"""

from __future__ import annotations

import threading
import time

from pysat.solvers import NoSuchSolverError, Solver, SolverNames

from flowsat.result import UsageError

SOLVERS = tuple(sorted(name for name in vars(SolverNames) if not name.startswith("_")))
BUDGETED = frozenset({"cadical103", "cadical153", "cadical195", "cadical300"})
NOT_INCREMENTAL = frozenset({"kissat404"})
UNLIMITED = frozenset({"lingeling", "kissat404"})
SLICE_S = 0.1


OTHER_SOLVERS = ("pycosat",)


def solver_name(name: str) -> str:
    """The canonical name of a solver, from its name or one of PySAT's aliases."""
    if name in OTHER_SOLVERS:
        return name
    for canonical in SOLVERS:
        if name == canonical or name in getattr(SolverNames, canonical):
            return canonical
    raise UsageError(f"unknown solver {name!r}; choose from "
                     f"{', '.join(SOLVERS + OTHER_SOLVERS)}")


def open_oracle(name: str, clauses: list[list[int]]) -> Oracle | Rebuilt:
    name = solver_name(name)
    return Rebuilt(name, clauses) if name in OTHER_SOLVERS else Oracle(name, clauses)


class Oracle:
    """One solver instance for a formula that grows by added clauses (cycle cuts)."""

    def __init__(self, name: str, clauses: list[list[int]]):
        self.name = solver_name(name)
        self.clauses = clauses
        self.added: list[list[int]] = []
        self.rebuilds = 0
        self.solver = self._new()

    def _new(self) -> Solver:
        try:
            return Solver(name=self.name,
                          bootstrap_with=self.clauses + self.added if self.added else self.clauses)
        except NoSuchSolverError:
            raise UsageError(f"solver {self.name} is not available in this PySAT build") from None

    def __enter__(self) -> Oracle:
        return self

    def __exit__(self, *exc) -> None:
        self.solver.delete()

    def add(self, clause: list[int]) -> None:
        self.added.append(clause)
        if self.name not in NOT_INCREMENTAL:
            self.solver.add_clause(clause)

    def solve(self, deadline: float | None = None, assumptions: list[int] = ()
              ) -> bool | None:
        """True (a model), False (no model under the assumptions), or None when the deadline
        came first."""
        assumptions = list(assumptions)
        if self.name in NOT_INCREMENTAL and self.solver.get_status() is not None:
            self.solver.delete()
            self.solver = self._new()
            self.rebuilds += 1
        if deadline is None:
            return self.solver.solve(assumptions=assumptions)
        if self.name in UNLIMITED:
            raise UsageError(f"solver {self.name} cannot be stopped: use it without --timeout")
        if self.name in BUDGETED:
            return self._solve_in_slices(deadline, assumptions)
        return self._solve_until_interrupted(deadline, assumptions)

    def _solve_until_interrupted(self, deadline: float, assumptions: list[int]) -> bool | None:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            return None
        timer = threading.Timer(remaining, self.solver.interrupt)
        timer.start()
        try:
            return self.solver.solve_limited(assumptions, expect_interrupt=True)
        finally:
            timer.cancel()
            self.solver.clear_interrupt()

    def _solve_in_slices(self, deadline: float, assumptions: list[int]) -> bool | None:
        budget = 1000
        while (start := time.perf_counter()) < deadline:
            self.solver.conf_budget(budget)
            answer = self.solver.solve_limited(assumptions)
            if answer is not None:
                return answer
            took = max(time.perf_counter() - start, 1e-4)
            target = min(SLICE_S, max(deadline - time.perf_counter(), 0.0))
            budget = max(100, min(2 * budget, int(budget * target / took)))
        return None

    def solve_within(self, conflicts: int, assumptions: list[int] = ()) -> bool | None:
        """As `solve`, but None once the solver has had `conflicts` conflicts in this call:
        a limit that ends the same way on every machine, unlike a deadline."""
        if self.name in UNLIMITED | NOT_INCREMENTAL:
            raise UsageError(f"solver {self.name} takes no conflict limit")
        self.solver.conf_budget(conflicts)
        return self.solver.solve_limited(list(assumptions))

    def model(self) -> list[int]:
        return self.solver.get_model()

    def stats(self) -> dict[str, int]:
        """The solver's own counters (conflicts, decisions, ...), where PySAT has them."""
        try:
            found = dict(self.solver.accum_stats() or {})
        except (AttributeError, NotImplementedError):
            found = {}
        return {**found, "rebuilds": self.rebuilds} if self.rebuilds else found


class Rebuilt:
    """A solver without incremental use: every call solves all clauses from scratch.

    `pycosat` (PicoSAT) works this way, as in the 2016 program. A deadline is kept by giving
    PicoSAT a propagation limit that doubles from call to call, the clock checked between.
    """

    def __init__(self, name: str, clauses: list[list[int]]):
        try:
            import pycosat
        except ImportError:
            raise UsageError("solver pycosat needs the pycosat package: "
                             "pip install 'flowsat[baselines]'") from None
        self.name, self.pycosat = name, pycosat
        self.clauses = clauses
        self.added: list[list[int]] = []
        self.calls = 0
        self.last: list[int] = []

    def __enter__(self) -> Rebuilt:
        return self

    def __exit__(self, *exc) -> None:
        pass

    def add(self, clause: list[int]) -> None:
        self.added.append(clause)

    def solve(self, deadline: float | None = None, assumptions: list[int] = ()
              ) -> bool | None:
        limit = 1_000_000
        units = [[x] for x in assumptions]
        while deadline is None or time.perf_counter() < deadline:
            self.calls += 1
            answer = self.pycosat.solve(self.clauses + self.added + units,
                                        prop_limit=0 if deadline is None else limit)
            if answer != "UNKNOWN":
                self.last = [] if answer == "UNSAT" else answer
                return answer != "UNSAT"
            limit *= 2
        return None

    def model(self) -> list[int]:
        return self.last

    def stats(self) -> dict[str, int]:
        return {"rebuilds": self.calls}
