"""The checker accepts right solutions and rejects each kind of wrong one for its reason."""

from __future__ import annotations

import pytest

from flowsat.checker import InvalidSolution, check, problems
from flowsat.puzzle import Puzzle
from flowsat.puzzle.rules import Rules

#  .AB      A A B      A: (0,1) (0,0) (1,0) (2,0)
#  .B.  ->  A B B      B: (0,2) (1,2) (1,1)
#  ACC      A C C      C: (2,1) (2,2)
PUZZLE = Puzzle.from_text(".AB / .B. / ACC")
RIGHT = {"A": [(0, 1), (0, 0), (1, 0), (2, 0)], "B": [(0, 2), (1, 2), (1, 1)],
         "C": [(2, 1), (2, 2)]}


def wrong(**changes):
    return problems(PUZZLE, {**RIGHT, **changes})


def test_right_solution_passes_in_any_direction():
    assert problems(PUZZLE, RIGHT) == []
    assert problems(PUZZLE, {**RIGHT, "A": RIGHT["A"][::-1]}) == []
    check(PUZZLE, RIGHT)


def test_cells_may_be_lists_as_in_json():
    assert problems(PUZZLE, {c: [list(x) for x in p] for c, p in RIGHT.items()}) == []


def test_missing_color():
    paths = {c: p for c, p in RIGHT.items() if c != "C"}
    found = problems(PUZZLE, paths)
    assert found[0] == "color 'C' has no path"
    assert "cell (2, 1) is on no path" in found


def test_unknown_color():
    assert wrong(Z=[(0, 0), (0, 1)])[0] == "path 'Z' is not a color of the puzzle"


def test_path_must_join_its_two_dots():
    assert wrong(A=[(0, 1), (0, 0), (1, 0)])[0] == (
        "path 'A' does not run from one of its dots to the other")


def test_steps_must_be_orthogonal_neighbors():
    assert "path 'A' jumps from (0, 0) to (2, 0): a warp, and the board has none" in wrong(
        A=[(0, 1), (0, 0), (2, 0)])
    assert "path 'B' jumps from (0, 2) to (1, 1): not a step to a neighbor" in wrong(
        B=[(0, 2), (1, 1)])


def test_no_cell_twice_on_a_path():
    assert "path 'A' visits (0, 0) twice" in wrong(
        A=[(0, 1), (0, 0), (1, 0), (0, 0), (1, 0), (2, 0)])


def test_dots_keep_their_color():
    assert wrong(A=[(0, 1), (1, 1), (1, 0), (2, 0)])[0] == (
        "path 'A' passes through the dot of 'B' at (1, 1)")


def test_path_stays_on_the_board():
    assert wrong(A=[(0, 1), (-1, 1), (2, 0)])[0] == "path 'A' leaves the board at (-1, 1)"


def test_every_cell_on_exactly_one_path():
    found = wrong(C=[(2, 1), (1, 1), (1, 2), (2, 2)])
    assert "cell (1, 2) is on paths B and C" in found
    assert "path 'C' passes through the dot of 'B' at (1, 1)" in found
    row = Puzzle.from_text("A.A / ...")
    assert problems(row, {"A": [(0, 0), (0, 1), (0, 2)]}) == [
        "cell (1, 0) is on no path", "cell (1, 1) is on no path", "cell (1, 2) is on no path"]


def test_self_touch_rule_is_switchable():
    puzzle = Puzzle.from_text("A.. / A..")
    around = {"A": [(0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0)]}
    assert problems(puzzle, around, Rules(self_touch=True)) == []
    assert problems(puzzle, around) == ["path 'A' touches itself at (0, 0) and (1, 0)",
                                        "path 'A' touches itself at (0, 1) and (1, 1)"]


def test_check_raises_with_the_puzzle_and_the_reason():
    with pytest.raises(InvalidSolution, match=r"path 'B' visits \(0, 2\) twice"):
        check(PUZZLE, {**RIGHT, "B": [(0, 2), (1, 2), (0, 2), (1, 2), (1, 1)]})
