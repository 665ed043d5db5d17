"""The spiral boards of `flowsat generate --shape spiral`: their arms are a solution, both
backends solve the small ones (and prove the twin unsolvable), the printed files parse back
to the same board in every format, and what a spiral cannot be is a usage error."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from flowsat.checker import problems
from flowsat.commands import app
from flowsat.generate.spiral import arms, spiral_puzzle, spiral_rows
from flowsat.puzzle import parse_puzzles
from flowsat.solve import solve
from flowsat.unique import check_unique


def generate(*args: str):
    return CliRunner().invoke(app, ["generate", *args])


@pytest.mark.parametrize("n", [4, 6, 8, 10, 12, 30, 64])
def test_the_arms_are_a_solution_that_fills_the_board(n):
    puzzle, solution = spiral_puzzle("spiral", n, n)
    assert solution == arms(n) and len(puzzle.dots) == 4
    assert problems(puzzle, solution) == []
    assert sum(map(len, solution.values())) == n * n


@pytest.mark.parametrize("n", [4, 6, 8, 12])
@pytest.mark.parametrize("backend", ["sat", "astar"])
def test_both_backends_solve_a_small_spiral_and_the_checker_passes_it(n, backend):
    puzzle, _ = spiral_puzzle("spiral", n, n)
    result = solve(puzzle, backend, timeout=60)
    assert result.status == "solved"
    assert problems(puzzle, result.paths) == []


@pytest.mark.parametrize("n", [8, 10])
@pytest.mark.parametrize("backend", ["sat", "astar"])
def test_both_backends_find_the_twin_unsolvable(n, backend):
    puzzle, solution = spiral_puzzle("spiral-unsolvable", n, n)
    assert solution is None and len(puzzle.dots) == 5
    assert solve(puzzle, backend, timeout=60).status == "unsolvable"


def test_a_spiral_has_one_solution_when_its_size_is_a_multiple_of_4():
    for n in (4, 6, 8, 10, 12, 14):
        puzzle, _ = spiral_puzzle("spiral", n, n)
        assert check_unique(puzzle).verdict == ("unique" if n % 4 == 0 else "multiple"), n


@pytest.mark.parametrize("fmt", ["grid", "numberlink", "pack", "board"])
def test_the_printed_spiral_parses_back_to_the_same_board(fmt):
    result = generate("--shape", "spiral", "--size", "10x10", "--format", fmt)
    assert result.exit_code == 0, result.output
    (puzzle,) = parse_puzzles(result.stdout, f"spiral.{fmt}")
    made, solution = spiral_puzzle("spiral", 10, 10)
    assert puzzle.format == fmt and puzzle.size == "10x10"
    if fmt != "pack":
        assert puzzle.rows == made.rows
    else:  # a level names its colors after the game's palette, and carries the arms
        assert sorted(puzzle.dots.values()) == sorted(made.dots.values())
        assert sorted(puzzle.given_paths.values()) == sorted(map(list, solution.values()))


def test_the_unsolvable_twin_prints_with_its_fifth_pair():
    result = generate("--shape", "spiral-unsolvable", "--size", "8x8", "--format", "numberlink")
    assert result.exit_code == 0, result.output
    (puzzle,) = parse_puzzles(result.stdout, "twin.txt")
    assert puzzle.rows == tuple(spiral_rows(8, unsolvable=True)) != tuple(spiral_rows(8))
    assert sorted(puzzle.dots) == ["A", "B", "C", "D", "E"]


@pytest.mark.parametrize("args, says", [
    (["--size", "7x7"], "even size from 4x4, not 7x7"),
    (["--size", "8x10"], "not 8x10"),
    (["--size", "2x2"], "from 4x4"),
    (["--size", "1500x1500"], "above flowsat's limit"),
    (["--size", "8x8", "--seed", "3", "--count", "2"], "not --count, --seed"),
    (["--size", "8x8", "--kind", "hex"], "not --kind"),
    (["--shape", "spiral-unsolvable", "--size", "6x6"], "from 8x8"),
    (["--shape", "spiral-unsolvable", "--size", "8x8", "--format", "pack"], "needs a solution"),
])
def test_what_a_spiral_cannot_be_is_one_line_and_exit_2(args, says):
    args = args if "--shape" in args else ["--shape", "spiral", *args]
    result = generate(*args)
    assert result.exit_code == 2 and result.stdout == ""
    assert says in result.stderr and len(result.stderr.splitlines()) == 1, result.stderr
