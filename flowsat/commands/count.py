"""`flowsat count`: how many solutions each puzzle has."""

from __future__ import annotations

import json
import sys
import time
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from flowsat.commands.common import (
    EXIT,
    AllowEmpty,
    AllowSelfTouch,
    MaxCells,
    bounded,
    each_puzzle,
)
from flowsat.options import MAX_MEMORY, SOLUTIONS, TIMEOUT, WORKERS
from flowsat.puzzle import MAX_CELLS, Puzzle
from flowsat.puzzle.rules import Rules

group = typer.Typer()
COUNTERS = ("auto", "frontier", "sharp-sat", "enumerate")  # `flowsat.count.REGISTRY`, not imported
PROGRESS_EVERY_S = 0.5


class Format(StrEnum):
    text = "text"
    json = "json"


Counter = StrEnum("Counter", {name: name for name in COUNTERS})


@group.command("count", help="""Count each puzzle's solutions exactly (integers of any size)
under the rules given, by a counter: auto (the default: enumerate while quick, then
enumerate and frontier raced), frontier (dynamic programming over the board), sharp-sat
(Ganak on flowsat's CNF, needs flowsat[count]) or enumerate (SAT with blocking clauses). A
counter that cannot take a board hands it to the next, saying so. --limit N stops at N (2:
is it unique?); a count stopped by --limit or --timeout is a lower bound ('at least', JSON
'exact': false). Exit status: 0 every puzzle counted; 2 an input or usage
error; 3 some count stopped at --limit, --timeout or the memory cap; 4 an internal error (a
solution failed the checker).""")
def count_command(
    files: Annotated[list[Path], typer.Argument(help="Puzzle files or folders.")],
    counter: Annotated[Counter, typer.Option(help="How to count.")] = Counter.auto,
    allow_self_touch: AllowSelfTouch = False,
    allow_empty: AllowEmpty = False,
    limit: Annotated[int | None, typer.Option(
        callback=bounded(SOLUTIONS), help="Stop counting at this many (2: uniqueness).")] = None,
    timeout: Annotated[float | None, typer.Option(
        callback=bounded(TIMEOUT), help="Seconds per puzzle before giving up.")] = None,
    max_memory: Annotated[float | None, typer.Option(
        callback=bounded(MAX_MEMORY), help="MB a count may take (default: half the "
                                           "memory available).")] = None,
    show: Annotated[int, typer.Option(
        min=0, help="Print this many solutions of each puzzle, each checked.")] = 0,
    fmt: Annotated[Format, typer.Option("--format", help="text, or one JSON object a line.")
                   ] = Format.text,
    max_cells: MaxCells = MAX_CELLS,
    jobs: Annotated[int, typer.Option(
        callback=bounded(WORKERS), help="Worker processes counting puzzles at once (a "
        "progress line with 1 only).")] = 1,
) -> None:
    from flowsat.count.answer import Answer, answer
    from flowsat.count.contract import Limits
    from flowsat.render.text import draw

    rules = Rules(allow_self_touch, not allow_empty)
    limits = Limits(timeout, max_memory)
    progress = progress_line if jobs == 1 and sys.stderr.isatty() else None

    def show_one(item: Puzzle, found: Answer) -> int:
        if progress:
            typer.echo("\r\033[K", err=True, nl=False)
        instead = found.found.stats.get("instead_of")
        if instead:
            typer.echo(f"flowsat: note: {item.name}: {instead['counter']} cannot count it "
                       f"({instead['why']}): counted by {found.found.counter}", err=True)
        if fmt is Format.json:
            typer.echo(json.dumps(found.record(item), separators=(",", ":")))
        else:
            typer.echo(found.line(item))
            for paths in found.solutions:
                typer.echo(draw(item, paths) + "\n")
        return 0 if found.found.exact else EXIT["limit"]

    each_puzzle(files, max_cells, lambda p: answer(p, rules, counter.value, limit, limits,
                                                   show, progress), show_one, jobs)


LAST = [0.0]  # when the progress line was last written (the run's one line on stderr)


def progress_line(done: int, steps: int, size: int) -> None:
    """A line on stderr, written over, at most every PROGRESS_EVERY_S: how far a count is."""
    now = time.perf_counter()
    if now - LAST[0] < PROGRESS_EVERY_S:
        return
    LAST[0] = now
    where = f"step {done:,} of {steps:,}, {size:,} states" if steps else f"{size:,} so far"
    typer.echo(f"\r\033[Kcounting: {where}", err=True, nl=False)
