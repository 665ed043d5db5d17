"""Puzzle files: one module per format (`grid`, `numberlink`, `pack`, `boardtext`), each with
its `FORMAT` (detect, read, write), on the shared `base`; `files` turns files into text, and
`registry` reads and writes through the formats in order.

Every problem is reported as a `PuzzleError` that prints as `FILE:LINE:COL: message`; reading
goes on with the next puzzle of the file wherever the file still makes sense.
"""

from flowsat.puzzle.formats.base import (
    MARKS,
    MAX_CELLS,
    CannotWrite,
    Format,
    PuzzleError,
    cell_error,
    dot_error,
)
from flowsat.puzzle.formats.files import MAX_BYTES, expand_paths, read_text, text_lines
from flowsat.puzzle.formats.registry import (
    FORMATS,
    NAMES,
    WRITABLE,
    format_named,
    parse_puzzles,
    puzzle_text,
    read_puzzles,
)

__all__ = [
    "FORMATS", "MARKS", "MAX_BYTES", "MAX_CELLS", "NAMES", "WRITABLE", "CannotWrite", "Format",
    "PuzzleError", "cell_error", "dot_error", "expand_paths", "format_named", "parse_puzzles",
    "puzzle_text", "read_puzzles", "read_text", "text_lines",
]
