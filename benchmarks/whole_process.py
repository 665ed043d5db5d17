"""Benchmark: `flowsat solve` over the 28 solvable puzzles of ../shared/puzzles/zucker/ as one
whole process (Python start-up and imports included), the way the 2016 SAT program was timed.

    python benchmarks/whole_process.py [--runs 21] [-- EXTRA FLOWSAT ARGUMENTS]

Prints the median and smallest wall-clock and CPU (user + system) seconds over the runs, and
the same for `flowsat solve` of an empty folder (start-up alone), with the machine's load.
The 2016 SAT program took about 0.95 s for the 28 as a whole process on this machine class
(NOTES.md); the 2016 C search program 1.8-2.5 s. CPU time suffers less than wall time on a
busy machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared"


def timed(argv: list[str], runs: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of each run of a command (its output thrown away)."""
    walls, cpus = [], []
    for _ in range(runs):
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        walls.append(time.perf_counter() - start)
        cpus.append(usage.ru_utime + usage.ru_stime)
        if os.waitstatus_to_exitcode(status) not in (0, 1):
            sys.exit(f"{' '.join(argv)} failed with exit status {status}")
    return walls, cpus


def line(label: str, walls: list[float], cpus: list[float]) -> str:
    return (f"{label:12s} wall median {statistics.median(walls):.3f} s, min {min(walls):.3f} s"
            f" | CPU median {statistics.median(cpus):.3f} s, min {min(cpus):.3f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--shared", type=Path, default=SHARED)
    parser.add_argument("extra", nargs="*", help="more flowsat solve arguments")
    args = parser.parse_args()
    puzzles = sorted(p for p in (args.shared / "puzzles" / "zucker").glob("*.txt")
                     if not p.name.startswith("unsolvable"))
    if len(puzzles) != 28:
        print(f"expected the 28 solvable puzzles in {args.shared}/puzzles/zucker", file=sys.stderr)
        return 2
    flowsat = shutil.which("flowsat") or sys.exit("flowsat is not on PATH")
    with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryDirectory() as empty:
        for p in puzzles:  # one folder of the 28, so the command line stays short
            os.symlink(p, Path(folder, p.name))
        solve = [flowsat, "solve", "--backend", "sat", "--format", "json", *args.extra]
        print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
              f"load {os.getloadavg()[0]:.2f}; {args.runs} runs; {' '.join(solve[1:])}")
        print(line("start-up", *timed([*solve, empty], args.runs)))
        print(line("28 puzzles", *timed([*solve, folder], args.runs)))
    print(f"load at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
