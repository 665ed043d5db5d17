"""The puzzle model, its file formats and its symmetries."""

from flowsat.puzzle.formats import MAX_CELLS, PuzzleError, expand_paths, parse_puzzles, read_puzzles
from flowsat.puzzle.model import EMPTY, Cell, Paths, Puzzle, solution_grid
from flowsat.puzzle.transform import SYMMETRIES, transform, untransform_paths

__all__ = [
    "EMPTY", "MAX_CELLS", "SYMMETRIES", "Cell", "Paths", "Puzzle", "PuzzleError", "expand_paths",
    "parse_puzzles", "read_puzzles", "solution_grid", "transform", "untransform_paths",
]
