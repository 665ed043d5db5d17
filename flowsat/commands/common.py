"""What the commands share: exit statuses, one-line errors, option types and checks, the loop
over every puzzle of the files given, pictures and progress bars."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn, TypeVar

import typer

from flowsat.options import MAX_CELLS as MAX_CELLS_BOUNDS
from flowsat.options import REPEAT, RUN_TIMEOUT, WORKERS, Bounds
from flowsat.parallel import MIN_ITEMS_A_WORKER, answers, read_ahead
from flowsat.puzzle import Paths, Puzzle, PuzzleError, expand_paths, read_puzzles
from flowsat.result import UsageError

# the pictures, rich's progress bars and the cluster are imported where they are used: every
# command imports this module
if TYPE_CHECKING:
    from flowsat.render.pictures import Pictures
    from flowsat.sat.kept import Kept


EXIT_STATUS = """Exit status: 0 every puzzle solved; 1 some puzzle unsolvable; 2 an input or usage
error; 3 some puzzle hit a timeout or limit; 4 an internal error (an answer failed the checker,
a bug); 5 a solver program (--backend program:COMMAND) failed: a wrong answer, a crash, output
that is no answer. When several apply, the highest wins."""


EXIT = {"solved": 0, "unsolvable": 1, "input": 2, "timeout": 3, "limit": 3, "internal": 4,
        "program": 5}


def usage_error(err: UsageError | str) -> NoReturn:
    input_error(f"flowsat: error: {err}")


def input_error(err: Exception | str) -> NoReturn:
    """One line on stderr and exit status 2."""
    typer.echo(str(err), err=True)
    raise typer.Exit(EXIT["input"])


def bounded(bounds: Bounds) -> Callable[..., object]:
    """A typer callback that refuses values out of bounds, as a usage error."""

    def check(param: typer.CallbackParam, value: object) -> object:
        try:
            return bounds.check(param.name or "value", value)
        except UsageError as err:
            raise typer.BadParameter(str(err).split(": ", 1)[1]) from None

    check.__annotations__ = CHECK_TYPES  # objects: typer would compile and eval the strings
    return check  # of each callback at every start (3 M instructions a solve, 10 M a --help)


CHECK_TYPES = {"param": typer.CallbackParam, "value": object, "return": object}


def a_folder(value: Path | None) -> Path | None:
    """A typer callback for folders to write into: one that is a file is a usage error."""
    if value is not None and value.exists() and not value.is_dir():
        raise typer.BadParameter(f"{value} is a file, not a folder")
    return value


SvgTarget = Annotated[Path | None, typer.Option(
    help="Write SVG pictures: a .svg file (one puzzle) or a folder.")]


PngTarget = Annotated[Path | None, typer.Option(
    help="Write PNG pictures (needs flowsat[png]): a .png file (one puzzle) or a folder.")]


Repeat = Annotated[int, typer.Option(callback=bounded(REPEAT), help="Runs of each configuration.")]


RunTimeout = Annotated[float, typer.Option(callback=bounded(RUN_TIMEOUT), help="Seconds a run.")]


Workers = Annotated[int, typer.Option(callback=bounded(WORKERS), help="Worker processes at once.")]


Jobs = Annotated[int | None, typer.Option(
    callback=bounded(WORKERS), help=f"Worker processes solving puzzles at once (default: every "
    f"core; 1: this process only). Under {MIN_ITEMS_A_WORKER} puzzles a worker, fewer start.")]


Cluster = Annotated[str | None, typer.Option(
    metavar="ADDRESS|local:N", help="Run on a Dask cluster (needs flowsat[cluster]): a "
    "scheduler's address, e.g. tcp://host:8786, or local:N for N worker processes here.")]


Resume = Annotated[bool, typer.Option(
    "--resume", help="Go on with DIR's results: run only what is not there yet.")]


MaxCells = Annotated[int, typer.Option(
    callback=bounded(MAX_CELLS_BOUNDS), help="Refuse boards with more cells.")]


AllowSelfTouch = Annotated[bool, typer.Option(
    "--allow-self-touch", help="Let a path touch itself side by side.")]


AllowEmpty = Annotated[bool, typer.Option(
    "--allow-empty", help="Let cells stay empty (Nikoli-style Numberlink).")]


T = TypeVar("T")


def every_item(files: list[Path] | list[str], max_cells: int
               ) -> Iterator[Puzzle | PuzzleError]:
    """Every puzzle of the files (folders: their puzzle files), an error in place of a bad one."""
    return chain.from_iterable(read_puzzles(file, max_cells) for file in expand_paths(files))


def items_and_workers(files: list[Path] | list[str], max_cells: int, jobs: int | None
                      ) -> tuple[Iterator[Puzzle | PuzzleError], int]:
    """The items of the files, read as they go, and the worker processes for them (the
    first blocks read now: `parallel.read_ahead`)."""
    return read_ahead(every_item(files, max_cells), jobs)


def each_puzzle(files: list[Path], max_cells: int, work: Callable[[Puzzle], T],
                show: Callable[[Puzzle, T], int], jobs: int | None = 1,
                kept: Kept | None = None) -> NoReturn:
    """Do the work on every puzzle of the files and folders (on `jobs` processes, None: every
    core) and show each answer in order; exit with the highest status: 2 for input errors, 4
    for internal ones (an answer that failed the checker: a bug), else what `show` returns.
    `kept`: what the work keeps between puzzles, told each block (`flowsat.sat.kept`)."""
    worst = 0
    items, workers = items_and_workers(files, max_cells, jobs)
    with closing(answers(items, lambda item: None if isinstance(item, PuzzleError) else work(item),
                         workers, kept and kept.start)) as answered:
        for item, done in answered:
            if isinstance(item, PuzzleError):
                typer.echo(str(item), err=True)
                worst = max(worst, EXIT["input"])
                continue
            try:
                answer = done.get()
            except UsageError as err:  # e.g. a kind of board the backend does not know
                typer.echo(f"{item.file}:{item.line}:1: {item.name}: {err}", err=True)
                worst = max(worst, EXIT["input"])
                continue
            except AssertionError as err:
                if os.environ.get("FLOWSAT_DEBUG"):
                    raise
                typer.echo(f"{item.file}:{item.line}:1: internal error (a bug): {err}", err=True)
                worst = EXIT["internal"]
                continue
            except MemoryError:  # the last line, as in `solve.solve`
                typer.echo(f"{item.file}:{item.line}:1: limit: out of memory", err=True)
                worst = max(worst, EXIT["limit"])
                continue
            worst = max(worst, show(item, answer))
    raise typer.Exit(worst)


def open_pictures(svg: Path | None, png: Path | None, files: list[str],
                  max_cells: int) -> Pictures | None:
    """The pictures asked for with --svg/--png, if any (see `render.pictures`)."""
    if not (svg or png):
        return None
    from flowsat.render.pictures import pictures

    return pictures(svg, png, files, max_cells)


def save(pics: Pictures, puzzle: Puzzle, paths: Paths | None) -> None:
    """Write the puzzle's pictures; a file that cannot be written ends the run."""
    try:
        pics.save(puzzle, paths)
    except UsageError as err:
        usage_error(err)


@contextmanager
def progress_bar(total: int, label: str, shown: bool) -> Iterator[Callable[[], None]]:
    """A progress bar on stderr while the block runs; the block gets a function to advance
    it by one."""
    if not shown:
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    with Progress(SpinnerColumn(), TextColumn(label), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda: bar.advance(task)


def names(text: str | None) -> list[str] | None:
    """A comma-separated list, or None when not given."""
    return [n.strip() for n in text.split(",") if n.strip()] if text else None


def cluster_option(cluster: str | None, workers: int) -> None:
    """A --cluster value that names a cluster, and no --workers beside it."""
    if cluster is None:
        return
    from flowsat.bench.cluster import check

    check(cluster)
    if workers != 1:
        raise UsageError("--workers is for the local pool: with --cluster, the cluster's "
                         "workers run the runs")
