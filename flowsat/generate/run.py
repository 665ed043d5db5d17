"""A generating run: what to make (`Order`), made seed by seed, in worker processes, on a Dask
cluster, or here.

Puzzle k of a run with seed S is made from seed S + k alone, so a run can be split, resumed
or spread over processes and still give the same files; each is rated where it is made.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from functools import partial

from flowsat.difficulty import MAX_NODES, Rating, rate
from flowsat.generate import board_size
from flowsat.generate.kinds import PLAIN, Kind
from flowsat.generate.make import (
    CANDIDATES,
    LETTERS,
    MAX_CONFLICTS,
    Made,
    Stopped,
    default_colors,
    make_puzzle,
)
from flowsat.puzzle.rules import DEFAULT_RULES, Rules
from flowsat.result import UsageError

MAX_CELLS = 2_500  # 50x50: made in seconds; a 60x60 board takes minutes of proofs


@dataclass(frozen=True)
class Order:
    """What every puzzle of a run is: its board and kind, its color range, the rule, the
    budgets."""

    width: int
    height: int
    colors: tuple[int, int]
    kind: Kind = PLAIN
    rules: Rules = DEFAULT_RULES
    max_conflicts: int = MAX_CONFLICTS
    max_nodes: int = MAX_NODES
    timeout: float | None = None


@dataclass
class Outcome:
    """A seed's puzzle with its rating (when asked for), or why there is none: a `limit`
    (out of candidates or time) or an `internal` error (an answer that failed the checker)."""

    seed: int
    made: Made | None = None
    rating: Rating | None = None
    failure: str | None = None
    kind: str = "limit"


def order(size: str, colors: int | None = None, min_colors: int | None = None,
          max_colors: int | None = None, **options) -> Order:
    """The order for a size `WxH` and a color count or range; UsageError when they cannot
    be made."""
    width, height = board_size(size)
    if width * height > MAX_CELLS:
        raise UsageError(f"--size {size}: {width * height} cells, above the generator's limit "
                         f"of {MAX_CELLS} (50x50)")
    if colors is not None and (min_colors is not None or max_colors is not None):
        raise UsageError("--colors goes without --min-colors and --max-colors")
    low, high = default_colors(height, width)
    low, high = (colors, colors) if colors is not None else (
        min_colors if min_colors is not None else min(low, max_colors or low),
        max_colors if max_colors is not None else max(high, min_colors or high))
    kind = options.get("kind", PLAIN)
    if kind.problem(width, height):
        raise UsageError(kind.problem(width, height))
    most = min(len(LETTERS), width * height // 2)
    if not 1 <= low <= high <= most:
        raise UsageError(f"colors {low}..{high}: a {width}x{height} board takes 1 to {most}"
                         if low <= high else f"colors {low}..{high}: an empty range")
    return Order(width, height, (low, high), **options)


def make_one(order: Order, seed: int, rated: bool = True) -> Outcome:
    """The seed's puzzle, rated if asked, or the reason it failed; its `seconds` the wall
    time of both (the rating's search can take longer than the making)."""
    start = time.perf_counter()
    deadline = None if order.timeout is None else start + order.timeout
    try:
        made = make_puzzle(order.height, order.width, seed, order.colors,
                           order.rules, order.max_conflicts, deadline=deadline,
                           kind=order.kind)
        rating = rate(made.puzzle, order.rules, order.max_nodes) \
            if made and rated else None
    except Stopped:
        return Outcome(seed, failure=f"no puzzle within --timeout {order.timeout:g} s (a "
                                     f"safety stop: a faster machine may make one)")
    except AssertionError as err:  # a solution that failed the checker
        return Outcome(seed, failure=f"internal error (a bug): {err}", kind="internal")
    if made is None:
        return Outcome(seed, failure=f"no unique puzzle in {CANDIDATES} candidates")
    return Outcome(seed, replace(made, seconds=round(time.perf_counter() - start, 3)), rating)


def make_all(order: Order, seeds: Iterable[int], workers: int = 1, rated: bool = True,
             cluster: str | None = None) -> Iterator[Outcome]:
    """Each seed's outcome, in the order of the seeds, as soon as it and those before it
    are done; on a Dask cluster (see `flowsat.bench.cluster`) when one is given."""
    work = partial(make_one, order, rated=rated)
    if cluster:
        from flowsat.bench.cluster import in_order

        for seed, got in in_order(cluster, work, seeds):
            yield got if isinstance(got, Outcome) else Outcome(
                seed, failure=f"on the cluster: {type(got).__name__}: {got}", kind="internal")
        return
    if workers == 1:
        yield from map(work, seeds)
        return
    with ProcessPoolExecutor(workers) as pool:
        yield from pool.map(work, seeds)
