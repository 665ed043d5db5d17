"""The `flowsat` command line: wires puzzle files, backends, the checker and the output."""

from __future__ import annotations

import contextlib
import gc
import importlib
import inspect
import json
import os
import signal
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import Field, fields
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn, TypeVar, get_type_hints

import typer
from typer.core import TyperGroup

from flowsat import __version__
from flowsat.backend import REGISTRY, Backend, Limits, chosen, loaded
from flowsat.memory import for_good, limit_address_space
from flowsat.options import (
    COUNT,
    DELAY,
    MAX_CONFLICTS,
    MAX_MEMORY,
    MAX_NODES,
    MEMORY_HELP,
    REPEAT,
    RUN_TIMEOUT,
    TEXT_TIMEOUT_S,
    TIMEOUT,
    WORKERS,
    Bounds,
)
from flowsat.options import MAX_CELLS as MAX_CELLS_BOUNDS
from flowsat.puzzle import (
    MAX_CELLS,
    Paths,
    Puzzle,
    PuzzleError,
    expand_paths,
    read_puzzles,
)
from flowsat.puzzle.rules import Rules
from flowsat.render.text import draw, rule_note, summary
from flowsat.result import Result, UsageError, error_record, record_json, to_record
from flowsat.sat import can_stop
from flowsat.solve import blame, run
from flowsat.solve import solve as solve_puzzle

if TYPE_CHECKING:
    from flowsat.render.animate import Replay
    from flowsat.render.pictures import Pictures

EXIT_STATUS = """Exit status: 0 every puzzle solved; 1 some puzzle unsolvable; 2 an input or usage
error; 3 some puzzle hit a timeout or limit; 4 an internal error (an answer failed the checker,
a bug); 5 a solver program (--backend program:COMMAND) failed: a wrong answer, a crash, output
that is no answer. When several apply, the highest wins."""

EXIT = {"solved": 0, "unsolvable": 1, "input": 2, "timeout": 3, "limit": 3, "internal": 4,
        "program": 5}

try:  # the exceptions by which click ends a command on purpose (usage errors, exits):
    from typer import TyperException as ClickException  # typer 0.28 carries its own click
except ImportError:
    from click import ClickException


class Guarded(TyperGroup):
    """Commands whose exceptions end in one line, never a traceback: a bad option value, a
    usage error or an input error that escaped its command exit 2, Ctrl-C 130, anything
    unforeseen 4 (an internal error); FLOWSAT_DEBUG=1 keeps the traceback for developers."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except ClickException as err:  # a bad option or argument: one line, not four
            if err.exit_code != EXIT["input"] or type(err).__name__ == "NoArgsIsHelpError":
                raise
            usage_error(err.format_message())
        except (typer.Exit, typer.Abort):
            raise
        except KeyboardInterrupt:  # Ctrl-C, or SIGTERM where a command turns it into one
            typer.echo("flowsat: interrupted", err=True)
            raise typer.Exit(130) from None
        except UsageError as err:
            usage_error(err)
        except PuzzleError as err:
            input_error(err)
        except Exception as err:
            if os.environ.get("FLOWSAT_DEBUG"):
                raise
            typer.echo(f"flowsat: internal error (a bug): {type(err).__name__}: "
                       f"{' '.join(str(err).split())[:300]}", err=True)
            raise typer.Exit(EXIT["internal"]) from None


app = typer.Typer(cls=Guarded, add_completion=False, no_args_is_help=True,
                  rich_markup_mode=None, pretty_exceptions_enable=False,
                  help=f"Solve Flow Free / Numberlink puzzles by SAT or best-first search.\n\n"
                       f"{EXIT_STATUS}")


def bounded(bounds: Bounds) -> Callable[..., object]:
    """A typer callback that refuses values out of bounds, as a usage error."""

    def check(param: typer.CallbackParam, value: object) -> object:
        try:
            return bounds.check(param.name or "value", value)
        except UsageError as err:
            raise typer.BadParameter(str(err).split(": ", 1)[1]) from None

    return check


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


class Format(StrEnum):
    text = "text"
    json = "json"


class SolveFormat(StrEnum):
    text = "text"
    json = "json"
    rows = "rows"


class PuzzleFormat(StrEnum):
    grid = "grid"
    numberlink = "numberlink"


ProgramFormat = Annotated[PuzzleFormat | None, typer.Option(
    help="program: the puzzle as the solver program reads it: numberlink ('W H' and the rows; "
         "the default) or grid (the rows).")]


BACKEND_OPTIONS = {name: importlib.import_module(module).BACKEND.Options  # light: the backends'
                   for name, module in REGISTRY.items()}  # packages import their options only


def with_backend_options(command: Callable[..., None]) -> inspect.Signature:
    """The command's signature with an option for every field of every backend's options
    in place of its `**given` (a name two backends share is one option)."""
    signature = inspect.signature(command, eval_str=True)
    owners = Counter(f.name for options in BACKEND_OPTIONS.values() for f in flags(options))
    made: dict[str, inspect.Parameter] = {}
    for backend, options in BACKEND_OPTIONS.items():
        kinds = get_type_hints(options)
        for f in flags(options):
            parameter = option_parameter(backend if owners[f.name] == 1 else None, f,
                                         kinds[f.name])
            made.setdefault(parameter.name, parameter)
    own = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
    signature = signature.replace(parameters=own + list(made.values()))
    # typer reads the annotations too: as objects, not strings it must compile and eval again
    command.__annotations__ = {p.name: p.annotation for p in signature.parameters.values()}
    return signature


def flags(options: type) -> list[Field]:
    """The fields of a backend's options that are command-line options (those with a help
    text: not a program's command, which `--backend program:COMMAND` gives)."""
    return [f for f in fields(options) if f.metadata.get("help")]


def option_parameter(backend: str | None, f: Field, kind: object) -> inspect.Parameter:
    """The command-line option of one field: a flag for a switch, else a value, checked
    against the field's bounds; its help names the backend it is for (None: several)."""
    text = f"{backend}: {f.metadata['help']}" if backend else f.metadata["help"]
    flag, bounds = f.metadata["flag"], f.metadata["bounds"]
    if flag:
        return inspect.Parameter(switch_name(flag), inspect.Parameter.KEYWORD_ONLY, default=False,
                                 annotation=Annotated[bool, typer.Option(flag, help=text)])
    checked = {"callback": bounded(bounds)} if bounds else {}
    if f.metadata["choices"]:  # listed as click lists an enum's: [grid|numberlink]
        kind = StrEnum(f.name, {c: c for c in sorted(f.metadata["choices"])}) | None
    return inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=None,
                             annotation=Annotated[kind, typer.Option(help=text, **checked)])


def switch_name(flag: str) -> str:
    return flag.removeprefix("--").replace("-", "_")


def backend_options(given: dict[str, object]) -> dict[str, object]:
    """The backends' options given on the command line, by field: a `--no-X` switch given is
    False, another switch True; what was not given is left out (the backend's default)."""
    chosen = {}
    for options in BACKEND_OPTIONS.values():
        for f in flags(options):
            flag = f.metadata["flag"]
            value = ((not flag.startswith("--no-")) if given.get(switch_name(flag)) else None
                     ) if flag else given.get(f.name)
            if value is not None:
                chosen[f.name] = value.value if isinstance(value, StrEnum) else value
    return chosen


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
    backend: Annotated[str, typer.Option(
        help="Backend: sat, astar, or program:COMMAND (any solver program).")] = "sat",
    timeout: Annotated[float | None, typer.Option(
        callback=bounded(TIMEOUT), help=f"Seconds per puzzle before giving up (default: "
        f"{TEXT_TIMEOUT_S:g} with text output, none with JSON).")] = None,
    allow_self_touch: AllowSelfTouch = False,
    allow_empty: AllowEmpty = False,
    fmt: Annotated[SolveFormat, typer.Option(
        "--format", help="text, one JSON object a line, or rows: each solved board as 'W H' "
        "and rows of labels (else UNSOLVABLE, or UNKNOWN and why), as solver programs answer.")
                   ] = SolveFormat.text,
    color: Annotated[bool | None, typer.Option(
        "--color/--no-color", help="ANSI colors (default: when stdout is a terminal).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the status line a puzzle.")
                     ] = False,
    max_cells: MaxCells = MAX_CELLS,
    svg: SvgTarget = None,
    png: PngTarget = None,
    animate: Annotated[bool, typer.Option(
        "--animate", help="Replay the solve in the terminal: the search states on the way to "
        "the solution, the SAT models with cycles.")] = False,
    show_cycles: Annotated[bool, typer.Option(
        "--show-cycles", help="With --animate: draw the cycles of each SAT model.")] = False,
    fast: Annotated[bool, typer.Option("--fast", help="With --animate: four times faster.")
                    ] = False,
    delay: Annotated[float | None, typer.Option(
        callback=bounded(DELAY),
        help="With --animate: seconds a search state stays on screen (default 0.1).")
                     ] = None,
    max_memory: Annotated[float | None, typer.Option(
        callback=bounded(MAX_MEMORY), help=MEMORY_HELP)] = None,
    **given: object,
) -> None:
    given = backend_options(given)  # only what was given goes to the backend
    rules = Rules(allow_self_touch, fill_all=not allow_empty)
    if timeout is None and fmt is SolveFormat.text and can_stop(given.get("solver")):
        timeout = TEXT_TIMEOUT_S
    files = expand_paths(files) if files else []
    try:
        found, options = chosen(backend, **given)
        limits = Limits(timeout, max_memory)
        check_animation(animate, show_cycles or fast or delay is not None, fmt, found)
        pics = open_pictures(svg, png, files, max_cells)
    except UsageError as err:
        usage_error(err)
    replaying = animate and (sys.stdout.isatty() or color is True)
    color = sys.stdout.isatty() if color is None else color
    if replaying:
        from flowsat.render.animate import Replay
    for_good(lambda: loaded(found))  # the backend's work imported now, kept out of the collector
    worst = 0
    for file in files:
        for item in read_puzzles(file, max_cells):
            if isinstance(item, PuzzleError):
                report_error(item, fmt, backend, rules)
                worst = max(worst, EXIT["input"])
                continue
            replay = Replay(item, delay=delay, fast=fast, color=color,
                            show_cycles=show_cycles) if replaying else None
            result = run_one(item, found, options, given, rules, limits, replay)
            if isinstance(result, PuzzleError):  # a --hint file that does not fit the puzzle
                report_error(result, fmt, backend, rules)
                worst = max(worst, EXIT["input"])
                continue
            solution = result.paths if result.status == "solved" else None
            if replay:
                replay.play(solution)
            emit(item, result, backend, fmt, color, quiet, rules)
            if pics:
                save(pics, item, solution)
            worst = max(worst, EXIT[blame(result.status, found) or result.status])
    raise typer.Exit(worst)


solve.__signature__ = with_backend_options(solve)


@app.command(help="Draw puzzles in the terminal, or as pictures with --svg/--png: the unsolved "
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


GENERATE_EXIT = """Exit status: 0 every puzzle made; 2 a usage error; 3 some seed gave no puzzle
(its candidates ran out, or --timeout stopped it); 4 an internal error (an answer failed the
checker, a bug)."""


class GeneratedFormat(StrEnum):
    grid = "grid"
    numberlink = "numberlink"
    pack = "pack"
    board = "board"


def density_option(name: str) -> object:
    from flowsat.generate.kinds import DENSITY, DENSITY_HELP

    return typer.Option(help=f"With --kind {name}: the {DENSITY_HELP[name]} (default "
                             f"{DENSITY[name]:g}).")


@app.command(help=f"""Make puzzles with exactly one solution, proved by SAT: random fillings of
the board by paths that obey the rule, their ends as dots, reshaped until unique. Puzzle k is
made from seed S + k alone: the same seed makes the same files on any machine. With --out,
each puzzle is written to DIR as it is done, with a row in DIR/manifest.csv (size, colors,
seed, kind, difficulty, generation time); otherwise the puzzles go to standard output.
\n\n{GENERATE_EXIT}""")
def generate(
    size: Annotated[str, typer.Option(help="The board, WxH (columns x rows): 15x15, 30x20.")],
    kind: Annotated[list[str] | None, typer.Option(
        help="The kind of board: square (the default), holes, walls, bridges, hex, warps; "
             "combine them comma-separated or by repeating: --kind hex,holes,warps.")] = None,
    holes: Annotated[float | None, density_option("holes")] = None,
    walls: Annotated[float | None, density_option("walls")] = None,
    bridges: Annotated[float | None, density_option("bridges")] = None,
    colors: Annotated[int | None, typer.Option(min=1, help="Colors, exactly.")] = None,
    min_colors: Annotated[int | None, typer.Option(
        min=1, help="Fewest colors (default: 0.8 x the square root of the cells).")] = None,
    max_colors: Annotated[int | None, typer.Option(
        min=1, help="Most colors (default: 1.2 x the square root of the cells).")] = None,
    count: Annotated[int, typer.Option(callback=bounded(COUNT), help="Puzzles to make.")] = 1,
    seed: Annotated[int | None, typer.Option(
        min=0, help="The first seed (default: a random one, printed on stderr).")] = None,
    out: Annotated[Path | None, typer.Option(
        callback=a_folder, help="Folder for the puzzle files.")] = None,
    manifest: Annotated[Path | None, typer.Option(
        help="The manifest to add to (default: DIR/manifest.csv); it names files relative "
             "to its own folder.")] = None,
    fmt: Annotated[GeneratedFormat | None, typer.Option(
        "--format", help="grid, numberlink (a 'W H' line first; both plain square boards "
                         "only), pack (a level line with its solution) or board (default: grid "
                         "on plain square boards, else pack).")] = None,
    allow_self_touch: Annotated[bool, typer.Option(
        "--allow-self-touch", help="Puzzles under the rule that lets paths touch themselves.")
                                ] = False,
    timeout: Annotated[float | None, typer.Option(
        callback=bounded(TIMEOUT),
        help="Seconds a puzzle may take: a safety stop, reported (exit 3); what is "
             "accepted never depends on the clock.")] = None,
    max_conflicts: Annotated[int | None, typer.Option(
        callback=bounded(MAX_CONFLICTS),
        help="SAT conflicts a proof of uniqueness may take before its candidate is "
             "dropped (default 100000).")] = None,
    max_nodes: Annotated[int | None, typer.Option(
        callback=bounded(MAX_NODES),
        help="Best-first states the rating may expand (default 50000).")] = None,
    workers: Annotated[int, typer.Option(callback=bounded(WORKERS), help="Worker processes.")] = 1,
    cluster: Cluster = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Skip the seeds whose file the manifest already lists.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No line a puzzle.")] = False,
) -> None:
    from flowsat.generate.corpus import PLAIN_ONLY, Manifest, file_name, generated_text, save
    from flowsat.generate.kinds import kind_of
    from flowsat.generate.run import make_all, order

    budgets = {"max_conflicts": max_conflicts, "max_nodes": max_nodes}
    try:
        board = kind_of(kind or ["square"], {"holes": holes, "walls": walls, "bridges": bridges})
        wanted = order(size, colors, min_colors, max_colors, rules=Rules(allow_self_touch),
                       timeout=timeout, kind=board,
                       **{k: v for k, v in budgets.items() if v is not None})
        fmt = fmt or (GeneratedFormat.grid if board.plain else GeneratedFormat.pack)
        if fmt.value in PLAIN_ONLY and not board.plain:
            raise UsageError(f"--format {fmt.value} holds plain square boards only, not "
                             f"{board.name}: use pack or board")
        if (manifest or resume) and not out:
            raise UsageError("--manifest and --resume go with --out")
        cluster_option(cluster, workers)
    except UsageError as err:
        usage_error(err)
    if seed is None:
        seed = int.from_bytes(os.urandom(3))
        typer.echo(f"flowsat: seed {seed}", err=True)
    book = Manifest(manifest or out / "manifest.csv") if out else None
    seeds = [s for s in range(seed, seed + count) if not (
        resume and out / file_name(wanted.width, wanted.height, s, board.name) in book)]
    worst = 0
    try:
        with progress_bar(len(seeds), "generating", sys.stderr.isatty() and not quiet) as advance:
            for outcome in make_all(wanted, seeds, workers, rated=book is not None,
                                    cluster=cluster):
                advance()
                made, rating = outcome.made, outcome.rating
                if made is None:
                    typer.echo(f"flowsat: seed {outcome.seed}: {outcome.failure}", err=True)
                    worst = max(worst, EXIT[outcome.kind])
                elif book is None:
                    typer.echo(generated_text(made, fmt.value))
                else:
                    path = save(made, rating, wanted, out, book, fmt.value)
                    if not quiet:
                        typer.echo(f"{path}: {made.puzzle.size} {made.puzzle.kind}, "
                                   f"{len(made.solution)} colors, {rating.tier} "
                                   f"({rating.score}), made in {made.seconds} s")
    except UsageError as err:  # the cluster cannot be reached
        usage_error(err)
    raise typer.Exit(worst)


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


@app.command(help="""Rate puzzles: the share of cells that forced moves fill, the best-first
states and the SAT conflicts and decisions a solve takes, a score from 0 (trivial) to 10 and
its tier: easy, regular, hard, extreme. Exit status: 0 every puzzle rated; 1 some puzzle
unsolvable; 2 an input or usage error; 4 an internal error (an answer failed the checker).""")
def rate(
    files: Annotated[list[Path], typer.Argument(help="Puzzle files or folders.")],
    fmt: Annotated[Format, typer.Option("--format", help="text, or one JSON object a line.")
                   ] = Format.text,
    allow_self_touch: AllowSelfTouch = False,
    max_nodes: Annotated[int | None, typer.Option(
        callback=bounded(MAX_NODES),
        help="Best-first states expanded at most (default 50000).")] = None,
    max_cells: MaxCells = MAX_CELLS,
) -> None:
    from flowsat.difficulty import MAX_NODES, Rating
    from flowsat.difficulty import rate as rate_puzzle

    def show(item: Puzzle, rating: Rating) -> int:
        if fmt is Format.json:
            typer.echo(json.dumps(rating.record(item), separators=(",", ":")))
        elif rating.status == "solved":
            typer.echo(f"{item.name}: {rating.tier} ({rating.score}): {item.size}, "
                       f"{len(item.dots)} colors, forced {rating.forced:.0%}, "
                       f"{rating.nodes}{'+' if rating.nodes_capped else ''} nodes, "
                       f"{rating.conflicts} conflicts, {rating.decisions} decisions")
        else:
            typer.echo(f"{item.name}: {rating.status}")
        return 0 if rating.status == "solved" else EXIT.get(rating.status, 0)

    each_puzzle(files, max_cells, lambda p: rate_puzzle(p, Rules(self_touch=allow_self_touch),
                                                        max_nodes or MAX_NODES), show)


@app.command("check-unique", help="""Tell, per puzzle, whether it has exactly one solution
(unique), several (multiple: two of them are shown, or listed in the JSON 'solutions') or none
(unsolvable), by SAT: a solution is found, blocked, and any other looked for. JSON 'unique' is
true or false (null when unsolvable or cut short). Exit status: 0 every puzzle unique; 1 some
puzzle multiple or unsolvable; 2 an input or usage error; 3 some puzzle hit --timeout or
--max-conflicts; 4 an internal error (an answer failed the checker).""")
def check_unique(
    files: Annotated[list[Path], typer.Argument(help="Puzzle files or folders.")],
    fmt: Annotated[Format, typer.Option("--format", help="text, or one JSON object a line.")
                   ] = Format.text,
    allow_self_touch: AllowSelfTouch = False,
    timeout: Annotated[float | None, typer.Option(
        callback=bounded(TIMEOUT), help="Seconds per puzzle before giving up.")] = None,
    max_conflicts: Annotated[int | None, typer.Option(
        callback=bounded(MAX_CONFLICTS), help="SAT conflicts per search before giving up.")] = None,
    color: Annotated[bool | None, typer.Option(
        "--color/--no-color", help="ANSI colors (default: when stdout is a terminal).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the verdict line a puzzle.")
                     ] = False,
    max_cells: MaxCells = MAX_CELLS,
) -> None:
    from flowsat.unique import Uniqueness
    from flowsat.unique import check_unique as verdict_of

    color = sys.stdout.isatty() if color is None else color
    budget = {} if max_conflicts is None else {"max_conflicts": max_conflicts}

    def show(item: Puzzle, found: Uniqueness) -> int:
        if fmt is Format.json:
            typer.echo(json.dumps(found.record(item), separators=(",", ":")))
        else:
            typer.echo(f"{item.name}: {found.verdict}"
                       f"{rule_note(found.verdict, Rules(allow_self_touch))}")
            if found.verdict == "multiple" and not quiet:
                for paths in found.solutions:
                    typer.echo(draw(item, paths, color) + "\n", color=color)
        return 0 if found.verdict == "unique" else EXIT.get(found.verdict, 1)

    each_puzzle(files, max_cells, lambda p: verdict_of(p, rules=Rules(allow_self_touch),
                                                       timeout=timeout, **budget), show)


T = TypeVar("T")


def each_puzzle(files: list[Path], max_cells: int, work: Callable[[Puzzle], T],
                show: Callable[[Puzzle, T], int]) -> NoReturn:
    """Do the work on every puzzle of the files and folders and show each answer; exit with
    the highest status: 2 for input errors, 4 for internal ones (an answer that failed the
    checker: a bug), else what `show` returns."""
    worst = 0
    for file in expand_paths(files):
        for item in read_puzzles(file, max_cells):
            if isinstance(item, PuzzleError):
                typer.echo(str(item), err=True)
                worst = max(worst, EXIT["input"])
                continue
            try:
                answer = work(item)
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


def run_one(puzzle: Puzzle, backend: Backend, options: object, given: dict, rules: Rules,
            limits: Limits, observe: Replay | None = None) -> Result | PuzzleError:
    """The checked result, or an `error` result naming the bug (and the options given); usage
    errors end the run."""
    try:
        return run(puzzle, backend, options, rules, limits, observe)
    except PuzzleError as err:
        return err
    except UsageError as err:
        usage_error(err)
    except AssertionError as err:  # a solution that failed the checker, a broken model
        if os.environ.get("FLOWSAT_DEBUG"):
            raise
        message = f"internal error (a bug): {err}"
        typer.echo(f"{puzzle.file}:{puzzle.line}:1: {message}", err=True)
        return Result("error", error=message, config=given)


def emit(puzzle: Puzzle, result: Result, backend: str, fmt: SolveFormat, color: bool,
         quiet: bool, rules: Rules) -> None:
    if fmt is SolveFormat.json:
        typer.echo(record_json(to_record(puzzle, result, backend, rules)))
    elif fmt is SolveFormat.rows:
        from flowsat.program.answer import answer_rows

        typer.echo(answer_rows(puzzle, result))
    else:
        typer.echo(summary(puzzle, result, backend, rules))
        if result.status == "solved" and not quiet:
            typer.echo(draw(puzzle, result.paths, color) + "\n", color=color)
    sys.stdout.flush()


def check_animation(animate: bool, animate_options: bool, fmt: SolveFormat,
                    backend: Backend) -> None:
    """A UsageError for options that do not go together with --animate or without it."""
    if animate_options and not animate:
        raise UsageError("--show-cycles, --fast and --delay go with --animate")
    if animate and fmt is not SolveFormat.text:
        raise UsageError(f"--animate draws text: it does not go with --format {fmt.value}")
    if animate and not backend.observes:
        raise UsageError(f"--animate does not apply to the {backend.name} backend")


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


def usage_error(err: UsageError | str) -> NoReturn:
    input_error(f"flowsat: error: {err}")


def input_error(err: Exception | str) -> NoReturn:
    """One line on stderr and exit status 2."""
    typer.echo(str(err), err=True)
    raise typer.Exit(EXIT["input"])


def report_error(err: PuzzleError, fmt: SolveFormat, backend: str, rules: Rules) -> None:
    typer.echo(str(err), err=True)
    if fmt is SolveFormat.json:
        typer.echo(json.dumps(error_record(err.file, err.index, str(err), backend, rules),
                              separators=(",", ":")))


class Symmetries(StrEnum):
    none = "none"
    all = "all"


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


def interrupt(*_: object) -> None:
    raise KeyboardInterrupt


BENCH_EXIT = """Exit status: 0 the bench ran (whatever the puzzles' answers); 2 an input or usage
error; 4 some run ended in an error (a crash or a bug); 5 a solver program (program:...) failed
on some run: a wrong answer, a crash, output that is no answer; 130 interrupted: the finished
runs are kept, --resume goes on. When several apply, the highest wins."""


DeduceChoices = Annotated[str | None, typer.Option(
    "--deduce", help="The sat backend's propagation first to race, comma-separated: on, off, "
    "auto (default: the backend's own, auto); each choice a configuration NAME/deduce=CHOICE.")]


@app.command(help=f"""Time backends and configurations head to head over puzzle files or
folders. Each run (puzzle, orientation, configuration, repeat) goes to a worker process and is
appended to DIR/results.jsonl as it ends; DIR/report.md, report.csv and plots/ are written at
the end.\n\n{BENCH_EXIT}""")
def bench(
    paths: Annotated[list[Path], typer.Argument(help="Puzzle files or folders.")],
    backends: Annotated[str | None, typer.Option(
        help=f"Backends, comma-separated: {', '.join(REGISTRY)} (default: all but program), "
             "program:NAME=COMMAND for a solver program (a row program/NAME).")] = None,
    solvers: Annotated[str | None, typer.Option(
        help="SAT solvers, comma-separated (default: glucose4,cadical195).")] = None,
    encodings: Annotated[str | None, typer.Option(
        help="SAT encodings, comma-separated (default: edges-turns,zucker2016).")] = None,
    symmetries: Annotated[Symmetries, typer.Option(
        help="none, or all: every puzzle in its 8 rotations and reflections.")
                          ] = Symmetries.none,
    repeat: Repeat = 1,
    timeout: RunTimeout = 60.0,
    workers: Workers = 1,
    cluster: Cluster = None,
    out: Annotated[Path, typer.Option(
        callback=a_folder, help="Folder of the results and the report.")
                   ] = Path("bench-out"),
    resume: Resume = False,
    allow_self_touch: AllowSelfTouch = False,
    baselines: Annotated[bool, typer.Option(
        "--baselines/--no-baselines", help="Add the 2016 rows: sat/zucker2016/pycosat (when "
        "pycosat is installed) and astar/2016.")] = True,
    max_cells: MaxCells = MAX_CELLS,
    program_format: ProgramFormat = None,
    deduce: DeduceChoices = None,
) -> None:
    from flowsat.bench import Settings, write_report

    given = {"backends": names(backends), "solvers": names(solvers),
             "encodings": names(encodings), "deduce": names(deduce),
             "program_format": program_format and program_format.value}
    settings = Settings([str(p) for p in paths], symmetries=symmetries.value, repeat=repeat,
                        timeout=timeout, workers=workers, out=str(out), baselines=baselines,
                        allow_self_touch=allow_self_touch, cluster=cluster,
                        **{k: v for k, v in given.items() if v})
    sweep(settings, paths, max_cells, resume, write_report)


def sweep(settings, paths: list[Path], max_cells: int, resume: bool,
          reports: Callable[[Path], list[Path]]) -> NoReturn:
    """Run a bench, write its reports, and exit with the bench's status."""
    from flowsat.bench import bench, load_puzzles

    puzzles, errors = load_puzzles(paths, max_cells)
    for err in errors:
        typer.echo(str(err), err=True)
    out = Path(settings.out)
    terminate = signal.signal(signal.SIGTERM, interrupt)  # a kill ends the bench as Ctrl-C
    try:
        cluster_option(settings.cluster, settings.workers)
        if not puzzles:
            raise UsageError("no puzzle to run")
        statuses = bench(settings, puzzles, resume=resume, argv=sys.argv,
                         progress=sys.stderr.isatty())
        written = reports(out)
    except UsageError as err:
        usage_error(err)
    except KeyboardInterrupt:
        typer.echo(f"flowsat: interrupted; the finished runs are in {out / 'results.jsonl'}: "
                   f"--resume goes on", err=True)
        raise typer.Exit(130) from None
    finally:
        signal.signal(signal.SIGTERM, terminate)
    for path in written:
        typer.echo(f"wrote {path}")
    raise typer.Exit(max(EXIT["program"] * bool(statuses["program"]),
                         EXIT["internal"] * bool(statuses["error"]), EXIT["input"] * bool(errors)))


@app.command(help=f"""Time SAT encodings against each other: every encoding (default: every
named one) with every solver over puzzle sets (default: the shared 2016 set and Numberlink
boards), as a bench of the sat backend; beside the bench's report, DIR/encodings.md and .csv
give each configuration's size, total, median and worst time and timeouts per puzzle set, and
what each single choice of family or solver is worth.\n\n{BENCH_EXIT}""")
def experiment(
    paths: Annotated[list[Path] | None, typer.Argument(
        help="Puzzle files or folders, one set each (default: ../shared/puzzles/zucker and "
             "../shared/puzzles/numberlink).")] = None,
    encodings: Annotated[str | None, typer.Option(
        help="Encodings, comma-separated: names, spec files, NAME+family=choice.")] = None,
    solvers: Annotated[str | None, typer.Option(
        help="SAT solvers, comma-separated (default: cadical195,glucose4,minisat22).")] = None,
    repeat: Repeat = 3,
    timeout: RunTimeout = 60.0,
    workers: Workers = 1,
    cluster: Cluster = None,
    out: Annotated[Path, typer.Option(
        callback=a_folder, help="Folder of the results and the reports.")
                   ] = Path("results/encodings"),
    resume: Resume = False,
    max_cells: MaxCells = MAX_CELLS,
    deduce: DeduceChoices = None,
) -> None:
    from flowsat.bench import write_report
    from flowsat.bench.experiment import settings as experiment_settings
    from flowsat.bench.experiment import write_encodings_report

    if not paths:
        shared = Path("../shared/puzzles")
        paths = [p for p in (shared / "zucker", shared / "numberlink") if p.is_dir()]
        if not paths:
            usage_error("give puzzle files or folders (../shared/puzzles is not here)")
    try:
        settings = experiment_settings([str(p) for p in paths], names(encodings),
                                       names(solvers), repeat=repeat, timeout=timeout,
                                       workers=workers, out=str(out), cluster=cluster,
                                       deduce=names(deduce))
    except UsageError as err:
        usage_error(err)
    sweep(settings, paths, max_cells, resume,
          lambda folder: write_report(folder) + write_encodings_report(folder))


@app.command(help="List the named SAT encodings: their choice in each family and what for.")
def encodings() -> None:
    from flowsat.sat import DEFAULT_ENCODING
    from flowsat.sat.spec import builtin_spec, builtin_specs

    for name in sorted(builtin_specs()):
        try:
            spec = builtin_spec(name)
        except UsageError as err:
            usage_error(err)
        mark = " (default)" if name == DEFAULT_ENCODING else ""
        typer.echo(f"{name}{mark}: {spec.summary}\n    cells={spec.cells} links={spec.links} "
                   f"card={spec.card} cycles={spec.cycles} deduce={str(spec.deduce).lower()} "
                   f"unique={str(spec.unique).lower()}")


@app.command(help="Write a puzzle's CNF in DIMACS, `c` comment lines saying what each variable "
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
        with (output.open("w", encoding="utf-8") if output
              else contextlib.nullcontext(sys.stdout)) as out:
            write_dimacs(out, clauses, formula.enc.top, comments)
    except OSError as err:
        usage_error(f"cannot write {output}: {err.strerror}")
    if (missing := left_out(formula)) is not None:
        typer.echo(f"flowsat: note: {missing}", err=True)


@app.command("check", help="""Check the solutions that come with puzzles (the paths of each
level of a level pack) with the checker: one line a puzzle, `right`, or `wrong: ` and the first
reason. Exit status: 0 every solution right; 1 some solution wrong; 2 an input or usage error
(a puzzle without a solution).""")
def check_given(
    files: Annotated[list[Path], typer.Argument(help="Level packs (or folders of them).")],
    allow_self_touch: AllowSelfTouch = False,
    allow_empty: AllowEmpty = False,
    max_cells: MaxCells = MAX_CELLS,
) -> None:
    from flowsat.checker import problems

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


class ConvertFormat(StrEnum):
    pack = "pack"
    board = "board"


@app.command(help="""Write puzzles in another format: `board` (the hand-written board format)
or `pack` (the game's level packs, one level a line; a level needs a solution: the one that
comes with the puzzle, else one found by SAT and checked). Exit status: 0 every puzzle written;
1 some puzzle unsolvable (no level written for it); 2 an input or usage error; 3 a timeout.""")
def convert(
    files: Annotated[list[Path], typer.Argument(help="Puzzle files or folders.")],
    to: Annotated[ConvertFormat, typer.Option(help="The format to write.")],
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="The file to write (default: standard output).")] = None,
    allow_self_touch: AllowSelfTouch = False,
    timeout: Annotated[float | None, typer.Option(
        min=0, help="Seconds to solve a puzzle without a solution (pack).")] = None,
    max_cells: MaxCells = MAX_CELLS,
) -> None:
    from flowsat.puzzle.boardtext import board_text
    from flowsat.puzzle.packs import level_line

    out = output.open("w", encoding="utf-8") if output else sys.stdout
    rules = Rules(self_touch=allow_self_touch)

    def written(item: Puzzle) -> str | Result:
        if to is ConvertFormat.board:
            return board_text(item)
        if item.given is not None:
            return level_line(item, item.given_paths or {}) + "\n"
        result = solve_puzzle(item, rules=rules, timeout=timeout)
        return level_line(item, result.paths) + "\n" if result.status == "solved" else result

    def show(item: Puzzle, text: str | Result) -> int:
        if isinstance(text, Result):
            typer.echo(f"{item.file}:{item.line}:1: {item.name} is {text.status}: no level",
                       err=True)
            return EXIT.get(text.status, 1)
        out.write(text)
        out.flush()
        return 0

    try:
        each_puzzle(files, max_cells, written, show)
    finally:
        if output:
            out.close()


@app.command(help="Write a bench folder's report.md, report.csv and plots/ from its results "
                  "(and encodings.md and .csv in a folder of flowsat experiment).")
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
        if (folder / "encodings.md").exists():
            from flowsat.bench.experiment import write_encodings_report

            written += write_encodings_report(folder)
    except UsageError as err:
        usage_error(err)
    for path in written:
        typer.echo(f"wrote {path}")


def only_the_command_asked_for(args: list[str]) -> None:
    """Keep only the command on the command line, when there is one: typer turns every
    command's options into click's at each start (15 ms for all of them here)."""
    asked = next((a for a in args if not a.startswith("-")), None)
    chosen = [c for c in app.registered_commands
              if (c.name or c.callback.__name__.replace("_", "-")) == asked]
    if chosen:
        app.registered_commands = chosen


def main() -> None:
    if hasattr(signal, "SIGPIPE"):  # `flowsat ... | head` ends quietly, like other Unix tools
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    only_the_command_asked_for(sys.argv[1:])
    limit_address_space()
    gc.freeze()  # what the imports made lives as long as the process: collections skip it
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("flowsat: interrupted", err=True)
        sys.exit(130)
