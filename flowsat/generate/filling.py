"""Random fillings of a board by paths: a random Hamiltonian path, cut into pieces.

The Hamiltonian path starts as a snake and is shuffled by backbite moves (link an end to one of
its neighbors and reverse the part after that neighbor). Cutting it into pieces of two or more
cells gives paths that fill the board; a piece is ended early where its next cell would touch
it side by side, so the pieces obey the no-self-touch rule unless that is allowed.
"""

from __future__ import annotations

import random
import string

from flowsat.puzzle.model import EMPTY, LABELS, Cell, Paths, Puzzle

LETTERS = string.ascii_uppercase + string.ascii_lowercase + string.digits + "".join(
    ch for ch in LABELS if not ch.isalnum())  # the 93 labels, letters first


def hamiltonian_path(height: int, width: int, rng: random.Random, moves: int | None = None
                     ) -> list[Cell]:
    """A random path through every cell of the board."""
    path = [(r, c if r % 2 == 0 else width - 1 - c) for r in range(height) for c in range(width)]
    for _ in range(moves if moves is not None else 10 * height * width):
        if rng.random() < 0.5:
            path.reverse()
        r, c = path[-1]
        steps = [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                 if 0 <= r + dr < height and 0 <= c + dc < width]
        n = rng.choice(steps)
        k = path.index(n)
        if k != len(path) - 2:
            path[k + 1:] = reversed(path[k + 1:])
    return path


def cut(path: list[Cell], rng: random.Random, mean_length: float,
        allow_self_touch: bool = False) -> list[list[Cell]] | None:
    """Pieces of two or more cells, ended at random (about mean_length long) and wherever the
    next cell would touch the piece; None when a single cell is left over."""
    pieces: list[list[Cell]] = []
    piece: list[Cell] = []
    for cell in path:
        if len(piece) >= 2 and (rng.random() < 1 / max(mean_length - 1, 1) or
                                (not allow_self_touch and touches(piece, cell))):
            pieces.append(piece)
            piece = []
        piece.append(cell)
    if len(piece) == 1:
        if not pieces or (not allow_self_touch and touches(pieces[-1], piece[0])):
            return None
        pieces[-1].append(piece[0])
    else:
        pieces.append(piece)
    return pieces


def touches(piece: list[Cell], cell: Cell) -> bool:
    """Whether cell, appended to the piece, would neighbor a cell of it other than the last."""
    r, c = cell
    return any(abs(r - a) + abs(c - b) == 1 for a, b in piece[:-1])


def random_pieces(height: int, width: int, rng: random.Random, mean_length: float = 6.0,
                  allow_self_touch: bool = False) -> list[list[Cell]]:
    """Paths that fill the board, obeying the chosen rule (as many as the cuts make)."""
    while True:
        pieces = cut(hamiltonian_path(height, width, rng), rng, mean_length, allow_self_touch)
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
