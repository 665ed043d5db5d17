"""Runs in worker processes: a run past its time is killed, a crash is caught, the bench goes on.

Each worker serves runs one at a time over a pipe. The parent waits for an answer, for the
worker's death, or for the run's deadline (the backend's own timeout plus a grace), whichever
comes first; a worker that died or was killed is replaced by a fresh one.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import multiprocessing.forkserver
import os
import resource
import signal
import time
from collections import deque
from collections.abc import Iterator
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

import flowsat
from flowsat import memory
from flowsat.backend import REGISTRY, Limits, chosen, keeper
from flowsat.bench.plan import Run
from flowsat.parallel import death, exit_with_parent, stop_process
from flowsat.puzzle import Puzzle, transform
from flowsat.puzzle.rules import DEFAULT_RULES, Rules
from flowsat.solve import run as solve

flowsat.numpy_now()  # in the fork server, which preloads this module: its workers share it
Outcome = dict[str, Any]  # status, time_s, wall_s, stats, error


def grace(timeout: float) -> float:
    """How long past its own timeout a backend may take to give up by itself."""
    return max(1.0, 0.2 * timeout)


WARM_UP = Puzzle.from_text("AA")


def execute(run: Run, timeout: float, rules: Rules, kept: dict[str, Any]) -> Outcome:
    """Solve one run in this process. The clock starts once the backend is imported and its
    options made, after a garbage collection, and, the first time a configuration runs here,
    after it has solved a 1x2 puzzle (one-time costs: caches, specs read, libraries loaded).
    `kept`: what each configuration keeps from one puzzle to the next in this worker (its
    compiled boards, `flowsat.backend.keeper`), by name."""
    config, rules = run.config, run.rules or rules
    REGISTRY[config.backend] = config.module
    start = time.perf_counter()
    limits = Limits(timeout)
    try:
        backend, options = chosen(config.backend, **config.options)
        if config.name not in kept:
            kept[config.name] = keeper(backend)
            with contextlib.suppress(Exception):  # a broken backend fails on the run itself
                solve(WARM_UP, backend, options, limits=limits)
        puzzle = transform(run.puzzle, run.symmetry)
        gc.collect()  # the garbage of earlier runs is not this run's to collect
        start, cpu = time.perf_counter(), cpu_time()
        result = solve(puzzle, backend, options, rules, limits, kept=kept[config.name])
    except Exception as err:  # a bug or a crash of the backend: recorded, never fatal
        return outcome("error", None, start, error=f"{type(err).__name__}: {err}")
    return outcome(result.status, result.stats.get("total_s"), start, result.stats,
                   result.error, round(cpu_time() - cpu, 6))


def cpu_time() -> float:
    """This process's CPU time and that of its children it has waited for (a solver program,
    an outside SAT solver): what a run costs in CPU, whoever spent it."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def outcome(status: str, time_s: float | None, start: float, stats: dict | None = None,
            error: str | None = None, cpu_s: float | None = None) -> Outcome:
    """What a run gives its record: `time_s` is the backend's own `total_s`; `wall_s` the
    worker's clock around the call (checker included), `cpu_s` its CPU time (and its child
    processes') over the same span, which waiting for a core on a busy machine does not
    inflate."""
    return {"status": status, "time_s": time_s,
            "wall_s": round(time.perf_counter() - start, 6), "cpu_s": cpu_s,
            "stats": stats or {}, "error": error}


def serve(conn: Connection, cap_mb: float | None = None) -> None:
    """A worker's life: solve each run sent until the bench closes the pipe, with `cap_mb` as
    its default memory cap; Ctrl-C is for the bench to handle. It ends with its parent, the
    fork server, which ends with the bench: a killed bench leaves no run going on."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent(os.getppid())
    if cap_mb is not None:
        memory.set_default_cap_mb(cap_mb)
    kept: dict[str, Any] = {}
    try:
        while True:
            run, timeout, rules = conn.recv()
            conn.send(execute(run, timeout, rules, kept))
    except (EOFError, BrokenPipeError):  # the bench is gone
        return


class Worker:
    """A worker process and the run it is on."""

    def __init__(self, context: multiprocessing.context.BaseContext,
                 cap_mb: float | None = None):
        self.conn, child = context.Pipe()
        self.process = context.Process(target=serve, args=(child, cap_mb), daemon=True)
        self.process.start()
        child.close()
        self.run: Run | None = None
        self.started = 0.0
        self.broken = False

    def give(self, run: Run, timeout: float, rules: Rules) -> None:
        self.run, self.started = run, time.perf_counter()
        self.conn.send((run, timeout, rules))

    def outcome(self, limit: float) -> Outcome | None:
        """The run's outcome if it has one by now: the answer, a death, or a kill at `limit`."""
        try:
            if self.conn.poll():
                return self.conn.recv()
        except (EOFError, OSError):
            pass
        if not self.process.is_alive():
            self.broken = True
            return outcome("error", None, self.started,
                           error=f"worker died: {death(self.process.exitcode)}")
        if time.perf_counter() - self.started > limit:
            self.broken = True
            return outcome("timeout", None, self.started,
                           error=f"no answer after {limit:g} s: worker killed")
        return None

    def stop(self) -> None:
        """The worker stopped (`flowsat.parallel.stop_process`), its pipe closed."""
        stop_process(self.process)
        self.conn.close()


def context() -> multiprocessing.context.BaseContext:
    """Fresh processes forked from a clean server where the platform has one, else spawned."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["flowsat.bench.workers"])
        with this_flowsat_first():
            multiprocessing.forkserver.ensure_running()
        return ctx
    return multiprocessing.get_context("spawn")


@contextlib.contextmanager
def this_flowsat_first() -> Iterator[None]:
    """Start processes that import the flowsat running here. Python 3.11's fork server puts
    its current folder first on sys.path, not the parent's path: run from a source checkout,
    an installed flowsat's workers would import the checkout's. Unless this flowsat is the
    current folder's, the server starts without it (PYTHONSAFEPATH)."""
    saved = os.environ.get("PYTHONSAFEPATH")
    if Path(flowsat.__file__).resolve().parents[1] != Path.cwd().resolve():
        os.environ["PYTHONSAFEPATH"] = "1"
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("PYTHONSAFEPATH", None)
        else:
            os.environ["PYTHONSAFEPATH"] = saved


def run_all(runs: list[Run], workers: int, timeout: float,
            rules: Rules = DEFAULT_RULES) -> Iterator[tuple[Run, Outcome]]:
    """Each run with its outcome, as runs finish, on up to `workers` processes at once."""
    todo = deque(runs)
    limit = timeout + grace(timeout)
    ctx = context()
    at_once = min(workers, len(todo))
    cap = memory.default_cap_mb() / max(1, at_once)  # the workers share the bench's default
    pool = [Worker(ctx, cap) for _ in range(at_once)]
    try:
        while True:
            for w in pool:
                if w.run is None and todo:
                    w.give(todo.popleft(), timeout, rules)
            busy = [w for w in pool if w.run is not None]
            if not busy:
                return
            first_deadline = min(w.started for w in busy) + limit
            wait([w.conn for w in busy] + [w.process.sentinel for w in busy],
                 timeout=max(0.0, first_deadline - time.perf_counter()))
            for i, w in enumerate(pool):
                done = w.outcome(limit) if w.run else None
                if done is None:
                    continue
                run, w.run = w.run, None
                if w.broken:
                    w.stop()
                    pool[i] = Worker(ctx, cap)
                yield run, done
    finally:
        for w in pool:
            w.stop()
