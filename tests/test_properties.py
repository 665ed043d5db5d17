"""Property tests: puzzles cut from random fillings are solvable by construction; on random
boards that may not be solvable, every encoding agrees with the 2016 one."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from flowsat.checker import problems
from flowsat.generate.filling import puzzle_of, random_filling
from flowsat.puzzle import Puzzle
from flowsat.puzzle.rules import Rules
from flowsat.sat.spec import builtin_specs
from flowsat.solve import solve

VARIANTS = ["edges-binary+cycles=squares", "edges-binary+cycles=order",
            "edges-binary+touch=lazy", "edges-unique+touch=lazy+cycles=squares",
            "edges-binary+deduce=true", "zucker2016+card=ladder",
            "edges-onehot+card=seqcounter"]
ENCODINGS = sorted(builtin_specs()) + VARIANTS

fillings = st.tuples(st.integers(1, 7), st.integers(2, 7), st.integers(0, 2**32),
                     st.sampled_from([2.5, 4.0, 8.0]), st.booleans())


@settings(max_examples=60, deadline=None)
@given(fillings, st.sampled_from(ENCODINGS))
def test_random_fillings_are_solved_and_checked(board, encoding):
    height, width, seed, mean, allow_self_touch = board
    filling = random_filling(height, width, random.Random(seed), mean, allow_self_touch)
    puzzle = puzzle_of(filling, height, width)
    assert problems(puzzle, filling, Rules(allow_self_touch)) == []  # the filling itself is right
    result = solve(puzzle, encoding=encoding, rules=Rules(allow_self_touch))
    assert result.status == "solved", (puzzle.rows, allow_self_touch)
    assert problems(puzzle, result.paths, Rules(allow_self_touch)) == []


@st.composite
def random_boards(draw) -> Puzzle:
    """Boards solvable or not, nobody knows beforehand: pairs of dots dropped at random, or
    a puzzle cut from a filling with the letters of two dots swapped."""
    height, width = draw(st.integers(1, 5)), draw(st.integers(2, 5))
    if draw(st.booleans()):
        filling = random_filling(height, width, random.Random(draw(st.integers(0, 2**32))),
                                 draw(st.sampled_from([2.5, 4.0, 8.0])))
        rows = [list(row) for row in puzzle_of(filling, height, width).rows]
        dots = [(r, c) for r in range(height) for c in range(width) if rows[r][c] != "."]
        (r1, c1), (r2, c2) = draw(st.permutations(dots))[:2]
        rows[r1][c1], rows[r2][c2] = rows[r2][c2], rows[r1][c1]
        return Puzzle(tuple("".join(row) for row in rows))
    cells = [(r, c) for r in range(height) for c in range(width)]
    spots = draw(st.permutations(cells))
    pairs = draw(st.integers(1, max(1, len(cells) // 3)))
    rows = [["."] * width for _ in range(height)]
    for k in range(pairs):
        for r, c in spots[2 * k:2 * k + 2]:
            rows[r][c] = "ABCDEFGH"[k]
    return Puzzle(tuple("".join(row) for row in rows))


@settings(max_examples=80, deadline=None)
@given(random_boards(), st.booleans())
def test_every_encoding_agrees_with_zucker2016(puzzle, allow_self_touch):
    expected = solve(puzzle, encoding="zucker2016", rules=Rules(allow_self_touch)).status
    for encoding in ENCODINGS:
        result = solve(puzzle, encoding=encoding, rules=Rules(allow_self_touch))
        assert result.status == expected, (encoding, puzzle.rows, allow_self_touch)
