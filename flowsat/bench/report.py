"""`report.md`, `report.html` and `report.csv` of a bench folder, and its plots."""

from __future__ import annotations

import csv
import io
import json
import math
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from flowsat.atomic import make_folder, write_file
from flowsat.bench.competition import (
    DEFAULT_GROUPS,
    PENALTY,
    Score,
    contributions,
    grouped_scores,
    penalty_of,
    rank_key,
    ranking,
    rule_label,
    score,
    timeout_of,
)
from flowsat.bench.html import write_html
from flowsat.bench.records import read_meta, read_records
from flowsat.bench.reference import load_reference, reference_row
from flowsat.bench.summary import (
    FINISHED,
    INF,
    VIRTUAL_BEST,
    ConfigSummary,
    Entry,
    PuzzleRow,
    Table,
    X,
    median,
    seconds,
    tabulate,
    with_virtual_best,
)
from flowsat.puzzle.rules import Rules
from flowsat.result import STATUSES, UsageError

STATS = ("variables", "clauses", "cycle_cuts", "conflicts", "nodes")
REFERENCE_TIME = "c_s_here"  # the 2016 C program's seconds, measured on this machine class
REFERENCE_SIZE = ("sat2016_vars", "sat2016_clauses_before_cycle_cuts", "c_nodes_here")
HARDEST = 5
GROUP_COLUMNS = 6  # configurations shown in the tables by size, kind...


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


def ms(seconds: float | None) -> str:
    """Milliseconds, three significant digits; an endless time is a dash."""
    if seconds is None or seconds == INF:
        return "—"
    value = seconds * 1000
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


def times(x: float | None) -> str:
    return "—" if x is None else f"{X}{x:.2f}"


def number(x: float | None) -> str:
    return "—" if x is None else f"{x:,.0f}" if x == int(x) else f"{x:,.1f}"


def row(*cells: Any) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def table_head(*cells: str) -> list[str]:
    return [row(*cells), row(*["---"] * len(cells))]


def markdown(table: Table, meta: dict, records: list[dict], ref: dict, figures: list[Path],
             folder: Path, wholes: list[dict] | None = None, baseline: str | None = None
             ) -> str:
    """The report; `records` the runs of one puzzle each, `wholes` those of whole sets (their
    ratios against `baseline`'s run of the same set, else the table's baseline's)."""
    head = ["# flowsat bench report", "",
            "Reproduce (from the folder it was run in):", "",
            f"    {meta.get('command', 'flowsat bench ...')}", "",
            *machine(meta, records + (wholes or []))]
    sets = whole_sets(wholes or [], table, baseline or table.baseline)
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


def ratio(mine: float | None, base: float | None) -> str:
    """A time over the baseline's, as the report writes ratios."""
    return times(mine / base) if mine is not None and base else "—"


def one_by_one(table: Table, name: str) -> str:
    """Each per-puzzle configuration's sum of medians over a set, where it finished it all."""
    mine = [p for p in table.puzzles if p.info.get("set") == name]
    sums = [(c, sum(p.entries[c].median_s for p in mine)) for c in table.configs
            if mine and all(c in p.entries and p.entries[c].finished for p in mine)]
    return "; ".join(f"`{c}` {ms(s)}" for c, s in sums) or "—"


def number_2(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


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


def name_cell(name: str) -> str:
    """A configuration's name as code; the virtual best in bold, being none."""
    return f"**{name}**" if name == VIRTUAL_BEST else f"`{name}`"


def seconds_cell(x: float) -> str:
    """Seconds, three significant digits; an endless time (the penalty unknown) a dash."""
    return "—" if x == INF else f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def penalty_note(timeout: float | None) -> str:
    if timeout is None:
        return ("The run's timeout is not known (not in `meta.json` nor in the records), so "
                "a configuration that left a puzzle unfinished has no PAR-2 (—).")
    return f"Timeout {timeout:g} s: an unfinished puzzle costs {PENALTY * timeout:g} s."


def standings(table: Table, timeout: float | None) -> list[str]:
    """The ranking of a solver competition: PAR-2, and the virtual best with each
    configuration's share of it."""
    penalty = penalty_of(timeout)
    shares = {c.name: c for c in contributions(table, penalty)}
    lines = [
        "## Competition", "",
        f"PAR-2: the sum over the {len(table.puzzles)} puzzles of the configuration's median "
        f"time on each it finished and twice the timeout on each it did not (timeout, limit, "
        f"error, wrong answer, not run); mean: the same a puzzle. Ranked by puzzles finished, "
        f"then PAR-2. {penalty_note(timeout)} The {VIRTUAL_BEST} (VBS) takes on each puzzle "
        f"the fastest configuration that finished it; alone fastest: the puzzles where the "
        f"configuration is faster than every other; alone finished: those no other finished; "
        f"VBS loss: how much the VBS's PAR-2 grows without it.", "",
        *table_head("rank", "configuration", "finished", "PAR-2 (s)", "mean (s)",
                    "alone fastest", "alone finished", "VBS loss (s)")]
    for n, s in enumerate(ranking(table, penalty), 1):
        c = shares[s.name]
        lines.append(row(n, name_cell(s.name), s.solved, seconds_cell(s.par2),
                         seconds_cell(s.mean), c.fastest, c.only, seconds_cell(c.loss)))
    if len(table.configs) > 1:
        vbs = score(table.puzzles, table.configs, penalty, VIRTUAL_BEST)
        lines.append(row("", name_cell(VIRTUAL_BEST), vbs.solved, seconds_cell(vbs.par2),
                         seconds_cell(vbs.mean), "", "", ""))
    return [*lines, ""]


def groupings(table: Table, timeout: float | None, meta: dict) -> list[str]:
    """The tables of groups a plan asks for (`group_by`); else by set when the records name
    sets, by rule when they ran under several, by size and by kind."""
    given = meta.get("settings", {}).get("groups")
    sets = any(p.info.get("set") for p in table.puzzles)
    rules = len({rule_label(p.info.get("rules")) for p in table.puzzles}) > 1
    tables = [tuple(keys) for keys in given] if given else (
        (("set",),) * sets + (("rule",),) * rules + DEFAULT_GROUPS)
    return [line for keys in tables for line in group_table(table, keys, timeout, meta)]


def group_table(table: Table, keys: tuple[str, ...], timeout: float | None,
                meta: dict) -> list[str]:
    """One table of puzzles grouped by `keys` (see competition.GROUPS): per group the VBS and
    the leading configurations, each as puzzles finished · PAR-2 (s), and the group's best."""
    penalty = penalty_of(timeout)
    shown = [s.name for s in ranking(table, penalty)][:GROUP_COLUMNS]
    rules = {"rules": {"self_touch": bool(meta.get("settings", {}).get("allow_self_touch"))}}
    groups = grouped_scores(table, keys, penalty, rules)
    title = " and ".join(keys)
    which = "every configuration" if len(shown) == len(table.configs) else \
        f"the {len(shown)} configurations ranked first in *Competition*"
    lines = [f"## By {title}", "",
             f"Per group of puzzles: finished · PAR-2 (s) of the {VIRTUAL_BEST} and of {which}; "
             f"best: the group's first by the same ranking, of every configuration.", "",
             *table_head(title, "puzzles", VIRTUAL_BEST, *(f"`{c}`" for c in shown), "best")]
    for group, scores, vbs in groups:
        mine = {s.name: s for s in scores}
        best = min(scores, key=rank_key)
        lines.append(row(group.label, len(group.puzzles), standing(vbs),
                         *(standing(mine[c]) for c in shown), f"`{best.name}`"))
    return [*lines, ""]


def standing(s: Score) -> str:
    return f"{s.solved} · {seconds_cell(s.par2)}"


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


def answer(p: PuzzleRow) -> str:
    found = set().union(*p.answers.values())
    return "**DISAGREE**" if p.disagrees else next(iter(found)) if found else "—"


def time_cell(e: Entry | None, winner: bool) -> str:
    if e is None:
        return ""
    if not e.finished:
        return e.status if e.status != "mixed" else unfinished(e)
    value = f"**{ms(e.median_s)}**" if winner else ms(e.median_s)
    return f"{value} ({unfinished(e)})" if e.status == "mixed" else value


def unfinished(e: Entry) -> str:
    return ", ".join(f"{n} {s}" for s, n in e.statuses.items() if s not in FINISHED)


def per_puzzle_times(table: Table, ref: dict) -> list[str]:
    extra = ["2016 C (ms)"] if any(reference_row(ref, p.info) for p in table.puzzles) else []
    lines = ["## Per puzzle: median time (ms)", "",
             f"The winner in bold; {X}: how many times faster it is than the runner-up. "
             "2016 C: the 2016 C program's time measured on this machine class "
             "(`zucker2016.csv`, `c_s_here`).", "",
             *table_head("puzzle", "size", "colors", "answer", *table.configs, "winner", X,
                         *extra)]
    for p in table.puzzles:
        r = reference_row(ref, p.info)
        cells = [time_cell(p.entries.get(c), c == p.winner) for c in table.configs]
        refs = [ms(figure(r, REFERENCE_TIME)) if r else ""] if extra else []
        lines.append(row(p.label, size_of(p.info), p.info["colors"],
                         answer(p), *cells, f"`{p.winner}`" if p.winner else "—",
                         times(p.ratio), *refs))
    return [*lines, ""]


def size_of(info: dict) -> str:
    """A puzzle's size, with its kind when the board is not plain square (7x7 hex+holes)."""
    kind = info.get("kind", "square")
    return f"{info['cols']}{X}{info['rows']}" + ("" if kind == "square" else f" {kind}")


def work_columns(table: Table) -> list[tuple[str, list[str]]]:
    """Columns of work per puzzle: variables/clauses per SAT encoding (they do not depend on
    the solver), nodes per configuration that counts nodes."""
    columns: dict[str, list[str]] = {}
    for c in table.configs:
        entries = [p.entries[c] for p in table.puzzles if c in p.entries]
        if any(e.stat("nodes") is not None for e in entries):
            columns[f"`{c}` nodes"] = [c]
        elif any(e.stat("variables") is not None for e in entries):
            encoding = entries[0].runs[0]["options"].get("encoding", c)
            columns.setdefault(f"{encoding}: variables / clauses", []).append(c)
    return list(columns.items())


def work_cell(p: PuzzleRow, names: list[str]) -> str:
    for e in filter(None, map(p.entries.get, names)):
        if (nodes := e.stat("nodes")) is not None:
            return number(nodes)
        if e.stat("variables") is not None:
            return f"{number(e.stat('variables'))} / {number(e.stat('clauses'))}"
    return "—"


def per_puzzle_work(table: Table, ref: dict) -> list[str]:
    columns = work_columns(table)
    has_ref = any(reference_row(ref, p.info) for p in table.puzzles)
    extra = ["2016 SAT variables / clauses", "2016 C nodes"] if has_ref else []
    lines = ["## Per puzzle: size of the work (medians)", "",
             *table_head("puzzle", *(label for label, _ in columns), *extra)]
    for p in table.puzzles:
        r = reference_row(ref, p.info)
        refs = [f"{number(figure(r, REFERENCE_SIZE[0]))} / "
                f"{number(figure(r, REFERENCE_SIZE[1]))}",
                number(figure(r, REFERENCE_SIZE[2]))] if r else ["", ""]
        lines.append(row(p.label, *(work_cell(p, names) for _, names in columns),
                         *refs[:len(extra)]))
    return [*lines, ""]


def counted(e: Entry) -> dict[str, float]:
    """The numeric stats of a configuration's runs on a puzzle, each its median over them."""
    names = dict.fromkeys(k for r in e.runs for k, v in r["stats"].items()
                          if isinstance(v, int | float) and not isinstance(v, bool))
    return {k: v for k in names if (v := e.stat(k)) is not None}


def counters(table: Table) -> list[str]:
    """Each backend's own counters and stage times summed per configuration, over the puzzles
    every configuration of that backend finished: the work done, not the clock's time."""
    lines = []
    for backend in dict.fromkeys(p.entries[c].runs[0]["backend"] for p in table.puzzles
                                 for c in table.configs if c in p.entries):
        mine = [c for c in table.configs if any(
            c in p.entries and p.entries[c].runs[0]["backend"] == backend
            for p in table.puzzles)]
        common = [p for p in table.puzzles
                  if all(c in p.entries and p.entries[c].finished for c in mine)]
        sums = {c: Counter() for c in mine}
        for p in common:
            for c in mine:
                sums[c].update(counted(p.entries[c]))
        names = list(dict.fromkeys(k for c in mine for k in sums[c] if k != "total_s"))
        if not names:
            continue
        lines += [f"## The {backend} backend's own counters", "",
                  f"Summed over the {len(common)} puzzles every {backend} configuration "
                  f"finished (per puzzle the median over its runs); `_s`: seconds of a stage "
                  f"(ms here).", "",
                  *table_head("configuration", *names),
                  *(row(f"`{c}`", *(counter_cell(k, sums[c].get(k)) for k in names))
                    for c in mine), ""]
    return lines


def counter_cell(name: str, value: float | None) -> str:
    return ms(value) if name.endswith("_s") else number(value)


def figure(ref: dict[str, str], column: str) -> float | None:
    """A number of the 2016 table; None where it has none."""
    return float(ref[column]) if ref.get(column) else None


def sensitivity(s: ConfigSummary) -> str:
    """Whether the orientation matters: by the work count where there is one (deterministic),
    else by the time spread over the clock's noise."""
    if s.count_spread:
        x, no = s.count_spread[0], "no"
    elif s.time_spread and s.noise:
        x, no = s.time_spread[0] / s.noise, "not above the noise"
    else:
        return "—"
    return "yes" if x >= 1.5 else "slightly" if x >= 1.1 else no


def orientations(table: Table, summaries: list[ConfigSummary]) -> list[str]:
    if not table.symmetries:
        return []
    lines = [
        "## Rotations and reflections", "",
        "Each puzzle was run in its 8 orientations. Spread: for one puzzle, the largest of the "
        f"8 orientations' medians over the smallest ({X}1.00: the orientation makes no "
        "difference); the table gives the median over puzzles and the worst puzzle. Noise: the "
        "same over repeats of one orientation, what the clock alone varies. Counts are taken "
        "plus one, so that none is zero. Sensitive: "
        f"median spread of the work count {X}1.5 or more (slightly: {X}1.1), or of the time over "
        "the noise where nothing is counted.", "",
        *table_head("configuration", "time spread", "worst", "noise", "count",
                    "count spread", "worst", "sensitive"),
    ]
    for s in summaries:
        t, c = s.time_spread, s.count_spread
        lines.append(row(f"`{s.name}`", times(t and t[0]), f"{times(t[2])} {t[1]}" if t else "—",
                         times(s.noise), s.count_name or "—", times(c and c[0]),
                         f"{times(c[2])} {c[1]}" if c else "—", sensitivity(s)))
    return [*lines, ""]


def reference_notes(table: Table, ref: dict) -> list[str]:
    """Each configuration's total over the 2016 puzzles beside the 2016 C program's, and
    whether the 2016 encoding's sizes equal the 2016 program's, puzzle by puzzle."""
    rows = [(p, r) for p in table.puzzles if (r := reference_row(ref, p.info))]
    if not rows:
        return []
    c_total = sum(figure(r, REFERENCE_TIME) or 0 for _, r in rows)
    lines = ["## The 2016 reference", "",
             f"Totals over the {len(rows)} puzzles of the 2016 set, beside the 2016 C "
             f"program's on this machine class ({ms(c_total)} ms, `c_s_here`):", ""]
    for c in table.configs:
        mine = [(p.entries[c], r) for p, r in rows if c in p.entries]
        done = [e.median_s for e, _ in mine if e.finished]
        line = f"- `{c}`: {ms(sum(done))} ms over the {len(done)} it finished"
        sizes = [(e.stat("variables"), e.stat("clauses")) ==
                 (figure(r, REFERENCE_SIZE[0]), figure(r, REFERENCE_SIZE[1]))
                 for e, r in mine if e.runs[0]["options"].get("encoding") == "zucker2016"]
        if sizes:
            line += (f"; variables and clauses equal the 2016 program's on {sum(sizes)} of "
                     f"{len(sizes)}")
        lines.append(line + fewer_nodes(mine))
    return [*lines, ""]


def fewer_nodes(mine: list[tuple[Entry, dict[str, str]]]) -> str:
    """A search configuration's nodes beside the 2016 C program's on the puzzles both
    finished (its count here, `c_nodes_here`)."""
    both = [(nodes, c) for e, r in mine if e.finished and (nodes := e.stat("nodes")) is not None
            and (c := figure(r, REFERENCE_SIZE[2])) is not None]
    if not both:
        return ""
    return (f"; {number(sum(n for n, _ in both))} nodes against the 2016 C program's "
            f"{number(sum(c for _, c in both))} on the {len(both)} both finished, no more "
            f"than it on {sum(n <= c for n, c in both)}")


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


def csv_rows(table: Table, ref: dict, penalty: float) -> Iterator[dict[str, Any]]:
    for p in table.puzzles:
        r = reference_row(ref, p.info) or {}
        base = p.entries.get(table.baseline)
        for c in table.configs:
            e = p.entries.get(c)
            if e is None:
                continue
            times_s = [seconds(run) for run in e.runs]
            yield {
                "file": p.info["file"], "index": p.info["index"], "puzzle": p.label,
                "rows": p.info["rows"], "cols": p.info["cols"],
                "kind": p.info.get("kind", "square"), "colors": p.info["colors"],
                "config": c, "backend": e.runs[0]["backend"],
                "options": json.dumps(e.runs[0]["options"]), "runs": len(e.runs),
                "status": e.status, **{s: e.statuses[s] for s in STATUSES},
                "median_s": e.median_s, "min_s": min(times_s), "max_s": max(times_s),
                "median_cpu_s": e.median_cpu_s,
                "par2_s": e.median_s if e.finished else None if penalty == INF else penalty,
                "winner": int(c == p.winner), "ratio_to_runner_up":
                    p.ratio if c == p.winner else None,
                "speedup_vs_baseline": base.median_s / e.median_s
                    if base and base.finished and e.finished and e.median_s > 0 else None,
                **{k: e.stat(k) for k in STATS},
                "time_spread": e.time_spread, "count_spread": e.count_spread,
                **{f"ref_{k}": v for k, v in r.items() if k != "puzzle"},
            }


def write_csv(path: Path, table: Table, ref: dict, penalty: float) -> None:
    rows = list(csv_rows(table, ref, penalty))
    names = list(dict.fromkeys(k for r in rows for k in r))
    text = io.StringIO()
    out = csv.DictWriter(text, names)
    out.writeheader()
    out.writerows({k: tidy(v) for k, v in r.items()} for r in rows)
    write_file(path, text.getvalue())


def tidy(value: Any) -> Any:
    """A value for the CSV: nothing for None, whole numbers without a point, 9 digits."""
    if isinstance(value, float) and math.isfinite(value):
        value = float(f"{value:.9g}")
        return int(value) if value.is_integer() else value
    return "" if value is None else value
