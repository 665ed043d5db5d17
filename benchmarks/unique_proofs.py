"""Benchmark: proofs of uniqueness with the corner rule on and without it.

    python benchmarks/unique_proofs.py [FILES or FOLDERS...] [--repeats 3]
                                       [--max-conflicts 2000000]

Per puzzle (default: the corpus's 15x15, 20x20 and 30x30 puzzles): a solution is found, then
blocked, and SAT proves that nothing else is left, with the complete encoding (`edges-binary`,
no corner rule) and with the rule (`edges-unique`, kept on in proofs), each with CaDiCaL and
Glucose. Conflicts are deterministic; seconds are the median over the repeats, wall-clock on
a shared machine (the load is printed). Lines are printed as each puzzle finishes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from flowsat.puzzle import expand_paths, read_puzzles
from flowsat.sat import BACKEND
from flowsat.sat.search import search
from flowsat.solve import solve

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = [ROOT / "puzzles" / "small" / "15x15", ROOT / "puzzles" / "large" / "20x20",
           ROOT / "puzzles" / "large" / "30x30"]
CONFIGS = [(encoding, solver) for encoding in ("edges-binary", "edges-unique")
           for solver in ("cadical195", "glucose4")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, default=DEFAULT)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--max-conflicts", type=int, default=2_000_000)
    args = parser.parse_args()
    print(f"# proofs of uniqueness, median of {args.repeats}; {os.cpu_count()} cpus, load "
          f"{os.getloadavg()[0]:.2f} at start; conflicts | seconds, '>' at the budget")
    print(f"{'puzzle':34}" + "".join(f" {e.split('-')[1] + '/' + s[:4]:>20}"
                                    for e, s in CONFIGS))
    totals = {config: [0, 0.0] for config in CONFIGS}
    for file in expand_paths(args.paths):
        for puzzle in read_puzzles(file):
            known = solve(puzzle).paths
            cells = []
            for config in CONFIGS:
                conflicts, seconds = prove(puzzle, known, config, args)
                totals[config][0] += conflicts
                totals[config][1] += seconds
                over = ">" if conflicts >= args.max_conflicts else " "
                cells.append(f"{over}{conflicts:>9} {seconds:9.3f}")
            print(f"{Path(file).name:34} " + " ".join(cells), flush=True)
    print(f"{'total':34} " + " ".join(f" {c:>9} {s:9.3f}" for c, s in totals.values()))
    print(f"# load {os.getloadavg()[0]:.2f} at end")
    return 0


def prove(puzzle, known, config, args) -> tuple[int, float]:
    encoding, solver = config
    times, result = [], None
    for _ in range(args.repeats):
        start = time.perf_counter()
        options = BACKEND.options(encoding=encoding, solver=solver,
                                  max_conflicts=args.max_conflicts)
        result, found = search(puzzle, 1, options, known=[known])
        times.append(time.perf_counter() - start)
        assert not found and result.status in ("unsolvable", "limit"), (puzzle.name, result)
    return result.stats.get("conflicts", 0), statistics.median(times)


if __name__ == "__main__":
    sys.exit(main())
