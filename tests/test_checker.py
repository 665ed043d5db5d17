"""The checker accepts right solutions and rejects each kind of wrong one for its reason."""

from __future__ import annotations

import random
from dataclasses import replace
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flowsat.checker import InvalidSolution, check, problems, right_by_cells
from flowsat.generate.cover import random_level
from flowsat.puzzle import Board, Puzzle
from flowsat.puzzle.rules import Rules
from tests.test_deduce import changed

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


@settings(max_examples=150, deadline=None)
@given(shape=st.sampled_from(["square", "hex"]), wrap=st.booleans(), size=st.integers(3, 7),
       walls=st.sampled_from([0.0, 0.3]), touch=st.booleans(), fill=st.booleans(),
       change=st.sampled_from(["none", "swap", "drop", "move", "reverse", "recolor", "cut",
                               "loop", "hole", "extra", "lists"]),
       unhole=st.booleans(), seed=st.integers(0, 10**6))
def test_the_quick_check_accepts_exactly_what_the_cell_by_cell_check_accepts(
        shape, wrap, size, walls, touch, fill, change, unhole, seed):
    rng = random.Random(seed)
    width = size + size % 2 if shape == "hex" and wrap else size
    board = Board(width, size, shape, wrap)
    if unhole:  # holes here and there, then cells on no path: empty ones side by side
        board = replace(board, holes=frozenset(rng.sample(range(board.size), board.size // 4)))
    puzzle, paths = random_level(board, rng, Rules(touch), walls=walls)  # touching or not
    holes = sorted(puzzle.board.holes)
    if unhole:
        puzzle = replace(puzzle, board=replace(puzzle.board, holes=frozenset()))
    paths = broken(changed(paths, rng, change, size), rng, change, puzzle, holes)
    for rules in (Rules(False, fill), Rules(True, fill)):  # a touching one under both rules
        with patch("flowsat.checker.right_by_cells", return_value=False):
            slow = problems(puzzle, paths, rules)
        quick = right_by_cells(puzzle, paths, rules)
        assert quick == (slow == []) or (change == "lists" and not quick), (
            puzzle.rows, puzzle.board, paths, rules, slow)
        assert right_by_cells(puzzle, own_cells(puzzle, paths), rules) == quick
        assert problems(puzzle, paths, rules) == slow


def own_cells(puzzle: Puzzle, paths: dict) -> dict:
    """The paths with each cell on the grid given as the board's own tuple (`cell_list`),
    as the SAT backend gives them: known by identity."""
    h, w, own = puzzle.height, puzzle.width, puzzle.board.cell_list
    return {color: [own[cell[0] * w + cell[1]] if type(cell) is tuple and 0 <= cell[0] < h
                    and 0 <= cell[1] < w else cell for cell in path]
            for color, path in paths.items()}


def test_the_board_own_cells_and_any_others_are_checked_alike():
    own = own_cells(PUZZLE, RIGHT)
    assert own["A"][0] is PUZZLE.board.cell_list[1] and own["A"][0] is not RIGHT["A"][0]
    mixed = {**own, "B": RIGHT["B"]}
    assert right_by_cells(PUZZLE, own, Rules()) and right_by_cells(PUZZLE, mixed, Rules())
    for cell in ((2, 2.0), (2, True), [2, 2], (2, 2, 0)):  # equal to (2, 2), or close: no cell
        assert not right_by_cells(PUZZLE, {**own, "C": [own["C"][0], cell]}, Rules())
    for paths in ({**own, "C": own["C"] * 2}, {**own, "C": own["C"][::-1]},
                  {**own, "C": [own["C"][0], own["A"][1], own["C"][1]]}):
        assert right_by_cells(PUZZLE, paths, Rules()) == (problems(PUZZLE, paths) == [])


def broken(paths: dict, rng: random.Random, change: str, puzzle: Puzzle, holes: list[int]
           ) -> dict:
    """The solution with one more way to break it: a path through its own dot again, into a
    hole, a color the puzzle does not have; or its cells as lists (as JSON gives them)."""
    color = rng.choice(sorted(paths))
    path = paths[color]
    if change == "loop" and len(path) > 2:
        path.insert(rng.randrange(1, len(path)), rng.choice([path[0], path[-1]]))
    elif change == "hole" and holes:
        path.insert(rng.randrange(1, len(path)), puzzle.board.cell(rng.choice(holes)))
    elif change == "extra":
        paths["?"] = [(0, 0), (0, 1)]
    elif change == "lists":
        paths = {c: [list(cell) for cell in p] for c, p in paths.items()}
    return paths


def test_the_quick_check_refuses_a_path_into_a_hole_or_twice_through_a_cell():
    puzzle = Puzzle(("A.A", "...", "B.B"), board=Board(3, 3, holes=frozenset({4})))
    around = {"A": [(0, 0), (0, 1), (0, 2)], "B": [(2, 0), (2, 1), (2, 2)]}
    side = {"A": [(0, 0), (1, 0), (1, 1), (1, 2), (0, 2)], "B": around["B"]}  # (1, 1): hole
    twice = {"A": [(0, 0), (0, 1), (0, 0), (0, 1), (0, 2)], "B": around["B"]}
    touch = Rules(self_touch=True, fill_all=False)
    assert right_by_cells(puzzle, around, touch)
    assert not right_by_cells(puzzle, side, touch) and not right_by_cells(puzzle, twice, touch)
    assert "path 'A' enters the hole at (1, 1)" in problems(puzzle, side, touch)
