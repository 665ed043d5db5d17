"""Boards as SVG pictures, as in the game: a dark board, grid lines, round dots, and thick
rounded pipes along the paths over a faint tint of their color.

Every kind of board (see `render.geometry`): cells are squares or flat-topped hexagons where
`Board.center` puts them; a hole is not drawn (no grid, no tint: a gap); a wall is a light bar
on the side between its two cells, and a board that is not plain has the same bar as its
border; a warp is an opening in that border (dashed), the pipe through it going out past one
side and coming in at the other; at a bridge the pipe across is drawn again on top of the one
up and down, with a dark gap each side of it where they cross, between two rails."""

from __future__ import annotations

import html
from collections import defaultdict
from dataclasses import dataclass
from itertools import pairwise
from math import isclose

from flowsat.puzzle.board import OPPOSITE, Board
from flowsat.puzzle.model import Paths, Puzzle
from flowsat.render.geometry import (
    OVER,
    Point,
    direction,
    outline,
    passes,
    side,
    sides,
    steps,
    wraps,
)
from flowsat.render.palette import BACKGROUND, WALL_RGB, hex_color, palette

GRID = "#6b6b3a"  # olive grid lines, as in the game
WALL_WIDTH = 0.1  # in cells
PIPE = 0.36  # pipe width, in cells
DOT = 0.32  # dot radius, in cells
TINT = 0.25  # opacity of the color under a path
STUB = 0.3  # how far a pipe through a warp goes past the border, in cells
DASH = 0.08  # the dashes of the border where a warp opens it, in cells
GAP = 0.08  # the dark edge each side of the pipe on top at a bridge, in cells
WALL = hex_color(WALL_RGB)
RAIL, RAIL_LENGTH = 0.04, 0.7  # a bridge's rails, in cells (shorter than a wall)


@dataclass(frozen=True)
class Canvas:
    """Where a point of the board (in cells, see `render.geometry`) is in the picture."""

    cell: float
    left: float  # the picture's x of the board's x = 0
    top: float
    width: float
    height: float

    @classmethod
    def of(cls, board: Board, cell: float) -> Canvas:
        """The picture of the whole grid (holes included) with a margin around it."""
        pad = max(1.0, cell / 10, (STUB + PIPE / 2 + 0.1) * cell if board.wrap else 0)
        corners = [p for i in range(board.size) for p in outline(board, i)]
        x0, y0 = min(x for x, _ in corners), min(y for _, y in corners)
        x1, y1 = max(x for x, _ in corners), max(y for _, y in corners)
        return cls(cell, pad - x0 * cell, pad - y0 * cell, (x1 - x0) * cell + 2 * pad,
                   (y1 - y0) * cell + 2 * pad)

    def x(self, x: float) -> float:
        return self.left + x * self.cell

    def y(self, y: float) -> float:
        return self.top + y * self.cell

    def at(self, p: Point) -> str:
        return f"{num(self.x(p[0]))},{num(self.y(p[1]))}"

    def move(self, p: Point) -> str:
        """A relative move by p (in cells)."""
        return f"{num(p[0] * self.cell)},{num(p[1] * self.cell)}"


def svg(puzzle: Puzzle, paths: Paths | None = None, cell: float = 40,
        title: str | None = None) -> str:
    """The picture of the board with its paths (none: the unsolved board), `cell` pixels a cell;
    one `pipe` path element per color, drawn as half-links from each cell's center."""
    paths = paths or {}
    board = puzzle.board
    rgb = {c: hex_color(v) for c, v in palette(puzzle.colors).items()}
    canvas = Canvas.of(board, cell)
    width, height = canvas.width, canvas.height
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}" '
           f'height="{num(height)}" viewBox="0 0 {num(width)} {num(height)}">',
           f"<title>{escape(title or puzzle.name)}</title>",
           f'<rect width="100%" height="100%" fill="{hex_color(BACKGROUND)}"/>']
    for color, path in paths.items():
        cells = " ".join("M" + "L".join(map(canvas.at, outline(board, board.number(tuple(c)))))
                         + "z" for c in path)
        out.append(f'<path class="tint" fill="{rgb[color]}" fill-opacity="{TINT}" '
                   f'd="{cells}"/>')
    out += board_lines(board, canvas)
    for color, path in paths.items():
        out.append(f'<path class="pipe" data-color="{escape(color)}" stroke="{rgb[color]}" '
                   f'stroke-width="{num(PIPE * cell)}" stroke-linecap="round" fill="none" '
                   f'd="{pipe(board, path, canvas)}"/>')
    for b in sorted(board.bridges):
        out += bridge(board, b, paths, canvas, rgb)
    for color, ends in puzzle.dots.items():
        for r, c in ends:
            x, y = board.center(board.number((r, c)))
            out.append(f'<circle class="dot" cx="{num(canvas.x(x))}" cy="{num(canvas.y(y))}" '
                       f'r="{num(DOT * cell)}" fill="{rgb[color]}"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def board_lines(board: Board, canvas: Canvas) -> list[str]:
    """The grid lines between the cells (and in the openings of warps), the walls, and the
    openings as dashes in the border."""
    found = sides(board)
    ends = {kind: [side(board, i, d) for i, d in found[kind]] for kind in found}
    out = [f'<path class="grid" stroke="{GRID}" stroke-width="{num(max(1.0, canvas.cell / 40))}" '
           f'shape-rendering="crispEdges" d="{lines(ends["grid"] + ends["opening"], canvas)}"/>']
    if ends["wall"]:
        out.append(f'<path class="walls" stroke="{WALL}" '
                   f'stroke-width="{num(WALL_WIDTH * canvas.cell)}" stroke-linecap="round" '
                   f'd="{lines(ends["wall"], canvas)}"/>')
    if ends["opening"]:
        dash = num(DASH * canvas.cell)
        out.append(f'<path class="openings" stroke="{WALL}" '
                   f'stroke-width="{num(RAIL * canvas.cell)}" stroke-dasharray="{dash} {dash}" '
                   f'd="{" ".join(lines([end], canvas) for end in ends["opening"])}"/>')
    return out


def lines(segments: list[tuple[Point, Point]], canvas: Canvas) -> str:
    """Path data of the segments; those along one row or column joined where they meet."""
    rows: dict[float, list[tuple[float, float]]] = defaultdict(list)
    cols: dict[float, list[tuple[float, float]]] = defaultdict(list)
    slanted = []
    for (x0, y0), (x1, y1) in segments:
        if isclose(y0, y1):
            rows[round(y0, 9)].append((min(x0, x1), max(x0, x1)))
        elif isclose(x0, x1):
            cols[round(x0, 9)].append((min(y0, y1), max(y0, y1)))
        else:
            slanted.append(f"M{canvas.at((x0, y0))}L{canvas.at((x1, y1))}")
    out = [f"M{num(canvas.x(a))},{num(canvas.y(y))}H{num(canvas.x(b))}"
           for y, spans in sorted(rows.items()) for a, b in joined(spans)]
    out += [f"M{num(canvas.x(x))},{num(canvas.y(a))}V{num(canvas.y(b))}"
            for x, spans in sorted(cols.items()) for a, b in joined(spans)]
    return " ".join(out + slanted)


def joined(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The spans of a line, those that meet made one."""
    out: list[tuple[float, float]] = []
    for a, b in sorted(spans):
        if out and isclose(out[-1][1], a):
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def pipe(board: Board, path: list, canvas: Canvas) -> str:
    """Path data of a path's pipe: for each step, a half-link out of each of its two cells (past
    the border when the step is a warp); steps between two pieces of a path link nothing."""
    halves = []
    for a, b in pairwise(map(tuple, path)):
        way = direction(board, a, b)
        if way is None:
            continue
        for i, d in ((board.number(a), way), (board.number(b), OPPOSITE[way])):
            reach = 0.5 + (STUB if wraps(board, i, d) else 0)
            dx, dy = steps(board.shape)[d]
            halves.append(f"M{canvas.at(board.center(i))}l{canvas.move((dx * reach, dy * reach))}")
    return " ".join(halves)


def bridge(board: Board, b: int, paths: Paths, canvas: Canvas, rgb: dict[str, str]) -> list[str]:
    """A bridge over its pipes: where both passes are taken, a dark gap each side of the pass on
    top; that pass's pipe again across the cell; two rails along it, inside the cell."""
    center = board.center(b)
    dx, dy = steps(board.shape)[direction(board, board.cell(b), board.cell(board.axes[b][OVER][1]))]

    def across(half: float, offset: float = 0) -> str:
        x, y = center[0] - dx * half - dy * offset, center[1] - dy * half + dx * offset
        return f"M{canvas.at((x, y))}l{canvas.move((2 * dx * half, 2 * dy * half))}"

    taken, cell, out = passes(board, b, paths), canvas.cell, []
    if len(taken) == 2:
        out.append(f'<path class="gap" data-cell="{b}" stroke="{hex_color(BACKGROUND)}" '
                   f'stroke-width="{num((PIPE + 2 * GAP) * cell)}" '
                   f'd="{across(PIPE / 2 + GAP)}"/>')
    if OVER in taken:
        color = taken[OVER]
        out.append(f'<path class="over" data-color="{color}" data-cell="{b}" '
                   f'stroke="{rgb[color]}" stroke-width="{num(PIPE * cell)}" d="{across(0.5)}"/>')
    rails = " ".join(across(RAIL_LENGTH / 2, side * (PIPE / 2 + GAP)) for side in (-1, 1))
    out.append(f'<path class="rails" data-cell="{b}" stroke="{WALL}" '
               f'stroke-width="{num(RAIL * cell)}" d="{rails}"/>')
    return out


def escape(text: str) -> str:
    """The text as XML character data or an attribute value: & < > " ' escaped."""
    return html.escape(text, quote=True)


def num(x: float) -> str:
    """A coordinate, short: no trailing zeros."""
    return f"{x:.2f}".rstrip("0").rstrip(".")
