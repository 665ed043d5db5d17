"""Every kind of board: the graph, the level-pack and board formats, the checker's reasons,
the SAT backend in both rule modes and with fill-all off, DIMACS, and the CLI."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver
from typer.testing import CliRunner

from flowsat.checker import problems
from flowsat.commands import app
from flowsat.generate.cover import random_level
from flowsat.puzzle import Board, Puzzle, Rules, parse_puzzles, read_puzzles
from flowsat.puzzle.formats import CannotWrite
from flowsat.puzzle.formats.boardtext import board_text
from flowsat.puzzle.formats.pack import level_line
from flowsat.result import UsageError
from flowsat.sat import encode
from flowsat.sat.encoder import Encoder
from flowsat.sat.rules import empty_corner_rules
from flowsat.solve import solve
from tests.conftest import PUZZLES

KINDS = PUZZLES / "kinds"
LEVELS = [p for f in sorted(KINDS.glob("*.txt")) for p in read_puzzles(f)]
DEFAULT = Rules()
RULES = [DEFAULT, Rules(self_touch=True), Rules(fill_all=False),
         Rules(self_touch=True, fill_all=False)]


def one(text: str) -> Puzzle:
    (puzzle,) = parse_puzzles(text, "t.txt")
    assert isinstance(puzzle, Puzzle), puzzle
    return puzzle


# -- the board --------------------------------------------------------------------------------

def test_a_plain_board_keeps_the_grid_numbering_and_link_order():
    board = Board(4, 3)
    old = [(i, j) for i in range(12) for j in (i + 4, i + 1)
           if j < 12 and (j == i + 4 or i % 4 != 3)]
    assert board.link_list == old and board.kind == "square" and not board.wraps.any()
    assert Encoder(Puzzle.from_text("A..B / .... / A..B")).edges == old


def test_hex_neighbors_follow_the_column_parity():
    board = Board(4, 3, "hex")
    cells = lambda i: sorted(board.cell(n) for n in board.neighbors[i])  # noqa: E731
    assert cells(board.number((1, 2))) == [(0, 2), (1, 1), (1, 3), (2, 1), (2, 2), (2, 3)]
    assert cells(board.number((1, 1))) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 1)]


def test_warps_walls_holes_and_bridges_shape_the_links():
    board = Board(3, 3, wrap=True, walls=frozenset({(0, 2)}), holes=frozenset({8}),
                  bridges=frozenset({4}))
    assert board.kind == "square+holes+walls+bridges+warps"
    assert 2 not in board.neighbors[0] and 6 in board.neighbors[0]  # walled; warp down
    assert all(8 not in pair for pair in board.link_list)
    assert board.axes[4] == ((3, 5), (1, 7))
    assert board.wraps[board.link_index[0, 6]] and not board.wraps[board.link_index[0, 3]]


@pytest.mark.parametrize(("board", "reason"), [
    (Board(3, 3, walls=frozenset({(0, 4)})), "not neighbors"),
    (Board(3, 3, bridges=frozenset({1})), "no straight way"),
    (Board(4, 4, "hex", bridges=frozenset({5})), "only known on square boards"),
    (Board(2, 3, wrap=True), "at least 3"),
    (Board(3, 3, "hex", wrap=True), "even number of columns"),
])
def test_impossible_boards_say_why(board, reason):
    assert reason in board.problem()


# -- the level-pack and board formats -------------------------------------------------------

def test_the_levels_of_every_kind_are_here_and_their_solutions_right():
    kinds = {p.kind for p in LEVELS}
    assert {"square+bridges", "square+warps", "hex", "hex+walls", "hex+holes+walls+warps",
            "square+holes+walls+bridges+warps"} <= kinds
    for puzzle in LEVELS:
        assert problems(puzzle, puzzle.given_paths) == [], puzzle.name


def test_pack_lines_round_trip_exactly_and_through_the_board_format():
    for file in sorted(KINDS.glob("*.txt")):
        lines = [ln for ln in file.read_text().splitlines() if ln.strip()]
        for line, puzzle in zip(lines, read_puzzles(file), strict=True):
            assert level_line(puzzle, puzzle.given_paths) == line
            again = one(board_text(puzzle))
            assert (again.board, again.rows, again.level) == (puzzle.board, puzzle.rows,
                                                              puzzle.level)
            assert level_line(again, puzzle.given_paths) == line


def test_pack_fields_read_exactly():
    (level,) = parse_puzzles("X_W_4:5+B,0,9,1,,3_2:7_1,0|4;8,12,13", "p.txt")
    assert (level.board.shape, level.board.wrap, level.width, level.height) == ("hex", True,
                                                                                4, 5)
    assert level.board.holes == {3, 7} and level.board.walls == {(0, 4)} and level.level == 9
    assert level.given_paths == {"R": [(2, 0), (3, 0), (3, 1)]} and level.name == "p.txt#1"


@pytest.mark.parametrize(("line", "where", "reason"), [
    ("5,0,1,2;0,1", "1:7", "FLOWS says 2 flows, the line has 1 paths"),
    ("X_0,0,1,1;0,1", "1:1", "no cells"),
    ("3,0,1,1,,4;4,5", "1:12", "ends on a hole"),
    ("3,0,1,1,,,0|4;0,1", "1:1", "not neighbors"),
    ("3,0,1,1;0,9", "1:11", "off the board"),
])
def test_bad_levels_are_located_and_the_next_one_still_read(line, where, reason):
    first, second = parse_puzzles(f"{line}\n\n3,0,2,1;0,1,2", "p.txt")
    assert str(first).startswith(f"p.txt:{where}: ") and reason in str(first), str(first)
    assert second.index == 2 and second.level == 2


HAND = """flowsat board 4x3 warps level 3
A . . B|
    -
. + . #

A . B .
"""


def test_the_board_format_reads_walls_holes_bridges_and_warps():
    puzzle = one(HAND)
    board = puzzle.board
    assert board.kind == "square+holes+walls+bridges+warps" and puzzle.level == 3
    assert board.walls == {(0, 3), (2, 6)}  # the warp of row 0; down from (0, 2)
    assert board.holes == {7} and board.bridges == {5} and puzzle.dots["A"] == ((0, 0), (2, 0))
    assert one(board_text(puzzle)).board == board


def test_labels_the_board_format_reserves_are_refused_not_misread():
    with pytest.raises(CannotWrite, match="label '#' means something else"):
        board_text(Puzzle.from_text("#.# / A.A"))


def test_the_board_format_reads_hex_diagonal_walls():
    puzzle = one("flowsat board 4x2 hex\nA . . B\n \\ /\nA . . B\n")
    assert puzzle.board.walls == {(0, 5), (2, 5)}
    assert one(board_text(puzzle)).board == puzzle.board


@pytest.mark.parametrize(("text", "where", "reason"), [
    ("flowsat board 3x2\nA . A\n", "2:1", "expected 2 rows"),
    ("flowsat board 3x1\nA . A|\n", "2:6", "needs warps"),
    ("flowsat board 3x1\nA | A\n", "2:3", "expected a cell"),
    ("flowsat board 3x1\nA \t A\n", "2:3", "expected a cell"),
    ("flowsat board 3x2\nA . A\n \\\nB . B\n", "3:2", "square board"),
    ("flowsat board 3x1 round\nA . A\n", "1:19", "unknown header word"),
    ("flowsat board 3x1\nA B A\n", "2:3", "only one dot"),
])
def test_board_format_errors_are_located(text, where, reason):
    (err,) = parse_puzzles(text, "b.txt")
    assert str(err).startswith(f"b.txt:{where}: ") and reason in str(err), str(err)


def test_the_handmade_boards_solve_under_their_rule_and_become_pack_levels():
    for name, rules in (("no_touch", DEFAULT), ("self_touch", Rules(self_touch=True))):
        for puzzle in read_puzzles(KINDS / "handmade" / f"{name}.txt"):
            result = solve(puzzle, rules=rules)
            assert result.status == "solved", puzzle.name
            (level,) = parse_puzzles(level_line(puzzle, result.paths), "x")
            assert level.board == puzzle.board and level.level == puzzle.level
            assert sorted(level.dots.values()) == sorted(puzzle.dots.values())
            assert problems(level, level.given_paths, rules) == []
            if name == "self_touch":
                assert solve(puzzle).status == "unsolvable"


# -- the checker -------------------------------------------------------------------------------

BRIDGE = one("flowsat board 3x3\n# A #\nB + B\n# A #\n")
ACROSS = {"A": [(0, 1), (1, 1), (2, 1)], "B": [(1, 0), (1, 1), (1, 2)]}


def test_a_bridge_is_crossed_twice_straight():
    assert problems(BRIDGE, ACROSS) == []
    assert "path 'B' turns on the bridge at (1, 1)" in problems(
        BRIDGE, {"A": [(0, 1), (1, 1), (1, 2)], "B": [(1, 0), (1, 1), (2, 1)]})
    once = problems(BRIDGE, {**ACROSS, "B": [(1, 0), (1, 2)]})
    assert "the bridge at (1, 1) across is on no path" in once


def test_walls_holes_and_warps_are_respected():
    walled = one("flowsat board 2x2\nA|A\n\n. .\n")
    assert "path 'A' crosses the wall between (0, 0) and (0, 1)" in problems(
        walled, {"A": [(0, 0), (0, 1)]})
    holed = one("flowsat board 3x1\nA # A\n")
    assert problems(holed, {"A": [(0, 0), (0, 1), (0, 2)]})[0] == (
        "path 'A' enters the hole at (0, 1)")
    flat = one("flowsat board 3x3\nA . A\n. . .\n. . .\n")
    assert "path 'A' jumps from (0, 0) to (0, 2): a warp, and the board has none" in problems(
        flat, {"A": [(0, 0), (0, 2)]})


def test_fill_all_and_the_touch_rule_over_a_warp():
    warped = replace(one("flowsat board 3x3 warps\nA . A\n. . .\n. . .\n"))
    row = {"A": [(0, 0), (0, 1), (0, 2)]}
    assert "cell (1, 0) is on no path" in problems(warped, row)
    assert problems(warped, row, Rules(fill_all=False)) == [
        "path 'A' touches itself at (0, 0) and (0, 2)"]  # joined by the warp
    assert problems(warped, row, Rules(self_touch=True, fill_all=False)) == []


# -- the SAT backend ---------------------------------------------------------------------------

@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_sat_solves_every_level_in_every_rule_mode(rules):
    for puzzle in LEVELS:
        result = solve(puzzle, rules=rules)  # the checker has passed the answer
        assert result.status == "solved", (puzzle.name, rules)


@pytest.mark.parametrize("encoding", ["edges-onehot", "edgecolors", "edges-binary+deduce=true",
                                      "edges-binary+cycles=order", "edges-binary+cycles=squares",
                                      "edges-unique"])
def test_every_edge_encoding_solves_every_kind(encoding):
    for puzzle in LEVELS:
        for rules in (Rules(), Rules(fill_all=False)):
            assert solve(puzzle, encoding=encoding, rules=rules).status == "solved", (
                puzzle.name, encoding, rules)


def test_the_direction_types_refuse_what_they_cannot_express():
    for puzzle in LEVELS:
        if puzzle.board.shape == "hex" or puzzle.board.bridges:
            with pytest.raises(UsageError, match=re.escape(f"express a {puzzle.kind} board")):
                encode(puzzle, "zucker2016")
        else:
            assert solve(puzzle, encoding="zucker2016").status == "solved"
    with pytest.raises(UsageError, match="fills every cell"):
        encode(Puzzle.from_text("A.A / ..."), "zucker2016", Rules(fill_all=False))


def test_the_search_backend_solves_every_kind_with_every_cell_filled_or_not():
    for puzzle in LEVELS:
        for rules in (Rules(), Rules(fill_all=False)):
            assert solve(puzzle, "astar", rules=rules).status == "solved", (puzzle.name, rules)


def test_empty_cells_only_with_fill_all_off():
    puzzle = Puzzle.from_text("A.A / ...")  # no path covers all six cells
    assert solve(puzzle).status == "unsolvable"
    result = solve(puzzle, rules=Rules(fill_all=False))
    assert result.status == "solved" and result.paths == {"A": [(0, 0), (0, 1), (0, 2)]}


def test_cycles_away_from_the_dots_are_cut_or_emptied_with_fill_all_off():
    puzzle = Puzzle.from_text("A..... / ...... / ...... / ...... / .....A")
    for encoding in ("edges-binary", "edges-onehot", "edgecolors"):
        result = solve(puzzle, encoding=encoding, rules=Rules(self_touch=True, fill_all=False))
        assert result.status == "solved"
        assert problems(puzzle, result.paths, Rules(self_touch=True, fill_all=False)) == []


def test_a_cycle_cut_lets_the_cycle_go_empty_only_with_fill_all_off():
    puzzle = Puzzle.from_text("A.A / ... / ...")
    ring = [3, 4, 5, 8, 7, 6]
    for rules, empties in ((DEFAULT, False), (Rules(fill_all=False), True)):
        formula = encode(puzzle, "edges-binary", rules)
        edges = formula.links
        model = [-v for v in range(1, formula.enc.top + 1)]
        for a, b in zip(ring, ring[1:] + ring[:1], strict=True):
            model[edges.edge(a, b) - 1] = edges.edge(a, b)
        cut = edges.cut(ring, model)
        leaving = {edges.edge(i, i - 3) for i in (3, 4, 5)}
        assert set(cut) - leaving == ({-edges.edge(a, b) for a, b in zip(
            ring, ring[1:] + ring[:1], strict=True)} if empties else set())


def test_the_corner_rule_stays_off_where_its_proof_does_not_hold():
    def corner_clauses(puzzle, rules=DEFAULT):
        return (len(encode(puzzle, "edges-unique", rules).clauses)
                - len(encode(puzzle, "edges-binary", rules).clauses))

    square = Puzzle.from_text("A... / .... / ...A")
    walled = one("flowsat board 4x3\nA . . .\n  -\n. . . .\n\n. . . A\n")
    hexed = next(p for p in LEVELS if p.kind == "hex")
    assert corner_clauses(square) > corner_clauses(walled) > 0
    assert corner_clauses(hexed) == 0
    empty = Rules(fill_all=False)  # the rule's own clauses off, those with an empty q written
    formula = encode(square, "edges-unique", empty)
    assert corner_clauses(square, empty) == len(empty_corner_rules(
        formula.enc, formula.links, formula.unique)) > 0
    assert corner_clauses(hexed, empty) == corner_clauses(square, Rules(True, False)) == 0


# -- DIMACS and the CLI ------------------------------------------------------------------------

def test_encode_writes_dimacs_for_every_kind(tmp_path):
    for n, puzzle in enumerate(LEVELS, start=1):
        file = KINDS / f"{puzzle.name.split('/')[-1].split('#')[0]}"
        out = tmp_path / f"{n}.cnf"
        result = CliRunner().invoke(app, ["encode", str(file), "--index", str(puzzle.index),
                                          "-o", str(out), "--allow-empty"])
        assert result.exit_code == 0, result.output
        text = out.read_text()
        assert f"{puzzle.kind}" in text and "cells may stay empty" in text
        clauses = [[int(x) for x in ln.split()[:-1]] for ln in text.splitlines()
                   if ln and ln[0] not in "cp"]
        header = next(ln for ln in text.splitlines() if ln.startswith("p cnf")).split()
        assert int(header[3]) == len(clauses)
        with Solver(bootstrap_with=clauses) as sat:
            assert sat.solve()


def test_check_says_right_or_wrong_with_the_reason_on_one_line(tmp_path):
    runner = CliRunner()
    right = runner.invoke(app, ["check", *map(str, sorted(KINDS.glob("*.txt")))])
    assert right.exit_code == 0 and right.stdout.count(": right") == len(LEVELS)
    broken = tmp_path / "broken.txt"
    broken.write_text("3,0,1,2;0,1,2;3,4,5\n3,0,7,2,,4;0,1,2,5,8;3,6,7\n", encoding="utf-8")
    out = runner.invoke(app, ["check", str(broken)])
    assert out.exit_code == 1
    assert out.stdout.splitlines() == [
        f"{broken}#1 (level 1): wrong: cell (2, 0) is on no path",
        f"{broken}#2 (level 7): right"]


def test_solve_reads_packs_with_the_level_in_json_and_convert_round_trips(tmp_path):
    runner = CliRunner()
    pack = KINDS / "square.txt"
    out = runner.invoke(app, ["solve", str(pack), "--format", "json", "--allow-empty"])
    found = [json.loads(line) for line in out.stdout.splitlines()]
    assert out.exit_code == 0 and [r["level"] for r in found] == [p.level for p in LEVELS
                                                                 if p.file == str(pack)]
    assert all(r["kind"].startswith("square+") for r in found)
    boards = tmp_path / "boards.txt"
    assert runner.invoke(app, ["convert", str(pack), "--to", "board", "-o", str(boards)]
                         ).exit_code == 0
    again = runner.invoke(app, ["convert", str(boards), "--to", "pack"])
    assert again.exit_code == 0
    for line, puzzle in zip(again.stdout.splitlines(), read_puzzles(pack), strict=True):
        (level,) = parse_puzzles(line, "x")
        assert (level.board, level.rows, level.level) == (puzzle.board, puzzle.rows,
                                                          puzzle.level)
        assert problems(level, level.given_paths) == []
    astar = runner.invoke(app, ["solve", str(pack), "--backend", "astar"])
    assert astar.exit_code == 0 and astar.output.count(": solved") == len(found)


# -- the property ------------------------------------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(shape=st.sampled_from(["square", "hex"]), wrap=st.booleans(),
       size=st.integers(3, 7), walls=st.sampled_from([0.0, 0.3]),
       bridges=st.sampled_from([0.0, 1.0]), touch=st.booleans(), fill=st.booleans(),
       seed=st.integers(0, 10**6))
def test_random_levels_of_every_kind_are_solved_and_checked(shape, wrap, size, walls, bridges,
                                                              touch, fill, seed):
    width = size + size % 2 if shape == "hex" and wrap else size
    puzzle, paths = random_level(Board(width, size, shape, wrap), random.Random(seed),
                                 Rules(touch), walls=walls, bridges=bridges)
    rules = Rules(touch, fill)
    assert problems(puzzle, paths, rules) == []  # the level itself is right
    result = solve(puzzle, rules=rules)
    assert result.status == "solved", (puzzle.kind, puzzle.board, rules)
    assert problems(puzzle, result.paths, rules) == []


@pytest.mark.parametrize("shape, fill_all, lazy", [
    ("square", True, True), ("hex", True, False), ("square", False, False)])
def test_lazy_touch_clauses_only_where_the_corner_rule_keeps_models_apart(shape, fill_all, lazy):
    puzzle, _ = random_level(Board(6, 6, shape), random.Random(3))
    rules = Rules(fill_all=fill_all)
    formula = encode(puzzle, "edges-unique-lazy", rules)
    assert formula.lazy_touch is lazy
    eager = encode(puzzle, "edges-unique", rules)
    if not lazy:  # stated up front: the same formula as the eager encoding
        assert sorted(map(sorted, formula.clauses)) == sorted(map(sorted, eager.clauses))
    assert solve(puzzle, "sat", rules=rules).status == "solved"
