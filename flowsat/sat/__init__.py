"""The SAT backend: encodings as composable clause families, solved by PySAT's solvers."""

from flowsat.sat.backend import DEFAULT_ENCODING, DEFAULT_SOLVER, encode, solve
from flowsat.sat.oracle import SOLVERS

# what `flowsat solve` may pass to solve()
OPTIONS = ("encoding", "solver", "observe", "max_memory")

__all__ = ["DEFAULT_ENCODING", "DEFAULT_SOLVER", "OPTIONS", "SOLVERS", "encode", "solve"]
