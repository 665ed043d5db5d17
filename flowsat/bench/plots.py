"""The report's plots (SVG): per puzzle, one configuration's time against another's on log-log
axes with the diagonal; time against board size; the spread across orientations."""

from __future__ import annotations

from pathlib import Path

from flowsat.bench.summary import INF, PuzzleRow, Table

Points = list[tuple[float, float]]


def draw_plots(table: Table, folder: Path) -> list[Path]:
    """Every plot that the table has data for, written under `folder`; their paths."""
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "flowsat",
                                "font.size": 9})
    folder.mkdir(parents=True, exist_ok=True)
    written = []
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


def save(fig, path: Path) -> Path:
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None})
    plt.close(fig)
    return path
