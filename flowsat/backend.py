"""The contract every backend keeps, and the registry of backends.

A backend is one object (`Backend`): its name, its `Options` dataclass (the fields the command
line and bench plans are made from), the kinds of board it takes, and
`solve(puzzle, options, rules, limits) -> Result`. Options are made once, from the command line
or a plan, by `backend.options(**given)`, which checks every value against its field's bounds;
the solve loop never sees loose keyword arguments. What stops a run (time, memory) is the same
for every backend: `Limits`.

The registry names each backend's module and the attribute that holds its object; a backend's
package imports only its options until `solve` is called (start-up stays light).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from flowsat.options import MAX_MEMORY, TIMEOUT
from flowsat.puzzle.model import Cell, Paths, Puzzle
from flowsat.puzzle.rules import Rules
from flowsat.result import Result, UsageError

Observer = Callable[[str, Paths, list[list[Cell]]], None]  # (event, paths, cycles): animations


@dataclass(frozen=True)
class Limits:
    """What stops a run, for every backend: seconds (None: none) and MB (None: half the
    memory available at the start, `flowsat.memory.cap_mb`). Checked when made."""

    timeout: float | None = None
    max_memory: float | None = None

    def __post_init__(self) -> None:
        TIMEOUT.check("timeout", self.timeout)
        MAX_MEMORY.check("max_memory", self.max_memory)


NO_LIMITS = Limits()


class Backend(Protocol):
    """One way of solving: what every backend module's `BACKEND` object is."""

    name: ClassVar[str]
    Options: ClassVar[type]  # a frozen dataclass; its fields carry help, flag and bounds
    kinds: ClassVar[frozenset[str] | None]  # the board kinds it takes (None: every kind)
    outside: ClassVar[bool]  # its answers come from outside flowsat (a wrong one is `wrong`)

    def options(self, **given: Any) -> Any:
        """The options instance, every value checked against its field's bounds."""

    def solve(self, puzzle: Puzzle, options: Any, rules: Rules, limits: Limits,
              observe: Observer | None = None) -> Result:
        """The puzzle's result: solved with paths (checked by the caller), or why not."""


REGISTRY: dict[str, str] = {  # name -> module whose `BACKEND` is the backend
    "sat": "flowsat.sat",
    "astar": "flowsat.search",
    "program": "flowsat.program",
}


def backend(name: str) -> Backend:
    """The registered backend of that name (a UsageError naming the choices otherwise)."""
    if name not in REGISTRY:
        raise UsageError(f"unknown backend {name!r}; choose from {', '.join(REGISTRY)}")
    return importlib.import_module(REGISTRY[name]).BACKEND
