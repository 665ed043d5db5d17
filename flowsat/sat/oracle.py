"""SAT solvers behind one small interface: add clauses, solve before a deadline, read models.

`open_oracle(name, clauses)` gives a PySAT solver (`Oracle`), or a solver that solves all
clauses anew at every call (`FromScratch`): `pycosat` (PicoSAT, as the 2016 program used it)
or `external:COMMAND` (any DIMACS solver program).

The PySAT wrapper hides what those solvers differ in. MiniSat-family solvers are interrupted
by a timer (`solve_limited` + `interrupt`); CaDiCaL cannot be interrupted in PySAT, so it runs
in slices of a conflict budget sized to about a tenth of a second each, with the deadline
checked between slices. Kissat is not incremental (a second solve or a clause added after
solving aborts the process) and ignores assumptions, so it is rebuilt for each call with the
added clauses and the assumptions as units; like Lingeling, which has no limits at all, it
runs only without a deadline.
"""

from __future__ import annotations

import importlib.util
import os
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import repeat, starmap
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pysolvers
from pysat.solvers import NoSuchSolverError, Solver, SolverNames

from flowsat.deadline import shielded
from flowsat.result import BackendError, UsageError

if TYPE_CHECKING:
    from flowsat.process import Finished

# `External`'s programs, files and DIMACS (`flowsat.process`, `tempfile`, `flowsat.sat.dimacs`)
# are imported where it uses them: a run of PySAT's solvers needs none of them

SOLVERS = tuple(sorted(name for name in vars(SolverNames) if not name.startswith("_")))
BUDGETED = frozenset({"cadical103", "cadical153", "cadical195", "cadical300"})
NOT_INCREMENTAL = frozenset({"kissat404"})
UNLIMITED = frozenset({"lingeling", "kissat404"})
SLICE_S = 0.1
Options = dict[str, int]  # a solver's own settings by name (CaDiCaL's options)


class Watchdog:
    """One thread for the whole process that interrupts each solver at its deadline: a timer
    thread started for each call (as `threading.Timer` does) costs more than solving a small
    puzzle. The thread starts at the first deadline, in each process (a forked worker too)."""

    def __init__(self) -> None:
        self.due: dict[int, tuple[float, Solver]] = {}  # a call's number: its deadline, solver
        self.calls = 0
        self.wakes_at = float("inf")  # when the thread wakes next, at the latest
        self.lock = threading.Condition()
        self.started = False

    @contextmanager
    def interrupts(self, solver: Solver, deadline: float) -> Iterator[None]:
        """`solver.interrupt()` at `deadline` if the block is still running then."""
        with self.lock:
            self.calls += 1
            call = self.calls
            self.due[call] = (deadline, solver)
            if not self.started:
                self.started = True
                threading.Thread(target=self.watch, name="flowsat-watchdog", daemon=True).start()
            elif deadline < self.wakes_at:
                self.lock.notify()
        try:
            yield
        finally:
            with self.lock:
                self.due.pop(call, None)  # gone already if it was interrupted

    def watch(self) -> None:
        with self.lock:
            while True:
                now = time.perf_counter()
                for call, (deadline, solver) in list(self.due.items()):
                    if deadline <= now:
                        solver.interrupt()
                        del self.due[call]
                self.wakes_at = min((d for d, _ in self.due.values()), default=float("inf"))
                self.lock.wait(None if self.due == {} else self.wakes_at - now)


WATCHDOG = Watchdog()
os.register_at_fork(after_in_child=WATCHDOG.__init__)  # the thread is not forked with it


OTHER_SOLVERS = ("pycosat",)
EXTERNAL = "external:"  # external:COMMAND runs a DIMACS solver program


def solver_name(name: str, timeout: float | None = None) -> str:
    """The canonical name of a solver, from its name or one of PySAT's aliases; a UsageError
    for a solver that cannot run at all (an outside program that is not there) or not with
    a timeout."""
    if name.startswith(EXTERNAL):
        from flowsat.process import command_words

        command_words(name.removeprefix(EXTERNAL), "external solver")
        return name
    if name in OTHER_SOLVERS:
        if importlib.util.find_spec(name) is None:
            raise UsageError(f"solver {name} needs the {name} package: "
                             f"pip install 'flowsat[baselines]'")
        return name
    canonical = CANONICAL.get(name)
    if canonical is None:
        raise UsageError(f"unknown solver {name!r}; choose from "
                         f"{', '.join(SOLVERS + OTHER_SOLVERS)} or external:COMMAND")
    if timeout is not None and canonical in UNLIMITED:
        raise UsageError(f"solver {canonical} cannot be stopped: use it without --timeout")
    return canonical


def canonical_names() -> dict[str, str]:
    """Each PySAT solver's canonical name by itself and by each of its aliases (the first
    solver in SOLVERS that takes an alias has it)."""
    names: dict[str, str] = {}
    for canonical in SOLVERS:
        names.setdefault(canonical, canonical)
        for alias in getattr(SolverNames, canonical):
            names.setdefault(alias, canonical)
    return names


CANONICAL = canonical_names()


def open_oracle(name: str, clauses: list[list[int]], options: Options | None = None
                ) -> Oracle | FromScratch:
    """A solver for the clauses (`options`: for an `Oracle` only, the others have none)."""
    name = solver_name(name)
    if name.startswith(EXTERNAL):
        return External(name, clauses)
    return (Picosat(name, clauses) if name in OTHER_SOLVERS
            else Oracle(name, clauses, options=options))


# PySAT's C functions that add one clause, with the attribute holding the solver they add to:
# called straight (without the two Python methods PySAT wraps them in, Solver.add_clause, then
# e.g. Glucose4.add_clause), a formula loads in about two thirds of the time
# (benchmarks/ingest.py); by `starmap` on the (solver, clause) pairs of a `zip`, which reuses
# its pair once a call is done with it (`map` makes each call's arguments a new tuple:
# docs/performance.md, "Compiled boards"). Other solvers load through their add_clause.
DIRECT_ADD = {"glucose4": ("glucose41_add_cl", "glucose"),
              "glucose42": ("glucose421_add_cl", "glucose"),
              "cadical153": ("cadical153_add_cl", "cadical"),
              "cadical195": ("cadical195_add_cl", "cadical"),
              "minisat22": ("minisat22_add_cl", "minisat")}
LOAD_BATCH = 20_000
# Solvers opened in their incremental mode (PySAT's `incr`): Glucose then leaves the
# assumption levels out of a learned clause's LBD, which a compiled board's puzzles (the dots
# as some 100 assumptions, `sat.compiled`) are made of (docs/performance.md, "Compiled
# boards")
INCR_MODE = frozenset({"glucose3", "glucose4", "glucose42"})


class Batched(Protocol):
    """Clauses that come in batches of their own (`board_cnf.Clauses`)."""

    def __len__(self) -> int: ...

    def batches(self, size: int) -> Iterator[Iterable[Sequence[int]]]: ...


def load(solver: Solver, name: str, clauses: Sequence[Sequence[int]] | Batched) -> None:
    """Hand the clauses to a PySAT solver, the fastest way it offers (in batches, between
    which Python code runs: a deadline's signal is not held up by a whole large formula)."""
    direct = DIRECT_ADD.get(name)
    if direct:
        add, handle = getattr(pysolvers, direct[0]), getattr(solver.solver, direct[1])
    for batch in (clauses.batches(LOAD_BATCH) if hasattr(clauses, "batches") else
                  (clauses[at:at + LOAD_BATCH] for at in range(0, len(clauses), LOAD_BATCH))):
        if direct:  # (see DIRECT_ADD)
            deque(starmap(add, zip(repeat(handle), batch)), maxlen=0)  # noqa: RUF058
        else:
            deque(map(solver.add_clause, batch), maxlen=0)


def opened_as(name: str) -> dict[str, bool]:
    """PySAT's options for a new solver of that name."""
    return {"incr": True} if name in INCR_MODE else {}


def release(solver: Solver) -> None:
    """Free a solver's C object, shielded from the deadline: PySAT's `delete` frees it and then
    forgets it, and a timeout raised between the two would have it freed twice (a crash)."""
    with shielded():
        solver.delete()


class Oracle:
    """One solver instance for a formula that grows by added clauses (cycle cuts)."""

    def __init__(self, name: str, clauses: Sequence[Sequence[int]] | Batched, keep: bool = True,
                 options: Options | None = None):
        """`keep`: False to load the clauses and not keep them (an incremental solver, never
        rebuilt). `options`: its own settings, set before any clause (PySAT's `configure`)."""
        self.name, self.options = solver_name(name), options
        if not keep and self.name in NOT_INCREMENTAL:
            raise ValueError(f"solver {self.name} is rebuilt for each call: it keeps its clauses")
        # the formula as opened; later clauses come by add()
        self.clauses: list[Sequence[int]] = list(clauses) if keep else []
        self.added: list[list[int]] = []
        self.rebuilds = 0
        self.solver = self._new(() if keep else clauses)

    def _new(self, more: Sequence[Sequence[int]] | Batched = ()) -> Solver:
        """A new solver with the clauses kept, those added, and more."""
        try:
            solver = Solver(name=self.name, **opened_as(self.name))
        except NoSuchSolverError:
            raise UsageError(f"solver {self.name} is not available in this PySAT build") from None
        try:
            if self.options:
                solver.configure(self.options)
            for clauses in (self.clauses, self.added, more):
                load(solver, self.name, clauses)
        except BaseException:  # a timeout while loading: free it now, not in a collection
            release(solver)
            raise
        return solver

    def __enter__(self) -> Oracle:
        return self

    def __exit__(self, *exc) -> None:
        release(self.solver)

    def add(self, clause: list[int]) -> None:
        self.added.append(clause)
        if self.name not in NOT_INCREMENTAL:
            self.solver.add_clause(clause)

    def extend(self, clauses: list[list[int]]) -> None:
        """Many clauses added at once, the fastest way the solver takes them."""
        self.added += clauses
        if self.name not in NOT_INCREMENTAL:
            load(self.solver, self.name, clauses)

    def solve(self, deadline: float | None = None, assumptions: list[int] = ()
              ) -> bool | None:
        """True (a model), False (no model under the assumptions), or None when the deadline
        came first."""
        assumptions = list(assumptions)
        if self.name in NOT_INCREMENTAL:  # rebuilt for each call, assumptions as units
            if self.solver.get_status() is not None or assumptions:
                release(self.solver)
                self.solver = self._new([[x] for x in assumptions])
                self.rebuilds += 1
            assumptions = []
        if deadline is None:
            return self.solver.solve(assumptions=assumptions)
        if self.name in UNLIMITED:
            raise UsageError(f"solver {self.name} cannot be stopped: use it without --timeout")
        if self.name in BUDGETED:
            return self._solve_in_slices(deadline, assumptions)
        return self._solve_until_interrupted(deadline, assumptions)

    def _solve_until_interrupted(self, deadline: float, assumptions: list[int]) -> bool | None:
        if deadline <= time.perf_counter():
            return None
        try:
            with WATCHDOG.interrupts(self.solver, deadline):
                return self.solver.solve_limited(assumptions, expect_interrupt=True)
        finally:
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


class FromScratch:
    """A solver used without incremental state: every call solves all clauses anew (the added
    ones and the assumptions, as units, too)."""

    def __init__(self, name: str, clauses: list[list[int]]):
        self.name = name
        self.clauses = list(clauses)  # the formula as opened; later clauses come by add()
        self.added: list[list[int]] = []
        self.nvars = max((abs(x) for c in clauses for x in c), default=0)
        self.calls = 0
        self.last: list[int] = []

    def __enter__(self) -> FromScratch:
        return self

    def __exit__(self, *exc) -> None:
        pass

    def add(self, clause: list[int]) -> None:
        self.added.append(clause)
        self.nvars = max(self.nvars, *(abs(x) for x in clause))

    def extend(self, clauses: list[list[int]]) -> None:
        for clause in clauses:
            self.add(clause)

    def solve(self, deadline: float | None = None, assumptions: list[int] = ()
              ) -> bool | None:
        self.calls += 1
        answer, self.last = self.run(self.clauses + self.added + [[x] for x in assumptions],
                                     deadline)
        return answer

    def run(self, clauses: list[list[int]], deadline: float | None
            ) -> tuple[bool | None, list[int]]:
        raise NotImplementedError

    def model(self) -> list[int]:
        return self.last

    def stats(self) -> dict[str, int]:
        return {"rebuilds": self.calls}


class Picosat(FromScratch):
    """PicoSAT through `pycosat`, as in the 2016 program. A deadline is kept by a propagation
    limit sized to the time left: at first by a rate PicoSAT beats on any machine (so the
    first call ends in time), then by the rate measured. Each call that hits its limit starts
    over, so calls are few: one whenever the answer comes within the first call's share."""

    MIN_RATE = 1_000_000  # propagations a second

    def __init__(self, name: str, clauses: list[list[int]]):
        try:
            import pycosat
        except ImportError:
            raise UsageError("solver pycosat needs the pycosat package: "
                             "pip install 'flowsat[baselines]'") from None
        super().__init__(name, clauses)
        self.pycosat = pycosat

    def run(self, clauses: list[list[int]], deadline: float | None
            ) -> tuple[bool | None, list[int]]:
        rate = self.MIN_RATE
        while deadline is None or (left := deadline - time.perf_counter()) > 0:
            limit = 0 if deadline is None else max(1000, int(rate * left))
            start = time.perf_counter()
            answer = self.pycosat.solve(clauses, prop_limit=limit)
            if answer != "UNKNOWN":
                return (False, []) if answer == "UNSAT" else (True, answer)
            rate = max(rate, limit / max(time.perf_counter() - start, 1e-6))
        return None, []


class External(FromScratch):
    """Any DIMACS solver program, `external:COMMAND`: the clauses go to a temporary file
    given as the last argument (or where `{cnf}` stands; `{out}` names a result file, as
    MiniSat writes one), the answer comes from its `s`/`v` lines (or that file, or its exit
    status 10/20), and its model must satisfy the clauses. It runs in its own process group,
    killed whole at the deadline (see `flowsat.process`), which it keeps itself: a solve's
    `deadline` timer waits until the program is gone and its folder removed. Anything but a
    clear answer is the program's error (`BackendError`), naming how it ended."""

    def __init__(self, name: str, clauses: list[list[int]]):
        from flowsat.process import command_words

        super().__init__(name, clauses)
        self.argv = command_words(name.removeprefix(EXTERNAL), "external solver")

    def run(self, clauses: list[list[int]], deadline: float | None
            ) -> tuple[bool | None, list[int]]:
        import tempfile

        from flowsat.process import run_program
        from flowsat.sat.dimacs import write_dimacs

        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left <= 0:
            return None, []
        with shielded(), tempfile.TemporaryDirectory(prefix="flowsat-") as folder:
            cnf, out = Path(folder, "formula.cnf"), Path(folder, "result.txt")
            with cnf.open("w") as f:
                write_dimacs(f, clauses, self.nvars)
            argv = [a.replace("{cnf}", str(cnf)).replace("{out}", str(out)) for a in self.argv]
            if "{cnf}" not in self.name:
                argv.append(str(cnf))
            try:
                done = run_program(argv, timeout=left)
            except OSError as err:  # a file the system cannot run (no #! line, ...)
                raise UsageError(f"external solver {argv[0]!r}: cannot run it: "
                                 f"{err.strerror}") from None
            if done.timed_out:
                return None, []
            text = (out.read_text(errors="replace") if "{out}" in self.name and out.exists()
                    else done.stdout)
        return self.answer(text, done, clauses)

    def answer(self, text: str, done: Finished, clauses: list[list[int]]
               ) -> tuple[bool, list[int]]:
        """The program's clear answer, or a BackendError saying what is wrong with it."""
        from flowsat.sat.dimacs import full_model, read_answer

        try:
            answer, literals = read_answer(text, done.returncode)
        except ValueError as err:
            raise self.failed(done, f"unreadable answer: {err}") from None
        if answer is None:
            raise self.failed(done, "no answer (neither SATISFIABLE nor UNSATISFIABLE)")
        if not answer:
            return False, []
        if not literals:
            raise self.failed(done, "SATISFIABLE without a model (no 'v' lines)")
        model = full_model(literals, self.nvars)
        wrong = next((n for n, c in enumerate(clauses, 1)
                      if not any(model[abs(x) - 1] == x for x in c)), None)
        if wrong is not None:
            raise self.failed(done, f"its model falsifies clause {wrong}")
        return True, model

    def failed(self, done: Finished, why: str) -> BackendError:
        said = " ".join(done.stderr.split())[:200]
        return BackendError(f"external solver {self.argv[0]!r} ({done.how()}): {why}"
                            + (f"; it said: {said}" if said else ""))
