"""What every puzzle file format shares: the `Format` each format module exposes, the located
`PuzzleError`, and the checks of rows of cells and their dots. Imports no format module."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from flowsat.puzzle.model import EMPTY, Cell, Paths, Puzzle, not_a_cell, not_a_cell_message

MARKS = "BI"  # the marks of a level's SIZE (see `pack`), found in the game's levels: no effect
MAX_CELLS = 2_000_000  # boards above this are refused (the 1002x1002 spirals: 1,004,004 cells)
MAX_DIGITS = 18  # a number of a puzzle file with more digits is off any board (and Python
# refuses to read one of 4,301 digits)
DOTS = re.compile(f"[^{re.escape(EMPTY)}]")  # a cell that is not empty


class Lazy:
    """A regular expression compiled when first used: a file is read with a few of the
    formats' patterns, and compiling them all cost every start 2.6 M instructions."""

    def __init__(self, pattern: str, flags: int = 0):
        self.pattern, self.flags = pattern, flags

    def __getattr__(self, name: str) -> Any:  # `match`, `finditer`...: kept once looked up
        found = getattr(re.compile(self.pattern, self.flags), name)
        setattr(self, name, found)
        return found


class PuzzleError(Exception):
    """A problem with an input, located in its file."""

    def __init__(self, file: str, line: int, col: int, message: str, index: int | None = None):
        super().__init__(f"{file}:{line}:{col}: {message}")
        self.file, self.line, self.col, self.message, self.index = file, line, col, message, index

    def __reduce__(self):  # sent whole between processes (`flowsat.parallel`)
        return type(self), (self.file, self.line, self.col, self.message, self.index)


class AtColumn(ValueError):
    """Something wrong at a column (from 1) of a line that holds a puzzle (`per_line`)."""

    def __init__(self, col: int, message: str):
        super().__init__(message)
        self.col = col


def per_line(lines: list[str], file: str, read: Callable[[str, int, int], Puzzle]
             ) -> Iterator[Puzzle | PuzzleError]:
    """A puzzle from each line that is not blank, by `read(line, n, index)` (n: its line
    number; index: its place among those lines, from 1); an `AtColumn` it raises is that
    line's error, and reading goes on with the next line."""
    index = 0
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        index += 1
        try:
            yield read(line, n, index)
        except AtColumn as err:
            yield PuzzleError(file, n, err.col, str(err), index)


class CannotWrite(ValueError):
    """A puzzle a format cannot hold (a kind of board, a label it reserves, no solution)."""


Read = Callable[[list[str], str, int], Iterator[Puzzle | PuzzleError]]
Write = Callable[[Puzzle, Paths | None], str]


class Format:
    """A file format: its name (a puzzle read from it has it as `Puzzle.format`), whether a
    file's lines are in it (`detect`, from their structure), its reader (the lines, the file
    name and the cell limit: each puzzle or what is wrong with it) and its writer (a puzzle,
    and the solution a format that holds one needs, to the file's text; a `CannotWrite`
    for a puzzle it cannot hold). A plain class: a dataclass costs every start-up 4.6 million
    instructions (callgrind, `flowsat solve` of a 5x5: 0.7%)."""

    __slots__ = ("detect", "name", "needs_solution", "plain_only", "read", "summary", "write")

    def __init__(self, name: str, summary: str, detect: Callable[[list[str]], bool], read: Read,
                 write: Write | None = None, *, plain_only: bool = False,
                 needs_solution: bool = False):
        self.name, self.summary = name, summary  # summary: for the command line's help
        self.detect, self.read, self.write = detect, read, write
        self.plain_only = plain_only  # holds plain square boards only
        self.needs_solution = needs_solution  # writes a solution with the puzzle

    def __repr__(self) -> str:
        return f"Format({self.name!r})"


def first_line(lines: list[str], comment: str | None = None) -> str:
    """The first line that is not blank (nor a comment, starting with `comment`), else ''."""
    return next((ln for ln in lines
                 if ln.strip() and not (comment and ln.startswith(comment))), "")


class MarkError(ValueError):
    """A mark refused, at an offset in the text of the marks."""

    def __init__(self, offset: int, message: str):
        super().__init__(message)
        self.offset = offset


def marks_of(text: str) -> tuple[str, ...]:
    """The `:`-separated marks of a text, each one of `MARKS`, once; a MarkError for the first
    that is not (one whose meaning is unknown might change the puzzle: it is never ignored)."""
    marks: list[str] = []
    offset = 0
    for mark in text.split(":"):
        if len(mark) != 1 or mark not in MARKS:
            raise MarkError(offset, f"unknown mark {mark[:20]!r}: marks are {', '.join(MARKS)} "
                                    f"(one letter each, ':'-separated); another might change "
                                    f"the puzzle, so it is not ignored")
        if mark in marks:
            raise MarkError(offset, f"mark {mark!r} given twice")
        marks.append(mark)
        offset += len(mark) + 1
    return tuple(marks)


def make_puzzle(rows: list[str], file: str, index: int, line: int, fmt: str, max_cells: int,
                row_lines: Sequence[int]) -> Puzzle | PuzzleError:
    """A puzzle from rectangular rows (a plain square board), its dots found on the way, or
    the first thing wrong with its dots or size."""
    height, width = len(rows), len(rows[0])
    if width * height > max_cells:
        return PuzzleError(file, line, 1, too_big(width, height, max_cells), index)
    dots = dot_pairs("".join(rows), width)
    if dots is None:
        error = dot_error(rows, row_lines, file)
        if error:
            error.index = index
            return error
    puzzle = Puzzle(tuple(rows), file=file, index=index, line=line, format=fmt)
    return puzzle if dots is None else puzzle.knowing_dots(dots)


def dot_pairs(text: str, width: int) -> dict[str, tuple[Cell, Cell]] | None:
    """`Puzzle.dots` of a plain board from its rows run together (`width` cells a row), found
    with a few calls a label; None when there is no label, or one without exactly two dots.
    Only the dots are looked at (the empty cells dropped first: a million cells in a
    millisecond, where counting every cell took a tenth of a second): twice as many as there
    are labels, each label found twice, is each label exactly twice (no Counter: it cost
    a tenth of reading a small puzzle)."""
    dots = text.replace(EMPTY, "")
    labels = dict.fromkeys(dots)  # in order of first appearance
    if not labels or len(dots) != 2 * len(labels):
        return None
    found = {}
    for label in labels:
        first = text.find(label)
        second = text.find(label, first + 1)
        if second < 0:
            return None
        found[label] = (divmod(first, width), divmod(second, width))
    return found


def too_big(width: int, height: int, max_cells: int) -> str:
    return (f"board {width}x{height} has {width * height} cells, above the limit of "
            f"{max_cells} cells")


def cell_error(rows: list[str], row_lines: Sequence[int], file: str) -> PuzzleError | None:
    """The first character of the rows that cannot be a cell, located and named."""
    for row, line in zip(rows, row_lines, strict=True):
        bad = not_a_cell(row)
        if bad is not None:
            return PuzzleError(file, line, bad + 1, not_a_cell_message(row[bad]))
    return None


def dot_error(rows: list[str], row_lines: Sequence[int], file: str) -> PuzzleError | None:
    """The first dot problem: no dots at all, or a label without exactly two dots."""
    labels = Counter("".join(rows).replace(EMPTY, ""))
    if labels and all(k == 2 for k in labels.values()):  # the usual case, in one pass
        return None
    seen: Counter[str] = Counter()
    first: dict[str, tuple[int, int]] = {}
    for r, row in enumerate(rows):
        for found in DOTS.finditer(row):  # the cells that are not empty
            c, ch = found.start(), found.group()
            seen[ch] += 1
            first.setdefault(ch, (row_lines[r], c + 1))
            if seen[ch] == 3:
                return PuzzleError(file, row_lines[r], c + 1,
                                   f"label {ch!r} has three or more dots; a color has exactly two")
    if not seen:
        return PuzzleError(file, row_lines[0], 1, "no dots: every cell is '.'")
    single = next((ch for ch, k in seen.items() if k == 1), None)
    if single:
        return PuzzleError(file, *first[single],
                           f"label {single!r} has only one dot; a color needs two")
    return None


def plain_rows(puzzle: Puzzle, fmt: str) -> str:
    """The puzzle's rows, one a line (a CannotWrite if its board is not a plain square one)."""
    if not puzzle.board.plain:
        raise CannotWrite(f"the {fmt} format holds plain square boards only, not "
                          f"{puzzle.kind}: use pack or board")
    return "\n".join(puzzle.rows) + "\n"
