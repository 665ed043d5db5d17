"""The cpsat backend: OR-Tools CP-SAT with connectivity as a circuit constraint. Its verdicts
(solved or unsolvable) agree with the sat backend's on every board kind and rule, every
answer passes the checker, its limits stop it with a line, and a missing OR-Tools is one
line saying how to install it."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from flowsat.backend import backend
from flowsat.bench.configs import Config
from flowsat.bench.plan import Run
from flowsat.bench.workers import execute
from flowsat.checker import problems
from flowsat.commands import app
from flowsat.cpsat.model import graph
from flowsat.generate.cover import random_level
from flowsat.generate.filling import puzzle_of, random_filling
from flowsat.puzzle import Board, Puzzle, Rules, read_puzzles
from flowsat.result import UsageError
from flowsat.solve import solve
from tests.conftest import PUZZLES, ROOT, ZUCKER, handmade_files, needs_shared, zucker_files
from tests.test_properties import random_boards

pytest.importorskip("ortools")  # the test extra installs it; a bare install skips this file

RULES = [Rules(), Rules(self_touch=True), Rules(fill_all=False),
         Rules(self_touch=True, fill_all=False)]
KINDS = sorted((PUZZLES / "kinds").rglob("*.txt"))
FLOW5 = str(PUZZLES / "examples" / "flow_5x5.txt")
NO_ORTOOLS = ("import sys\n"
              "for name in ('ortools', 'ortools.sat', 'ortools.sat.python'):\n"
              "    sys.modules[name] = None  # as if not installed\n"
              "from flowsat.commands import main\n"
              "sys.argv[0] = 'flowsat'\n"
              "main()\n")


def agrees(puzzle: Puzzle, rules: Rules) -> str:
    """The cpsat backend's status, once it is the sat backend's and its answer is right."""
    expected = solve(puzzle, "sat", rules=rules).status
    found = solve(puzzle, "cpsat", rules=rules)
    assert found.status == expected, (puzzle.name, puzzle.kind, rules, found.error)
    if found.status == "solved":
        assert problems(puzzle, found.paths, rules) == []
    return found.status


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
@pytest.mark.parametrize("file", handmade_files() + KINDS, ids=lambda f: f.name)
def test_every_project_puzzle_and_kind_agrees_with_sat_under_every_rule(file, rules):
    statuses = {agrees(puzzle, rules) for puzzle in read_puzzles(file)}
    if "unsolvable" in file.parts and rules == Rules():
        assert statuses == {"unsolvable"}


@needs_shared
@pytest.mark.parametrize("file", zucker_files(), ids=lambda f: f.name)
def test_the_2016_set_agrees_with_sat(file):
    (puzzle,) = read_puzzles(file)
    status = agrees(puzzle, Rules())
    assert status == ("unsolvable" if file.name == "unsolvable_cross.txt" else "solved")


@settings(max_examples=40, deadline=None)
@given(st.tuples(st.integers(1, 7), st.integers(2, 7), st.integers(0, 2**32),
                 st.sampled_from([2.5, 4.0, 8.0])), st.booleans(), st.booleans())
def test_random_fillings_are_solved_and_checked(board, allow_self_touch, allow_empty):
    height, width, seed, mean = board
    filling = random_filling(height, width, random.Random(seed), mean, allow_self_touch)
    rules = Rules(allow_self_touch, fill_all=not allow_empty)
    result = solve(puzzle_of(filling, height, width), "cpsat", rules=rules)
    assert result.status == "solved"
    assert problems(puzzle_of(filling, height, width), result.paths, rules) == []


@settings(max_examples=60, deadline=None)
@given(random_boards(), st.sampled_from(RULES))
def test_random_boards_agree_with_sat(puzzle, rules):
    agrees(puzzle, rules)


@settings(max_examples=25, deadline=None)
@given(shape=st.sampled_from(["square", "hex"]), wrap=st.booleans(), size=st.integers(3, 6),
       walls=st.sampled_from([0.0, 0.3]), bridges=st.sampled_from([0.0, 1.0]),
       rules=st.sampled_from(RULES), seed=st.integers(0, 10**6))
def test_random_levels_of_every_kind_agree_with_sat(shape, wrap, size, walls, bridges, rules,
                                                    seed):
    width = size + size % 2 if shape == "hex" and wrap else size
    puzzle, _ = random_level(Board(width, size, shape, wrap), random.Random(seed),
                             Rules(rules.self_touch), walls=walls, bridges=bridges)
    assert agrees(puzzle, rules) == "solved"


def test_a_bridge_cell_is_two_nodes_each_joined_the_way_it_goes():
    board = Board(3, 3, bridges=frozenset({4}))
    g = graph(board)
    assert len(g.cells) == 1 + 9 + 1  # the depot, the cells, the bridge's second pass
    across, up_down = g.node[4, 0], g.node[4, 1]
    joined = {frozenset(link) for link in g.links}
    assert {frozenset({g.node[3, 0], across}), frozenset({g.node[5, 0], across}),
            frozenset({g.node[1, 0], up_down}), frozenset({g.node[7, 0], up_down})} <= joined
    assert frozenset({g.node[1, 0], across}) not in joined


def test_stats_count_the_search_and_the_model():
    (puzzle,) = read_puzzles(FLOW5)
    stats = solve(puzzle, "cpsat").stats
    assert {"conflicts", "branches", "variables", "constraints", "total_s"} <= set(stats)
    assert stats["variables"] > 0 and stats["conflicts"] >= 0


def test_options_are_checked_and_workers_default_to_one():
    owner = backend("cpsat")
    assert owner.options().workers == 1
    with pytest.raises(UsageError, match="--workers"):
        owner.options(workers=0)
    with pytest.raises(UsageError, match="does not apply to the cpsat backend"):
        owner.options(encoding="edges-turns")
    (puzzle,) = read_puzzles(FLOW5)
    found = solve(puzzle, "cpsat", workers=2, seed=7)
    assert found.status == "solved" and found.config == {"workers": 2, "seed": 7,
                                                         "presolve": True}


def test_the_timeout_the_conflicts_and_the_memory_cap_stop_it():
    (puzzle,) = read_puzzles(PUZZLES / "large" / "20x20" / "20x20-0001.txt")
    assert solve(puzzle, "cpsat", timeout=0.001).status == "timeout"
    capped = solve(puzzle, "cpsat", max_memory=1)
    assert capped.status == "limit" and "above the memory cap of 1 MB" in capped.error
    budget = solve(puzzle, "cpsat", max_conflicts=1, presolve=False, linearization=0)
    assert budget.status == "limit" and "--max-conflicts" in budget.error
    assert budget.stats["conflicts"] >= 1


def test_the_command_line_solves_and_stops_at_the_memory_cap_with_exit_3(tmp_path):
    runner = CliRunner()
    done = runner.invoke(app, ["solve", "--backend", "cpsat", "--format", "json", FLOW5])
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["status"] == "solved"
    capped = runner.invoke(app, ["solve", "--backend", "cpsat", "--max-memory", "1", "-q",
                                 FLOW5, str(PUZZLES / "examples" / "flow_7x7.txt")])
    assert capped.exit_code == 3
    assert capped.stdout.count("memory cap") == 2  # one line each, both puzzles tried


def test_a_missing_ortools_is_one_line_saying_how_to_install_it():
    done = subprocess.run([sys.executable, "-c", NO_ORTOOLS, "solve", "--backend", "cpsat",
                           FLOW5], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "flowsat: error: the cpsat backend needs OR-Tools: pip install 'flowsat[cpsat]'"]


def test_without_ortools_a_bench_records_the_line_and_the_other_configurations_go(
        monkeypatch):
    import flowsat.cpsat.run

    monkeypatch.setattr(flowsat.cpsat.run, "cp_model", None)
    (puzzle,) = read_puzzles(FLOW5)
    found = {name: execute(Run(puzzle, "identity", Config(name, name, f"flowsat.{module}"),
                               1), 10.0, Rules(), {})
             for name, module in (("cpsat", "cpsat"), ("sat", "sat"))}
    assert found["cpsat"]["status"] == "error"
    assert "pip install 'flowsat[cpsat]'" in found["cpsat"]["error"]
    assert found["sat"]["status"] == "solved"


def test_a_plan_runs_it(tmp_path):
    plan = tmp_path / "plan.toml"
    plan.write_text(f'out = "{tmp_path / "out"}"\ntimeout = 10\nworkers = 1\n'
                    f'[[sets]]\nname = "five"\npaths = ["{FLOW5}"]\n'
                    f'[[configs]]\nname = "cpsat"\nbackend = "cpsat"\nworkers = 1\n')
    done = CliRunner().invoke(app, ["bench", "--plan", str(plan)])
    assert done.exit_code == 0, done.output
    (record,) = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl")
                 .read_text().splitlines()]
    assert record["status"] == "solved" and "conflicts" in record["stats"]


@needs_shared
def test_the_2016_cross_is_unsolvable_from_the_command_line():
    done = CliRunner().invoke(app, ["solve", "--backend", "cpsat", "-q",
                                    str(ZUCKER / "unsolvable_cross.txt")])
    assert done.exit_code == 1 and "unsolvable" in done.stdout
