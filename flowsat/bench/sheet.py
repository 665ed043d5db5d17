"""`report.csv`: a row per puzzle and configuration."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from flowsat.atomic import write_file
from flowsat.bench.reference import reference_row
from flowsat.bench.summary import INF, Table, seconds
from flowsat.result import STATUSES

STATS = ("variables", "clauses", "cycle_cuts", "conflicts", "nodes")


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
