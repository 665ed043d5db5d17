"""The cell-by-cell search problem (`--problem cells`): it agrees with SAT in both rules on
touching, its deductions on hand-made states, where `--problem auto` takes it, where it is
refused, and the Numberlink boards it was made for."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from flowsat.checker import problems
from flowsat.commands import app
from flowsat.generate.filling import puzzle_of, random_filling
from flowsat.puzzle import Puzzle, read_puzzles
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError
from flowsat.search.algorithm import best_first, interleaved, searching
from flowsat.search.backend import SWEEP_CELLS, board_of, orient
from flowsat.search.cells import CellProblem, Cells, lines_of, sweeps
from flowsat.search.options import SearchOptions
from flowsat.solve import solve
from tests.conftest import NUMBERLINK, PUZZLES, needs_shared
from tests.test_properties import random_boards
from tests.test_search_lookahead import solves_filling


def problem_of(text: str, self_touch: bool = False) -> CellProblem:
    puzzle = Puzzle.from_text(text)
    board = board_of(puzzle)
    starts, goals = orient(board, puzzle, True)
    return CellProblem(board, starts, goals, SearchOptions(), Rules(self_touch))


@settings(max_examples=80, deadline=None)
@given(random_boards(), st.booleans())
def test_cells_agree_with_sat(puzzle, self_touch):
    """Boards solvable or not: the same status as SAT, and every answer passes the checker."""
    rules = Rules(self_touch)
    expected = solve(puzzle, "sat", rules=rules).status
    result = solve(puzzle, "astar", rules=rules, problem="cells")
    assert result.status == expected, (puzzle.rows, self_touch)
    if result.status == "solved":
        assert problems(puzzle, result.paths, rules) == []


@settings(max_examples=60, deadline=None)
@given(st.tuples(st.integers(1, 9), st.integers(2, 9), st.integers(0, 2**32),
                 st.sampled_from([2.5, 4.0, 8.0]), st.booleans()))
def test_cells_solve_every_filling(board):
    solves_filling(board, problem="cells")


def test_a_link_closing_a_cycle_or_joining_two_colors_goes():
    """A fragment's two ends side by side lose the link between them; so do the ends of two
    colors."""
    problem = problem_of("A.... / ..... / ..... / ....A", self_touch=True)
    s = problem.initial()
    h, v, hs, vs, _ = s.links
    # a fragment of no color from (1, 1) right to (1, 2), down to (2, 2), left to (2, 1)
    a, b, d = (problem.board.index[cell] for cell in ((1, 1), (1, 2), (2, 1)))
    ends = problem.join(s, 1 << a | 1 << d, 1 << b)
    assert ends is not None and s.other[a] == d
    assert problem.cuts(s, ends, h & ~hs, v & ~vs) == (0, 1 << a)  # (1, 1) down to (2, 1)
    two = problem_of("A... / .B.. / ...A / B...", self_touch=True)
    board = two.board
    s = Cells(board.all & ~two.dots, two.dots, (board.across, board.down, 0, 0, two.dots), {},
              {})
    x, y = board.index[0, 0], board.index[0, 1]
    ends = two.join(s, 1 << x, 0)  # A's dot right to (0, 1), above B's dot
    assert two.cuts(s, ends, board.across & ~(1 << x), board.down) == (0, 1 << y)
    assert two.join(s, 0, 1 << y) is None  # the link itself joins two colors


def test_touching_paths_are_no_goal():
    """Without self-touch, every link decided is a goal only when no path runs beside
    itself; with self-touch it is one."""
    text = "A.A / ... / ..."
    for self_touch in (False, True):
        result = solve(Puzzle.from_text(text), "astar", rules=Rules(self_touch),
                       problem="cells")
        expected = solve(Puzzle.from_text(text), "sat", rules=Rules(self_touch)).status
        assert result.status == expected


def test_the_sweep_runs_along_the_shorter_side_from_the_dots():
    """Rows on a tall board, columns on a wide one (forwards and backwards), either on a
    square one; the side with the most dots near it first."""
    tall, wide = board_of(Puzzle.from_text("A. / .. / .A")), board_of(Puzzle.from_text(
        "A.. / ..A"))
    for board in (tall, wide):
        ways = sweeps(board, 0)
        assert len(ways) == 2 and [line.bit_count() for line in ways[0][0]] == [2, 2, 2]
    assert sweeps(wide, 0)[0] == (lines_of(wide)[1], False)  # the columns, forwards
    assert sweeps(wide, 0)[1] == (lines_of(wide)[1][::-1], True)
    square = Puzzle.from_text("... / ... / A.A")
    board = board_of(square)
    dots = board.mask([(2, 0), (2, 2)])
    ways = sweeps(board, dots)
    assert len(ways) == 4 and ways[0] == (lines_of(board)[0][::-1], True)  # from the bottom


def test_a_backward_sweep_solves_too():
    """Every sweep (backwards, from the other sides) answers as the first does."""
    puzzle = puzzle_of(random_filling(6, 6, random.Random(5), 4.0), 6, 6)
    board = board_of(puzzle)
    starts, goals = orient(board, puzzle, True)
    for way in (0, 1, 2, 3):
        problem = CellProblem(board, starts, goals, SearchOptions(), Rules(), way)
        outcome = best_first(problem)
        assert outcome.status == "solved"
        paths = {list(puzzle.dots)[c]: path for c, path in problem.paths(outcome.state).items()}
        assert problems(puzzle, paths, Rules()) == []


def test_searches_take_turns_until_one_ends():
    """`searching` run alone is `best_first`; `interleaved` runs two a state each and stops
    at the first that ends, with both searches' counts."""
    puzzle = puzzle_of(random_filling(14, 14, random.Random(28), 20.0), 14, 14)
    board = board_of(puzzle)
    starts, goals = orient(board, puzzle, True)

    def problem(way: int) -> CellProblem:
        return CellProblem(board, starts, goals, SearchOptions(), Rules(), way)

    alone = [best_first(problem(way)) for way in (0, 1)]
    assert alone[0].stats["nodes"] != alone[1].stats["nodes"]  # (9 and 6)
    outcome, k, counts = interleaved([searching(problem(way)) for way in (0, 1)])
    assert outcome.status == "solved" and k == 1
    assert counts[k]["nodes"] == min(one.stats["nodes"] for one in alone)
    assert abs(counts[0]["nodes"] - counts[1]["nodes"]) <= 1


def test_auto_takes_cells_on_large_plain_boards():
    """`--problem auto` sweeps cells from SWEEP_CELLS cells on (its stats say so), the heads
    below, and with a hint, the 2016 preset or cells left empty."""
    side = int(SWEEP_CELLS ** 0.5) + 1
    filling = random_filling(side, side, random.Random(3), 8.0)
    big = puzzle_of(filling, side, side)
    assert "pruned_fragments" in solve(big, "astar").stats
    assert "pruned_fragments" not in solve(big, "astar", preset="2016").stats
    assert "pruned_fragments" not in solve(big, "astar", problem="heads").stats
    assert "pruned_fragments" not in solve(big, "astar", rules=Rules(False, False)).stats
    small = puzzle_of(random_filling(5, 5, random.Random(3), 4.0), 5, 5)
    assert "pruned_fragments" not in solve(small, "astar").stats


def test_cells_refused_where_they_do_not_go():
    puzzle = next(read_puzzles(PUZZLES / "examples" / "flow_5x5.txt"))
    with pytest.raises(UsageError, match="--problem cells"):
        solve(puzzle, "astar", rules=Rules(False, False), problem="cells")
    with pytest.raises(UsageError, match="unknown problem"):
        SearchOptions(problem="rows")
    result = CliRunner().invoke(app, ["solve", "--backend", "astar", "--problem", "cells",
                                      "--allow-empty", str(PUZZLES / "examples" /
                                                           "flow_5x5.txt")])
    assert result.exit_code == 2
    assert "--problem cells" in result.output and "Traceback" not in result.output


def test_paths_of_a_state_follow_the_sure_links():
    problem = problem_of("AB / .. / AB")
    s = problem.initial()
    assert isinstance(s, Cells) and problem.is_goal(s)
    assert problem.paths(s) == {0: [(0, 0), (1, 0), (2, 0)], 1: [(0, 1), (1, 1), (2, 1)]}


@needs_shared
@pytest.mark.parametrize(("name", "index", "most"), [("inputs4.txt", 6, 3000),
                                                      ("inputs4.txt", 10, 1000)])
def test_cells_solve_large_numberlink_boards(name, index, most):
    """The 80x30 and 58x38 boards the heads' search does not answer in minutes, in a few
    thousand states (counts, not time)."""
    puzzle = list(read_puzzles(NUMBERLINK / name))[index - 1]
    result = solve(puzzle, "astar", max_nodes=most)
    assert result.status == "solved", result.stats
    assert problems(puzzle, result.paths, Rules()) == []
