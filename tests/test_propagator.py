"""`cycles = "propagator"` (`flowsat.sat.connectivity`): connectivity explained inside CaDiCaL
during search; its answers agree with lazy cycle cuts on every set, kind and rule."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver
from typer.testing import CliRunner

from flowsat.checker import problems
from flowsat.commands import app
from flowsat.generate.cover import random_level
from flowsat.generate.filling import puzzle_of, random_filling
from flowsat.puzzle import Puzzle, read_puzzles
from flowsat.puzzle.board import Board
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError
from flowsat.sat.connectivity import Connectivity, connect
from flowsat.sat.formula import encode
from flowsat.solve import solve, solve_many
from tests.conftest import PUZZLES, handmade_files, needs_shared, zucker_files
from tests.test_properties import random_boards

PROPAGATOR, LAZY = "edges-propagator", "edges-binary"
BARE = "edges-propagator+cells=none"  # no colors in the formula: joins, touches by the propagator
RULES = [Rules(), Rules(self_touch=True), Rules(fill_all=False),
         Rules(self_touch=True, fill_all=False)]


def agree(puzzle: Puzzle, rules: Rules) -> str:
    """The propagator's status, with colors in the formula and without, asserted equal to
    lazy cuts' on the same solver (a solution is checked by `solve` itself, and here again)."""
    lazy = solve(puzzle, encoding=LAZY, solver="cadical195", rules=rules, compiled="off")
    for encoding in (PROPAGATOR, BARE):
        mine = solve(puzzle, encoding=encoding, rules=rules, compiled="off")
        assert mine.status == lazy.status, (encoding, puzzle.name, puzzle.rows, rules)
        if mine.status == "solved":
            assert problems(puzzle, mine.paths, rules) == []
        assert mine.stats["cycle_cuts"] == 0  # the propagator left no cycle to the loop
    return lazy.status


@needs_shared
def test_the_2016_set_agrees_with_lazy_cuts_unsolvable_cross_too():
    statuses = {f.name: agree(p, Rules()) for f in zucker_files() for p in read_puzzles(f)}
    assert statuses["unsolvable_cross.txt"] == "unsolvable"
    assert list(statuses.values()).count("solved") == len(statuses) - 1


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_project_puzzles_and_every_board_kind_agree(rules):
    files = [*handmade_files(), *sorted((PUZZLES / "kinds").rglob("*.txt"))]
    statuses = [agree(p, rules) for f in files for p in read_puzzles(f)]
    assert "solved" in statuses and (rules.self_touch or "unsolvable" in statuses)


LEVELS = [("square", False, 0.0, 0.0), ("square", False, 0.3, 0.0), ("square", False, 0.0, 1.0),
          ("hex", False, 0.0, 0.0), ("hex", True, 0.2, 0.0), ("square", True, 0.3, 1.0)]


@pytest.mark.parametrize(("shape", "wrap", "walls", "bridges"), LEVELS)
def test_generated_levels_of_every_kind_are_solved(shape, wrap, walls, bridges):
    for seed in range(4):
        size = 6 if wrap and shape == "hex" else 5 + seed % 2
        puzzle, _ = random_level(Board(size, size, shape, wrap), random.Random(seed),
                                 walls=walls, bridges=bridges, mean_length=4.0)
        assert agree(puzzle, Rules()) == "solved"


fillings = st.tuples(st.integers(1, 7), st.integers(2, 7), st.integers(0, 2**32),
                     st.sampled_from([2.5, 4.0, 8.0]), st.booleans())


@settings(max_examples=40, deadline=None)
@given(fillings)
def test_random_fillings_cut_into_paths_are_solved(board):
    height, width, seed, mean, self_touch = board
    filling = random_filling(height, width, random.Random(seed), mean, self_touch)
    assert agree(puzzle_of(filling, height, width), Rules(self_touch)) == "solved"


@settings(max_examples=60, deadline=None)
@given(random_boards(), st.sampled_from(RULES))
def test_random_boards_solvable_or_not_agree_with_lazy_cuts(puzzle, rules):
    agree(puzzle, rules)


@settings(max_examples=25, deadline=None)
@given(fillings, st.sampled_from(RULES))
def test_solutions_counted_agree_with_lazy_cuts(board, rules):
    height, width, seed, mean, _ = board
    puzzle = puzzle_of(random_filling(min(height, 4), min(width, 4), random.Random(seed), mean,
                                      rules.self_touch), min(height, 4), min(width, 4))
    counts = {len(solve_many(puzzle, 30, encoding=encoding, rules=rules, compiled="off",
                             **({"solver": "cadical195"} if encoding == LAZY else {}))[1])
              for encoding in (LAZY, PROPAGATOR, BARE)}
    assert len(counts) == 1 and counts != {0}, (puzzle.rows, rules, counts)


# --- during search: what the propagator explains ----------------------------------------------

def grid(height: int, width: int, dots: dict[int, int], fill_all: bool = True) -> Connectivity:
    """A propagator on a grid (link k's variable is k + 1), not attached to a solver."""
    ends = [(r * width + c, r * width + c + 1) for r in range(height) for c in range(width - 1)]
    ends += [(r * width + c, (r + 1) * width + c) for r in range(height - 1)
             for c in range(width)]
    colors = [dots.get(i, -1) for i in range(height * width)]
    return Connectivity(ends, range(1, len(ends) + 1), colors, Rules(fill_all=fill_all))


def var(engine: Connectivity, i: int, j: int) -> int:
    return engine.var[engine.link(i, j)]


def test_a_closed_cycle_is_explained_at_once():
    engine = grid(3, 3, {0: 0, 8: 0}, fill_all=False)  # 0 1 2 / 3 4 5 / 6 7 8
    engine.on_new_level()
    ring = [var(engine, *pair) for pair in [(1, 2), (2, 5), (5, 4), (4, 1)]]
    for lit in ring[:3]:
        engine.on_assignment(lit)
    closing = -var(engine, 4, 1)
    assert engine.propagate() == [closing]  # the link that would close it goes false
    assert sorted(engine.provide_reason(closing)) == sorted([closing, *(-x for x in ring[:3])])
    engine.on_backtrack(0)
    engine.on_new_level()
    for lit in ring:
        engine.on_assignment(lit)
    assert engine.propagate() == [] and engine.has_clause()
    assert sorted(engine.add_clause()) == sorted(-x for x in ring)
    assert engine.stats["propagator_cycles"] == 1


def test_a_dot_cut_off_from_its_partner_is_explained_by_the_false_links_around_it():
    engine = grid(2, 3, {0: 0, 5: 0})  # 0 1 2 / 3 4 5
    engine.on_new_level()
    walls = [var(engine, 0, 1), var(engine, 0, 3)]
    for x in walls:
        engine.on_assignment(-x)
    assert engine.propagate() == [] and engine.has_clause()
    assert sorted(engine.add_clause()) == sorted(walls)  # one of them must be a link
    assert engine.stats["propagator_cuts"] == 1
    engine.on_backtrack(0)  # undone: nothing to explain
    assert engine.value == [0] * len(engine.var)


def test_two_colors_joined_and_a_model_with_a_cycle_are_refused():
    engine = grid(2, 3, {0: 0, 2: 1}, fill_all=False)
    engine.on_new_level()
    join = [var(engine, 0, 1), var(engine, 1, 2)]
    for x in join:
        engine.on_assignment(x)
    engine.propagate()
    assert sorted(engine.add_clause()) == sorted(-x for x in join)
    engine.on_backtrack(0)
    cycle = [var(engine, *pair) for pair in [(0, 1), (1, 4), (4, 3), (3, 0)]]
    model = [x if x in cycle else -x for x in engine.var]
    assert engine.check_model(model) is False and engine.stats["propagator_rejections"] == 1
    assert sorted(engine.add_clause()) == sorted(-x for x in cycle)


def test_on_cadical_a_cycle_is_prevented_and_a_cut_proved_without_search():
    rules = Rules(self_touch=True, fill_all=False)  # the clauses allow cycles away from dots
    formula = encode(Puzzle.from_text("A.... / ..... / ..... / ....A"), PROPAGATOR, rules)

    def link(a: tuple[int, int], b: tuple[int, int]) -> int:
        return formula.links.edge(a[0] * 5 + a[1], b[0] * 5 + b[1])

    ring = [link((1, 1), (1, 2)), link((1, 2), (2, 2)), link((2, 2), (2, 1)),
            link((2, 1), (1, 1))]
    wall = [-link((0, 1), (0, 2)), -link((1, 1), (1, 2)), -link((1, 1), (2, 1)),
            -link((1, 0), (2, 0))]  # A's dot (0, 0) shut in a corner of four cells
    for propagator in (False, True):
        with Solver(name="cadical195", bootstrap_with=formula.clauses) as sat:
            engine = connect(formula, sat) if propagator else None  # the registry's hook
            assert sat.solve(assumptions=ring) is not propagator  # a cycle: a model without
            before = sat.accum_stats()["conflicts"]
            assert sat.solve(assumptions=wall) is False
            conflicts = sat.accum_stats()["conflicts"] - before
        if propagator:
            assert engine.stats["propagator_propagations"] >= 1
            assert engine.stats["propagator_cuts"] == 1 and conflicts == 0
        else:
            assert conflicts > 0  # the clauses alone search for it


def test_another_solver_is_one_line_and_exit_2():
    file = str(PUZZLES / "examples" / "flow_5x5.txt")
    result = CliRunner().invoke(app, ["solve", file, "--encoding", PROPAGATOR,
                                      "--solver", "glucose4"])
    assert result.exit_code == 2
    assert "runs on --solver cadical195 only, not glucose4" in result.output
    assert len(result.output.strip().splitlines()) == 1
    ok = CliRunner().invoke(app, ["solve", file, "--encoding", PROPAGATOR, "--format", "json"])
    assert ok.exit_code == 0 and '"solver":"cadical195"' in ok.output
    assert '"propagator_cut_checks"' in ok.output


def test_the_registry_entry_says_its_needs_its_solver_and_the_colorless_variant():
    """`cycles = "propagator"` is one registry entry: it needs edge links, keeps the spec off
    the compiled boards and names its solver (the default without `--solver`, in `bench` the
    only one crossed with it); `cells = "none"` goes with edge links only beside it and eager
    touch clauses."""
    from flowsat.bench.configs import runnable
    from flowsat.sat.options import checked
    from flowsat.sat.spec import load_spec

    for name in (PROPAGATOR, BARE, "edgecolors+cycles=propagator"):
        assert load_spec(name).needs_solver() == "cadical195" and not load_spec(name).compiles
    assert load_spec(LAZY).needs_solver() is None
    assert checked(encoding=BARE).solver == "cadical195"
    assert checked(encoding=PROPAGATOR, solver="cadical153").solver == "cadical153"
    assert runnable({"encoding": PROPAGATOR, "solver": "cadical195"})
    assert not runnable({"encoding": PROPAGATOR, "solver": "glucose4"})
    for wrong, why in [(f"{LAZY}+cells=none", "or with links = 'edges', cycles = 'propagator'"),
                       (f"{BARE}+touch=lazy", "and touch = 'eager'"),
                       ("zucker2016+cycles=propagator", "needs links = 'edges' or")]:
        with pytest.raises(UsageError, match=why):
            load_spec(wrong)
