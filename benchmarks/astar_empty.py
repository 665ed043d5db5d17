"""Benchmark: what leaving cells empty (`--allow-empty`) costs the best-first search.

    python benchmarks/astar_empty.py [FOLDER...] [--preset full|2016] [--repeats 3]
        [--max-nodes 5000] [--timeout 30] [--emptied SIZE]...

Every puzzle of each folder (default: puzzles/small/*, puzzles/kinds; the kinds the search
takes) solved in this process with every cell filled, with cells left empty (the default:
filling first, `--fill-first`), and with cells left empty without filling first
(`--fill-first 0`: the search with cells left empty alone), in turns. Per folder and run: the
puzzles answered, solved or unsolvable (the others hit the node limit or the timeout), the
total and median nodes, the median of each puzzle's median CPU seconds, and its ratio to the
filled run's. Lines are printed as each folder is done; the load is noted at the start and
the end. `--emptied SIZE` adds a set of 20 random levels of `flowsat.generate.cover` on
SIZE x SIZE boards with a third of their paths kept (the others' dots taken away): puzzles
made for cells left empty, which the filled run mostly answers unsolvable.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

from flowsat.generate.cover import random_level
from flowsat.puzzle import Puzzle, read_puzzles
from flowsat.puzzle.board import Board as Graph
from flowsat.puzzle.rules import Rules
from flowsat.search.board import KINDS
from flowsat.solve import solve

ROOT = Path(__file__).resolve().parents[1]
ANSWERS = ("solved", "unsolvable")
RUNS = {"filled": (Rules(), {}), "empty": (Rules(fill_all=False), {}),
        "empty alone": (Rules(fill_all=False), {"fill_first": 0})}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--preset", default="full")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--max-nodes", type=int, default=5000)
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--emptied", type=int, action="append", default=[])
    args = parser.parse_args()
    folders = args.folders or [*sorted((ROOT / "puzzles" / "small").glob("*x*"),
                                       key=lambda f: tuple(map(int, f.name.split("x")))),
                               ROOT / "puzzles" / "kinds"]
    print(f"# astar preset={args.preset}, median of {args.repeats}, at most {args.max_nodes:,} "
          f"nodes and {args.timeout:g} s a puzzle; {os.cpu_count()} cpus, load "
          f"{os.getloadavg()[0]:.2f} at start")
    print("| puzzles | run | answered | nodes | median nodes | median cpu s | x filled |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    sets = {str(folder.resolve().relative_to(ROOT)): [
        p for f in sorted(folder.rglob("*.txt")) for p in read_puzzles(f)
        if set(p.kind.split("+")) <= KINDS] for folder in folders}
    sets.update({f"emptied {n}x{n}": [emptied(n, seed) for seed in range(1, 21)]
                 for n in args.emptied})
    for name, puzzles in sets.items():
        results: dict[str, list] = {run: [] for run in RUNS}
        for puzzle in puzzles:  # the runs in turns, so that load falls on all alike
            for run, (rules, options) in RUNS.items():
                results[run].append(measure(puzzle, rules, options, args))
        base = statistics.median(cpu for _, _, cpu in results["filled"])
        for run, found in results.items():
            cpu = statistics.median(c for _, _, c in found)
            nodes = [n for _, n, _ in found]
            answered = sum(status in ANSWERS for status, _, _ in found)
            print(f"| {name} | {run} | {answered}/{len(found)} |"
                  f" {sum(nodes):,} | {statistics.median(nodes):g} | {cpu:.4f} |"
                  f" {cpu / base:.1f} |", flush=True)
    print(f"# load {os.getloadavg()[0]:.2f} at end")
    return 0


def emptied(size: int, seed: int) -> Puzzle:
    """A random level on a size x size board with a third of its paths kept."""
    rng = random.Random(seed)
    puzzle, paths = random_level(Graph(size, size), rng)
    keep = rng.sample(sorted(paths), max(1, len(paths) // 3))
    rows = [["."] * size for _ in range(size)]
    for letter in keep:
        for r, c in (paths[letter][0], paths[letter][-1]):
            rows[r][c] = letter
    return replace(puzzle, rows=tuple("".join(row) for row in rows))


def measure(puzzle, rules: Rules, options: dict, args) -> tuple[str, int, float]:
    """The status, the nodes and the median CPU seconds of solving the puzzle."""
    times, result = [], None
    for _ in range(args.repeats):
        start = time.process_time()
        result = solve(puzzle, "astar", rules=rules, preset=args.preset, timeout=args.timeout,
                       max_nodes=args.max_nodes, **options)
        times.append(time.process_time() - start)
    assert result.status in (*ANSWERS, "limit", "timeout"), (puzzle.name, result.status)
    return result.status, result.stats.get("nodes", 0), statistics.median(times)


if __name__ == "__main__":
    sys.exit(main())
