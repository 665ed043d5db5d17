"""The search's lookahead (`--lookahead N`: from the Nth state on, move the color whose moves
leave the fewest states that pass the checks; none prunes the state): it never loses a
solution, and on boards of few long paths it expands far fewer states."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flowsat.checker import problems
from flowsat.generate.filling import puzzle_of, random_filling
from flowsat.generate.make import make_puzzle
from flowsat.puzzle import Puzzle
from flowsat.puzzle.rules import Rules
from flowsat.solve import solve
from tests.test_properties import random_boards


def long_paths_board(seed: int) -> Puzzle:
    """A unique 20x20 puzzle of 12 to 16 colors (long paths, as on the Numberlink boards
    that the search found hard), made by the project's generator. (400 cells: `--problem
    auto` would sweep cells there, so the tests below ask for the heads.)"""
    made = make_puzzle(20, 20, seed, (12, 16))
    assert made is not None
    return made.puzzle


@settings(max_examples=60, deadline=None)
@given(st.tuples(st.integers(1, 6), st.integers(2, 6), st.integers(0, 2**32),
                 st.sampled_from([2.5, 4.0, 8.0]), st.booleans()))
def test_lookahead_solves_every_filling(board):
    solves_filling(board, lookahead=1)


def solves_filling(board: tuple[int, int, int, float, bool], **options: object) -> None:
    """The puzzle of a random filling (height, width, seed, mean length, self-touch) is
    solved by the search with these options, and its answer passes the checker."""
    height, width, seed, mean, self_touch = board
    rules = Rules(self_touch)
    filling = random_filling(height, width, random.Random(seed), mean, self_touch)
    puzzle = puzzle_of(filling, height, width)
    result = solve(puzzle, "astar", rules=rules, **options)
    assert result.status == "solved", (puzzle.rows, self_touch, options)
    assert problems(puzzle, result.paths, rules) == []


@settings(max_examples=80, deadline=None)
@given(random_boards(), st.booleans(), st.booleans())
def test_lookahead_agrees_with_the_plain_search_and_sat(puzzle, self_touch, fill_all):
    rules = Rules(self_touch, fill_all)
    expected = solve(puzzle, "sat", rules=rules).status
    assert solve(puzzle, "astar", rules=rules, lookahead=0).status == expected
    assert solve(puzzle, "astar", rules=rules, lookahead=1).status == expected, \
        (puzzle.rows, rules)


@pytest.mark.parametrize("seed", [0, 1])
def test_lookahead_expands_fewer_states_on_long_paths(seed):
    """(Under the default rules: with self-touch the plain search takes minutes there.)"""
    puzzle = long_paths_board(seed)
    plain = solve(puzzle, "astar", problem="heads", lookahead=0)
    ahead = solve(puzzle, "astar", problem="heads", lookahead=1)
    assert plain.status == ahead.status == "solved"
    assert ahead.stats["nodes"] * 3 < plain.stats["nodes"], (ahead.stats, plain.stats)


def test_lookahead_starts_at_its_state():
    """Below N states expanded, the search is the plain one, state for state."""
    puzzle = long_paths_board(0)
    plain = solve(puzzle, "astar", problem="heads", lookahead=0)
    late = solve(puzzle, "astar", problem="heads", lookahead=plain.stats["nodes"] + 1)
    assert late.stats["nodes"] == plain.stats["nodes"]
    assert late.paths == plain.paths
