"""A folder of generated puzzles: one file each, and a manifest (CSV) that lists them all.

The manifest is rewritten whole (through a temporary file) after every puzzle, so a run cut
short keeps everything it finished; rows are keyed by file, so runs into one folder add up
and a puzzle made again replaces its row in place.
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

from flowsat.difficulty import Rating
from flowsat.generate.make import Made
from flowsat.generate.run import Order
from flowsat.puzzle.formats import puzzle_text

COLUMNS = ("file", "size", "colors", "seed", "color_range", "rule", "tier", "score", "forced",
           "nodes", "nodes_capped", "conflicts", "decisions", "candidates", "proofs", "seconds")


def file_name(width: int, height: int, seed: int) -> str:
    return f"{width}x{height}-{seed:04d}.txt"


def manifest_row(file: str, made: Made, rating: Rating, order: Order) -> dict:
    """The puzzle's row: what it is, what made it (size, seed, color range and rule make it
    again), its rating, and what making it took."""
    puzzle = made.puzzle
    return {"file": file, "size": puzzle.size, "colors": len(puzzle.dots), "seed": made.seed,
            "color_range": "{}-{}".format(*order.colors),
            "rule": "self-touch" if order.allow_self_touch else "no-self-touch",
            "tier": rating.tier, "score": rating.score, "forced": rating.forced,
            "nodes": rating.nodes, "nodes_capped": rating.nodes_capped,
            "conflicts": rating.conflicts, "decisions": rating.decisions,
            "candidates": made.candidates, "proofs": made.proofs, "seconds": made.seconds}


class Manifest:
    """The rows of a manifest file, by puzzle file (relative to the manifest's folder)."""

    def __init__(self, path: Path):
        self.path = path
        self.rows: dict[str, dict] = {}
        if path.exists():
            with path.open(newline="", encoding="utf-8") as f:
                self.rows = {row["file"]: row for row in csv.DictReader(f)}

    def relative(self, file: Path) -> str:
        return Path(os.path.relpath(file, self.path.parent)).as_posix()

    def __contains__(self, file: Path) -> bool:
        return self.relative(file) in self.rows

    def add(self, row: dict) -> None:
        """Add or replace a row and write the manifest at once."""
        self.rows[row["file"]] = row
        text = io.StringIO()
        writer = csv.DictWriter(text, COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(self.rows.values())
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".tmp")
        temporary.write_text(text.getvalue(), encoding="utf-8", newline="\n")
        temporary.replace(self.path)


def save(made: Made, rating: Rating, order: Order, folder: Path, manifest: Manifest,
         fmt: str) -> Path:
    """Write the puzzle's file into the folder and its row into the manifest."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file_name(made.puzzle.width, made.puzzle.height, made.seed)
    path.write_text(puzzle_text(made.puzzle, fmt), encoding="utf-8", newline="\n")
    manifest.add(manifest_row(manifest.relative(path), made, rating, order))
    return path
