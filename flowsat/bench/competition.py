"""The numbers a solver competition reports: PAR-2 scores, the virtual best solver and what each
configuration adds to it, and the same grouped by a property of the puzzles (size, kind...).

PAR-2 is a sum over puzzles, as the SAT competitions give it: a configuration's median time on
each puzzle it finished, twice the timeout on each it did not (timeout, limit, error, wrong
answer, or not run). The virtual best solver (VBS) takes on each puzzle the fastest
configuration that finished it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flowsat.bench.summary import (
    INF,
    VIRTUAL_BEST,
    PuzzleRow,
    Record,
    Table,
    X,
    fastest_entry,
)

PENALTY = 2  # PAR-2: an unfinished puzzle costs twice the timeout


def timeout_of(meta: Mapping[str, Any], records: Iterable[Record]) -> float | None:
    """The run's timeout: `meta.json`'s settings, else the records' own `timeout`."""
    given = meta.get("settings", {}).get("timeout")
    if given is None:
        given = max((r["timeout"] for r in records if r.get("timeout") is not None),
                    default=None)
    return None if given is None else float(given)


def penalty_of(timeout: float | None) -> float:
    """What an unfinished puzzle costs; endless when the timeout is not known."""
    return PENALTY * timeout if timeout is not None else INF


def best_time(p: PuzzleRow, names: Iterable[str]) -> float:
    """The fastest median of the configurations on the puzzle; endless when none finished."""
    best = fastest_entry(p, names)
    return best.median_s if best else INF


@dataclass(frozen=True)
class Score:
    """A configuration (or a portfolio of them, as the VBS) over a set of puzzles."""

    name: str
    puzzles: int
    solved: int  # puzzles finished (solved or shown unsolvable), by the median of their runs
    par2: float  # seconds, summed over the puzzles

    @property
    def mean(self) -> float:
        return self.par2 / self.puzzles if self.puzzles else INF


def score(puzzles: Sequence[PuzzleRow], names: Sequence[str], penalty: float,
          name: str | None = None) -> Score:
    """The PAR-2 score of the fastest of `names` on each puzzle (one name: a configuration)."""
    times = [best_time(p, names) for p in puzzles]
    return Score(name or names[0], len(times), sum(t < INF for t in times),
                 sum(t if t < INF else penalty for t in times))


@dataclass(frozen=True)
class Contribution:
    """What one configuration adds to the virtual best of all."""

    name: str
    fastest: int  # puzzles where it alone is the fastest
    only: int  # puzzles it alone finished
    loss: float  # how much the VBS's PAR-2 grows without it (seconds)


def contributions(table: Table, penalty: float) -> list[Contribution]:
    """Each configuration's share of the virtual best, in the table's order."""
    whole = score(table.puzzles, table.configs, penalty).par2
    found = []
    for c in table.configs:
        others = [o for o in table.configs if o != c]
        without = score(table.puzzles, others, penalty, f"without {c}").par2
        found.append(Contribution(
            c, sum(unique_fastest(p, table.configs) == c for p in table.puzzles),
            sum(finishers(p, table.configs) == [c] for p in table.puzzles),
            without - whole if without < INF else INF))
    return found


def finishers(p: PuzzleRow, names: Iterable[str]) -> list[str]:
    return [n for n in names if n in p.entries and p.entries[n].finished]


def unique_fastest(p: PuzzleRow, names: Iterable[str]) -> str | None:
    """The configuration strictly faster than every other on the puzzle, if one is."""
    ranked = sorted((p.entries[n].median_s, n) for n in finishers(p, names))
    if not ranked or (len(ranked) > 1 and ranked[0][0] == ranked[1][0]):
        return None
    return ranked[0][1]


def rank_key(s: Score) -> tuple[int, float]:
    """The order of a competition: most finished first, then lowest PAR-2."""
    return -s.solved, s.par2


def ranking(table: Table, penalty: float) -> list[Score]:
    """Every configuration's score, best first."""
    return sorted((score(table.puzzles, [c], penalty) for c in table.configs), key=rank_key)


# Grouping keys: each gives a puzzle's (sort key, label) from its record.
def by_set(info: Record) -> tuple[Any, str]:
    name = info.get("set") or ""
    return name, name or "—"


def by_size(info: Record) -> tuple[Any, str]:
    return (info["rows"] * info["cols"], info["rows"]), f"{info['cols']}{X}{info['rows']}"


def by_kind(info: Record) -> tuple[Any, str]:
    kind = info.get("kind") or "square"
    return (kind != "square", kind), kind


def by_colors(info: Record) -> tuple[Any, str]:
    return info["colors"], str(info["colors"])


def by_rule(info: Record) -> tuple[Any, str]:
    label = rule_label(info.get("rules"))
    return label, label


def rule_label(rules: Any) -> str:
    """The rules a puzzle ran under: a mapping of switches (`self_touch: false` reads
    `self-touch off`), or a name as given."""
    if rules is None:
        return "—"
    if isinstance(rules, Mapping):
        return ", ".join(f"{k.replace('_', '-')} "
                         f"{'on' if v is True else 'off' if v is False else v}"
                         for k, v in sorted(rules.items())) or "default"
    return str(rules)


GROUPS: dict[str, Callable[[Record], tuple[Any, str]]] = {
    "set": by_set, "size": by_size, "kind": by_kind, "rule": by_rule, "colors": by_colors}
DEFAULT_GROUPS = (("size",), ("kind",))


@dataclass(frozen=True)
class Group:
    label: str
    puzzles: list[PuzzleRow]


def group_by(puzzles: Iterable[PuzzleRow], keys: Sequence[str],
             defaults: Mapping[str, Any] | None = None) -> list[Group]:
    """The puzzles in groups by one or more of GROUPS (`size`, `kind`...), in the keys'
    order; `defaults` stands in for fields the records lack (the run's rules)."""
    unknown = [k for k in keys if k not in GROUPS]
    if unknown:
        raise ValueError(f"no grouping {', '.join(unknown)}; choose from {', '.join(GROUPS)}")
    found: dict[tuple, tuple[str, list[PuzzleRow]]] = {}
    for p in puzzles:
        info = {**(defaults or {}), **p.info}
        parts = [GROUPS[k](info) for k in keys]
        entry = found.setdefault(tuple(s for s, _ in parts),
                                 (" · ".join(label for _, label in parts), []))
        entry[1].append(p)
    return [Group(label, rows) for _, (label, rows) in sorted(found.items(),
                                                               key=lambda x: x[0])]


def grouped_scores(table: Table, keys: Sequence[str], penalty: float,
                   defaults: Mapping[str, Any] | None = None
                   ) -> list[tuple[Group, list[Score], Score]]:
    """For each group: every configuration's score on its puzzles, and the VBS's."""
    return [(g, [score(g.puzzles, [c], penalty) for c in table.configs],
             score(g.puzzles, table.configs, penalty, VIRTUAL_BEST))
            for g in group_by(table.puzzles, keys, defaults)]
