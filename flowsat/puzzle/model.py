"""The puzzle model: a board (a `Board`: square W x H unless the file says otherwise) with pairs
of same-label dots, and its solutions."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from operator import itemgetter

import numpy as np

from flowsat.puzzle.board import Board

Cell = tuple[int, int]  # (row, column), both from 0
Paths = dict[str, Sequence[Cell]]  # color label -> cells from one of its dots to the other
# (a list of (row, column) tuples, or on large boards a `CellPath`: the same cells as arrays)

EMPTY = "."
NOT_EMPTY = re.compile(f"[^{re.escape(EMPTY)}]")  # a label's cell
LABELS = "".join(chr(c) for c in range(0x21, 0x7F) if chr(c) != EMPTY)  # 93 dot labels
CELLS = frozenset(LABELS + EMPTY)
CHARACTER_NAMES = {" ": "a space", "\t": "a tab", "\r": "a carriage return"}


@dataclass(frozen=True)
class Puzzle:
    """A board of `rows` ('.' for an empty cell, a hole or a bridge, any other printable ASCII
    character for a dot: its label) and its `board` (by default the plain square board of that
    size)."""

    rows: tuple[str, ...]
    file: str = "<puzzle>"
    index: int = 1  # position of the puzzle in its file, from 1
    line: int = 1  # line of the file where the puzzle starts
    format: str = "grid"  # the name of its file's format (`flowsat.puzzle.formats.FORMATS`)
    board: Board = None  # type: ignore[assignment]  # None: the plain square board
    level: int | None = None  # the LEVEL field of a level pack
    marks: tuple[str, ...] = field(default=(), compare=False)  # a pack's SIZE marks: no effect
    given: tuple[tuple[str, tuple[Cell, ...]], ...] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.board is None:
            object.__setattr__(self, "board", Board.square(self.width, self.height))
        elif (self.board.width, self.board.height) != (self.width, self.height):
            raise ValueError(f"board {self.board.width}x{self.board.height} does not fit rows "
                             f"{self.width}x{self.height}")

    @property
    def kind(self) -> str:
        return self.board.kind

    @property
    def given_paths(self) -> Paths | None:
        """The solution that came with the puzzle (a level pack's paths), if any."""
        return None if self.given is None else {c: list(p) for c, p in self.given}

    @classmethod
    def from_text(cls, text: str, **kw) -> Puzzle:
        """A puzzle from rows separated by newlines or ' / ' (for tests and examples)."""
        rows = [r.strip() for r in text.replace(" / ", "\n").strip().splitlines()]
        return cls(tuple(normalize_row(r) for r in rows), **kw)

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def size(self) -> str:
        return f"{self.width}x{self.height}"

    @property
    def name(self) -> str:
        """Where the puzzle comes from: its file, with the index when the file holds several
        (a puzz.link URL given on the command line is one puzzle, its own name)."""
        several = self.format in ("numberlink", "pack", "board") or (
            self.format == "puzzlink" and not self.file.startswith(("http://", "https://")))
        return f"{self.file}#{self.index}" if several else self.file

    @cached_property
    def dots(self) -> dict[str, tuple[Cell, Cell]]:
        """Each color's two dots, in reading order; colors in order of first appearance."""
        found: dict[str, list[Cell]] = {}
        on_board, w = self.board.on_board, self.width
        for r, row in enumerate(self.rows):  # the labels only: a row of empty cells at once
            for at in NOT_EMPTY.finditer(row):
                c = at.start()
                if on_board[r * w + c]:
                    found.setdefault(at.group(), []).append((r, c))
        return {color: (a[0], a[1]) for color, a in found.items()}

    def knowing_dots(self, dots: dict[str, tuple[Cell, Cell]]) -> Puzzle:
        """The puzzle, its `dots` already found by its reader (what `dots` would find)."""
        self.__dict__["dots"] = dots  # where the cached property keeps its value
        return self

    @property
    def colors(self) -> list[str]:
        return list(self.dots)

    def __getitem__(self, cell: Cell) -> str:
        return self.rows[cell[0]][cell[1]]

    def cells(self) -> Iterator[Cell]:
        """The cells on the board (holes left out), in reading order."""
        return map(self.board.cell, self.board.cells)

    def neighbors(self, cell: Cell) -> list[Cell]:
        """The cells joined to a cell by an open link, in the board's direction order."""
        return [self.board.cell(n) for n in self.board.neighbors[self.board.number(cell)]]


def normalize_row(row: str) -> str:
    """The row, every character a cell; ValueError naming the first one that cannot be."""
    bad = not_a_cell(row)
    if bad is not None:
        raise ValueError(f"column {bad + 1}: {not_a_cell_message(row[bad])}")
    return row


def not_a_cell(row: str) -> int | None:
    """The index of the row's first character that is no cell (not '.' nor a label), if any."""
    if CELLS.issuperset(row):  # the usual case, without a step per character
        return None
    return next((i for i, ch in enumerate(row) if ch not in CELLS), None)


def not_a_cell_message(ch: str) -> str:
    """Why a character is no cell, naming it as U+XXXX and how it looks (or what it is)."""
    import unicodedata  # (bad input only)

    name = unicodedata.name(ch, "control character").lower()
    shown = CHARACTER_NAMES.get(ch) or (repr(ch) if ch.isprintable() else f"a {name}")
    return (f"U+{ord(ch):04X} {shown} is not a cell: a cell is '.' (empty) or a printable "
            f"ASCII character (a dot's label)")


class CellPath(Sequence[Cell]):
    """A path's cells as two int arrays, rows and columns, as a tracer makes them on a large
    board: it reads as the list of its (row, column) tuples (made only when asked for), and
    `cell_arrays` hands its arrays over as they are."""

    __slots__ = ("cols", "rows")

    def __init__(self, rows: np.ndarray, cols: np.ndarray):
        self.rows, self.cols = rows, cols

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return CellPath(self.rows[k], self.cols[k])
        return int(self.rows[k]), int(self.cols[k])

    def __iter__(self) -> Iterator[Cell]:
        return zip(self.rows.tolist(), self.cols.tolist(), strict=True)

    def __reversed__(self) -> Iterator[Cell]:
        return iter(self[::-1])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # a sequence, compared by its cells

    def __repr__(self) -> str:
        return f"CellPath({list(self)!r})"


def solution_grid(puzzle: Puzzle, paths: Paths) -> list[str]:
    """The board with every cell holding the label of the path through it ('.' if none)."""
    if paths and all(isinstance(p, CellPath) and len(c) == 1 for c, p in paths.items()):
        return grid_of_arrays(puzzle, paths)
    grid = [[EMPTY] * puzzle.width for _ in range(puzzle.height)]
    for color, path in paths.items():
        for r, c in path:
            grid[r][c] = color
    return ["".join(row) for row in grid]


def grid_of_arrays(puzzle: Puzzle, paths: dict[str, CellPath]) -> list[str]:
    """`solution_grid` of paths held as arrays, one label a cell: each row's characters
    (code points) read as one string."""
    grid = np.full((puzzle.height, puzzle.width), ord(EMPTY), dtype=np.uint32)
    for color, path in paths.items():
        grid[path.rows, path.cols] = ord(color)
    return grid.view(f"<U{puzzle.width}").ravel().tolist()


def cell_arrays(path: Sequence[Cell]) -> tuple[np.ndarray, np.ndarray]:
    """A path's rows and columns as two int arrays (a `CellPath`'s own; a list's read without
    numpy's slow path for a list of pairs)."""
    if isinstance(path, CellPath):
        return path.rows, path.cols
    return tuple(np.fromiter(map(itemgetter(k), path), dtype=np.int64, count=len(path))
                 for k in (0, 1))
