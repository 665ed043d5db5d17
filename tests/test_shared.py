"""Clauses shared by the formulas of one board (`Encoder.shared`): a formula made with tables
that other puzzles of its board filled is the formula made from scratch, on every kind of
board, in every rule mode and encoding; what the tables hold is kept and dropped as said."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from flowsat.generate.cover import level_of, random_level
from flowsat.puzzle.board import Board
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError
from flowsat.sat import deduce, encoder
from flowsat.sat.encoder import SHARED, Encoder
from flowsat.sat.formula import encode
from flowsat.sat.options import LEAN_FROM

# (shape, warps, walls, bridges, holes): every kind of board
KINDS = [("square", False, 0.0, 0.0, False), ("square", False, 0.0, 0.0, True),
         ("square", False, 0.3, 0.0, False), ("square", False, 0.0, 1.0, False),
         ("hex", False, 0.0, 0.0, False), ("hex", True, 0.2, 0.0, False),
         ("square", True, 0.3, 1.0, False)]
ENCODINGS = ["edges-turns", "edges-unique", "edges-binary+cycles=squares", "edges-onehot",
             "dirtypes-binary"]
LEAN = ["edges-turns", "edges-turns+codes=bounded"]  # with turns and short codes (LEAN_FROM)
RULES = [Rules(), Rules(self_touch=True), Rules(fill_all=False)]


def two_levels(kind: tuple, seed: int) -> tuple:
    """Two puzzles on one board: a random level (with holes: one path's cells made holes),
    and its paths cut in two (where neither cut end is a bridge), in the other order (other
    colors, other dots)."""
    shape, wrap, walls, bridges, holes = kind
    size = 6 + seed % 2 * 2
    puzzle, paths = random_level(Board(size, size, shape, wrap), random.Random(seed),
                                 walls=walls, bridges=bridges, mean_length=5.0)
    board = puzzle.board
    walks = [[r * board.width + c for r, c in path] for path in paths.values()]
    if holes:
        board = replace(board, holes=board.holes | set(walks.pop()))
    cut = []
    for w in reversed(walks):
        m = len(w) // 2
        if len(w) >= 4 and w[m - 1] not in board.bridges and w[m] not in board.bridges:
            cut += [w[m:], w[:m]]
        else:
            cut.append(w)
    return level_of(board, walks)[0], level_of(board, cut)[0]


def formula_of(puzzle, name: str, rules: Rules) -> list:
    """Everything a formula is: its variables, clauses, and the clauses it makes later."""
    try:
        f = encode(puzzle, name, rules)
    except UsageError:
        return ["refused"]
    return [f.enc.top, f.unique, list(f.clauses), f.state_lazy_touch(), f.complete_codes(),
            f.enc.top]


@pytest.mark.parametrize("kind", KINDS)
def test_a_formula_made_with_shared_tables_is_the_one_made_from_scratch(kind, monkeypatch):
    first, second = two_levels(kind, KINDS.index(kind))
    assert first.board == second.board and first.dots != second.dots
    for lean, names in ((False, ENCODINGS), (True, LEAN)):
        monkeypatch.setattr("flowsat.sat.formula.LEAN_FROM", 0 if lean else LEAN_FROM)
        for name in names:
            for rules in RULES:
                SHARED.clear()
                formula_of(first, name, rules)  # its keys seen,
                formula_of(first, name, rules)  # and its clauses in the tables
                shared = formula_of(second, name, rules)
                again = formula_of(first, name, rules)
                with monkeypatch.context() as m:
                    m.setattr(encoder, "SHARE_UP_TO", 0)  # no tables at all
                    assert shared == formula_of(second, name, rules), (kind, name, rules)
                    assert again == formula_of(first, name, rules), (kind, name, rules)
    assert SHARED.tables  # (the tables were used)


def made(key_start: str) -> int:
    """How many clauses the tables of a family hold."""
    return sum(int(done.sum()) for key, (_, done) in SHARED.tables.items()
               if key[1] == key_start)


@pytest.mark.parametrize("family", ["same", "turns", "corners", "degree"])
def test_a_second_puzzle_of_a_board_makes_few_clauses_of_its_own(family, monkeypatch):
    monkeypatch.setattr("flowsat.sat.formula.LEAN_FROM", 0)
    first, second = two_levels(KINDS[0], 3)
    SHARED.clear()
    encode(first, "edges-turns")
    assert not SHARED.tables  # a board's first puzzle makes its own clauses
    encode(first, "edges-turns")
    before = made(family)
    formula = encode(first, "edges-turns")
    assert before > 0 and made(family) == before  # all of them shared
    shared = {id(c) for c in formula.clauses}
    assert len(shared) > len(formula.clauses) / 2
    encode(second, "edges-turns")
    assert made(family) < 2 * before


def test_tables_past_the_slots_are_dropped_least_recently_used_first(monkeypatch):
    first, second = two_levels(KINDS[0], 0)
    other, _ = two_levels(KINDS[0], 1)  # another board size
    SHARED.clear()
    for puzzle in (first, second, other, first):  # the keys of all three seen
        encode(puzzle, "edges-turns")
    slots = SHARED.slots
    monkeypatch.setattr(encoder, "SHARED_SLOTS", slots)
    for puzzle in (second, other, first):
        assert formula_of(puzzle, "edges-turns", Rules())[2] == encode(
            puzzle, "edges-turns").clauses
        assert 0 < SHARED.slots <= slots
        assert next(reversed(SHARED.tables))[0] == puzzle.board  # the last used kept
    assert all(key[0] == first.board for key in SHARED.tables)  # they fill every slot
    monkeypatch.setattr(encoder, "SHARED_SLOTS", 10)  # no table fits: made each time
    SHARED.clear()
    assert formula_of(first, "edges-turns", Rules())[2] == encode(first, "edges-turns").clauses
    assert not SHARED.tables and SHARED.slots == 0


@pytest.mark.parametrize("seed", range(18))
def test_blind_reads_each_diagonal_as_a_walk_along_it_does(seed):
    rng = random.Random(seed)
    if seed < 12:
        puzzle, _ = two_levels(KINDS[seed % 4], seed)
    else:  # boards wider than high and higher than wide
        width, height = [(9, 3), (3, 9), (12, 5), (4, 11), (2, 7), (7, 2)][seed - 12]
        puzzle, _ = random_level(Board(width, height), rng, walls=0.3, mean_length=4.0)
    enc = Encoder(puzzle)
    h, w = enc.height, enc.width
    stop = {i for i in range(h * w) if not enc.on[i] or enc.dot[i] >= 0}
    found = deduce.blind(enc)
    for (dr, dc), blind in found.items():
        for i in rng.sample(range(h * w), min(40, h * w)):
            r, c = divmod(i, w)
            while 0 <= r + dr < h and 0 <= c + dc < w and (r + dr) * w + c + dc not in stop:
                r, c = r + dr, c + dc
            meets = 0 <= r + dr < h and 0 <= c + dc < w
            assert blind[i] == (not meets), (seed, (dr, dc), divmod(i, w))
    assert isinstance(found[1, 1], np.ndarray)
