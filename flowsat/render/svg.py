"""Boards as SVG pictures, as in the game: a dark board, grid lines, round dots, and thick
rounded pipes along the paths over a faint tint of their color."""

from __future__ import annotations

import html

from flowsat.puzzle.model import Paths, Puzzle
from flowsat.render.palette import BACKGROUND, hex_color, palette
from flowsat.render.text import links

GRID = "#6b6b3a"  # olive grid lines, as in the game
PIPE = 0.36  # pipe width, in cells
DOT = 0.32  # dot radius, in cells
TINT = 0.25  # opacity of the color under a path
HALF_STEPS = {"U": (0, -0.5), "D": (0, 0.5), "L": (-0.5, 0), "R": (0.5, 0)}


def svg(puzzle: Puzzle, paths: Paths | None = None, cell: float = 40,
        title: str | None = None) -> str:
    """The picture of the board with its paths (none: the unsolved board), `cell` pixels a cell;
    one `pipe` path element per color, drawn as half-links from each cell's center."""
    paths = paths or {}
    rgb = {c: hex_color(v) for c, v in palette(puzzle.colors).items()}
    pad = max(1.0, cell / 10)
    width, height = puzzle.width * cell + 2 * pad, puzzle.height * cell + 2 * pad

    def center(r: int, c: int) -> tuple[float, float]:
        return pad + (c + 0.5) * cell, pad + (r + 0.5) * cell

    linked = links(paths)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}" '
           f'height="{num(height)}" viewBox="0 0 {num(width)} {num(height)}">',
           f"<title>{escape(title or puzzle.name)}</title>",
           f'<rect width="100%" height="100%" fill="{hex_color(BACKGROUND)}"/>']
    for color, path in paths.items():
        squares = " ".join(f"M{num(pad + c * cell)},{num(pad + r * cell)}h{num(cell)}"
                           f"v{num(cell)}h{num(-cell)}z" for r, c in map(tuple, path))
        out.append(f'<path class="tint" fill="{rgb[color]}" fill-opacity="{TINT}" '
                   f'd="{squares}"/>')
    out.append(f'<path class="grid" stroke="{GRID}" stroke-width="{num(max(1.0, cell / 40))}" '
               f'shape-rendering="crispEdges" d="{grid_lines(puzzle, cell, pad)}"/>')
    for color, path in paths.items():
        halves = []
        for r, c in map(tuple, path):
            x, y = center(r, c)
            halves += [f"M{num(x)},{num(y)}l{num(dx * cell)},{num(dy * cell)}"
                       for dx, dy in map(HALF_STEPS.get, sorted(linked.get((r, c), ())))]
        out.append(f'<path class="pipe" data-color="{escape(color)}" stroke="{rgb[color]}" '
                   f'stroke-width="{num(PIPE * cell)}" stroke-linecap="round" fill="none" '
                   f'd="{" ".join(halves)}"/>')
    for color, ends in puzzle.dots.items():
        for r, c in ends:
            x, y = center(r, c)
            out.append(f'<circle class="dot" cx="{num(x)}" cy="{num(y)}" '
                       f'r="{num(DOT * cell)}" fill="{rgb[color]}"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def grid_lines(puzzle: Puzzle, cell: float, pad: float) -> str:
    """The path data of the lines around and between the cells."""
    right, bottom = pad + puzzle.width * cell, pad + puzzle.height * cell
    rows = (f"M{num(pad)},{num(pad + r * cell)}H{num(right)}" for r in range(puzzle.height + 1))
    cols = (f"M{num(pad + c * cell)},{num(pad)}V{num(bottom)}" for c in range(puzzle.width + 1))
    return " ".join((*rows, *cols))


def escape(text: str) -> str:
    """The text as XML character data or an attribute value: & < > " ' escaped."""
    return html.escape(text, quote=True)


def num(x: float) -> str:
    """A coordinate, short: no trailing zeros."""
    return f"{x:.2f}".rstrip("0").rstrip(".")

