"""The SAT backend: encodings as composable clause families, solved by PySAT's solvers.

`BACKEND` (`flowsat.sat.backend`) and its options (`flowsat.sat.options`) are light to import;
the search (`flowsat.sat.search`, with PySAT) is imported on the first solve. The formula is
`flowsat.sat.formula`, the reading of models `flowsat.sat.decode`.
"""

from __future__ import annotations

from flowsat.sat.backend import BACKEND, can_stop
from flowsat.sat.options import DEFAULT_ENCODING, DEFAULT_SOLVER
from flowsat.sat.options import SatOptions as Options

LAZY = {"encode": "flowsat.sat.formula", "SOLVERS": "flowsat.sat.oracle"}

__all__ = ["BACKEND", "DEFAULT_ENCODING", "DEFAULT_SOLVER", "SOLVERS", "Options", "can_stop",
           "encode"]


def __getattr__(name: str):
    if name not in LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(LAZY[name]), name)
