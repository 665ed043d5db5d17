"""The SAT backend: encodings as composable clause families, solved by PySAT's solvers.

Its options (`Options`) are light to import; the backend itself, with PySAT, is imported on
first use of one of its names.
"""

from flowsat.sat.options import DEFAULT_ENCODING, DEFAULT_SOLVER
from flowsat.sat.options import SatOptions as Options

DEFAULTS = {"encoding": DEFAULT_ENCODING, "solver": DEFAULT_SOLVER}  # what a result names
OPTIONS = (*Options.__dataclass_fields__, "observe")  # what `flowsat solve` may pass to solve()
LAZY = {"encode": "flowsat.sat.backend", "solve": "flowsat.sat.backend",
        "SOLVERS": "flowsat.sat.oracle"}

__all__ = ["DEFAULT_ENCODING", "DEFAULT_SOLVER", "OPTIONS", "SOLVERS", "Options", "encode",
           "solve"]


def __getattr__(name: str):
    if name not in LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(LAZY[name]), name)
