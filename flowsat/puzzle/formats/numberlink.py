"""The Numberlink format, several puzzles a file: a `W H` line then H rows of W cells as in
the grid format; `0 0` ends the file. A line starting with `#` is a comment outside a board's
H rows, and a row (`#` is a label) inside them."""

from __future__ import annotations

import re
from collections.abc import Iterator

from flowsat.puzzle.formats.base import (
    MAX_DIGITS,
    Format,
    Lazy,
    PuzzleError,
    cell_error,
    first_line,
    make_puzzle,
    plain_rows,
    too_big,
)
from flowsat.puzzle.model import CELLS, Paths, Puzzle

HEADER = Lazy(r"\s*(\d+)\s+(\d+)\s*$", re.ASCII)
COMMENT = "#"


def is_numberlink(lines: list[str]) -> bool:
    """A file is in the Numberlink format when its first line that is no comment is `W H`."""
    return HEADER.match(first_line(lines, COMMENT)) is not None


def only_comments(lines: list[str]) -> bool:
    """Whether every line is a comment or blank."""
    return not first_line(lines, COMMENT)


def parse_numberlink(lines: list[str], file: str,
                     max_cells: int) -> Iterator[Puzzle | PuzzleError]:
    """Puzzles after `W H` headers; a bad puzzle is reported and reading resumes after it."""
    n, index = 0, 0
    while n < len(lines):
        line = lines[n]
        n += 1
        if not line.strip() or line.startswith(COMMENT):
            continue
        header = HEADER.match(line)
        if not header:  # report a stray block once, then look for the next header
            yield PuzzleError(file, n, 1, f"expected a 'W H' header line, found {line[:20]!r}")
            while n < len(lines) and lines[n].strip() and not HEADER.match(lines[n]):
                n += 1
            continue
        if max(len(header[1]), len(header[2])) > MAX_DIGITS:
            yield PuzzleError(file, n, 1, f"a board of {len(header[1])} by {len(header[2])} "
                                          f"digits, above the limit of {max_cells} cells")
            return  # where its rows end is anyone's guess
        width, height = int(header[1]), int(header[2])
        if width == 0 and height == 0:
            if index == 0:
                yield PuzzleError(file, n, 1, "the '0 0' end line comes before any puzzle")
            return
        index += 1
        rows = whole_rows(lines, n, width, height, max_cells)
        if rows is not None:
            yield make_puzzle(rows, file, index, n, "numberlink", max_cells,
                              range(n + 1, n + 1 + height))
            n += height
            continue
        header_line, rows, row_lines = n, [], []
        while (len(rows) < height and n < len(lines) and lines[n].strip()
               and not HEADER.match(lines[n])):
            rows.append(lines[n])  # a '#' here is a label, not a comment
            row_lines.append(n + 1)
            n += 1
        yield numberlink_puzzle(width, height, rows, row_lines, file, index, header_line,
                                max_cells)


def whole_rows(lines: list[str], n: int, width: int, height: int,
               max_cells: int) -> list[str] | None:
    """The `height` lines from line index n when they are the board's rows as they should be,
    checked a block at a time: `width` cells each (so none is blank nor a header: those hold
    a space or nothing), on a board of at most `max_cells` cells. None otherwise: then the
    rows are read line by line, to say what is wrong."""
    if not 0 < width * height <= max_cells:
        return None
    rows = lines[n:n + height]
    if len(rows) == height and set(map(len, rows)) == {width} and \
            CELLS.issuperset("".join(rows)):
        return rows
    return None


def numberlink_puzzle(width: int, height: int, rows: list[str], row_lines: list[int], file: str,
                      index: int, header_line: int, max_cells: int) -> Puzzle | PuzzleError:
    """The puzzle under a `W H` header, or what is wrong with it."""
    if width * height == 0:
        return PuzzleError(file, header_line, 1, f"board {width}x{height} has no cells", index)
    if width * height > max_cells:
        return PuzzleError(file, header_line, 1, too_big(width, height, max_cells), index)
    if len(rows) < height:
        return PuzzleError(file, header_line, 1, f"header says {height} rows, found {len(rows)}",
                           index)
    error = cell_error(rows, row_lines, file)
    if error:
        error.index = index
        return error
    bad = next((i for i, row in enumerate(rows) if len(row) != width), None)
    if bad is not None:
        return PuzzleError(file, row_lines[bad], min(len(rows[bad]), width) + 1,
                           f"row has {len(rows[bad])} cells, header says {width}", index)
    return make_puzzle(rows, file, index, header_line, "numberlink", max_cells, row_lines)


def numberlink_text(puzzle: Puzzle, paths: Paths | None = None) -> str:
    return f"{puzzle.width} {puzzle.height}\n" + plain_rows(puzzle, "numberlink")


FORMAT = Format("numberlink", "a 'W H' line, then the rows; plain square boards only",
                is_numberlink, parse_numberlink, numberlink_text, plain_only=True)
