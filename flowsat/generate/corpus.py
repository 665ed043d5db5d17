"""A folder of generated puzzles: one file each, and a manifest (CSV) that lists them all.

The manifest is rewritten whole (`flowsat.atomic`) after every puzzle, so a run cut
short keeps everything it finished; rows are keyed by file, so runs into one folder add up
and a puzzle made again replaces its row in place.
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

from flowsat.atomic import make_folder, target_of, write_file
from flowsat.difficulty import Rating
from flowsat.generate.make import MAX_CONFLICTS, Made
from flowsat.generate.run import Order
from flowsat.puzzle.formats import FORMATS, puzzle_text
from flowsat.unique import PROOF

COLUMNS = ("file", "size", "colors", "seed", "color_range", "rule", "tier", "score", "forced",
           "nodes", "nodes_capped", "conflicts", "decisions", "candidates", "proofs", "seconds",
           "kind", "holes", "walls", "bridges", "proof", "command")
PLAIN_ONLY = tuple(f.name for f in FORMATS if f.plain_only)  # the grid formats


def file_name(width: int, height: int, seed: int, kind: str = "square") -> str:
    """`WxH-SEED.txt`, after the kind but on plain square boards: `hex+holes-9x9-0001.txt`."""
    name = f"{width}x{height}-{seed:04d}.txt"
    return name if kind == "square" else f"{kind}-{name}"


def generated_text(made: Made, fmt: str) -> str:
    """The puzzle as its file: grid, numberlink, pack (with its solution) or board."""
    return puzzle_text(made.puzzle, fmt, made.solution)


def manifest_row(file: str, made: Made, rating: Rating, order: Order,
                 fmt: str = "grid") -> dict:
    """The puzzle's row: what it is, what made it (size, seed, color range, rule, kind and
    densities make it again, proved unique by `proof`), its rating, and what making it
    took."""
    puzzle = made.puzzle
    return {"file": file, "size": puzzle.size, "colors": len(puzzle.dots), "seed": made.seed,
            "color_range": "{}-{}".format(*order.colors),
            "rule": "self-touch" if order.rules.self_touch else "no-self-touch",
            "tier": rating.tier, "score": rating.score, "forced": rating.forced,
            "nodes": rating.nodes, "nodes_capped": rating.nodes_capped,
            "conflicts": rating.conflicts, "decisions": rating.decisions,
            "candidates": made.candidates, "proofs": made.proofs, "seconds": made.seconds,
            "kind": order.kind.name, **order.kind.densities(),
            "proof": "sat:{encoding}:{solver}".format(**PROOF),
            "command": command(made, order, fmt)}


def command(made: Made, order: Order, fmt: str) -> str:
    """The command that prints this puzzle again (on standard output)."""
    kind = order.kind
    words = ["flowsat generate", f"--size {order.width}x{order.height}",
             "--min-colors {} --max-colors {}".format(*order.colors)]
    if not kind.plain:
        words.append("--kind " + ",".join(n for n in kind.name.split("+") if n != "square"))
        words += [f"--{name} {value:g}" for name, value in kind.densities().items() if value]
    words += [f"--seed {made.seed}", f"--format {fmt}"]
    if order.rules.self_touch:
        words.append("--allow-self-touch")
    if order.max_conflicts != MAX_CONFLICTS:
        words.append(f"--max-conflicts {order.max_conflicts}")
    return " ".join(words)


class Manifest:
    """The rows of a manifest file, by puzzle file (relative to the manifest's folder)."""

    def __init__(self, path: Path):
        self.path = path
        self.rows: dict[str, dict] = {}
        if Path(target_of(path)).exists():  # (a folder refused before any puzzle is made)
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
        make_folder(self.path.parent)
        write_file(self.path, text.getvalue())


def save(made: Made, rating: Rating, order: Order, folder: Path, manifest: Manifest,
         fmt: str) -> Path:
    """Write the puzzle's file into the folder and its row into the manifest."""
    path = make_folder(folder) / file_name(made.puzzle.width, made.puzzle.height, made.seed,
                                           order.kind.name)
    write_file(path, generated_text(made, fmt))
    manifest.add(manifest_row(manifest.relative(path), made, rating, order, fmt))
    return path
