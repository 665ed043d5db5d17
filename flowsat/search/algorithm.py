"""The search algorithm, apart from the problem: a priority queue (or a FIFO), limits, stats.

Any problem with `initial()`, `expand(state)`, `is_goal(state)` and `priority_of(state)` will
do. A goal is accepted as soon as it is generated: the puzzle asks for a solution, not the
cheapest one.
"""

from __future__ import annotations

import heapq
import sys
import time
from collections import deque
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any

from flowsat.memory import resident_mb, shown

CHECK_EVERY = 256  # expansions between looks at the clock and the memory held
CHECK_BYTES = 16 << 20  # and fewer when 256 states would take more than this
MB = 1 << 20


@dataclass
class Outcome:
    """How a search ended: solved, unsolvable (the queue ran empty), limit or timeout."""

    status: str
    state: Any = None
    stats: dict[str, Any] = field(default_factory=dict)
    reason: str | None = None


def best_first(problem: Any, **limits: Any) -> Outcome:
    """Expand the state of lowest priority (or the oldest, breadth first) until a goal; stop
    with `limit` past `max_nodes` expansions or once `held_mb` (what the problem holds) and
    the states stored (estimated, or the process's growth if larger) pass `max_memory` MB.
    (`searching`, run to its end.)"""
    search = searching(problem, **limits)
    while True:
        try:
            next(search)
        except StopIteration as end:
            return end.value


def searching(problem: Any, *, breadth_first: bool = False, max_nodes: int | None = None,
              max_memory: float | None = None, held_mb: float = 0.0,
              deadline: float | None = None,
              on_expand: Callable[[Any], None] | None = None, alike: int = 1
              ) -> Generator[dict[str, Any], None, Outcome]:
    """`best_first` a state at a time: yields its stats as it takes each state to expand,
    returns the outcome (so that several searches may take turns: `interleaved`; `alike`:
    how many such searches take turns, each holding about as many states, all within
    `max_memory`)."""
    stats = {"nodes": 0, "generated": 0, "max_queue": 0}
    root = problem.initial()
    if root is None:
        return Outcome("unsolvable", None, stats)
    if problem.is_goal(root):
        return Outcome("solved", root, stats)
    node_bytes = state_bytes(root) * alike
    every = max(1, min(CHECK_EVERY, CHECK_BYTES // node_bytes))
    held_before = resident_mb()
    tie = 0  # FIFO among equal priorities
    queue: Any = deque([root]) if breadth_first else [(problem.priority_of(root), 0, root)]
    while queue:
        if stats["nodes"] % every == 0:
            stats["max_queue"] = max(stats["max_queue"], len(queue))
            stop = limit_reached(stats, len(queue), node_bytes, max_memory, deadline,
                                 held_before, held_mb)
            if stop:
                if stop == "timeout":
                    return Outcome("timeout", None, stats)
                return Outcome("limit", None, stats, stop)
        state = queue.popleft() if breadth_first else heapq.heappop(queue)[2]
        stats["nodes"] += 1
        if on_expand is not None:
            on_expand(state)
        yield stats
        for child in problem.expand(state):
            stats["generated"] += 1
            if problem.is_goal(child):
                stats["max_queue"] = max(stats["max_queue"], len(queue))
                return Outcome("solved", child, stats)
            if breadth_first:
                queue.append(child)
            else:
                tie += 1
                heapq.heappush(queue, (problem.priority_of(child), tie, child))
        if max_nodes is not None and stats["nodes"] >= max_nodes and queue:
            return Outcome("limit", None, stats, f"max nodes ({max_nodes})")
    return Outcome("unsolvable", None, stats)


def interleaved(searches: list[Generator[dict[str, Any], None, Outcome]]
                ) -> tuple[Outcome, int, list[dict[str, Any]]]:
    """Several searches of one puzzle taking turns a state each, until one ends (each is
    complete: its answer, unsolvable too, is the puzzle's): its outcome, its index and every
    search's stats."""
    stats: list[dict[str, Any]] = [{} for _ in searches]
    while True:
        for k, search in enumerate(searches):
            try:
                stats[k] = next(search)
            except StopIteration as end:
                stats[k] = end.value.stats
                return end.value, k, stats


def limit_reached(stats: dict, queued: int, node_bytes: int, max_memory: float | None,
                  deadline: float | None, held_before: float | None,
                  held_mb: float = 0.0) -> str | None:
    """Why the search must stop now, if it must."""
    if deadline is not None and time.perf_counter() > deadline:
        return "timeout"
    if max_memory is not None:
        stored = (stats["nodes"] + queued) * node_bytes / MB  # the queue and every ancestor
        held = resident_mb()
        if held is not None and held_before is not None:
            stored = max(stored, held - held_before)
        stats["memory_mb"] = round(held_mb + stored, 1)
        if held_mb + stored > max_memory:
            return (f"the search holds about {shown(held_mb + stored)} (stored states "
                    f"{shown(stored)}), above the memory cap of {shown(max_memory)} "
                    f"(--max-memory)")
    return None


def state_bytes(state: Any) -> int:
    """About what one more stored state costs: the object, its lists, tuples and dicts and
    the ints they hold."""
    size = sys.getsizeof(state)
    for name in state.__slots__:
        value = getattr(state, name)
        if isinstance(value, dict):
            value = list(value.values())
            size += sys.getsizeof(value) * 3  # (keys, values and the table)
        if isinstance(value, list | tuple):
            size += sys.getsizeof(value) + sum(sys.getsizeof(x) for x in value
                                               if isinstance(x, int) and x >> 8)
        elif isinstance(value, int):
            size += sys.getsizeof(value)
    return size
