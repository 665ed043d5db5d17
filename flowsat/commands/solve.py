"""`flowsat solve`: puzzle files through a backend, each answer checked, shown as text, JSON
lines or a solver program's rows. Its backend options are made from the fields of the
backends' options (`flowsat.backend`): the one asked for, or every one (`fit`)."""

import importlib
import inspect
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from contextlib import closing
from dataclasses import Field, fields
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal, get_type_hints

import typer
from typer.models import OptionInfo

from flowsat.backend import REGISTRY, Backend, Limits, chosen, described, keeper, loaded
from flowsat.commands.common import (
    EXIT,
    EXIT_STATUS,
    AllowEmpty,
    AllowSelfTouch,
    Jobs,
    MaxCells,
    PngTarget,
    SvgTarget,
    bounded,
    items_and_workers,
    open_pictures,
    save,
    usage_error,
)
from flowsat.memory import for_good
from flowsat.options import DELAY, MAX_MEMORY, MEMORY_HELP, TEXT_TIMEOUT_S, TIMEOUT
from flowsat.parallel import Done, answers, share
from flowsat.puzzle import MAX_CELLS, Puzzle, PuzzleError, expand_paths
from flowsat.puzzle.rules import Rules
from flowsat.result import Result, UsageError, error_record, record_line
from flowsat.sat import can_stop
from flowsat.solve import blame, run

if TYPE_CHECKING:
    from flowsat.render.animate import Replay

# the replay, the text and the rows formats are imported where they are used: few runs need
# them, or JSON runs do not
group = typer.Typer()
Shown = list[tuple[str, bool | None]]  # what an answer prints (`shown`)
# an answer, as `solve`'s work gives it: the result (a worker's without its paths when the
# parent needs only the status), its replay, what it shows (None: not made yet)
Answer = tuple["Result | PuzzleError | None", "Replay | None", Shown | None]


class SolveFormat(StrEnum):
    text = "text"
    json = "json"
    rows = "rows"


DEFAULT_BACKEND = "sat"
# the options of the backends `solve` takes options for now, by backend (`fit`)
BACKEND_OPTIONS: dict[str, type] = {}


def fit(args: list[str] | None) -> None:
    """Give `solve` the options of the backend its command line names (sat by default) when
    every option on it is one of that backend's or solve's own, else (args None: `app`;
    --help, another backend's option, anything else) every backend's: a sat run imports
    nothing of the best-first search (its switches and their flags: 34 M instructions a
    start). The command line reads the same either way: its options are all there."""
    named = backend_named(args) if args is not None else None
    if named in REGISTRY:
        take_options([named])
        if all(a.partition("=")[0] in option_names(solve) for a in args if a.startswith("-")):
            return
    take_options(REGISTRY)


def backend_named(args: list[str]) -> str:
    """The backend's name (`program` of `program:COMMAND`) the last --backend gives."""
    text = DEFAULT_BACKEND
    for i, arg in enumerate(args):
        if arg == "--backend" and i + 1 < len(args):
            text = args[i + 1]
        elif arg.startswith("--backend="):
            text = arg.partition("=")[2]
    return text.partition(":")[0]


def take_options(backends: Iterable[str]) -> None:
    """`solve` with an option for every field of these backends' options."""
    BACKEND_OPTIONS.clear()  # (light: the backends' packages import their options only)
    BACKEND_OPTIONS.update({name: importlib.import_module(REGISTRY[name]).BACKEND.Options
                            for name in REGISTRY if name in backends})
    solve.__signature__ = with_backend_options(solve)


def option_names(command: Callable[..., None]) -> set[str]:
    """Names the command's options go by on the command line, as typer makes them: those
    declared (in `Annotated`, the first is the `default`; `--a/--b` is two), else `--NAME`."""
    names = set()
    for p in inspect.signature(command).parameters.values():
        info = next((m for m in getattr(p.annotation, "__metadata__", ())
                     if isinstance(m, OptionInfo)), None)
        if info is not None:
            first = () if info.default is ... else (info.default,)
            declared = [n for d in (*first, *(info.param_decls or ())) for n in d.split("/")]
            names.update(declared or [f"--{p.name.replace('_', '-')}"])
    return names


def with_backend_options(command: Callable[..., None]) -> inspect.Signature:
    """The command's own signature with an option for every field of the backends' options
    in place of its `**given` (a name two backends share is one option)."""
    command.__dict__.pop("__signature__", None)  # (one made before)
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
    if f.metadata["choices"]:  # a Literal (an enum takes 2 M instructions to make), listed
        kind = Literal[tuple(sorted(f.metadata["choices"]))] | None  # as [grid|numberlink]
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
                chosen[f.name] = value
    return chosen


@group.command(help=f"Solve puzzle files (folders: every *.txt below them).\n\n{EXIT_STATUS}")
def solve(
    files: Annotated[list[Path], typer.Argument(
        help="Puzzle files or folders (- for standard input).")],
    backend: Annotated[str, typer.Option(
        help="Backend: sat, astar, cpsat (OR-Tools CP-SAT), or program:COMMAND (any solver "
        "program).")
                   ] = DEFAULT_BACKEND,
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
    jobs: Jobs = None,
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
    items, workers = items_and_workers(files, max_cells, 1 if replaying else jobs)
    limits = Limits(timeout, share(max_memory, workers))

    lean = workers > 1 and not pics  # a worker's answer: its status and its text
    kept = keeper(found)  # this run's (each worker's copy: its own)

    def work(item: Puzzle | PuzzleError) -> Answer:
        if isinstance(item, PuzzleError):
            return None, None, None  # reported in its turn
        replay = Replay(item, delay=delay, fast=fast, color=color,
                        show_cycles=show_cycles) if replaying else None
        result = run(item, found, options, rules, limits, replay, kept)
        note = lifted_note(item, result, found, options, rules, limits) \
            if fmt is SolveFormat.text else ""
        text = shown(item, result, backend, fmt, color, quiet, rules, note)
        return (Result(result.status) if lean else result), replay, text

    worst, noted, asked = 0, False, described(options)
    with closing(answers(items, work, workers, kept and kept.start)) as answered:
        for item, done in answered:
            if not noted and getattr(item, "format", None) == "puzzlink":
                from flowsat.looser import nikoli_note

                typer.echo(nikoli_note(rules), err=True)
                noted = True
            result, replay, text = (item, None, None) if isinstance(item, PuzzleError) else \
                settled(item, done, asked)
            if isinstance(result, PuzzleError):  # a bad puzzle, a --hint file that does not fit
                report_error(result, fmt, backend, rules, asked)
                worst = max(worst, EXIT["input"])
                continue
            solution = result.paths if result.status == "solved" else None
            if replay:
                replay.play(solution)
            echo(text or shown(item, result, backend, fmt, color, quiet, rules))
            if pics:
                save(pics, item, solution)
            worst = max(worst, EXIT[blame(result.status, found) or result.status])
    raise typer.Exit(worst)


def settled(puzzle: Puzzle | PuzzleError, done: Done[Answer], asked: dict) -> Answer:
    """The checked result, the replay and what to show, or an `error` result naming the bug
    (and the backend's options asked for) with nothing shown yet; usage errors end the run."""
    try:
        return done.get()
    except PuzzleError as err:
        return err, None, None
    except UsageError as err:
        usage_error(err)
    except AssertionError as err:  # a solution that failed the checker, a broken model
        if os.environ.get("FLOWSAT_DEBUG"):
            raise
        message = f"internal error (a bug): {err}"
        typer.echo(f"{puzzle.file}:{puzzle.line}:1: {message}", err=True)
        return Result("error", error=message, config=asked), None, None


def lifted_note(puzzle: Puzzle, result: Result, found: Backend, options: object, rules: Rules,
                limits: Limits) -> str:
    """For an unsolvable puzzle, the switches under whose rules a short solve by the same
    backend found a solution (`flowsat.looser`); nothing for a solver program."""
    if result.status != "unsolvable" or found.outside:
        return ""
    from flowsat.looser import PROBE_S, lifting, note

    seconds = min(PROBE_S, limits.timeout or PROBE_S)
    return note(result.status, lifting(puzzle, rules, lambda p, looser, s: run(
        p, found, options, looser, Limits(s, limits.max_memory)), seconds))


def shown(puzzle: Puzzle, result: Result, backend: str, fmt: SolveFormat, color: bool,
          quiet: bool, rules: Rules, note: str = "") -> Shown:
    """What the answer prints in that format: each `typer.echo`'s text and color switch
    (made where the puzzle was solved: a worker process sends it whole)."""
    if fmt is SolveFormat.json:
        return [(record_line(puzzle, result, backend, rules), None)]
    if fmt is SolveFormat.rows:
        from flowsat.program.answer import answer_rows

        return [(answer_rows(puzzle, result), None)]
    from flowsat.render.text import draw, summary

    out: Shown = [(summary(puzzle, result, backend, note), None)]
    if result.status == "solved" and not quiet:
        out.append((draw(puzzle, result.paths, color) + "\n", color))
    return out


def echo(text: Shown) -> None:
    """Print what an answer shows, one line a part, in one `typer.echo` when at most one
    color switch matters (the parts without an ANSI code print the same under any); ASCII
    text without a code straight to stdout (as `typer.echo` prints it: nothing to strip, no
    character its stream could take otherwise), as the JSON lines are."""
    switches = {color for line, color in text if "\x1b" in line}
    joined = "\n".join(line for line, _ in text)
    if len(switches) > 1:
        for line, color in text:
            typer.echo(line, color=color)
    elif switches or not joined.isascii():
        typer.echo(joined, color=next(iter(switches), None))
    else:
        sys.stdout.write(joined + "\n")
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


def report_error(err: PuzzleError, fmt: SolveFormat, backend: str, rules: Rules,
                 asked: dict) -> None:
    typer.echo(str(err), err=True)
    if fmt is SolveFormat.json:
        import json  # (JSON output only)

        typer.echo(json.dumps(error_record(err.file, err.index, str(err), backend, rules,
                                           asked), separators=(",", ":")))
