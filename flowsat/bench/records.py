"""A bench folder: `results.jsonl` (one run a line, synced as each ends) and `meta.json`."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Any

from flowsat.bench.plan import record_key

RESULTS = "results.jsonl"
META = "meta.json"


def read_records(folder: Path) -> list[dict[str, Any]]:
    """The records of every finished run, each run once; a line torn by a kill is skipped."""
    path = folder / RESULTS
    if not path.exists():
        return []
    found: dict[tuple, dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
            found.setdefault(record_key(record), record)
        except (ValueError, TypeError, KeyError):
            continue
    return list(found.values())


def open_results(folder: Path) -> IO[str]:
    """`results.jsonl` open for appending, a torn last line (no newline) cut off first."""
    path = folder / RESULTS
    if path.exists():
        data = path.read_bytes()
        if data and not data.endswith(b"\n"):
            with path.open("r+b") as f:
                f.truncate(data.rfind(b"\n") + 1)
    return path.open("a", encoding="utf-8")


def append(out: IO[str], record: dict[str, Any]) -> None:
    """One record as one line, on disk before this returns."""
    out.write(json.dumps(record, separators=(",", ":"), default=str) + "\n")
    out.flush()
    os.fsync(out.fileno())


def read_meta(folder: Path) -> dict[str, Any]:
    path = folder / META
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def write_meta(folder: Path, meta: dict[str, Any]) -> None:
    """`meta.json` replaced whole, never left half written."""
    tmp = folder / (META + ".tmp")
    tmp.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, folder / META)
