"""The best-first backend on hexagonal boards and boards with bridges (and warps): the board
graph's bitboards, each check pruning a state on such boards, the link propagation, and
agreement with the SAT backend on random levels of every kind."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flowsat.generate.cover import random_level
from flowsat.puzzle import Puzzle, read_puzzles
from flowsat.puzzle.board import Board as Graph
from flowsat.puzzle.formats import PuzzleError
from flowsat.puzzle.model import Paths
from flowsat.puzzle.rules import Rules
from flowsat.search.backend import board_of, orient
from flowsat.search.board import Board, GraphBoard
from flowsat.search.checks import REGISTRY
from flowsat.search.checks.deadends import dead_end_linked
from flowsat.search.checks.parity import parity_ok
from flowsat.search.checks.stranded import regions_ok
from flowsat.search.problem import FlowProblem
from flowsat.search.state import State
from flowsat.solve import solve
from tests.test_search import backends_agree, options, swapped

# a 3x3 square board whose corners are holes and whose center is a bridge: A crosses B
CROSS = Graph(3, 3, holes=frozenset({0, 2, 6, 8}), bridges=frozenset({4}))


def setup(rows: str, graph: Graph, puzzle: Puzzle | None = None, **switches
          ) -> tuple[FlowProblem, State]:
    """A problem on the board graph (the rows', or the puzzle's; first dot in reading order
    starts) and its first state."""
    puzzle = puzzle or level(rows, graph)
    board = board_of(puzzle)
    starts, goals = orient(board, puzzle, outside_in=False)
    problem = FlowProblem(board, starts, goals, list(range(len(starts))), *options(switches))
    return problem, problem.start()


def level(rows: str, graph: Graph = CROSS) -> Puzzle:
    return Puzzle(tuple(rows.split(" / ")), board=graph)


# --- the board graph's bitboards ---------------------------------------------------------------

def test_hex_neighbors_are_the_graphs():
    """Every cell's neighbor mask on a hexagonal board (with holes, walls, warps) is the board
    graph's, and the links are a few (shift, mask) ways."""
    for graph in (Graph(5, 4, "hex"), Graph(4, 4, "hex", wrap=True),
                  Graph(5, 5, "hex", holes=frozenset({7}), walls=frozenset({(0, 1), (11, 12)}))):
        board = GraphBoard(graph)
        for i in graph.cells:
            x = board.index[graph.cell(i)]
            assert {board.cell[j] for j in range(len(board.nbrs)) if board.nbrs[x] >> j & 1} \
                == {graph.cell(n) for n in graph.neighbors[i]}
            assert sorted(board.cell[j] for j in board.nbr_list[x]) == \
                sorted(graph.cell(n) for n in graph.neighbors[i])
        assert graph.wrap or len(board.ways) == 4  # by 1, the stride and the stride +- 1


def test_a_bridge_is_two_cells_one_per_pass():
    """The bridge's across pass links only left and right, its up-and-down pass only up and
    down; they are not neighbors of each other, and both map back to the bridge's cell."""
    board = GraphBoard(CROSS)
    across = board.index[1, 1]
    up_down = across + board.plane
    assert board.cell[up_down] == (1, 1)
    assert board.nbrs[across] == board.mask([(1, 0), (1, 2)])
    assert board.nbrs[up_down] == board.mask([(0, 1), (2, 1)])
    assert board.all.bit_count() == 6
    assert len(board.regions(board.all)) == 2  # across and up-and-down: two regions


def test_hex_dead_ends_count_the_six_neighbors():
    """(1, 0) of an even column (half a cell lower) has (2, 1) for a neighbor, which a square
    board would not: two open neighbors, no dead end; with only that one, a dead end."""
    board = GraphBoard(Graph(3, 3, "hex"))
    free = board.mask([(1, 0)])
    assert not dead_end_linked(board, free, board.mask([(1, 1), (2, 1)]))
    assert dead_end_linked(board, free, board.mask([(2, 1)]))
    assert dead_end_linked(Board(3, 3), free, board.mask([(1, 1), (2, 1)]))  # on squares


def test_a_bridge_pass_is_a_dead_end_by_its_own_way():
    """A bridge's across pass with one open neighbor across is a dead end, whatever is open
    above and below it (those are the other pass's)."""
    board = GraphBoard(CROSS)
    across = 1 << board.index[1, 1]
    assert dead_end_linked(board, across, board.mask([(1, 0)]))
    assert dead_end_linked(board, across, board.mask([(1, 0), (0, 1), (2, 1)]))
    assert not dead_end_linked(board, across, board.mask([(1, 0), (1, 2)]))


def test_flows_cross_on_a_bridge_and_are_stranded_by_its_ways():
    """A and B cross on the bridge: each pass is a region served by its flow. With A's and
    B's dots each on both ways, neither pass is served: stranded (and unsolvable); without the
    bridge the center would serve both."""
    problem, s = setup(".B. / A.A / .B.", CROSS)
    assert len(s.regions) == 2 and regions_ok(problem, s, problem.served(s))
    assert solve(level(".B. / A.A / .B."), "astar").status == "solved"
    problem, s = setup(".A. / A.B / .B.", CROSS)
    assert not regions_ok(problem, s, problem.served(s))
    assert not problem.checks(s) and problem.stats["pruned_stranded"] == 1
    for backend in ("astar", "sat"):
        assert solve(level(".A. / A.B / .B."), backend).status == "unsolvable"


def test_parity_holds_with_bridges():
    """A bridge's two passes take its cell's color, each linked only to the other color; a
    hexagonal board has no two-coloring, so parity is off there."""
    board = GraphBoard(CROSS)
    center, up_down = board.index[1, 1], board.index[1, 1] + board.plane
    assert board.black >> center & 1 and board.black >> up_down & 1
    assert not board.black & (board.nbrs[center] | board.nbrs[up_down])
    problem, s = setup(".B. / A.A / .B.", CROSS)
    assert problem.sw.parity and parity_ok(problem, s, problem.served(s))
    hexed, _ = setup("A.A / B.B", Graph(3, 2, "hex"))
    assert not hexed.sw.parity and not hexed.sw.corners and not problem.sw.corners


def test_a_triangle_holds_one_link_without_self_touch():
    """On a hexagonal board the corner (2, 0) has two neighbors, next to each other: a path
    through it touches itself. The triangle rule finds it; without it (and the 2x2 rule, whose
    rhombi hold two triangles), or with self-touch allowed, the propagation does not."""
    rows, hexed = "A.B / ... / .AB", Graph(3, 3, "hex")
    problem, s = setup(rows, hexed)
    assert problem.links.propagate(s) is None
    assert not problem.checks(s) and problem.stats["pruned_links"] == 1
    for switches in ({"triangles": False, "squares": False}, {"allow_self_touch": True}):
        problem, s = setup(rows, hexed, **switches)
        assert problem.links.propagate(s) is not None
    assert solve(level(rows, hexed), "sat").status == "unsolvable"


def test_a_square_across_a_warp_holds_two_links_without_self_touch():
    """The 2x2 rule counts the squares across the warps: here, without it, the propagation
    finds no contradiction; with it, it does (and the puzzle is unsolvable without
    self-touch)."""
    rows, warped = "RR.. / BBG. / ...G", Graph(4, 3, wrap=True)
    problem, s = setup(rows, warped, squares=False)
    assert problem.links.propagate(s) is not None and problem.checks(s)
    problem, s = setup(rows, warped)
    assert problem.links.propagate(s) is None and not problem.checks(s)
    corner = problem.board.index[0, 0]  # (0, 0), (0, 3), (1, 0), (1, 3): a square
    assert any(first >> corner & 1 and shift == 3 for _, _, shift, _, first in
               problem.links.fours)
    assert solve(level(rows, warped), "sat").status == "unsolvable"
    assert solve(level(rows, warped), "astar", rules=Rules(True)).status == "solved"


def test_no_square_of_cells_around_a_bridge_is_a_cycle():
    """Around a bridge, a U-turn passes it one way and is next to its other pass only: no
    touch, so no 2x2 square holding the bridge counts."""
    problem, _ = setup("A.B / ... / A.B", Graph(3, 3, bridges=frozenset({4})))
    assert problem.sw.squares and problem.links.fours == []
    problem, _ = setup("A.B / ... / A.B", Graph(3, 3, wrap=True))
    assert len(problem.links.fours) > 0


# levels of `generate.cover` (pack lines: dots and a solution) on which the search with one
# check on prunes some state: (line, self-touch allowed, the checks)
PRUNED = [
    ("X_6,0,1,8,,0:9:17;2,8,13,12,18,24,30;14,19,25,26,33,28,29,23,16,10,11,5;22,21,15;20,27;"
     "35,34;31,32;3,4;6,7,1", False, ("deadends", "stranded")),
    ("X_6,0,1,6,,24;15,10,4,3,2,1,0,6,12,19,20,26,32;9,8,7;13,14;5,11,17,23,29,35,34,33,27,21;"
     "30,31,25,18;28,22,16", False, ("links", "bottleneck")),
    ("6,0,1,7,27,13:25;12,6,0,1;19,20;7,8,14,15,16,10,11;17,23,22,21,27,33,34;5,4;9,3,2;18,24,"
     "30,31,32,26,27,28,29,35", False, ("deadends", "stranded", "parity")),
    ("6,0,1,5,13,11;5,4,10,9,3,2,1,0,6,12,13,14,20,21,27,28,22,23,17,16,15;33,34,35,29;31,30,24,"
     "18;26,32;8,7,13,19,25", True, ("links",)),
    ("8:7,0,1,13,26,12:35:48;4,5,13,14;53,45;46,47;44,43;21,29,30,38,39;52,51,50,42,34,26,18,"
     "17,9,10,2,1,0;49,41,40,32,33;22,23,31;15,7,6;55,54;37,36;16,8;24,25,26,27,28,20,19,11,3",
     True, ("bottleneck",)),
]


@pytest.mark.parametrize(("line", "touch", "names"), PRUNED)
def test_each_check_prunes_on_hexagonal_boards_and_bridges(tmp_path, line, touch, names):
    """With only one check on, the search of each level prunes states by it (on a hexagonal
    board, on one with bridges) and still solves it, as the SAT backend does."""
    pack = tmp_path / "level.txt"
    pack.write_text(line + "\n")
    puzzle = next(read_puzzles(pack))
    assert {"hex", "bridges"} & set(puzzle.kind.split("+"))
    checks = [s for s in REGISTRY if s.check]
    for name in names:
        only = {s.name: s.on if s.name == name else s.off for s in checks}
        result = solve(puzzle, "astar", rules=Rules(touch), **only)
        stat = next(s.stat for s in checks if s.name == name)
        assert result.stats[stat] > 0 and result.status == "solved", (name, result.stats)


# --- agreement with SAT -------------------------------------------------------------------------

KIND_BOARDS = {
    "hex": lambda w, h: Graph(w, h, "hex"),
    "hex+warps": lambda w, h: Graph(w + w % 2, h, "hex", wrap=True),
    "bridges": lambda w, h: Graph(w, h),
    "bridges+warps": lambda w, h: Graph(w, h, wrap=True),
}


@settings(max_examples=40, deadline=None)
@given(kind=st.sampled_from(sorted(KIND_BOARDS)), width=st.integers(3, 6),
       height=st.integers(3, 6), walls=st.sampled_from([0.0, 0.3]), touch=st.booleans(),
       swap=st.booleans(), seed=st.integers(0, 10**6))
def test_both_backends_agree_on_hex_and_bridges(kind, width, height, walls, touch, swap, seed):
    """Random levels of `generate.cover` on hexagonal boards and boards with bridges (holes
    where walks meet dead ends, walls, warps), and the same with two dots swapped (mostly
    unsolvable): both backends give the same status in both rule modes and both presets
    (every answer passes the checker: `solve` checks it)."""
    rng = random.Random(seed)
    graph = KIND_BOARDS[kind](width, height)
    puzzle, paths = random_level(graph, rng, Rules(touch), walls=walls,
                                 bridges=0.7 if "bridges" in kind else 0.0)
    backends_agree(swapped(paths, puzzle, rng) if swap else puzzle, touch, swap)


@settings(max_examples=40, deadline=None)
@given(kind=st.sampled_from(sorted(KIND_BOARDS)), size=st.integers(3, 6), touch=st.booleans(),
       seed=st.integers(0, 10**6))
def test_sure_links_on_hex_and_bridges_are_in_the_solution(kind, size, touch, seed):
    """With each flow drawn part of the way along a random level's solution, every link the
    propagation finds sure is one of that solution's (there may be others: a sure link is in
    all of them)."""
    rng = random.Random(seed)
    puzzle, paths = random_level(KIND_BOARDS[kind](size, size), rng, Rules(touch),
                                 bridges=0.7 if "bridges" in kind else 0.0)
    problem, s = setup("", puzzle.board, puzzle=puzzle, allow_self_touch=touch)
    board, letters = problem.board, list(puzzle.dots)
    solution: Paths = {}
    for c, letter in enumerate(letters):
        path = paths[letter] if board.index[paths[letter][0]] == problem.starts[c] \
            else paths[letter][::-1]
        solution[letter] = path
        for cell in path[1:rng.randrange(len(path))]:
            if not s.done >> c & 1:
                problem.apply(s, c, next(j for j in board.nbr_list[s.heads[c]]
                                         if board.cell[j] == cell))
    linked = {frozenset(pair) for path in solution.values() for pair in pairwise(path)}
    sure = problem.links.propagate(s)
    assert sure is not None
    for mask, (shift, _) in zip(sure[0], board.ways, strict=True):
        x = mask
        while x:
            i = (x & -x).bit_length() - 1
            x &= x - 1
            assert {board.cell[i], board.cell[i + shift]} in linked


def test_a_hint_on_a_bridge_is_an_input_error(tmp_path):
    """A hint's label on a bridge cannot say which pass it fixes: an input error there."""
    hint = tmp_path / "hint.txt"
    hint.write_text("...\n.A.\n...\n")
    with pytest.raises(PuzzleError, match=r"hint.txt:2:2: 'A' on a bridge"):
        solve(level(".B. / A.A / .B."), "astar", hint=hint)
