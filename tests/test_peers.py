"""The 2016 C program's adapter (`peers/flow_solver_adapter.py`): standard library only, what it
reads and refuses, and, where the peers are built, its answers through `--backend program:`
checked by flowsat like every backend's."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys

import pytest

from flowsat.puzzle import read_puzzles
from flowsat.solve import solve
from tests.conftest import ROOT

ADAPTER = ROOT / "peers" / "flow_solver_adapter.py"
FLOW_SOLVER = ROOT.parent / "anchors-bin" / "flow_solver"
ZUCKER = ROOT.parent / "shared" / "puzzles" / "zucker"
built = pytest.mark.skipif(not FLOW_SOLVER.exists() or not ZUCKER.exists(),
                           reason="the peers are not built into ../anchors-bin (peers/README.md)")


def load_adapter():
    spec = importlib.util.spec_from_file_location("flow_solver_adapter", ADAPTER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_adapter_imports_the_standard_library_only():
    tree = ast.parse(ADAPTER.read_text())
    names = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
             for alias in node.names}
    names |= {node.module.split(".")[0] for node in ast.walk(tree)
              if isinstance(node, ast.ImportFrom) and node.module}
    assert names and names <= set(sys.stdlib_module_names) | {"__future__"}, names


def test_the_adapter_reads_both_formats_and_refuses_what_flow_solver_cannot_take():
    adapter = load_adapter()
    assert adapter.read_puzzle("3 2\nA.A\nB.B\n0 0\n") == adapter.read_puzzle("A.A\nB.B\n") \
        == ["A.A", "B.B"]
    program = "/nonexistent/flow_solver"  # never run: each board is refused first
    assert adapter.solve(["A.A", "B.B"], program).startswith("UNKNOWN") and "square" in \
        adapter.solve(["A.A", "B.B"], program)
    assert "14x14" in adapter.solve(["A" + "." * 13 + "A"] + ["." * 15] * 14, program)
    labels = "abcdefghijklmnopq"  # 17 pairs on a 14x14 board
    rows = [labels[:14], labels[:14], labels[14:] + "." * 11, labels[14:] + "." * 11,
            *["." * 14] * 10]
    assert "at most 16 colors, the puzzle has 17" in adapter.solve(rows, program)


@built
@pytest.mark.parametrize("name, status", [("regular_5x5_01.txt", "solved"),
                                          ("jumbo_14x14_01.txt", "solved"),
                                          ("unsolvable_cross.txt", "unsolvable")])
def test_flow_solver_through_the_adapter_answers_and_passes_the_checker(name, status):
    (puzzle,) = read_puzzles(ZUCKER / name)
    command = f"{sys.executable} -S {ADAPTER} --flow-solver {FLOW_SOLVER}"
    result = solve(puzzle, f"program:{command}", timeout=60)
    assert result.status == status, result.error
    if status == "solved":
        assert set(result.paths) == set(puzzle.dots)


@built
def test_the_adapter_says_unknown_for_a_board_too_large():
    text = (ROOT / "puzzles" / "small" / "15x15").glob("*.txt").__next__().read_text()
    done = subprocess.run([sys.executable, "-S", str(ADAPTER), "--flow-solver",
                           str(FLOW_SOLVER)], input=text, capture_output=True, text=True,
                          check=True)
    assert done.stdout.startswith("UNKNOWN flow_solver takes boards from 3x3 to 14x14")

