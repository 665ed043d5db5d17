"""A stand-in DIMACS solver program: reads a CNF file, answers in the SAT competition format
(`s` and `v` lines, exit 10 or 20), and logs each call. With --sleep it hangs instead, with
--crash it fails without an answer."""

import sys
import time
from pathlib import Path

from pysat.formula import CNF
from pysat.solvers import Solver

args = sys.argv[1:]
log = Path(args[args.index("--log") + 1]) if "--log" in args else None
if "--sleep" in args:
    time.sleep(60)
if "--crash" in args:
    print("c something went wrong", file=sys.stderr)
    sys.exit(1)
formula = CNF(from_file=args[-1])
if log:
    with log.open("a") as out:
        out.write(f"{formula.nv} {len(formula.clauses)}\n")
with Solver(name="cadical195", bootstrap_with=formula.clauses) as solver:
    if solver.solve():
        print("s SATISFIABLE")
        print("v " + " ".join(map(str, solver.get_model())) + " 0")
        sys.exit(10)
    print("s UNSATISFIABLE")
    sys.exit(20)
