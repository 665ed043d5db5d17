"""The contract every counter keeps: what it answers (`Count`), and the bounds it runs under."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from flowsat.backend import Limits
from flowsat.memory import cap_mb
from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import Rules

Status = Literal["counted", "limit", "timeout"]
Progress = Callable[[int, int, int], None]  # (steps done, steps in all, count or states so far)
STATE_BYTES = 600  # a frontier state's memory, estimated: a tuple of some 15 small ints
# (about 180 bytes), its count and dict entry (about 100), twice (this step's and the next's)

__all__ = ["Count", "Counter", "Limits", "Progress", "Status", "loosened", "state_cap"]


@dataclass
class Count:
    """A count: `value` solutions, exact or (a timeout, a limit) a lower bound, and stats."""

    value: int
    exact: bool
    status: Status
    stats: dict[str, Any] = field(default_factory=dict)
    counter: str = ""

    def capped(self, limit: int | None) -> Count:
        """The count as `--limit` says it: at least `limit`, no more said, once reached."""
        if limit is None or self.value < limit:
            return self
        return Count(limit, False, "limit", self.stats, self.counter)


class Counter:
    """One way of counting: what every counter module's `COUNTER` is (the contract, kept
    without deriving from it, as `flowsat.backend.Backend`)."""

    name: ClassVar[str]
    summary: ClassVar[str]

    def refuses(self, puzzle: Puzzle, rules: Rules) -> str | None:
        """Why this counter cannot count the puzzle under the rules (None: it can)."""

    def count(self, puzzle: Puzzle, rules: Rules, limits: Limits, limit: int | None = None,
              progress: Progress | None = None) -> Count:
        """The number of solutions; with `limit`, it may stop at that many (a lower bound)."""


def state_cap(limits: Limits) -> int:
    """The states a step may keep within the memory cap."""
    return int(cap_mb(limits.max_memory) * 1e6 / STATE_BYTES)


def loosened(rules: Rules) -> bool:
    """Whether a rule is loosened (self-touch, empty cells): there counts run to millions and
    the frontier's states depend on the end its sweep starts from, so auto starts it at once
    and it races both ends; with every cell filled and no self-touch the 2016 boards have one
    solution each and the sweep keeps few states from either end (docs/counting.md)."""
    return rules.self_touch or not rules.fill_all
