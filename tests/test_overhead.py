"""The fixed costs of a run stay off the answers: start-up leaves the environment as it was,
the cycle collector is paused only where it would scan a formula or a run's imports, a formula
is freed when its search ends, and small boards skip the memory estimate's probes."""

from __future__ import annotations

import gc
import os
import subprocess
import sys

import pytest

from flowsat.memory import collector_paused
from flowsat.puzzle import read_puzzles
from flowsat.puzzle.rules import Rules
from flowsat.sat import estimate, search
from flowsat.sat.spec import load_spec
from tests.conftest import PUZZLES

TEN = PUZZLES / "small" / "10x10" / "10x10-0001.txt"
STATE = ("import gc, os, flowsat; "
         "print(os.environ.get('OPENBLAS_NUM_THREADS'), gc.isenabled(), gc.get_freeze_count(), "
         "flush=True)")


@pytest.mark.parametrize("given", [None, "3"])
def test_importing_flowsat_leaves_the_environment_and_the_collector_as_they_were(given):
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given:
        env["OPENBLAS_NUM_THREADS"] = given
    out = subprocess.run([sys.executable, "-c", STATE], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == [str(given), "True", "0"]  # programs flowsat starts see the user's setting;
    # a library's import freezes nothing of its host's


def python_says(code: str) -> list[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.split()


def test_numpy_objects_skip_the_young_generations():
    young, middle, old = map(int, python_says(
        "import gc, flowsat, numpy; numpy.zeros(1); "
        "print(*(len(gc.get_objects(g)) for g in range(3)))"))
    assert young + middle < 2_000 < 10_000 < old  # numpy's tens of thousands: in the oldest


def test_what_a_run_imports_for_good_is_frozen_with_no_pass_of_the_collector():
    said = python_says(
        "import gc; from flowsat.memory import for_good; passes = []; "
        "gc.callbacks.append(lambda phase, info: passes.append(phase)); "
        "before = gc.get_freeze_count(); "
        "for_good(lambda: __import__('flowsat.sat.search')); "
        "print(gc.get_freeze_count() - before, len(passes), gc.isenabled(), "
        "len(gc.get_objects(0)))")
    frozen, passes, enabled, young = int(said[0]), int(said[1]), said[2], int(said[3])
    assert frozen > 10_000 and passes == 0 and enabled == "True" and young < 100


def test_the_command_line_runs_as_a_module():
    done = subprocess.run([sys.executable, "-m", "flowsat", "solve", "-q", str(TEN)],
                          capture_output=True, text=True)
    assert done.returncode == 0 and "solved" in done.stdout, done.stderr


def test_the_collector_is_paused_in_the_block_and_back_as_it_was_after_it():
    assert gc.isenabled()
    with pytest.raises(KeyError), collector_paused():
        assert not gc.isenabled()
        raise KeyError("an error in the block")
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # it was off: it stays off
    finally:
        gc.enable()


def test_a_search_frees_its_clauses_without_the_collector():
    (puzzle,) = read_puzzles(TEN)
    for _ in range(2):  # the first runs make what is kept for the board's size (its second
        result = search.search(puzzle, 1)[0]  # fills the tables of shared clauses)
    clauses = result.stats["clauses"]
    gc.collect()
    gc.disable()
    try:
        before = len(gc.get_objects())
        assert search.search(puzzle, 1)[0].status == "solved"
        left = len(gc.get_objects()) - before
    finally:
        gc.enable()
    assert left < clauses // 10, f"{left} objects left behind by a formula of {clauses} clauses"


def test_boards_below_the_smallest_probe_are_built_without_estimate_or_probes():
    (puzzle,) = read_puzzles(TEN)
    estimate.probe.cache_clear()
    assert estimate.formula_size(puzzle, load_spec("edges-unique-lazy"), Rules()) is None
    assert estimate.probe.cache_info().currsize == 0
    floor = estimate.WORTH_IT * estimate.PROBE_WIDTH * (1 + estimate.PROBE_FREE_ROWS[-1])
    assert all(estimate.cell_count(estimate.probe(colors, estimate.PROBE_FREE_ROWS[-1]))
               * estimate.WORTH_IT >= floor for colors in range(1, 40))  # no probe is smaller


def test_a_sat_run_makes_nothing_of_the_search_but_its_options():
    said = python_says(
        "import sys; sys.argv = ['flowsat', 'solve', '-q', " + repr(str(TEN)) + "]\n"
        "from flowsat.__main__ import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "from flowsat.search import board\n"
        "print(board.split_table.cache_info().currsize, 'flowsat.search.state' in sys.modules,"
        " 'flowsat.search.backend' in sys.modules)")
    assert said[-3:] == ["0", "False", "False"]
