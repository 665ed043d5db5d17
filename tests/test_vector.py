"""The families made with arrays say what their clauses say one by one, and the solvers are
loaded the fast way with every clause."""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pysat.solvers import Solver

from flowsat.puzzle import Puzzle
from flowsat.sat import card
from flowsat.sat.cells import Binary
from flowsat.sat.encoder import Encoder
from flowsat.sat.formula import encode
from flowsat.sat.oracle import DIRECT_ADD, Oracle, load


@given(st.integers(1, 5), st.integers(1, 3), st.integers(1, 4), st.randoms())
def test_exactly_rows_makes_each_rows_direct_clauses(n, k, rows, rnd):
    k = min(k, n)
    lits = np.array([[rnd.choice((1, -1)) * v for v in rnd.sample(range(1, 40), n)]
                     for _ in range(rows)])
    made = [c for block in card.exactly_rows(lits, k) for c in block.tolist()]
    expected = [c for row in lits.tolist() for c in card.exactly(row, k, "pairwise", None)]
    assert sorted(map(tuple, made)) == sorted(map(tuple, expected))


def relation_holds(enc: Encoder, colors: Binary, method: str, i: int, j: int) -> dict:
    """For every pair of colors of cells i and j (the dots' own where they are dots): whether
    the clauses of `method` under a true literal let the cells have them."""
    lit = enc.new_var("test", 0)
    start = len(enc.clauses)
    getattr(colors, method)((np.array([i]), np.array([j]), np.array([lit])))
    made = enc.clauses[start:]
    found = {}
    choices = [[enc.dot[x]] if enc.dot[x] >= 0 else range(len(enc.colors)) for x in (i, j)]
    with Solver(name="g4", bootstrap_with=made) as sat:
        for a, b in product(*choices):
            found[a, b] = sat.solve([lit, *colors.code(i, a), *colors.code(j, b)])
    return found


@pytest.mark.parametrize("method", ["same", "differ"])
def test_binary_same_and_differ_mean_what_they_say_for_every_kind_of_pair(method):
    puzzle = Puzzle.from_text("A.B.C / ..... / A.B.C")  # 3 colors: 2 bits, code 3 unused
    enc = Encoder(puzzle)
    colors = Binary(enc)
    empty, empty2, dot_a, dot_b, dot_a2 = 1, 7, 0, 2, 10
    for i, j in [(empty, empty2), (dot_a, empty), (empty, dot_a), (dot_a, dot_b),
                 (dot_a, dot_a2)]:
        for (a, b), possible in relation_holds(enc, colors, method, i, j).items():
            assert possible == ((a == b) == (method == "same")), (i, j, a, b)


def test_differ_reuses_the_difference_variables_of_a_pair_met_before():
    enc = Encoder(Puzzle.from_text("A.B.C / ..... / A.B.C"))
    colors = Binary(enc)
    colors.differ([(1, 7, 30), (7, 1, 31), (6, 7, 32)])
    top = enc.top
    colors.differ([(7, 6, 33)])
    assert enc.top == top == enc.blocks[-1][0] + 2 * colors.nbits - 1


def test_every_solver_loaded_directly_has_every_clause():
    puzzle = Puzzle.from_text("RB... / ..Y.. / G.R.. / .O.Y. / .G.OB")
    clauses = encode(puzzle, "edges-unique").clauses
    for name, (function, handle) in DIRECT_ADD.items():
        with Oracle(name, clauses) as fast, Solver(name=name, bootstrap_with=clauses) as slow:
            assert hasattr(fast.solver.solver, handle), (name, function)
            assert fast.solve() is slow.solve() is True
            assert fast.model() == slow.get_model()
            units = [[-x] for x in fast.model()[:5]]  # every clause is there: no model now
            load(fast.solver, name, units)
            load(slow, name, units)
            assert fast.solve() is slow.solve() is False
