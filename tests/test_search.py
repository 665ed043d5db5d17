"""The best-first backend: each check and forced move on hand-made states, the switches, the
limits, hints, and agreement with the SAT backend on random puzzles."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import pairwise, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from flowsat.checker import problems
from flowsat.commands import app
from flowsat.commands import solve as solve_command
from flowsat.generate.cover import random_level
from flowsat.generate.filling import puzzle_of, random_filling
from flowsat.puzzle import Paths, Puzzle, read_puzzles
from flowsat.puzzle.board import Board as Graph
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError
from flowsat.search.algorithm import best_first
from flowsat.search.backend import orient
from flowsat.search.board import KINDS as BITBOARD_KINDS
from flowsat.search.board import Board, GraphBoard, indices, ring, split_table
from flowsat.search.checks import EVERY, KINDS, REGISTRY
from flowsat.search.checks.bottleneck import choked
from flowsat.search.checks.deadends import dead_end, dead_end_linked
from flowsat.search.checks.parity import parity_ok
from flowsat.search.checks.stranded import regions_ok
from flowsat.search.options import (
    PRESETS,
    STATS,
    SearchOptions,
    flag,
)
from flowsat.search.problem import FlowProblem
from flowsat.search.state import State
from flowsat.solve import solve
from tests.conftest import PUZZLES, ROOT, ZUCKER, needs_shared

SELF_TOUCH = "O.OG. / Y..YG / B.BR. / ...R. / ....."
FLOW5 = "H.AB. / GH.A. / .GFFB / DE.EC / .DC.."
STEP = {"L": (0, -1), "R": (0, 1), "U": (-1, 0), "D": (1, 0)}
boards = st.tuples(st.integers(2, 6), st.integers(2, 6), st.integers(0, 2**32),
                   st.sampled_from([2.5, 4.0, 8.0]), st.booleans(), st.booleans())


def options(switches: dict) -> tuple[SearchOptions, Rules]:
    """The search options of the switches given, and the rules their `allow_self_touch` and
    `allow_empty` say."""
    rules = Rules(switches.pop("allow_self_touch", False), not switches.pop("allow_empty", False))
    return SearchOptions(**switches), rules


def setup(text: str | Puzzle, moves: dict[str, str] | None = None,
          holes: frozenset[tuple[int, int]] = frozenset(), walls: frozenset = frozenset(),
          **switches) -> tuple[FlowProblem, State]:
    """A problem (first dot in reading order starts) and the state after the moves, given as
    direction letters from each color's start. A `#` in the text is a hole; walls are pairs
    of cells."""
    if isinstance(text, str):
        rows = text.split(" / ")
        holes |= {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"}
        text = Puzzle.from_text(text.replace("#", "."))
    puzzle = text
    board = Board(puzzle.height, puzzle.width, holes, frozenset(map(frozenset, walls)))
    starts, goals = orient(board, puzzle, outside_in=False)
    problem = FlowProblem(board, starts, goals, list(range(len(starts))), *options(switches))
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
    assert split_table()[ring(corridor, board.index[1, 1], board.stride)]
    assert len(board.carve([corridor], corridor, board.index[1, 1])) == 2
    square = board.all
    assert not split_table()[ring(square, board.index[1, 1], board.stride)]


# --- checks: each fires on one state and not on a close one --------------------------------

def test_dead_end():
    problem, s = setup("R.R / ... / G.G", {"R": "DRR"}, parity=False)  # (0,1) walled in
    assert dead_end(problem.board.stride, s.free, s.ends) and not problem.checks(s)
    problem, s = setup("R.R / ... / G.G", {"R": "R"}, parity=False, links=False)
    assert not dead_end(problem.board.stride, s.free, s.ends) and problem.checks(s)


def test_stranded_color():
    problem, s = setup("R.G / ... / G.R", {"R": "DRR"}, deadends=False)  # R cuts G in two
    assert not regions_ok(problem, s, problem.served(s)) and not problem.checks(s)
    problem, s = setup("R.G / ... / G.R", deadends=False)
    assert regions_ok(problem, s, problem.served(s))


def test_stranded_region():
    # A walls off (0,1) and (0,2), which only touch B's start: no flow can fill them
    problem, s = setup("A..B / .... / .... / A..B", {"A": "DRR"}, deadends=False)
    assert not regions_ok(problem, s, problem.served(s))
    problem, s = setup("A..B / .... / .... / A..B", {"A": "D"}, deadends=False)
    assert regions_ok(problem, s, problem.served(s))


def test_bottleneck():
    text = "A...B / ..... / X.... / ..... / B.X.A"
    problem, s = setup(text, {"X": "RRR"}, parity=False, links=False)  # one cell to the wall
    assert regions_ok(problem, s, problem.served(s)) and choked(problem, s, 3)
    assert not problem.checks(s) and problem.stats["pruned_bottleneck"] == 1
    assert setup(text, {"X": "RRR"}, parity=False, bottleneck=0, links=False)[0].checks(s)
    problem, s = setup(text, {"X": "RR"}, parity=False, links=False)  # two cells, two colors
    assert not choked(problem, s, 3) and problem.checks(s)


def test_parity():
    # A's dots are both black: its path fills one more white than black cell, but the free
    # cells have two more white than black
    problem, s = setup("A.A / ...")
    assert not parity_ok(problem, s, problem.served(s)) and not problem.checks(s)
    assert setup("A.A / ...", parity=False, links=False)[0].checks(s)
    problem, s = setup("A.A / B.B")
    assert parity_ok(problem, s, problem.served(s))
    assert solve(Puzzle.from_text("A.A / ..."), "astar").status == "unsolvable"
    assert solve(Puzzle.from_text("A.A / ..."), "astar", parity=False).status == "unsolvable"


def test_links():
    # no cell is walled in, no region stranded, no move forced, yet the links the free cells
    # must make leave no solution
    text = "A..B / .B.. / ..A."
    problem, s = setup(text, links=False)
    assert problem.checks(s) and problem.forced(s) is None
    problem, s = setup(text)
    assert problem.links.propagate(s) is None and not problem.checks(s)
    assert problem.stats["pruned_links"] == 1
    assert solve(Puzzle.from_text(text), "sat").status == "unsolvable"
    problem, s = setup(FLOW5)  # solvable
    assert problem.links.propagate(s) is not None and problem.checks(s)


def test_squares():
    # without self-touch, B cannot fill the middle row with a U-turn around A's dot
    text = "B..A / .... / BA.."
    problem, s = setup(text, squares=False, corners=False)
    assert problem.checks(s)
    problem, s = setup(text)
    assert problem.links.propagate(s) is None and not problem.checks(s)
    problem, s = setup(text, allow_self_touch=True)
    assert problem.links.propagate(s) is not None
    assert solve(Puzzle.from_text(text), "sat").status == "unsolvable"
    assert solve(Puzzle.from_text(text), "sat", rules=Rules(self_touch=True)).status == "solved"


def test_corners():
    # where a path turns, the diagonal inside the corner meets a dot: more links are sure
    text = "....CB / .A...B / .....A / .GHGE. / .F.HF. / ...... / CDDE.."
    moves = {"A": "R", "H": "D", "E": "RDDD", "F": "DRRR"}
    for allow_self_touch in (False, True):
        links = [setup(text, moves, allow_self_touch=allow_self_touch, corners=on)
                 for on in (True, False)]
        ((hs, vs), _), ((hs0, vs0), _) = (problem.links.propagate(s) for problem, s in links)
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


def holed_filling(board: tuple, dropped: int, walled: float = 0.0
                  ) -> tuple[Paths, Puzzle, frozenset, frozenset]:
    """A random filling cut into a puzzle, some of its paths made holes, walls between about
    a share `walled` of the neighbors not consecutive on a path, and (with walls) between
    every two cells where a path touches itself: still a solution in either rule mode of the
    board that is left, so the puzzle is solvable by construction."""
    height, width, seed, mean, allow_self_touch, _ = board
    rng = random.Random(seed)
    filling = random_filling(height, width, rng, mean, allow_self_touch or walled > 0)
    drop = rng.sample(sorted(filling), min(dropped, len(filling) - 1))
    holes = frozenset(cell for letter in drop for cell in filling.pop(letter))
    linked = {frozenset(pair) for path in filling.values() for pair in pairwise(path)}
    flow = {cell: letter for letter, path in filling.items() for cell in path}
    walls = frozenset(pair for a in flow for b in flow if a < b and next_to(a, b)
                      and (pair := frozenset((a, b))) not in linked
                      and (flow[a] == flow[b] or rng.random() < walled))
    return filling, puzzle_of(filling, height, width), holes, walls if walled else frozenset()


@settings(max_examples=60, deadline=None)
@given(boards, st.integers(0, 2), st.sampled_from([0.0, 0.3]))
def test_sure_links_are_in_every_solution(board, dropped, walled):
    """On random fillings cut into puzzles (some paths made holes, some walls), with each flow
    drawn part of the way along its path: every link propagation finds sure, and every move
    it then forces, is the filling's."""
    allow_self_touch = board[4]
    filling, puzzle, holes, walls = holed_filling(board, dropped, walled)
    rng = random.Random(board[2])
    problem, s = setup(puzzle, holes=holes, walls=walls, allow_self_touch=allow_self_touch)
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
    sure = problem.links.propagate(s)
    assert sure is not None
    (hs, vs), _ = sure
    for x in indices(hs):
        assert {x, x + 1} in linked
    for x in indices(vs):
        assert {x, x + problem.board.stride} in linked
    problem.links.sure = sure
    assert problem.follow(s) is not False
    for c, path in problem.paths(s).items():
        cells = [index[cell] for cell in path]
        head = cells[:cells.index(s.heads[c]) + 1]
        assert head == solution[c][:len(head)]
        tail = cells[cells.index(s.tails[c]):][::-1]
        assert tail == solution[c][::-1][:len(tail)]


# --- boards with holes: each check prunes a state because of a hole ------------------------------

def test_checks_on_boards_with_holes():
    problem, s = setup("A.A / .#. / B.B", {"A": "D"}, links=False)  # (0,1): one way in
    assert problem.board.kinds == {"square", "holes"}
    assert dead_end(problem.board.stride, s.free, s.ends) and not problem.checks(s)
    assert not dead_end(*(lambda p, s: (p.board.stride, s.free, s.ends))(
        *setup("A.A / ... / B.B", {"A": "D"})))
    problem, s = setup("A#.. / .#.. / A#..", deadends=False, links=False)  # nobody's region
    assert not regions_ok(problem, s, problem.served(s)) and not problem.checks(s)
    problem, s = setup("A... / .... / A...")
    assert regions_ok(problem, s, problem.served(s))
    problem, s = setup("A.A / #.#")  # A's path fills one white and one black cell too many
    assert not parity_ok(problem, s, problem.served(s))
    problem, s = setup("A.A / ..#")
    assert parity_ok(problem, s, problem.served(s))
    text = "A...B / ..... / X...# / ..... / B.X.A"  # one cell from X's head to the hole
    problem, s = setup(text, {"X": "RR"}, parity=False, links=False)
    assert choked(problem, s, 3) and not problem.checks(s)
    problem, s = setup(text.replace("#", "."), {"X": "RR"}, parity=False, links=False)
    assert not choked(problem, s, 3)
    problem, s = setup("A#A / .#. / B.B", deadends=False)  # A's ends lead into B's
    assert not dead_end(problem.board.stride, s.free, s.ends)
    assert problem.links.propagate(s) is None and not problem.checks(s)
    assert problem.stats["pruned_links"] == 1


def test_checks_on_boards_with_walls():
    problem, s = setup("A.A / ... / B.B", {"A": "D"}, walls={((0, 1), (1, 1))})
    assert problem.board.kinds == {"square", "walls"}
    assert not problem.checks(s) and problem.stats["pruned_deadend"] == 1
    fence = {((r, 0), (r, 1)) for r in range(3)}  # the right three columns: nobody's region
    problem, s = setup("A... / .... / A...", walls=fence, deadends=False, links=False)
    assert len(s.regions) == 2 and not regions_ok(problem, s, problem.served(s))
    # without self-touch, A's U-turns are allowed where a wall parts the touching cells
    for walls, status in ((set(), "unsolvable"), ({((0, 0), (0, 1)), ((1, 1), (1, 2))}, "solved")):
        problem, s = setup("A.. / ..A", walls=walls)
        assert best_first(problem).status == status


def test_level_packs_with_holes_and_walls(tmp_path):
    """`flowsat solve --backend astar` solves a level with a hole and one whose walls part the
    cells where its flows turn back (without them, both flows would touch themselves); a
    hexagonal level filled by one snaking flow is solved when self-touch is allowed, unsolvable
    when not (its rows touch)."""
    pack = tmp_path / "levels.txt"
    pack.write_text("3,0,1,2,,4;0,1,2;3,6,7,8,5\n"
                    "4,0,2,2,,,0|1:4|5:2|6:7|11:10|14;0,4,8,9,5,1;2,3,7,6,10,11,15,14,13,12\n")
    for preset in ("full", "2016"):
        result = CliRunner().invoke(app, ["solve", "--backend", "astar", "--preset", preset,
                                          "-q", str(pack)])
        assert result.exit_code == 0 and result.output.count("solved") == 2, result.output
    pack.write_text(pack.read_text().replace(",,,0|1:4|5", ",,,4|5"))  # 0 and 1 touch
    result = CliRunner().invoke(app, ["solve", "--backend", "astar", "-q", str(pack)])
    assert result.exit_code == 1 and "#2: unsolvable" in result.output
    pack.write_text("X_4,0,1,1;0,1,2,3,7,6,5,4,8,9,10,11,15,14,13,12\n")
    for touch, code in ((["--allow-self-touch"], 0), ([], 1)):
        result = CliRunner().invoke(app, ["solve", "--backend", "astar", *touch, str(pack)])
        assert result.exit_code == code, result.output


@pytest.mark.parametrize("touch", [False, True])
def test_both_backends_agree_on_the_levels_of_every_kind(touch):
    levels = [p for f in sorted((PUZZLES / "kinds").rglob("*.txt")) for p in read_puzzles(f)]
    assert {k for p in levels for k in p.kind.split("+")} >= set(BITBOARD_KINDS)
    for puzzle in levels:
        assert solve(puzzle, "astar", rules=Rules(touch)).status == \
            solve(puzzle, "sat", rules=Rules(touch)).status, puzzle.level


@settings(max_examples=30, deadline=None)
@given(size=st.integers(3, 7), walls=st.sampled_from([0.0, 0.3]), touch=st.booleans(),
       seed=st.integers(0, 10**6))
def test_astar_solves_random_levels_with_holes_and_walls(size, walls, touch, seed):
    """The levels of `generate.cover` (random walks: holes where they meet dead ends, walls
    on unused links) on square boards are solved by astar in both presets."""
    puzzle, _ = random_level(Graph(size, size), random.Random(seed), Rules(touch), walls=walls)
    for preset in ("full", "2016"):
        assert solve(puzzle, "astar", rules=Rules(touch), preset=preset).status == "solved", \
            (puzzle.board, touch, preset)


def test_checks_on_boards_with_warps():
    """Across a warp a row's first and last cells are neighbors: the dead-end and region
    checks see it, the checks whose masks hold no warps are off."""
    plain, warped = Board(3, 3), GraphBoard(Graph(3, 3, wrap=True))
    row = plain.mask([(1, 0), (1, 1), (1, 2)])  # a cycle of three across the warp
    assert dead_end_linked(plain, row, 0) and not dead_end_linked(warped, row, 0)
    assert dead_end_linked(warped, plain.mask([(1, 0), (1, 2)]), 0)  # one neighbor each
    ends = plain.mask([(0, 0), (2, 0)])
    assert len(plain.regions(ends)) == 2 and len(warped.regions(ends)) == 1
    problem, _ = setup("A.. / ... / ..A")
    problem = FlowProblem(warped, problem.starts, problem.goals, [0], SearchOptions())
    assert {s.name for s in REGISTRY if s.check and getattr(problem.sw, s.name)} == \
        {"deadends", "links", "stranded", "bottleneck"}


@settings(max_examples=40, deadline=None)
@given(size=st.integers(3, 6), walls=st.sampled_from([0.0, 0.3]), touch=st.booleans(),
       swap=st.booleans(), seed=st.integers(0, 10**6))
def test_both_backends_agree_on_warps(size, walls, touch, swap, seed):
    """Random levels on boards with warps (`generate.cover`), and with two dots swapped: both
    backends give the same status in both rule modes (every answer checked)."""
    rng = random.Random(seed)
    puzzle, paths = random_level(Graph(size, size, wrap=True), rng, Rules(touch), walls=walls)
    backends_agree(swapped(paths, puzzle, rng) if swap else puzzle, touch, swap)


def backends_agree(puzzle: Puzzle, touch: bool, swapped: bool) -> None:
    """Both backends give the same status in the rule mode and with self-touch allowed, in
    both presets (every answer checked); the sat backend solves it unless two dots were
    swapped."""
    for rules in (Rules(touch), Rules(True)):
        sat = solve(puzzle, "sat", rules=rules)
        assert sat.status == "solved" or swapped
        for preset in ("full", "2016"):
            astar = solve(puzzle, "astar", rules=rules, preset=preset)
            assert astar.status == sat.status, (puzzle.rows, puzzle.board, rules, preset)


def test_a_hole_ends_the_diagonal_of_corners():
    """A corner whose inside diagonal meets a hole is allowed (the cell inside need not
    turn), one whose diagonal meets only the edge is not."""
    (problem, _), (holed, _) = setup("A.. / ... / ..A"), setup("A.. / .#. / ..A")
    corner = problem.board.index[0, 2]  # ┐ at the top right: its diagonal runs down-left
    assert problem.links.no_corner[1] >> corner & 1
    assert not holed.links.no_corner[1] >> corner & 1


@settings(max_examples=60, deadline=None)
@given(boards, st.integers(0, 3), st.sampled_from([0.0, 0.2, 0.5]))
def test_both_backends_agree_on_holes_and_walls(board, dropped, walled):
    """Random fillings with some paths made holes and walls added are solved by both backends
    in both rule modes (every answer passes the checker); with two dots swapped, both give
    the same status."""
    filling, puzzle, holes, walls = holed_filling(board, dropped, walled)
    if board[5]:
        puzzle = swapped(filling, puzzle, random.Random(board[2]))
    number = {cell: cell[0] * puzzle.width + cell[1] for cell in product(
        range(puzzle.height), range(puzzle.width))}
    graph = Graph(puzzle.width, puzzle.height, holes=frozenset(map(number.get, holes)),
                  walls=frozenset(tuple(sorted(map(number.get, wall))) for wall in walls))
    puzzle = Puzzle(puzzle.rows, board=graph)
    for rules in (Rules(board[4]), Rules(True)):  # a filling's rule, and self-touch allowed
        sat = solve(puzzle, "sat", rules=rules)
        assert sat.status == "solved" or board[5]
        for options in ({"preset": "full"}, {"preset": "2016"}, {"problem": "cells"}):
            astar = solve(puzzle, "astar", rules=rules, **options)
            assert astar.status == sat.status, (puzzle.rows, graph, rules, options)


def swapped(filling: Paths, puzzle: Puzzle, rng: random.Random) -> Puzzle:
    """The puzzle with the end dots of two colors swapped (mostly unsolvable)."""
    if len(filling) < 2:
        return puzzle
    a, b = rng.sample(sorted(filling), 2)
    rows = [list(row) for row in puzzle.rows]
    (ra, ca), (rb, cb) = filling[a][-1], filling[b][-1]
    rows[ra][ca], rows[rb][cb] = b, a
    return replace(puzzle, rows=tuple("".join(row) for row in rows))


def next_to(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


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
    {"preset": "2016"}, *({s.name: s.off if s.value_in("full") else s.on} for s in REGISTRY),
    {"random_order": 7}, {"order": "GFDBA"},
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


# --- the registry of switches ------------------------------------------------------------------

def test_options_are_made_from_the_registry(monkeypatch):
    """Every switch of the registry is a preset entry, an options field, a command-line flag
    that reaches the backend, and (a check) a stat."""
    puzzle = str(PUZZLES / "examples" / "flow_5x5.txt")
    fields = SearchOptions.__dataclass_fields__
    assert [name for name in fields if name in PRESETS["full"]] == [s.name for s in REGISTRY]
    assert all(fields[s.name].metadata["flag"] in (flag(s), None) for s in REGISTRY)
    args = [a for s in REGISTRY for a in (flag(s), "2")[:1 + (not isinstance(s.on, bool))]]
    assert len(set(map(flag, REGISTRY))) == len(REGISTRY)
    results = []
    settled = solve_command.settled
    monkeypatch.setattr(solve_command, "settled", lambda *a, **k: results.append(settled(*a, **k))
                        or results[-1])
    result = CliRunner().invoke(app, ["solve", "--backend", "astar", "-q", *args, puzzle])
    assert result.exit_code == 0, result.output
    ((solved, *_),) = results
    for s in REGISTRY:
        assert all(s.name in preset for preset in PRESETS.values())
        assert getattr(SearchOptions(), s.name) == s.value_in("full")
        given = 2 if not isinstance(s.on, bool) else not s.value_in("full")
        assert solved.config[s.name] == given, s.name
        assert (s.stat in solved.stats) == bool(s.check)
    assert set(solved.stats) >= set(STATS)


def test_docs_switch_table_is_the_registry():
    lines = (ROOT / "docs" / "search.md").read_text().splitlines()
    table = {}
    for line in lines[lines.index("| switch | check or choice | `2016` | `full` (default) | "
                                  "boards |") + 2:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        table[cells[0].strip("`").split()[0]] = cells[1:]
    assert list(table) == [flag(s) for s in REGISTRY]
    for s in REGISTRY:
        text, old, full, boards = table[flag(s)]
        assert text == s.help.replace(" (0 = off)", "") or text.startswith(s.help), s.name
        shown = {True: "on", False: "off"}
        assert [old, full] == [shown.get(s.value_in(p), str(s.value_in(p)))
                               for p in ("2016", "full")], s.name
        assert boards == ("every kind" if s.kinds == EVERY else
                          ", ".join(sorted(s.kinds, key=KINDS.index)))


def test_checks_hold_only_for_their_kinds():
    """A check that does not hold for a kind of board is off on it, whatever its switch."""
    problem, _ = setup(FLOW5)
    assert len(problem.active) == sum(1 for s in REGISTRY if s.check)
    board = Board(5, 5)
    board.kinds = frozenset({"square", "hex"})
    starts, goals = orient(board, Puzzle.from_text(FLOW5), outside_in=False)
    problem = FlowProblem(board, starts, goals, list(range(len(starts))), SearchOptions())
    assert len(problem.active) == sum(1 for s in REGISTRY if s.check and "hex" in s.kinds)
    for s in REGISTRY:
        holds = "hex" in s.kinds and s.holds_under(fill_all=True)
        assert getattr(problem.sw, s.name) == (s.value_in("full") if holds else s.off)


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
    if swap:
        puzzle = swapped(filling, puzzle, rng)
    sat = solve(puzzle, "sat", rules=Rules(allow_self_touch))
    for options in ({}, {"preset": "2016"}, {"tails": False, "squares": False},
                    {"problem": "cells"}):
        astar = solve(puzzle, "astar", rules=Rules(allow_self_touch), **options)
        assert astar.status == sat.status, (puzzle.rows, allow_self_touch, options)
        if astar.status == "solved":
            assert problems(puzzle, astar.paths, Rules(allow_self_touch)) == []
