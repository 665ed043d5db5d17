"""Benchmark: the ways PySAT takes a formula in bulk, on one puzzle's formula.

    python benchmarks/ingest.py PUZZLE [--repeats 15] [--solver glucose4]

Times (smallest CPU time of the repeats: the machine is shared) loading the formula of the
default encoding into a fresh solver: `Solver(bootstrap_with=...)`, `append_formula`, a loop
of `add_clause`, PySAT's C adder called in a loop and from `map` (what `flowsat.sat.oracle`
does), and the same from a numpy array turned into lists (`tolist`, timed alone too).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import deque
from itertools import repeat

import numpy as np
import pysolvers
from pysat.solvers import Solver

from flowsat.puzzle import read_puzzles
from flowsat.sat.formula import encode
from flowsat.sat.oracle import DIRECT_ADD


def fastest(make, repeats: int) -> float:
    """The smallest CPU seconds of making (and then deleting) a loaded solver."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        solver = make()
        times.append(time.process_time() - start)
        if solver is not None:
            solver.delete()
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzle")
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--solver", default="glucose4", choices=sorted(DIRECT_ADD))
    args = parser.parse_args()
    puzzle = next(iter(read_puzzles(args.puzzle, 10**7)))
    clauses = encode(puzzle, "edges-unique-lazy").clauses
    width = max(map(len, clauses))
    padded = np.array([c + [0] * (width - len(c)) for c in clauses])  # the same as an array
    function, handle = DIRECT_ADD[args.solver]
    add = getattr(pysolvers, function)

    def bootstrap():
        return Solver(name=args.solver, bootstrap_with=clauses)

    def append():
        solver = Solver(name=args.solver)
        solver.append_formula(clauses)
        return solver

    def loop():
        solver = Solver(name=args.solver)
        for clause in clauses:
            solver.add_clause(clause)
        return solver

    def c_loop():
        solver = Solver(name=args.solver)
        h = getattr(solver.solver, handle)
        for clause in clauses:
            add(h, clause)
        return solver

    def c_map(rows=None):
        solver = Solver(name=args.solver)
        deque(map(add, repeat(getattr(solver.solver, handle)), rows or clauses), maxlen=0)
        return solver

    def from_array():
        return c_map([[x for x in row if x] for row in padded.tolist()])

    print(f"{args.puzzle}: {len(clauses)} clauses; smallest CPU of {args.repeats}")
    for name, make in [("Solver(bootstrap_with=...)", bootstrap), ("append_formula", append),
                       ("add_clause loop", loop), ("C adder, loop", c_loop),
                       ("C adder, map (flowsat)", c_map), ("numpy rows, C adder map", from_array),
                       ("numpy tolist alone", lambda: padded.tolist() and None)]:
        print(f"{name:28s} {1000 * fastest(make, args.repeats):8.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
