"""`flowsat count` and its three counters: they agree on every puzzle they all finish (random
boards of every kind, every rule set), with TdZdd's `ddnumlin` where it is built, and the
command says counts, bounds and exit statuses as documented."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from flowsat.backend import Limits
from flowsat.count import REGISTRY, count, counter
from flowsat.generate.filling import puzzle_of, random_filling
from flowsat.puzzle import Puzzle, read_puzzles
from flowsat.puzzle.board import Board
from flowsat.puzzle.rules import Rules
from tests.conftest import PUZZLES, ROOT

RULES = [Rules(False, True), Rules(True, True), Rules(False, False), Rules(True, False)]
DDNUMLIN = Path(os.environ.get("FLOWSAT_DDNUMLIN", ROOT.parent / "anchors-bin" / "ddnumlin"))
LABELS = "ABCDEFGH"


SHARP_SAT_S = 1.0  # Ganak on the order encoding can take seconds on a board of 16 cells: it is
# compared where it finishes (frontier and enumerate must finish these small boards)


LIMIT = 1000  # enumeration's pace: counts are compared up to this many


def every_count(puzzle: Puzzle, rules: Rules, names: Iterable[str] = REGISTRY
                ) -> dict[str, int]:
    """Each counter's count up to LIMIT, sharp-sat's only when it finished in time."""
    found = {}
    for name in names:
        c = count(puzzle, rules, name, limit=LIMIT,
                  limits=Limits(SHARP_SAT_S if name == "sharp-sat" else 60))
        assert c.status != "timeout" or name == "sharp-sat", (name, puzzle.rows)
        if c.status != "timeout":
            assert isinstance(c.value, int)
            found[name] = c.value
    return found


def random_puzzle(rng: random.Random, board: Board, colors: int) -> Puzzle | None:
    """Dots of `colors` colors on random cells of the board, never a bridge (None: too few
    cells)."""
    cells = [i for i in board.cells if i not in board.bridges]
    if len(cells) < 2 * colors:
        return None
    grid = [["."] * board.width for _ in range(board.height)]
    for k, i in enumerate(rng.sample(cells, 2 * colors)):
        r, c = board.cell(i)
        grid[r][c] = LABELS[k // 2]
    return Puzzle(tuple("".join(row) for row in grid), board=board)


def random_board(rng: random.Random, kind: str) -> Board:
    """A small board of that kind: square, hex, holes, walls, warps or bridges."""
    w, h = rng.randint(3, 5), rng.randint(3, 4)
    if kind == "hex":
        return Board(w + w % 2, h, shape="hex", wrap=rng.random() < 0.3)
    if kind == "warps":
        return Board(w, h, wrap=True)
    if kind == "holes":
        return Board(w, h, holes=frozenset(rng.sample(range(w * h), 2)))
    if kind == "walls":
        links = Board(w, h).link_list
        return Board(w, h, walls=frozenset(rng.sample(links, 3)))
    if kind == "bridges":
        return Board(w, h, bridges=frozenset({w + 1}))
    return Board(w, h)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.sampled_from(["square", "hex", "holes", "walls", "warps",
                                               "bridges"]),
       st.integers(1, 3), st.sampled_from(RULES))
def test_the_counters_agree_on_random_boards_of_every_kind(seed, kind, colors, rules):
    rng = random.Random(seed)
    board = random_board(rng, kind)
    assert board.problem() is None
    puzzle = random_puzzle(rng, board, colors)
    if puzzle is not None:
        found = every_count(puzzle, rules)
        assert len(set(found.values())) == 1, (kind, puzzle.rows, rules, found)


@settings(max_examples=12, deadline=None)
@given(st.integers(3, 4), st.integers(3, 5), st.integers(0, 2**32), st.booleans())
def test_the_counters_agree_on_puzzles_cut_from_fillings(height, width, seed, touch):
    filling = random_filling(height, width, random.Random(seed), 4.0, touch)
    puzzle = puzzle_of(filling, height, width)
    for rules in RULES:
        found = every_count(puzzle, rules)
        assert len(set(found.values())) == 1, (puzzle.rows, rules, found)
        if rules.self_touch or rules == Rules(touch):
            assert found["frontier"] >= 1  # the filling itself is one


@pytest.mark.parametrize("file", ["kinds/square.txt", "kinds/hex.txt",
                                  "kinds/handmade/no_touch.txt"])
def test_the_counters_agree_on_the_kinds_of_the_corpus(file):
    """Every counter under the default rules; under the looser ones all but sharp-sat, whose
    Ganak takes seconds on these 25-cell boards there (it is compared under every rule set
    on the random boards above)."""
    looser = [name for name in REGISTRY if name != "sharp-sat"]
    for puzzle in read_puzzles(PUZZLES / file):
        rules = RULES[:1] if puzzle.board.size > 40 else RULES  # the larger: default only
        for r in rules:
            found = every_count(puzzle, r, REGISTRY if r == RULES[0] else looser)
            assert "frontier" in found and len(set(found.values())) == 1, (puzzle.name, r, found)


def ddnumlin(puzzle: Puzzle, fill_all: bool, tmp: Path) -> int:
    """TdZdd's count with self-touch allowed (`-a`), every cell filled or not (`-k 0`)."""
    labels = {c: str(k + 1) for k, c in enumerate(puzzle.dots)}
    text = f"{puzzle.width} {puzzle.height}\n" + "".join(
        " ".join(labels.get(ch, "-") for ch in row) + "\n" for row in puzzle.rows)
    (tmp / "board.txt").write_text(text)
    args = [str(DDNUMLIN), "-a", "-m", "0", *(["-k", "0"] if fill_all else []),
            str(tmp / "board.txt")]
    out = subprocess.run(args, capture_output=True, text=True, timeout=60)
    return int(re.search(r"#solution = (\d+)", out.stdout + out.stderr).group(1))


@pytest.mark.skipif(not DDNUMLIN.exists(), reason="ddnumlin is not built (../anchors-bin)")
@settings(max_examples=30, deadline=None)
@given(st.integers(2, 6), st.integers(2, 6), st.integers(0, 2**32), st.integers(1, 4),
       st.booleans())
def test_frontier_counts_as_ddnumlin_with_self_touch(width, height, seed, colors, fill_all):
    import tempfile

    puzzle = random_puzzle(random.Random(seed), Board(width, height), colors)
    if puzzle is not None:
        with tempfile.TemporaryDirectory() as tmp:
            want = ddnumlin(puzzle, fill_all, Path(tmp))
        assert count(puzzle, Rules(True, fill_all), "frontier").value == want, puzzle.rows


def test_the_frontier_count_of_corner_to_corner_paths_is_the_published_one():
    """One color in opposite corners of an 8x8 board, cells free to stay empty, paths free to
    touch: the self-avoiding rook paths joining opposite corners, OEIS A007764(8)."""
    puzzle = Puzzle.from_text("A....... / ........ / ........ / ........ / ........ / "
                              "........ / ........ / .......A")
    found = count(puzzle, Rules(True, False), "frontier")
    assert found.exact and found.value == 789_360_053_252


def test_a_limit_gives_a_lower_bound():
    puzzle = Puzzle.from_text("A... / .... / .... / ...A")
    whole = count(puzzle, Rules(True, False), "frontier").value
    assert whole > 2
    for name in REGISTRY:
        found = count(puzzle, Rules(True, False), name, limit=2)
        assert (found.value, found.exact, found.status) == (2, False, "limit")


def test_sharp_sat_refuses_an_encoding_that_cuts_cycles_lazily():
    from dataclasses import replace

    lazy = replace(counter("sharp-sat"), encoding="edges-binary")
    assert "lazily" in lazy.refuses(Puzzle.from_text("A.A"), Rules())


def cli(*args: str):
    from flowsat.commands import app

    return CliRunner().invoke(app, ["count", *args])


def test_the_command_counts_in_json(tmp_path):
    file = tmp_path / "open.txt"
    file.write_text("A......\n" + ".......\n" * 5 + "......A\n")
    result = cli("--allow-self-touch", "--allow-empty", "--format", "json", str(file))
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["count"] == 575_780_564 and record["exact"] is True  # A007764(7)


def test_counts_past_64_bits_are_written_as_json_integers():
    from flowsat.count.answer import Answer
    from flowsat.count.contract import Count

    puzzle = Puzzle.from_text("A.A")
    big = 41_044_208_702_632_496_804  # A007764(10), past 2^64
    written = json.dumps(Answer(Count(big, True, "counted"), Rules()).record(puzzle))
    assert f'"count": {big},' in written and json.loads(written)["count"] == big


def test_the_command_says_a_bound_at_the_limit_and_exits_3():
    result = cli("--allow-self-touch", "--limit", "2", "--counter", "enumerate",
                 str(PUZZLES / "kinds" / "handmade" / "self_touch.txt"))
    assert result.exit_code == 3
    assert "at least 2 solutions (limit)" in result.output


def test_the_command_shows_checked_solutions():
    result = cli("--show", "1", "--format", "json", str(PUZZLES / "examples" / "flow_5x5.txt"))
    assert result.exit_code == 0
    record = json.loads(result.output)
    assert record["count"] == 1 and len(record["solutions"]) == 1
    assert "." not in "".join(record["solutions"][0])


def test_bad_input_is_one_line_and_the_other_files_still_count(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("A.\n.\n")
    result = cli(str(bad), str(PUZZLES / "examples" / "flow_5x5.txt"))
    assert result.exit_code == 2
    assert "flow_5x5.txt: 1 solution" in result.output


def test_a_plan_races_the_counters_and_records_their_counts(tmp_path):
    from flowsat.bench.planfile import read_plan

    plan = tmp_path / "count.toml"
    plan.write_text(f"""out = "{tmp_path / 'out'}"
timeout = 30
[[sets]]
name = "touching"
paths = ["{PUZZLES / 'kinds' / 'square.txt'}"]
rules = {{ self_touch = true }}
[[configs]]
counter = "frontier"
[[configs]]
counter = "enumerate"
limit = 100000
""")
    assert [c.name for c in read_plan(plan).configs()] == ["count/frontier", "count/enumerate"]
    from flowsat.commands import app

    result = CliRunner().invoke(app, ["bench", "--plan", str(plan)])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").open()]
    counts: dict[str, dict[str, int]] = {}
    for r in records:
        assert r["status"] == "solved" and r["stats"]["exact"], r
        counts.setdefault(r["config"], {})[r["name"]] = r["stats"]["count"]
    assert counts["count/frontier"] == counts["count/enumerate"]
    assert max(counts["count/frontier"].values()) > 1  # self-touch: several solutions


def test_a_counting_row_with_a_backend_s_option_is_a_usage_error(tmp_path):
    from flowsat.bench.planfile import read_plan
    from flowsat.result import UsageError

    plan = tmp_path / "bad.toml"
    plan.write_text(f"""[[sets]]
name = "a"
paths = ["{PUZZLES / 'examples' / 'flow_5x5.txt'}"]
[[configs]]
counter = "frontier"
solver = "glucose4"
""")
    with pytest.raises(UsageError, match="solver does not apply to a counter"):
        read_plan(plan)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["square", "hex", "holes", "walls", "warps",
                                               "bridges"]),
       st.integers(1, 4), st.booleans())
def test_the_array_sweep_counts_as_the_dict_sweep(seed, kind, colors, fill_all):
    """Under self-touch the frontier counter sweeps numpy arrays; the dict sweep (which also
    takes that rule) is its reference."""
    from flowsat.count.arrays import ArraySweeper
    from flowsat.count.frontier import Sweeper

    rng = random.Random(seed)
    puzzle = random_puzzle(rng, random_board(rng, kind), colors)
    if puzzle is not None:
        rules = Rules(True, fill_all)
        want = Sweeper(puzzle, rules, Limits(60)).run()
        for backward in (False, True):  # the sweep from either end of the board
            got = ArraySweeper(puzzle, rules, Limits(60), None, backward).run()
            assert got.exact and got.value == want.value, (kind, puzzle.rows, rules, backward)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["square", "hex", "holes", "walls", "warps",
                                               "bridges"]),
       st.integers(1, 4), st.booleans(), st.booleans(), st.floats(1.0, 2.0),
       st.integers(0, 3))
def test_the_raced_sweeps_count_as_the_dict_sweep(seed, kind, colors, self_touch, fill_all,
                                                  factor, budget):
    """The array sweeps race from both ends of the board and go on with the one that keeps
    fewer states: whichever they keep, wherever they drop the other (the race's bounds made
    small here, so that one drops early), the count is the same, under every rule."""
    from unittest import mock

    from flowsat.count import arrays
    from flowsat.count.apart import ApartSweeper
    from flowsat.count.frontier import Sweeper

    rng = random.Random(seed)
    puzzle = random_puzzle(rng, random_board(rng, kind), colors)
    if puzzle is None:
        return
    rules = Rules(self_touch, fill_all)
    want = Sweeper(puzzle, rules, Limits(60)).run()
    sweeper = arrays.ArraySweeper if self_touch else ApartSweeper
    with mock.patch.multiple(arrays, RACE_FACTOR=factor, RACE_SLACK=0, RACE_BUDGET=budget):
        got = arrays.raced([sweeper(puzzle, rules, Limits(60), None, backward)
                            for backward in (False, True)])
    assert got.exact and got.value == want.value, (kind, puzzle.rows, rules)


@pytest.mark.parametrize("rules, raced", [(Rules(True), True), (Rules(False, False), True),
                                          (Rules(), False)])
def test_the_frontier_races_the_ends_except_with_every_cell_filled_and_no_self_touch(
        rules, raced):
    """Where the end a sweep starts from decides between few states and many (self-touch,
    empty cells) the frontier races both ends; with every cell filled and no self-touch
    both keep few, and one end is swept."""
    puzzle = Puzzle.from_text("A...B / ..... / ..C.. / ..... / A.C.B")
    found = count(puzzle, rules, "frontier")
    assert found.exact and found.value == count(puzzle, rules, "enumerate").value
    assert ("backward" in found.stats) == raced


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["square", "hex", "holes", "walls", "warps",
                                               "bridges"]),
       st.integers(1, 4), st.booleans())
def test_the_no_self_touch_array_sweep_counts_as_the_dict_sweep(seed, kind, colors, fill_all):
    """Under no-self-touch the frontier counter sweeps components and pairs kept apart as
    bitmasks in arrays; the dict sweep, with labels and pairs of labels, is its reference."""
    from flowsat.count.apart import ApartSweeper
    from flowsat.count.frontier import Sweeper

    rng = random.Random(seed)
    puzzle = random_puzzle(rng, random_board(rng, kind), colors)
    if puzzle is not None:
        rules = Rules(False, fill_all)
        want = Sweeper(puzzle, rules, Limits(60)).run()
        for backward in (False, True):  # the sweep from either end of the board
            sweeper = ApartSweeper(puzzle, rules, Limits(60), None, backward)
            assert sweeper.fits()
            got = sweeper.run()
            assert got.exact and got.value == want.value, (kind, puzzle.rows, rules, backward)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(4, 6), st.integers(4, 6), st.integers(3, 8),
       st.booleans())
def test_the_crossing_check_keeps_the_count_on_plain_boards(seed, height, width, colors,
                                                            cut):
    """Where cells may stay empty on a plain grid, the no-self-touch array sweep drops the
    states in which two colors' open ends alternate along the frontier (`apart.crossing`);
    the dict sweep, which has no such check, is its reference. Many colors, so that pairs
    of chords are common; half the puzzles cut from fillings, so that most have solutions."""
    from flowsat.count.apart import ApartSweeper
    from flowsat.count.frontier import Sweeper

    rng = random.Random(seed)
    puzzle = (puzzle_of(random_filling(height, width, rng, 3.0, False), height, width) if cut
              else random_puzzle(rng, Board.square(width, height), colors))
    if puzzle is not None:
        rules = Rules(False, False)
        want = Sweeper(puzzle, rules, Limits(60)).run()
        for backward in (False, True):  # (the frontier's order along its line either way)
            got = ApartSweeper(puzzle, rules, Limits(60), None, backward).run()
            assert got.exact and got.value == want.value, (puzzle.rows, backward)


def test_crossing_finds_two_colors_alternating_unless_a_loose_path_passes_over():
    """Open ends a, b, a, b along the frontier cannot both be joined; a, b, b, a can; a
    loose path (no color) with an open end between its two ends may carry one over the
    other, one whose ends are side by side may not."""
    from flowsat.count.apart import crossing

    def crosses(line: str) -> bool:
        """`line`: a frontier's open ends in order, a letter a color, L a loose path's."""
        node = np.array([[1 | (0 if c == "L" else ord(c) - 96) << 2] for c in line])
        comp = np.array([[1 << (0 if c == "L" else k + 1)] for k, c in enumerate(line)])
        dot = np.zeros((len(line), 1), dtype=bool)
        return bool(crossing(node, comp, dot, np.arange(len(line)))[0])

    assert crosses("abab") and crosses("abcbca") and crosses("abcab") and crosses("aLLbab")
    assert crosses("LababL")  # the loose path's ends side by side round the line's ends
    assert not crosses("abba") and not crosses("abcba") and not crosses("aLbLab")
    assert not crosses("aLbaLb") and not crosses("LabaLb")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["square", "hex", "holes", "walls", "warps",
                                               "bridges"]), st.booleans())
def test_mate_codes_are_distinct_in_a_frontier_and_kept_while_a_node_stays(seed, kind,
                                                                           fill_all):
    """The self-touch sweep names a mate by a code, not its slot, so that a leave moves no
    mate: within each frontier the codes differ, each code's slot is its node's, and a
    node keeps its code from step to step."""
    from flowsat.count.arrays import mate_codes
    from flowsat.count.sweep import sweep

    rng = random.Random(seed)
    puzzle = random_puzzle(rng, random_board(rng, kind), 2)
    if puzzle is None:
        return
    steps = sweep(puzzle, Rules(True, fill_all)).steps
    before: list[int] = []
    for step, (codes, slots) in zip(steps, mate_codes(steps), strict=True):
        now = [int(c) for c in codes[:-1]]
        assert codes[-1] == 0 and slots[0] == -1 and 0 not in now
        assert len(set(now)) == len(now) and [slots[c] for c in now] == list(range(len(now)))
        assert now[:len(before)] == before  # the nodes staying, then those entering
        before = [now[k] for k in step.keep]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 5), st.integers(1, 60), st.integers(0, 62))
def test_merging_states_sums_the_counts_of_equal_ones(seed, width, n, bits):
    """The array sweeps merge equal states (packed into words, sorted by a hash) into one
    each, with the sum of their counts: as a dict of tuples does."""
    from flowsat.count.arrays import merged

    rng = np.random.default_rng(seed)
    pool = rng.integers(0, 2**bits, size=(width, 4), dtype=np.int64)
    nodes = pool[:, rng.integers(0, 4, size=n)]  # columns repeat
    ways = rng.integers(1, 10**6, size=n, dtype=np.int64)
    want: dict[tuple, int] = {}
    for k in range(n):
        want[tuple(nodes[:, k])] = want.get(tuple(nodes[:, k]), 0) + int(ways[k])
    got_nodes, got_ways = merged(nodes, ways)
    got = {tuple(got_nodes[:, k]): int(got_ways[k]) for k in range(len(got_ways))}
    assert got == want and len(got_ways) == len(want)

@settings(max_examples=10, deadline=None)
@given(st.integers(5, 6), st.integers(5, 6), st.integers(0, 2**32),
       st.sampled_from(RULES[1:]))
def test_enumerate_counts_as_the_frontier_under_the_looser_rules(height, width, seed, rules):
    filling = random_filling(height, width, random.Random(seed), 5.0, rules.self_touch)
    puzzle = puzzle_of(filling, height, width)
    frontier = count(puzzle, rules, "frontier", limit=LIMIT)
    enumerated = count(puzzle, rules, "enumerate", limit=LIMIT, limits=Limits(60))
    assert frontier.value >= 1  # the filling itself is one (or, with empty cells, one fewer)
    assert (enumerated.value, enumerated.exact) == (frontier.value, frontier.exact), puzzle.rows


@settings(max_examples=10, deadline=None)
@given(st.integers(4, 5), st.integers(4, 5), st.integers(0, 2**32), st.sampled_from(RULES),
       st.integers(0, 5))
def test_an_enumeration_stopped_and_run_on_counts_as_one_run(height, width, seed, rules, stop):
    from flowsat.count.enumerate import Enumeration

    filling = random_filling(height, width, random.Random(seed), 5.0, rules.self_touch)
    puzzle = puzzle_of(filling, height, width)
    frontier = count(puzzle, rules, "frontier")
    with Enumeration(puzzle, rules) as listing:
        listing.run(None, stop)  # stopped at `stop` solutions, as auto's deadline stops it
        assert listing.counted().value == min(stop, frontier.value)
        listing.run(None)
        counted = listing.counted()
    assert (counted.value, counted.exact) == (frontier.value, True), puzzle.rows
    assert counted.stats["conflicts"] >= 0


def test_enumerate_proves_on_cadical_where_cells_may_stay_empty_and_on_glucose_elsewhere():
    puzzle = Puzzle.from_text("A..B / .... / B..A")
    solvers = {rules: count(puzzle, rules, "enumerate").stats["solver"] for rules in RULES}
    assert solvers == {Rules(False, True): "glucose4", Rules(True, True): "glucose4",
                       Rules(False, False): "cadical195", Rules(True, False): "glucose4"}
    on_cadical = count(puzzle, Rules(False, False), "enumerate")
    assert on_cadical.exact and on_cadical.value == count(puzzle, Rules(False, False),
                                                          "frontier").value
    assert on_cadical.stats["solver_options"] == {"stabilize": 0, "walk": 0}  # focused mode


OPEN = "A..... / ...... / ...... / ...... / ...... / .....A"  # millions of paths, cells free


def test_auto_races_enumerate_and_the_frontier_once_enumerate_is_not_quick(monkeypatch):
    from flowsat.count import auto

    quick = count(Puzzle.from_text("A.A / B.B"), Rules(), "auto")  # no race: enumerate alone
    assert (quick.value, quick.stats["answered_by"], "raced" in quick.stats) == (
        1, "enumerate", False)
    monkeypatch.setattr(auto, "QUICK_TOUCH_S", 0.0)
    puzzle = Puzzle.from_text(OPEN)
    found = count(puzzle, Rules(True, False), "auto")
    assert found.counter == "auto" and found.exact
    assert found.value == count(puzzle, Rules(True, False), "frontier").value
    assert found.stats["answered_by"] in found.stats["raced"]


@pytest.mark.parametrize("rules, first", [(Rules(True), "frontier"),
                                          (Rules(False, False), "frontier"),
                                          (Rules(), "enumeration")])
def test_auto_starts_the_frontier_at_once_under_the_looser_rules(monkeypatch, rules, first):
    from flowsat.count import auto
    from flowsat.count.enumerate import Enumeration

    started: list[str] = []
    start_child, build = auto.start_child, Enumeration.__init__
    monkeypatch.setattr(auto, "start_child", lambda children, name, work: (
        started.append(name), start_child(children, name, work)))
    monkeypatch.setattr(Enumeration, "__init__", lambda self, *args: (
        started.append("enumeration"), build(self, *args))[0])
    monkeypatch.setattr(auto, "QUICK_S", 0.0)
    monkeypatch.setattr(auto, "QUICK_TOUCH_S", 0.0)
    puzzle = Puzzle.from_text("A...A / ..... / B...B")
    found = count(puzzle, rules, "auto")
    assert found.exact and found.value == count(puzzle, rules, "frontier").value
    assert started[0] == first and sorted(started) == ["enumerate", "enumeration", "frontier"]


def test_auto_raises_what_a_raced_counter_raised(monkeypatch):
    from flowsat.count import auto
    from flowsat.count.frontier import FrontierCounter

    def broken(*_):
        raise RuntimeError("a solution failed the checker")

    monkeypatch.setattr(auto, "QUICK_TOUCH_S", 0.0)
    monkeypatch.setattr(FrontierCounter, "count", broken)
    with pytest.raises(RuntimeError, match="checker"):
        count(Puzzle.from_text(OPEN), Rules(True, False), "auto", limits=Limits(30))


def test_auto_stops_at_the_timeout_with_a_lower_bound(monkeypatch):
    from flowsat.count import auto

    monkeypatch.setattr(auto, "RACED", ("enumerate",))
    puzzle = Puzzle.from_text(OPEN)
    found = count(puzzle, Rules(True, False), "auto", limits=Limits(0.5))
    assert found.status == "timeout" and not found.exact and found.value > 0


def test_held_memory_lets_errors_through_and_can_be_entered_again():
    """The malloc settings around a sweep never swallow the sweep's error."""
    from flowsat.count.arrays import held_memory

    with pytest.raises(ZeroDivisionError), held_memory():
        _ = 1 // 0
    with held_memory():
        total = int(np.arange(1 << 20).sum())
    assert total == (1 << 20) * ((1 << 20) - 1) // 2
