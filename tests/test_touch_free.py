"""Where paths may touch themselves, a solution in which none does is one too: flowsat's own
backends look for one first, under the stricter rule, and search under the rule given only
when there is none (`flowsat.solve.touch_free_first`)."""

import pytest

from flowsat.checker import problems
from flowsat.puzzle import Puzzle, Rules, parse_puzzles
from flowsat.solve import solve

NO_TOUCH, TOUCH = Rules(), Rules(self_touch=True)
BACKENDS = ["sat", "astar"]


def one(text: str) -> Puzzle:
    return next(p for p in parse_puzzles(text) if isinstance(p, Puzzle))


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_solution_without_touches_answers_first(backend):
    puzzle = one("5 5\nRBY..\n....Y\n..R..\nG...B\nO.O.G\n")
    result = solve(puzzle, backend, rules=TOUCH)
    assert result.status == "solved"
    assert result.stats["touch_free_first"]["status"] == "solved"
    assert not problems(puzzle, result.paths, NO_TOUCH)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_puzzle_that_needs_a_touch_is_searched_again_under_the_rule_given(backend):
    puzzle = one("2 2\nAA\n..\n")  # A's path must go round: its two dots touch
    assert solve(puzzle, backend, rules=NO_TOUCH).status == "unsolvable"
    result = solve(puzzle, backend, rules=TOUCH)
    assert result.status == "solved"
    assert result.stats["touch_free_first"]["status"] == "unsolvable"
    assert problems(puzzle, result.paths, NO_TOUCH) and not problems(puzzle, result.paths, TOUCH)


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_solution_under_either_rule_is_unsolvable(backend):
    result = solve(one("2 2\nAB\nBA\n"), backend, rules=TOUCH)
    assert result.status == "unsolvable"
    assert result.stats["touch_free_first"]["status"] == "unsolvable"


def test_the_default_rule_searches_once():
    assert "touch_free_first" not in solve(one("2 2\nAA\nBB\n"), "sat").stats
