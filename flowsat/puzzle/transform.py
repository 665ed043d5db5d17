"""The eight rotations and reflections of a board, applied to puzzles and mapped back on paths."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from flowsat.puzzle.board import Board
from flowsat.puzzle.model import Cell, Paths, Puzzle

# Each symmetry maps a cell (r, c) of an h x w board to its place on the transformed board.
MAPS: dict[str, Callable[[int, int, int, int], Cell]] = {
    "identity": lambda r, c, h, w: (r, c),
    "rot90": lambda r, c, h, w: (c, h - 1 - r),  # clockwise
    "rot180": lambda r, c, h, w: (h - 1 - r, w - 1 - c),
    "rot270": lambda r, c, h, w: (w - 1 - c, r),
    "flip-lr": lambda r, c, h, w: (r, w - 1 - c),
    "flip-ud": lambda r, c, h, w: (h - 1 - r, c),
    "transpose": lambda r, c, h, w: (c, r),
    "antitranspose": lambda r, c, h, w: (w - 1 - c, h - 1 - r),
}
SYMMETRIES = tuple(MAPS)
INVERSE = {**{s: s for s in SYMMETRIES}, "rot90": "rot270", "rot270": "rot90"}


def swaps_sides(symmetry: str) -> bool:
    """Whether the symmetry turns an h x w board into a w x h one."""
    return symmetry in ("rot90", "rot270", "transpose", "antitranspose")


def transform(puzzle: Puzzle, symmetry: str) -> Puzzle:
    """The puzzle rotated or reflected; `identity` gives it back unchanged."""
    if symmetry == "identity":
        return puzzle
    h, w = puzzle.height, puzzle.width
    nh, nw = (w, h) if swaps_sides(symmetry) else (h, w)
    grid = [[""] * nw for _ in range(nh)]
    move = MAPS[symmetry]
    for r, c in map(puzzle.board.cell, range(puzzle.board.size)):  # holes too
        nr, nc = move(r, c, h, w)
        grid[nr][nc] = puzzle[r, c]
    return replace(puzzle, rows=tuple("".join(row) for row in grid),
                   board=transform_board(puzzle.board, symmetry))


def transform_board(board: Board, symmetry: str) -> Board:
    """The board rotated or reflected: its holes, walls and bridges moved along (square)."""
    if board.shape != "square":
        from flowsat.result import UsageError

        raise UsageError(f"the symmetries of a square board do not apply to a {board.kind} "
                         f"board")
    h, w = board.height, board.width
    nh, nw = (w, h) if swaps_sides(symmetry) else (h, w)
    move = MAPS[symmetry]

    def number(i: int) -> int:
        r, c = move(*board.cell(i), h, w)
        return r * nw + c

    walls = frozenset(tuple(sorted((number(a), number(b)))) for a, b in board.walls)
    return Board(nw, nh, board.shape, board.wrap, frozenset(map(number, board.holes)), walls,
                 frozenset(map(number, board.bridges)))


def transform_paths(paths: Paths, symmetry: str, height: int, width: int) -> Paths:
    """Paths on an h x w board carried onto its transformed board."""
    move = MAPS[symmetry]
    return {color: [move(r, c, height, width) for r, c in path] for color, path in paths.items()}


def untransform_paths(paths: Paths, symmetry: str, original: Puzzle) -> Paths:
    """Paths found on `transform(original, symmetry)` carried back onto `original`."""
    h, w = original.height, original.width
    th, tw = (w, h) if swaps_sides(symmetry) else (h, w)
    return transform_paths(paths, INVERSE[symmetry], th, tw)
