"""The SAT encodings: `flowsat encodings` lists them, `flowsat encode` writes a puzzle's CNF."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Annotated

import typer

from flowsat.commands.common import AllowEmpty, AllowSelfTouch, MaxCells, input_error, usage_error
from flowsat.puzzle import MAX_CELLS, PuzzleError, read_puzzles
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError

# the SAT backend's work (PySAT, specs, DIMACS) is imported inside the commands that use it:
# `flowsat --help` imports this module
group = typer.Typer()


@group.command(help="List the named SAT encodings: their choice in each family and what for.")
def encodings() -> None:
    from flowsat.sat import DEFAULT_ENCODING
    from flowsat.sat.spec import builtin_spec, builtin_specs

    for name in sorted(builtin_specs()):
        try:
            spec = builtin_spec(name)
        except UsageError as err:
            usage_error(err)
        mark = " (default)" if name == DEFAULT_ENCODING else ""
        typer.echo(f"{name}{mark}: {spec.summary}\n    {spec.choices}")


@group.command(help="Write a puzzle's CNF in DIMACS, `c` comment lines saying what each variable "
             "stands for (cell and color bit, edge, ...). Exit status 0, or 2 for an input or "
             "usage error.")
def encode(
    puzzle_file: Annotated[Path, typer.Argument(metavar="PUZZLE", help="A puzzle file.")],
    encoding: Annotated[str | None, typer.Option(
        help="SAT encoding: a name, a spec file, NAME+family=choice.")] = None,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="The .cnf file (default: standard output).")] = None,
    index: Annotated[int, typer.Option(
        min=1, help="Which puzzle of a Numberlink file or level pack (from 1).")] = 1,
    allow_self_touch: AllowSelfTouch = False,
    allow_empty: AllowEmpty = False,
    max_cells: MaxCells = MAX_CELLS,
) -> None:
    from flowsat.atomic import cannot_write, replacing
    from flowsat.sat import DEFAULT_ENCODING, encode
    from flowsat.sat.dimacs import describe, left_out, write_dimacs

    items = list(read_puzzles(puzzle_file, max_cells))
    item = next((x for x in items if x.index in (index, None)), None) if items else None
    if item is None:
        usage_error(f"{puzzle_file} has no puzzle {index}")
    if isinstance(item, PuzzleError):
        input_error(item)
    try:
        rules = Rules(allow_self_touch, not allow_empty)
        formula = encode(item, encoding or DEFAULT_ENCODING, rules)
    except UsageError as err:
        usage_error(err)
    formula.state_lazy_touch()  # a formula that stands alone states what solving adds lazily
    clauses = formula.clauses + ([[formula.unique]] if formula.unique else [])
    comments = describe(formula, rules)
    try:
        with (replacing(output, text=True) if output
              else contextlib.nullcontext(sys.stdout)) as out:
            write_dimacs(out, clauses, formula.enc.top, comments)
    except OSError as err:
        usage_error(cannot_write(output or "<stdout>", err))
    if (missing := left_out(formula)) is not None:
        typer.echo(f"flowsat: note: {missing}", err=True)
