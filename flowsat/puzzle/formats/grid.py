"""The grid format, one puzzle a file: one line per row; '.' is an empty cell, every other
printable ASCII character a dot (its label). A file in no other format is read as a grid."""

from __future__ import annotations

from collections.abc import Iterator

from flowsat.puzzle.formats.base import (
    Format,
    PuzzleError,
    cell_error,
    make_puzzle,
    plain_rows,
)
from flowsat.puzzle.model import Paths, Puzzle, not_a_cell


def shape_error(lines: list[str], file: str) -> PuzzleError | None:
    """What keeps the lines from being a rectangle of cells: a character that is no cell, an
    empty first row, a row of another length."""
    error = cell_error(lines, list(range(1, len(lines) + 1)), file)
    if error:
        return error
    width = len(lines[0])
    if width == 0:
        return PuzzleError(file, 1, 1, "the first row is empty")
    for n, row in enumerate(lines[1:], start=2):
        if len(row) != width:
            return PuzzleError(file, n, min(len(row), width) + 1,
                               f"row has {len(row)} cells, the first row has {width}")
    return None


def is_grid(lines: list[str]) -> bool:
    """A file is a grid when its first line is a row of cells (the other rows are checked
    when they are read)."""
    return bool(lines and lines[0]) and not_a_cell(lines[0]) is None


def read_grid(lines: list[str], file: str, max_cells: int) -> Iterator[Puzzle | PuzzleError]:
    """The file's one puzzle, or what is wrong with it."""
    yield shape_error(lines, file) or make_puzzle(lines, file, 1, 1, "grid", max_cells,
                                                  list(range(1, len(lines) + 1)))


def grid_text(puzzle: Puzzle, paths: Paths | None = None) -> str:
    return plain_rows(puzzle, "grid")


FORMAT = Format("grid", "the rows, one a line; plain square boards only", is_grid, read_grid,
                grid_text, plain_only=True)
