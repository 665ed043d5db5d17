"""Propagation first (`--deduce`): sound on every kind of board and in every rule mode, the
same answers as the full encodings and the search backend, spirals left to a small residue
and their twin proved unsolvable by propagation alone."""

from __future__ import annotations

import random
from dataclasses import replace
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flowsat.checker import problems
from flowsat.generate.cover import random_level
from flowsat.generate.spiral import spiral_rows
from flowsat.puzzle import Board, Puzzle, Rules
from flowsat.result import UsageError
from flowsat.sat.deduce import deduce
from flowsat.sat.encoder import Encoder
from flowsat.solve import solve


def swapped(puzzle: Puzzle, rng: random.Random) -> Puzzle:
    """The puzzle with the labels of two dots of different colors exchanged (often
    unsolvable)."""
    dots = [(r, c) for r, row in enumerate(puzzle.rows) for c, ch in enumerate(row)
            if (r, c) in {cell for ends in puzzle.dots.values() for cell in ends}]
    a, b = rng.sample(dots, 2)
    rows = [list(row) for row in puzzle.rows]
    rows[a[0]][a[1]], rows[b[0]][b[1]] = rows[b[0]][b[1]], rows[a[0]][a[1]]
    return replace(puzzle, rows=tuple("".join(row) for row in rows))


@settings(max_examples=100, deadline=None)
@given(shape=st.sampled_from(["square", "hex"]), wrap=st.booleans(),
       size=st.integers(3, 7), walls=st.sampled_from([0.0, 0.3]),
       bridges=st.sampled_from([0.0, 1.0]), touch=st.booleans(), fill=st.booleans(),
       swap=st.booleans(), seed=st.integers(0, 10**6))
def test_deduce_agrees_with_the_encodings_and_the_search(shape, wrap, size, walls, bridges,
                                                         touch, fill, swap, seed):
    rng = random.Random(seed)
    width = size + size % 2 if shape == "hex" and wrap else size
    puzzle, _ = random_level(Board(width, size, shape, wrap), rng, Rules(touch), walls=walls,
                             bridges=bridges)
    if swap and len(puzzle.dots) > 1:
        puzzle = swapped(puzzle, rng)
    rules = Rules(touch, fill)
    off = solve(puzzle, rules=rules)
    on = solve(puzzle, rules=rules, deduce=True)  # solve() checks every solution it returns
    assert on.status == off.status, (puzzle.board, puzzle.rows, rules)
    with patch.multiple("flowsat.sat.deduce", BULK_FROM=0), patch.multiple("flowsat.sat.bulk",
                                                                           SMALL=1):
        rounds = solve(puzzle, rules=rules, deduce=True)  # numpy rounds first where they run
    assert rounds.status == off.status, (puzzle.board, puzzle.rows, rules)
    if on.status == "solved":
        assert problems(puzzle, on.paths, rules) == []
    try:  # the search can take minutes proving a rare 7x7 unsolvable: bounded
        astar = solve(puzzle, "astar", rules=rules, timeout=20)
    except UsageError:  # a kind or rule the search does not take
        return
    assert astar.status in (on.status, "timeout"), (puzzle.board, puzzle.rows, rules)


def spiral(size: int, unsolvable: bool = False) -> Puzzle:
    return Puzzle(tuple(spiral_rows(size, unsolvable)), file="spiral.txt")


def test_a_spiral_is_nearly_all_forced_and_its_twin_proved_unsolvable_by_propagation():
    puzzle = spiral(60)
    forced = deduce(Encoder(puzzle))
    counts = forced.counts()
    assert counts["undecided"] < 0.1 * sum(counts.values())  # the rings' turns are left
    result = solve(puzzle, deduce=True)
    assert result.status == "solved" and result.stats["undecided"] == counts["undecided"]
    twin = spiral(60, unsolvable=True)
    assert deduce(Encoder(twin)).unsolvable
    answer = solve(twin, deduce=True)
    assert answer.status == "unsolvable" and answer.stats["deduced"] == "unsolvable"


def test_deduce_off_keeps_the_encodings_own_formula_and_auto_goes_by_size():
    small, large = spiral(8), spiral(100)  # 64 and 10,000 cells
    for result in (solve(small), solve(small, deduce="auto"), solve(large, deduce="off")):
        assert result.status == "solved"
        assert "deduce" not in result.config and "forced_on" not in result.stats
    for result in (solve(small, deduce="on"), solve(large)):
        assert result.status == "solved" and result.config["deduce"] is True
        assert result.stats["forced_on"] > 0


def test_the_numpy_rounds_force_what_the_worklist_forces_on_a_spiral():
    puzzle = spiral(60)
    alone = deduce(Encoder(puzzle)).counts()
    with patch.multiple("flowsat.sat.deduce", BULK_FROM=0):
        assert deduce(Encoder(puzzle)).counts() == alone
        assert deduce(Encoder(spiral(60, unsolvable=True))).unsolvable


def test_propagation_first_stops_at_the_memory_cap_before_it_starts():
    puzzle = spiral(60)
    result = solve(puzzle, deduce=True, max_memory=1)
    assert result.status == "limit" and "propagation would need about" in result.error


@settings(max_examples=60, deadline=None)
@given(shape=st.sampled_from(["square", "hex"]), wrap=st.booleans(), size=st.integers(3, 6),
       walls=st.sampled_from([0.0, 0.3]), touch=st.booleans(), fill=st.booleans(),
       change=st.sampled_from(["none", "swap", "drop", "move", "reverse", "recolor"]),
       seed=st.integers(0, 10**6))
def test_the_array_check_accepts_exactly_what_the_cell_by_cell_check_accepts(
        shape, wrap, size, walls, touch, fill, change, seed):
    from flowsat.checker import right_by_arrays

    rng = random.Random(seed)
    width = size + size % 2 if shape == "hex" and wrap else size
    puzzle, paths = random_level(Board(width, size, shape, wrap), rng, Rules(touch), walls=walls)
    paths = changed(paths, rng, change, size)
    rules = Rules(touch, fill)
    with patch("flowsat.checker.right_by_arrays", return_value=False):
        slow = problems(puzzle, paths, rules)
    assert right_by_arrays(puzzle, paths, rules) == (slow == []), (puzzle.rows, paths, slow)


def changed(paths: dict, rng: random.Random, change: str, size: int) -> dict:
    """The solution (as lists) with one change that may break it."""
    paths = {c: list(p) for c, p in paths.items()}
    color = rng.choice(sorted(paths))
    path = paths[color]
    if change == "swap" and len(path) > 2:
        i, j = rng.sample(range(len(path)), 2)
        path[i], path[j] = path[j], path[i]
    elif change == "drop" and len(path) > 2:
        del path[rng.randrange(1, len(path) - 1)]
    elif change == "move":
        path[rng.randrange(len(path))] = (rng.randrange(-1, size + 1), rng.randrange(-1, size + 1))
    elif change == "reverse":
        path.reverse()
    elif change == "recolor" and len(paths) > 1:
        other = rng.choice([c for c in paths if c != color])
        paths[color], paths[other] = paths[other], paths[color]
    elif change == "cut":
        paths[color] = path[:1]
    return paths


def test_propagation_keeps_its_own_clock():
    from flowsat.deadline import Timeout
    from flowsat.sat.deduce import Propagation

    puzzle = spiral(100)  # the numpy rounds, then the worklist: each looks at the deadline
    with patch.multiple("flowsat.sat.deduce", CLOCK_EVERY=1), pytest.raises(Timeout):
        Propagation(Encoder(puzzle), deadline=0.0).run()
    with patch.multiple("flowsat.sat.deduce", CLOCK_EVERY=1), pytest.raises(Timeout):
        Propagation(Encoder(puzzle, rules=Rules(self_touch=True)), deadline=0.0).run()
