"""Head-to-head benchmarks: runs in worker processes, recorded as they end, and their report.

`configs` names backend configurations; `plan` lists the runs; `workers` runs them, killing
what passes its time; `records` keeps `results.jsonl` and `meta.json`; `sweep` ties these
together for `flowsat bench`; `summary`, `competition`, `report` (with `markdown`,
`standings`, `per_puzzle`, `growth`, `sheet`), `plots`, `html` and `reference` make the
report.
"""

from flowsat.bench.plan import load_puzzles
from flowsat.bench.report import write_report
from flowsat.bench.sweep import Settings, bench

__all__ = ["Settings", "bench", "load_puzzles", "write_report"]
