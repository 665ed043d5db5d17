"""Where a board's cells are drawn, from `Board.center`: the step to each neighbor, the side a
cell shares with it, the outline of a cell, and what each side of a cell is (grid line, wall,
opening of a warp). Units are cell heights; x to the right, y down."""

from __future__ import annotations

from functools import cache
from math import atan2, pi, tan

from flowsat.puzzle.board import Board
from flowsat.puzzle.model import Cell, Paths

Point = tuple[float, float]
OVER = 0  # the pass drawn on top at a bridge (`Board.axes`: 0 across, 1 up and down)


@cache
def steps(shape: str) -> dict[str, Point]:
    """The vector from a cell's center to its neighbor's in each direction (one length: 1),
    the same for every cell of the shape."""
    board = Board(4, 3, shape)
    i = board.number((1, 1))  # every neighbor of this cell is on the board
    x, y = board.center(i)
    return {d: (nx - x, ny - y) for d in board.directions
            for nx, ny in [board.center(board.step(i, d, False))]}


def side(board: Board, i: int, direction: str) -> tuple[Point, Point]:
    """The ends of the side of cell i facing that direction, clockwise around the cell."""
    (x, y), (dx, dy) = board.center(i), steps(board.shape)[direction]
    half = tan(pi / len(board.directions)) / 2  # regular polygons half a cell from center to side
    mx, my = x + dx / 2, y + dy / 2
    return (mx + dy * half, my - dx * half), (mx - dy * half, my + dx * half)


def outline(board: Board, i: int) -> list[Point]:
    """The corners of cell i, clockwise (a square or a flat-topped hexagon)."""
    around = sorted(board.directions, key=lambda d: atan2(*reversed(steps(board.shape)[d])))
    return [side(board, i, d)[0] for d in around]


def direction(board: Board, a: Cell, b: Cell) -> str | None:
    """The direction from cell a to its neighbor b (a warp included), or None if b is none."""
    return board.way_between(a, b)


def wraps(board: Board, i: int, direction: str) -> bool:
    """Whether the link from cell i that way goes across the border (a warp)."""
    return board.wrap and board.step(i, direction, False) is None


def sides(board: Board) -> dict[str, list[tuple[int, str]]]:
    """Each side of the cells on the board, once, as (cell, direction), by what it is:
    `grid` between two cells, `wall` a wall or the border (on a plain board the border is
    grid), `opening` the border where an open warp goes through."""
    out: dict[str, list[tuple[int, str]]] = {"grid": [], "wall": [], "opening": []}
    border = "grid" if board.plain else "wall"
    for i in board.cells:
        for d in board.directions:
            n = board.step(i, d, False)
            if n is not None and board.on_board[n]:
                if i < n:
                    out["wall" if (i, n) in board.walls else "grid"].append((i, d))
            elif wraps(board, i, d) and board.toward[d][i] is not None:
                out["opening"].append((i, d))
            else:
                out[border].append((i, d))
    return out


def passes(board: Board, b: int, paths: Paths) -> dict[int, str]:
    """Which color takes each pass of bridge b (`Board.axes`), as far as the paths go."""
    found = {}
    for color, path in paths.items():
        cells = [board.number(tuple(c)) for c in path]
        for k, i in enumerate(cells):
            if i == b and len(cells) > 1:
                axis = board.axis_of(b, cells[k - 1] if k else cells[1])
                if axis is not None:
                    found[axis] = color
    return found
