"""A bench folder: `results.jsonl` (one run a line, synced as each ends) and `meta.json`
(`flowsat.atomic`: neither is ever left half written)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, BinaryIO

from flowsat.atomic import append_line, open_records, write_file
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


def open_results(folder: Path) -> BinaryIO:
    """`results.jsonl` open for `append`, a torn last line (no newline) cut off first."""
    return open_records(folder / RESULTS)


def append(out: BinaryIO, record: dict[str, Any]) -> None:
    """One record as one line, on disk before this returns, never part of one (a full disk:
    a UsageError)."""
    append_line(out, json.dumps(record, separators=(",", ":"), default=str))


def read_meta(folder: Path) -> dict[str, Any]:
    path = folder / META
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def write_meta(folder: Path, meta: dict[str, Any]) -> None:
    """`meta.json` replaced whole, never left half written."""
    write_file(folder / META, json.dumps(meta, indent=2) + "\n")
