"""Sweeps on a Dask cluster: `--cluster ADDRESS` (a running scheduler) or `--cluster local:N`.

Each run is one Dask task. The task hands the run to a worker process of its own, the local
pool's `workers.Worker`, and waits for it as the pool does: a run past its deadline is killed
and a crash takes down that process, never the Dask worker. A Dask worker lost mid-run has its
task run again elsewhere by the scheduler (up to `distributed.scheduler.allowed-failures`
times), after which the run is recorded as `error`. Runs are submitted a window at a time, and
their outcomes come back as they end, for the bench to append on this machine.

Importing this module imports Dask: the bench and the generator do so only with --cluster.
"""

from __future__ import annotations

import importlib.util
import multiprocessing
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from itertools import islice
from multiprocessing.connection import wait
from typing import TYPE_CHECKING, Any, TypeVar

import flowsat
from flowsat.bench.meta import load_average, where
from flowsat.bench.plan import Run
from flowsat.bench.workers import Outcome, Worker, context, grace, outcome
from flowsat.puzzle.rules import DEFAULT_RULES, Rules
from flowsat.result import UsageError

if TYPE_CHECKING:
    from distributed import Client

T, R = TypeVar("T"), TypeVar("R")
LOCAL = re.compile(r"local:(\d+)")
ADDRESS = re.compile(r"(\w+://)?(\[[0-9a-fA-F:.]+\]|[^\s:/\[\]]+):\d+")  # host:port, [v6]:port
CONNECT_TIMEOUT = 30.0  # seconds to reach a scheduler
WORKERS_TIMEOUT = 60.0  # seconds for the first worker to join it
TASKS_PER_THREAD = 2  # runs in flight per worker thread: one running, one shipped ahead


def check(spec: str) -> str:
    """The --cluster value if it is `local:N` (N >= 1) or a scheduler's address, and Dask is
    installed."""
    if importlib.util.find_spec("distributed") is None:
        raise UsageError("--cluster needs Dask: pip install 'flowsat[cluster]'")
    local = LOCAL.fullmatch(spec)
    if (local and int(local[1]) >= 1) or (not local and ADDRESS.fullmatch(spec)):
        return spec
    raise UsageError(f"--cluster {spec!r}: expected local:N (N worker processes here) or a "
                     f"Dask scheduler's address, e.g. tcp://host:8786")


@contextmanager
def connect(spec: str) -> Iterator[Client]:
    """A client of the scheduler at `spec`, or of a LocalCluster of N processes for
    `local:N`, one thread each; closed (the LocalCluster stopped) on leaving."""
    local = LOCAL.fullmatch(check(spec))
    from distributed import Client, LocalCluster

    if local:
        with LocalCluster(n_workers=int(local[1]), threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            yield client
        return
    try:
        client = Client(spec, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as err:
        raise UsageError(f"--cluster {spec}: no Dask scheduler answers ({err})") from None
    with client:
        try:
            client.wait_for_workers(1, timeout=WORKERS_TIMEOUT)
        except TimeoutError:
            raise UsageError(f"--cluster {spec}: no worker joined the scheduler in "
                             f"{WORKERS_TIMEOUT:g} s") from None
        same_flowsat(client, spec)
        yield client


def version() -> str:
    return flowsat.__version__


def same_flowsat(client: Client, spec: str) -> None:
    """Every worker runs this flowsat's version (a record's meaning depends on it)."""
    try:
        found = client.run(version)
    except Exception as err:  # the workers cannot import flowsat at all
        raise UsageError(f"--cluster {spec}: the workers cannot run flowsat ({err})") from None
    other = {w: v for w, v in found.items() if v != flowsat.__version__}
    if other:
        raise UsageError(f"--cluster {spec}: workers run another flowsat than this one "
                         f"({flowsat.__version__}): " +
                         ", ".join(f"{w} {v}" for w, v in sorted(other.items())))


def window(client: Client) -> int:
    """How many tasks to keep submitted: enough that no worker thread waits for the next."""
    return max(2, TASKS_PER_THREAD * sum(client.nthreads().values()))


def streamed(client: Client, work: Callable[..., R], items: Iterable[T],
             *args: Any) -> Iterator[tuple[T, Any]]:
    """Each item with `work(item, *args)`'s result, or the exception the task ended in, as
    tasks end; a window of them submitted at a time (a sweep may hold millions)."""
    from distributed import as_completed

    todo, pending = iter(items), {}
    ended = as_completed(with_results=True, raise_errors=False)
    size, sized = window(client), time.monotonic()

    def submit() -> None:
        for item in islice(todo, max(0, size - len(pending))):
            future = client.submit(work, item, *args, pure=False)
            pending[future.key] = item
            ended.add(future)

    submit()
    for future, result in ended:
        item = pending.pop(future.key)
        if time.monotonic() - sized > 1:  # workers come and go
            size, sized = window(client), time.monotonic()
        submit()
        yield item, result[1] if future.status == "error" else result  # (type, error, tb)


def run_all(runs: list[Run], spec: str, timeout: float,
            rules: Rules = DEFAULT_RULES) -> Iterator[tuple[Run, Outcome]]:
    """Each run with its outcome, as runs end, on the cluster's workers."""
    with connect(spec) as client:
        for run, got in streamed(client, solve_run, runs, timeout, rules,
                                 flowsat.__version__):
            yield run, lost(got) if isinstance(got, BaseException) else got


def lost(err: BaseException) -> Outcome:
    """The outcome of a run whose task failed: its Dask workers died under it too often, or
    it could not run there."""
    return outcome("error", None, time.perf_counter(),
                   error=f"on the cluster: {type(err).__name__}: {err}") | {
                       "host": None, "machine": None}


local = threading.local()  # on a Dask worker: each thread's worker process


def solve_run(run: Run, timeout: float, rules: Rules, client_version: str) -> Outcome:
    """On a Dask worker: the run's outcome from this thread's worker process, killed past
    the run's deadline (and replaced for the next run), with where it ran."""
    if client_version != flowsat.__version__:
        got = outcome("error", None, time.perf_counter(),
                      error=f"this worker runs flowsat {flowsat.__version__}, the bench "
                            f"{client_version}")
    else:
        got = solve_in_child(run, timeout, rules)
    load = load_average()
    return got | where() | {"load": load[0] if load else None}


def solve_in_child(run: Run, timeout: float, rules: Rules) -> Outcome:
    limit = timeout + grace(timeout)
    worker = getattr(local, "worker", None)
    if worker is None or not worker.process.is_alive():  # none yet, or it died idle
        worker = start_worker()
    worker.give(run, timeout, rules)
    while (got := worker.outcome(limit)) is None:
        wait([worker.conn, worker.process.sentinel],
             timeout=max(0.0, worker.started + limit - time.perf_counter()))
    worker.run = None
    local.worker = None if worker.broken else worker
    if worker.broken:
        worker.stop()
    return got


def start_worker() -> Worker:
    """A worker process for this thread. Dask starts its workers as daemons, which
    multiprocessing forbids to have children lest they outlive them; these cannot: a worker
    process ends when its pipe closes, and the Dask worker kills it on exit (daemon)."""
    multiprocessing.current_process()._config["daemon"] = False
    local.worker = Worker(context())
    return local.worker


def in_order(spec: str, work: Callable[[T], R],
             items: Iterable[T]) -> Iterator[tuple[T, R | BaseException]]:
    """Each item with `work(item)`'s result, or the exception its task ended in, on the
    cluster, in the order of the items."""
    with connect(spec) as client:
        todo, ahead = iter(items), deque()

        def submit(count: int) -> None:
            ahead.extend((i, client.submit(work, i, pure=False)) for i in islice(todo, count))

        submit(window(client))
        while ahead:
            item, future = ahead.popleft()
            error = future.exception()
            submit(1)
            yield item, future.result() if error is None else error
