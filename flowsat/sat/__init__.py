"""The SAT backend: encodings as composable clause families, solved by PySAT's solvers.

`BACKEND` (`flowsat.sat.backend`) and its options (`flowsat.sat.options`) are light to import;
the search (`flowsat.sat.search`, with PySAT) is imported on the first solve. The formula is
`flowsat.sat.formula`, the reading of models `flowsat.sat.decode`.
"""

from __future__ import annotations

from typing import Any

from flowsat.backend import Limits
from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import DEFAULT_RULES, Rules
from flowsat.result import Result
from flowsat.sat.backend import BACKEND, can_stop
from flowsat.sat.options import DEFAULT_ENCODING, DEFAULT_SOLVER
from flowsat.sat.options import SatOptions as Options

DEFAULTS = {"encoding": DEFAULT_ENCODING, "solver": DEFAULT_SOLVER}  # what a result names
LAZY = {"encode": "flowsat.sat.formula", "SOLVERS": "flowsat.sat.oracle"}
# Until `flowsat.solve` goes through BACKEND: what its `solve(puzzle, "sat", ...)` passes on
OPTIONS = (*Options.__dataclass_fields__, "observe", "max_memory")

__all__ = ["BACKEND", "DEFAULT_ENCODING", "DEFAULT_SOLVER", "OPTIONS", "SOLVERS", "Options",
           "can_stop", "encode", "solve"]


def solve(puzzle: Puzzle, *, rules: Rules = DEFAULT_RULES, timeout: float | None = None,
          max_memory: float | None = None, observe: Any = None, **given: Any) -> Result:
    """The keyword entry `flowsat.solve` calls until it goes through BACKEND (to go then):
    the options made and checked, the limits apart."""
    return BACKEND.solve(puzzle, BACKEND.options(**given), rules, Limits(timeout, max_memory),
                         observe)


def __getattr__(name: str):
    if name not in LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(LAZY[name]), name)
