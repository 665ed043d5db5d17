"""Benchmark: each backend stage's mean time a puzzle over a set, for several flowsat builds.

    python benchmarks/stages.py FILE FLOWSAT... [--runs 3]

Each build runs `flowsat solve --format json FILE` in turn, `--runs` times; printed per build,
the median over the runs of each stage's mean over the puzzles (`encode_s`, `deduce_s`:
propagation first, `load_s`, `solve_s`, `decode_s`, `compile_s`: a compiled board's formula
made and loaded, `total_s`), in milliseconds (wall, from the stats), and of the whole process
(`process`) and what it spent outside the backend (`outside`: start-up, reading, the checker,
the JSON output, the exit), with `uptime`'s load.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import time

STAGES = ("encode_s", "deduce_s", "load_s", "solve_s", "decode_s", "compile_s", "total_s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("builds", nargs="+", metavar="FLOWSAT")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    means: dict[str, dict[str, list[float]]] = {
        b: {k: [] for k in (*STAGES, "process_s", "outside_s")} for b in args.builds}
    for _ in range(args.runs):
        for build in args.builds:
            start = time.perf_counter()
            out = subprocess.run([build, "solve", "--format", "json", args.file],
                                 capture_output=True, text=True, check=False).stdout
            wall = time.perf_counter() - start
            stats = [json.loads(line)["stats"] for line in out.splitlines()]
            for k in STAGES:
                means[build][k].append(sum(s.get(k, 0.0) for s in stats) / len(stats))
            means[build]["process_s"].append(wall / len(stats))
            means[build]["outside_s"].append((wall - sum(s["total_s"] for s in stats))
                                             / len(stats))
    print(f"{args.file}: load {os.getloadavg()[0]:.2f}")
    for build, stages in means.items():
        print(build, "  ".join(f"{k[:-2]} {1000 * statistics.median(v):.3f}"
                               for k, v in stages.items()), "ms a puzzle")


if __name__ == "__main__":
    main()
