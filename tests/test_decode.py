"""The models' tracer (`decode.trace`: each node's sum of neighbors) held to the cell-by-cell
one (`trace_by_cells`) on random boards of every kind: solved fillings, the same with cycles
cut out of the paths, with empty cells, and broken models (two colors joined, a node with a
third link)."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import pairwise
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flowsat.checker import problems
from flowsat.generate.cover import random_level
from flowsat.puzzle import Rules
from flowsat.sat import boards, fresh
from flowsat.sat.decode import BrokenModel, trace, trace_by_cells
from flowsat.sat.encoder import Encoder
from flowsat.sat.formula import encode
from flowsat.solve import solve
from tests.test_large_boards import board_of, kinds


def outcome(tracer, enc, linked):
    """What a tracer makes of the links: its paths, cycles (as sets) and nodes, or its error."""
    try:
        t = tracer(enc, linked)
    except BrokenModel as err:
        return str(err)
    return t.paths, sorted(map(sorted, t.cycles)), t.nodes, t.lengths


@settings(max_examples=120, deadline=None)
@given(**kinds, bridges=st.sampled_from([0.0, 1.0]), fill=st.booleans(),
       change=st.sampled_from(["none", "cycle", "join", "extra", "drop"]))
def test_the_fast_tracer_agrees_with_the_cell_by_cell_one(shape, wrap, size, extra, seed,
                                                         bridges, fill, change):
    rng = random.Random(seed)
    board = board_of(shape, wrap, size, extra)
    puzzle, paths = random_level(board, rng, mean_length=8.0,
                                 bridges=bridges if shape == "square" else 0.0)
    enc = Encoder(puzzle, rules=Rules(fill_all=fill))
    linked = {(min(i, j), max(i, j)) for path in paths.values()
              for i, j in pairwise(enc.path_nodes(path))}
    edges = [tuple(e) for e in enc.edge_array.tolist()]
    if change == "cycle" or (change == "none" and not fill):  # a path made a cycle: its
        color = rng.choice(sorted(puzzle.dots))               # dots' links dropped, closed
        nodes = enc.path_nodes(paths[color])
        close = (min(nodes[0], nodes[-1]), max(nodes[0], nodes[-1]))
        if len(nodes) > 2 and close in edges:
            linked = (linked - {(min(a, b), max(a, b)) for a, b in (nodes[:2], nodes[-2:])})
            linked |= {close} if change == "cycle" else set()
            if change == "none":  # cells left empty instead
                linked -= {(min(a, b), max(a, b)) for a, b in pairwise(nodes)}
    elif change == "join":  # a link between two colors' ends
        ends = [e for e in edges if e not in linked
                and len({c for c, p in paths.items() for x in e
                         if x in (enc.path_nodes(p)[0], enc.path_nodes(p)[-1])}) == 2]
        if ends:
            linked |= {rng.choice(ends)}
    elif change == "extra" and len(edges) > len(linked):
        linked |= {rng.choice([e for e in edges if e not in linked])}
    elif change == "drop":
        linked -= {rng.choice(sorted(linked))}
    pairs = sorted(linked)
    array = np.array(pairs, dtype=np.int64).reshape(-1, 2)
    fast, slow = outcome(trace, enc, array), outcome(trace_by_cells, enc, pairs)
    assert fast == slow
    if change == "none" and fill:  # the solution itself
        assert fast[1] == [] and all(fast[0][c] in (list(p), list(p)[::-1])
                                     for c, p in paths.items())


def test_a_model_with_cycles_and_touches_is_read_as_before():
    puzzle = Encoder(replace(random_level(board_of("square", False, 6, 0),
                                          random.Random(3))[0])).puzzle
    formula = encode(puzzle, "edges-binary")
    enc = formula.enc
    ring = [enc.index(x) for x in [(1, 1), (1, 2), (2, 2), (2, 1)]]
    on = np.zeros(len(enc.edge_array), dtype=bool)
    rows = {tuple(e): k for k, e in enumerate(enc.edge_array.tolist())}
    for a, b in pairwise(ring + ring[:1]):
        on[rows[min(a, b), max(a, b)]] = True
    model = [v if on[k] else -v for k, v in enumerate(formula.links.var_array.tolist())]
    model = [-(v + 1) for v in range(int(formula.links.var_array[0]) - 1)] + model
    traced = outcome(trace, enc, formula.links.links(model))
    assert traced == outcome(trace_by_cells, enc, formula.links.links(model).tolist())
    cut = formula.links.cut(ring, model)
    assert sorted(cut) == sorted(v for v, (a, b) in zip(formula.links.var_array.tolist(),
                                                        enc.edge_array.tolist(), strict=True)
                                 if (a in ring) != (b in ring))
    assert sorted(formula.links.block(model)) == sorted(
        -v for k, v in enumerate(formula.links.var_array.tolist()) if on[k])


@pytest.mark.parametrize("seed", range(3))
def test_touching_finds_the_unlinked_neighbors_of_one_path(seed):
    puzzle, paths = random_level(board_of("square", False, 7, 1), random.Random(seed))
    formula = encode(puzzle, "edges-unique-lazy")
    enc, fam = formula.enc, formula.links
    linked = {(min(i, j), max(i, j)) for p in paths.values()
              for i, j in pairwise(enc.path_nodes(p))}
    model = [-(v + 1) for v in range(int(fam.var_array[0]) - 1)] + [
        v if tuple(e) in linked else -v for v, e in zip(fam.var_array.tolist(),
                                                        enc.edge_array.tolist(), strict=True)]
    traced = trace(enc, fam.links(model))
    color = traced.colors(enc.size)
    expected = sorted((i, j) for i, j in map(tuple, enc.edge_array.tolist())
                      if (i, j) not in linked and color[i] >= 0 and color[i] == color[j])
    assert sorted((i, j) for i, j, _ in fam.touching(color, model)) == expected


@settings(max_examples=40, deadline=None)
@given(shape=st.sampled_from(["square", "hex"]), wrap=st.booleans(), size=st.integers(4, 16),
       seed=st.integers(0, 10**6), bridges=st.sampled_from([0.0, 1.0]), fill=st.booleans(),
       encoding=st.sampled_from(["edges-turns", "edges-binary", "edges-unique-lazy"]))
def test_every_model_of_a_solve_is_read_as_cell_by_cell(shape, wrap, size, seed, bridges,
                                                        fill, encoding):
    """The solver's own models (cycles, touches, colors joined by short codes): each traced
    both ways, to the same paths, cycles and errors; the answer checked."""
    puzzle, _ = random_level(board_of(shape, wrap, size, 0), random.Random(seed),
                             mean_length=12.0, bridges=bridges if shape == "square" else 0.0)
    read = []

    def both(enc, linked):
        fast = outcome(trace, enc, linked)
        assert fast == outcome(trace_by_cells, enc, np.asarray(linked).tolist())
        read.append(fast)
        return trace(enc, linked)

    rules = Rules(fill_all=fill)
    with patch.object(fresh, "trace", both), patch.object(boards, "COMPILE_UP_TO", -1):
        result = solve(puzzle, rules=rules, encoding=encoding, deduce=False)  # every model
    assert result.status == "solved" and problems(puzzle, result.paths, rules) == []
    assert read and read[-1][0] == result.paths


@pytest.mark.parametrize("seed", range(4))
def test_a_path_to_another_colors_dot_breaks_as_before(seed):
    """Links that join two colors (as short color codes let a model do): the second dots
    of two colors swapped under a solution's links; BrokenModel with the same message."""
    puzzle, paths = random_level(board_of("square", bool(seed % 2), 8, 1), random.Random(seed))
    (a, pa), (b, pb) = list(paths.items())[:2]
    rows = [list(r) for r in puzzle.rows]
    (ra, ca), (rb, cb) = pa[-1], pb[-1]
    rows[ra][ca], rows[rb][cb] = b, a
    swapped = replace(puzzle, rows=tuple("".join(r) for r in rows))
    enc = Encoder(swapped)
    linked = sorted({(min(i, j), max(i, j)) for p in paths.values()
                     for i, j in pairwise(enc.path_nodes(p))})
    fast = outcome(trace, enc, np.array(linked, dtype=np.int64).reshape(-1, 2))
    assert isinstance(fast, str) and fast == outcome(trace_by_cells, enc, linked)
