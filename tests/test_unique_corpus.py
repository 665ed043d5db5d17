"""The corpus of every kind of board (puzzles/unique, its manifest): the manifest matches the
files, each kind has its 20 puzzles from 5x5 to 15x15, every puzzle's solution is right and
proved the only one by SAT, the smallest of each kind is made again byte for byte by the
command of its row, and both backends agree on every puzzle of the kinds the best-first search
takes (it is asked, so hex and bridges join in when it takes them), in both rule modes."""

from __future__ import annotations

import csv
from collections import Counter

import pytest
from typer.testing import CliRunner

from flowsat.checker import problems
from flowsat.commands import app
from flowsat.generate.kinds import NAMES, kind_of
from flowsat.puzzle import read_puzzles
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError
from flowsat.solve import solve
from flowsat.unique import check_unique
from tests.conftest import PUZZLES

UNIQUE = PUZZLES / "unique"
ROWS = list(csv.DictReader((UNIQUE / "manifest.csv").open(encoding="utf-8")))
PUZZLE = {row["file"]: next(iter(read_puzzles(UNIQUE / row["file"]))) for row in ROWS}
ASTAR_NODES = 300  # a budget: on warps (and with self-touch) the search needs far more
EAGER = "edges-unique"  # not the default: its lazy touch clauses are slow on hexagonal boards


def area(row: dict) -> int:
    width, height = map(int, row["size"].split("x"))
    return width * height


def test_the_manifest_lists_every_file_and_matches_it():
    assert sorted(r["file"] for r in ROWS) == sorted(
        p.relative_to(UNIQUE).as_posix() for p in UNIQUE.rglob("*.txt"))
    for row in ROWS:
        puzzle = PUZZLE[row["file"]]
        folder, name = row["file"].split("/")
        kind = kind_of([folder]).name  # one folder a kind
        assert puzzle.kind == row["kind"] == kind, row["file"]
        assert puzzle.size == row["size"] and len(puzzle.dots) == int(row["colors"])
        low, high = map(int, row["color_range"].split("-"))
        assert low <= len(puzzle.dots) <= high and row["rule"] == "no-self-touch"
        prefix = "" if kind == "square" else f"{kind}-"
        assert name == f"{prefix}{row['size']}-{int(row['seed']):04d}.txt"
        assert row["proof"] == "sat:edges-unique:glucose4"
        assert problems(puzzle, dict(puzzle.given)) == []  # the pack's own solution


def test_the_promised_corpus():
    kinds = Counter(row["file"].split("/")[0] for row in ROWS)
    assert set(kinds) == set(NAMES) and min(kinds.values()) >= 20, kinds
    for name in NAMES:
        sizes = {row["size"] for row in ROWS if row["file"].startswith(name + "/")}
        assert {"5x5", "15x15"} <= sizes, name
    assert all(25 <= area(row) <= 225 for row in ROWS)


def test_every_puzzle_is_proved_unique_again():
    for row in ROWS:
        puzzle = PUZZLE[row["file"]]
        found = check_unique(puzzle, known=dict(puzzle.given))
        assert found.verdict == "unique", row["file"]


def smallest_of_each_kind() -> list[dict]:
    return [min((r for r in ROWS if r["file"].startswith(name + "/")), key=area)
            for name in NAMES]


@pytest.mark.parametrize("row", smallest_of_each_kind(), ids=lambda row: row["file"])
def test_the_command_in_the_manifest_makes_the_puzzle_again(row):
    words = row["command"].split()
    assert words[:2] == ["flowsat", "generate"]
    again = CliRunner().invoke(app, words[1:])
    assert again.exit_code == 0, again.output
    assert again.stdout == (UNIQUE / row["file"]).read_text(encoding="utf-8") + "\n"


def astar(puzzle, rules: Rules):
    """The search's result, or None when it does not take the puzzle's kind."""
    try:
        return solve(puzzle, "astar", rules=rules, max_nodes=ASTAR_NODES)
    except UsageError:
        return None


@pytest.mark.parametrize(("touch", "largest"), [(False, 225), (True, 81)],
                         ids=["no-touch", "self-touch"])
def test_both_backends_agree_on_every_puzzle_of_the_kinds_the_search_takes(touch, largest):
    """On every puzzle (up to 9x9 with self-touch: the search is slow there) that the search
    finishes within its budget; it must finish most."""
    rules = Rules(self_touch=touch)
    taken, finished = Counter(), Counter()
    for row in ROWS:
        puzzle = PUZZLE[row["file"]]
        result = astar(puzzle, rules) if area(row) <= largest else None
        if result is None:
            continue
        taken[row["kind"]] += 1
        if result.status in ("solved", "unsolvable"):
            finished[row["kind"]] += 1
            assert result.status == solve(puzzle, rules=rules, encoding=EAGER).status == "solved", \
                row["file"]
    # the search takes every kind today; each finished on its four 5x5 boards at least, and
    # more than half of them all (today all but 14: 10 on warps, 4 hexagonal; with
    # self-touch all but 9: 5 on warps, 3 hexagonal, 1 square)
    assert set(taken) == {kind_of([name]).name for name in NAMES}
    assert all(finished[kind] >= 4 for kind in taken), (finished, taken)
    assert sum(finished.values()) > sum(taken.values()) / 2, (finished, taken)
