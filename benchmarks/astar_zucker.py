"""Benchmark: the best-first backend on the 28 solvable puzzles of ../shared/puzzles/zucker/,
in one process, next to the 2016 C program's figures (../shared/reference/zucker2016.csv).

    python benchmarks/astar_zucker.py [--repeats 3] [--preset full|2016] [--without NAME]...
        [--max-nodes N] [--timeout 120]

Per puzzle: status, nodes (states expanded; deterministic), the median wall and CPU seconds
over the repeats, and the C program's final nodes and its seconds on this machine class.
`--without links` (deadends, stranded, parity, tails, squares, bottleneck, ...) turns one
switch off, to measure what it is worth. Lines are printed as each puzzle finishes. Wall
seconds suffer from other work on a shared machine, CPU seconds less: note the load.
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
from flowsat.search.checks import REGISTRY
from flowsat.solve import solve

SHARED = Path(__file__).resolve().parents[2] / "shared"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--preset", default="full")
    parser.add_argument("--without", action="append", default=[],
                        choices=[s.name for s in REGISTRY],
                        help="turn this switch off (repeatable)")
    parser.add_argument("--max-nodes", type=int)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--shared", type=Path, default=SHARED)
    args = parser.parse_args()
    reference = args.shared / "reference" / "zucker2016.csv"
    if not reference.is_file():
        print(f"no {reference}: nothing to measure", file=sys.stderr)
        return 2
    rows = {r["puzzle"]: r for r in csv.DictReader(reference.open())}
    names = [n for n in sorted(rows) if rows[n]["c_status_here"] == "s"]
    options = {s.name: s.off for s in REGISTRY if s.name in args.without}
    if args.max_nodes:
        options["max_nodes"] = args.max_nodes
    print(f"# astar preset={args.preset} {' '.join(f'--without {w}' for w in args.without)}"
          f" median of {args.repeats}; {platform.processor() or ''} {os.cpu_count()} cpus,"
          f" load {os.getloadavg()[0]:.2f} at start")
    print(f"{'puzzle':24} {'status':8} {'nodes':>8} {'c_nodes':>8} {'s':>8} {'cpu_s':>8}"
          f" {'c_s':>6}")
    totals = {"nodes": 0, "c_nodes": 0, "s": 0.0, "cpu": 0.0, "c_s": 0.0, "fewer": 0}
    begin, begin_cpu = time.perf_counter(), time.process_time()
    for name in names:
        puzzle = next(read_puzzles(args.shared / "puzzles" / "zucker" / name))
        times, cpu, result = [], [], None
        for _ in range(args.repeats):
            start, start_cpu = time.perf_counter(), time.process_time()
            result = solve(puzzle, "astar", timeout=args.timeout, preset=args.preset,
                           **options)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        ref = rows[name]
        nodes, c_nodes = result.stats["nodes"], int(ref["blog_c_final_nodes"])
        seconds, cpu_s, c_s = statistics.median(times), statistics.median(cpu), \
            float(ref["c_s_here"])
        totals["nodes"] += nodes
        totals["c_nodes"] += c_nodes
        totals["s"] += seconds
        totals["cpu"] += cpu_s
        totals["c_s"] += c_s
        totals["fewer"] += nodes <= c_nodes
        print(f"{name:24} {result.status:8} {nodes:8d} {c_nodes:8d} {seconds:8.3f} {cpu_s:8.3f}"
              f" {c_s:6.3f}", flush=True)
    print(f"{'total':24} {'':8} {totals['nodes']:8d} {totals['c_nodes']:8d} {totals['s']:8.3f}"
          f" {totals['cpu']:8.3f} {totals['c_s']:6.3f}")
    ratio = totals["s"] / totals["c_s"]
    print(f"# nodes <= C on {totals['fewer']} of {len(names)}; time {ratio:.2f}x the C"
          f" program's; this process {time.perf_counter() - begin:.2f} s wall,"
          f" {time.process_time() - begin_cpu:.2f} s CPU for the {args.repeats} repeats;"
          f" load {os.getloadavg()[0]:.2f} at end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
