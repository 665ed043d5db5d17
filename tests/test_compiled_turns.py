"""The rows a compiled board states for a cell whose turn the corner rule rules out (in
`board_cnf.turn_rows`: the cell links one of its other neighbors, or is a dot, or a dot lies
on the turn's diagonal): true of every solution, and, with the degree clauses and the turn
rows, as strong under unit propagation as the per-puzzle clauses (`links.turn_clauses`)
once the dots are known."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flowsat.generate.filling import puzzle_of, random_filling
from flowsat.puzzle.board import Board
from flowsat.puzzle.rules import Rules
from flowsat.sat import board_cnf, boards
from flowsat.sat.board_cnf import CORNERS, compile_board, others
from flowsat.sat.bulk import WAYS
from flowsat.sat.deduce import PAIRS
from flowsat.sat.kept import Kept
from flowsat.sat.links import TYPES, turn_clauses
from flowsat.sat.spec import load_spec
from flowsat.solve import solve
from tests.test_compiled import turn_rows_by_walking

TURN = {g: PAIRS.index(tuple(sorted(WAYS.index(d) for d in TYPES[g]))) for g in CORNERS}


def ways(present: int) -> list[int]:
    """The ways (indexes in WAYS) of the links `present` (bits of WAYS)."""
    return [w for w in range(len(WAYS)) if present >> w & 1]


def propagated(clauses: list[list[int]], assumed: set[int]) -> set[int] | None:
    """The literals unit propagation reaches from `assumed` (None: a conflict)."""
    known, changed = set(assumed), True
    while changed:
        changed = False
        for clause in clauses:
            if any(x in known for x in clause):
                continue
            free = [x for x in clause if -x not in known]
            if not free:
                return None
            if len(free) == 1:
                known.add(free[0])
                changed = True
    return known


def compiled_clauses(present: int, out: list[str]) -> list[list[int]]:
    """A cell's compiled clauses with the dots known (no dot there nor on the diagonals of
    the turns `out`): the degree clauses, and for each turn out its turn row and the row of
    what it leaves."""
    have = [w + 1 for w in ways(present)]
    clauses = [[-a, -b, -c] for a, b, c in combinations(have, 3)]
    clauses += [list(c) for c in combinations(have, len(have) - 1)]
    for glyph in out:
        clauses.append([-(w + 1) for w in PAIRS[TURN[glyph]]])
        clauses.append([w + 1 for w in others(glyph) if present >> w & 1])
    return clauses


def per_puzzle_clauses(present: int, out: list[str]) -> list[list[int]]:
    """`links.turn_clauses` of the cell: one of its pairs left linked."""
    pairs = (1 << len(PAIRS)) - 1 - sum(1 << TURN[g] for g in out)
    columns, signs, lengths = turn_clauses(present, pairs)
    return [[s * (w + 1) for w, s in zip(c[:n], g[:n], strict=True)]
            for c, g, n in zip(columns.tolist(), signs.tolist(), lengths.tolist(),
                               strict=True)]


def possible(present: int) -> list[str]:
    """The turns a cell with links `present` can make."""
    return [g for g in CORNERS if all(present >> w & 1 for w in PAIRS[TURN[g]])]


@pytest.mark.parametrize("present", [p for p in range(16) if p.bit_count() >= 2])
def test_the_row_of_a_turn_holds_for_every_other_pair_and_not_for_the_turn(present):
    """A cell that takes a pair of its links other than the turn links one of the turn's
    others; the turn itself links none of them (the row says what the degree does not)."""
    for glyph in possible(present):
        row = {w for w in others(glyph) if present >> w & 1}
        turn = set(PAIRS[TURN[glyph]])
        pairs = [set(p) for p in PAIRS if set(p) <= set(ways(present)) and set(p) != turn]
        assert all(row & p for p in pairs)
        assert not row & turn


@pytest.mark.parametrize("board", [Board(13, 12), Board(14, 13, holes=frozenset({30, 31, 95}))],
                         ids=str)
def test_each_turn_row_is_followed_by_the_row_of_what_the_turn_leaves(board):
    """After the turn rows, one row a turn row, in their order: the turn's other links, the
    cell's dot, the turn row's dots."""
    spec, rules = load_spec("edges-turns"), Rules()
    key = boards.board_key(board_cnf.blank(board), spec, rules, "glucose4")
    formula = compile_board(key, board, spec, rules, key[-1])
    turns = turn_rows_by_walking(board, formula)
    expected = []
    for glyph in CORNERS:
        nodes, lits = formula.links.corners(glyph)
        cell = {(-a, -b): x for x, (a, b) in zip(nodes.tolist(), lits.tolist(), strict=True)}
        for row in turns:
            if row[:2] in cell:
                x = cell[row[:2]]
                links = [edge for w in others(glyph)
                         if (edge := linked(formula, board, x, WAYS[w])) is not None]
                expected.append((*links, int(formula.links.dot[x]), *row[2:]))
    clauses = [tuple(c) for c in formula.clauses]
    first = clauses.index(turns[0]) + len(turns)
    assert clauses[first:first + len(expected)] == expected


def linked(formula, board: Board, x: int, way: tuple[int, int]) -> int | None:
    """The edge variable from cell x that way, if there is an edge."""
    r, c = x // board.width + way[0], x % board.width + way[1]
    if 0 <= r < board.height and 0 <= c < board.width:
        y = r * board.width + c
        return formula.links.index.get((min(x, y), max(x, y)))
    return None


@given(st.sampled_from([p for p in range(16) if p.bit_count() >= 2]), st.data())
def test_unit_propagation_reaches_what_the_per_puzzle_clauses_reach(present, data):
    """With any of the cell's turns ruled out and any of its links known, unit propagation on
    the compiled clauses finds a conflict or the links that it finds on the per-puzzle
    clauses."""
    out = data.draw(st.lists(st.sampled_from(possible(present)), unique=True)
                    if possible(present) else st.just([]))
    known = data.draw(st.dictionaries(st.sampled_from(ways(present)), st.booleans()))
    assumed = {w + 1 if on else -(w + 1) for w, on in known.items()}
    compiled = propagated(compiled_clauses(present, out), assumed)
    per_puzzle = propagated(per_puzzle_clauses(present, out), assumed)
    assert compiled == per_puzzle or compiled is None


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([Rules(), Rules(self_touch=True)]))
def test_compiled_boards_with_the_rows_solve_every_solvable_puzzle(seed, rules):
    """Puzzles cut from random fillings of one board (solvable), the turn rows and theirs
    stated on every board: the compiled route solves each (its answer checked); the
    board's first puzzle is encoded alone, and a later one may be too (other code bits, or
    under self-touch a puzzle the touch-free try answers): puzzles are cut until two of
    them took the compiled route (at most 30; in 150 seeds the first came by the fifth)."""
    rng = random.Random(seed)
    kept = Kept()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(board_cnf, "TURNS_OVER", 0)
        routes = []
        try:
            while routes.count("compiled") < 2 and len(routes) < 30:
                paths = random_filling(7, 7, rng, mean_length=rng.choice((3, 5, 9)),
                                       allow_self_touch=rules.self_touch)
                result = solve(puzzle_of(paths, 7, 7), "sat", rules=rules, kept=kept)
                assert result.status == "solved"
                routes.append(result.stats.get("route"))
        finally:
            if kept.boards is not None:
                kept.boards.clear()
    assert "compiled" in routes
