"""`flowsat experiment`: SAT encodings x solvers over puzzle sets, and what each choice is worth.

The runs are an ordinary bench (SAT backend only); this module adds `encodings.md` and
`encodings.csv`: for each puzzle set (each path the bench was given) and configuration the
formula's size, the total, median and worst time and the timeouts, and, for every pair of
configurations that differ in one family only (or in the solver only), the geometric-mean
ratio of their times: what that one choice is worth, everything else equal.
"""

from __future__ import annotations

import csv
import io
import math
import shlex
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from flowsat.atomic import write_file
from flowsat.bench.markdown import ms, number, row, table_head
from flowsat.bench.records import read_meta, read_records
from flowsat.bench.summary import Entry, Record, median, tabulate
from flowsat.result import UsageError
from flowsat.sat.spec import CHOICES, load_spec

FAMILIES = tuple(CHOICES)  # every family a spec chooses in
FIRST = "propagate"  # the key of `--deduce` (propagation first) among a configuration's choices


@dataclass
class Row:
    """One configuration on one puzzle set."""

    group: str
    config: str
    choices: dict[str, Any]  # family -> choice, and the solver
    puzzles: int
    solved: int
    unsolvable: int
    unfinished: int  # timeouts and errors
    variables: float | None  # medians over the puzzles
    clauses: float | None
    total_s: float  # sum of per-puzzle medians, an unfinished puzzle counted at the timeout
    total_cpu_s: float  # the same in the worker's CPU time, which a busy machine inflates less
    median_s: float | None
    worst_s: float
    worst: str


def choices(config: dict[str, Any]) -> dict[str, Any]:
    """A configuration's choice in each family, from its encoding's spec, its solver and its
    propagation first (`--deduce`)."""
    from flowsat.sat.options import SatOptions

    options = {**asdict(SatOptions()), **config["options"]}  # a plan may leave defaults out
    spec = load_spec(options["encoding"])._asdict()
    return {**{f: spec[f] for f in FAMILIES}, "solver": options["solver"],
            FIRST: options.get("deduce") or "auto"}


def groups_of(meta: dict) -> list[str]:
    """The puzzle sets of a run: a plan's sets by name, else each path the bench was given."""
    settings = meta["settings"]
    return [s["name"] for s in settings.get("sets") or []] or settings["paths"]


def group_of(info: dict[str, Any], groups: list[str]) -> str:
    """The set of a plan a puzzle ran in, else the path the bench was given it came from."""
    if info.get("set"):
        return info["set"]
    file = info["file"]
    for group in groups:
        if Path(file) == Path(group) or Path(group) in Path(file).parents:
            return group
    return "other"


def rows(records: list[Record], meta: dict) -> list[Row]:
    """The table of the report: a row per puzzle set and configuration."""
    timeout = meta["settings"]["timeout"]
    configs = {c["name"]: c for c in meta["configs"]}
    groups = groups_of(meta)
    table = tabulate(records, list(configs))
    found = []
    for group in groups:
        puzzles = [p for p in table.puzzles if group_of(p.info, groups) == group]
        for name in table.configs:
            entries = [(p.label, p.entries[name]) for p in puzzles if name in p.entries]
            if entries:
                found.append(summarize(group, name, choices(configs[name]), entries, timeout))
    return found


def summarize(group: str, name: str, chosen: dict[str, Any], entries: list[tuple[str, Entry]],
        timeout: float) -> Row:
    times = [(label, min(e.median_s, timeout)) for label, e in entries]
    cpu = [e.median_cpu_s if e.finished else timeout for _, e in entries]
    worst = max(times, key=lambda x: x[1])
    status = [e.status for _, e in entries]
    return Row(group, name, chosen, len(entries), status.count("solved"),
               status.count("unsolvable"), sum(not e.finished for _, e in entries),
               median(e.stat("variables") for _, e in entries if e.stat("variables")),
               median(e.stat("clauses") for _, e in entries if e.stat("clauses")),
               sum(t for _, t in times), sum(c or 0 for c in cpu), median(t for _, t in times),
               worst[1], worst[0])


def effects(records: list[Record], meta: dict) -> list[dict[str, Any]]:
    """For each pair of configurations that differ in one family or in the solver only, per
    puzzle set: the geometric mean over the puzzles both finished of the time of the second
    over the first, and how many puzzles each did not finish."""
    configs = {c["name"]: choices(c) for c in meta["configs"]}
    groups = groups_of(meta)
    table = tabulate(records, list(configs))
    found = []
    names = [n for n in table.configs if n in configs]
    for a in names:
        for b in names:
            differ = [k for k in configs[a] if configs[a][k] != configs[b][k]]
            if len(differ) != 1 or str(configs[a][differ[0]]) > str(configs[b][differ[0]]):
                continue
            family = differ[0]
            for group in groups:
                pairs = [(p.entries[a], p.entries[b]) for p in table.puzzles
                         if group_of(p.info, groups) == group
                         and a in p.entries and b in p.entries]
                both = [(x.median_s, y.median_s) for x, y in pairs
                        if x.finished and y.finished and x.median_s > 0 and y.median_s > 0]
                if not pairs:
                    continue
                ratio = (math.exp(sum(math.log(y / x) for x, y in both) / len(both))
                         if both else None)
                found.append({"group": group, "family": family, "from": configs[a][family],
                              "to": configs[b][family], "with": a, "and": b,
                              "puzzles": len(both), "ratio": ratio,
                              "unfinished_from": sum(not x.finished for x, _ in pairs),
                              "unfinished_to": sum(not y.finished for _, y in pairs)})
    return found


def write_encodings_report(folder: Path) -> list[Path]:
    """`encodings.md` and `encodings.csv` of a bench folder made by `flowsat experiment`."""
    records = [r for r in read_records(folder)
               if r.get("backend") == "sat" and r.get("timing") != "set"]
    meta = read_meta(folder)
    if not records or "settings" not in meta:
        raise UsageError(f"{folder}: no SAT results of a bench in it")
    table, worth = rows(records, meta), effects(records, meta)
    md, sheet = folder / "encodings.md", folder / "encodings.csv"
    write_file(md, markdown(table, worth, meta))
    fields = ["group", "config", *FAMILIES, "solver", FIRST, "puzzles", "solved", "unsolvable",
              "unfinished", "variables", "clauses", "total_s", "total_cpu_s", "median_s",
              "worst_s", "worst"]
    out = io.StringIO()
    writer = csv.DictWriter(out, fields)
    writer.writeheader()
    for r in table:
        data = {k: v for k, v in asdict(r).items() if k != "choices"}
        writer.writerow({**data, **r.choices})
    write_file(sheet, out.getvalue())
    return [md, sheet]


def markdown(table: list[Row], worth: list[dict[str, Any]], meta: dict) -> str:
    settings, env = meta["settings"], meta.get("environment", {})
    lines = ["# SAT encodings and solvers, head to head", "",
             f"Reproduce: `{command(settings)}`", "",
             f"Machine: {env.get('cpu', '?')}, {env.get('cores', '?')} cores; "
             f"{settings['repeat']} repeat(s), timeout {settings['timeout']:g} s a run, "
             f"{settings['workers']} worker(s). Times are the backend's own (encoding, "
             f"loading, solving, cycle cuts), medians over repeats; a puzzle not finished "
             f"counts at the timeout in totals and medians. The full bench report with "
             f"every puzzle is `report.md` beside this file.", ""]
    for group in groups_of(meta):
        mine = sorted((r for r in table if r.group == group),
                      key=lambda r: (r.unfinished, r.total_s))
        if not mine:
            continue
        lines += [f"## {group} ({mine[0].puzzles} puzzles)", "",
                  *table_head("configuration", *FAMILIES, "solver", "propagate first",
                              "solved", "unsolvable",
                              "not finished", "variables", "clauses", "total ms",
                              "total CPU ms", "median ms", "worst ms (puzzle)")]
        lines += [row(r.config, *(str(r.choices[f]).lower() for f in FAMILIES),
                      r.choices["solver"], r.choices[FIRST], r.solved, r.unsolvable, r.unfinished,
                      number(r.variables), number(r.clauses), ms(r.total_s),
                      ms(r.total_cpu_s), ms(r.median_s),
                      f"{ms(r.worst_s)} ({r.worst})") for r in mine]
        lines.append("")
    lines += ["## What each choice is worth", "",
              "Pairs of configurations equal in every choice but one. Ratio: the geometric "
              "mean, over the puzzles both finished, of the second's time over the first's "
              "(below 1: the second is faster).", "",
              *table_head("set", "family", "from", "to", "ratio", "puzzles",
                          "not finished (from / to)", "pair")]
    for w in sorted(worth, key=lambda w: (w["group"], w["family"], str(w["from"]),
                                          str(w["to"]), w["with"])):
        ratio = "—" if w["ratio"] is None else f"{w['ratio']:.3g}"
        lines.append(row(w["group"], w["family"], str(w["from"]).lower(),
                         str(w["to"]).lower(), ratio, w["puzzles"],
                         f"{w['unfinished_from']} / {w['unfinished_to']}",
                         f"{w['with']} → {w['and']}"))
    return "\n".join(lines) + "\n"


DEFAULT_SOLVERS = ("cadical195", "glucose4", "minisat22")
SHARED = Path("../shared/puzzles")  # the puzzles of others, beside the working folder
SHARED_SETS = ("zucker", "numberlink")  # the 2016 set, Numberlink boards


def shared_sets() -> list[Path]:
    """The puzzle sets an experiment runs over when none is given: the shared ones there are
    (a UsageError when none is)."""
    found = [SHARED / name for name in SHARED_SETS if (SHARED / name).is_dir()]
    if not found:
        raise UsageError(f"give puzzle files or folders ({SHARED} is not here)")
    return found


def settings(paths: list[str], encodings: list[str] | None, solvers: list[str] | None,
             **options: Any):
    """The bench an experiment is: the SAT backend only, every encoding (default: every
    named one) with every solver, no 2016 rows of other backends."""
    from flowsat.bench.sweep import Settings
    from flowsat.sat.spec import builtin_specs

    return Settings(paths, backends=["sat"], encodings=encodings or sorted(builtin_specs()),
                    solvers=solvers or list(DEFAULT_SOLVERS), baselines=False, **options)


def command(settings: dict[str, Any]) -> str:
    """The `flowsat experiment` command that makes a folder's runs again."""
    if settings.get("plan"):
        return shlex.join(["flowsat", "experiment", "--plan", settings["plan"]])
    words = ["flowsat", "experiment", *settings["paths"],
             "--encodings", ",".join(settings["encodings"]),
             "--solvers", ",".join(settings["solvers"]), "--repeat", str(settings["repeat"]),
             "--timeout", f"{settings['timeout']:g}", "--workers", str(settings["workers"]),
             "--out", settings["out"]]
    words += ["--cluster", settings["cluster"]] if settings.get("cluster") else []
    words += ["--deduce", ",".join(settings["deduce"])] if settings.get("deduce") else []
    return shlex.join(words)
