"""The puzzle model, its file formats and its symmetries."""

from flowsat.puzzle.board import Board
from flowsat.puzzle.formats import (
    MAX_CELLS,
    PuzzleError,
    expand_paths,
    parse_puzzles,
    puzzle_text,
    read_puzzles,
)
from flowsat.puzzle.model import EMPTY, Cell, Paths, Puzzle, solution_grid
from flowsat.puzzle.rules import DEFAULT_RULES, Rules
from flowsat.puzzle.transform import SYMMETRIES, transform, untransform_paths

__all__ = [
    "DEFAULT_RULES", "EMPTY", "MAX_CELLS", "SYMMETRIES", "Board", "Cell", "Paths", "Puzzle",
    "PuzzleError", "Rules", "expand_paths", "parse_puzzles", "puzzle_text", "read_puzzles",
    "solution_grid", "transform", "untransform_paths",
]
