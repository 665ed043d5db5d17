"""Benchmark: the best-first backend on the 28 solvable puzzles of ../shared/puzzles/zucker/,
in one process, next to the 2016 C program's figures (../shared/reference/zucker2016.csv).

    python benchmarks/astar_zucker.py [--repeats 3] [--preset full|2016] [--timeout 120]

Per puzzle: status, nodes (states expanded; deterministic), the median seconds over the
repeats, and the C program's final nodes and its seconds on this machine class. Lines are
printed as each puzzle finishes. Timings are wall-clock on a shared machine: note the load.
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import statistics
import sys
import time
from pathlib import Path

from flowsat.puzzle import read_puzzles
from flowsat.solve import solve

SHARED = Path(__file__).resolve().parents[2] / "shared"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--preset", default="full")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--shared", type=Path, default=SHARED)
    args = parser.parse_args()
    reference = args.shared / "reference" / "zucker2016.csv"
    if not reference.is_file():
        print(f"no {reference}: nothing to measure", file=sys.stderr)
        return 2
    rows = {r["puzzle"]: r for r in csv.DictReader(reference.open())}
    names = [n for n in sorted(rows) if rows[n]["c_status_here"] == "s"]
    print(f"# astar preset={args.preset}, median of {args.repeats}; {platform.processor() or ''}"
          f" {os.cpu_count()} cpus, load {os.getloadavg()[0]:.2f} at start")
    print(f"{'puzzle':24} {'status':8} {'nodes':>8} {'c_nodes':>8} {'s':>8} {'c_s':>6}")
    totals = {"nodes": 0, "c_nodes": 0, "s": 0.0, "c_s": 0.0, "fewer": 0}
    for name in names:
        puzzle = next(read_puzzles(args.shared / "puzzles" / "zucker" / name))
        times, result = [], None
        for _ in range(args.repeats):
            start = time.perf_counter()
            result = solve(puzzle, "astar", timeout=args.timeout, preset=args.preset)
            times.append(time.perf_counter() - start)
        ref = rows[name]
        nodes, c_nodes = result.stats["nodes"], int(ref["blog_c_final_nodes"])
        seconds, c_s = statistics.median(times), float(ref["c_s_here"])
        totals["nodes"] += nodes
        totals["c_nodes"] += c_nodes
        totals["s"] += seconds
        totals["c_s"] += c_s
        totals["fewer"] += nodes <= c_nodes
        print(f"{name:24} {result.status:8} {nodes:8d} {c_nodes:8d} {seconds:8.3f} {c_s:6.3f}",
              flush=True)
    print(f"{'total':24} {'':8} {totals['nodes']:8d} {totals['c_nodes']:8d} {totals['s']:8.3f}"
          f" {totals['c_s']:6.3f}")
    ratio = totals['s'] / totals['c_s']
    print(f"# nodes <= C on {totals['fewer']} of {len(names)}; time {ratio:.1f}x"
          f" the C program's; load {os.getloadavg()[0]:.2f} at end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
