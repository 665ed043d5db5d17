"""The one path from a puzzle to a checked result, whatever the backend and whoever asks (the
command line, the bench's workers, the generator, the rating, the uniqueness proof): the run
within its limits, the checker on every answer."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from flowsat.backend import NO_LIMITS, Backend, Limits, Observer, chosen, described, refuse_kind
from flowsat.checker import InvalidSolution, check
from flowsat.deadline import Timeout, deadline
from flowsat.puzzle.model import Paths, Puzzle
from flowsat.puzzle.rules import DEFAULT_RULES, Rules
from flowsat.result import BackendError, Result


def run(puzzle: Puzzle, backend: Backend, options: Any, rules: Rules = DEFAULT_RULES,
        limits: Limits = NO_LIMITS, observe: Observer | None = None, kept: Any = None
        ) -> Result:
    """The backend's result for the puzzle. A solution that fails the checker raises (a bug),
    unless it comes from outside flowsat (`backend.outside`): then it is `wrong`. `kept`:
    what the caller's run keeps from one puzzle to the next (`flowsat.backend.keeper`)."""
    start = time.perf_counter()
    refuse_kind(backend, puzzle.kind)
    try:
        with deadline(limits.timeout):
            result = touch_free_first(puzzle, backend, options, rules, limits, observe, kept)
    except Timeout:
        result = Result("timeout", config=described(options))
    except BackendError as err:
        result = Result("error", error=str(err), config=described(options))
    except MemoryError:  # the last line: what the caps did not foresee stops the run, no more
        result = Result("limit", error=f"out of memory: the system refused more after "
                                       f"{time.perf_counter() - start:.1f} s (--max-memory "
                                       f"sets a cap to stop at sooner)")
    if result.status == "solved" and not getattr(backend, "counts", False):  # (a count: no
        # paths; its counters agree with each other in tests/test_count.py)
        try:
            check(puzzle, result.paths or {}, rules)
        except InvalidSolution as err:
            if not backend.outside:
                raise
            result = Result("wrong", stats=result.stats, error=str(err), config=result.config)
    if "total_s" not in result.stats:  # (a search's own: its result's)
        result.stats["total_s"] = round(time.perf_counter() - start, 6)
    return result


def touch_free_first(puzzle: Puzzle, backend: Backend, options: Any, rules: Rules,
                     limits: Limits, observe: Observer | None, kept: Any = None) -> Result:
    """The backend's answer; where paths may touch themselves, a solution in which none does
    is one too, so flowsat's own backends look for such a solution first, under the stricter
    rule (fast, where the self-touch search can take a minute), and search again under the
    rule given only when there is none (`touch_free_first` in the stats: the first search's
    status and seconds; a conflict or node budget holds for each search)."""
    more = {} if kept is None else {"kept": kept}  # (a backend that keeps nothing: none)
    if not rules.self_touch or backend.outside or getattr(backend, "counts", False):
        return backend.solve(puzzle, options, rules, limits, observe, **more)
    start = time.perf_counter()
    strict = backend.solve(puzzle, options, rules._replace(self_touch=False), limits, observe,
                           **more)
    first = {"status": strict.status, "seconds": round(time.perf_counter() - start, 6)}
    result = strict if strict.status == "solved" else backend.solve(
        puzzle, options, rules, limits, observe, **more)
    result.stats["touch_free_first"] = first
    if result is not strict and "total_s" in result.stats:  # both searches
        result.stats["total_s"] = round(time.perf_counter() - start, 6)
    return result


def solve(puzzle: Puzzle, backend: str = "sat", *, rules: Rules = DEFAULT_RULES,
          timeout: float | None = None, max_memory: float | None = None,
          observe: Observer | None = None, kept: Any = None, **options: Any) -> Result:
    """`run` for the library and the tests: the backend by name (`program:COMMAND` too), its
    options as keywords."""
    found, made = chosen(backend, **options)
    return run(puzzle, found, made, rules, Limits(timeout, max_memory), observe, kept)


def run_many(puzzle: Puzzle, limit: int, options: Any, rules: Rules = DEFAULT_RULES,
             limits: Limits = NO_LIMITS, known: Sequence[Paths] = (), kept: Any = None
             ) -> tuple[Result, list[Paths]]:
    """Up to `limit` distinct solutions by SAT, every one checked, the `known` ones blocked
    first (see `flowsat.sat.search.search`). The caller holds the deadline over the whole of
    its work (`flowsat.deadline`): a proof of uniqueness is two searches."""
    from flowsat.sat.search import search

    result, found = search(puzzle, limit, options, rules, limits, known=known, kept=kept)
    for paths in found:
        check(puzzle, paths, rules)
    return result, found


def solve_many(puzzle: Puzzle, limit: int, *, rules: Rules = DEFAULT_RULES,
               timeout: float | None = None, kept: Any = None, **options: Any
               ) -> tuple[Result, list[Paths]]:
    """`run_many` within the timeout, for the library and the tests: the SAT options as
    keywords."""
    _, made = chosen("sat", **options)
    try:
        with deadline(timeout):
            return run_many(puzzle, limit, made, rules, Limits(timeout), kept=kept)
    except Timeout:
        return Result("timeout", stats={"solutions": 0, "exhausted": False,
                                        "stopped": "timeout"}, config=described(made)), []


def blame(status: str, backend: Backend) -> str | None:
    """Whose failure a status is: a solver program's (`program`: its error or wrong answer),
    flowsat's own (`internal`: an error, a bug), or nobody's (None)."""
    if status not in ("error", "wrong"):
        return None
    return "program" if backend.outside else "internal"
