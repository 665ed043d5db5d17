"""One interface to every backend: solve a puzzle, check the answer, return the result."""

from __future__ import annotations

import importlib
import time
from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Any

from flowsat.checker import InvalidSolution, check
from flowsat.deadline import Timeout, deadline
from flowsat.options import check_limits, check_options
from flowsat.puzzle.model import Paths, Puzzle
from flowsat.puzzle.rules import DEFAULT_RULES, Rules
from flowsat.result import BackendError, Result, UsageError

BACKENDS = {"sat": "flowsat.sat",  # name -> module with solve(puzzle, *, ..., **options)
            "astar": "flowsat.search",
            "program": "flowsat.program"}  # `program:COMMAND`: any solver program


def solve(puzzle: Puzzle, backend: str = "sat", *, rules: Rules = DEFAULT_RULES,
          timeout: float | None = None, **options: Any) -> Result:
    """The backend's result for the puzzle. A solution that fails the checker raises (a bug),
    unless it comes from outside flowsat (a backend with `OUTSIDE`): then it is `wrong`."""
    start = time.perf_counter()
    check_limits(timeout=timeout)
    backend, given = split_backend(backend, options)
    options |= given
    module = backend_module(backend, options)
    try:
        with deadline(timeout):
            result: Result = module.solve(puzzle, rules=rules,
                                          timeout=timeout, **options)
    except Timeout:
        result = Result("timeout", config=config_of(module, options))
    except BackendError as err:
        result = Result("error", error=str(err), config=config_of(module, options))
    except MemoryError:  # the last line: what the caps did not foresee stops the run, no more
        result = Result("limit", error=f"out of memory: the system refused more after "
                                       f"{time.perf_counter() - start:.1f} s (--max-memory "
                                       f"sets a cap to stop at sooner)")
    if result.status == "solved":
        try:
            check(puzzle, result.paths or {}, rules)
        except InvalidSolution as err:
            if not outside(backend):
                raise
            result = Result("wrong", stats=result.stats, error=str(err), config=result.config)
    result.stats.setdefault("total_s", round(time.perf_counter() - start, 6))
    return result


def split_backend(backend: str, options: Iterable[str] = ()) -> tuple[str, dict[str, str]]:
    """`NAME`, or `NAME:TEXT` for a backend whose module names an `ARGUMENT` option it cannot
    do without (`program:COMMAND`): the name, and that option from the text."""
    name, colon, text = backend.partition(":")
    argument = getattr(backend_module(name), "ARGUMENT", None)
    if colon and not argument:
        raise UsageError(f"the {name} backend takes nothing after ':'")
    if argument and not text.strip() and argument not in options:
        raise UsageError(f"the {name} backend needs its {argument}: {name}:{argument.upper()}")
    return name, {argument: text} if colon else {}


def standalone_backends() -> list[str]:
    """The backends that need nothing but their name (not `program`, which needs a command)."""
    return [b for b in BACKENDS if not getattr(backend_module(b), "ARGUMENT", None)]


def outside(backend: str) -> bool:
    """Whether the backend's answers come from outside flowsat (a solver program): a wrong or
    failed one is that program's fault, not a bug of flowsat."""
    return getattr(backend_module(backend.partition(":")[0]), "OUTSIDE", False)


def blame(status: str, backend: str) -> str | None:
    """Whose failure a status is: a solver program's (`program`: its error or wrong answer),
    flowsat's own (`internal`: an error, a bug), or nobody's (None)."""
    if status not in ("error", "wrong"):
        return None
    return "program" if outside(backend) else "internal"


def backend_module(backend: str, options: Mapping[str, Any] | None = None) -> ModuleType:
    """The backend's module, once the backend is known and takes every option given, each
    within the bounds of its field in the backend's `Options`."""
    options = options or {}
    if backend not in BACKENDS:
        raise UsageError(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}")
    module = importlib.import_module(BACKENDS[backend])
    for name in set(options) - set(module.OPTIONS):
        raise UsageError(f"{option_flag(name)} does not apply to the {backend} backend")
    if hasattr(module, "Options"):
        check_options(module.Options, options)
    return module


def option_flag(name: str) -> str:
    """How the command line gives a backend's option: `--no-links` for `links`."""
    for module in BACKENDS.values():
        options = getattr(importlib.import_module(module), "Options", None)
        found = options and options.__dataclass_fields__.get(name)
        if found and found.metadata.get("flag"):
            return found.metadata["flag"]
    return f"--{name.replace('_', '-')}"


def solve_many(puzzle: Puzzle, limit: int, *, rules: Rules = DEFAULT_RULES,
               timeout: float | None = None, **options: Any) -> tuple[Result, list[Paths]]:
    """Up to `limit` distinct solutions by SAT, every one checked (see `sat.search.search`)."""
    from flowsat.backend import Limits
    from flowsat.sat import BACKEND
    from flowsat.sat.search import search

    limits = Limits(timeout, options.pop("max_memory", None))
    try:
        with deadline(timeout):
            result, found = search(puzzle, limit, BACKEND.options(**options), rules, limits)
    except Timeout:
        return Result("timeout", stats={"solutions": 0, "exhausted": False,
                                        "stopped": "timeout"},
                      config=config_of(backend_module("sat"), options)), []
    for paths in found:
        check(puzzle, paths, rules)
    return result, found


def config_of(module: ModuleType, options: dict[str, Any]) -> dict[str, Any]:
    """The configuration a result names when the backend could not say it (cut short): the
    backend's defaults and the options given."""
    given = {k: v for k, v in options.items() if k != "observe" and v is not None}
    return {**getattr(module, "DEFAULTS", {}), **given}


def takes(backend: str, option: str) -> bool:
    """Whether the backend's solve() takes the option."""
    return option in backend_module(backend.partition(":")[0]).OPTIONS
