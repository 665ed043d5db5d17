"""Benches and their reports: `flowsat bench`, `flowsat experiment`, `flowsat report`."""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from flowsat.backend import REGISTRY
from flowsat.commands.common import (
    EXIT,
    AllowSelfTouch,
    Cluster,
    MaxCells,
    Repeat,
    Resume,
    RunTimeout,
    Workers,
    a_folder,
    cluster_option,
    names,
    usage_error,
)
from flowsat.puzzle import MAX_CELLS
from flowsat.result import UsageError

# flowsat.bench (workers, multiprocessing, the reports) is imported inside the commands that
# use it: `flowsat --help` imports this module
group = typer.Typer()


BENCH_EXIT = """Exit status: 0 the bench ran (whatever the puzzles' answers); 2 an input or usage
error; 4 some run ended in an error (a crash or a bug); 5 a solver program (program:...) failed
on some run: a wrong answer, a crash, output that is no answer; 130 interrupted: the finished
runs are kept, --resume goes on. When several apply, the highest wins."""


class Symmetries(StrEnum):
    none = "none"
    all = "all"


class PuzzleFormat(StrEnum):
    grid = "grid"
    numberlink = "numberlink"


ProgramFormat = Annotated[PuzzleFormat | None, typer.Option(
    help="program: the puzzle as the solver program reads it: numberlink ('W H' and the rows; "
         "the default) or grid (the rows).")]


DeduceChoices = Annotated[str | None, typer.Option(
    "--deduce", help="The sat backend's propagation first to race, comma-separated: on, off, "
    "auto (default: the backend's own, auto); each choice a configuration NAME/deduce=CHOICE.")]


PlanFile = Annotated[Path | None, typer.Option(
    "--plan", help="An experiment plan (TOML): puzzle sets, configurations, rules, repeats, "
    "timeout, workers, how the report groups (docs/bench.md#plans). Instead of PATHS and the "
    "other options (--workers, --cluster and --out may override the plan's).")]
WITH_PLAN = {"plan", "resume", "workers", "cluster", "out", "max_cells"}  # given with --plan


def given_here(ctx: typer.Context, name: str) -> bool:
    """Whether the command line gave the option (typer may bring its own click: by name)."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name == "COMMANDLINE"


def planned(ctx: typer.Context, plan: Path, paths: list[Path] | None, given: dict[str, object],
            verb: str = "bench"):
    """The bench a plan is, once no option of the command line says otherwise."""
    from flowsat.bench.planfile import read_plan

    if paths:
        raise UsageError("give puzzle PATHS or --plan, not both")
    for name in ctx.params:
        if name not in WITH_PLAN and given_here(ctx, name):
            raise UsageError(f"--{name.replace('_', '-')} does not go with --plan: the plan "
                             f"says it")
    settings = read_plan(plan, given["out"] and str(given["out"]), verb)
    for name in ("workers", "cluster"):
        if given_here(ctx, name):
            setattr(settings, name, given[name])
    return settings


def interrupt(*_: object) -> None:
    raise KeyboardInterrupt


@group.command(help=f"""Time backends and configurations head to head over puzzle files or
folders. Each run (puzzle, orientation, configuration, repeat) goes to a worker process and is
appended to DIR/results.jsonl as it ends; DIR/report.md, report.html, report.csv and plots/
are written at the end (flowsat report writes them again).\n\n{BENCH_EXIT}""")
def bench(
    ctx: typer.Context,
    paths: Annotated[list[Path] | None, typer.Argument(
        help="Puzzle files or folders (or --plan).", show_default=False)] = None,
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
    out: Annotated[Path | None, typer.Option(
        callback=a_folder, help="Folder of the results and the report (default: bench-out; "
        "with --plan, the plan's out, else results/PLAN_NAME).")] = None,
    resume: Resume = False,
    plan: PlanFile = None,
    allow_self_touch: AllowSelfTouch = False,
    baselines: Annotated[bool, typer.Option(
        "--baselines/--no-baselines", help="Add the 2016 rows: sat/zucker2016/pycosat (when "
        "pycosat is installed) and astar/2016.")] = True,
    max_cells: MaxCells = MAX_CELLS,
    program_format: ProgramFormat = None,
    deduce: DeduceChoices = None,
) -> None:
    from flowsat.bench import Settings, write_report

    if plan:
        try:
            planned_settings = planned(ctx, plan, paths, {"out": out, "workers": workers,
                                                          "cluster": cluster})
        except UsageError as err:
            usage_error(err)
        sweep(planned_settings, max_cells, resume, write_report)
    if not paths:
        usage_error("give puzzle files or folders, or --plan FILE.toml")
    given = {"backends": names(backends), "solvers": names(solvers),
             "encodings": names(encodings), "deduce": names(deduce),
             "program_format": program_format and program_format.value}
    settings = Settings([str(p) for p in paths], symmetries=symmetries.value, repeat=repeat,
                        timeout=timeout, workers=workers, out=str(out or "bench-out"),
                        baselines=baselines,
                        allow_self_touch=allow_self_touch, cluster=cluster,
                        **{k: v for k, v in given.items() if v})
    sweep(settings, max_cells, resume, write_report)


def sweep(settings, max_cells: int, resume: bool,
          reports: Callable[[Path], list[Path]]) -> NoReturn:
    """Run a bench (a plan's: its copy kept beside the results), write its reports, and exit
    with the bench's status."""
    from flowsat.bench import bench
    from flowsat.bench.planfile import PlanSettings, keep_plan

    out = Path(settings.out)
    terminate = signal.signal(signal.SIGTERM, interrupt)  # a kill ends the bench as Ctrl-C
    errors: list = []
    try:
        puzzles, errors = settings.load(max_cells)
        for err in errors:
            typer.echo(str(err), err=True)
        cluster_option(settings.cluster, settings.workers)
        if isinstance(settings, PlanSettings):
            keep_plan(settings, resume)
        if not puzzles:
            raise UsageError("no puzzle to run")
        statuses = bench(settings, puzzles, resume=resume, argv=sys.argv,
                         progress="bar" if sys.stderr.isatty() else "lines")
        written = reports(out)
    except UsageError as err:
        usage_error(err)
    except KeyboardInterrupt:
        typer.echo(f"flowsat: interrupted; the finished runs are in {out / 'results.jsonl'}: "
                   f"--resume goes on", err=True)
        raise typer.Exit(130) from None
    finally:
        signal.signal(signal.SIGTERM, terminate)
    wrote(written)
    raise typer.Exit(max(EXIT["program"] * bool(statuses["program"]),
                         EXIT["internal"] * bool(statuses["error"]), EXIT["input"] * bool(errors)))


@group.command(help=f"""Time SAT encodings against each other: every encoding (default: every
named one) with every solver over puzzle sets (default: the shared 2016 set and Numberlink
boards), as a bench of the sat backend; beside the bench's report, DIR/encodings.md and .csv
give each configuration's size, total, median and worst time and timeouts per puzzle set, and
what each single choice of family or solver is worth.\n\n{BENCH_EXIT}""")
def experiment(
    ctx: typer.Context,
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
    out: Annotated[Path | None, typer.Option(
        callback=a_folder, help="Folder of the results and the reports (default: "
        "results/encodings; with --plan, the plan's out, else results/PLAN_NAME).")] = None,
    resume: Resume = False,
    max_cells: MaxCells = MAX_CELLS,
    deduce: DeduceChoices = None,
    plan: PlanFile = None,
) -> None:
    from flowsat.bench import write_report
    from flowsat.bench.experiment import settings as experiment_settings
    from flowsat.bench.experiment import shared_sets, write_encodings_report

    try:
        if plan:
            settings = planned(ctx, plan, paths, {"out": out, "workers": workers,
                                                  "cluster": cluster}, "experiment")
        else:
            settings = experiment_settings([str(p) for p in paths or shared_sets()],
                                           names(encodings), names(solvers), repeat=repeat,
                                           timeout=timeout, workers=workers,
                                           out=str(out or "results/encodings"),
                                           cluster=cluster, deduce=names(deduce))
    except UsageError as err:
        usage_error(err)
    sweep(settings, max_cells, resume,
          lambda folder: write_report(folder) + write_encodings_report(folder))


def made_by_experiment(folder: Path) -> bool:
    """Whether `flowsat experiment` made the folder (its encodings.md, or its command)."""
    from flowsat.bench.records import read_meta

    command = str(read_meta(folder).get("command", ""))
    return (folder / "encodings.md").exists() or command.startswith("flowsat experiment")


@group.command(help="""Write a bench folder's reports again from its runs (results.jsonl and
meta.json): report.md (the tables: summary, competition standings with PAR-2 and the virtual
best, groups, per puzzle, the backends' counters), report.html (the same as one self-contained
page with the plots inline, to open offline), report.csv (a row a puzzle and configuration) and
plots/ (SVG: the cactus plot, pairwise scatter plots, the hardest puzzles); in a folder of
flowsat experiment also encodings.md and encodings.csv.""")
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
        if made_by_experiment(folder):
            from flowsat.bench.experiment import write_encodings_report

            written += write_encodings_report(folder)
    except UsageError as err:
        usage_error(err)
    wrote(written)


def wrote(written: list[Path]) -> None:
    """The files a report wrote, and a line on stderr when it has no plots for want of
    matplotlib."""
    from flowsat.bench.plots import NO_PLOTS, can_draw

    for path in written:
        typer.echo(f"wrote {path}")
    if not can_draw():
        typer.echo(NO_PLOTS, err=True)
