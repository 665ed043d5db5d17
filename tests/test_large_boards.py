"""The array paths of million-cell boards against the plain ones they replace: the graph's
tables from the board's links each way, paths traced run by run into arrays (`CellPath`), the
residue formula made by groups, the checker, the grid and the JSON of paths held as arrays
(all on small random boards of every kind), records written as JSON."""

from __future__ import annotations

import json
import pickle
import random
from dataclasses import replace
from itertools import pairwise
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flowsat.checker import problems, right_by_arrays
from flowsat.generate.cover import random_level
from flowsat.puzzle import Board, Puzzle, Rules
from flowsat.puzzle.model import CellPath, solution_grid
from flowsat.result import Result, record_json, record_line, to_record
from flowsat.result import encoder as record_encoder
from flowsat.sat import encoder
from flowsat.sat.bulk import chains, links_in
from flowsat.sat.deduce import OFF, ON, deduce, propagated
from flowsat.sat.encoder import Encoder
from flowsat.sat.residue import NoSolution, residue, trace
from flowsat.solve import solve
from tests.test_deduce import changed, spiral, swapped

kinds = dict(shape=st.sampled_from(["square", "hex"]), wrap=st.booleans(),
             size=st.integers(3, 9), extra=st.integers(0, 3), seed=st.integers(0, 10**6))


def board_of(shape: str, wrap: bool, size: int, extra: int) -> Board:
    width = size + size % 2 if shape == "hex" and wrap else size + extra
    return Board(width, size, shape, wrap)


def cut_up(board: Board, rng: random.Random, holes: bool, walls: bool,
           links: list[tuple[int, int]]) -> Board:
    """The board with a fifth of its cells made holes and a quarter of its links walls."""
    hole = frozenset(rng.sample(range(board.size), board.size // 5)) if holes else frozenset()
    wall = frozenset(rng.sample(links, len(links) // 4)) if walls else frozenset()
    return replace(board, holes=hole, walls=frozenset(w for w in wall if not set(w) & hole))


@settings(max_examples=60, deadline=None)
@given(**kinds, holes=st.booleans(), walls=st.booleans())
def test_the_graph_tables_from_link_ways_are_the_sorted_ones(shape, wrap, size, extra, seed,
                                                             holes, walls):
    rng = random.Random(seed)
    board = board_of(shape, wrap, size, extra)
    links = [tuple(e) for e in board.links.tolist()]
    board = cut_up(board, rng, holes, walls, links)
    if board.problem():
        return
    g = encoder.graph(board)
    rows, degree = encoder.incidence(g.edge_array, g.size)
    assert np.array_equal(g.incident_rows, rows) and np.array_equal(g.degree, degree)
    sorted_rows = encoder.edge_rows(g.edge_array, g.toward_array, g.size) if len(links) else {}
    for d, row in sorted_rows.items():
        assert np.array_equal(g.toward_edge[d], row), d
    if sorted_rows:  # the ways in bulk.WAYS order, from the board's table
        ways = [sorted_rows[d] for d in (encoder.UP, encoder.DOWN, encoder.LEFT, encoder.RIGHT)]
        assert np.array_equal(g.way_rows[0], np.stack(ways, axis=1))
    assert g.cells == [board.cell(i) for i in range(board.size)]
    assert g.nodes == np.flatnonzero(g.on_array).tolist() == list(board.cells)


@settings(max_examples=80, deadline=None)
@given(**kinds, holes=st.booleans(), walls=st.booleans())
def test_the_board_tables_made_in_bulk_are_those_of_its_steps(shape, wrap, size, extra, seed,
                                                               holes, walls):
    rng = random.Random(seed)
    board = board_of(shape, wrap, size, extra)
    if not wrap and extra % 2:  # one or two columns, or rows
        board = replace(board, **{("width" if extra == 1 else "height"): 1 + seed % 2})
    near = [(i, board.step(i, d, board.wrap)) for i in range(board.size) for d in board.directions]
    pairs = sorted({(min(i, j), max(i, j)) for i, j in near if j is not None})
    board = cut_up(board, rng, holes, walls, pairs)
    open_ = {(i, j) for i, j in near if j is not None and not {i, j} & board.holes
             and (min(i, j), max(i, j)) not in board.walls}
    for d, row in board.toward_arrays.items():
        assert row.tolist() == [j if (i, j) in open_ else -1 for i, j in
                                ((i, board.step(i, d, board.wrap)) for i in range(board.size))]
    links = [(i, j) for i in range(board.size) for j in board.neighbors[i] if i < j]
    assert board.links.tolist() == [list(x) for x in links]
    index = {pair: k for k, pair in enumerate(links)}
    assert board.link_ways.tolist() == [[index.get((min(i, j), max(i, j)), -1) if j >= 0
                                         else -1 for j in row] for i, row in
                                        enumerate(board.ways.tolist())]


def walked(enc: Encoder, state: np.ndarray, start: int, end: int) -> list[int]:
    """The nodes from start to end along the made links, one step a node."""
    ahead: dict[int, list[int]] = {}
    for a, b in enc.edge_array[state == ON].tolist():
        ahead.setdefault(a, []).append(b)
        ahead.setdefault(b, []).append(a)
    path = [start]
    while path[-1] != end:
        path.append(next(n for n in ahead[path[-1]] if len(path) < 2 or n != path[-2]))
    return path


@settings(max_examples=80, deadline=None)
@given(**kinds, length=st.sampled_from([4.0, 12.0, 40.0]), bridges=st.sampled_from([0.0, 1.0]),
       narrow=st.booleans())
def test_paths_traced_run_by_run_are_the_paths_walked_cell_by_cell(shape, wrap, size, extra,
                                                                    seed, length, bridges,
                                                                    narrow):
    rng = random.Random(seed)
    board = board_of(shape, wrap, size, extra)
    if narrow and not wrap:  # one or two columns: a row step is a column step, or none
        board = replace(board, width=1 + extra % 2)
    puzzle, paths = random_level(board, rng, mean_length=length,
                                 bridges=bridges if shape == "square" else 0.0)
    enc = Encoder(puzzle)
    linked = {(min(i, j), max(i, j)) for path in paths.values()
              for i, j in pairwise(enc.path_nodes(path))}
    state = np.array([ON if e in linked else OFF for e in map(tuple, enc.edge_array.tolist())],
                     dtype=np.uint8)
    traced = trace(enc, state)
    for color, (a, b) in puzzle.dots.items():
        nodes = walked(enc, state, enc.index(a), enc.index(b))
        assert traced[color] == [enc.cell(i) for i in nodes], color


def test_a_spiral_is_traced_in_runs_to_the_same_paths():
    puzzle = spiral(40)
    result = solve(puzzle, deduce=True)  # checked
    assert result.status == "solved"
    enc = Encoder(puzzle)
    state = np.zeros(len(enc.edge_array), dtype=np.uint8) + OFF
    for path in result.paths.values():
        for i, j in pairwise(enc.path_nodes(path)):
            state[enc.graph.board.link_index[(min(i, j), max(i, j))]] = ON
    for color, (a, b) in puzzle.dots.items():
        assert trace(enc, state)[color] == [enc.cell(i) for i in walked(
            enc, state, enc.index(a), enc.index(b))]


@settings(max_examples=60, deadline=None)
@given(**kinds, touch=st.booleans(), fill=st.booleans(), swap=st.booleans())
def test_the_residue_formula_of_any_residue_agrees_with_the_encoding(shape, wrap, size, extra,
                                                                     seed, touch, fill, swap):
    rng = random.Random(seed)
    puzzle, _ = random_level(board_of(shape, wrap, min(size, 6), 0), rng, Rules(touch))
    if swap and len(puzzle.dots) > 1:
        puzzle = swapped(puzzle, rng)
    rules = Rules(touch, fill)
    off = solve(puzzle, rules=rules)
    with patch("flowsat.sat.search.RESIDUE_SHARE", 1.0):  # the residue goes alone, always
        on = solve(puzzle, rules=rules, deduce=True)
    assert on.status == off.status, (puzzle.board, puzzle.rows, rules)
    assert "encode_s" not in on.stats  # no encoding was made


cells = st.lists(st.tuples(st.integers(0, 1200), st.integers(0, 1200)), max_size=30)


@settings(max_examples=100, deadline=None)
@given(paths=st.one_of(st.none(), st.dictionaries(st.text(max_size=3), cells, max_size=4)),
       before=st.dictionaries(st.sampled_from(["file", "index", "grid"]), st.text(max_size=5)),
       after=st.dictionaries(st.sampled_from(["stats", "error"]), st.integers()))
def test_a_record_is_written_as_json_writes_it(paths, before, after):
    record = {**before, "paths": paths, **after}
    with patch("flowsat.result.ARRAYS_FROM", 0):  # numpy's way, on paths of any size
        assert record_json(record) == json.dumps(record, separators=(",", ":"))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(value=json_values)
def test_the_record_writer_writes_what_json_dumps_writes(value):
    """json's C encoder, made once, as `json.dumps` makes one a call (floats, NaN, tuples,
    text of any kind, at any depth)."""
    assert record_encoder()(value) == json.dumps(value, separators=(",", ":"))


@settings(max_examples=60, deadline=None)
@given(paths=st.dictionaries(st.text(max_size=2), cells, max_size=4),
       kinds=st.lists(st.sampled_from(["list", "tuple", "lists", "arrays"]), min_size=4,
                      max_size=4))
def test_a_small_record_is_written_as_json_writes_it_whatever_holds_its_cells(paths, kinds):
    held = {"list": list, "tuple": tuple, "lists": lambda p: [list(c) for c in p],
            "arrays": lambda p: CellPath(np.array([r for r, _ in p], dtype=np.int64),
                                         np.array([c for _, c in p], dtype=np.int64))}
    given = {color: held[kind](path)
             for (color, path), kind in zip(paths.items(), kinds, strict=False)}
    record = {"file": "f", "paths": given, "stats": {"total_s": 0.5}, "error": None}
    expected = json.dumps({**record, "paths": paths}, separators=(",", ":"))
    assert record_json(record) == expected
    assert record_json({**record, "paths": None}) == json.dumps({**record, "paths": None},
                                                                separators=(",", ":"))


@settings(max_examples=60, deadline=None)
@given(width=st.integers(2, 7), height=st.integers(2, 7), seed=st.integers(0, 10**6),
       own=st.sampled_from([0, 1, 2]),
       file=st.sampled_from(["f.txt", 'a "paths":0, b\\', "\u00e9"]),
       arrays_from=st.sampled_from([0, 10**9]))
def test_a_record_line_is_the_json_of_its_record_whatever_holds_its_cells(width, height, seed,
                                                                         own, file, arrays_from):
    """On boards of any size: the cells' texts made once a board, or written by numpy."""
    puzzle, paths = random_level(Board(width, height), random.Random(seed))
    puzzle = replace(puzzle, file=file)
    for k, color in enumerate(paths):  # the board's own cell tuples, as the SAT backend
        if own > k % 2:                # gives them: none, every other path's, all
            paths[color] = [puzzle.board.cell_list[r * width + c] for r, c in paths[color]]
    for result in (Result("solved", paths, {"total_s": 0.5}, None, {"encoding": "e"}),
                   Result("unsolvable", stats={"rounds": 1})):
        expected = json.dumps(to_record(puzzle, result, "sat", Rules()), separators=(",", ":"))
        with patch("flowsat.result.ARRAYS_FROM", arrays_from):
            assert record_line(puzzle, result, "sat", Rules()) == expected


def test_labels_json_escapes_are_written_as_json_writes_them():
    puzzle = Puzzle(('"\\', '"\\'))
    own = puzzle.board.cell_list
    result = Result("solved", {'"': [own[0], own[2]], "\\": [own[1], own[3]]})
    expected = json.dumps(to_record(puzzle, result, "sat", Rules()), separators=(",", ":"))
    assert record_line(puzzle, result, "sat", Rules()) == expected
    assert '"paths":{"\\"":[[0,0],[1,0]],"\\\\":[[0,1],[1,1]]}' in expected


@settings(max_examples=40, deadline=None)
@given(size=st.integers(4, 14), length=st.sampled_from([5.0, 15.0, 40.0]),
       small=st.sampled_from([1, 8, 64]), swap=st.booleans(), seed=st.integers(0, 10**6))
def test_the_numpy_rounds_then_the_worklist_force_what_the_worklist_alone_forces(
        size, length, small, swap, seed):
    rng = random.Random(seed)
    puzzle, _ = random_level(Board(size, size), rng, Rules(False), mean_length=length)
    if swap and len(puzzle.dots) > 1:
        puzzle = swapped(puzzle, rng)
    alone = deduce(Encoder(puzzle)).state
    with patch.multiple("flowsat.sat.deduce", BULK_FROM=0), patch.multiple("flowsat.sat.bulk",
                                                                           SMALL=small):
        rounds = deduce(Encoder(puzzle)).state  # each frontier down to `small` nodes
    assert (alone is None) == (rounds is None)
    assert alone is None or np.array_equal(alone, rounds)


def as_arrays(paths: dict) -> dict[str, CellPath]:
    """The paths held as arrays, as the residue's tracer gives them."""
    return {c: CellPath(np.array([r for r, _ in p], dtype=np.int64).reshape(-1),
                        np.array([c for _, c in p], dtype=np.int64).reshape(-1))
            for c, p in paths.items()}


def test_a_cell_path_reads_as_the_list_of_its_cells():
    cells = [(0, 0), (0, 1), (1, 1), (2, 1)]
    path = as_arrays({"A": cells})["A"]
    assert list(path) == cells and len(path) == 4 and path[0] == (0, 0) and path[-1] == (2, 1)
    assert all(type(x) is int for cell in [*path, path[1]] for x in cell)
    assert path == cells and path[1:3] == cells[1:3] and list(reversed(path)) == cells[::-1]
    assert path != cells[:3] and path != [*cells[:3], (2, 2)] and path != "ab"
    assert (1, 1) in path and (2, 2) not in path and path.index((1, 1)) == 2
    assert pickle.loads(pickle.dumps(path)) == cells


@settings(max_examples=80, deadline=None)
@given(**kinds, walls=st.sampled_from([0.0, 0.3]), touch=st.booleans(), fill=st.booleans(),
       change=st.sampled_from(["none", "swap", "drop", "move", "reverse", "recolor", "cut"]),
       unhole=st.booleans())
def test_the_array_check_of_paths_held_as_arrays_accepts_what_the_cell_by_cell_check_does(
        shape, wrap, size, extra, seed, walls, touch, fill, change, unhole):
    rng = random.Random(seed)
    board = board_of(shape, wrap, size, extra)
    if unhole:  # holes here and there, then cells on no path: empty ones side by side
        board = replace(board, holes=frozenset(rng.sample(range(board.size), board.size // 4)))
    puzzle, paths = random_level(board, rng, Rules(touch), walls=walls)  # touching or not
    if unhole:
        puzzle = replace(puzzle, board=replace(puzzle.board, holes=frozenset()))
    paths = changed(paths, rng, change, size)
    for rules in (Rules(False, fill), Rules(True, fill)):  # a touching one under both rules
        with patch("flowsat.checker.right_by_arrays", return_value=False):
            slow = problems(puzzle, paths, rules)
        assert right_by_arrays(puzzle, as_arrays(paths), rules) == (slow == []), (
            puzzle.rows, paths, rules, slow)
        assert problems(puzzle, as_arrays(paths), rules) == slow


@settings(max_examples=60, deadline=None)
@given(**kinds, fill=st.booleans())
def test_the_grid_and_the_json_of_paths_held_as_arrays_are_those_of_the_lists(
        shape, wrap, size, extra, seed, fill):
    rng = random.Random(seed)
    puzzle, paths = random_level(board_of(shape, wrap, size, extra), rng, Rules(False, fill))
    arrays = as_arrays(paths)
    assert solution_grid(puzzle, arrays) == solution_grid(puzzle, paths)
    record = {"file": puzzle.file, "paths": paths, "stats": {}}
    for arrays_from in (0, 10**9):  # numpy's writer, and json's
        with patch("flowsat.result.ARRAYS_FROM", arrays_from):
            assert record_json({**record, "paths": arrays}) == json.dumps(record,
                                                                         separators=(",", ":"))


@settings(max_examples=40, deadline=None)
@given(size=st.integers(4, 14), length=st.sampled_from([5.0, 15.0, 40.0]),
       small=st.sampled_from([1, 8, 64]), swap=st.booleans(), seed=st.integers(0, 10**6))
def test_the_residue_from_the_rounds_chains_is_the_residue_from_scratch(size, length, small,
                                                                        swap, seed):
    rng = random.Random(seed)
    puzzle, _ = random_level(Board(size, size), rng, Rules(False), mean_length=length)
    if swap and len(puzzle.dots) > 1:
        puzzle = swapped(puzzle, rng)
    with patch.multiple("flowsat.sat.deduce", BULK_FROM=0), patch.multiple("flowsat.sat.bulk",
                                                                           SMALL=small):
        p = propagated(Encoder(puzzle))  # the numpy rounds, then the worklist
    if p is None:
        return
    assert p.chain is not None
    try:
        grown = residue(p)
    except NoSolution:
        grown = None
    p.chain = None  # the chains made from nothing
    try:
        scratch = residue(p)
    except NoSolution:
        assert grown is None
        return
    assert np.array_equal(grown.chain, scratch.chain) and grown.joins == scratch.joins
    assert grown.clauses == scratch.clauses


def test_two_chains_of_one_color_side_by_side_leave_no_residue():
    # a random board with holes and two dots swapped: propagation leaves two chains of one
    # color on either side of a link left out, which the touch rule forbids
    puzzle = Puzzle(("M...RRG.", "........", "M..O....", "GY...O..", ".Y.C....", "....C...",
                     "........", "B.B....."),
                    board=Board(8, 8, holes=frozenset({10, 14, 20, 31, 46, 48, 63})))
    p = propagated(Encoder(puzzle))
    state, ends = np.frombuffer(p.state, dtype=np.uint8), p.enc.graph.edge_array
    chain = chains(p.enc.size, links_in(ends, state, ON))
    color = np.full(p.enc.size, -1)
    color[chain[p.enc.dots >= 0]] = p.enc.dots[p.enc.dots >= 0]
    a, b = chain[links_in(ends, state, OFF)].T
    assert ((a != b) & (color[a] >= 0) & (color[a] == color[b])).any()
    with pytest.raises(NoSolution):
        residue(p)
    assert solve(puzzle, deduce=True).status == solve(puzzle).status == "unsolvable"


def test_a_board_without_dots_is_checked_with_arrays_too():
    puzzle = Puzzle(("." * 50,) * 50)  # 2,500 cells: the array check
    assert right_by_arrays(puzzle, {}, Rules(False, False)) and not problems(
        puzzle, {}, Rules(False, False))
    assert not right_by_arrays(puzzle, {}, Rules(False, True))
    assert problems(puzzle, {}, Rules(False, True))[0] == "cell (0, 0) is on no path"
