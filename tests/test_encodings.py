"""The clause families beyond 2016: deductions, squares, eager order, the uniqueness rule
and its fall-back, colors on edges, and encodings changed on the command line."""

from __future__ import annotations

from itertools import pairwise

import pytest

from flowsat.checker import problems
from flowsat.puzzle import Puzzle, read_puzzles
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError
from flowsat.sat import rules
from flowsat.sat.formula import encode
from flowsat.sat.fresh import Fresh
from flowsat.sat.loop import next_solution
from flowsat.sat.spec import CHOICES, changed_spec, load_spec
from flowsat.solve import solve
from tests.conftest import PUZZLES, ZUCKER, needs_shared, sat_search

TWO = Puzzle.from_text("A..B / .BA. / .CC. / ....")  # two solutions
FLOW9 = next(iter(read_puzzles(PUZZLES / "examples" / "flow_9x9.txt")))


def edge_units(formula) -> dict[tuple, bool]:
    """The edges fixed by unit clauses, by their cells."""
    enc, edges = formula.enc, formula.links
    by_var = {e: (enc.cell(i), enc.cell(j)) for (i, j), e in edges.index.items()}
    return {by_var[abs(c[0])]: c[0] > 0 for c in formula.clauses
            if len(c) == 1 and abs(c[0]) in by_var}


def test_deductions_fix_what_the_board_forces():
    puzzle = Puzzle.from_text("AB.. / A.C. / C.B.")
    plain = edge_units(encode(puzzle, "edges-binary"))
    fixed = edge_units(encode(puzzle, "edges-binary+deduce=true"))
    assert plain.items() < fixed.items()  # a corner's exactly-2-of-2 gives units anyway
    assert fixed[(0, 0), (0, 1)] is False  # two dots of different colors
    assert fixed[(0, 2), (0, 3)] is True  # (0, 3) is an empty corner: it takes both its edges
    assert fixed[(0, 3), (1, 3)] is True
    assert fixed[(0, 0), (1, 0)] is True  # the dot A at (0, 0) has one link left
    result = solve(puzzle, encoding="edges-binary+deduce=true")
    assert result.status == "solved" and problems(puzzle, result.paths) == []


def test_adjacent_dots_of_one_color_are_linked_only_without_self_touch():
    puzzle = Puzzle.from_text("AA / ..")
    no_touch = edge_units(encode(puzzle, "edges-binary+deduce=true"))
    touch = edge_units(encode(puzzle, "edges-binary+deduce=true", rules=Rules(self_touch=True)))
    assert no_touch[(0, 0), (0, 1)] is True
    assert touch[(0, 0), (0, 1)] is False  # the empty corners take both their edges


def test_no_squares_forbids_every_2x2_ring_and_without_self_touch_every_u_turn():
    formula = encode(Puzzle.from_text("A... / .... / ...A"), "edges-binary")
    rings = rules.no_squares(formula.enc, formula.links, Rules(self_touch=True))
    assert len(rings) == 4  # six 2x2 squares, two of which hold a dot
    assert all(len(c) == 4 and all(x < 0 for x in c) for c in rings)
    turns = rules.no_squares(formula.enc, formula.links, Rules(self_touch=False))
    assert len(turns) == 6 * 4  # at most two of the four links of each square
    assert all(len(c) == 3 and all(x < 0 for x in c) for c in turns)


def test_corner_rule_clauses():
    formula = encode(Puzzle.from_text("A.. / ... / ..A"), "edges-unique")
    enc, edges, on = formula.enc, formula.links, formula.unique
    clauses = [c for c in formula.clauses if -on in c]
    e = edges.edge
    i = enc.index
    # ┌ at (0, 1): the cell inside, (1, 2), cannot turn ┌ (no right neighbor): never turn
    assert sorted([-on, -e(i((0, 1)), i((0, 2))), -e(i((0, 1)), i((1, 1)))]) in map(
        sorted, clauses)
    # ┌ at (1, 1): the cell inside, (2, 2), is a dot: nothing to ask
    assert not any(-e(i((1, 1)), i((1, 2))) in c and -e(i((1, 1)), i((2, 1))) in c
                   for c in clauses)


def test_a_run_with_the_uniqueness_rule_falls_back_when_it_finds_nothing(monkeypatch):
    monkeypatch.setattr(rules, "corner_rules", lambda enc, links, on: [[-on]])  # never holds
    result = solve(TWO, encoding="edges-unique")
    assert result.status == "solved" and result.stats["route"] == "complete"
    assert problems(TWO, result.paths) == []


def test_the_fall_back_states_every_touch_at_once():
    """Without the corner rule, models touch all over: the complete route, after a lazy-touch
    route, has all no-self-touch clauses from its first solve (no touch cut, two rounds)."""
    sparse = Puzzle.from_text(
        "a...... / ....... / ....... / ....... / ......b / ....... / .....a. / b......")
    for solver in ("glucose4", "minisat22", "cadical195"):
        result = solve(sparse, encoding="edges-unique-lazy", solver=solver)
        assert result.status == "unsolvable" and result.stats["route"] == "complete"
        assert result.stats["rounds"] == 2 and "touch_cuts" not in result.stats


def test_uniqueness_rule_route_is_reported():
    result = solve(TWO, encoding="edges-unique")
    assert result.status == "solved" and problems(TWO, result.paths) == []
    assert result.stats["route"] in ("uniqueness rule", "complete")
    assert solve(FLOW9, encoding="edges-unique").stats["route"] == "uniqueness rule"
    crossing = Puzzle.from_text("A.B / ... / B.A")
    result = solve(crossing, encoding="edges-unique")
    assert result.status == "unsolvable" and result.stats["route"] == "complete"


def test_counting_solutions_keeps_the_rule_on_and_finds_every_solution():
    for encoding in ("edges-unique", "edges-binary"):
        result, found = sat_search(TWO, 5, encoding=encoding)
        assert len(found) == 2 and result.stats["exhausted"] and "route" not in result.stats


def test_eager_order_never_needs_a_cut():
    puzzle = Puzzle(tuple(["A" + "." * 6 + "A"] + ["." * 8] * 6 + ["B" + "." * 6 + "B"]))
    lazy = solve(puzzle, encoding="edges-binary", rules=Rules(self_touch=True))
    eager = solve(puzzle, encoding="edges-binary+cycles=order", rules=Rules(self_touch=True))
    assert lazy.status == eager.status == "solved"
    assert eager.stats["cycle_cuts"] == 0


@needs_shared
def test_eager_order_on_a_puzzle_that_invites_cycles():
    (puzzle,) = read_puzzles(ZUCKER / "jumbo_14x14_01.txt")
    result = solve(puzzle, encoding="edges-binary+cycles=order")
    assert result.status == "solved" and result.stats["cycle_cuts"] == 0


def test_colors_on_edges_only():
    formula = encode(FLOW9, "edgecolors")
    assert not any(kind in ("bit", "color") for _, kind, _ in formula.enc.blocks)
    result = solve(FLOW9, encoding="edgecolors")
    assert result.status == "solved" and problems(FLOW9, result.paths) == []


def test_changes_to_a_named_encoding():
    spec = load_spec("edges-binary+card=ladder+deduce=true")
    assert (spec.name, spec.card, spec.deduce) == ("edges-binary+card=ladder+deduce=true",
                                                   "ladder", True)
    for bad, words in [("edges-binary+color=red", "no family 'color'"),
                       ("edges-binary+card=fast", "card = 'fast'; choose from"),
                       ("zucker2016+cycles=order", "needs links = 'edges'"),
                       ("edges-binary+cells=none", "goes with links = 'edgecolors'")]:
        with pytest.raises(UsageError, match=words):
            load_spec(bad)


def test_a_spec_file_is_read_anew_each_time_a_built_in_one_is_kept(tmp_path):
    """`load_spec` keeps what it read of a built-in name (with its changes), never a file's:
    an encoding file changed between two searches is read as it is now."""
    path = tmp_path / "mine.toml"
    path.write_text('summary = "mine"\ncells = "binary"\nlinks = "edges"\n')
    assert load_spec(str(path)).card == "pairwise"
    path.write_text('summary = "mine"\ncells = "binary"\nlinks = "edges"\ncard = "ladder"\n')
    assert load_spec(str(path)).card == "ladder"
    assert load_spec(f"{path}+card=totalizer").card == "totalizer"
    path.write_text('summary = "mine"\ncells = "binary"\nlinks = "dirtypes"\n')
    assert load_spec(f"{path}+card=totalizer").links == "dirtypes"
    for name in ("edges-turns", "edges-binary+card=ladder", "edges-turns+unique=false"):
        assert load_spec(name) == changed_spec(name)
    assert load_spec("edges-turns+unique=false").unique is False
    assert load_spec("edges-turns").unique is True


@pytest.mark.parametrize("card", ["seqcounter", "ladder", "totalizer", "sortnetwrk"])
def test_pysat_cardinality_encodings(card):
    result = solve(FLOW9, encoding=f"zucker2016+card={card}")
    assert result.status == "solved" and problems(FLOW9, result.paths) == []
    assert result.stats["variables"] > encode(FLOW9, "zucker2016").enc.top


def test_lazy_touch_adds_the_no_touch_clauses_where_a_model_touches():
    from tests.test_sat import ScriptedOracle

    puzzle = Puzzle.from_text("A.. / A..")  # its one filling touches itself
    formula = encode(puzzle, "edges-binary+touch=lazy")
    assert formula.lazy_touch
    enc, edges = formula.enc, formula.links
    around = [(0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0)]
    on = {edges.edge(enc.index(a), enc.index(b)) for a, b in pairwise(around)}
    model = [v if v in on else -v for v in range(1, enc.top + 1)]
    oracle, stats = ScriptedOracle([model]), {"solve_s": 0, "rounds": 0, "cycle_cuts": 0}
    answer, _, _ = next_solution(Fresh(formula, oracle, None, stats, 1, ()))
    assert answer is False and stats["touch_cuts"] == 2
    touching = [(enc.index((0, 0)), enc.index((1, 0))), (enc.index((0, 1)), enc.index((1, 1)))]
    assert oracle.added == encode(puzzle, "edges-binary+touch=lazy").differ(
        [(i, j, -edges.edge(i, j)) for i, j in touching])
    assert solve(puzzle, encoding="edges-binary+touch=lazy").status == "unsolvable"
    assert not encode(puzzle, "edges-binary+touch=lazy", rules=Rules(self_touch=True)).lazy_touch


def test_every_choice_of_the_registry_names_what_writes_it():
    """Each registered choice's class or function loads; the families, the printers and
    `Spec.compiles` are made from the registry: a choice that does not compile keeps every
    spec that takes it off the compiled boards."""
    from flowsat.sat import choices

    for choice in choices.CHOSEN:
        for target in (choice.make, choice.write, choice.connect):
            assert not target or callable(choices.loaded(target))
        assert choice.name in CHOICES[choice.family]
    spec = load_spec("edges-turns")
    assert spec.compiles and all(f"{family}=" in spec.choices for family in CHOICES)
    for change in ("cycles=squares", "deduce=true", "card=ladder", "links=dirtypes"):
        assert not load_spec(f"edges-binary+{change}").compiles


class CountingEngine:
    """A propagator that watches every link variable and only counts what it is told (its
    `stats` join the search's)."""

    def __init__(self):
        self.stats = {"engine_assignments": 0, "engine_models": 0}

    def on_assignment(self, lit: int, fixed: bool = False) -> None:
        self.stats["engine_assignments"] += 1

    def on_new_level(self) -> None:
        pass

    def on_backtrack(self, to: int) -> None:
        pass

    def check_model(self, model: list[int]) -> bool:
        self.stats["engine_models"] += 1
        return True

    def decide(self) -> int:
        return 0

    def propagate(self) -> list[int]:
        return []

    def provide_reason(self, lit: int) -> list[int]:
        return []

    def add_clause(self) -> list[int]:
        return []

    def has_clause(self) -> bool:
        return False


def counting_engine(formula, solver):
    """`Choice.connect` of the test's choice: the engine attached, every edge observed."""
    from pysat.engines import Propagator

    engine = type("Counting", (CountingEngine, Propagator), {})()
    solver.connect_propagator(engine)
    for var in formula.links.var_array.tolist():
        solver.observe(var)
    return engine


def test_a_choice_that_carries_an_engine_is_one_registry_entry(monkeypatch):
    """A cycles choice that names a `connect` function (as a propagator would) is taken by
    the spec, kept off the compiled boards, attached to the solver before its first solve,
    its stats in the answer's; a solver that takes no propagator is one clear UsageError."""
    from flowsat.sat import choices

    probe = choices.Choice("cycles", "probe", (("links", ("edges",)),),
                           connect="tests.test_encodings:counting_engine")
    monkeypatch.setitem(choices.REGISTRY, ("cycles", "probe"), probe)
    monkeypatch.setitem(choices.FAMILIES, "cycles", (*choices.FAMILIES["cycles"], "probe"))
    spec = load_spec("edges-binary+cycles=probe")
    assert not spec.compiles and "cycles=probe" in spec.choices
    with pytest.raises(UsageError, match="cycles = 'probe' needs links = 'edges'"):
        load_spec("zucker2016+cycles=probe")
    result = solve(FLOW9, encoding="edges-binary+cycles=probe", solver="cadical195")
    assert result.status == "solved" and problems(FLOW9, result.paths) == []
    assert result.stats["engine_assignments"] > 0 and result.stats["engine_models"] >= 1
    with pytest.raises(UsageError, match="cycles = 'probe' on glucose4"):
        solve(FLOW9, encoding="edges-binary+cycles=probe", solver="glucose4")
