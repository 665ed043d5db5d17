"""The game's level-pack format, read and written: one level a line, with its solution.

`SIZE,0,LEVEL,FLOWS[,BRIDGES[,HOLES[,WALLS]]];PATH;PATH;...` where SIZE is `W` or `W:H`,
prefixed by `X_` (hexagonal) and/or `W_` (warps both ways) and perhaps followed by `+` and
marks, one letter each, `:`-separated (`10+B:I`, `8:9+I:B`), kept as the puzzle's `marks`:
they change nothing on the board. Only the marks seen in the game's levels (`base.MARKS`) are
taken; any other is refused (its meaning unknown, it might change the puzzle). Cells are
numbered row * W + column; BRIDGES and HOLES are `:`-separated cells
(a hole may carry `_k`, ignored); WALLS `:`-separated `a|b` pairs; each PATH is one flow's
cells from end to end, comma-separated. Its ends are the dots; flow k (in path order) gets the
k-th of `LABELS`. The paths are kept as the puzzle's `given` solution (see `flowsat check`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from flowsat.puzzle.board import Board
from flowsat.puzzle.formats.base import (
    MAX_DIGITS,
    AtColumn,
    CannotWrite,
    Format,
    Lazy,
    MarkError,
    PuzzleError,
    first_line,
    marks_of,
    per_line,
)
from flowsat.puzzle.model import EMPTY, Paths, Puzzle

LABELS = "RGBYOCMmPWAgTbcp" + "".join(
    ch for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    if ch not in "RGBYOCMmPWAgTbcp")
SIZE = Lazy(r"((?:[XW]_)*)(\d+)(?::(\d+))?(?:\+(.*))?$", re.ASCII)
# a level's structure: a SIZE field, then three more (numbers, when right), then `,` or `;` or
# the end; each field whatever it holds but ',' and ';' (what is wrong in them is reported as
# such). A grid's first line never has three commas: a label ',' is on two cells.
PACK_LINE = Lazy(r"\s*[^\s,;][^,;]*(?:,[^,;]*){3}(?:[,;]|\s*$)")


class Field(AtColumn):
    """A bad field of a level line, at a column of it (from 1)."""


def is_pack(lines: list[str]) -> bool:
    """A file is a level pack when its first line that is not blank has a level's structure:
    a first field (SIZE, whatever it holds: a SIZE it cannot be is reported as such), three
    numbers, then `,` or `;`."""
    return PACK_LINE.match(first_line(lines)) is not None


def parse_pack(lines: list[str], file: str, max_cells: int) -> Iterator[Puzzle | PuzzleError]:
    """Each level of a pack (index: its place among the non-empty lines, from 1)."""
    return per_line(lines, file, lambda line, n, index: parse_level(line, file, n, index,
                                                                     max_cells))


def fields_of(text: str, sep: str, start: int) -> list[tuple[str, int]]:
    """The parts of text between separators, each with its column (from 1)."""
    out, col = [], start
    for part in text.split(sep):
        out.append((part, col))
        col += len(part) + 1
    return out


def number(text: str, col: int, what: str) -> int:
    """A field's number: ASCII digits (a sign, a superscript, an Arabic-Indic digit are
    refused), at most MAX_DIGITS of them."""
    if not (text.isascii() and text.isdigit()):
        raise Field(col, f"{what}: expected a number (digits 0-9), found {text[:20]!r}")
    if len(text) > MAX_DIGITS:
        raise Field(col, f"{what}: a number of {len(text)} digits, too large")
    return int(text)


def parse_level(line: str, file: str, n: int, index: int, max_cells: int) -> Puzzle:
    """One level line as a puzzle with its given paths; a Field error where it is wrong."""
    offset = len(line) - len(line.lstrip())
    head, *paths = fields_of(line.strip(), ";", offset + 1)
    parts = fields_of(head[0], ",", head[1])
    if len(parts) < 4 or len(parts) > 7:
        raise Field(head[1], f"expected SIZE,0,LEVEL,FLOWS[,BRIDGES[,HOLES[,WALLS]]], found "
                             f"{len(parts)} fields")
    shape, wrap, width, height, marks = read_size(*parts[0])
    if width * height > max_cells:
        raise Field(parts[0][1], f"board {width}x{height} has {width * height} cells, above "
                                 f"the limit of {max_cells} cells")
    number(*parts[1], "the second field")
    level = number(*parts[2], "LEVEL")
    flows = number(*parts[3], "FLOWS")
    extra = [*parts[4:], *[("", 0)] * (7 - len(parts))]
    bridges = {cell(t, c, width * height, "bridge") for t, c in cells_field(*extra[0])}
    holes = {cell(t.split("_")[0], c, width * height, "hole") for t, c in cells_field(*extra[1])}
    walls = {wall(t, c, width * height) for t, c in cells_field(*extra[2])}
    board = Board(width, height, shape, wrap, frozenset(holes), frozenset(walls),
                  frozenset(bridges))
    if board.problem():
        raise Field(head[1], board.problem())
    if len(paths) != flows:
        raise Field(parts[3][1], f"FLOWS says {flows} flows, the line has {len(paths)} paths")
    if flows > len(LABELS):
        raise Field(parts[3][1], f"{flows} flows: at most {len(LABELS)} can be labeled")
    given = {LABELS[k]: [board.cell(cell(t, c, board.size, "path cell"))
                         for t, c in fields_of(text, ",", col)]
             for k, (text, col) in enumerate(paths)}
    rows = dot_rows(board, given, paths)
    return Puzzle(rows, file=file, index=index, line=n, format="pack", board=board, level=level,
                  marks=marks, given=tuple((c, tuple(p)) for c, p in given.items()))


def read_size(text: str, col: int) -> tuple[str, bool, int, int, tuple[str, ...]]:
    """The SIZE field: shape, warps, width, height and marks."""
    found = SIZE.match(text)
    if not found:
        raise Field(col, f"SIZE: expected W or W:H with X_/W_ prefixes and +marks, found "
                         f"{text[:20]!r}")
    width = number(found[2], col + found.start(2), "SIZE")
    height = number(found[3], col + found.start(3), "SIZE") if found[3] else width
    if width == 0 or height == 0:
        raise Field(col, f"board {width}x{height} has no cells")
    try:
        marks = () if found[4] is None else marks_of(found[4])
    except MarkError as err:
        raise Field(col + found.start(4) + err.offset, f"SIZE: {err}") from None
    return ("hex" if "X_" in found[1] else "square"), "W_" in found[1], width, height, marks


def cells_field(text: str, col: int) -> list[tuple[str, int]]:
    return [] if not text else fields_of(text, ":", col)


def cell(text: str, col: int, size: int, what: str) -> int:
    i = number(text, col, what)
    if i >= size:
        raise Field(col, f"{what} {i} is off the board ({size} cells)")
    return i


def wall(text: str, col: int, size: int) -> tuple[int, int]:
    a, sep, b = text.partition("|")
    if not sep:
        raise Field(col, f"wall: expected a|b, found {text[:20]!r}")
    i, j = cell(a, col, size, "wall cell"), cell(b, col + len(a) + 1, size, "wall cell")
    return min(i, j), max(i, j)


def dot_rows(board: Board, given: Paths, paths: list[tuple[str, int]]) -> tuple[str, ...]:
    """The rows with each path's ends as its dots, or a Field error for a misplaced dot."""
    grid = [[EMPTY] * board.width for _ in range(board.height)]
    for (color, path), (_, col) in zip(given.items(), paths, strict=True):
        if len(path) < 2 or path[0] == path[-1]:
            raise Field(col, f"path {color!r} needs two ends on two cells")
        for r, c in (path[0], path[-1]):
            i = board.number((r, c))
            where = ("a hole" if i in board.holes else "a bridge" if i in board.bridges
                     else None if grid[r][c] == EMPTY else f"the dot of {grid[r][c]!r}")
            if where:
                raise Field(col, f"path {color!r} ends on {where} at cell {i}")
            grid[r][c] = color
    return tuple("".join(row) for row in grid)


def level_line(puzzle: Puzzle, paths: Paths) -> str:
    """A puzzle and a solution of it as one line of a level pack."""
    board = puzzle.board
    size = f"{board.width}" if board.width == board.height else f"{board.width}:{board.height}"
    size = ("X_" if board.shape == "hex" else "") + ("W_" if board.wrap else "") + size + \
        ("+" + ":".join(puzzle.marks) if puzzle.marks else "")
    colors = sorted(puzzle.colors, key=lambda c: (LABELS.find(c) % (len(LABELS) + 1),
                                                  puzzle.colors.index(c)))
    extra = [":".join(map(str, sorted(board.bridges))), ":".join(map(str, sorted(board.holes))),
             ":".join(f"{a}|{b}" for a, b in sorted(board.walls))]
    while extra and not extra[-1]:
        extra.pop()
    head = ",".join([size, "0", str(puzzle.level or puzzle.index), str(len(colors)), *extra])
    return ";".join([head, *(",".join(str(board.number(tuple(cell))) for cell in paths[c])
                              for c in colors)])


def pack_text(puzzle: Puzzle, paths: Paths | None) -> str:
    """The puzzle and its solution as a level line (a CannotWrite without a solution)."""
    if paths is None:
        raise CannotWrite("a level of a pack needs a solution")
    return level_line(puzzle, paths) + "\n"


FORMAT = Format("pack", "the game's level packs: one level a line, with its solution",
                is_pack, parse_pack, pack_text, needs_solution=True)
