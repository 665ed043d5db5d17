"""Counters as bench configurations: a plan's row `counter = "NAME"` (no backend) times
`flowsat.count`'s counter of that name on each puzzle (`flowsat.count.backend`), so a plan
races them as it races backends; each record's stats carry the count."""

from __future__ import annotations

from typing import Any

from flowsat.backend import REGISTRY
from flowsat.bench.configs import Config

MODULE = "flowsat.count.backend"
KEYS = {"name", "counter", "limit"}


def is_counting(row: dict[str, Any]) -> bool:
    return "counter" in row and not row.get("backend")


def counting_config(row: dict[str, Any]) -> Config:
    """The configuration of a counting row, its options checked now."""
    from flowsat.count.backend import BACKEND
    from flowsat.result import UsageError

    for key in row.keys() - KEYS:
        raise UsageError(f"{key} does not apply to a counter (it takes {', '.join(sorted(KEYS))})")
    options = {k: v for k, v in row.items() if k in ("counter", "limit")}
    BACKEND.options(**options)
    REGISTRY.setdefault(BACKEND.name, MODULE)  # as each worker does (`workers.execute`): the
    # bench asks the backend of a configuration by its name
    return Config(row.get("name") or f"count/{row['counter']}", BACKEND.name, MODULE, options)
