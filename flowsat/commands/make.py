"""Puzzles made and judged: `flowsat generate`, `flowsat rate`, `flowsat check-unique`."""

from __future__ import annotations

import json
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from flowsat.commands.common import (
    EXIT,
    AllowSelfTouch,
    Cluster,
    Jobs,
    MaxCells,
    a_folder,
    bounded,
    cluster_option,
    each_puzzle,
    progress_bar,
    usage_error,
)
from flowsat.generate import DENSITY, DENSITY_HELP, board_size
from flowsat.generate.spiral import SHAPES
from flowsat.options import COUNT, MAX_CONFLICTS, MAX_NODES, TIMEOUT, WORKERS
from flowsat.puzzle import MAX_CELLS, Puzzle
from flowsat.puzzle.formats import WRITABLE
from flowsat.puzzle.rules import Rules
from flowsat.render.text import draw
from flowsat.result import UsageError

# the generator, the rating and the proof are imported inside the commands that use them:
# `flowsat --help` imports this module
group = typer.Typer()


GENERATE_EXIT = """Exit status: 0 every puzzle made; 2 a usage error; 3 some seed gave no puzzle
(its candidates ran out, or --timeout stopped it); 4 an internal error (an answer failed the
checker, a bug)."""


GeneratedFormat = StrEnum("GeneratedFormat", {name: name for name in WRITABLE})
Shape = StrEnum("Shape", {name: name for name in ("random", *SHAPES)})
SHAPED_OPTIONS = {"size", "shape", "fmt", "quiet"}  # what a spiral board takes


class Format(StrEnum):
    text = "text"
    json = "json"


def density_option(name: str) -> object:
    return typer.Option(help=f"With --kind {name}: the {DENSITY_HELP[name]} (default "
                             f"{DENSITY[name]:g}).")


@group.command(help=f"""Make puzzles with exactly one solution, proved by SAT: random fillings of
the board by paths that obey the rule, their ends as dots, reshaped until unique. Puzzle k is
made from seed S + k alone: the same seed makes the same files on any machine. With --out,
each puzzle is written to DIR as it is done, with a row in DIR/manifest.csv (size, colors,
seed, kind, difficulty, generation time); otherwise the puzzles go to standard output.
--shape spiral prints the four-spiral board instead (up to 2,000,000 cells).
\n\n{GENERATE_EXIT}""")
def generate(
    ctx: typer.Context,
    size: Annotated[str, typer.Option(help="The board, WxH (columns x rows): 15x15, 30x20.")],
    shape: Annotated[Shape, typer.Option(
        help="random (the default: the puzzles above), spiral (four pairs from the corners "
             "of an N x N board, N even, wound into each other to its center; no seed, no "
             "proof: built with its solution) or spiral-unsolvable (the same with a fifth "
             "pair that cannot be joined); the spirals take --size and --format only.")
                     ] = Shape.random,
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
        "--format", help="grid, numberlink (a 'W H' line first), puzzlink (a puzz.link URL; "
                         "these three plain square boards only), pack (a level line with its "
                         "solution) or board (default: grid on plain square boards, else "
                         "pack).")] = None,
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
    if shape is not Shape.random:
        print_shaped(ctx, shape.value, size, fmt or GeneratedFormat.grid)
        return
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


def print_shaped(ctx: typer.Context, shape: str, size: str, fmt: GeneratedFormat) -> None:
    """Print a spiral board (`flowsat.generate.spiral`) in the format, its solution checked."""
    from flowsat.checker import check
    from flowsat.generate.spiral import spiral_puzzle
    from flowsat.puzzle.formats import CannotWrite, puzzle_text

    given = [option.opts[0] for option in ctx.command.params if option.name not in SHAPED_OPTIONS
             and ctx.get_parameter_source(option.name).name != "DEFAULT"]  # typer's own click
    try:
        if given:
            raise UsageError(f"--shape {shape} takes --size and --format only, not "
                             f"{', '.join(given)}")
        puzzle, solution = spiral_puzzle(shape, *board_size(size))
        if solution is not None:
            check(puzzle, solution)
        typer.echo(puzzle_text(puzzle, fmt.value, solution).rstrip("\n"))
    except (UsageError, CannotWrite) as err:
        usage_error(f"--shape {shape} --format {fmt.value}: {err}"
                    if isinstance(err, CannotWrite) else err)


@group.command(help="""Rate puzzles: the share of cells that forced moves fill, the best-first
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
    jobs: Jobs = None,
) -> None:
    from flowsat import difficulty
    from flowsat.sat.kept import Kept

    def show(item: Puzzle, rating: difficulty.Rating) -> int:
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

    rules, nodes = Rules(self_touch=allow_self_touch), max_nodes or difficulty.MAX_NODES
    kept = Kept()
    each_puzzle(files, max_cells, lambda p: difficulty.rate(p, rules, nodes, kept), show, jobs,
                kept)


@group.command("check-unique", help="""Tell, per puzzle, whether it has exactly one solution
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
    jobs: Jobs = None,
) -> None:
    color = sys.stdout.isatty() if color is None else color
    rules = Rules(allow_self_touch)
    budget = {} if max_conflicts is None else {"max_conflicts": max_conflicts}

    from flowsat import unique
    from flowsat.sat.kept import Kept

    def work(item: Puzzle) -> tuple[unique.Uniqueness, str]:
        found = unique.check_unique(item, rules=rules, timeout=timeout, kept=kept, **budget)
        if found.verdict != "unsolvable" or fmt is Format.json:
            return found, ""
        from flowsat.looser import lifting, note
        from flowsat.solve import solve

        return found, note(found.verdict, lifting(item, rules, lambda p, looser, s: solve(
            p, rules=looser, timeout=min(s, timeout or s))))

    def show(item: Puzzle, answer: tuple[unique.Uniqueness, str]) -> int:
        found, lifted = answer
        if fmt is Format.json:
            typer.echo(json.dumps(found.record(item), separators=(",", ":")))
        else:
            typer.echo(f"{item.name}: {found.verdict}{lifted}")
            if found.verdict == "multiple" and not quiet:
                for paths in found.solutions:
                    typer.echo(draw(item, paths, color) + "\n", color=color)
        return 0 if found.verdict == "unique" else EXIT.get(found.verdict, 1)

    kept = Kept()
    each_puzzle(files, max_cells, work, show, jobs, kept)
