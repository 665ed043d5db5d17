"""The best-first search with cells left empty (`--allow-empty`): each check that stays on
prunes a state because of the rule, the ones that do not hold are off, the goal and the
priority, and both backends agree on random boards of every kind the search takes."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from flowsat.checker import problems
from flowsat.commands import app
from flowsat.generate.cover import random_level
from flowsat.puzzle import Paths, Puzzle, read_puzzles
from flowsat.puzzle.board import Board as Graph
from flowsat.puzzle.rules import Rules
from flowsat.search.board import KINDS as BITBOARD_KINDS
from flowsat.search.checks import FILLS, REGISTRY
from flowsat.search.checks.bottleneck import choked
from flowsat.search.checks.deadends import dead_end, dead_head
from flowsat.search.checks.stranded import flows_reach, regions_ok
from flowsat.search.options import flag
from flowsat.solve import solve
from tests.conftest import PUZZLES, ROOT
from tests.test_search import FLOW5, HARD, SELF_TOUCH, cell_of, setup, swapped

EMPTY = Rules(fill_all=False)
# the search with cells left empty alone, drawing paths that touch themselves too
BARE = {"shortcuts": False, "fill_first": 0, "max_nodes": 3000}


def holed(text: str) -> Puzzle:
    """The puzzle of a text where `#` is a hole."""
    rows = text.split(" / ")
    holes = frozenset(r * len(row) + c for r, row in enumerate(rows)
                      for c, ch in enumerate(row) if ch == "#")
    return Puzzle.from_text(text.replace("#", "."),
                            board=Graph(len(rows[0]), len(rows), holes=holes))


def empty_setup(text: str, moves: dict[str, str] | None = None, **switches):
    """`setup` with cells left empty."""
    return setup(text, moves, allow_empty=True, **switches)


# --- the checks that stay on prune a state with cells left empty ------------------------------

def test_dead_ends_become_dead_heads():
    """A free cell walled in may stay empty; a head with no free neighbor is still dead."""
    problem, s = empty_setup("R.R / ... / G.G", {"R": "DRR"})  # (0,1) walled in
    assert dead_end(problem.board.stride, s.free, s.ends) and not dead_head(problem, s)
    assert problem.checks(s)
    problem, s = empty_setup("AB. / B.A", links=False)  # A's start: both neighbors B's dots
    assert not dead_end(problem.board.stride, s.free, s.ends) and dead_head(problem, s)
    assert not problem.checks(s) and problem.stats["pruned_deadend"] == 1


def test_stranded_checks_the_flows_only():
    # A walls off (0,1) and (0,2): no flow can fill them, but they may stay empty
    problem, s = empty_setup("A..B / .... / .... / A..B", {"A": "DRR"}, deadends=False)
    assert not regions_ok(problem, s, problem.served(s))
    assert flows_reach(problem, s, problem.served(s)) and problem.checks(s)
    problem, s = empty_setup("R.G / ... / G.R", {"R": "DRR"}, deadends=False, links=False)
    assert not flows_reach(problem, s, problem.served(s)) and not problem.checks(s)
    assert problem.stats["pruned_stranded"] == 1


def test_bottleneck_with_cells_left_empty():
    text = "A...B / ..... / X.... / ..... / B.X.A"
    problem, s = empty_setup(text, {"X": "RRR"}, links=False)  # one cell to the wall
    assert choked(problem, s, 3) and not problem.checks(s)
    assert problem.stats["pruned_bottleneck"] == 1
    problem, s = empty_setup(text, {"X": "RR"}, links=False)
    assert not choked(problem, s, 3) and problem.checks(s)


def test_links_a_free_cell_has_two_links_or_none():
    """A free cell with fewer than two possible links stays empty instead of pruning the
    state, and an end whose only way out is such a cell is dead."""
    problem, s = empty_setup("R.R / ... / G.G", {"R": "DRR"})  # (0,1): no link, stays empty
    assert problem.links.propagate(s) is not None
    assert setup("R.R / ... / G.G", {"R": "DRR"})[0].links.propagate(s) is None
    # B moved right: (1,0) is next to B's path, so B's tail cannot enter it and B's head can
    # reach it only through (1,1): it stays empty, and B's tail has no link left
    text = "B.. / ..A / BA."
    problem, s = empty_setup(text, {"B": "R"})
    assert problem.links.propagate(s) is None and not problem.checks(s)
    assert problem.stats["pruned_links"] == 1
    problem, s = empty_setup(text, {"B": "R"}, links=False)
    assert problem.checks(s)  # no other check sees it
    assert solve(Puzzle.from_text(text), "astar", rules=EMPTY).status == "solved"


def test_links_follow_a_corridor_once_a_cell_is_used():
    """A free cell with a sure link needs two: a corridor is followed to its end by deduction
    alone (no node expanded); on an open board nothing is sure."""
    problem, s = empty_setup("A.... / ..... / A....")
    assert problem.links.propagate(s)[0] == (0, 0)
    result = solve(holed("A.... / ####. / A...."), "astar", rules=EMPTY)
    corridor = [(0, c) for c in range(5)] + [(1, 4)] + [(2, c) for c in range(4, -1, -1)]
    assert result.status == "solved" and result.stats["nodes"] == 0
    assert result.paths["A"] in (corridor, corridor[::-1])


def test_squares_with_cells_left_empty():
    """B's start moved up: going on around (0,0) turns back beside its own path (three links
    in a 2x2 square); pruned with cells left empty, under --allow-self-touch too (shortcuts)."""
    text = "..A. / B.B. / ..A."
    for touch in (False, True):
        problem, s = empty_setup(text, {"B": "U"}, allow_self_touch=touch)
        assert problem.links.propagate(s) is None and not problem.checks(s)
        problem, s = empty_setup(text, {"B": "U"}, allow_self_touch=touch, squares=False)
        assert problem.checks(s)
    assert solve(Puzzle.from_text(text), "sat", rules=EMPTY).status == "solved"


def test_shortcuts_search_paths_that_never_touch_themselves():
    """With cells left empty and self-touch allowed, the search draws paths that never touch
    themselves (a right answer under both touch rules) unless told not to or given a hint."""
    puzzle = Puzzle.from_text(SELF_TOUCH)  # unsolvable without self-touch when filled
    touch = Rules(self_touch=True, fill_all=False)
    assert solve(puzzle, "astar").status == "unsolvable"
    for options in ({}, {"preset": "2016"}, {"shortcuts": False}):
        result = solve(puzzle, "astar", rules=touch, **options)
        assert result.status == "solved" and problems(puzzle, result.paths, touch) == []
    drawn = solve(puzzle, "astar", rules=touch, fill_first=0).paths  # no filling first
    assert problems(puzzle, drawn, EMPTY) == []
    assert empty_setup(SELF_TOUCH, allow_self_touch=True)[0].touch
    assert not empty_setup(SELF_TOUCH, allow_self_touch=True, shortcuts=False)[0].touch
    assert not setup(SELF_TOUCH, allow_self_touch=True)[0].touch  # fill-all: off


# --- the checks that do not hold are off --------------------------------------------------------

def test_checks_that_need_every_cell_filled_are_off():
    """Parity, the corner rule and the second 2016 forced move assume every cell filled."""
    off = {s.name for s in REGISTRY if not s.holds_under(fill_all=False)}
    assert off == {"parity", "corners"}
    problem, s = empty_setup("A.. / ... / ..A")
    assert not problem.sw.parity and not problem.sw.corners and not problem.links.corners
    # every path from corner to corner turns where the corner rule forbids it, and the
    # free cells' parity is wrong for A alone: with cells left empty, it is solvable
    assert solve(Puzzle.from_text("A.. / ... / ..A"), "astar").status == "unsolvable"
    assert solve(Puzzle.from_text("A.A / ..."), "astar").status == "unsolvable"
    for text in ("A.. / ... / ..A", "A.A / ..."):
        for preset in ("full", "2016"):
            assert solve(Puzzle.from_text(text), "astar", rules=EMPTY,
                         preset=preset).status == "solved"
    # (0,4) is next to B's head and has one other way out: with every cell filled B must
    # enter it; with cells left empty it may stay empty
    text = "..B.. / A.... / ..B.A"
    problem, s = setup(text, {"B": "R"})
    assert problem.forced(s) == (0, cell_of(problem, (0, 4)))
    problem, s = empty_setup(text, {"B": "R"})
    assert problem.forced(s) is None


def test_the_shortcuts_switch_holds_only_with_cells_left_empty():
    assert [s.name for s in REGISTRY if not s.holds_under(fill_all=True)] == \
        ["shortcuts", "fill_first"]
    assert not setup(SELF_TOUCH)[0].sw.shortcuts and empty_setup(SELF_TOUCH)[0].sw.shortcuts


def test_fill_first_then_the_search_with_cells_left_empty():
    """A puzzle made to be filled is solved by the search that fills every cell, in its few
    nodes; one that cannot be filled goes on to the search with cells left empty; the node
    limit counts both."""
    puzzle = Puzzle.from_text(FLOW5)
    filled = solve(puzzle, "astar")
    result = solve(puzzle, "astar", rules=EMPTY)
    assert result.paths == filled.paths and result.stats["nodes"] == filled.stats["nodes"] \
        == result.stats["fill_first_nodes"]
    alone = solve(puzzle, "astar", rules=EMPTY, fill_first=0)
    assert alone.status == "solved" and "fill_first_nodes" not in alone.stats
    assert problems(puzzle, alone.paths, EMPTY) == []
    puzzle = Puzzle.from_text("A.A / ...")  # unsolvable with every cell filled
    result = solve(puzzle, "astar", rules=EMPTY, preset="2016", fill_first=50)
    assert result.status == "solved" and result.stats["fill_first_nodes"] == 0  # pruned at once
    assert result.stats["nodes"] > 0
    assert result.paths == {"A": [(0, 0), (0, 1), (0, 2)]}
    hard = Puzzle.from_text(HARD)  # the 2016 preset does not fill it in 20 nodes
    result = solve(hard, "astar", rules=EMPTY, preset="2016", fill_first=20, max_nodes=20)
    assert result.status == "limit" and result.stats["nodes"] == 20
    result = solve(hard, "astar", rules=EMPTY, preset="2016", fill_first=20, max_nodes=30)
    assert result.status == "limit" and result.stats["nodes"] == 30
    assert result.stats["fill_first_nodes"] == 20


# --- the goal and the priority ------------------------------------------------------------------

def test_goal_every_flow_complete_cells_left_empty():
    problem, s = empty_setup("A...A / ..... / .....", {"A": "RRR"})
    assert s.done == problem.all_done and s.free and problem.is_goal(s)
    problem, s = setup("A...A / ..... / .....", {"A": "RRR"})
    assert not problem.is_goal(s)


def test_priority_counts_the_steps_left():
    """Cost so far plus each flow's steps from its head to its goal dot, so the most direct
    paths come first: an open board is solved along a shortest path."""
    problem, s = empty_setup("A...A / B.... / ....B")
    assert problem.priority_of(s) == 4 + 5
    puzzle = Puzzle.from_text("A.... / ..... / ..... / ....A")
    result = solve(puzzle, "astar", rules=EMPTY)
    assert result.status == "solved" and len(result.paths["A"]) == 8


def test_cli_solves_with_allow_empty(tmp_path):
    file = tmp_path / "open.txt"
    file.write_text("A.A\n...\n")
    result = CliRunner().invoke(app, ["solve", "--backend", "astar", "--allow-empty", "--format",
                                      "json", str(file)])
    assert result.exit_code == 0, result.output
    assert '"fill_all":false' in result.output and '"status":"solved"' in result.output
    file.write_text("A...B\n.....\nB...A\n")  # unsolvable, and self-touch would not help
    for backend in ("astar", "sat"):
        result = CliRunner().invoke(app, ["solve", "--backend", backend, str(file)])
        assert result.exit_code == 1 and "unsolvable" in result.output
        assert "lifts it" not in result.output  # neither looser rule has a solution
        result = CliRunner().invoke(app, ["solve", "--backend", backend, "--allow-empty",
                                          str(file)])
        assert result.exit_code == 1 and "unsolvable" in result.output
        assert "self-touch" not in result.output


# --- agreement with SAT -------------------------------------------------------------------------

def emptied(puzzle: Puzzle, paths: Paths, rng: random.Random, keep: int) -> Puzzle:
    """The puzzle with the dots of all but `keep` of its paths taken away (their cells left
    empty): still solvable with cells left empty."""
    drop = rng.sample(sorted(paths), max(0, len(paths) - keep))
    rows = [list(row) for row in puzzle.rows]
    for letter in drop:
        for r, c in (paths[letter][0], paths[letter][-1]):
            rows[r][c] = "."
    return replace(puzzle, rows=tuple("".join(row) for row in rows))


def agree(puzzle: Puzzle, solvable: bool) -> None:
    """Both backends give the same status with cells left empty, in both touch rules and both
    presets (and without shortcuts); every answer passes the checker, and leaves empty only
    cells of the board that are no dots (with and without filling first and shortcuts: the
    search without them may stop at a node limit instead)."""
    for rules in (EMPTY, Rules(self_touch=True, fill_all=False)):
        sat = solve(puzzle, "sat", rules=rules)
        assert sat.status == "solved" or not solvable
        for options in ({}, {"preset": "2016"}, BARE):
            astar = solve(puzzle, "astar", rules=rules, **options)
            if astar.status == "limit" and options is BARE:
                continue  # with self-touch, an unsolvable board may take too long to answer
            assert astar.status == sat.status, (puzzle.rows, puzzle.board, rules, options)
            if astar.status == "solved":
                assert problems(puzzle, astar.paths, rules) == []
                used = {cell for path in astar.paths.values() for cell in path}
                dots = {cell for ends in puzzle.dots.values() for cell in ends}
                assert dots <= used <= set(map(puzzle.board.cell, puzzle.board.cells))


@settings(max_examples=40, deadline=None)
@given(size=st.integers(3, 7), walls=st.sampled_from([0.0, 0.3]), touch=st.booleans(),
       keep=st.integers(1, 6), swap=st.booleans(), seed=st.integers(0, 10**6))
def test_both_backends_agree_with_cells_left_empty(size, walls, touch, keep, swap, seed):
    """Random levels (`generate.cover`: holes where its walks meet dead ends, walls on unused
    links) with all but a few paths taken away are solvable with cells left empty; with two
    dots swapped they often are not."""
    rng = random.Random(seed)
    puzzle, paths = random_level(Graph(size, size), rng, Rules(touch), walls=walls)
    puzzle = emptied(puzzle, paths, rng, keep)
    if swap:
        puzzle = swapped({c: p for c, p in paths.items() if c in puzzle.dots}, puzzle, rng)
    agree(puzzle, not swap)


@settings(max_examples=30, deadline=None)
@given(size=st.integers(3, 6), walls=st.sampled_from([0.0, 0.3]), touch=st.booleans(),
       keep=st.integers(1, 5), swap=st.booleans(), seed=st.integers(0, 10**6))
def test_both_backends_agree_on_warps_with_cells_left_empty(size, walls, touch, keep, swap,
                                                           seed):
    rng = random.Random(seed)
    puzzle, paths = random_level(Graph(size, size, wrap=True), rng, Rules(touch), walls=walls)
    puzzle = emptied(puzzle, paths, rng, keep)
    if swap:
        puzzle = swapped({c: p for c, p in paths.items() if c in puzzle.dots}, puzzle, rng)
    agree(puzzle, not swap)


@settings(max_examples=30, deadline=None)
@given(size=st.integers(3, 6), hexagonal=st.booleans(), wrap=st.booleans(),
       touch=st.booleans(), keep=st.integers(1, 5), swap=st.booleans(),
       seed=st.integers(0, 10**6))
def test_both_backends_agree_on_hex_and_bridges_with_cells_left_empty(size, hexagonal, wrap,
                                                                     touch, keep, swap, seed):
    """Hexagonal boards (warps or not) and square boards with bridges, as above."""
    rng = random.Random(seed)
    board = Graph(size + size % 2, size, "hex", wrap=wrap) if hexagonal else Graph(size, size)
    puzzle, paths = random_level(board, rng, Rules(touch), bridges=0.0 if hexagonal else 0.5)
    puzzle = emptied(puzzle, paths, rng, keep)
    if swap:
        puzzle = swapped({c: p for c, p in paths.items() if c in puzzle.dots}, puzzle, rng)
    agree(puzzle, not swap)


@pytest.mark.parametrize("touch", [False, True])
def test_both_backends_agree_on_the_levels_astar_takes_with_cells_left_empty(touch):
    rules = Rules(self_touch=touch, fill_all=False)
    levels = [p for f in sorted((PUZZLES / "kinds").rglob("*.txt")) for p in read_puzzles(f)
              if set(p.kind.split("+")) <= BITBOARD_KINDS]
    for puzzle in levels:
        astar = solve(puzzle, "astar", rules=rules)
        assert astar.status == solve(puzzle, "sat", rules=rules).status, puzzle.level
        assert astar.status != "solved" or problems(puzzle, astar.paths, rules) == []


def test_unsolvable_small_boards_are_answered():
    """Crossing flows on open boards: the search ends with `unsolvable`, in both presets."""
    for text in ("A...B / ..... / ..... / B...A", "A..C. / .B... / ...A. / C...B / ....."):
        for preset in ("full", "2016"):
            result = solve(Puzzle.from_text(text), "astar", rules=EMPTY, preset=preset)
            assert result.status == solve(Puzzle.from_text(text), "sat",
                                          rules=EMPTY).status == "unsolvable"


# --- docs/search.md -------------------------------------------------------------------------------

def test_docs_table_of_switches_with_cells_left_empty():
    lines = (ROOT / "docs" / "search.md").read_text().splitlines()
    header = "| switch | `--allow-empty` | what it does then, and why |"
    table = {}
    for line in lines[lines.index(header) + 2:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        table[cells[0].strip("`").split()[0]] = cells[1]
    assert list(table) == [flag(s) for s in REGISTRY]
    for s in REGISTRY:
        expected = "on" if s.fills == frozenset(FILLS) else \
            "off" if FILLS[1] not in s.fills else "only"
        assert table[flag(s)] == expected, s.name
