"""Benchmark: both backends head to head on every kind of board.

    python benchmarks/astar_kinds.py [--size 10] [--levels 12] [--repeats 3]

The levels of `benchmarks/kinds.py` (seeds 1..LEVELS, SIZE x SIZE: a random filling, and the
same fillings with holes, with walls, with bridges, or shifted across warps, and hexagonal
boards of random walks), each solved REPEATS times in
this process by the sat backend (default encoding) and the astar backend (presets full and
2016), in turns (level by level, every kind and backend, so that load falls on all alike),
after one untimed round (the imports). Per kind and backend: the median over levels of each
level's median CPU seconds (a shared machine's load shows less in them than in wall
seconds), the worst, the median nodes (astar), and the ratio of its median to the sat
backend's on that kind and to its own on plain squares.
Lines are printed as each kind is done; `uptime`'s load is noted before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from kinds import level  # benchmarks/kinds.py, beside this file

from flowsat.solve import solve

KINDS = ("square", "square+holes", "square+walls", "square+bridges", "square+warps", "hex")
RUNS = {"sat": {}, "astar full": {"preset": "full"}, "astar 2016": {"preset": "2016"}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10)
    parser.add_argument("--levels", type=int, default=12)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"# {args.levels} levels {args.size}x{args.size} a kind, median of {args.repeats};"
          f" {os.cpu_count()} cpus, load {os.getloadavg()[0]:.2f} at start")
    puzzles = {k: [level(k, args.size, seed)[0] for seed in range(1, args.levels + 1)]
               for k in KINDS}
    times = {(k, r): [[] for _ in range(args.levels)] for k in KINDS for r in RUNS}
    nodes = {(k, r): [0] * args.levels for k in KINDS for r in RUNS}
    for repeat in range(args.repeats + 1):  # the first round is not timed
        for n in range(args.levels):
            for kind in KINDS:
                for run, options in RUNS.items():
                    backend = run.split()[0]
                    start = time.process_time()
                    result = solve(puzzles[kind][n], backend, **options)
                    if repeat:
                        times[kind, run][n].append(time.process_time() - start)
                    assert result.status == "solved", (kind, n, run)
                    nodes[kind, run][n] = result.stats.get("nodes", 0)
    median = {key: statistics.median(statistics.median(t) for t in ts)
              for key, ts in times.items()}
    print(f"{'kind':14} {'backend':11} {'cpu_s':>9} {'worst_s':>8} {'nodes':>6}"
          f" {'x sat':>6} {'x square':>8}")
    for kind in KINDS:
        for run in RUNS:
            worst = max(statistics.median(t) for t in times[kind, run])
            print(f"{kind:14} {run:11} {median[kind, run]:9.4f} {worst:8.4f}"
                  f" {statistics.median(nodes[kind, run]):6g}"
                  f" {median[kind, run] / median[kind, 'sat']:6.2f}"
                  f" {median[kind, run] / median['square', run]:8.2f}", flush=True)
    print(f"# load {os.getloadavg()[0]:.2f} at end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
