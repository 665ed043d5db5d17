"""The best-first backend: each check and forced move on hand-made states, the switches, the
limits, hints, and agreement with the SAT backend on random puzzles."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from flowsat.checker import problems
from flowsat.cli import app
from flowsat.generate.filling import puzzle_of, random_filling
from flowsat.puzzle import Puzzle, read_puzzles
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError
from flowsat.search.backend import orient
from flowsat.search.board import SPLITS, Board, indices, ring
from flowsat.search.problem import FlowProblem, State, Switches
from flowsat.solve import solve
from tests.conftest import PUZZLES, ZUCKER, needs_shared

SELF_TOUCH = "O.OG. / Y..YG / B.BR. / ...R. / ....."
FLOW5 = "H.AB. / GH.A. / .GFFB / DE.EC / .DC.."
STEP = {"L": (0, -1), "R": (0, 1), "U": (-1, 0), "D": (1, 0)}
boards = st.tuples(st.integers(2, 6), st.integers(2, 6), st.integers(0, 2**32),
                   st.sampled_from([2.5, 4.0, 8.0]), st.booleans(), st.booleans())


def setup(text: str | Puzzle, moves: dict[str, str] | None = None, **switches
          ) -> tuple[FlowProblem, State]:
    """A problem (first dot in reading order starts) and the state after the moves, given as
    direction letters from each color's start."""
    puzzle = Puzzle.from_text(text) if isinstance(text, str) else text
    board = Board(puzzle.height, puzzle.width)
    starts, goals = orient(board, puzzle, outside_in=False)
    problem = FlowProblem(board, starts, goals, list(range(len(starts))), Switches(**switches))
    state = problem.start()
    letters = list(puzzle.dots)
    for letter, dirs in (moves or {}).items():
        c = letters.index(letter)
        for d in dirs:
            r, col = board.cell[state.heads[c]]
            problem.apply(state, c, board.index[r + STEP[d][0], col + STEP[d][1]])
    return problem, state


def cell_of(problem: FlowProblem, cell: tuple[int, int]) -> int:
    return problem.board.index[cell]


# --- the bitboards ----------------------------------------------------------------------------

def test_regions_and_splits():
    board = Board(3, 3)
    free = board.mask([(0, 0), (0, 1), (2, 0), (2, 2), (1, 2)])
    assert sorted(board.regions(free)) == sorted([board.mask([(0, 0), (0, 1)]),
                                                  board.mask([(2, 0)]),
                                                  board.mask([(2, 2), (1, 2)])])
    corridor = board.mask([(0, 1), (1, 1), (2, 1)])  # filling the middle splits it
    assert SPLITS[ring(corridor, board.index[1, 1], board.stride)]
    assert len(board.carve([corridor], corridor, board.index[1, 1])) == 2
    square = board.all
    assert not SPLITS[ring(square, board.index[1, 1], board.stride)]


# --- checks: each fires on one state and not on a close one --------------------------------

def test_dead_end():
    problem, s = setup("R.R / ... / G.G", {"R": "DRR"}, parity=False)  # (0,1) walled in
    assert problem.dead_end(s.free, s.ends) and not problem.checks(s)
    problem, s = setup("R.R / ... / G.G", {"R": "R"}, parity=False, links=False)
    assert not problem.dead_end(s.free, s.ends) and problem.checks(s)


def test_stranded_color():
    problem, s = setup("R.G / ... / G.R", {"R": "DRR"}, deadends=False)  # R cuts G in two
    assert not problem.regions_ok(s, problem.served(s)) and not problem.checks(s)
    problem, s = setup("R.G / ... / G.R", deadends=False)
    assert problem.regions_ok(s, problem.served(s))


def test_stranded_region():
    # A walls off (0,1) and (0,2), which only touch B's start: no flow can fill them
    problem, s = setup("A..B / .... / .... / A..B", {"A": "DRR"}, deadends=False)
    assert not problem.regions_ok(s, problem.served(s))
    problem, s = setup("A..B / .... / .... / A..B", {"A": "D"}, deadends=False)
    assert problem.regions_ok(s, problem.served(s))


def test_bottleneck():
    text = "A...B / ..... / X.... / ..... / B.X.A"
    problem, s = setup(text, {"X": "RRR"}, parity=False, links=False)  # one cell to the wall
    assert problem.regions_ok(s, problem.served(s)) and problem.choked(s, 3)
    assert not problem.checks(s) and problem.stats["pruned_bottleneck"] == 1
    assert setup(text, {"X": "RRR"}, parity=False, bottleneck=0, links=False)[0].checks(s)
    problem, s = setup(text, {"X": "RR"}, parity=False, links=False)  # two cells, two colors
    assert not problem.choked(s, 3) and problem.checks(s)


def test_parity():
    # A's dots are both black: its path fills one more white than black cell, but the free
    # cells have two more white than black
    problem, s = setup("A.A / ...")
    assert not problem.parity_ok(s, problem.served(s)) and not problem.checks(s)
    assert setup("A.A / ...", parity=False, links=False)[0].checks(s)
    problem, s = setup("A.A / B.B")
    assert problem.parity_ok(s, problem.served(s))
    assert solve(Puzzle.from_text("A.A / ..."), "astar").status == "unsolvable"
    assert solve(Puzzle.from_text("A.A / ..."), "astar", parity=False).status == "unsolvable"


def test_links():
    # no cell is walled in, no region stranded, no move forced, yet the links the free cells
    # must make leave no solution
    text = "A..B / .B.. / ..A."
    problem, s = setup(text, links=False)
    assert problem.checks(s) and problem.forced(s) is None
    problem, s = setup(text)
    assert problem.propagate(s) is None and not problem.checks(s)
    assert problem.stats["pruned_links"] == 1
    assert solve(Puzzle.from_text(text), "sat").status == "unsolvable"
    problem, s = setup(FLOW5)  # solvable
    assert problem.propagate(s) is not None and problem.checks(s)


def test_squares():
    # without self-touch, B cannot fill the middle row with a U-turn around A's dot
    text = "B..A / .... / BA.."
    problem, s = setup(text, squares=False, corners=False)
    assert problem.checks(s)
    problem, s = setup(text)
    assert problem.propagate(s) is None and not problem.checks(s)
    problem, s = setup(text, allow_self_touch=True)
    assert problem.propagate(s) is not None
    assert solve(Puzzle.from_text(text), "sat").status == "unsolvable"
    assert solve(Puzzle.from_text(text), "sat", rules=Rules(self_touch=True)).status == "solved"


def test_corners():
    # where a path turns, the diagonal inside the corner meets a dot: more links are sure
    text = "....CB / .A...B / .....A / .GHGE. / .F.HF. / ...... / CDDE.."
    moves = {"A": "R", "H": "D", "E": "RDDD", "F": "DRRR"}
    for allow_self_touch in (False, True):
        links = [setup(text, moves, allow_self_touch=allow_self_touch, corners=on)
                 for on in (True, False)]
        (hs, vs, _), (hs0, vs0, _) = (problem.propagate(s) for problem, s in links)
        assert hs & hs0 == hs0 and vs & vs0 == vs0  # sure without the rule, sure with it
        assert ((hs, vs) != (hs0, vs0)) == (not allow_self_touch)  # the rule needs no touch


def test_sure_links_extend_tails():
    # C's goal dot (2,3) has one free neighbor, (1,3): every solution links them
    text = "CA.A / .... / B.BC"
    problem, s = setup(text)
    assert problem.checks(s) and problem.follow(s)
    assert s.tails[0] == cell_of(problem, (1, 3))
    path = solve(Puzzle.from_text(text), "astar").paths["C"]
    assert path[0] == (0, 0) and path[-2:] == [(1, 3), (2, 3)]
    for off in ({"links": False}, {"tails": False}):
        problem, s = setup(text, **off)
        assert problem.settle(s) is s and s.tails[0] == cell_of(problem, (2, 3))


@settings(max_examples=60, deadline=None)
@given(boards)
def test_sure_links_are_in_every_solution(board):
    """On random fillings cut into puzzles, with each flow drawn part of the way along its
    path: every link propagation finds sure, and every move it then forces, is the filling's."""
    height, width, seed, mean, allow_self_touch, _ = board
    rng = random.Random(seed)
    filling = random_filling(height, width, rng, mean, allow_self_touch)
    puzzle = puzzle_of(filling, height, width)
    problem, s = setup(puzzle, allow_self_touch=allow_self_touch)
    index, letters = problem.board.index, list(puzzle.dots)
    solution, drawn = {}, {}
    for c, letter in enumerate(letters):
        path = [index[cell] for cell in filling[letter]]
        solution[c] = path if path[0] == problem.starts[c] else path[::-1]
        drawn[c] = rng.randrange(len(path))
        for x in solution[c][1:drawn[c] + 1]:
            if not s.done >> c & 1:
                problem.apply(s, c, x)
    linked = {frozenset(pair) for path in solution.values() for pair in pairwise(path)}
    sure = problem.propagate(s)
    assert sure is not None
    hs, vs, _ = sure
    for x in indices(hs):
        assert {x, x + 1} in linked
    for x in indices(vs):
        assert {x, x + problem.board.stride} in linked
    problem.sure = sure
    assert problem.follow(s) is not False
    for c, path in problem.paths(s).items():
        cells = [index[cell] for cell in path]
        head = cells[:cells.index(s.heads[c]) + 1]
        assert head == solution[c][:len(head)]
        tail = cells[cells.index(s.tails[c]):][::-1]
        assert tail == solution[c][::-1][:len(tail)]


# --- forced moves -------------------------------------------------------------------------------

def test_forced_single_move():
    problem, s = setup("AB. / ... / A.B")  # A's start has one free neighbor
    assert problem.forced(s) == (0, cell_of(problem, (1, 0)))
    problem, s = setup("A.B / ... / B.A")  # each flow has two moves, each cell two ways out
    assert problem.forced(s) is None


def test_forced_cell_next_to_one_head():
    problem, s = setup("..B.. / A.... / ..B.A", {"B": "R"})
    # (0,4) is next to B's head and has one other way out: B must enter it or leave a dead end
    assert problem.forced(s) == (0, cell_of(problem, (0, 4)))
    # (1,0) is next to A's start and goal, with one way out: it can only be A's, next
    problem, s = setup("A.B / ... / A.B")
    assert problem.forced(s) == (0, cell_of(problem, (1, 0)))


def test_blocked_flow_is_pruned():
    problem, s = setup("A.B / .CC / B.A", {"B": ""}, deadends=False, stranded=False,
                       bottleneck=0, parity=False)
    problem.apply(s, 0, cell_of(problem, (1, 0)))  # A moves down: B's start is walled in
    assert problem.forced(s) is False


def test_chains_of_forced_moves_skip_the_queue():
    puzzle = next(read_puzzles(PUZZLES / "examples" / "flow_7x7.txt"))
    fast = solve(puzzle, "astar")
    slow = solve(puzzle, "astar", queue_always=True)
    assert fast.status == slow.status == "solved"
    assert slow.stats["nodes"] > fast.stats["nodes"]


# --- rules, statuses, limits --------------------------------------------------------------------

def test_self_touch_rule():
    puzzle = Puzzle.from_text(SELF_TOUCH)
    assert solve(puzzle, "astar").status == "unsolvable"
    result = solve(puzzle, "astar", rules=Rules(self_touch=True))
    assert result.status == "solved" and problems(puzzle, result.paths, Rules(True)) == []


@needs_shared
def test_unsolvable_cross():
    puzzle = next(read_puzzles(ZUCKER / "unsolvable_cross.txt"))
    assert solve(puzzle, "astar").status == "unsolvable"
    assert solve(puzzle, "astar", preset="2016").status == "unsolvable"


@pytest.mark.parametrize("options", [
    {"preset": "2016"}, {"breadth_first": True}, {"queue_always": True}, {"deadends": False},
    {"stranded": False}, {"bottleneck": 0}, {"parity": False}, {"links": False},
    {"tails": False}, {"squares": False}, {"corners": False}, {"outside_in": False},
    {"autosort": False}, {"random_order": 7}, {"order": "GFDBA"},
])
def test_every_switch_still_solves(options):
    puzzle = next(read_puzzles(PUZZLES / "examples" / "flow_5x5.txt"))
    result = solve(puzzle, "astar", **options)
    assert result.status == "solved"
    for name, value in options.items():
        assert result.config[name] == value


def test_without_checks_the_search_still_decides():
    off = {"deadends": False, "stranded": False, "bottleneck": 0, "parity": False,
           "links": False}
    for text, status in (("A.A / ...", "unsolvable"), (FLOW5, "solved"),
                         (SELF_TOUCH, "unsolvable")):
        assert solve(Puzzle.from_text(text), "astar", **off).status == status


def test_presets_and_bad_options():
    puzzle = Puzzle.from_text("A.A / B.B")
    assert solve(puzzle, "astar", preset="2016").config["parity"] is False
    assert solve(puzzle, "astar").config["parity"] is True
    for bad in ({"preset": "1999"}, {"order": "AZ"}, {"order": "AA"}, {"bottleneck": -1}):
        with pytest.raises(UsageError):
            solve(puzzle, "astar", **bad)
    with pytest.raises(UsageError, match="does not apply to the sat backend"):
        solve(puzzle, "sat", max_nodes=5)


HARD = "..........P..P / .............. / ..YgOR........ / ..........Cc.. / ......OR..M... / " \
       "......C...b... / .............. / ..MA.......c.. / ........B.BT.. / .g.......m.... / " \
       ".W...W.A..m... / .........bT... / ..G....G...... / Y............."


def test_limits_stop_with_their_status():
    puzzle = Puzzle.from_text(HARD)  # the default preset needs a few nodes, 2016 many
    assert solve(puzzle, "astar").stats["nodes"] < 50
    result = solve(puzzle, "astar", preset="2016", max_nodes=50)
    assert result.status == "limit" and result.stats["nodes"] == 50
    result = solve(puzzle, "astar", preset="2016", max_memory=1)
    assert result.status == "limit" and "memory" in result.error
    result = solve(puzzle, "astar", preset="2016", timeout=0.05)
    assert result.status == "timeout" and result.stats["total_s"] < 2


def test_limits_exit_3(tmp_path):
    file = tmp_path / "hard.txt"
    file.write_text(HARD.replace(" / ", "\n") + "\n")
    runner = CliRunner()
    for args in (["--max-nodes", "20"], ["--max-memory", "1"], ["--timeout", "0.05"]):
        result = runner.invoke(app, ["solve", "--backend", "astar", "--preset", "2016", "-q",
                                     *args, str(file)])
        assert result.exit_code == 3, result.output
    result = runner.invoke(app, ["solve", "--max-nodes", "20", str(file)])
    assert result.exit_code == 2 and "does not apply" in result.output


def test_observe_reports_partial_paths():
    puzzle = Puzzle.from_text(HARD)
    seen = []
    result = solve(puzzle, "astar", observe=lambda *event: seen.append(event))
    assert len(seen) == result.stats["nodes"] > 0
    for event, paths, cycles in seen:
        assert event == "expand" and cycles == []
        for c, path in paths.items():  # the head's part from one dot, the tail's to the other
            assert {path[0], path[-1]} == set(puzzle.dots[c])


# --- hints --------------------------------------------------------------------------------------

def test_hint_fixes_cells(tmp_path):
    puzzle = next(read_puzzles(PUZZLES / "examples" / "flow_9x9.txt"))
    grid = solve(puzzle, "sat").paths
    rows = [["."] * puzzle.width for _ in range(puzzle.height)]
    for letter, path in grid.items():
        for r, c in path[: len(path) // 2]:
            rows[r][c] = letter
    hint = tmp_path / "hint.txt"
    hint.write_text("\n".join("".join(row) for row in rows) + "\n")
    result = solve(puzzle, "astar", hint=hint)
    assert result.status == "solved"
    for r, row in enumerate(rows):
        for c, letter in enumerate(row):
            if letter != ".":
                assert (r, c) in result.paths[letter]
    assert result.stats["nodes"] <= solve(puzzle, "astar").stats["nodes"]


def test_bad_hint_is_an_input_error(tmp_path):
    hint = tmp_path / "hint.txt"
    hint.write_text("RZ\n..\n")
    puzzle = str(PUZZLES / "examples" / "flow_5x5.txt")
    result = CliRunner().invoke(app, ["solve", "--backend", "astar", "--hint", str(hint),
                                      puzzle, puzzle])
    assert result.exit_code == 2
    assert result.output.count(f"{hint}:1:1: the hint has 2 rows") == 2  # both puzzles reported
    assert "Traceback" not in result.output


# --- agreement with SAT -------------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(boards)
def test_both_backends_agree(board):
    """Random fillings are solvable; swapping two dots of different colors mostly is not."""
    height, width, seed, mean, allow_self_touch, swap = board
    rng = random.Random(seed)
    filling = random_filling(height, width, rng, mean, allow_self_touch)
    puzzle = puzzle_of(filling, height, width)
    if swap and len(filling) > 1:
        a, b = rng.sample(sorted(filling), 2)
        rows = [list(row) for row in puzzle.rows]
        (ra, ca), (rb, cb) = filling[a][-1], filling[b][-1]
        rows[ra][ca], rows[rb][cb] = b, a
        puzzle = Puzzle(tuple("".join(row) for row in rows))
    sat = solve(puzzle, "sat", rules=Rules(allow_self_touch))
    for options in ({}, {"preset": "2016"}, {"tails": False, "squares": False}):
        astar = solve(puzzle, "astar", rules=Rules(allow_self_touch), **options)
        assert astar.status == sat.status, (puzzle.rows, allow_self_touch, options)
        if astar.status == "solved":
            assert problems(puzzle, astar.paths, Rules(allow_self_touch)) == []
