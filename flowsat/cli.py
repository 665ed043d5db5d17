"""The `flowsat` command line: wires puzzle files, backends, the checker and the output."""

from __future__ import annotations

import json
import os
import signal
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from flowsat import __version__
from flowsat.puzzle import MAX_CELLS, Puzzle, PuzzleError, expand_paths, read_puzzles
from flowsat.render.text import draw, summary
from flowsat.result import Result, UsageError, error_record, to_record
from flowsat.solve import BACKENDS
from flowsat.solve import solve as solve_puzzle

EXIT_STATUS = """Exit status: 0 every puzzle solved; 1 some puzzle unsolvable; 2 an input or usage
error; 3 some puzzle hit a timeout or limit; 4 an internal error (an answer failed the checker,
a bug). When several apply, the highest wins."""

EXIT = {"solved": 0, "unsolvable": 1, "input": 2, "timeout": 3, "limit": 3, "internal": 4}

app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  help=f"Solve Flow Free / Numberlink puzzles by SAT or best-first search.\n\n"
                       f"{EXIT_STATUS}")


class Format(StrEnum):
    text = "text"
    json = "json"


def show_version(value: bool) -> None:
    if value:
        typer.echo(f"flowsat {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(version: Annotated[bool, typer.Option(
        "--version", callback=show_version, is_eager=True, help="Print the version.")] = False
                 ) -> None:
    """Solve Flow Free / Numberlink puzzles by SAT or best-first search."""


@app.command(help=f"Solve puzzle files (folders: every *.txt below them).\n\n{EXIT_STATUS}")
def solve(
    files: Annotated[list[Path], typer.Argument(help="Puzzle files or folders.")],
    backend: Annotated[str, typer.Option(help=f"Backend: {', '.join(BACKENDS)}.")] = "sat",
    encoding: Annotated[str | None, typer.Option(
        help="SAT encoding: a name or a spec file (.toml).")] = None,
    solver: Annotated[str | None, typer.Option(help="SAT solver: any PySAT solver name.")] = None,
    timeout: Annotated[float | None, typer.Option(
        min=0, help="Seconds per puzzle before giving up.")] = None,
    allow_self_touch: Annotated[bool, typer.Option(
        "--allow-self-touch", help="Let a path touch itself side by side.")] = False,
    fmt: Annotated[Format, typer.Option("--format", help="text, or one JSON object a line.")
                   ] = Format.text,
    color: Annotated[bool | None, typer.Option(
        "--color/--no-color", help="ANSI colors (default: when stdout is a terminal).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the status line a puzzle.")
                     ] = False,
    max_cells: Annotated[int, typer.Option(min=1, help="Refuse boards with more cells.")
                         ] = MAX_CELLS,
    preset: Annotated[str | None, typer.Option(
        help="astar: switch set, 'full' (default) or '2016' (the 2016 program's checks only).")
                      ] = None,
    breadth_first: Annotated[bool, typer.Option(
        "--breadth-first", help="astar: breadth-first instead of best-first.")] = False,
    queue_always: Annotated[bool, typer.Option(
        "--queue-always", help="astar: forced moves go through the queue too.")] = False,
    no_deadends: Annotated[bool, typer.Option(
        "--no-deadends", help="astar: no dead-end check.")] = False,
    no_stranded: Annotated[bool, typer.Option(
        "--no-stranded", help="astar: no stranded color/region check.")] = False,
    no_parity: Annotated[bool, typer.Option(
        "--no-parity", help="astar: no checkerboard parity check of regions.")] = False,
    bottleneck: Annotated[int | None, typer.Option(
        min=0, help="astar: bottleneck width checked (0 = off, default 3).")] = None,
    no_outside_in: Annotated[bool, typer.Option(
        "--no-outside-in", help="astar: start each flow at its first dot, not the outer one.")
                             ] = False,
    no_autosort: Annotated[bool, typer.Option(
        "--no-autosort", help="astar: try colors on ties in reading order.")] = False,
    order: Annotated[str | None, typer.Option(
        help="astar: move the colors in this order (letters).")] = None,
    random_order: Annotated[int | None, typer.Option(
        help="astar: shuffle the color order with this seed.")] = None,
    hint: Annotated[Path | None, typer.Option(
        help="astar: a partial solution (grid format) whose filled cells are fixed.")] = None,
    max_nodes: Annotated[int | None, typer.Option(
        min=1, help="astar: stop after this many expanded states (exit 3).")] = None,
    max_memory: Annotated[float | None, typer.Option(
        min=1, help="astar: stop when the stored states would pass this many MB (exit 3).")
                          ] = None,
) -> None:
    search = {"preset": preset, "breadth_first": breadth_first or None,
              "queue_always": queue_always or None, "deadends": off(no_deadends),
              "stranded": off(no_stranded), "parity": off(no_parity), "bottleneck": bottleneck,
              "outside_in": off(no_outside_in), "autosort": off(no_autosort), "order": order,
              "random_order": random_order, "hint": hint, "max_nodes": max_nodes,
              "max_memory": max_memory}  # only what was given goes to the backend
    given = {"encoding": encoding, "solver": solver, **search}
    options = {k: v for k, v in given.items() if v is not None}
    color = sys.stdout.isatty() if color is None else color
    worst = 0
    for file in expand_paths(files) if files else []:
        for item in read_puzzles(file, max_cells):
            if isinstance(item, PuzzleError):
                report_error(item, fmt, backend)
                worst = max(worst, EXIT["input"])
                continue
            result = run_one(item, backend, options, allow_self_touch, timeout)
            if isinstance(result, PuzzleError):  # a --hint file that does not fit the puzzle
                report_error(result, fmt, backend)
                worst = max(worst, EXIT["input"])
                continue
            emit(item, result, backend, fmt, color, quiet)
            kind = "internal" if result.status == "error" else result.status
            worst = max(worst, EXIT[kind])
    raise typer.Exit(worst)


def off(flag: bool) -> bool | None:
    """False for a --no-X switch that was given, None (not given) otherwise."""
    return False if flag else None


def run_one(puzzle: Puzzle, backend: str, options: dict, allow_self_touch: bool,
            timeout: float | None) -> Result | PuzzleError:
    """The checked result, or an `error` result naming the bug; usage errors end the run."""
    try:
        return solve_puzzle(puzzle, backend, allow_self_touch=allow_self_touch,
                            timeout=timeout, **options)
    except PuzzleError as err:
        return err
    except UsageError as err:
        typer.echo(f"flowsat: error: {err}", err=True)
        raise typer.Exit(EXIT["input"]) from None
    except AssertionError as err:  # a solution that failed the checker, a broken model
        if os.environ.get("FLOWSAT_DEBUG"):
            raise
        message = f"internal error (a bug): {err}"
        typer.echo(f"{puzzle.file}:{puzzle.line}:1: {message}", err=True)
        return Result("error", error=message, config=options)


def emit(puzzle: Puzzle, result: Result, backend: str, fmt: Format, color: bool,
         quiet: bool) -> None:
    if fmt is Format.json:
        typer.echo(json.dumps(to_record(puzzle, result, backend), separators=(",", ":")))
    else:
        typer.echo(summary(puzzle, result, backend))
        if result.status == "solved" and not quiet:
            typer.echo(draw(puzzle, result.paths, color) + "\n", color=color)
    sys.stdout.flush()


def report_error(err: PuzzleError, fmt: Format, backend: str) -> None:
    typer.echo(str(err), err=True)
    if fmt is Format.json:
        typer.echo(json.dumps(error_record(err.file, err.index, str(err), backend),
                              separators=(",", ":")))


def main() -> None:
    if hasattr(signal, "SIGPIPE"):  # `flowsat ... | head` ends quietly, like other Unix tools
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("flowsat: interrupted", err=True)
        sys.exit(130)
