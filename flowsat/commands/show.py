"""`flowsat show`: puzzles drawn in the terminal or as pictures, unsolved or with the solutions
of `flowsat solve --format json`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from flowsat.commands.common import (
    EXIT,
    MaxCells,
    PngTarget,
    SvgTarget,
    input_error,
    open_pictures,
    save,
    usage_error,
)
from flowsat.puzzle import MAX_CELLS, PuzzleError, expand_paths, read_puzzles
from flowsat.puzzle.rules import Rules
from flowsat.render.text import draw
from flowsat.result import UsageError

# the reader of results is imported inside `show`: `flowsat --help` imports this module
group = typer.Typer()


@group.command(help="Draw puzzles in the terminal, or as pictures with --svg/--png: the unsolved "
             "boards, or their solutions from the output of `flowsat solve --format json`.\n\n"
             "Exit status: 0 every puzzle drawn; 2 an input or usage error (a puzzle or a result "
             "that cannot be read, a puzzle without a result, a solution that fails the checker).")
def show(
    files: Annotated[list[Path], typer.Argument(help="Puzzle files or folders.")],
    solution: Annotated[Path | None, typer.Option(
        help="Results (JSON lines of flowsat solve --format json) to take the solutions from.")
                        ] = None,
    svg: SvgTarget = None,
    png: PngTarget = None,
    color: Annotated[bool | None, typer.Option(
        "--color/--no-color", help="ANSI colors (default: when stdout is a terminal).")] = None,
    allow_self_touch: Annotated[bool, typer.Option(
        "--allow-self-touch", help="Check solutions with paths that touch themselves allowed.")
                                ] = False,
    max_cells: MaxCells = MAX_CELLS,
) -> None:
    from flowsat.records import RecordError, by_puzzle, read_records, solution_of

    files = expand_paths(files)
    try:
        pics = open_pictures(svg, png, files, max_cells)
    except UsageError as err:
        usage_error(err)
    color = sys.stdout.isatty() if color is None else color
    try:
        records, errors = read_records(solution) if solution else ([], [])
    except RecordError as err:
        input_error(err)
    for error in errors:
        typer.echo(str(error), err=True)
    found, worst = by_puzzle(records), EXIT["input"] if errors else 0
    for file in files:
        for item in read_puzzles(file, max_cells):
            if isinstance(item, PuzzleError):
                typer.echo(str(item), err=True)
                worst = EXIT["input"]
                continue
            try:
                status, paths = (solution_of(found, item, str(solution),
                                             Rules(self_touch=allow_self_touch))
                                 if solution else ("puzzle", None))
            except RecordError as err:
                typer.echo(str(err), err=True)
                worst = EXIT["input"]
                continue
            if pics:
                save(pics, item, paths)
            else:
                typer.echo(f"{item.name}: {status}\n{draw(item, paths, color)}\n", color=color)
    raise typer.Exit(worst)
