"""Uniqueness: a known solution blocked up front, the conflict budget, `check_unique`, the
corner rule's soundness in proofs, and `flowsat check-unique`."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from flowsat.checker import problems
from flowsat.commands import app
from flowsat.generate.filling import puzzle_of, random_filling
from flowsat.puzzle import Puzzle
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError
from flowsat.solve import solve
from flowsat.unique import check_unique
from tests.conftest import sat_search

TWO = Puzzle.from_text("A..B / .BA. / .CC. / ....")  # two solutions
ONE = Puzzle.from_text("A.A / B.B")
CROSSING = Puzzle.from_text("A.B / ... / B.A")


def links(paths) -> set:
    return {frozenset(pair) for path in paths.values() for pair in itertools.pairwise(path)}


@pytest.mark.parametrize("encoding", ["edges-binary", "zucker2016", "edges-unique"])
def test_a_known_solution_is_blocked_before_the_search(encoding):
    first = solve(TWO).paths
    result, found = sat_search(TWO, 1, known=[first], encoding=encoding)
    assert result.status == "solved" and problems(TWO, found[0]) == []
    assert links(found[0]) != links(first)
    result, found = sat_search(TWO, 5, known=[first, found[0]], encoding=encoding)
    assert found == [] and result.status == "unsolvable" and result.stats["exhausted"]


def test_known_paths_that_are_no_solution_are_refused():
    with pytest.raises(ValueError, match="not a solution"):
        sat_search(ONE, 1, known=[{"A": [(0, 0), (0, 1), (0, 2)], "B": [(1, 0), (1, 2)]}])
    with pytest.raises(ValueError, match="not a solution"):
        sat_search(ONE, 1, known=[{"A": [(0, 0), (0, 1), (0, 2)], "B": [(1, 0), (1, 1)]}])


def test_the_conflict_budget_ends_a_search_with_limit():
    assert sat_search(TWO, 3, max_conflicts=1)[0].stats["stopped"] == "limit"  # 0 for the
    assert sat_search(CROSSING, 1, max_conflicts=1)[0].status == "limit"  # first, 1 next
    with pytest.raises(UsageError, match="--max-conflicts: 0 is not a number of conflicts"):
        sat_search(TWO, 1, max_conflicts=0)
    assert sat_search(TWO, 3, max_conflicts=10_000)[0].stats["exhausted"]
    with pytest.raises(UsageError, match="no conflict limit"):
        sat_search(TWO, 1, solver="lingeling", max_conflicts=10)


def test_check_unique_verdicts():
    two = check_unique(TWO)
    assert two.verdict == "multiple" and two.unique is False
    assert len(two.solutions) == 2 and links(two.solutions[0]) != links(two.solutions[1])
    assert all(problems(TWO, s) == [] for s in two.solutions)
    assert check_unique(ONE).unique is True
    none = check_unique(CROSSING)
    assert none.verdict == "unsolvable" and none.unique is None and none.solutions == []
    known = solve(ONE).paths
    assert check_unique(ONE, known=known).solutions == [known]
    assert check_unique(CROSSING, max_conflicts=1).verdict == "limit"


def test_self_touch_rule_changes_the_verdict():
    touching = Puzzle.from_text("A..A / .... / B..B")  # solvable only by hugging itself
    assert check_unique(touching).verdict == "unsolvable"
    found = check_unique(touching, rules=Rules(self_touch=True))
    assert found.verdict == "multiple"
    assert all(problems(touching, s, Rules(self_touch=True)) == [] for s in found.solutions)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5), st.integers(2, 5), st.integers(0, 2**32))
def test_proofs_with_the_corner_rule_find_every_solution(height, width, seed):
    """The corner rule is implied without self-touch: with it on, enumerating the solutions
    besides a known one finds exactly those the complete encoding finds."""
    rng = random.Random(seed)
    filling = random_filling(height, width, rng, 12.0)
    rows = [list(row) for row in puzzle_of(filling, height, width).rows]
    letter = next(iter(filling))  # drop one pair: more room, more solutions
    rows = [["." if ch == letter else ch for ch in row] for row in rows]
    puzzle = Puzzle(tuple("".join(row) for row in rows))
    if not puzzle.dots:
        return
    first = solve(puzzle, encoding="edges-binary")
    if first.status != "solved":
        return
    with_rule = sat_search(puzzle, 100, known=[first.paths], encoding="edges-unique")[1]
    complete = sat_search(puzzle, 100, known=[first.paths], encoding="edges-binary")[1]
    assert sorted(map(sorted, map(links, with_rule))) == sorted(map(sorted, map(links,
                                                                                complete)))


def run(*args: str):
    return CliRunner().invoke(app, ["check-unique", *args])


def test_cli_finds_the_second_solution(tmp_path):
    two = tmp_path / "two.txt"
    two.write_text("A..B\n.BA.\n.CC.\n....\n")
    result = run("--format", "json", str(two))
    assert result.exit_code == 1
    record = json.loads(result.stdout)
    assert record["status"] == "multiple" and record["unique"] is False
    grids = [s["grid"] for s in record["solutions"]]
    assert len(grids) == 2 and grids[0] != grids[1]
    for solution in record["solutions"]:
        paths = {c: [tuple(cell) for cell in p] for c, p in solution["paths"].items()}
        assert problems(TWO, paths) == []
    text = run(str(two)).stdout
    assert text.startswith(f"{two}: multiple\n") and text.count("┘") >= 2  # both drawn


def test_cli_exit_statuses(tmp_path):
    one, cross, bad = tmp_path / "one.txt", tmp_path / "cross.txt", tmp_path / "bad.txt"
    one.write_text("A.A\nB.B\n")
    cross.write_text("A.B\n...\nB.A\n")
    bad.write_text("A..\n")
    result = run("--format", "json", str(one), str(cross))
    assert [json.loads(line)["unique"] for line in result.stdout.splitlines()] == [True, None]
    assert run(str(one)).exit_code == 0
    assert result.exit_code == 1
    assert run(str(bad), str(one)).exit_code == 2
    assert "only one dot" in run(str(bad)).stderr
    assert run("--max-conflicts", "1", str(tmp_path / "one.txt")).exit_code == 0
