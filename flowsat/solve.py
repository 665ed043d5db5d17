"""One interface to every backend: solve a puzzle, check the answer, return the result."""

from __future__ import annotations

import importlib
import time
from collections.abc import Iterable
from types import ModuleType
from typing import Any

from flowsat.checker import check
from flowsat.puzzle.model import Paths, Puzzle
from flowsat.result import Result, UsageError

BACKENDS = {"sat": "flowsat.sat",  # name -> module with solve(puzzle, *, ..., **options)
            "astar": "flowsat.search"}


def solve(puzzle: Puzzle, backend: str = "sat", *, allow_self_touch: bool = False,
          timeout: float | None = None, **options: Any) -> Result:
    """The backend's result for the puzzle; a solution that fails the checker raises."""
    start = time.perf_counter()
    module = backend_module(backend, options)
    result: Result = module.solve(puzzle, allow_self_touch=allow_self_touch, timeout=timeout,
                                  **options)
    if result.status == "solved":
        check(puzzle, result.paths or {}, allow_self_touch)
    result.stats.setdefault("total_s", round(time.perf_counter() - start, 6))
    return result


def backend_module(backend: str, options: Iterable[str] = ()) -> ModuleType:
    """The backend's module, once the backend is known and takes every option given."""
    if backend not in BACKENDS:
        raise UsageError(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}")
    module = importlib.import_module(BACKENDS[backend])
    for name in set(options) - set(module.OPTIONS):
        raise UsageError(f"--{name.replace('_', '-')} does not apply to the {backend} backend")
    return module


def solve_many(puzzle: Puzzle, limit: int, *, allow_self_touch: bool = False,
               timeout: float | None = None, **options: Any) -> tuple[Result, list[Paths]]:
    """Up to `limit` distinct solutions by SAT, every one checked (see `sat.backend.search`)."""
    from flowsat.sat.backend import search

    result, found = search(puzzle, limit, allow_self_touch=allow_self_touch, timeout=timeout,
                           **options)
    for paths in found:
        check(puzzle, paths, allow_self_touch)
    return result, found


def takes(backend: str, option: str) -> bool:
    """Whether the backend's solve() takes the option."""
    return option in importlib.import_module(BACKENDS[backend]).OPTIONS
