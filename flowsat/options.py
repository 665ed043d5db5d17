"""The bounds of every number an option takes, checked in one place.

`--timeout`, `--delay` and the `--max-*` limits of every command (and the same arguments of
the library's functions) go through `Bounds.check`: `nan`, `inf`, negative and absurd values
are a UsageError naming the option and its range, so that no value crashes a run or silently
turns a limit off.

Each backend owns its options as a dataclass (`flowsat.sat.options`, `flowsat.search.options`,
`flowsat.program`) whose fields, made by `option`, carry their help text, switch flag, bounds
and choices as metadata: `flowsat solve`'s options are made from them.
"""

from __future__ import annotations

import math
from dataclasses import field, fields
from typing import Any, NamedTuple

from flowsat.result import UsageError

WEEK_S = 7 * 24 * 3600
TEXT_TIMEOUT_S = 60.0  # `flowsat solve`'s timeout a puzzle for text output (JSON: none)


class Bounds(NamedTuple):
    """The values an option may take: a finite number from `low` to `high`."""

    low: float
    high: float
    unit: str

    def check(self, name: str, value: Any) -> Any:
        """The value if it is within bounds (or None: not given); a UsageError otherwise."""
        if value is None:
            return None
        if (isinstance(value, bool) or not isinstance(value, int | float)
                or not math.isfinite(value) or not self.low <= value <= self.high):
            raise UsageError(f"--{name.replace('_', '-')}: {value!r} is not a number of "
                             f"{self.unit} from {number(self.low)} to {number(self.high)}")
        return value

    def text(self) -> str:
        """The range, for help texts."""
        return f"{number(self.low)} to {number(self.high)} {self.unit}"


def number(x: float) -> str:
    """A bound as people write it: 604,800; 0.001."""
    return f"{int(x):,}" if x == int(x) else f"{x:g}"


TIMEOUT = Bounds(0, WEEK_S, "seconds")
RUN_TIMEOUT = Bounds(0.001, WEEK_S, "seconds")
DELAY = Bounds(0, 60, "seconds")
MAX_CELLS = Bounds(1, 10_000_000, "cells")
MAX_NODES = Bounds(1, 10**12, "states")
MAX_CONFLICTS = Bounds(1, 10**12, "conflicts")
MAX_MEMORY = Bounds(0.001, 2**20, "MB")
BOTTLENECK = Bounds(0, 1000, "cells")
WORKERS = Bounds(1, 1024, "processes")
REPEAT = Bounds(1, 100_000, "runs")
COUNT = Bounds(1, 10_000_000, "puzzles")
SOLUTIONS = Bounds(1, 10**18, "solutions")

MEMORY_HELP = ("Stop (exit 3) when the stored states (astar) or the SAT formula (sat, estimated "
               "before it is built) would pass this many MB (default: half the memory "
               "available at the start).")  # a limit of every backend, one help text


def option(help: str, *, flag: str | None = None, bounds: Bounds | None = None,
           choices: tuple[str, ...] | None = None, default: Any = None) -> Any:
    """A field of a backend's options, on the command line: its help text, its flag when it
    is a switch (`--no-links` turns off what is on by default, `--breadth-first` turns on),
    the bounds of its numbers, the words it may be; its default when not given."""
    return field(default=default, metadata={"help": help, "flag": flag, "bounds": bounds,
                                            "choices": choices})


def check_options(options: type, values: dict[str, Any]) -> None:
    """A UsageError for the first value given out of its field's bounds."""
    for f in fields(options):
        if f.metadata.get("bounds") and f.name in values:
            f.metadata["bounds"].check(f.name, values[f.name])

