"""The array paths of million-cell boards against the plain ones they replace: the graph's
tables from the board's links each way, paths traced run by run, the residue formula made by
groups (all on small random boards of every kind), records written as JSON."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from itertools import pairwise
from unittest.mock import patch

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from flowsat.generate.cover import random_level
from flowsat.puzzle import Board, Rules
from flowsat.result import record_json
from flowsat.sat import encoder
from flowsat.sat.deduce import OFF, ON, deduce
from flowsat.sat.encoder import Encoder
from flowsat.sat.residue import trace
from flowsat.solve import solve
from tests.test_deduce import spiral, swapped

kinds = dict(shape=st.sampled_from(["square", "hex"]), wrap=st.booleans(),
             size=st.integers(3, 9), extra=st.integers(0, 3), seed=st.integers(0, 10**6))


def board_of(shape: str, wrap: bool, size: int, extra: int) -> Board:
    width = size + size % 2 if shape == "hex" and wrap else size + extra
    return Board(width, size, shape, wrap)


@settings(max_examples=60, deadline=None)
@given(**kinds, holes=st.booleans(), walls=st.booleans())
def test_the_graph_tables_from_link_ways_are_the_sorted_ones(shape, wrap, size, extra, seed,
                                                             holes, walls):
    rng = random.Random(seed)
    board = board_of(shape, wrap, size, extra)
    cells = range(board.size)
    hole = frozenset(rng.sample(cells, board.size // 5)) if holes else frozenset()
    links = [tuple(e) for e in board.links.tolist()]
    wall = frozenset(rng.sample(links, len(links) // 4)) if walls else frozenset()
    board = replace(board, holes=hole, walls=frozenset(w for w in wall if not set(w) & hole))
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
    with patch("flowsat.sat.backend.RESIDUE_SHARE", 1.0):  # the residue goes alone, always
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
