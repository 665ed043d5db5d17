"""`report.md`, `report.html` and `report.csv` of a bench folder, and its plots."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from flowsat.atomic import make_folder, write_file
from flowsat.bench.competition import penalty_of, timeout_of
from flowsat.bench.growth import growth
from flowsat.bench.html import write_html
from flowsat.bench.markdown import ms, name_cell, number_2, ratio, row, table_head, times
from flowsat.bench.per_puzzle import (
    counters,
    orientations,
    per_puzzle_times,
    per_puzzle_work,
    reference_notes,
    size_of,
)
from flowsat.bench.records import read_meta, read_records
from flowsat.bench.reference import load_reference
from flowsat.bench.sheet import write_csv
from flowsat.bench.standings import groupings, standings
from flowsat.bench.summary import (
    INF,
    VIRTUAL_BEST,
    ConfigSummary,
    PuzzleRow,
    Table,
    X,
    median,
    tabulate,
    with_virtual_best,
)
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError

HARDEST = 5


def write_report(folder: Path, baseline: str | None = None, reference: Path | None = None,
                 plots: bool = True) -> list[Path]:
    """Write the report files of a bench folder; the paths written."""
    records = read_records(folder)
    if not records:
        raise UsageError(f"{folder}: no results.jsonl with records in it")
    meta = read_meta(folder)
    configs = [c["name"] for c in meta.get("configs", [])]
    wholes = [r for r in records if r.get("timing") == "set"]
    records = [r for r in records if r.get("timing") != "set"]
    table = tabulate(records, configs, baseline or meta.get("baseline"))
    known = [*table.configs, *dict.fromkeys(r["config"] for r in wholes)]
    if baseline and baseline not in known:
        raise UsageError(f"no configuration {baseline!r} in {folder}; "
                         f"choose from {', '.join(known)}")
    ref = load_reference(reference)
    timeout = timeout_of(meta, records)
    figures: list[Path] = []
    if plots and records:
        from flowsat.bench.plots import draw_plots

        figures = draw_plots(table, folder / "plots", timeout)
    md, sheet, page = folder / "report.md", folder / "report.csv", folder / "report.html"
    text = markdown(table, meta, records, ref, figures, folder, wholes,
                    baseline or meta.get("baseline"))
    write_file(md, text)
    write_csv(sheet, table, ref, penalty_of(timeout))
    write_html(page, text, folder)
    return [md, sheet, page, *figures]


def markdown(table: Table, meta: dict, records: list[dict], ref: dict, figures: list[Path],
             folder: Path, wholes: list[dict] | None = None, baseline: str | None = None
             ) -> str:
    """The report; `records` the runs of one puzzle each, `wholes` those of whole sets (their
    ratios against `baseline`'s run of the same set, else the table's baseline's)."""
    head = ["# flowsat bench report", "",
            "Reproduce (from the folder it was run in):", "",
            f"    {meta.get('command', 'flowsat bench ...')}", "",
            *machine(meta, records + (wholes or []))]
    sets = [*whole_sets(wholes or [], table, baseline or table.baseline),
            *growth(wholes or [])]
    if not records:
        return "\n".join([*head, *sets]) + "\n"
    summaries = [table.summary(c) for c in table.configs]
    timeout = timeout_of(meta, records)
    parts = [
        *head,
        *configurations(table, records), *summary(table, summaries),
        *sets,
        *standings(table, timeout), *groupings(table, timeout, meta),
        *by_machine(records, table), *agreement(table),
        *per_puzzle_times(table, ref), *per_puzzle_work(table, ref), *counters(table),
        *orientations(table, summaries), *reference_notes(table, ref),
        *hardest(table, folder if figures else None,
                 Rules(self_touch=meta.get("settings", {}).get("allow_self_touch", False))),
        *plots(figures, folder),
    ]
    return "\n".join(parts) + "\n"


def machine(meta: dict, records: list[dict]) -> list[str]:
    env, settings = meta.get("environment", {}), meta.get("settings", {})
    git = env.get("git") or {}
    commit = f"{git.get('commit', '?')[:12]}{' with uncommitted changes' * bool(git.get('dirty'))}"
    packages = ", ".join(f"{k} {v}" for k, v in env.get("packages", {}).items() if v)
    loads = [r["load"] for r in records if r.get("load") is not None]
    highest = max(loads, default=None)
    hosts = machines(records)  # loads against these cores: one machine only
    pool = f"on the Dask cluster `{settings['cluster']}` (the machine above is the one that " \
        f"recorded the runs)" if settings.get("cluster") else \
        f"{settings.get('workers', '?')} worker(s)"
    lines = [
        "## Machine and settings", "",
        f"- {env.get('cpu', '?')}, {env.get('cores', '?')} cores, "
        f"{env.get('memory_gib', '?')} GiB; {env.get('os', '?')}",
        f"- {env.get('python', '?')}; flowsat {env.get('flowsat', '?')} (commit {commit}); "
        f"{packages}",
        f"- started {env.get('date', '?')}; {len(meta.get('sessions', []))} session(s)",
        f"- load average (1 min) while running: median {number_2(median(loads))}, "
        f"highest {number_2(highest)}"
        + (" (above the number of cores: runs waited for a core, whoever's work it was)"
           if highest is not None and highest > (env.get("cores") or 1) and len(hosts) < 2
           else ""),
        f"- timeout {settings.get('timeout', '?')} s a run; {pool}; "
        f"self-touch {'allowed' if settings.get('allow_self_touch') else 'forbidden'}",
        "- time: the backend's own time to answer (`total_s`: encoding and solving; not the "
        "checker, not the worker's start, not a first warm-up solve of each configuration); "
        "per puzzle, the median over its repeats and orientations",
        *whole_process(records),
    ]
    if len(hosts) > 1:
        lines.append(f"- **runs on {len(hosts)} machines**: the tables below mix their times; "
                     f"*By machine* gives each machine's alone")
    elif hosts:
        host, first = next(iter(hosts.items()))
        lines.append(f"- runs on {host} ({first[0]['machine']})")
    workers, cores = settings.get("workers", 1), env.get("cores") or 1
    if workers > cores and not settings.get("cluster"):
        lines.append(f"- **warning**: {workers} workers on {cores} cores: runs competed for "
                     f"the cores, so these timings are not comparable with other runs")
    return [*lines, ""]


def whole_process(records: list[dict]) -> list[str]:
    """How solver programs' rows are timed, when there are some."""
    programs = sorted({r["config"] for r in records
                       if r.get("backend") == "program" and r.get("timing") != "set"})
    if not programs:
        return []
    return [f"- solver programs ({', '.join(f'`{c}`' for c in programs)}): the whole process, "
            "from its start to its exit (the puzzle written for it, its answer read; not the "
            "tracing and checking of the answer), so each pays its process start on every "
            "puzzle, where flowsat's own rows run in a warm worker. `program/flowsat` (when "
            "there) is `flowsat solve` run as such a program: flowsat timed the same way as "
            "the peers. CPU includes the program's."]


def whole_sets(wholes: list[dict], table: Table, baseline: str) -> list[str]:
    """The runs of whole sets in one process (`timing = "set"`), per set and configuration,
    their medians against the baseline's on the same set (when it ran it whole too), beside
    each per-puzzle configuration's sum over the same puzzles."""
    if not wholes:
        return []
    runs: dict[tuple[str, str], list[dict]] = {}
    for r in wholes:
        runs.setdefault((r["set"], r["config"]), []).append(r)
    lines = ["## Whole sets in one process", "",
             "Timing `set`: `flowsat solve` given every puzzle file of the set at once (a "
             "solver program: the set as one Numberlink file, its answers checked by "
             "flowsat), one process from its start to its exit (Python's start-up and "
             "imports paid once, what a user waits for); wall and CPU (the process's and its "
             "children's) medians over the repeats that answered every puzzle; ratios: "
             f"those medians over `{baseline}`'s on the same set, run in the same bench; "
             "load: the median load average (1 min) at the end of the runs; start-up: "
             "`flowsat solve` of an empty folder (a program: given no puzzle), timed the "
             "same way. Puzzles: the most answers of a run. One by one: the sum of each "
             "per-puzzle configuration's medians over the set's puzzles, when it finished "
             "them all.", "",
             *table_head("set", "configuration", "files", "puzzles", "runs",
                         "answers (all runs)",
                         "wall (ms)", "CPU (ms)", f"wall vs `{baseline}`",
                         f"CPU vs `{baseline}`", "load", "start-up wall (ms)",
                         "start-up CPU (ms)", "one by one (ms)")]
    for (name, config), mine in runs.items():
        answers = Counter()
        for r in mine:
            answers.update(r.get("answers") or {})
        wall, cpu = set_medians(mine)
        base = set_medians(runs.get((name, baseline), []))
        lines.append(row(name, f"`{config}`", len(mine[0].get("files", [])),
                         max(sum((r.get("answers") or {}).values()) for r in mine), len(mine),
                         ", ".join(f"{n} {s}" for s, n in answers.items()) or "—",
                         ms(wall), ms(cpu), ratio(wall, base[0]), ratio(cpu, base[1]),
                         number_2(median(r["load"] for r in mine
                                         if r.get("load") is not None)),
                         ms(median(r["startup_s"] for r in mine)),
                         ms(median(r["startup_cpu_s"] for r in mine)),
                         one_by_one(table, name)))
    return [*lines, ""]


def set_medians(runs: list[dict]) -> tuple[float | None, float | None]:
    """The median wall and CPU seconds of the set runs that answered every puzzle."""
    done = [r for r in runs if r["status"] == "solved"]
    return median(r["wall_s"] for r in done), median(r["cpu_s"] for r in done)


def one_by_one(table: Table, name: str) -> str:
    """Each per-puzzle configuration's sum of medians over a set, where it finished it all."""
    mine = [p for p in table.puzzles if p.info.get("set") == name]
    sums = [(c, sum(p.entries[c].median_s for p in mine)) for c in table.configs
            if mine and all(c in p.entries and p.entries[c].finished for p in mine)]
    return "; ".join(f"`{c}` {ms(s)}" for c, s in sums) or "—"


def configurations(table: Table, records: list[dict]) -> list[str]:
    first = {r["config"]: r for r in reversed(records)}
    lines = ["## Configurations", "",
             *table_head("configuration", "backend", "timing", "options")]
    for c in table.configs:
        options = first[c]["options"]
        lines.append(row(f"`{c}`", first[c]["backend"], timing(first[c]),
                         json.dumps(options) if options else "—"))
    return [*lines, "", "Timing: warm, inside a worker that has run the configuration once; "
            "process, a whole process a puzzle (start-up included); set (below), one process a "
            "whole set.",
            f"Ratios are against `{table.baseline}`, measured in the same run.", ""]


def timing(record: dict) -> str:
    """How a configuration was timed (records from before plans: a program's whole process)."""
    return record.get("timing") or ("process" if record["backend"] == "program" else "warm")


def summary(table: Table, summaries: list[ConfigSummary]) -> list[str]:
    runs = sum(len(e.runs) for p in table.puzzles for e in p.entries.values())
    lines = [
        "## Summary", "",
        f"{len(table.puzzles)} puzzles, {runs} runs. Total: the sum of median times over the "
        f"{len(table.common)} puzzles every configuration finished; CPU: the same in the "
        f"worker's CPU time (checker included), which waiting for a core does not inflate. "
        f"Speed-up: the geometric "
        f"mean over the puzzles both finished of `{table.baseline}`'s time over this one's. "
        f"Solved and unsolvable count puzzles; timeouts, errors and wrong answers count runs.",
        "",
        *table_head("configuration", "solved", "unsolvable", "timeouts / limits", "errors",
                    "wrong",
                    "total (ms)", "CPU (ms)", "worst (ms)", f"speed-up vs `{table.baseline}`",
                    "wins"),
    ]
    lines += [summary_row(table, s) for s in summaries]
    if len(table.configs) > 1:
        virtual = with_virtual_best(table)
        lines.append(summary_row(virtual, virtual.summary(VIRTUAL_BEST)))
        lines += ["", f"The {VIRTUAL_BEST}: on each puzzle, the runs of the fastest "
                      "configuration on it (*Competition* below)."]
    return [*lines, "", *gave_up(table)]


def summary_row(table: Table, s: ConfigSummary) -> str:
    runs_by = sum((p.entries[s.name].statuses for p in table.puzzles if s.name in p.entries),
                  Counter())
    worst = "—" if not s.worst else f"{ms(s.worst[1])} ({s.worst[0]})" \
        if s.worst[1] < INF else f"unfinished ({s.worst[0]})"
    return row(name_cell(s.name), s.statuses["solved"], s.statuses["unsolvable"],
               runs_by["timeout"] + runs_by["limit"], runs_by["error"], runs_by["wrong"],
               ms(s.total_s), ms(s.total_cpu_s), worst, times(s.speedup),
               "—" if s.name == VIRTUAL_BEST else s.wins)


def gave_up(table: Table) -> list[str]:
    """Why solver programs gave up (`UNKNOWN`: status limit), counted by reason."""
    reasons = Counter((r["config"], r["error"]) for p in table.puzzles
                      for e in p.entries.values() for r in e.runs
                      if r["status"] == "limit" and r.get("backend") == "program")
    if not reasons:
        return []
    return ["Solver programs that gave up (`UNKNOWN`, counted as limits), runs by reason:", "",
            *(f"- `{c}`: {n}{X} {why}" for (c, why), n in reasons.most_common()), ""]


def machines(records: list[dict]) -> dict[str, list[dict]]:
    """The runs of each host, of those that name one (not runs lost with their cluster
    worker, nor those recorded before runs named their host)."""
    found: dict[str, list[dict]] = {}
    for r in records:
        if r.get("host"):
            found.setdefault(r["host"], []).append(r)
    return found


def by_machine(records: list[dict], table: Table) -> list[str]:
    """With runs on several machines, the summary of each machine's runs alone: its totals
    and its speed-ups against the baseline, ratios that never compare two machines."""
    hosts = machines(records)
    if len(hosts) < 2:
        return []
    lines = ["## By machine", "",
             f"The runs ran on {len(hosts)} machines; the tables above take each puzzle's "
             f"median over runs from all of them. Here each machine's runs alone: its total "
             f"over the puzzles every configuration finished there, and speed-ups against "
             f"`{table.baseline}` measured there.", ""]
    for host, mine in hosts.items():
        here = tabulate(mine, table.configs, table.baseline)
        loads = [r["load"] for r in mine if r.get("load") is not None]
        lines += [f"### {host} ({mine[0]['machine']})", "",
                  f"{len(mine)} runs, {len(here.common)} puzzles every configuration "
                  f"finished here; load average (1 min) median {number_2(median(loads))}, "
                  f"highest {number_2(max(loads, default=None))}.", "",
                  *table_head("configuration", "runs", "total (ms)", "CPU (ms)",
                              f"speed-up vs `{here.baseline}`")]
        for s in map(here.summary, here.configs):
            runs = sum(len(p.entries[s.name].runs) for p in here.puzzles if s.name in p.entries)
            lines.append(row(f"`{s.name}`", runs, ms(s.total_s), ms(s.total_cpu_s),
                             times(s.speedup)))
        lines.append("")
    return lines


def agreement(table: Table) -> list[str]:
    lines = ["## Agreement", "", *wrong_answers(table)]
    split = [p for p in table.puzzles if p.disagrees]
    if not split:
        return [*lines, "Every configuration that finished a puzzle gave the same answer "
                        "(solved or unsolvable), in every orientation.", ""]
    lines.append("**The configurations disagree** (solved vs unsolvable): a bug, or a solver "
                 "program's wrong verdict.")
    for p in split:
        said = "; ".join(f"`{c}`: {', '.join(sorted(a))}" for c, a in p.answers.items() if a)
        lines.append(f"- {p.label}: {said}")
    return [*lines, ""]


def wrong_answers(table: Table) -> list[str]:
    """The solver programs' boards that were no solution, with the first reason each."""
    found = [(p, c, next(r["error"] for r in e.runs if r["status"] == "wrong"))
             for p in table.puzzles for c, e in p.entries.items() if e.statuses["wrong"]]
    if not found:
        return []
    lines = ["**Wrong answers**: boards from solver programs that are no solution (the "
             "checker's or the tracing's reason); they never count as solved."]
    lines += [f"- {p.label}: `{c}`: {reason}" for p, c, reason in found]
    return [*lines, ""]


def hardest(table: Table, folder: Path | None, rules: Rules) -> list[str]:
    """The puzzles that took their winner longest, with small pictures of their solutions
    when `folder` is given (solved again by the default SAT route, checked, under the rules
    of the puzzle's set, else `rules`)."""
    ranked = sorted((p for p in table.puzzles if p.winner),
                    key=lambda p: p.entries[p.winner].median_s, reverse=True)[:HARDEST]
    lines = ["## Hardest puzzles", "",
             "By the time of the fastest configuration on each.", ""]
    lines += [f"{n}. {p.label} ({size_of(p.info)}): "
              f"{ms(p.entries[p.winner].median_s)} ms by `{p.winner}`"
              for n, p in enumerate(ranked, 1)]
    if folder:
        pictures = [(p, picture(p, folder / "plots" / f"hardest-{n}.svg",
                                Rules(**p.info["rules"]) if p.info.get("rules") else rules))
                    for n, p in enumerate(ranked, 1)]
        lines += ["", *(f"![{p.label}]({path.relative_to(folder)})"
                        for p, path in pictures if path)]
    return [*lines, ""]


def picture(row: PuzzleRow, path: Path, rules: Rules) -> Path | None:
    """A small SVG of the puzzle of a row, solved; None when its file is no longer there."""
    from flowsat.puzzle import Puzzle, read_puzzles
    from flowsat.render.svg import svg
    from flowsat.solve import solve

    puzzle = next((x for x in read_puzzles(row.info["file"])
                   if isinstance(x, Puzzle) and x.index == row.info["index"]), None)
    if puzzle is None:
        return None
    result = solve(puzzle, rules=rules, timeout=10)
    make_folder(path.parent)
    return write_file(path, svg(puzzle, result.paths, cell=max(4, 240 / max(puzzle.height,
                                                                           puzzle.width))))


def plots(figures: list[Path], folder: Path) -> list[str]:
    if not figures:
        return []
    lines = ["## Plots", "",
             "The cactus plot counts the puzzles each configuration finished within a time; "
             "in the pairs, a puzzle one of the two did not finish sits on the dotted edge; "
             "the other plots leave out the puzzles a configuration did not finish."]
    for f in figures:
        lines += ["", f"![{f.stem}]({f.relative_to(folder).as_posix()})"]
    return [*lines, ""]


