"""Puzzle files: `flowsat check` checks the solutions they carry, `flowsat convert` rewrites them
in another format."""

from __future__ import annotations

import os
import sys
from contextlib import nullcontext
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from flowsat.atomic import cannot_write, replacing
from flowsat.checker import problems
from flowsat.commands.common import EXIT, AllowEmpty, AllowSelfTouch, Jobs, MaxCells, each_puzzle
from flowsat.puzzle import MAX_CELLS, Puzzle, expand_paths
from flowsat.puzzle.formats import FORMATS, WRITABLE, CannotWrite, format_named, puzzle_text
from flowsat.puzzle.rules import Rules
from flowsat.result import Result, UsageError
from flowsat.solve import solve as solve_puzzle

group = typer.Typer()


@group.command("check", help="""Check the solutions that come with puzzles (the paths of each
level of a level pack) with the checker: one line a puzzle, `right`, or `wrong: ` and the first
reason. Exit status: 0 every solution right; 1 some solution wrong; 2 an input or usage error
(a puzzle without a solution).""")
def check_given(
    files: Annotated[list[Path], typer.Argument(help="Level packs (or folders of them).")],
    allow_self_touch: AllowSelfTouch = False,
    allow_empty: AllowEmpty = False,
    max_cells: MaxCells = MAX_CELLS,
) -> None:
    rules = Rules(allow_self_touch, not allow_empty)

    def verdict(item: Puzzle) -> list[str] | None:
        return None if item.given is None else problems(item, item.given_paths or {}, rules)

    def show(item: Puzzle, wrong: list[str] | None) -> int:
        if wrong is None:
            typer.echo(f"{item.file}:{item.line}:1: no solution comes with {item.name}",
                       err=True)
            return EXIT["input"]
        level = "" if item.level is None else f" (level {item.level})"
        typer.echo(f"{item.name}{level}: " + (f"wrong: {wrong[0]}" if wrong else "right"))
        return 1 if wrong else 0

    each_puzzle(files, max_cells, verdict, show)


ConvertFormat = StrEnum("ConvertFormat", {name: name for name in WRITABLE})


@group.command(help="Write puzzles in another format: " + "; ".join(
    f"`{f.name}` ({f.summary})" for f in FORMATS if f.write) + """. A format that holds a
solution (pack) writes the one that comes with the puzzle, else one found by SAT and checked.
Exit status: 0 every puzzle written; 1 some puzzle unsolvable (nothing written for it); 2 an
input or usage error (a puzzle the format cannot hold); 3 a timeout.""")
def convert(
    files: Annotated[list[Path], typer.Argument(help="Puzzle files or folders.")],
    to: Annotated[ConvertFormat, typer.Option(help="The format to write.")],
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="The file to write (default: standard output).")] = None,
    allow_self_touch: AllowSelfTouch = False,
    timeout: Annotated[float | None, typer.Option(
        min=0, help="Seconds to solve a puzzle without a solution (pack).")] = None,
    max_cells: MaxCells = MAX_CELLS,
    jobs: Jobs = None,
) -> None:
    from flowsat.sat.kept import Kept

    rules, kept = Rules(self_touch=allow_self_touch), Kept()

    def written(item: Puzzle) -> str | Result:
        paths = item.given_paths
        if format_named(to.value).needs_solution and paths is None:
            result = solve_puzzle(item, rules=rules, timeout=timeout, kept=kept)
            if result.status != "solved":
                return result
            paths = result.paths
        try:
            return puzzle_text(item, to.value, paths)
        except CannotWrite as err:
            raise UsageError(str(err)) from None

    def show(item: Puzzle, text: str | Result) -> int:
        if isinstance(text, Result):
            typer.echo(f"{item.file}:{item.line}:1: {item.name} is {text.status}: no level",
                       err=True)
            return EXIT.get(text.status, 1)
        try:
            out.write(text)
            out.flush()
        except OSError as err:
            raise cannot_write(output or "<stdout>", err) from None
        return 0

    with replacing(output, text=True) if output else nullcontext(sys.stdout) as out:
        try:
            each_puzzle(files, max_cells, written, show, jobs, kept)
        except typer.Exit as end:  # some puzzles not written: the others still are
            status = end.exit_code
        if status and output and is_read(output, files):  # those would be lost with it
            typer.echo(f"flowsat: {output} left as it was: some of its puzzles were not "
                       f"written", err=True)
            raise typer.Exit(status)
    raise typer.Exit(status)


def is_read(output: Path, files: list[Path]) -> bool:
    """Whether the output is one of the files read."""
    return any(os.path.realpath(f) == os.path.realpath(output) for f in expand_paths(files))
