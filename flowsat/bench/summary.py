"""The numbers of a report: per puzzle and configuration, medians over repeats and orientations,
winners, ratios against a baseline of the same run, and spreads across orientations."""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

FINISHED = ("solved", "unsolvable")
COUNTS = ("nodes", "conflicts")  # deterministic measures of work; the first a backend reports
INF = math.inf
X = "\u00d7"  # the multiplication sign of ratios and board sizes
VIRTUAL_BEST = "virtual best"  # the fastest configuration on each puzzle, a configuration of none
Record = dict[str, Any]


def seconds(record: Record) -> float:
    """A run's time: the backend's own; a run that did not finish counts as endless."""
    finished = record["status"] in FINISHED and record.get("time_s") is not None
    return record["time_s"] if finished else INF


def spread(values: Iterable[float]) -> float | None:
    """Largest over smallest (1 when all are equal); None when undefined (an endless one)."""
    values = list(values)
    if len(values) < 2 or max(values) == INF:
        return None
    low, high = min(values), max(values)
    return 1.0 if low == high else high / low if low > 0 else None


def median(values: Iterable[float]) -> float | None:
    values = list(values)
    return statistics.median(values) if values else None


@dataclass
class Entry:
    """The runs of one configuration on one puzzle: every repeat in every orientation."""

    runs: list[Record]

    @cached_property
    def median_s(self) -> float:
        return statistics.median(seconds(r) for r in self.runs)

    @property
    def median_cpu_s(self) -> float | None:
        """The median CPU time of the worker over the runs that finished."""
        return median(r["cpu_s"] for r in self.runs
                      if r["status"] in FINISHED and r.get("cpu_s") is not None)

    @property
    def finished(self) -> bool:
        return self.median_s < INF

    @property
    def statuses(self) -> Counter[str]:
        return Counter(r["status"] for r in self.runs)

    @property
    def status(self) -> str:
        """The status all runs share, or `mixed`."""
        kinds = list(self.statuses)
        return kinds[0] if len(kinds) == 1 else "mixed"

    def stat(self, name: str) -> float | None:
        """The median of one of the backend's stats over the runs that report it."""
        return median(r["stats"][name] for r in self.runs if name in r["stats"])

    @cached_property
    def count_name(self) -> str | None:
        return next((k for k in COUNTS if any(k in r["stats"] for r in self.runs)), None)

    def by_orientation(self, value: Callable[[Record], float]) -> dict[str, float]:
        groups: dict[str, list[float]] = defaultdict(list)
        for r in self.runs:
            groups[r["symmetry"]].append(value(r))
        return {s: statistics.median(v) for s, v in groups.items()}

    @property
    def time_spread(self) -> float | None:
        """How much the orientation changes the median time."""
        return spread(self.by_orientation(seconds).values())

    @property
    def count_spread(self) -> float | None:
        """How much the orientation changes the work count (nodes, conflicts), each count
        plus one so that a count of none still compares."""
        name = self.count_name
        return spread(self.by_orientation(lambda r: r["stats"].get(name, INF) + 1).values()) \
            if name else None

    @property
    def noise(self) -> float | None:
        """How much the time varies between repeats of one orientation: the clock's noise."""
        groups: dict[str, list[float]] = defaultdict(list)
        for r in self.runs:
            groups[r["symmetry"]].append(seconds(r))
        return median(s for s in map(spread, groups.values()) if s is not None)


@dataclass
class PuzzleRow:
    """One puzzle: what it is and each configuration's entry."""

    info: Record
    label: str
    entries: dict[str, Entry] = field(default_factory=dict)

    @property
    def cells(self) -> int:
        return self.info["rows"] * self.info["cols"]

    @property
    def ranking(self) -> list[tuple[str, float]]:
        """The configurations that finished, fastest first."""
        return sorted(((n, e.median_s) for n, e in self.entries.items() if e.finished),
                      key=lambda x: x[1])

    @property
    def winner(self) -> str | None:
        return self.ranking[0][0] if self.ranking else None

    @property
    def ratio(self) -> float | None:
        """How many times faster the winner is than the runner-up."""
        ranking = self.ranking
        return ranking[1][1] / ranking[0][1] if len(ranking) > 1 and ranking[0][1] > 0 else None

    @property
    def answers(self) -> dict[str, set[str]]:
        """Each configuration's finished answers (solved, unsolvable) over all its runs."""
        return {n: {r["status"] for r in e.runs} & set(FINISHED) for n, e in self.entries.items()}

    @property
    def disagrees(self) -> bool:
        return set().union(*self.answers.values()) == set(FINISHED)


@dataclass
class ConfigSummary:
    """One configuration over all puzzles."""

    name: str
    statuses: Counter[str]
    total_s: float
    total_cpu_s: float
    worst: tuple[str, float] | None
    speedup: float | None
    wins: int
    time_spread: tuple[float, str, float] | None  # median over puzzles, worst puzzle, worst
    count_spread: tuple[float, str, float] | None
    count_name: str | None
    noise: float | None


@dataclass
class Table:
    puzzles: list[PuzzleRow]
    configs: list[str]
    baseline: str

    @cached_property
    def common(self) -> list[PuzzleRow]:
        """The puzzles every configuration finished: the ones totals can be compared on."""
        return [p for p in self.puzzles
                if all(c in p.entries and p.entries[c].finished for c in self.configs)]

    @property
    def symmetries(self) -> bool:
        return any(len(e.by_orientation(seconds)) > 1 for p in self.puzzles
                   for e in p.entries.values())

    def summary(self, name: str) -> ConfigSummary:
        mine = [(p, p.entries[name]) for p in self.puzzles if name in p.entries]
        worst = max(((p.label, e.median_s) for p, e in mine), key=lambda x: x[1], default=None)
        return ConfigSummary(
            name=name, statuses=Counter(e.status for _, e in mine),
            total_s=sum(p.entries[name].median_s for p in self.common),
            total_cpu_s=sum(p.entries[name].median_cpu_s or 0 for p in self.common),
            worst=worst, speedup=self.speedup(name),
            wins=sum(p.winner == name for p in self.puzzles),
            time_spread=spread_summary((p.label, e.time_spread) for p, e in mine),
            count_spread=spread_summary((p.label, e.count_spread) for p, e in mine),
            count_name=next((e.count_name for _, e in mine if e.count_name), None),
            noise=median(x for _, e in mine if (x := e.noise) is not None))

    def speedup(self, name: str) -> float | None:
        """The geometric mean over the puzzles both finished of the baseline's time over this
        configuration's (above 1: faster than the baseline)."""
        logs = [math.log(b.median_s / e.median_s) for p in self.puzzles
                if (e := p.entries.get(name)) and (b := p.entries.get(self.baseline))
                and e.finished and b.finished and e.median_s > 0 and b.median_s > 0]
        return math.exp(sum(logs) / len(logs)) if logs else None


def fastest_entry(p: PuzzleRow, names: Iterable[str]) -> Entry | None:
    """The entry of the fastest of the configurations on a puzzle (the first when none
    finished); None when none of them ran it."""
    return min(filter(None, map(p.entries.get, names)), key=lambda e: e.median_s, default=None)


def with_virtual_best(table: Table) -> Table:
    """The table with the virtual best solver beside the configurations: on each puzzle, the
    runs of the fastest configuration that finished it."""
    rows = [PuzzleRow(p.info, p.label, {**p.entries, VIRTUAL_BEST: best}
                      if (best := fastest_entry(p, table.configs)) else dict(p.entries))
            for p in table.puzzles]
    return Table(rows, [*table.configs, VIRTUAL_BEST], table.baseline)


def spread_summary(spreads: Iterable[tuple[str, float | None]]
                   ) -> tuple[float, str, float] | None:
    """The median spread over puzzles, and the puzzle with the largest."""
    known = [(label, s) for label, s in spreads if s is not None]
    if not known:
        return None
    label, worst = max(known, key=lambda x: x[1])
    return statistics.median(s for _, s in known), label, worst


def tabulate(records: list[Record], configs: list[str] | None = None,
             baseline: str | None = None) -> Table:
    """The records grouped by puzzle in its set (in the order first run) and configuration: a
    puzzle in two sets of a plan (under two rules) is two rows."""
    rows: dict[tuple[str | None, str, int], PuzzleRow] = {}
    for r in records:
        row = rows.setdefault((r.get("set"), r["file"], r["index"]), PuzzleRow(r, ""))
        row.entries.setdefault(r["config"], Entry([])).runs.append(r)
    seen = {r["config"] for r in records}
    order = [c for c in dict.fromkeys([*(configs or []), *(r["config"] for r in records)])
             if c in seen]
    for row, label in zip(rows.values(), labels([p.info for p in rows.values()]), strict=True):
        row.label = label
    base = baseline if baseline in order else order[0] if order else ""
    return Table(list(rows.values()), order, base)


def labels(infos: list[Record]) -> list[str]:
    """Short puzzle names (the file's name, `#index` in a Numberlink file), full on clashes;
    a puzzle in several sets named with its set (`SET: name`)."""
    for names in ([Path(i["name"]).name for i in infos], [i["name"] for i in infos]):
        if len(set(names)) == len(names):
            return names
    sets = [i.get("set") or "" for i in infos]
    short = [f"{s}: {Path(i['name']).name}" for s, i in zip(sets, infos, strict=True)]
    return short if len(set(short)) == len(short) else [
        f"{s}: {i['name']}" for s, i in zip(sets, infos, strict=True)]
