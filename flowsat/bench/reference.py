"""The 2016 figures (`../shared/reference/zucker2016.csv`), found by puzzle file name."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

NAME = Path("shared") / "reference" / "zucker2016.csv"


def find_reference() -> Path | None:
    """`../shared`'s table: beside the working directory, or beside the source checkout."""
    places = (Path.cwd().parent / NAME, Path(__file__).resolve().parents[3] / NAME)
    return next((p for p in places if p.is_file()), None)


def load_reference(path: Path | None = None) -> dict[str, dict[str, str]]:
    """The rows of the 2016 table by puzzle file name; empty when it is not there."""
    path = path or find_reference()
    if path is None or not path.is_file():
        return {}
    with path.open(newline="", encoding="utf-8") as f:
        return {row["puzzle"]: row for row in csv.DictReader(f)}


def reference_row(table: dict[str, dict[str, str]], info: dict[str, Any]) -> dict[str, str] | None:
    """The 2016 row of a puzzle: same file name and same board size, else none."""
    row = table.get(Path(info["file"]).name)
    if row and (int(row["rows"]), int(row["cols"])) == (info["rows"], info["cols"]):
        return row
    return None
