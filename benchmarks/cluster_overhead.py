"""Benchmark: what a run costs on a Dask LocalCluster against the local worker pool, the same
runs on the same number of worker processes, alternately, in one process.

    python benchmarks/cluster_overhead.py [--workers 2] [--repeats 5] [--copies 10]

The runs: the project's example puzzles by sat/edges-binary/cadical195 (milliseconds each, so
that the overhead shows), `--copies` times. For each sweep: seconds a run (the sweep's wall
time over its runs) and the overhead a run (worker slots' time not spent inside runs:
elapsed x workers - the runs' own wall_s, over the runs). Medians over the repeats; the
cluster's start (once, before its sweeps) and the bytes a run ships each way, pickled as Dask
ships them, are printed apart. Needs flowsat[cluster].
"""

from __future__ import annotations

import argparse
import os
import pickle
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from flowsat.bench import cluster, load_puzzles
from flowsat.bench.configs import configurations
from flowsat.bench.plan import Run, plan
from flowsat.bench.workers import Outcome, run_all

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 30.0


def runs_of(copies: int) -> list[Run]:
    puzzles = load_puzzles([ROOT / "puzzles" / "examples"])[0]
    return plan(puzzles, "none", configurations(["sat"], ["edges-binary"], ["cadical195"],
                                                False), copies)


def sweep(results: Iterator[tuple[Run, Outcome]], workers: int) -> tuple[float, float, int]:
    """Seconds a run and overhead a run of one sweep, and how many runs finished."""
    start = time.perf_counter()
    outcomes = [got for _, got in results]
    elapsed = time.perf_counter() - start
    inside = sum(got["wall_s"] for got in outcomes)
    solved = sum(got["status"] == "solved" for got in outcomes)
    return elapsed / len(outcomes), (elapsed * workers - inside) / len(outcomes), solved


def shipped(runs: list[Run], outcome: Outcome) -> tuple[int, int, int]:
    """Bytes of the smallest and largest task (the run, its puzzle inside) and of an
    outcome coming back."""
    sizes = [len(pickle.dumps((cluster.solve_run, run, TIMEOUT, False, "0.0.0"))) for run in runs]
    return min(sizes), max(sizes), len(pickle.dumps(outcome))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--copies", type=int, default=10)
    args = parser.parse_args()
    runs = runs_of(args.copies)
    start = time.perf_counter()
    with cluster.connect(f"local:{args.workers}") as client:
        started = time.perf_counter() - start
        ways: dict[str, Callable[[], Iterator[tuple[Run, Outcome]]]] = {
            "local pool": lambda: run_all(runs, args.workers, TIMEOUT),
            "LocalCluster": lambda: cluster.streamed(client, cluster.solve_run, runs, TIMEOUT,
                                                     False, cluster.version()),
        }
        found: dict[str, list[tuple[float, float, int]]] = {way: [] for way in ways}
        for _ in range(args.repeats):
            for way, results in ways.items():
                found[way].append(sweep(results(), args.workers))
        outcome = next(iter(ways["LocalCluster"]()))[1]
    print(f"{len(runs)} runs a sweep, {args.workers} worker processes, {args.repeats} sweeps "
          f"each, alternating; load average {[round(x, 2) for x in os.getloadavg()]}")
    for way, sweeps in found.items():
        per_run = statistics.median(s[0] for s in sweeps)
        overhead = statistics.median(s[1] for s in sweeps)
        print(f"{way:13s} {per_run * 1000:7.2f} ms a run, overhead {overhead * 1000:6.2f} ms "
              f"a run (medians; solved {min(s[2] for s in sweeps)} of {len(runs)} or more)")
    pool, dask = (statistics.median(s[0] for s in found[w]) for w in ways)
    print(f"LocalCluster / local pool: x{dask / pool:.2f} the time a run; +"
          f"{(dask - pool) * 1000:.2f} ms a run")
    print(f"LocalCluster start: {started:.2f} s (once a sweep)")
    low, high, back = shipped(runs, outcome)
    print(f"shipped a run: {low}-{high} bytes out (task, puzzle inside), {back} bytes back")


if __name__ == "__main__":
    main()
