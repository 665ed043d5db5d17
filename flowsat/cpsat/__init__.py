"""The CP-SAT backend (`--backend cpsat`, the optional extra `flowsat[cpsat]`): the puzzle as
an OR-Tools CP-SAT model whose connectivity is one multiple-circuit constraint
(`model.py`), solved within the limits and read back as paths (`run.py`). `BACKEND`
(`backend.py`) and its options (`options.py`) are light to import; OR-Tools is imported on
the first solve, and a missing one is one line saying how to install it."""

from __future__ import annotations

from flowsat.cpsat.backend import BACKEND
from flowsat.cpsat.options import CpsatOptions

__all__ = ["BACKEND", "CpsatOptions"]
