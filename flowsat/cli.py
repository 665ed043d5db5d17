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
) -> None:
    options = {k: v for k, v in {"encoding": encoding, "solver": solver}.items() if v is not None}
    color = sys.stdout.isatty() if color is None else color
    worst = 0
    for file in expand_paths(files) if files else []:
        for item in read_puzzles(file, max_cells):
            if isinstance(item, PuzzleError):
                report_error(item, fmt, backend)
                worst = max(worst, EXIT["input"])
                continue
            result = run_one(item, backend, options, allow_self_touch, timeout)
            emit(item, result, backend, fmt, color, quiet)
            kind = "internal" if result.status == "error" else result.status
            worst = max(worst, EXIT[kind])
    raise typer.Exit(worst)


def run_one(puzzle: Puzzle, backend: str, options: dict, allow_self_touch: bool,
            timeout: float | None) -> Result:
    """The checked result, or an `error` result naming the bug; usage errors end the run."""
    try:
        return solve_puzzle(puzzle, backend, allow_self_touch=allow_self_touch,
                            timeout=timeout, **options)
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


class Symmetries(StrEnum):
    none = "none"
    all = "all"


def names(text: str | None) -> list[str] | None:
    """A comma-separated list, or None when not given."""
    return [n.strip() for n in text.split(",") if n.strip()] if text else None


def interrupt(*_: object) -> None:
    raise KeyboardInterrupt


BENCH_EXIT = """Exit status: 0 the bench ran (whatever the puzzles' answers); 2 an input or usage
error; 4 some run ended in an error (a crash or a bug); 130 interrupted: the finished runs are
kept, --resume goes on."""


@app.command(help=f"""Time backends and configurations head to head over puzzle files or
folders. Each run (puzzle, orientation, configuration, repeat) goes to a worker process and is
appended to DIR/results.jsonl as it ends; DIR/report.md, report.csv and plots/ are written at
the end.\n\n{BENCH_EXIT}""")
def bench(
    paths: Annotated[list[Path], typer.Argument(help="Puzzle files or folders.")],
    backends: Annotated[str | None, typer.Option(
        help=f"Backends, comma-separated (default: all, now {','.join(BACKENDS)}).")] = None,
    solvers: Annotated[str | None, typer.Option(
        help="SAT solvers, comma-separated (default: cadical195,glucose4).")] = None,
    encodings: Annotated[str | None, typer.Option(
        help="SAT encodings, comma-separated (default: edges-binary,zucker2016).")] = None,
    symmetries: Annotated[Symmetries, typer.Option(
        help="none, or all: every puzzle in its 8 rotations and reflections.")
                          ] = Symmetries.none,
    repeat: Annotated[int, typer.Option(min=1, help="Runs of each configuration.")] = 1,
    timeout: Annotated[float, typer.Option(min=0.001, help="Seconds a run.")] = 60.0,
    workers: Annotated[int, typer.Option(min=1, help="Worker processes at once.")] = 1,
    out: Annotated[Path, typer.Option(help="Folder of the results and the report.")
                   ] = Path("bench-out"),
    resume: Annotated[bool, typer.Option(
        "--resume", help="Go on with DIR's results: run only what is not there yet.")] = False,
    allow_self_touch: Annotated[bool, typer.Option(
        "--allow-self-touch", help="Let a path touch itself side by side.")] = False,
    baselines: Annotated[bool, typer.Option(
        "--baselines/--no-baselines", help="Add the 2016 rows: sat/zucker2016/pycosat (when "
        "pycosat is installed) and astar/2016.")] = True,
    max_cells: Annotated[int, typer.Option(min=1, help="Refuse boards with more cells.")
                         ] = MAX_CELLS,
) -> None:
    from flowsat.bench import Settings, load_puzzles, write_report
    from flowsat.bench import bench as run_bench

    given = {"backends": names(backends), "solvers": names(solvers),
             "encodings": names(encodings)}
    settings = Settings([str(p) for p in paths], symmetries=symmetries.value, repeat=repeat,
                        timeout=timeout, workers=workers, out=str(out), baselines=baselines,
                        allow_self_touch=allow_self_touch,
                        **{k: v for k, v in given.items() if v})
    puzzles, errors = load_puzzles(paths, max_cells)
    for err in errors:
        typer.echo(str(err), err=True)
    terminate = signal.signal(signal.SIGTERM, interrupt)  # a kill ends the bench as Ctrl-C
    try:
        if not puzzles:
            raise UsageError("no puzzle to run")
        statuses = run_bench(settings, puzzles, resume=resume, argv=sys.argv)
        written = write_report(out)
    except UsageError as err:
        typer.echo(f"flowsat: error: {err}", err=True)
        raise typer.Exit(EXIT["input"]) from None
    except KeyboardInterrupt:
        typer.echo(f"flowsat: interrupted; the finished runs are in {out / 'results.jsonl'}: "
                   f"--resume goes on", err=True)
        raise typer.Exit(130) from None
    finally:
        signal.signal(signal.SIGTERM, terminate)
    for path in written:
        typer.echo(f"wrote {path}")
    raise typer.Exit(EXIT["internal"] if statuses["error"] else EXIT["input"] if errors else 0)


@app.command(help="Write a bench folder's report.md, report.csv and plots/ from its results.")
def report(
    folder: Annotated[Path, typer.Argument(help="A folder written by flowsat bench.")],
    baseline: Annotated[str | None, typer.Option(
        help="The configuration ratios are against (default: the first 2016 one).")] = None,
    reference: Annotated[Path | None, typer.Option(
        help="The 2016 table (default: ../shared/reference/zucker2016.csv).")] = None,
) -> None:
    from flowsat.bench import write_report

    try:
        written = write_report(folder, baseline, reference)
    except UsageError as err:
        typer.echo(f"flowsat: error: {err}", err=True)
        raise typer.Exit(EXIT["input"]) from None
    for path in written:
        typer.echo(f"wrote {path}")


def main() -> None:
    if hasattr(signal, "SIGPIPE"):  # `flowsat ... | head` ends quietly, like other Unix tools
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("flowsat: interrupted", err=True)
        sys.exit(130)
