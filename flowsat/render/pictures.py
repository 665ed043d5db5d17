"""The picture files of a run (`--svg`, `--png`): one file for one puzzle, or a folder of them.

A destination ending in the kind's suffix (`.svg`, `.png`) is that file, and the run must have
one puzzle; any other destination is a folder (created if needed) holding a file per puzzle,
named after its puzzle file, with `-N` for the N-th puzzle of a file that holds several
(Numberlink, level pack, board format).
"""

from __future__ import annotations

from pathlib import Path

from flowsat.atomic import make_folder, write_file
from flowsat.puzzle import read_puzzles
from flowsat.puzzle.model import Paths, Puzzle
from flowsat.render import png
from flowsat.render.svg import svg
from flowsat.result import UsageError


class Pictures:
    """Where each puzzle's pictures go, and writing them."""

    def __init__(self, targets: dict[str, Path]):
        self.targets = targets  # kind ("svg" or "png") -> file or folder
        self.used: set[Path] = set()

    def save(self, puzzle: Puzzle, paths: Paths | None) -> None:
        """Write the puzzle's pictures: with its paths, or the unsolved board without them."""
        picture = svg(puzzle, paths)
        for kind, dest in self.targets.items():
            file = dest if is_file(kind, dest) else self.name(dest, kind, puzzle)
            make_folder(file.parent)
            write_file(file, picture if kind == "svg" else png.png(picture))

    def name(self, folder: Path, kind: str, puzzle: Puzzle) -> Path:
        """The puzzle's file in the folder, named after its puzzle file; a name already used
        in this run gets `_2`, `_3`, ..."""
        stem = Path(puzzle.file).stem + (f"-{puzzle.index}" if puzzle.name != puzzle.file
                                         else "")  # the index where the name has it
        file, n = folder / f"{stem}.{kind}", 1
        while file in self.used:
            n += 1
            file = folder / f"{stem}_{n}.{kind}"
        self.used.add(file)
        return file


def pictures(svg_dest: Path | None, png_dest: Path | None, files: list[str],
             max_cells: int) -> Pictures | None:
    """The pictures asked for, if any; a UsageError when one file is asked for several puzzles
    or when PNG cannot be made."""
    targets = {kind: dest for kind, dest in (("svg", svg_dest), ("png", png_dest)) if dest}
    if "png" in targets:
        png.require()
    for kind, dest in targets.items():
        if is_file(kind, dest):
            count = sum(1 for file in files for _ in read_puzzles(file, max_cells))
            if count > 1:
                raise UsageError(f"--{kind} {dest} is one file but the run has {count} "
                                 f"puzzles; give a folder")
    return Pictures(targets) if targets else None


def is_file(kind: str, dest: Path) -> bool:
    return dest.suffix.lower() == f".{kind}"
