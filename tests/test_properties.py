"""Property tests: puzzles cut from random fillings are solvable by construction."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from flowsat.checker import problems
from flowsat.generate.filling import puzzle_of, random_filling
from flowsat.sat.spec import builtin_specs
from flowsat.solve import solve

boards = st.tuples(st.integers(1, 7), st.integers(2, 7), st.integers(0, 2**32),
                   st.sampled_from([2.5, 4.0, 8.0]), st.booleans())


@settings(max_examples=60, deadline=None)
@given(boards, st.sampled_from(sorted(builtin_specs())))
def test_random_fillings_are_solved_and_checked(board, encoding):
    height, width, seed, mean, allow_self_touch = board
    filling = random_filling(height, width, random.Random(seed), mean, allow_self_touch)
    puzzle = puzzle_of(filling, height, width)
    assert problems(puzzle, filling, allow_self_touch) == []  # the filling itself is right
    result = solve(puzzle, encoding=encoding, allow_self_touch=allow_self_touch)
    assert result.status == "solved", (puzzle.rows, allow_self_touch)
    assert problems(puzzle, result.paths, allow_self_touch) == []
