"""The report's sections puzzle by puzzle: times, the size of the work, each backend's
counters, orientations, and the 2016 reference."""

from __future__ import annotations

from collections import Counter

from flowsat.bench.markdown import ms, number, row, table_head, times
from flowsat.bench.reference import reference_row
from flowsat.bench.summary import FINISHED, ConfigSummary, Entry, PuzzleRow, Table, X

REFERENCE_TIME = "c_s_here"  # the 2016 C program's seconds, measured on this machine class
REFERENCE_SIZE = ("sat2016_vars", "sat2016_clauses_before_cycle_cuts", "c_nodes_here")


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
