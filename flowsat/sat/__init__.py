"""The SAT backend: encodings as composable clause families, solved by PySAT's solvers.

Its options (`Options`) and its backend object (`BACKEND`) are light to import; the backend
itself, with PySAT, is imported on first use of one of its names.
"""

from __future__ import annotations

import importlib
from dataclasses import field, fields, make_dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from flowsat.backend import Limits, Observer, made
from flowsat.result import UsageError
from flowsat.sat.options import DEFAULT_ENCODING, DEFAULT_SOLVER, SatOptions

if TYPE_CHECKING:
    from collections.abc import Sequence

    from flowsat.puzzle.model import Paths, Puzzle
    from flowsat.puzzle.rules import Rules
    from flowsat.result import Result

LAZY = {"encode": "flowsat.sat.backend", "SOLVERS": "flowsat.sat.oracle"}

__all__ = ["BACKEND", "DEFAULT_ENCODING", "DEFAULT_SOLVER", "SOLVERS", "Options", "can_stop",
           "encode"]


def can_stop(solver: str | None) -> bool:
    """Whether a solve with this solver (None: the default) can be cut at a deadline: the
    default timeout of `flowsat solve`'s text output is not for Lingeling and Kissat, which
    refuse any. (Not temporary: keep at the merge with satsplit.)"""
    if solver is None:
        return True
    from flowsat.sat.oracle import UNLIMITED, solver_name

    try:
        return solver_name(solver) not in UNLIMITED
    except UsageError:
        return True  # the solve says what is wrong with it


# temporary until satsplit: the options without max_memory (a limit now), with max_conflicts
# (not a flag), encoding and solver defaulted; the backend adapts to today's keyword search
DEFAULTS = {"encoding": DEFAULT_ENCODING, "solver": DEFAULT_SOLVER}
Options = make_dataclass(
    "SatOptions", [*((f.name, f.type, field(default=DEFAULTS.get(f.name), metadata=f.metadata))
                     for f in fields(SatOptions) if f.name != "max_memory"),
                   ("max_conflicts", "int | None", field(default=None))], frozen=True)


class Sat:  # temporary until satsplit
    name: ClassVar[str] = "sat"
    Options: ClassVar[type] = Options
    kinds: ClassVar[frozenset[str] | None] = None
    outside: ClassVar[bool] = False
    argument: ClassVar[str | None] = None
    observes: ClassVar[bool] = True

    def options(self, **given: Any) -> Any:
        return made(self, given)

    def solve(self, puzzle: Puzzle, options: Any, rules: Rules, limits: Limits,
              observe: Observer | None = None) -> Result:
        return search(puzzle, 1, options, rules, limits, observe=observe)[0]


def search(puzzle: Puzzle, limit: int, options: Any, rules: Rules, limits: Limits, *,
           known: Sequence[Paths] = (), observe: Observer | None = None
           ) -> tuple[Result, list[Paths]]:  # temporary until satsplit (its backend.search)
    from flowsat.sat.backend import search as by_keywords

    return by_keywords(puzzle, limit, rules=rules, timeout=limits.timeout,
                       encoding=options.encoding, solver=options.solver, observe=observe,
                       known=known, max_conflicts=options.max_conflicts,
                       max_memory=limits.max_memory, deduce=options.deduce)


BACKEND = Sat()


def __getattr__(name: str):
    if name not in LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(LAZY[name]), name)
