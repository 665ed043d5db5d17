"""The best-first backend's options as data: the command line is made from these fields."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from flowsat.options import BOTTLENECK, MAX_MEMORY, MAX_NODES, MEMORY_HELP, option

DEFAULT_PRESET = "full"


@dataclass(frozen=True)
class SearchOptions:
    """What `solve(puzzle, "astar", ...)` takes besides the rule and the timeout (None: the
    preset's choice, or no limit). A switch that is on in the `full` preset is turned off
    by its `--no-...` flag."""

    preset: str | None = option(
        "switch set, 'full' (default) or '2016' (the 2016 program's checks only).")
    breadth_first: bool | None = option(
        "breadth-first instead of best-first.", flag="--breadth-first")
    queue_always: bool | None = option(
        "forced moves go through the queue too.", flag="--queue-always")
    deadends: bool | None = option("no dead-end check.", flag="--no-deadends")
    stranded: bool | None = option("no stranded color/region check.", flag="--no-stranded")
    parity: bool | None = option("no checkerboard parity check of regions.",
                                 flag="--no-parity")
    links: bool | None = option("no propagation of the links each cell must make.",
                                flag="--no-links")
    tails: bool | None = option("sure links extend heads only, not goal ends.",
                                flag="--no-tails")
    squares: bool | None = option("links may make U-turns in 2x2 squares.",
                                  flag="--no-squares")
    corners: bool | None = option("corners need not see a dot inside.", flag="--no-corners")
    bottleneck: int | None = option("bottleneck width checked (0 = off, default 3).",
                                    bounds=BOTTLENECK)
    outside_in: bool | None = option(
        "start each flow at its first dot, not the outer one.", flag="--no-outside-in")
    autosort: bool | None = option("try colors on ties in reading order.",
                                   flag="--no-autosort")
    order: str | None = option("move the colors in this order (letters).")
    random_order: int | None = option("shuffle the color order with this seed.")
    hint: Path | None = option(  # noqa: RUF009 (option() is a dataclass field, default None)
        "a partial solution (grid format) whose filled cells are fixed.")
    max_nodes: int | None = option("stop after this many expanded states (exit 3).",
                                   bounds=MAX_NODES)
    max_memory: float | None = option(MEMORY_HELP, bounds=MAX_MEMORY)
