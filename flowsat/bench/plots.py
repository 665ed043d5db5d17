"""The report's plots (SVG): the cactus plot (puzzles finished against time); per puzzle, each
pair of configurations' times on log-log axes with the diagonal, unfinished ones on the edge;
one configuration's time against another's; time against board size; the spread across
orientations."""

from __future__ import annotations

import io
from itertools import combinations
from pathlib import Path

from flowsat.atomic import make_folder, write_file
from flowsat.bench.competition import best_time, penalty_of, ranking
from flowsat.bench.summary import INF, VIRTUAL_BEST, PuzzleRow, Table

Points = list[tuple[float, float]]
CACTUS_LINES = 12  # the configurations with the best PAR-2 drawn in the cactus plot
PAIRED = 6  # ... and paired in the scatter plots


NO_PLOTS = ("flowsat: no plots: matplotlib is not installed (pip install 'flowsat[plots]' "
            "draws them)")


def can_draw() -> bool:
    """Whether matplotlib is installed (an extra, `flowsat[plots]`: solving needs none)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def draw_plots(table: Table, folder: Path, timeout: float | None = None) -> list[Path]:
    """Every plot that the table has data for, written under `folder`; their paths (none
    without matplotlib: `can_draw`)."""
    if not can_draw():
        return []
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "flowsat",
                                "font.size": 9})
    make_folder(folder)
    written = []
    leaders = [s.name for s in ranking(table, penalty_of(timeout))]
    if any(e.finished for p in table.puzzles for e in p.entries.values()):
        written.append(cactus(folder / "cactus.svg", table, leaders[:CACTUS_LINES], timeout))
    if len(leaders) >= 2:
        written.append(scatter_pairs(folder / "pairs.svg", table, leaders[:PAIRED], timeout))
    others = {c: pairs(table.puzzles, table.baseline, c) for c in table.configs
              if c != table.baseline}
    if any(others.values()):
        written.append(versus(folder / "versus-baseline.svg", table.baseline,
                              "other configurations", others))
    solvers = list(dict.fromkeys(map(solver, table.configs)))
    if len(solvers) >= 2:
        a = solvers[0]
        series = {f"{b} vs {a}": [(x, y) for p in table.puzzles
                                  if max(x := best(p, a), y := best(p, b)) < INF]
                  for b in solvers[1:]}
        if any(series.values()):
            written.append(versus(folder / "backends.svg", f"{a} (fastest configuration)",
                                  "the others (fastest configuration each)", series))
    if any(e.finished for p in table.puzzles for e in p.entries.values()):
        written.append(by_size(folder / "time-by-size.svg", table))
    if table.symmetries:
        written.append(spreads(folder / "orientation-spread.svg", table))
    return written


def cactus(path: Path, table: Table, names: list[str], timeout: float | None) -> Path:
    """Puzzles finished against time, one line per configuration and the virtual best: the
    further right and lower a line, the better."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4.5))
    for c, done in cactus_lines(table, names).items():
        style = {"color": "black", "linestyle": "--"} if c == VIRTUAL_BEST else {}
        ax.step(done, range(1, len(done) + 1), where="post", label=f"{c} ({len(done)})",
                linewidth=1.2, **style)
    if timeout is not None:
        ax.axvline(timeout, color="gray", linewidth=0.8, linestyle=":", label="timeout")
    ax.set_xscale("log")
    ax.set_xlabel("median time on the puzzle (s)")
    ax.set_ylabel(f"puzzles finished (of {len(table.puzzles)})")
    ax.set_title("Cactus plot: puzzles finished within a time")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    return save(fig, path)


def cactus_lines(table: Table, names: list[str]) -> dict[str, list[float]]:
    """Each configuration's finished times, shortest first (the n-th: the time within which
    it finished n puzzles), and the virtual best's when there are several configurations."""
    lines = {c: [p.entries[c].median_s for p in table.puzzles if c in p.entries]
             for c in names}
    if len(table.configs) > 1:
        lines[VIRTUAL_BEST] = [best_time(p, table.configs) for p in table.puzzles]
    return {c: sorted(t for t in times if t < INF) for c, times in lines.items()}


def scatter_pairs(path: Path, table: Table, names: list[str], timeout: float | None) -> Path:
    """Per puzzle, each pair of configurations' times on log-log axes; a puzzle one did not
    finish sits on its edge (the timeout, or twice the longest time when none is known)."""
    import matplotlib.pyplot as plt

    finished = [e.median_s for p in table.puzzles for c in names
                if (e := p.entries.get(c)) and e.finished]
    edge = timeout if timeout is not None else 2 * max(finished, default=1.0)
    low = min((t for t in finished if t > 0), default=edge / 10) / 1.5
    n = len(names) - 1
    fig, axes = plt.subplots(n, n, figsize=(max(5.0, 2.2 * n),) * 2, squeeze=False,
                             sharex="all", sharey="all")
    for ax in axes.flat:
        ax.set_axis_off()
    for x, y in combinations(range(len(names)), 2):
        ax = axes[y - 1][x]
        ax.set_axis_on()
        pair(ax, table.puzzles, names[x], names[y], edge, low)
        if y == n:
            ax.set_xlabel(names[x], fontsize=7)
        if x == 0:
            ax.set_ylabel(names[y], fontsize=7)
    fig.suptitle("Per puzzle, median time (s), y against x: below the diagonal, y is faster; "
                 "on the dotted edge, not finished", fontsize=8)
    fig.subplots_adjust(left=0.1, bottom=0.1, right=0.98, top=0.94, wspace=0.08, hspace=0.08)
    return save(fig, path, tight=False)


def pair(ax, puzzles: list[PuzzleRow], x: str, y: str, edge: float, low: float) -> None:
    """One panel of the scatter plots: the puzzles either of the two ran."""
    def at(p: PuzzleRow, c: str) -> float:
        e = p.entries.get(c)
        return max(e.median_s, low) if e and e.finished else edge

    both = [p for p in puzzles if x in p.entries or y in p.entries]
    points = [(at(p, x), at(p, y)) for p in both]
    colors = ["tab:blue" if max(pt) < edge else "tab:red" for pt in points]
    ax.scatter([a for a, _ in points], [b for _, b in points], s=8, c=colors, alpha=0.7)
    ax.plot([low, edge], [low, edge], color="gray", linewidth=0.6)
    for line in (ax.axvline, ax.axhline):
        line(edge, color="gray", linewidth=0.6, linestyle=":")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(low, edge * 1.5)
    ax.set_ylim(low, edge * 1.5)
    ax.minorticks_off()
    ax.tick_params(labelsize=6)


def pairs(puzzles: list[PuzzleRow], x: str, y: str) -> Points:
    """(x's median, y's median) on each puzzle both finished."""
    return [(p.entries[x].median_s, p.entries[y].median_s) for p in puzzles
            if x in p.entries and y in p.entries and p.entries[x].finished
            and p.entries[y].finished]


def solver(config: str) -> str:
    """Whose configuration it is: its backend (`sat`, `astar`), or a solver program itself
    (`program/NAME`), each program a solver of its own."""
    backend = config.split("/")[0]
    return config if backend == "program" else backend


def best(p: PuzzleRow, name: str) -> float:
    """The fastest median of the solver's configurations on the puzzle."""
    return min((e.median_s for c, e in p.entries.items() if solver(c) == name), default=INF)


def versus(path: Path, xlabel: str, ylabel: str, series: dict[str, Points]) -> Path:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 6))
    values = [v for pts in series.values() for pt in pts for v in pt if v > 0]
    for label, pts in series.items():
        ax.scatter([x for x, _ in pts], [y for _, y in pts], s=18, label=label, alpha=0.8)
    if values:
        lo, hi = min(values) / 1.5, max(values) * 1.5
        ax.plot([lo, hi], [lo, hi], color="gray", linewidth=0.8, label="same time")
        ax.set_xlim(lo, hi)
        ax.set_ylim(lo, hi)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(f"{xlabel}: median time (s)")
    ax.set_ylabel(f"{ylabel}: median time (s)")
    ax.set_title("Per puzzle: below the diagonal, faster than the x axis configuration")
    ax.legend(fontsize=7)
    return save(fig, path)


def by_size(path: Path, table: Table) -> Path:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for c in table.configs:
        pts = sorted((p.cells, p.entries[c].median_s) for p in table.puzzles
                     if c in p.entries and p.entries[c].finished)
        ax.plot([x for x, _ in pts], [y for _, y in pts], marker="o", markersize=3,
                linestyle="none", label=c, alpha=0.8)
    ax.set_yscale("log")
    ax.set_xlabel("board size (cells)")
    ax.set_ylabel("median time (s)")
    ax.set_title("Time against board size")
    ax.legend(fontsize=7)
    return save(fig, path)


def spreads(path: Path, table: Table) -> Path:
    """Per configuration, the spread of each puzzle's time (and work count) over orientations."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4.5))
    for ax, kind, title in zip(axes, ("time", "count"), ("time", "work count + 1"),
                               strict=True):
        data = {c: spread for c in table.configs
                if (spread := [s for p in table.puzzles if c in p.entries
                               and (s := getattr(p.entries[c], f"{kind}_spread")) is not None])}
        if data:
            ax.boxplot(list(data.values()))
            ax.set_xticks(range(1, len(data) + 1), list(data), rotation=30, ha="right",
                          fontsize=7)
            ax.set_yscale("log")
        ax.axhline(1.0, color="gray", linewidth=0.8)
        ax.set_title(f"{title}: largest / smallest orientation")
    return save(fig, path)


def save(fig, path: Path, tight: bool = True) -> Path:
    import matplotlib.pyplot as plt

    if tight:
        fig.tight_layout()
    picture = io.BytesIO()
    fig.savefig(picture, format=path.suffix.lstrip("."), metadata={"Date": None})
    plt.close(fig)
    return write_file(path, picture.getvalue())
