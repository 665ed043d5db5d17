"""The generator on every kind of board: `--kind` read and checked, fillings and layouts on the
board's graph, puzzles of the kind asked that follow the rules and are unique (by the proof and
by the complete encoding), proofs that agree with the complete encoding on random levels of
every kind, and the pack and board outputs of `flowsat generate --kind`."""

from __future__ import annotations

import csv
import random

import pytest
from typer.testing import CliRunner

from flowsat.checker import problems
from flowsat.commands import app
from flowsat.generate import DENSITY
from flowsat.generate.cover import random_level
from flowsat.generate.filling import puzzle_of
from flowsat.generate.kinds import Kind, filling, kind_of
from flowsat.generate.make import LABELS, make_puzzle
from flowsat.generate.run import order
from flowsat.puzzle import parse_puzzles
from flowsat.puzzle.board import Board
from flowsat.puzzle.model import solution_grid
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError
from flowsat.solve import solve_many
from flowsat.unique import check_unique


def generate(*args: str):
    return CliRunner().invoke(app, ["generate", *args])


def test_kinds_are_read_comma_separated_or_repeated_with_default_densities():
    assert kind_of(["square"]) == Kind() and kind_of(["square"]).plain
    both = kind_of(["hex,holes", "warps"], {"holes": 0.3, "walls": None})
    assert both == Kind(hex=True, warps=True, holes=0.3) and both.name == "hex+holes+warps"
    assert kind_of([" Walls , bridges"]) == Kind(walls=DENSITY["walls"],
                                                 bridges=DENSITY["bridges"])
    assert kind_of(["bridges", "holes"]).name == "square+holes+bridges"  # the board's order


@pytest.mark.parametrize(("names", "densities", "says"), [
    (["circles"], {}, "'circles': the kinds are"),
    (["square,hex"], {}, "square or hexagonal"),
    (["hex", "bridges"], {}, "only known on square boards"),
    (["holes"], {"walls": 0.1}, "--walls 0.1 goes with --kind walls"),
    (["holes"], {"holes": 0.0}, "above 0 and at most 1"),
    (["walls"], {"walls": 1.5}, "above 0 and at most 1"),
])
def test_kinds_that_cannot_be_made_are_usage_errors(names, densities, says):
    with pytest.raises(UsageError, match=says):
        kind_of(names, densities)


def test_warps_need_a_board_they_fit():
    with pytest.raises(UsageError, match="at least 3"):
        order("2x5", kind=kind_of(["warps"]))
    with pytest.raises(UsageError, match="even width"):
        order("7x6", kind=kind_of(["hex,warps"]))
    assert order("8x7", kind=kind_of(["hex,warps"])).kind.name == "hex+warps"


@pytest.mark.parametrize("names", [["hex"], ["warps"], ["hex,warps"], ["holes"],
                                   ["hex,holes,warps"]])
def test_fillings_cover_the_board_graph_with_paths_that_obey_the_rule(names):
    kind = kind_of(names)
    for seed in range(5):
        layout = filling(kind, 6, 6, random.Random(seed), 5.0)
        board = layout.board
        cells = sorted(c for path in layout.paths.values() for c in path)
        assert cells == sorted(map(board.cell, board.cells))
        assert bool(board.holes) == bool(kind.holes) and board.kind == kind.name
        paths = layout.lettered(LABELS)
        assert problems(puzzle_of(paths, 6, 6, board=board), paths) == []


KINDS = [["square"], ["holes"], ["walls"], ["bridges"], ["hex"], ["warps"],
         ["hex,holes,walls,warps"], ["holes,walls,bridges,warps"]]


@pytest.mark.parametrize("names", KINDS, ids=lambda names: names[0])
def test_made_puzzles_are_of_the_kind_asked_follow_the_rules_and_are_unique(names):
    kind = kind_of(names)
    for seed in range(2):
        made = make_puzzle(6, 6, seed, (4, 7), kind=kind)
        assert made is not None
        puzzle = made.puzzle
        assert puzzle.kind == kind.name and 4 <= len(made.solution) <= 7
        assert problems(puzzle, made.solution) == []
        result, found = solve_many(puzzle, 2, encoding="edges-binary")  # no corner rule
        assert len(found) == 1 and result.stats["exhausted"], solution_grid(puzzle, found[0])


def test_the_same_seed_makes_the_same_puzzle_of_a_kind():
    kind = kind_of(["hex,holes,warps"])
    first = [make_puzzle(6, 6, seed, (4, 6), kind=kind).puzzle for seed in range(3)]
    assert first == [make_puzzle(6, 6, seed, (4, 6), kind=kind).puzzle for seed in range(3)]
    assert len({p.board for p in first}) == 3


# Random solved levels of every kind (bridges on square boards): (shape, warps, walls,
# bridges); seed 35 of the square one with bridges is the level whose second solution the
# corner rule once ruled out (an inside cell may turn into a bridge).
LEVELS = [("square", False, 0.0, 0.0), ("square", False, 0.3, 0.0), ("square", False, 0.0, 1.0),
          ("hex", False, 0.0, 0.0), ("hex", True, 0.2, 0.0), ("square", True, 0.3, 1.0)]


@pytest.mark.parametrize(("shape", "wrap", "walls", "bridges"), LEVELS)
def test_the_proof_with_the_corner_rule_agrees_with_the_complete_encoding(shape, wrap, walls,
                                                                          bridges):
    for seed in [35, *range(12)]:
        size = 4 + 2 * (seed % 2) if wrap and shape == "hex" else 4 + seed % 3
        puzzle, paths = random_level(Board(size, size, shape, wrap), random.Random(seed),
                                     walls=walls, bridges=bridges, mean_length=4.0)
        proved = check_unique(puzzle, known=paths).verdict
        result, found = solve_many(puzzle, 2, encoding="edges-binary")
        complete = "multiple" if len(found) == 2 else "unique"
        assert result.stats["exhausted"] or len(found) == 2
        assert proved == complete, (puzzle.kind, seed)


def test_cli_kinds_in_pack_and_board_formats_parse_back_with_their_solutions(tmp_path):
    packs = generate("--size", "6x6", "--kind", "hex,holes", "--kind", "warps", "--count", "2",
                     "--seed", "5", "--holes", "0.15")
    assert packs.exit_code == 0, packs.output
    levels = list(parse_puzzles(packs.stdout))
    assert [(p.format, p.kind) for p in levels] == [("pack", "hex+holes+warps")] * 2
    for level in levels:
        assert problems(level, dict(level.given)) == []
    board = generate("--size", "6x6", "--kind", "hex,holes,warps", "--seed", "5", "--holes",
                     "0.15", "--format", "board")
    (drawn,) = parse_puzzles(board.stdout)
    assert drawn.board == levels[0].board and drawn.rows == levels[0].rows


def test_cli_manifest_names_the_kind_densities_proof_and_the_command(tmp_path):
    out = tmp_path / "walls"
    made = generate("--size", "7x7", "--kind", "walls", "--walls", "0.3", "--count", "2",
                    "--seed", "2", "--max-nodes", "200", "--out", str(out))
    assert made.exit_code == 0, made.output
    rows = list(csv.DictReader((out / "manifest.csv").open()))
    assert [r["file"] for r in rows] == ["square+walls-7x7-0002.txt", "square+walls-7x7-0003.txt"]
    for row in rows:
        assert (row["kind"], row["walls"], row["holes"]) == ("square+walls", "0.3", "")
        assert row["proof"] == "sat:edges-unique:glucose4" and row["tier"]
        again = generate(*row["command"].split()[2:])  # the command prints the file again
        assert again.stdout == (out / row["file"]).read_text() + "\n"


def test_cli_kind_usage_errors():
    for args in (["--kind", "hex", "--format", "grid"], ["--kind", "hex,bridges"],
                 ["--kind", "holes", "--walls", "0.2"], ["--kind", "hex,warps", "--size", "5x6"],
                 ["--kind", "cubes"]):
        result = generate("--size", "6x6", *args) if "--size" not in args else generate(*args)
        assert result.exit_code == 2 and result.stderr.count("\n") == 1, (args, result.stderr)


@pytest.mark.parametrize("names", [["hex"], ["holes,walls,warps"], ["bridges"]],
                         ids=lambda names: names[0])
def test_made_puzzles_with_self_touch_are_unique_under_that_rule(names):
    rules = Rules(self_touch=True)
    made = make_puzzle(5, 6, 1, (4, 7), Rules(self_touch=True), kind=kind_of(names))
    assert made is not None and made.puzzle.kind == kind_of(names).name
    assert problems(made.puzzle, made.solution, rules) == []
    result, found = solve_many(made.puzzle, 2, encoding="edges-binary", rules=rules)
    assert len(found) == 1 and result.stats["exhausted"]
