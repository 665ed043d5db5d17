"""Spiral boards: four pairs whose solution is four spirals wound into each other, from the
four corners of an N x N board (N even) to its central 2 x 2 square, and the same board with
one more pair that has no solution.

    python benchmarks/spirals.py N [--unsolvable] > spiral.txt   (the Numberlink format)

The board is cut into square rings; ring k (k = 0 outermost) is four sides of N - 2k - 1
cells, walked clockwise. Arm j walks side j of ring 0, then side j + 1 of ring 1, side j + 2
of ring 2, ... (each side ends next to where the next one starts, one ring in), so each ring
holds one side of every arm and an arm's laps are kept apart by the three others.
"""

from __future__ import annotations

import argparse
import sys

LABELS = "ABCD"
EXTRA = "E"


def side(n: int, ring: int, s: int) -> list[tuple[int, int]]:
    """The cells of side s (0 top, 1 right, 2 bottom, 3 left) of a ring, clockwise."""
    lo, hi = ring, n - 1 - ring
    if s == 0:
        return [(lo, c) for c in range(lo, hi)]
    if s == 1:
        return [(r, hi) for r in range(lo, hi)]
    if s == 2:
        return [(hi, c) for c in range(hi, lo, -1)]
    return [(r, lo) for r in range(hi, lo, -1)]


def arms(n: int) -> list[list[tuple[int, int]]]:
    """The four spirals, each from its corner to the center."""
    if n < 2 or n % 2:
        raise ValueError("the size must be even and at least 2")
    return [[cell for ring in range(n // 2) for cell in side(n, ring, (j + ring) % 4)]
            for j in range(4)]


def spiral(n: int) -> list[str]:
    """The rows of the four-spiral puzzle (dots only)."""
    grid = [["."] * n for _ in range(n)]
    for label, arm in zip(LABELS, arms(n), strict=True):
        for r, c in (arm[0], arm[-1]):
            grid[r][c] = label
    return ["".join(row) for row in grid]


def unsolvable(n: int) -> list[str]:
    """The spiral board with a fifth pair that cannot be joined: its dots sit on the first
    ring's top side, two cells apart, where the spiral from the top left corner must pass
    between them (both neighbors of the corner dot's only way out are taken)."""
    if n < 8:
        raise ValueError("the unsolvable board needs a size of at least 8")
    grid = [list(row) for row in spiral(n)]
    grid[1][1] = EXTRA
    grid[0][2] = EXTRA
    return ["".join(row) for row in grid]


def numberlink(rows: list[str]) -> str:
    return f"{len(rows[0])} {len(rows)}\n" + "\n".join(rows) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("size", type=int)
    parser.add_argument("--unsolvable", action="store_true")
    args = parser.parse_args()
    rows = (unsolvable if args.unsolvable else spiral)(args.size)
    sys.stdout.write(numberlink(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
