"""edges-turns: the corner rule's turns in the degree clauses, free and short color codes."""

from __future__ import annotations

import random
from itertools import product
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flowsat.checker import problems
from flowsat.generate.filling import puzzle_of, random_filling
from flowsat.puzzle import Puzzle
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError
from flowsat.sat import boards, cells
from flowsat.sat.bulk import WAYS
from flowsat.sat.deduce import PAIRS
from flowsat.sat.formula import encode
from flowsat.sat.links import turn_clauses
from flowsat.sat.options import LEAN_FROM
from flowsat.sat.spec import load_spec
from flowsat.solve import solve
from tests.conftest import sat_search


def clauses_of(present: int, pairs: int) -> list[list[tuple[int, int]]]:
    columns, signs, lengths = turn_clauses(present, pairs)
    return [list(zip(c[:n], s[:n], strict=True)) for c, s, n in zip(
        columns.tolist(), signs.tolist(), lengths.tolist(), strict=True)]


def propagates(clauses: list[list[tuple[int, int]]], value: dict[int, int],
               goal: tuple[int, int]) -> bool:
    """Whether unit propagation of the clauses ((way, sign) literals) from the values
    (way: sign) reaches the goal literal or a conflict."""
    value = dict(value)
    changed = True
    while changed:
        changed = False
        for clause in clauses:
            if any(value.get(w) == s for w, s in clause):
                continue
            open_ = [(w, s) for w, s in clause if w not in value]
            if not open_:
                return True
            if len(open_) == 1:
                value.update(open_)
                changed = True
    return value.get(goal[0]) == goal[1]


def allowed(present: int, pairs: int, linked: set[int]) -> bool:
    return any(pairs >> k & 1 and present >> a & 1 and present >> b & 1 and linked == {a, b}
               for k, (a, b) in enumerate(PAIRS))


@pytest.mark.parametrize("present", range(16))
def test_turn_clauses_hold_exactly_for_an_allowed_pair(present):
    ways = [w for w in range(len(WAYS)) if present >> w & 1]
    for pairs in range(1 << len(PAIRS)):
        found = clauses_of(present, pairs)
        for values in product((False, True), repeat=len(ways)):
            linked = {w for w, v in zip(ways, values, strict=True) if v}
            holds = all(any((w in linked) == (s > 0) for w, s in c) for c in found)
            assert holds == allowed(present, pairs, linked), (present, pairs, linked)


def test_turn_clauses_propagate_every_prime_implicate():
    """Wherever all literals of a clause the choice implies but one are false, unit
    propagation of the clauses kept finds the last one (or a conflict)."""
    for present, pairs in product(range(16), range(1 << len(PAIRS))):
        kept = clauses_of(present, pairs)
        ways = [w for w in range(len(WAYS)) if present >> w & 1]
        for signs in product((0, 1, -1), repeat=len(ways)):
            clause = [(w, s) for w, s in zip(ways, signs, strict=True) if s]
            implied = all(any((w in linked) == (s > 0) for w, s in clause)
                          for values in product((False, True), repeat=len(ways))
                          if allowed(present, pairs,
                                     linked := {w for w, v in zip(ways, values,
                                                                  strict=True) if v}))
            if implied and clause:
                for lit in clause:
                    rest = {w: -s for w, s in clause if (w, s) != lit}
                    assert propagates(kept, rest, lit), (present, pairs, clause, lit)


def test_a_straight_cell_takes_two_literal_clauses_only():
    # up-down or left-right only: twelve prime implicates (left = right, up = down, ...),
    # of which unit propagation needs five; the direct 'exactly two' takes eight of three
    assert sorted(map(len, clauses_of(0b1111, 0b000011))) == [2] * 5


SPARSE = Puzzle(("A....B", "......", "..C...", "...C..", "......", "B....A"))


def test_turns_state_fewer_clauses_and_find_the_same_answer(monkeypatch):
    monkeypatch.setattr("flowsat.sat.formula.LEAN_FROM", 0)
    old, new = encode(SPARSE, "edges-unique-lazy"), encode(SPARSE, "edges-turns")
    assert new.links.turns and not old.links.turns
    assert len(new.clauses) < len(old.clauses)
    assert solve(SPARSE, encoding="edges-turns").status == solve(
        SPARSE, encoding="edges-unique-lazy").status


def test_boards_below_lean_from_take_direct_degrees_and_whole_codes():
    assert len(SPARSE.board.cells) < LEAN_FROM
    formula = encode(SPARSE, "edges-turns")
    assert not formula.links.turns and formula.cells.nbits == formula.cells.full


@pytest.mark.parametrize("extra_row", [False, True])
def test_boards_from_lean_from_cells_on_take_turns_and_short_codes(extra_row):
    """Either side of the threshold: a board one row short of LEAN_FROM cells, and one at or
    past it, each of five colors or more (so that short codes are shorter than whole ones)."""
    width = 10
    height = -(-LEAN_FROM // width) - (not extra_row)  # rows: short of it, or at it
    paths = random_filling(height, width, random.Random(3), mean_length=4.0)
    puzzle = puzzle_of(paths, height, width)
    assert len(puzzle.dots) > 4 and (height * width >= LEAN_FROM) == extra_row
    formula = encode(puzzle, "edges-turns")
    assert formula.links.turns == extra_row
    assert (formula.cells.nbits < formula.cells.full) == extra_row


@pytest.mark.parametrize("rows, rules", [
    (("A.B", "...", "B.A"), Rules(self_touch=True)),  # no corner rule: touch allowed
    (("A.B", "...", "B.A"), Rules(fill_all=False)),  # cells may stay empty
])
def test_turns_and_short_codes_only_where_the_corner_rule_holds(rows, rules, monkeypatch):
    monkeypatch.setattr("flowsat.sat.formula.LEAN_FROM", 0)
    formula = encode(Puzzle(rows), "edges-turns", rules)
    assert not formula.links.turns
    assert formula.cells.nbits == formula.cells.full  # whole codes from the start


def test_spec_refuses_short_codes_without_lazy_touch():
    with pytest.raises(UsageError, match="codes = 'short'"):
        load_spec("edges-turns+touch=eager")
    with pytest.raises(UsageError, match="degree = 'turns'"):
        load_spec("edges-turns+card=ladder")


many_colors = st.tuples(st.integers(6, 9), st.integers(6, 9), st.integers(0, 2**32))


def many_colored(board: tuple[int, int, int]) -> Puzzle:
    """A puzzle cut from a filling of short paths: many colors."""
    height, width, seed = board
    return puzzle_of(random_filling(height, width, random.Random(seed), 2.5), height, width)


@settings(max_examples=25, deadline=None)
@given(many_colors)
def test_short_codes_solve_boards_of_many_colors(board):
    puzzle = many_colored(board)
    with patch("flowsat.sat.formula.LEAN_FROM", 0):  # (small boards: quick tests)
        formula = encode(puzzle, "edges-turns")
        result = solve(puzzle, encoding="edges-turns")
    if len(puzzle.colors) > 4:  # whole codes of 3 bits or more: short ones at first
        assert formula.cells.nbits == cells.short_bits(formula.cells.full) < formula.cells.full
    assert result.status == "solved"
    assert problems(puzzle, result.paths, Rules()) == []


@settings(max_examples=25, deadline=None)
@given(many_colors, st.data())
def test_short_codes_agree_with_whole_codes_when_two_dots_swap(board, data):
    puzzle = many_colored(board)
    rows = [list(row) for row in puzzle.rows]
    dots = [(r, c) for r, row in enumerate(rows) for c, x in enumerate(row) if x != "."]
    (r1, c1), (r2, c2) = data.draw(st.permutations(dots))[:2]
    rows[r1][c1], rows[r2][c2] = rows[r2][c2], rows[r1][c1]
    swapped = Puzzle(tuple("".join(row) for row in rows))
    with patch("flowsat.sat.formula.LEAN_FROM", 0):
        assert solve(swapped, encoding="edges-turns").status == solve(
            swapped, encoding="edges-unique-lazy").status


def test_one_bit_codes_are_completed_when_a_model_joins_two_colors(monkeypatch):
    """With codes of one bit at first, models join colors of one code; each time the other
    bits come, and the answer is right."""
    monkeypatch.setattr(cells, "SHORT_BITS", 1)
    monkeypatch.setattr(cells, "SHORT_LESS", 8)
    monkeypatch.setattr("flowsat.sat.formula.LEAN_FROM", 0)
    monkeypatch.setattr(boards, "COMPILE_UP_TO", -1)  # short codes: the per-puzzle route
    completed = 0
    for seed in range(12):
        puzzle = many_colored((7, 7, seed))
        result, _ = sat_search(puzzle, 1, encoding="edges-turns")
        assert result.status == "solved"
        assert problems(puzzle, result.paths, Rules()) == []
        completed += bool(result.stats.get("code_completions"))
    assert completed > 0


def test_short_codes_spread_colors_of_one_code_apart():
    # four colors in two corners each; two groups: the colors of one corner differ
    puzzle = Puzzle(("AB....CD", "BA....DC"))
    codes = cells.short_codes(encode(puzzle, "edges-binary").enc, 1)
    assert sorted(codes.tolist()) == [0, 1, 2, 3]  # whole codes differ
    assert codes[0] & 1 != codes[1] & 1 and codes[2] & 1 != codes[3] & 1


def test_a_completion_adds_one_bit_for_every_cell_and_link(monkeypatch):
    monkeypatch.setattr("flowsat.sat.formula.LEAN_FROM", 0)
    puzzle = Puzzle(("ABCDE.....", "..........", "FGHIJ.....", "..........", "EDCBA.....",
                     "..........", "JIHGF....."))
    formula = encode(puzzle, "edges-turns")
    binary, dot = formula.cells, formula.enc.dot
    assert (binary.nbits, binary.full) == (2, 4)
    dots_beside = [(dot[i] >= 0) + (dot[j] >= 0) for i, j in formula.enc.edges]
    added = formula.complete_codes(1)
    assert binary.nbits == 3 and binary.bits.shape[1] == 3
    # a unit per dot; two clauses per link between free cells, one per link beside a dot
    assert len(added) == 2 * len(puzzle.colors) + sum({0: 2, 1: 1, 2: 0}[n]
                                                      for n in dots_beside)
    assert formula.complete_codes() and binary.nbits == binary.full == 4
    assert formula.complete_codes() == []
