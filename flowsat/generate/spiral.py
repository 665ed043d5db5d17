"""Spiral boards (`flowsat generate --shape spiral`): four pairs whose solution is four spirals
wound into each other, from the four corners of an N x N board (N even) to its central 2 x 2
square, and the same board with a fifth pair that cannot be joined (`spiral-unsolvable`).

The board is cut into square rings; ring k (k = 0 outermost) is four sides of N - 2k - 1
cells, walked clockwise. Arm j walks side j of ring 0, then side j + 1 of ring 1, side j + 2
of ring 2, ... (each side ends next to where the next one starts, one ring in), so each ring
holds one side of every arm and an arm's laps are kept apart by the three others. Nothing is
random and nothing is proved: the arms are a solution, built with the board. It is the only
one when N is a multiple of 4 (`flowsat check-unique` proves it up to 24); at N = 6, 10, 14,
... (1002 too) there are others.
"""

from __future__ import annotations

from flowsat.puzzle.formats.base import MAX_CELLS
from flowsat.puzzle.model import Cell, Paths, Puzzle
from flowsat.result import UsageError

LABELS = "ABCD"
EXTRA = "E"  # the unsolvable board's fifth pair
SHAPES = {"spiral": 4, "spiral-unsolvable": 8}  # each shape's smallest N (at 2 the arms are
# single cells)


def side(n: int, ring: int, s: int) -> list[Cell]:
    """The cells of side s (0 top, 1 right, 2 bottom, 3 left) of a ring, clockwise."""
    lo, hi = ring, n - 1 - ring
    if s == 0:
        return [(lo, c) for c in range(lo, hi)]
    if s == 1:
        return [(r, hi) for r in range(lo, hi)]
    if s == 2:
        return [(hi, c) for c in range(hi, lo, -1)]
    return [(r, lo) for r in range(hi, lo, -1)]


def arms(n: int) -> Paths:
    """The four spirals by label, each from its corner to the center: the solution."""
    return {label: [cell for ring in range(n // 2) for cell in side(n, ring, (j + ring) % 4)]
            for j, label in enumerate(LABELS)}


def ends(n: int) -> dict[str, tuple[Cell, Cell]]:
    """Each arm's two dots: its corner, and its end on the innermost ring."""
    last = n // 2 - 1
    return {label: (side(n, 0, j)[0], side(n, last, (j + last) % 4)[-1])
            for j, label in enumerate(LABELS)}


def spiral_rows(n: int, unsolvable: bool = False) -> list[str]:
    """The rows of the four-spiral board; `unsolvable` adds the fifth pair on the first ring's
    top side, two cells apart, where the spiral from the top left corner must pass between
    them (both neighbors of the corner dot's only way out are taken)."""
    grid = [["."] * n for _ in range(n)]
    for label, dots in ends(n).items():
        for r, c in dots:
            grid[r][c] = label
    if unsolvable:
        grid[1][1] = grid[0][2] = EXTRA
    return ["".join(row) for row in grid]


def spiral_size(shape: str, width: int, height: int) -> int:
    """The shape's N for a board of width x height; UsageError when it cannot be made."""
    smallest = SHAPES[shape]
    if width != height or width % 2 or width < smallest:
        raise UsageError(f"--shape {shape} makes square boards of an even size from "
                         f"{smallest}x{smallest}, not {width}x{height}")
    if width * height > MAX_CELLS:
        raise UsageError(f"--size {width}x{height}: {width * height} cells, above flowsat's "
                         f"limit of {MAX_CELLS:,}")
    return width


def spiral_puzzle(shape: str, width: int, height: int) -> tuple[Puzzle, Paths | None]:
    """The shape's board and its solution (None: the unsolvable board has none)."""
    n = spiral_size(shape, width, height)
    unsolvable = shape == "spiral-unsolvable"
    puzzle = Puzzle(tuple(spiral_rows(n, unsolvable)), file=f"{shape}-{n}x{n}")
    return puzzle, None if unsolvable else arms(n)
