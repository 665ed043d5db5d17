"""Benchmark: what making a unique puzzle takes, by board size (without the rating).

    python benchmarks/generate.py [--sizes 5x5,10x10,15x15,20x20,30x30,40x40,50x50]
                                  [--seeds 10] [--allow-self-touch]

Per size, seeds 1..N with the default color range: the median and worst seconds of
`make_puzzle`, the candidates and the SAT proofs it took (deterministic), and the colors
made. Seconds are wall-clock on a shared machine (the load is printed).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from flowsat.generate.make import make_puzzle
from flowsat.generate.run import order
from flowsat.puzzle.rules import Rules


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="5x5,10x10,15x15,20x20,30x30,40x40,50x50")
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--allow-self-touch", action="store_true")
    args = parser.parse_args()
    rule = "self-touch allowed" if args.allow_self_touch else "no self-touch"
    print(f"# make_puzzle, {rule}, seeds 1..{args.seeds}; {os.cpu_count()} cpus, load "
          f"{os.getloadavg()[0]:.2f} at start")
    print(f"{'size':8} {'colors':>8} {'median s':>9} {'worst s':>8} {'candidates':>11} "
          f"{'proofs':>7} {'made':>5}")
    for size in args.sizes.split(","):
        wanted = order(size)
        seconds, candidates, proofs, colors = [], [], [], []
        for seed in range(1, args.seeds + 1):
            start = time.perf_counter()
            made = make_puzzle(wanted.height, wanted.width, seed, wanted.colors,
                               Rules(self_touch=args.allow_self_touch))
            seconds.append(time.perf_counter() - start)
            if made:
                candidates.append(made.candidates)
                proofs.append(made.proofs)
                colors.append(len(made.solution))
        print(f"{size:8} {'{}-{}'.format(*wanted.colors):>8} {statistics.median(seconds):9.3f} "
              f"{max(seconds):8.3f} {sum(candidates):>11} {sum(proofs):>7} "
              f"{len(colors):>5}", flush=True)
    print(f"# load {os.getloadavg()[0]:.2f} at end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
