"""The SAT backend: the 2016 counts, solving, cycle cuts, rules, solvers, timeouts."""

from __future__ import annotations

import csv
import multiprocessing
import threading
import time

import pytest
from pysat.solvers import SolverNames

from flowsat.backend import Limits
from flowsat.checker import problems
from flowsat.puzzle import Puzzle, read_puzzles
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError
from flowsat.sat import BACKEND, DEFAULT_ENCODING, DEFAULT_SOLVER, can_stop, encode, search
from flowsat.sat.decode import trace
from flowsat.sat.encoder import Encoder
from flowsat.sat.fresh import Fresh
from flowsat.sat.loop import next_solution
from flowsat.sat.oracle import SOLVERS
from flowsat.sat.spec import builtin_specs
from flowsat.solve import solve, solve_many
from tests.conftest import PUZZLES, REFERENCE, ZUCKER, handmade_files, needs_shared, zucker_files

SELF_TOUCH = Puzzle.from_text("O.OG. / Y..YG / B.BR. / ...R. / .....")
ENCODINGS = sorted(builtin_specs())


def reference_rows() -> list[dict]:
    path = REFERENCE / "zucker2016.csv"
    return list(csv.DictReader(path.open())) if path.is_file() else []


@needs_shared
@pytest.mark.parametrize("row", reference_rows(), ids=lambda row: row["puzzle"])
def test_zucker2016_reproduces_the_2016_counts(row):
    (puzzle,) = read_puzzles(ZUCKER / row["puzzle"])
    formula = encode(puzzle, "zucker2016")
    assert formula.enc.top == int(row["sat2016_vars"])
    assert len(formula.clauses) == int(row["sat2016_clauses_before_cycle_cuts"])


@needs_shared
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_the_2016_set(encoding):
    for file in zucker_files():
        (puzzle,) = read_puzzles(file)
        result = solve(puzzle, encoding=encoding)
        expected = "unsolvable" if file.name.startswith("unsolvable") else "solved"
        assert result.status == expected, (file.name, result)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_project_puzzles(encoding):
    for file in handmade_files():
        for puzzle in read_puzzles(file):
            result = solve(puzzle, encoding=encoding)
            expected = "unsolvable" if "unsolvable" in file.parts else "solved"
            assert result.status == expected, (puzzle.name, result)
            if expected == "solved":
                assert problems(puzzle, result.paths) == []


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_self_touch_puzzle_both_ways(encoding):
    assert solve(SELF_TOUCH, encoding=encoding).status == "unsolvable"
    result = solve(SELF_TOUCH, encoding=encoding, rules=Rules(self_touch=True))
    assert result.status == "solved"
    assert problems(SELF_TOUCH, result.paths, Rules(self_touch=True)) == []
    assert problems(SELF_TOUCH, result.paths) != []  # the answer does touch itself


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_self_touch_mode_still_links_adjacent_dots_by_a_long_path(encoding):
    puzzle = Puzzle.from_text("AA / ..")
    assert solve(puzzle, encoding=encoding).status == "unsolvable"
    result = solve(puzzle, encoding=encoding, rules=Rules(self_touch=True))
    assert result.paths == {"A": [(0, 0), (1, 0), (1, 1), (0, 1)]}


def test_trace_finds_the_paths_and_the_detached_cycles():
    enc = Encoder(Puzzle.from_text("A...A / ..... / ..... / B...B"))
    i = enc.index
    row = [(i((0, c)), i((0, c + 1))) for c in range(4)]
    ring = [(i((1, 1)), i((1, 2))), (i((1, 2)), i((2, 2))), (i((2, 2)), i((2, 1))),
            (i((2, 1)), i((1, 1)))]
    bottom = [(i((3, c)), i((3, c + 1))) for c in range(4)]
    traced = trace(enc, row + ring + bottom)
    paths, cycles = traced.paths, traced.cycles
    assert paths == {"A": [(0, c) for c in range(5)], "B": [(3, c) for c in range(5)]}
    walk = next(c for c in cycles if len(c) == 4)
    assert all(abs(a - b) in (1, enc.width) for a, b in zip(walk, walk[1:] + walk[:1], strict=True))
    assert sorted(map(sorted, cycles)) == sorted([
        sorted(i(x) for x in [(1, 1), (1, 2), (2, 2), (2, 1)]),
        [i((1, 0))], [i((1, 3))], [i((1, 4))], [i((2, 0))], [i((2, 3))], [i((2, 4))]])


def test_edge_cut_asks_for_an_edge_out_of_the_cycle():
    formula = encode(Puzzle.from_text("A...A / ..... / ..... / B...B"), "edges-binary")
    enc, edges = formula.enc, formula.links
    ring = [enc.index(x) for x in [(1, 1), (1, 2), (2, 2), (2, 1)]]
    cut = edges.cut(ring, [])
    assert len(cut) == 8 and all(v > 0 for v in cut)
    assert {tuple(map(enc.cell, e)) for e, v in edges.index.items() if v in cut} == {
        ((0, 1), (1, 1)), ((0, 2), (1, 2)), ((1, 0), (1, 1)), ((1, 2), (1, 3)),
        ((2, 0), (2, 1)), ((2, 2), (2, 3)), ((2, 1), (3, 1)), ((2, 2), (3, 2))}


@needs_shared
def test_cycles_are_cut_on_one_incremental_solver(monkeypatch):
    made = []
    real = search.open_oracle

    def counting(*args):
        made.append(args[0])
        return real(*args)

    monkeypatch.setattr(search, "open_oracle", counting)
    (puzzle,) = read_puzzles(ZUCKER / "jumbo_14x14_01.txt")
    cuts = {}
    for encoding in ENCODINGS:
        made.clear()
        result = solve(puzzle, encoding=encoding)
        assert result.status == "solved"
        cuts[encoding] = result.stats["cycle_cuts"]
        assert result.stats["rounds"] > 1 or not cuts[encoding]
        assert len(made) == 1  # one solver instance through every round
    assert any(cuts.values()), cuts  # the 2016 program cut two cycles on this puzzle


@pytest.mark.parametrize("solver", ["cadical195", "glucose4", "glucose42", "minisat22",
                                    "cd19", "g4", "lingeling", "kissat404", "pycosat"])
def test_any_pysat_solver_by_name_or_alias_and_picosat(solver):
    if solver == "pycosat":
        pytest.importorskip("pycosat")
    (puzzle,) = read_puzzles(PUZZLES / "examples" / "flow_9x9.txt")
    result = solve(puzzle, solver=solver)
    assert result.status == "solved"
    assert result.config["solver"] in search.solver_name(solver)
    assert solve(SELF_TOUCH, solver=solver).status == "unsolvable"


def test_a_solver_s_name_is_the_first_solver_that_has_it():
    """`solver_name`'s table of aliases names each solver as PySAT's names do, in order."""
    for name in {alias for solver in SOLVERS for alias in getattr(SolverNames, solver)}:
        first = next(s for s in SOLVERS if name == s or name in getattr(SolverNames, s))
        assert search.solver_name(name) == first
    with pytest.raises(UsageError, match="unknown solver 'glucose5'"):
        search.solver_name("glucose5")
    with pytest.raises(UsageError, match="cannot be stopped"):
        search.solver_name("lgl", timeout=1.0)


def test_unknown_solver_and_encoding_are_usage_errors():
    with pytest.raises(UsageError, match="unknown solver 'nope'"):
        solve(SELF_TOUCH, solver="nope")
    with pytest.raises(UsageError, match="unknown encoding 'nope'"):
        solve(SELF_TOUCH, encoding="nope")
    with pytest.raises(UsageError, match="cannot be stopped"):
        solve(SELF_TOUCH, solver="lingeling", timeout=5)


def test_encoding_from_a_spec_file(tmp_path):
    spec = tmp_path / "mine.toml"
    spec.write_text('summary = "x"\ncells = "onehot"\nlinks = "edges"\ncard = "ladder"\n')
    result = solve(SELF_TOUCH, encoding=str(spec), rules=Rules(self_touch=True))
    assert result.status == "solved" and result.config["encoding"] == "mine"
    spec.write_text('summary = "x"\ncells = "hexagonal"\nlinks = "edges"\n')
    with pytest.raises(UsageError, match="cells = 'hexagonal'; choose from"):
        solve(SELF_TOUCH, encoding=str(spec))


# A board one color must fill with a Hamiltonian path whose ends have the same checkerboard
# color on an even board: unsolvable by parity, which takes CDCL solvers long to prove.
PARITY = Puzzle(tuple(["A.A" + "." * 13] + ["." * 16] * 15))


@pytest.mark.parametrize("solver", ["cadical195", "glucose4", "pycosat"])
def test_timeout_stops_the_solver(solver):
    if solver == "pycosat":
        pytest.importorskip("pycosat")
    start = time.perf_counter()
    result = solve(PARITY, solver=solver, rules=Rules(self_touch=True), timeout=0.3)
    took = time.perf_counter() - start
    assert result.status == "timeout" and result.paths is None
    assert took < 2.0


TOUCH = Rules(self_touch=True)


def watchdogs() -> int:
    return sum(t.name == "flowsat-watchdog" for t in threading.enumerate())


def test_one_watchdog_thread_interrupts_every_solve_and_the_next_solve_runs_whole():
    for _ in range(3):
        assert solve(SELF_TOUCH, rules=TOUCH, timeout=60).status == "solved"
        start = time.perf_counter()
        assert solve(PARITY, rules=TOUCH, timeout=0.2).status == "timeout"
        assert time.perf_counter() - start < 2.0
    assert solve(SELF_TOUCH, rules=TOUCH, timeout=60).status == "solved"
    assert watchdogs() == 1


def test_a_forked_worker_has_its_own_watchdog():
    solve(SELF_TOUCH, rules=TOUCH, timeout=60)  # the parent's watchdog runs
    with multiprocessing.get_context("fork").Pool(1) as pool:
        status, took = pool.apply(timed_parity_timeout)
    assert status == "timeout" and took < 2.0


def timed_parity_timeout() -> tuple[str, float]:
    start = time.perf_counter()
    status = solve(PARITY, rules=TOUCH, timeout=0.2).status
    return status, time.perf_counter() - start


@needs_shared
def test_picosat_under_a_far_deadline_is_called_once_a_round():
    """A deadline must not make PicoSAT start over on a puzzle it solves in well under it."""
    pytest.importorskip("pycosat")
    (puzzle,) = read_puzzles(ZUCKER / "jumbo_14x14_30.txt")
    result = solve(puzzle, encoding="zucker2016", solver="pycosat", timeout=60)
    assert result.status == "solved"
    assert result.stats["rebuilds"] == result.stats["rounds"]


def test_timeout_zero_gives_timeout_at_once():
    assert solve(SELF_TOUCH, timeout=0).status == "timeout"


def test_stats_are_reported():
    result = solve(SELF_TOUCH, rules=Rules(self_touch=True))
    for key in ("variables", "clauses", "cycle_cuts", "encode_s", "load_s", "solve_s",
                "decode_s", "total_s", "conflicts", "decisions"):
        assert key in result.stats, key


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_two_solutions_are_found_and_one_is_proved_unique(encoding):
    two = Puzzle.from_text("A..B / .BA. / .CC. / ....")
    result, found = solve_many(two, 5, encoding=encoding)
    assert len(found) == 2 and found[0] != found[1]
    assert result.stats["solutions"] == 2 and result.stats["exhausted"]
    assert all(problems(two, paths) == [] for paths in found)
    result, found = solve_many(SELF_TOUCH, 2, encoding=encoding, rules=Rules(self_touch=True))
    assert result.status == "solved"
    result, found = solve_many(Puzzle.from_text("A.A / B.B"), 2, encoding=encoding)
    assert len(found) == 1 and result.stats["exhausted"]
    assert solve_many(SELF_TOUCH, 2, encoding=encoding)[0].status == "unsolvable"


class ScriptedOracle:
    """Stands in for a solver: answers with the given models, then 'no model'."""

    def __init__(self, models):
        self.models, self.added = list(models), []

    def solve(self, deadline=None, assumptions=()):
        return bool(self.models)

    def model(self):
        return self.models.pop(0)

    def add(self, clause):
        self.added.append(clause)


def test_a_model_with_a_cycle_is_observed_then_cut():
    formula = encode(Puzzle.from_text("A..A / .... / .... / B..B"), "edges-binary")
    enc, edges = formula.enc, formula.links
    on = {(enc.index(a), enc.index(b)) for a, b in [
        ((0, 0), (0, 1)), ((0, 1), (0, 2)), ((0, 2), (0, 3)),  # A
        ((3, 0), (3, 1)), ((3, 1), (3, 2)), ((3, 2), (3, 3)),  # B
        ((1, 0), (1, 1)), ((1, 1), (1, 2)), ((1, 2), (1, 3)), ((1, 3), (2, 3)),  # the ring
        ((2, 3), (2, 2)), ((2, 2), (2, 1)), ((2, 1), (2, 0)), ((2, 0), (1, 0))]}
    true_edges = {edges.index[min(e), max(e)] for e in on}
    model = [v if v in true_edges else -v for v in range(1, enc.top + 1)]
    oracle, seen, stats = ScriptedOracle([model]), [], {"solve_s": 0, "rounds": 0,
                                                        "cycle_cuts": 0}
    answer, _, _ = next_solution(Fresh(formula, oracle, None, stats, 1, ()),
                                 lambda *event: seen.append(event))
    assert answer is False and stats == {"solve_s": stats["solve_s"], "rounds": 2,
                                         "cycle_cuts": 1, "decode_s": stats["decode_s"]}
    ((event, paths, cycles),) = seen
    assert event == "model" and paths["A"] == [(0, c) for c in range(4)]
    assert sorted(cycles[0]) == [(1, 0), (1, 1), (1, 2), (1, 3), (2, 0), (2, 1), (2, 2), (2, 3)]
    assert oracle.added == [edges.cut([enc.index(c) for c in cycles[0]], model)]
    assert len(oracle.added[0]) == 8  # four edges up, four edges down


def test_the_backend_keeps_the_contract_with_options_made_and_checked_once():
    assert (BACKEND.name, BACKEND.kinds, BACKEND.outside) == ("sat", None, False)
    made = BACKEND.options()
    assert (made.encoding, made.solver, made.deduce, made.max_conflicts) == (
        DEFAULT_ENCODING, DEFAULT_SOLVER, "auto", None)  # the options say what runs
    assert BACKEND.options(deduce=False, encoding=None).deduce == "off"
    for given, error in [({"deduce": "maybe"}, "--deduce: 'maybe' is not on, off or auto"),
                         ({"encoding": "nope"}, "unknown encoding 'nope'"),
                         ({"max_conflicts": 0}, "--max-conflicts: 0 is not a number"),
                         ({"max_memory": 10}, "--max-memory does not apply to the sat backend"),
                         ({"solver": 4}, "--solver: 4 is not a name")]:
        with pytest.raises(UsageError, match=error):
            BACKEND.options(**given)
    result = BACKEND.solve(SELF_TOUCH, BACKEND.options(encoding="edges-binary"),
                           Rules(self_touch=True), Limits(timeout=60))
    assert result.status == "solved" and result.config == {"encoding": "edges-binary",
                                                           "solver": DEFAULT_SOLVER}
    assert BACKEND.solve(SELF_TOUCH, made, Rules(), Limits(max_memory=0.001)).status == "limit"


def test_can_stop_says_which_solvers_take_a_default_timeout():
    assert can_stop(None) and can_stop("glucose4") and can_stop("cd19") and can_stop("nope")
    assert not can_stop("lingeling") and not can_stop("kissat")
