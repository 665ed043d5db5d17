"""The hand-written board format: every kind of board as text a person can write and read.

    flowsat board 5x4 hex warps level 7 marks B:I
    A . . B .
        -
    . # .|+ .

Each header line `flowsat board WxH` (then, in any order, `hex`, `warps`, `level N`, `marks
M:M`: a level pack's marks, see `pack`) says the format and starts a puzzle (several a file);
the characters below have a meaning only under it. Then come the rows: cell c of a row at
column 2c, '.' empty, '#' a hole, '+' a bridge, any other printable character but
`| - / \\` a dot (its label). The character after a cell (column 2c+1) is the link to the next
cell of the row (after the last cell: the warp to the first): ' ' open, '|' a wall. The rows are
written either one a line (walls only inside rows) or every other line, each followed by a
line of walls to the row below (after the last row: the warp to the first row): column 2c
'-' walls the link down from cell c, and on a hexagonal board column 2c+1 '/' or '\\' walls the
diagonal link between columns c and c+1 that crosses those rows (from the cell of the even
column down to the cell of the odd one; after the last column: the warp to column 0).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from flowsat.puzzle.board import Board
from flowsat.puzzle.formats.base import (
    MAX_DIGITS,
    CannotWrite,
    Format,
    Lazy,
    MarkError,
    PuzzleError,
    dot_error,
    first_line,
    marks_of,
)
from flowsat.puzzle.model import EMPTY, Paths, Puzzle

HEADER = Lazy(r"flowsat board\b")
SIZE = Lazy(rf"(\d{{1,{MAX_DIGITS}}})x(\d{{1,{MAX_DIGITS}}})$", re.ASCII)
WORD = Lazy(r"\S+")
HEADER_WORDS = "hex, warps, level N, marks M:M"
HOLE, BRIDGE = "#", "+"
RESERVED = "|-/\\" + HOLE + BRIDGE
ROW_WALL, DOWN_WALL, DIAGONAL_WALLS = "|", "-", "/\\"


class BoardTextError(ValueError):
    """Something wrong in the text, at a line and column (from 1)."""

    def __init__(self, line: int, col: int, message: str):
        super().__init__(message)
        self.line, self.col = line, col


def is_board_text(lines: list[str]) -> bool:
    """A file is in the board format when its first line that is not blank is a header."""
    return HEADER.match(first_line(lines).strip()) is not None


def parse_board_file(lines: list[str], file: str, max_cells: int
                     ) -> Iterator[Puzzle | PuzzleError]:
    """Each puzzle of a board file (a header line starts each), or what is wrong with it."""
    starts = [n for n, ln in enumerate(lines) if HEADER.match(ln.strip())]
    ends = [*starts[1:], len(lines)]
    for index, (start, end) in enumerate(zip(starts, ends, strict=True), start=1):
        try:
            puzzle = parse_board_text(lines[:end], file, max_cells, start)
            yield replace(puzzle, index=index)
        except BoardTextError as err:
            yield PuzzleError(file, err.line, err.col, str(err), index)


def parse_board_text(lines: list[str], file: str, max_cells: int, start: int = 0) -> Puzzle:
    """The puzzle whose header is at lines[start] (up to the end of lines); a BoardTextError
    where the text is wrong."""
    width, height, shape, wrap, level, marks = read_header(lines[start], start + 1)
    if width * height > max_cells:
        raise BoardTextError(start + 1, 1, f"board {width}x{height} has {width * height} "
                                           f"cells, above the limit of {max_cells} cells")
    body = lines[start + 1:]
    while body and not body[-1].strip():
        body.pop()
    if len(body) not in (height, 2 * height - 1, 2 * height):
        raise BoardTextError(start + 2, 1, f"expected {height} rows (or {2 * height - 1} or "
                                           f"{2 * height} lines with lines of walls between), "
                                           f"found {len(body)} lines")
    step = 1 if len(body) == height else 2
    cells: list[str] = []
    holes, bridges, walls = set(), set(), set()
    for r in range(height):
        n = start + 2 + step * r  # the row's line number
        row = body[step * r].rstrip().ljust(2 * width)
        if len(row) > 2 * width:
            raise BoardTextError(n, 2 * width + 1, "text after the last cell of the row")
        for c in range(width):
            ch, i = row[2 * c], r * width + c
            if ch.isspace() or not ch.isprintable() or ch in "|-/\\":
                raise BoardTextError(n, 2 * c + 1, f"expected a cell ('.', '#', '+' or a dot "
                                                   f"label), found {ch!r}")
            holes.update([i] if ch == HOLE else [])
            bridges.update([i] if ch == BRIDGE else [])
            cells.append(EMPTY if ch in (HOLE, BRIDGE) else ch)
        walls |= row_walls(row, r, width, wrap, n)
        if step == 2 and step * r + 1 < len(body):
            walls |= down_walls(body[step * r + 1].rstrip(), r, width, height, shape, wrap,
                                n + 1)
    board = Board(width, height, shape, wrap, frozenset(holes), frozenset(walls),
                  frozenset(bridges))
    if board.problem():
        raise BoardTextError(start + 1, 1, board.problem())
    rows = tuple("".join(cells[r * width:(r + 1) * width]) for r in range(height))
    row_lines = [start + 2 + step * r for r in range(height)]
    error = dot_error(list(rows), row_lines, file)
    if error:
        raise BoardTextError(error.line, 2 * error.col - 1, error.message)  # cell c at 2c
    return Puzzle(rows, file=file, line=start + 1, format="board", board=board, level=level,
                  marks=marks)


def read_header(line: str, n: int) -> tuple[int, int, str, bool, int | None, tuple[str, ...]]:
    """Width, height, shape, warps, level and marks."""
    words = [(m.group(), m.start() + 1) for m in WORD.finditer(line)][2:]  # with columns
    size = SIZE.match(words[0][0]) if words else None
    if not size or int(size[1]) * int(size[2]) == 0:
        raise BoardTextError(n, 1, f"the header says 'flowsat board WxH' (W, H at least 1), "
                                   f"then {HEADER_WORDS}")
    shape, wrap, level, marks, rest = "square", False, None, (), words[1:]
    while rest:
        word, col = rest.pop(0)
        if word == "hex":
            shape = "hex"
        elif word == "warps":
            wrap = True
        elif word == "level" and rest and rest[0][0].isascii() and rest[0][0].isdigit():
            if len(rest[0][0]) > MAX_DIGITS:
                raise BoardTextError(n, rest[0][1], f"level: a number of {len(rest[0][0])} "
                                                    f"digits, too large")
            level = int(rest.pop(0)[0])
        elif word == "marks" and rest:
            text, at = rest.pop(0)
            try:
                marks = marks_of(text)
            except MarkError as err:
                raise BoardTextError(n, at + err.offset, str(err)) from None
        else:
            raise BoardTextError(n, col, f"unknown header word {word!r}; words are "
                                         f"{HEADER_WORDS}")
    return int(size[1]), int(size[2]), shape, wrap, level, marks


def link(width: int, height: int, a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    i, j = (a[0] % height) * width + a[1] % width, (b[0] % height) * width + b[1] % width
    return min(i, j), max(i, j)


def row_walls(row: str, r: int, width: int, wrap: bool, n: int) -> set[tuple[int, int]]:
    """The walls drawn inside a row line: after cell c, to cell c + 1 (or the warp)."""
    found = set()
    for c in range(width):
        ch = row[2 * c + 1] if 2 * c + 1 < len(row) else " "
        if ch == " ":
            continue
        if ch != ROW_WALL or (c == width - 1 and not wrap):
            raise BoardTextError(n, 2 * c + 2, f"expected ' ' or '|' between cells, found "
                                               f"{ch!r}" if ch != ROW_WALL else
                                 "a wall after the last cell needs warps")
        found.add(link(width, 1, (0, c), (0, c + 1)))
    return {(a + r * width, b + r * width) for a, b in found}


def down_walls(line: str, r: int, width: int, height: int, shape: str, wrap: bool,
               n: int) -> set[tuple[int, int]]:
    """The walls of a line between row r and the next: '-' down, '/' or '\\' diagonal."""
    found = set()
    last_row = r == height - 1
    for k, ch in enumerate(line):
        c = k // 2
        if ch == " ":
            continue
        if c >= width:
            raise BoardTextError(n, k + 1, "text after the last column")
        if (last_row or (k % 2 and c == width - 1)) and not wrap:
            raise BoardTextError(n, k + 1, "a wall across the border needs warps")
        if k % 2 == 0 and ch == DOWN_WALL:
            found.add(link(width, height, (r, c), (r + 1, c)))
        elif k % 2 and ch in DIAGONAL_WALLS and shape == "hex":
            even, odd = (c, c + 1) if c % 2 == 0 else (c + 1, c)
            found.add(link(width, height, (r, even), (r + 1, odd)))
        else:
            want = "'-'" if k % 2 == 0 else "' ' (square board)" if shape == "square" else \
                "'/' or '\\'"
            raise BoardTextError(n, k + 1, f"expected {want} or ' ' here, found {ch!r}")
    return found


def board_text(puzzle: Puzzle, paths: Paths | None = None) -> str:
    """The puzzle in the board format (ends with a newline); a CannotWrite for a dot labelled
    by a character the format reserves."""
    reserved = sorted(set(puzzle.dots) & set(RESERVED))
    if reserved:
        raise CannotWrite(f"label {reserved[0]!r} means something else in the board format "
                          f"(reserved: {RESERVED}); relabel the puzzle first")
    board = puzzle.board
    w, h = board.width, board.height
    words = [f"flowsat board {w}x{h}"] + ["hex"] * (board.shape == "hex") + \
        ["warps"] * board.wrap + ([f"level {puzzle.level}"] if puzzle.level is not None else []) + \
        ([f"marks {':'.join(puzzle.marks)}"] if puzzle.marks else [])
    grid = [[" "] * (2 * w) for _ in range(h)]
    below = [[" "] * (2 * w) for _ in range(h)]
    for i in range(board.size):
        r, c = board.cell(i)
        grid[r][2 * c] = HOLE if i in board.holes else BRIDGE if i in board.bridges else \
            puzzle[(r, c)]
    for a, b in board.walls:
        (ra, ca), (rb, cb) = board.cell(a), board.cell(b)
        if ra == rb:  # in a row: after the cell whose next one is the other
            c = ca if (ca + 1) % w == cb else cb
            grid[ra][2 * c + 1] = ROW_WALL
        elif ca == cb:  # down: below the upper one (the last row, for the warp)
            r = ra if (ra + 1) % h == rb else rb
            below[r][2 * ca] = DOWN_WALL
        else:  # hex diagonal: from the even column's cell down to the odd one's
            (upper, ce), co = ((ra, ca), cb) if ca % 2 == 0 else ((rb, cb), ca)
            c = ce if (ce + 1) % w == co else co
            below[upper][2 * c + 1] = "\\" if c == ce else "/"
    lines = [" ".join(words)]
    walled = any("".join(row).strip() for row in below)
    for r in range(h):
        lines.append("".join(grid[r]).rstrip())
        if walled:
            lines.append("".join(below[r]).rstrip())
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


FORMAT = Format("board", "the hand-written board format, for every kind of board",
                is_board_text, parse_board_file, board_text)
