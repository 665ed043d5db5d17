"""The report's competition sections: PAR-2 standings, the virtual best, tables by group."""

from __future__ import annotations

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
)
from flowsat.bench.markdown import name_cell, row, seconds_cell, table_head
from flowsat.bench.summary import VIRTUAL_BEST, Table

GROUP_COLUMNS = 6  # configurations shown in the tables by size, kind...


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
