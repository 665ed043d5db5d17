"""No run is killed for memory: caps by default, the SAT formula estimated before it is built,
and what the caps miss (MemoryError) stopped as `limit`."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from flowsat import memory
from flowsat.backend import REGISTRY
from flowsat.commands import app
from flowsat.puzzle import read_puzzles
from flowsat.puzzle.rules import Rules
from flowsat.sat import estimate
from flowsat.sat.estimate import formula_size, size_of
from flowsat.sat.formula import encode
from flowsat.sat.spec import load_spec
from flowsat.solve import solve
from tests.conftest import PUZZLES

MID = PUZZLES / "large" / "30x30" / "30x30-0001.txt"
BOARD20 = PUZZLES / "large" / "20x20" / "20x20-0001.txt"
SMALL = PUZZLES / "examples" / "flow_5x5.txt"


def cli(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.mark.parametrize("backend", ["sat", "astar"])
def test_a_small_cap_stops_a_mid_size_board_with_limit_and_exit_3(backend):
    result = cli("solve", "--backend", backend, "--max-memory", "1", str(MID))
    assert result.exit_code == 3, result.output
    (line,) = result.stdout.splitlines()
    assert line.startswith(f"{MID}: limit in ")
    assert "above the memory cap of 1 MB (--max-memory)" in line
    assert ("the formula would need about" if backend == "sat" else "(stored states") in line
    record = json.loads(cli("solve", "--format", "json", "--backend", backend,
                            "--max-memory", "1", str(MID)).stdout)
    assert record["status"] == "limit" and record["stats"]["memory_mb"] > 1


def test_without_max_memory_the_default_cap_applies(monkeypatch):
    (puzzle,) = read_puzzles(MID)
    monkeypatch.setattr(memory, "_given", [2.0])
    assert solve(puzzle).status == "limit"
    monkeypatch.setattr(memory, "_given", [])
    assert solve(puzzle).status == "solved"


def test_the_default_cap_is_half_the_memory_available(monkeypatch):
    physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / memory.MB
    assert 0 < memory.available_mb() <= physical
    monkeypatch.setattr(memory, "available_mb", lambda: 10_000.0)
    assert memory.measured_cap_mb.__wrapped__() == 5_000.0
    monkeypatch.setattr(memory, "available_mb", lambda: None)
    assert memory.measured_cap_mb.__wrapped__() == memory.FALLBACK_MB


@pytest.mark.parametrize(("name", "board"), [
    ("edges-unique-lazy", MID), ("edges-onehot", BOARD20), ("dirtypes-binary", BOARD20),
    ("edges-binary+cycles=order", BOARD20)])
def test_the_estimate_is_within_a_fifth_of_the_formula(name, board, monkeypatch):
    monkeypatch.setattr(estimate, "WORTH_IT", 0)  # estimated however small, for a fast test
    (puzzle,) = read_puzzles(board)
    spec = load_spec(name)
    guess = formula_size(puzzle, spec, Rules())
    real = size_of(encode(puzzle, spec.name.replace("-lazy", ""), Rules()))  # all touches stated
    for field in ("variables", "clauses", "literals"):
        assert 0.8 < getattr(guess, field) / getattr(real, field) < 1.2, field


def test_a_small_board_is_checked_once_built_instead(tmp_path):
    (puzzle,) = read_puzzles(SMALL)
    assert formula_size(puzzle, load_spec("edges-unique"), Rules()) is None
    result = solve(puzzle, max_memory=0.01)
    assert result.status == "limit" and result.error.startswith("the formula needs ")


def test_out_of_memory_in_any_backend_is_a_limit_not_a_crash(monkeypatch):
    monkeypatch.setitem(REGISTRY, "hungry", "tests.bench_backends.hungry")
    result = cli("solve", "--backend", "hungry", str(SMALL), str(SMALL))
    assert result.exit_code == 3
    assert result.stdout.count(": limit in ") == 2 and "out of memory" in result.stdout


def test_the_bench_records_a_run_out_of_memory_as_limit(tmp_path, monkeypatch):
    monkeypatch.setitem(REGISTRY, "hungry", "tests.bench_backends.hungry")
    done = cli("bench", str(SMALL), "--backends", "hungry,sat", "--encodings", "edges-binary",
               "--solvers", "glucose4", "--no-baselines", "--out", str(tmp_path))
    assert done.exit_code == 0, done.output
    records = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert [(r["config"], r["status"]) for r in records] == [("hungry/default", "limit"),
                                                            ("sat/edges-binary/glucose4", "solved")]
    assert "out of memory" in records[0]["error"]


def test_the_command_line_limits_its_address_space_to_what_is_available():
    code = ("import resource; from flowsat.memory import limit_address_space, mapped_mb, "
            "available_mb; before = mapped_mb() + max(0.8 * available_mb(), 2048); "
            "limit_address_space(); "
            "soft = resource.getrlimit(resource.RLIMIT_AS)[0]; "
            "print(soft != resource.RLIM_INFINITY and abs(soft / 2**20 - before) < 256)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == "True", done.stderr


@pytest.mark.parametrize(("backend", "what"), [("sat", "would need about"),  # or propagation
                                               ("astar", "the board's tables would need about")])
def test_a_huge_board_stops_before_anything_big_is_built(tmp_path, backend, what):
    rows = ["." * 300 for _ in range(300)]
    rows[0], rows[299] = "A" + "." * 298 + "A", "B" + "." * 298 + "B"
    board = tmp_path / "huge.txt"
    board.write_text("\n".join(rows) + "\n")
    result = cli("solve", "--backend", backend, "--max-cells", "100000", "--max-memory", "50",
                 str(board))
    assert result.exit_code == 3, result.output
    assert ": limit in " in result.stdout and what in result.stdout


def test_a_board_far_below_the_cap_is_estimated_from_the_probes_of_rounded_colors(monkeypatch):
    asked = []
    measured = estimate.measured
    monkeypatch.setattr(estimate, "measured",
                        lambda spec, colors, rules: asked.append(colors) or measured(spec, colors,
                                                                                     rules))
    (puzzle,) = read_puzzles(MID)
    spec, colors = load_spec("edges-binary"), len(puzzle.colors)
    more = -(-colors // estimate.BOUND_COLORS) * estimate.BOUND_COLORS
    assert colors != more
    assert formula_size(puzzle, spec, Rules(), cap=10_000.0) is None  # far below
    assert asked == [more]  # the probes of the puzzle's own colors are not made
    exact = formula_size(puzzle, spec, Rules())
    rough = estimate.scaled(puzzle, spec, Rules(), more)
    assert rough.mb >= 0.9 * exact.mb
    near = formula_size(puzzle, spec, Rules(), cap=rough.mb * estimate.FAR_BELOW * 0.99)
    assert near == exact  # near the cap: the exact estimate
