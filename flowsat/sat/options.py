"""The sat backend's options as data: the command line is made from these fields."""

from __future__ import annotations

from dataclasses import dataclass

from flowsat.options import MAX_MEMORY, MEMORY_HELP, option

DEFAULT_ENCODING = "edges-turns"
DEFAULT_SOLVER = "glucose4"
DEDUCE_FROM = 10_000  # cells: where `deduce` is auto, boards this large propagate first
# cells: boards this large take `degree = "turns"` and `codes = "short"` (on smaller ones the
# tables they need cost more than the clauses they save: direct degrees, whole codes; 50, not
# 150, since the tables are shared per board: results/speed.md, stop 23)
LEAN_FROM = 50


@dataclass(frozen=True)
class SatOptions:
    """What `solve(puzzle, "sat", ...)` takes besides the rule and the timeout (None: the
    default)."""

    encoding: str | None = option(
        f"SAT encoding: a name, a spec file (.toml), NAME+family=choice (default "
        f"{DEFAULT_ENCODING}).")
    solver: str | None = option(
        f"SAT solver: a PySAT name or alias, pycosat, or external:COMMAND (default "
        f"{DEFAULT_SOLVER}).")
    max_memory: float | None = option(MEMORY_HELP, bounds=MAX_MEMORY)
    deduce: str | None = option(
        "propagate first: fix the links the board forces, then solve only the rest; a "
        "contradiction proves the puzzle unsolvable: on, off, or auto (default: on for square "
        f"boards of {DEDUCE_FROM:,} cells or more without walls, bridges or warps, under the "
        "default rules).")
