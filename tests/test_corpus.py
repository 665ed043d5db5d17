"""The committed corpus (puzzles/small, puzzles/large, puzzles/manifest.csv): the manifest
matches the files, the promised sizes, colors and tiers are there, a sample per tier is unique
again and is made again byte for byte from its row."""

from __future__ import annotations

import csv
from collections import Counter

import pytest

from flowsat.checker import problems
from flowsat.difficulty import TIERS
from flowsat.generate.corpus import puzzle_text
from flowsat.generate.make import make_puzzle
from flowsat.generate.run import order
from flowsat.puzzle import read_puzzles
from flowsat.solve import solve_many
from flowsat.unique import check_unique
from tests.conftest import PUZZLES

MANIFEST = PUZZLES / "manifest.csv"
ROWS = list(csv.DictReader(MANIFEST.open(encoding="utf-8")))


def area(row: dict) -> int:
    width, height = map(int, row["size"].split("x"))
    return width * height


def sample() -> list[dict]:
    """The three smallest puzzles of each tier, the smallest large one and the largest."""
    picked = []
    for _, name in TIERS:
        picked += sorted((r for r in ROWS if r["tier"] == name), key=area)[:3]
    large = sorted((r for r in ROWS if area(r) >= 400), key=area)
    return picked + large[:1] + large[-1:]


def test_the_manifest_lists_every_file_and_matches_it():
    files = sorted(p.relative_to(PUZZLES).as_posix()
                   for folder in ("small", "large") for p in (PUZZLES / folder).rglob("*.txt"))
    assert sorted(r["file"] for r in ROWS) == files
    for row in ROWS:
        (puzzle,) = read_puzzles(PUZZLES / row["file"])
        assert puzzle.size == row["size"] and len(puzzle.dots) == int(row["colors"]), row
        low, high = map(int, row["color_range"].split("-"))
        assert low <= len(puzzle.dots) <= high
        assert row["file"].endswith(f"/{row['size']}-{int(row['seed']):04d}.txt")
        assert row["rule"] == "no-self-touch" and row["tier"] in dict(map(reversed, TIERS))


def test_the_promised_corpus():
    small = [r for r in ROWS if r["file"].startswith("small/")]
    large = [r for r in ROWS if r["file"].startswith("large/")]
    assert len(small) >= 200 and len(large) >= 30
    assert all(5 <= int(r["colors"]) <= 16 and 25 <= area(r) <= 225 for r in small)
    assert all(400 <= area(r) <= 2500 for r in large)
    assert {"20x20", "50x50"} <= {r["size"] for r in large}
    tiers = Counter(r["tier"] for r in small)
    assert all(tiers[name] >= 20 for _, name in TIERS), tiers


@pytest.mark.parametrize("row", sample(), ids=lambda row: row["file"])
def test_a_sample_is_unique_again_and_made_again(row):
    file = PUZZLES / row["file"]
    (puzzle,) = read_puzzles(file)
    found = check_unique(puzzle)
    assert found.verdict == "unique" and problems(puzzle, found.solutions[0]) == []
    if area(row) <= 100:  # and by the complete encoding, no corner rule
        result, solutions = solve_many(puzzle, 2, encoding="edges-binary")
        assert len(solutions) == 1 and result.stats["exhausted"]
    if area(row) > 1000:
        return  # making it again takes seconds: the smaller ones stand for it
    low, high = map(int, row["color_range"].split("-"))
    wanted = order(row["size"], min_colors=low, max_colors=high)
    made = make_puzzle(wanted.height, wanted.width, int(row["seed"]), wanted.colors)
    assert puzzle_text(made.puzzle) == file.read_text(encoding="utf-8")
