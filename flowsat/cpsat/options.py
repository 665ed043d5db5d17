"""The cpsat backend's options as data (the command line is made from these fields)."""

from __future__ import annotations

from dataclasses import dataclass

from flowsat.options import MAX_CONFLICTS, Bounds, option

# CP-SAT's search workers (threads); one by default, so that a race against the other
# backends is one core against one core
SEARCH_WORKERS = Bounds(1, 256, "threads")
SEED = Bounds(0, 2**31 - 1, "seed values")
LINEARIZATION = Bounds(0, 2, "levels")
INSTALL = "pip install 'flowsat[cpsat]'"


@dataclass(frozen=True)
class CpsatOptions:
    """What the cpsat backend takes besides the rule and the limits
    (`flowsat.backend.Limits`)."""

    workers: int = option(
        "CP-SAT's search workers (threads; default 1: one core, as every other backend "
        "uses).", bounds=SEARCH_WORKERS, default=1)
    seed: int = option("CP-SAT's random seed (default 0).", bounds=SEED, default=0)
    presolve: bool = option(
        "turn off CP-SAT's presolve (on by default, as CP-SAT has it).", flag="--no-presolve",
        default=True)
    linearization: int | None = option(
        "CP-SAT's linearization level: 0 (no LP relaxation), 1 (CP-SAT's default; the "
        "circuit's LP with cuts), 2 (more).", bounds=LINEARIZATION)
    max_conflicts: int | None = option(
        "Stop (status limit) after this many solver conflicts over the whole search: "
        "a budget that ends the same way on every machine.", bounds=MAX_CONFLICTS)
