"""Propagation first against the full encoding, in one process: the SAT backend's stages
(encode or deduce, load, solve, decode) summed over a set, with and without `deduce`.

    python benchmarks/deduce.py FILE_OR_DIR... [--repeat 3]

Each puzzle is solved `--repeat` times each way, keeping the smallest CPU time
(`time.process_time`); the stages are the backend's own stats of that run.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from flowsat.puzzle.formats import read_puzzles
from flowsat.puzzle.model import Puzzle
from flowsat.solve import solve

STAGES = ("encode_s", "deduce_s", "load_s", "solve_s", "decode_s")


def puzzles(paths: list[str]) -> list[Puzzle]:
    files = [f for p in map(Path, paths) for f in (sorted(p.glob("*.txt")) if p.is_dir() else [p])]
    return [p for f in files for p in read_puzzles(f) if isinstance(p, Puzzle)]


def run(puzzle: Puzzle, deduce: bool, repeat: int) -> tuple[float, dict, str]:
    best = None
    for _ in range(repeat):
        t = time.process_time()
        result = solve(puzzle, deduce="on" if deduce else "off")
        cpu = time.process_time() - t
        if best is None or cpu < best[0]:
            best = (cpu, result.stats, result.status)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    found = puzzles(args.paths)
    for deduce in (False, True):
        cpu, stages, statuses = 0.0, dict.fromkeys(STAGES, 0.0), {}
        for puzzle in found:
            c, stats, status = run(puzzle, deduce, args.repeat)
            cpu += c
            statuses[status] = statuses.get(status, 0) + 1
            for s in STAGES:
                stages[s] += stats.get(s, 0.0)
        shown = ", ".join(f"{s[:-2]} {v * 1000:.1f} ms" for s, v in stages.items())
        print(f"deduce {'on ' if deduce else 'off'}: {len(found)} puzzles {statuses}, "
              f"CPU {cpu * 1000:.1f} ms (median {cpu / len(found) * 1000:.1f} ms a puzzle "
              f"on average); {shown}")


if __name__ == "__main__":
    main()
