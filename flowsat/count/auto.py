"""The auto counter, `flowsat count`'s default: enumerate alone while it is quick, then
enumerate and the frontier raced.

Enumerate answers a puzzle with few solutions in milliseconds (every 2016 puzzle under the
default rules), but its cost grows with the count (a solve a solution) and with how hard SAT
finds the proof that no other solution is left; the frontier's cost depends on the board and
the rules, not on the count. Neither can be told from the board beforehand, so: enumerate
runs first, in this process, for `QUICK_S` seconds (`QUICK_TOUCH_S` under self-touch); if it
has not exhausted the solutions by then, the frontier starts in a forked child and enumerate
goes on in another (forked with its solver, what it has learnt and its count so far: the quick
phase is not thrown away), and the first exact count wins (the other child is killed). Within
the quick phase the fork costs nothing; past it, the race costs at most twice the CPU of the
winner, and on a loaded machine the winner's time grows with the load. Under self-touch or
with empty cells, where counts run to millions and the frontier wins on some boards of the
2016 set, it starts at once, beside the quick phase, not after it (a fork, some milliseconds,
where enumerate answers first); under self-touch, where it is quick on every such board, the
enumeration's child runs at a lower priority, `TOUCH_NICE`, so that the frontier comes first.
docs/counting.md gives the figures."""

from __future__ import annotations

import contextlib
import os
import select
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flowsat.count.child import answer, ended, forked
from flowsat.count.contract import Count, Limits, Progress, loosened
from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import Rules

QUICK_S = 0.2  # enumerate alone, in this process, for this long (docs/counting.md)
QUICK_TOUCH_S = 0.05  # the same under self-touch, where the frontier is quick on any board
# of the 2016 set (under 1 s of CPU): the race starts sooner
RACED = ("enumerate", "frontier")
TOUCH_NICE = 10  # under self-touch, the raced enumeration's lower priority: on a machine with
# other work the frontier, whose cost the board bounds, gets the CPU first (docs/counting.md)
GRACE_S = 1.0  # past its timeout, a child that has not answered is killed

if TYPE_CHECKING:
    from flowsat.count.enumerate import Enumeration

Answers = dict[str, Count | BaseException]
Children = dict[int, tuple[str, int]]  # read end of its pipe: its name, its pid


@dataclass(frozen=True)
class Auto:
    """Enumerate while quick, then enumerate and the frontier raced (see the module)."""

    name = "auto"
    summary = "enumerate while quick, then enumerate and the frontier raced (the default)"

    def refuses(self, puzzle: Puzzle, rules: Rules) -> str | None:
        return None

    def count(self, puzzle: Puzzle, rules: Rules, limits: Limits, limit: int | None = None,
              progress: Progress | None = None) -> Count:
        from flowsat.count.enumerate import Enumeration

        start = time.perf_counter()
        quick_s = QUICK_TOUCH_S if rules.self_touch else QUICK_S
        quick_s = quick_s if limits.timeout is None else min(quick_s, limits.timeout)
        with children_ended() as children:
            if loosened(rules) and "frontier" in RACED:
                import flowsat.sat.encoder  # noqa: F401  (numpy and the board graph the sweep
                # is planned on: the enumeration needs them too, so imported once, before the
                # fork, not again in the frontier's child: some 60 ms and 6 ms)

                start_child(children, "frontier",
                            lambda: frontier(puzzle, rules, limits, limit, progress))
            with Enumeration(puzzle, rules) as listing:
                listing.run(start + quick_s, limit)
                quick = listing.counted()
                left = (None if limits.timeout is None
                        else limits.timeout - (time.perf_counter() - start))
                if quick.status != "timeout" or (left is not None and left <= 0):
                    return answered(quick, "enumerate", start, {}, quick_s)
                raced = race(listing, Limits(left, limits.max_memory), limit, progress,
                             children)
        return answered(*settled(quick, raced), start, raced, quick_s)


def settled(quick: Count, raced: Answers) -> tuple[Count, str]:
    """A race's answer and who gave it: an exact count, else the largest lower bound (the
    quick enumeration's, where no child answered more); an error a child raised (a solution
    the checker refused: a bug) is raised."""
    counts: dict[str, Count] = {}
    for name, found in raced.items():
        if not isinstance(found, Count):
            raise found
        counts[name] = found
    best = max(counts, key=lambda n: (counts[n].exact, counts[n].value), default=None)
    if best is not None and (counts[best].exact or counts[best].value >= quick.value):
        return counts[best], best
    return quick, "enumerate"


def answered(found: Count, by: str, start: float, raced: Answers, quick_s: float) -> Count:
    """The count with the counter that answered and, where they raced, each one's status."""
    stats = {**found.stats, "answered_by": by, "quick_s": quick_s,
             "total_s": round(time.perf_counter() - start, 6)}
    if raced:
        stats["raced"] = {n: {"status": c.status, "count": c.value} for n, c in raced.items()}
    return Count(found.value, found.exact, found.status, stats)


def race(listing: Enumeration, limits: Limits, limit: int | None,
         progress: Progress | None, children: Children) -> Answers:
    """The frontier and the enumeration under way, each in a forked child (a bench worker,
    a daemon process, may not start one through `multiprocessing`; those in `children` are
    under way already); their answers in by the first exact count, or all of them (a child
    that died, of the memory cap, gives none; one that raised, its error)."""
    end = None if limits.timeout is None else time.perf_counter() + limits.timeout

    def run_on() -> Count:
        if listing.rules.self_touch:
            os.nice(TOUCH_NICE)
        listing.run(end, limit)
        return listing.counted()

    works: dict[str, Callable[[], Count]] = {
        "frontier": lambda: frontier(listing.puzzle, listing.rules, limits, limit, progress),
        "enumerate": run_on}
    running = {name for name, _ in children.values()}
    for name in RACED:
        if name not in running:
            start_child(children, name, works[name])
    return answers_in(children, limits.timeout)


def frontier(puzzle: Puzzle, rules: Rules, limits: Limits, limit: int | None,
             progress: Progress | None) -> Count:
    """The frontier counter's count (its modules imported where it runs: in a child)."""
    from flowsat.count import counter

    return counter("frontier").count(puzzle, rules, limits, limit, progress)


def start_child(children: Children, name: str, work: Callable[[], Count]) -> None:
    read, pid = forked(work)
    children[read] = (name, pid)


@contextlib.contextmanager
def children_ended() -> Iterator[Children]:
    """A record of the children started, each killed (if at work) and reaped at the end."""
    children: Children = {}
    try:
        yield children
    finally:
        for fd, (_, pid) in children.items():
            os.close(fd)
            ended(pid)


def answers_in(children: Children, timeout: float | None) -> Answers:
    """The children's answers as they come, until an exact count, an error, the last child
    or the timeout (and GRACE_S): each child read is taken out of `children`."""
    end = None if timeout is None else time.perf_counter() + timeout + GRACE_S
    got: Answers = {}
    while children and not any(not isinstance(c, Count) or c.exact for c in got.values()):
        wait = None if end is None else max(end - time.perf_counter(), 0.0)
        ready, _, _ = select.select(list(children), [], [], wait)
        if not ready:
            break
        for fd in ready:
            name, pid = children.pop(fd)
            with contextlib.suppress(EOFError):  # EOF: it died, of the memory cap
                got[name] = answer(fd)
            ended(pid)
    return got


COUNTER = Auto()
