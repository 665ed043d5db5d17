"""The eight rotations and reflections of a board, and paths carried back to the original."""

from __future__ import annotations

import random

import pytest

from flowsat.checker import problems
from flowsat.generate.filling import puzzle_of, random_filling
from flowsat.puzzle import SYMMETRIES, Puzzle, transform, untransform_paths
from flowsat.puzzle.transform import INVERSE, transform_paths
from flowsat.solve import solve

PUZZLE = puzzle_of(random_filling(3, 6, random.Random(7), 4), 3, 6)  # solvable by construction


def test_eight_distinct_orientations():
    boards = {transform(PUZZLE, s).rows for s in SYMMETRIES}
    assert len(SYMMETRIES) == 8 and len(boards) == 8


def test_rotation_and_reflection_by_hand():
    small = Puzzle.from_text("AB / ..")
    assert transform(small, "rot90").rows == (".A", ".B")
    assert transform(small, "rot180").rows == ("..", "BA")
    assert transform(small, "flip-lr").rows == ("BA", "..")
    assert transform(small, "transpose").rows == ("A.", "B.")
    wide = transform(PUZZLE, "rot90")
    assert (wide.height, wide.width) == (6, 3)


@pytest.mark.parametrize("symmetry", SYMMETRIES)
def test_inverse_gives_the_puzzle_back(symmetry):
    assert transform(transform(PUZZLE, symmetry), INVERSE[symmetry]).rows == PUZZLE.rows


@pytest.mark.parametrize("symmetry", SYMMETRIES)
def test_solutions_carry_back_to_the_original(symmetry):
    turned = transform(PUZZLE, symmetry)
    result = solve(turned)
    assert result.status == "solved"
    back = untransform_paths(result.paths, symmetry, PUZZLE)
    assert problems(PUZZLE, back) == []
    assert transform_paths(back, symmetry, PUZZLE.height, PUZZLE.width) == result.paths
