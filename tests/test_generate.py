"""The generator: layout edits, puzzles that parse, follow the rules and are unique (checked
again by the complete encoding), the repairs, the same files from the same seed, the manifest,
and `flowsat generate` end to end."""

from __future__ import annotations

import csv
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from flowsat.checker import InvalidSolution, problems
from flowsat.commands import app
from flowsat.generate.filling import puzzle_of, random_pieces
from flowsat.generate.layout import Layout
from flowsat.generate.make import (
    LABELS,
    default_colors,
    join_to,
    make_puzzle,
    make_unique,
    undo_failed,
)
from flowsat.generate.run import order
from flowsat.puzzle import Puzzle, parse_puzzles, read_puzzles
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError
from flowsat.solve import solve_many
from flowsat.unique import Uniqueness, check_unique
from tests.conftest import ROOT


def prover(allow_self_touch: bool = False):
    def prove(layout: Layout):
        known = layout.lettered(LABELS)
        return check_unique(puzzle_of(known, layout.height, layout.width), known=known,
                            rules=Rules(self_touch=allow_self_touch))
    return prove


def assert_covers(layout: Layout) -> None:
    """Every cell on exactly one path, owners right, no path touching itself."""
    cells = [cell for path in layout.paths.values() for cell in path]
    assert sorted(cells) == [(r, c) for r in range(layout.height) for c in range(layout.width)]
    assert all(layout.owner[cell] == k for k, path in layout.paths.items() for cell in path)
    paths = layout.lettered(LABELS)
    assert problems(puzzle_of(paths, layout.height, layout.width), paths) == []


def test_layout_edits_keep_a_cover_that_obeys_the_rule():
    rng = random.Random(7)
    layout = Layout(random_pieces(6, 7, rng), 6, 7)
    assert_covers(layout)
    for _ in range(300):
        joins = layout.joins()
        if joins and rng.random() < 0.3:
            layout.join(*rng.choice(joins))
        elif rng.random() < 0.5:
            a = rng.choice(layout.ends())
            x = rng.choice(layout.neighbors(a))
            path = layout.paths[layout.owner[x]]
            i = path.index(x)
            layout.rewire(a, x, path[i - 1] if i else path[-1])
        elif cuts := layout.cuts():
            layout.cut(*rng.choice(cuts))
        assert_covers(layout)
    assert min(len(p) for p in layout.paths.values()) >= 2


def test_a_join_is_undone_by_cutting_its_link():
    layout = Layout(random_pieces(5, 5, random.Random(3)), 5, 5)
    paths, links = len(layout), sorted(map(sorted, layout.links()))
    a, b = layout.joins()[0]
    layout.join(a, b)
    assert len(layout) == paths - 1 and sorted((a, b)) in map(sorted, layout.links())
    layout.cut(a, b)
    assert len(layout) == paths and sorted(map(sorted, layout.links())) == links


@pytest.mark.parametrize(("height", "width", "colors", "touch"), [
    (5, 5, (5, 6), False), (6, 8, (5, 8), False), (9, 9, (6, 10), False),
    (4, 7, (3, 5), True), (6, 6, (5, 7), True)])
def test_made_puzzles_parse_follow_the_rules_and_are_unique(height, width, colors, touch):
    for seed in range(3):
        made = make_puzzle(height, width, seed, colors, Rules(self_touch=touch))
        assert made is not None
        (parsed,) = parse_puzzles("\n".join(made.puzzle.rows) + "\n")
        assert parsed.rows == made.puzzle.rows and (parsed.height, parsed.width) == (height,
                                                                                    width)
        assert colors[0] <= len(parsed.dots) <= colors[1]
        assert problems(parsed, made.solution, Rules(self_touch=touch)) == []
        assert all(len(path) >= 3 for path in made.solution.values())  # no adjacent pair
        # unique, by the complete encoding: the solution found, blocked, and nothing else
        result, found = solve_many(parsed, 2, encoding="edges-binary",
                                   rules=Rules(self_touch=touch))
        assert len(found) == 1 and result.stats["exhausted"], parsed.rows


def test_the_same_seed_makes_the_same_puzzle_and_others_differ():
    first = [make_puzzle(8, 8, seed, (6, 9)).puzzle.rows for seed in range(4)]
    assert first == [make_puzzle(8, 8, seed, (6, 9)).puzzle.rows for seed in range(4)]
    assert len(set(first)) == 4


# The solution of A..B / .BA. / .CC. / ...., which has another, with B cut at (3, 2)-(3, 1):
# unique until that join is made again.
SPLIT_TWO = [[(0, 0), (0, 1), (0, 2), (1, 2)], [(2, 1), (2, 2)],
             [(0, 3), (1, 3), (2, 3), (3, 3), (3, 2)], [(3, 1), (3, 0), (2, 0), (1, 0), (1, 1)]]
JOINT = ((3, 1), (3, 2))


def test_make_unique_cuts_where_a_second_solution_differs():
    layout = Layout(SPLIT_TWO, 4, 4)
    layout.join(*JOINT)
    assert prover()(layout).verdict == "multiple"
    assert make_unique(layout, prover(), random.Random(1))
    assert prover()(layout).verdict == "unique" and len(layout) == 4
    assert_covers(layout)


def test_joins_that_break_uniqueness_are_undone_and_not_tried_again():
    layout = Layout(SPLIT_TWO, 4, 4)
    assert prover()(layout).verdict == "unique" and JOINT in layout.joins()
    layout.join(*JOINT)
    tried: set = set()
    assert not undo_failed(layout, [JOINT], tried, prover())
    assert tried == {JOINT} and len(layout) == 4 and prover()(layout).verdict == "unique"
    join_to(layout, 1, random.Random(2), prover())  # the other joins keep it unique
    assert len(layout) < 4 and prover()(layout).verdict == "unique"


def test_a_proof_out_of_budget_undoes_the_batch():
    layout = Layout(SPLIT_TWO, 4, 4)
    joints = layout.joins()
    for joint in joints:
        layout.join(*joint)
    def out_of_budget(_: Layout) -> Uniqueness:
        return Uniqueness("limit")

    tried: set = set()
    assert not undo_failed(layout, joints[:], tried, out_of_budget)
    assert len(layout) == 4 and tried == set()  # all undone; each may come back alone
    layout.join(*joints[0])
    assert not undo_failed(layout, joints[:1], tried, out_of_budget)
    assert len(layout) == 4 and tried == {joints[0]}


def test_order_reads_the_size_and_color_range():
    assert order("30x20").colors == default_colors(20, 30) == (20, 29)
    wide = order("12x4", colors=5)
    assert (wide.width, wide.height, wide.colors) == (12, 4, (5, 5))
    assert order("9x9", min_colors=9).colors == (9, 11)
    assert order("9x9", max_colors=5).colors == (5, 5)
    for size, kw in [("9", {}), ("1x5", {}), ("5x5", {"colors": 13}),
                     ("5x5", {"colors": 4, "max_colors": 5}),
                     ("9x9", {"min_colors": 8, "max_colors": 6}), ("20x20", {"colors": 94})]:
        with pytest.raises(UsageError):
            order(size, **kw)


# --- flowsat generate -------------------------------------------------------------------

def generate(*args: str):
    return CliRunner().invoke(app, ["generate", *args])


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.txt"))}


def test_cli_writes_puzzles_and_a_manifest_that_matches_them(tmp_path):
    out = tmp_path / "out"
    result = generate("--size", "7x6", "--count", "3", "--seed", "11", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 3
    rows = list(csv.DictReader((out / "manifest.csv").open()))
    assert [r["file"] for r in rows] == ["7x6-0011.txt", "7x6-0012.txt", "7x6-0013.txt"]
    assert set(files_of(out)) == {r["file"] for r in rows}
    for row in rows:
        (puzzle,) = read_puzzles(out / row["file"])
        assert row["size"] == puzzle.size == "7x6" and int(row["colors"]) == len(puzzle.dots)
        assert row["file"] == f"7x6-{int(row['seed']):04d}.txt"
        assert row["tier"] in ("easy", "regular", "hard", "extreme")
        assert float(row["score"]) >= 0 and float(row["seconds"]) >= 0
        assert check_unique(puzzle).verdict == "unique"


def test_cli_same_seed_same_bytes_in_any_process(tmp_path):
    args = ["--size", "8x8", "--count", "3", "--seed", "40", "--max-nodes", "200"]
    assert generate(*args, "--out", str(tmp_path / "a")).exit_code == 0
    assert generate(*args, "--workers", "2", "--out", str(tmp_path / "b")).exit_code == 0
    env = {**os.environ, "PYTHONHASHSEED": "123"}
    subprocess.run([sys.executable, "-m", "flowsat", "generate", *args, "--out",
                    str(tmp_path / "c")], check=True, env=env, cwd=ROOT, capture_output=True)
    a = files_of(tmp_path / "a")
    assert len(a) == 3 and a == files_of(tmp_path / "b") == files_of(tmp_path / "c")
    assert generate("--size", "8x8", "--seed", "41", "--out", str(tmp_path / "d"),
                    "--max-nodes", "200").exit_code == 0
    assert files_of(tmp_path / "d")["8x8-0041.txt"] == a["8x8-0041.txt"]  # seed S + k alone


def test_cli_runs_into_one_manifest_add_up_and_resume_skips(tmp_path):
    out, manifest = tmp_path / "small", tmp_path / "manifest.csv"
    common = ["--out", str(out), "--manifest", str(manifest), "--max-nodes", "200"]
    assert generate("--size", "5x5", "--count", "2", "--seed", "1", *common).exit_code == 0
    assert generate("--size", "6x5", "--seed", "1", *common).exit_code == 0
    rows = list(csv.DictReader(manifest.open()))
    assert [r["file"] for r in rows] == ["small/5x5-0001.txt", "small/5x5-0002.txt",
                                         "small/6x5-0001.txt"]
    again = generate("--size", "5x5", "--count", "3", "--seed", "1", "--resume", *common)
    assert again.exit_code == 0 and again.stdout.count("5x5-") == 1  # only seed 3 is new
    assert len(list(csv.DictReader(manifest.open()))) == 4


def test_cli_numberlink_format_and_standard_output(tmp_path):
    result = generate("--size", "6x4", "--count", "2", "--seed", "3", "--format", "numberlink")
    assert result.exit_code == 0
    puzzles = list(parse_puzzles(result.stdout))
    assert [(p.format, p.size) for p in puzzles] == [("numberlink", "6x4")] * 2
    grid = generate("--size", "6x4", "--seed", "3")
    assert Puzzle.from_text(grid.stdout).rows == puzzles[0].rows
    assert "seed" in generate("--size", "5x5").stderr  # a random seed is told


def test_cli_usage_errors_and_the_safety_stop(tmp_path):
    for args in (["--size", "5"], ["--size", "5x5", "--colors", "20"],
                 ["--size", "5x5", "--resume"]):
        result = generate(*args)
        assert result.exit_code == 2 and result.stderr.count("\n") == 1, args
    stopped = generate("--size", "6x6", "--count", "2", "--timeout", "0", "--seed", "1")
    assert stopped.exit_code == 3
    assert stopped.stderr.count("--timeout") == 2 and stopped.stdout == ""


def test_cli_an_answer_that_fails_the_checker_is_an_internal_error(monkeypatch):
    from flowsat.generate import make

    def broken(*args, **kw):
        raise InvalidSolution("<puzzle>: cell (0, 0) is on no path")

    monkeypatch.setattr(make, "check_unique", broken)
    result = generate("--size", "5x5", "--seed", "1", "--count", "2")
    assert result.exit_code == 4 and result.stderr.count("internal error (a bug)") == 2


def test_made_in_counts_the_rating_too(monkeypatch):
    """The seconds printed and written to the manifest are the wall time of making and rating
    a puzzle: a rating that takes a while is counted."""
    import time

    from flowsat.generate import run as generating

    real = generating.rate

    def slow(*args, **kwargs):
        time.sleep(0.5)
        return real(*args, **kwargs)

    monkeypatch.setattr(generating, "rate", slow)
    outcome = generating.make_one(generating.order("5x5"), seed=3)
    assert outcome.made is not None and outcome.made.seconds >= 0.5
