"""Random fillings of a board by paths: a random Hamiltonian path, cut into pieces.

The Hamiltonian path starts as a snake and is shuffled by backbite moves (link an end to one of
its neighbors and reverse the part after that neighbor). Cutting it into pieces of two or more
cells gives paths that fill the board; a piece is ended early where its next cell would touch
it side by side, so the pieces obey the no-self-touch rule unless that is allowed.

Any board's graph will do (`flowsat.puzzle.board`) where the row-by-row snake is a path: square
and hexagonal boards, with warps or not (holes and walls are made later, by the generator).
"""

from __future__ import annotations

import random
import string
from functools import lru_cache

from flowsat.puzzle.board import Board
from flowsat.puzzle.model import EMPTY, LABELS, Cell, Paths, Puzzle

LETTERS = string.ascii_uppercase + string.ascii_lowercase + string.digits + "".join(
    ch for ch in LABELS if not ch.isalnum())  # the 93 labels, letters first


@lru_cache(maxsize=64)
def around(board: Board) -> dict[Cell, list[Cell]]:
    """Each cell's neighbors through open links, in the board's direction order."""
    return {board.cell(i): [board.cell(n) for n in board.neighbors[i]] for i in board.cells}


def hamiltonian_path(height: int, width: int, rng: random.Random, moves: int | None = None,
                     board: Board | None = None) -> list[Cell]:
    """A random path through every cell of the board (by default the plain square one; any
    board without holes or walls)."""
    steps_of = around(board or Board.square(width, height))
    path = [(r, c if r % 2 == 0 else width - 1 - c) for r in range(height) for c in range(width)]
    for _ in range(moves if moves is not None else 10 * height * width):
        if rng.random() < 0.5:
            path.reverse()
        n = rng.choice(steps_of[path[-1]])
        k = path.index(n)
        if k != len(path) - 2:
            path[k + 1:] = reversed(path[k + 1:])
    return path


def cut(path: list[Cell], rng: random.Random, mean_length: float, board: Board,
        allow_self_touch: bool = False) -> list[list[Cell]] | None:
    """Pieces of two or more cells, ended at random (about mean_length long) and wherever the
    next cell would touch the piece on the board; None when a single cell is left over."""
    near = around(board)
    pieces: list[list[Cell]] = []
    piece: list[Cell] = []
    for cell in path:
        if len(piece) >= 2 and (rng.random() < 1 / max(mean_length - 1, 1) or
                                (not allow_self_touch and touches(piece, cell, near))):
            pieces.append(piece)
            piece = []
        piece.append(cell)
    if len(piece) == 1:
        if not pieces or (not allow_self_touch and touches(pieces[-1], piece[0], near)):
            return None
        pieces[-1].append(piece[0])
    else:
        pieces.append(piece)
    return pieces


def touches(piece: list[Cell], cell: Cell, near: dict[Cell, list[Cell]]) -> bool:
    """Whether cell, appended to the piece, would neighbor (as `near` has them) a cell of it
    other than the last."""
    last = piece[-1]
    return any(n != last and n in piece for n in near[cell])


def random_pieces(height: int, width: int, rng: random.Random, mean_length: float = 6.0,
                  allow_self_touch: bool = False, board: Board | None = None
                  ) -> list[list[Cell]]:
    """Paths that fill the board (by default the plain square one; any board without holes
    or walls), obeying the chosen rule (as many as the cuts make)."""
    board = board or Board.square(width, height)
    while True:
        pieces = cut(hamiltonian_path(height, width, rng, board=board), rng, mean_length, board,
                     allow_self_touch)
        if pieces:
            return pieces


def random_filling(height: int, width: int, rng: random.Random, mean_length: float = 6.0,
                   allow_self_touch: bool = False, max_colors: int = len(LETTERS)) -> Paths:
    """Paths that fill the board, one letter each, obeying the chosen rule."""
    while True:
        pieces = random_pieces(height, width, rng, mean_length, allow_self_touch)
        if len(pieces) <= max_colors:
            return dict(zip(LETTERS, pieces, strict=False))


def puzzle_of(paths: Paths, height: int, width: int, **kw) -> Puzzle:
    """The puzzle whose dots are the ends of the paths."""
    rows = [[EMPTY] * width for _ in range(height)]
    for letter, path in paths.items():
        for r, c in (path[0], path[-1]):
            rows[r][c] = letter
    return Puzzle(tuple("".join(row) for row in rows), **kw)
