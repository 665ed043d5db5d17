"""A board compiled once (`flowsat.sat.compiled`): the same statuses as the per-puzzle route
on many puzzles sharing a board, every rule and kind of board, cuts kept between puzzles."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest

from flowsat.backend import NO_LIMITS
from flowsat.generate.cover import random_level
from flowsat.generate.filling import puzzle_of, random_filling
from flowsat.puzzle.board import Board
from flowsat.puzzle.formats import PuzzleError
from flowsat.puzzle.model import EMPTY, Puzzle
from flowsat.puzzle.rules import Rules
from flowsat.sat import BACKEND, board_cnf, boards, compiled
from flowsat.sat.board_cnf import compile_board
from flowsat.sat.kept import Kept
from flowsat.sat.oracle import Oracle, release
from flowsat.sat.search import Search
from flowsat.sat.spec import load_spec
from flowsat.solve import solve as solve_alone
from flowsat.unique import check_unique
from tests.conftest import ROOT, sat_search

KEPT = Kept()  # what a test's run keeps between its puzzles: each test's own (`kept`)


@pytest.fixture(autouse=True)
def kept():
    """Each test runs its puzzles as one run of a caller that keeps its compiled boards."""
    global KEPT
    KEPT = Kept()
    yield KEPT
    if KEPT.boards is not None:
        KEPT.boards.clear()  # (their solvers released)


def solve(puzzle: Puzzle, *args, **given):
    """`flowsat.solve.solve` in the test's run."""
    return solve_alone(puzzle, *args, kept=KEPT, **given)


def search(puzzle: Puzzle, limit: int, **given):
    """`tests.conftest.sat_search` in the test's run."""
    return sat_search(puzzle, limit, kept=KEPT, **given)


def forget() -> None:
    """Every board of the test's run forgotten: its next puzzle is encoded alone."""
    KEPT.first.clear()
    if KEPT.boards is not None:
        KEPT.boards.clear()


def moved(puzzle: Puzzle, rng: random.Random) -> Puzzle:
    """The puzzle with one dot moved to an empty cell of its board (often unsolvable)."""
    rows = [list(r) for r in puzzle.rows]
    board = puzzle.board
    empty = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width)
             if rows[r][c] == EMPTY and board.on_board[r * puzzle.width + c]
             and r * puzzle.width + c not in board.bridges]
    dots = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width)
            if rows[r][c] != EMPTY]
    (r, c), (r2, c2) = rng.choice(dots), rng.choice(empty)
    rows[r2][c2], rows[r][c] = rows[r][c], EMPTY
    return replace(puzzle, rows=tuple("".join(row) for row in rows))


def plain_pack(size: int, count: int, rules: Rules, seed: int = 1) -> list[Puzzle]:
    """Random fillings of one plain board cut into paths (solvable), every third with a dot
    moved (mostly unsolvable)."""
    return list(made_pack(size, count, rules, seed))


@cache
def made_pack(size: int, count: int, rules: Rules, seed: int) -> tuple[Puzzle, ...]:
    """`plain_pack`, made once a session (the same seed makes the same puzzles)."""
    rng = random.Random(seed)
    # pieces of 5 cells on average; longer from 7x7 on, where a filling of 5-cell pieces
    # rarely has at most 7 (of 7x7's, 1 in ~2,000: seconds a pack)
    mean_length = 5.0 if size < 7 else size * size / 5
    pack = []
    for k in range(count):
        paths = random_filling(size, size, rng, mean_length=mean_length,
                               allow_self_touch=rules.self_touch, max_colors=7)
        puzzle = puzzle_of(paths, size, size, index=k + 1)
        pack.append(moved(puzzle, rng) if k % 3 == 2 else puzzle)
    return tuple(pack)


def kind_pack(board: Board, count: int, rules: Rules, seed: int = 1, **densities: float
              ) -> list[Puzzle]:
    """A level on a board of a kind (walls, bridges: `random_level`), then puzzles on that
    same board: the level with its labels shuffled (solvable) or a dot moved."""
    rng = random.Random(seed)
    level, _ = random_level(board, rng, rules, **densities)
    pack = [level]
    for k in range(count - 1):
        if k % 2:
            pack.append(moved(level, rng))
            continue
        labels = sorted(level.colors)
        swap = dict(zip(labels, rng.sample(labels, len(labels)), strict=True))
        pack.append(replace(level, rows=tuple("".join(swap.get(ch, ch) for ch in row)
                                              for row in level.rows)))
    return pack


def statuses(pack: list[Puzzle], rules: Rules, fresh: bool, **options) -> list[tuple]:
    """Each puzzle's status and route, solved in turn (fresh: every board forgotten before
    each puzzle: the per-puzzle route)."""
    found = []
    for puzzle in pack:
        if fresh:
            forget()
        result = solve(puzzle, "sat", rules=rules, **options)
        found.append((result.status, result.stats.get("route")))
    return found


RULES = [Rules(), Rules(self_touch=True), Rules(fill_all=False),
         Rules(self_touch=True, fill_all=False)]


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_a_plain_pack_answers_as_the_per_puzzle_route(rules):
    pack = plain_pack(6, 24, rules)
    alone = statuses(pack, rules, fresh=True)
    together = statuses(pack, rules, fresh=False)
    assert [s for s, _ in together] == [s for s, _ in alone]
    assert {s for s, _ in alone} == {"solved", "unsolvable"} or not rules.fill_all
    assert all(route != "compiled" for _, route in alone)
    assert sum(route == "compiled" for _, route in together) >= len(pack) - 4  # code widths


@pytest.mark.parametrize("encoding", ["edges-unique-lazy", "edges-unique", "edges-binary"])
def test_other_edge_encodings_compile_too(encoding):
    pack = plain_pack(5, 12, Rules(), seed=4)
    alone = statuses(pack, Rules(), fresh=True, encoding=encoding)
    together = statuses(pack, Rules(), fresh=False, encoding=encoding)
    assert [s for s, _ in together] == [s for s, _ in alone]
    assert ("solved", "compiled") in together


@pytest.mark.parametrize("board", [
    Board(7, 6, holes=frozenset({9})), Board(6, 6, "hex"), Board(6, 6, wrap=True),
    Board(7, 7), Board(6, 6, "hex", wrap=True)], ids=lambda b: b.kind)
@pytest.mark.parametrize("rules", RULES[:3], ids=str)
def test_every_kind_of_board_answers_as_the_per_puzzle_route(board, rules):
    walls = bridges = 0.0 if board.shape == "hex" or board.wrap else 0.3
    pack = kind_pack(board, 10, rules, walls=walls, bridges=bridges)
    assert len({puzzle.board for puzzle in pack}) == 1
    alone = statuses(pack, rules, fresh=True)
    together = statuses(pack, rules, fresh=False)
    assert [s for s, _ in together] == [s for s, _ in alone]
    assert "solved" in {s for s, _ in alone}


def test_the_first_puzzle_of_a_board_is_encoded_alone_the_second_compiles():
    first, second = plain_pack(6, 2, Rules(), seed=3)
    assert solve(first, "sat").stats.get("route") == "uniqueness rule"
    stats = solve(second, "sat").stats
    assert stats["route"] == "compiled" and stats["board_puzzles"] == 0 and "compile_s" in stats
    again = solve(first, "sat").stats
    assert again["route"] == "compiled" and again["board_puzzles"] == 1


def block_routes(block: list, pack: list[Puzzle]) -> list[str | None]:
    """The routes of the pack's puzzles, solved in turn once the block starts
    (`Kept.start`, as `flowsat.parallel.answers` tells it)."""
    KEPT.start(block)
    return [solve(puzzle, "sat").stats.get("route") for puzzle in pack]


def test_a_board_its_block_shares_compiles_at_the_first_puzzle():
    """A block's board that two of its puzzles or more share is compiled at the first of
    them (its items other than puzzles not counted); a board alone in its block, or met
    outside a block, is encoded alone first."""
    pack, lone = plain_pack(6, 3, Rules(), seed=3), plain_pack(5, 1, Rules())[0]
    assert len({boards.board_key(p, load_spec("edges-turns"), Rules(), "glucose4")
                for p in pack}) == 1
    error = PuzzleError("pack.txt", 1, 1, "no puzzle")
    block = [pack[0], error, lone, *pack[1:]]
    assert block_routes(block, [*pack, lone]) == ["compiled"] * 3 + ["uniqueness rule"]
    assert block_routes([], pack) == ["uniqueness rule", "compiled", "compiled"]
    assert block_routes([pack[0], error, lone], pack) == ["uniqueness rule", "compiled",
                                                          "compiled"]


# `flowsat solve --format json` on the files given, then whether it imported the compiled boards
RUN = ("import sys\nfrom flowsat.commands import app\ntry:\n"
       "    app(['solve', '--format', 'json', *sys.argv[1:]])\nexcept SystemExit:\n    pass\n"
       "print('flowsat.sat.compiled' in sys.modules)")


@pytest.mark.parametrize("count", [1, 2])
def test_a_run_of_one_puzzle_never_imports_the_compiled_boards(count, tmp_path):
    """A run of one puzzle is encoded alone; in a run of two on one board, the first
    compiles it."""
    files = [str(tmp_path / f"{k}.txt") for k in range(count)]
    for file, puzzle in zip(files, plain_pack(6, count, Rules(), seed=3), strict=True):
        Path(file).write_text("\n".join(puzzle.rows) + "\n")
    out = subprocess.run([sys.executable, "-c", RUN, *files], capture_output=True, text=True,
                         cwd=ROOT, timeout=120, check=True).stdout.splitlines()
    routes = [json.loads(line)["stats"]["route"] for line in out[:-1]]
    assert routes == (["uniqueness rule"] if count == 1 else ["compiled", "compiled"])
    assert out[-1] == str(count > 1)


def test_a_larger_board_its_block_shares_is_still_measured_alone_first(monkeypatch):
    """Past SHARED_UP_TO cells the first puzzle of a board goes the per-puzzle route, which
    measures its cost against the compiled route's (`Costs`)."""
    monkeypatch.setattr(boards, "SHARED_UP_TO", 35)
    pack = plain_pack(6, 3, Rules(), seed=3)
    assert block_routes(pack, pack) == ["uniqueness rule", "compiled", "compiled"]
    costs = next(iter(KEPT.boards.costs.values()))
    assert costs.per_puzzle_count == 1 and costs.compiled_count == 2


def test_puzzles_with_fewer_colors_share_the_board_compiled_for_its_usual_colors():
    """A 5x5 board compiles with 3-bit codes (its usual colors: 6) for puzzles of 2 to 8
    colors; more colors than that compile apart (4-bit codes)."""
    rng = random.Random(2)
    pack = [puzzle_of(random_filling(5, 5, rng, mean_length=length), 5, 5, index=k)
            for k, length in enumerate([100.0, 100.0, 5.0, 100.0, 5.0, 2.5])]
    colors = [len(p.colors) for p in pack]
    assert min(colors[:5]) <= 4 < max(colors[:5]) <= 8 < colors[5]  # 2, 3 and 4 bits
    alone = statuses(pack, Rules(), fresh=True)
    forget()
    together = statuses(pack, Rules(), fresh=False)
    assert [s for s, _ in together] == [s for s, _ in alone] == ["solved"] * 6
    assert [route == "compiled" for _, route in together] == [False] + [True] * 4 + [False]
    assert sorted(key[-1] for key in KEPT.boards.seen) == [3, 4]
    assert [board.cells.nbits for board in KEPT.boards.boards.values()] == [3]


@pytest.mark.parametrize(("width", "height", "bits"), [(30, 30, 6), (40, 30, 2)])
def test_the_usual_colors_widen_the_bits_up_to_a_thousand_cells(width, height, bits):
    rows = ["AB" + EMPTY * (width - 4) + "CA", "B" + EMPTY * (width - 2) + "C",
            *[EMPTY * width] * (height - 2)]
    puzzle = Puzzle(tuple(rows))
    assert len(puzzle.colors) == 3 and boards.key_bits(puzzle) == bits


def test_cycle_cuts_learned_on_one_puzzle_stay_for_the_next():
    rules = Rules(self_touch=True)  # no corner rule: models with cycles are common
    rng = random.Random(1)
    pack = [puzzle_of(random_filling(8, 8, rng, mean_length=12.0, allow_self_touch=True,
                                     max_colors=8), 8, 8) for _ in range(20)]
    pack = [p for p in pack if 5 <= len(p.colors) <= 8]  # one code width: one board
    kept, cut = 0, 0
    for puzzle in pack:
        result = solve(puzzle, "sat", rules=rules)
        assert result.status == "solved"
        if result.stats.get("route") == "compiled":
            assert result.stats["cuts_kept"] >= kept
            kept = result.stats["cuts_kept"] + result.stats["cycle_cuts"]
            cut += result.stats["cycle_cuts"]
    assert cut > 0 and kept == cut  # every cut made on the board stays on it


def test_counting_and_uniqueness_proofs_on_a_compiled_board():
    pack = plain_pack(5, 9, Rules(), seed=7)
    proofs = []
    for fresh in (True, False):
        forget()
        verdicts, counts = [], []
        for puzzle in pack:
            if fresh:
                forget()
            verdicts.append(check_unique(puzzle, encoding="edges-turns", kept=KEPT).verdict)
            result, found = search(puzzle, 3)
            counts.append((result.status, len(found), result.stats.get("exhausted")))
        proofs.append((verdicts, counts))
    assert proofs[0] == proofs[1]
    assert {"unique", "multiple"} & set(proofs[0][0])


def test_known_paths_that_are_no_solution_are_refused_on_a_compiled_board():
    first, second = plain_pack(6, 2, Rules(), seed=3)
    search(first, 1)
    _, found = search(second, 1)
    wrong = {color: path[:-1] for color, path in found[0].items()}
    with pytest.raises(ValueError, match="not a solution"):
        search(second, 1, known=[wrong])


def test_a_timeout_drops_the_board_and_the_next_puzzle_compiles_anew(monkeypatch):
    pack = plain_pack(6, 3, Rules(), seed=3)
    for puzzle in pack[:2]:
        solve(puzzle, "sat")
    assert len(KEPT.boards.boards) == 1
    board = next(iter(KEPT.boards.boards.values()))
    with monkeypatch.context() as patched:
        patched.setattr(compiled, "walk", interrupt)  # as a timeout's signal would
        with pytest.raises(KeyboardInterrupt):
            compiled.search(KEPT.boards, board, Search(pack[0], 1, BACKEND.options(), Rules(),
                                                       NO_LIMITS))
    assert not KEPT.boards.boards
    assert solve(pack[2], "sat").stats["board_puzzles"] == 0


def interrupt(*_):
    raise KeyboardInterrupt


def test_a_board_past_the_memory_cap_takes_the_per_puzzle_route():
    pack = plain_pack(6, 3, Rules(), seed=3)
    statuses(pack[:2], Rules(), fresh=False)
    result = solve(pack[2], "sat", max_memory=0.01)
    assert result.status == "limit" and result.stats.get("route") != "compiled"


def test_a_worn_solver_is_replaced_by_a_fresh_one(monkeypatch):
    """Each search for more solutions makes a selector variable: past FRESH_VARIABLES of
    the formula's variables the board is compiled anew for the next puzzle."""
    monkeypatch.setattr(boards, "FRESH_VARIABLES", 0.0)
    pack = plain_pack(6, 4, Rules(), seed=3)
    search(pack[0], 1)
    result, _ = search(pack[1], 1)  # nothing blocked: no new variable
    assert result.stats["route"] == "compiled" and "fresh_solver" not in result.stats
    result, _ = search(pack[3], 2)
    assert result.stats["board_puzzles"] == 1 and result.stats["fresh_solver"]
    result, _ = search(pack[1], 1)
    assert result.stats["route"] == "compiled" and result.stats["board_puzzles"] == 0


def test_a_conflict_budget_or_compiled_off_keeps_the_per_puzzle_route():
    """A conflict budget must end the same way whatever the solver met before, and
    `compiled="off"` asks for counts of the puzzle alone: neither takes the board's solver."""
    first, second = plain_pack(6, 2, Rules())[:2]
    for given in ({"max_conflicts": 10**6}, {"compiled": "off"}):
        forget()
        search(first, 1, **given)
        result, _ = search(second, 1, **given)
        assert result.stats.get("route") != "compiled", given
    forget()
    search(first, 1)
    assert search(second, 1)[0].stats.get("route") == "compiled"


def test_a_rating_depends_on_the_puzzle_alone():
    """`flowsat rate`'s SAT counts are the puzzle's own, not those of the puzzles before it
    on the same board."""
    from flowsat.difficulty import rate

    pack = [p for p in plain_pack(7, 6, Rules()) if solve(p).status == "solved"]
    forget()
    alone = rate(pack[-1], kept=KEPT)
    forget()
    after = [rate(p, kept=KEPT) for p in pack][-1]
    assert alone == after


def test_a_board_whose_compiled_route_costs_more_goes_back_to_the_per_puzzle_route(monkeypatch):
    """With the encoding made free (`PER_LITERAL` 0) a compiled solve, on its larger formula,
    costs more than a per-puzzle one: the board is dropped after its first compiled puzzle
    and its later puzzles take the per-puzzle route, with the same statuses."""
    monkeypatch.setattr(boards, "PER_LITERAL", 0)
    pack = plain_pack(6, 8, Rules(), seed=3)
    routes = [(r.status, r.stats.get("route"), r.stats.get("compiled_lost"))
              for r in (solve(p, "sat") for p in pack)]
    assert [route for _, route, _ in routes[:2]] == ["uniqueness rule", "compiled"]
    assert routes[1][2] is True and not KEPT.boards.boards
    assert all(route != "compiled" for _, route, _ in routes[2:])
    costs = KEPT.boards.costs[next(iter(KEPT.boards.lost))]
    assert costs.compiled_count == 1 and costs.per_puzzle_count == len(pack) - 1
    assert [s for s, _, _ in routes] == [s for s, _ in statuses(pack, Rules(), fresh=True)]


def test_a_board_whose_compiled_route_costs_less_keeps_it():
    pack = plain_pack(6, 8, Rules(), seed=3)
    routes = [solve(p, "sat").stats.get("route") for p in pack]
    assert routes.count("compiled") >= len(pack) - 2 and not KEPT.boards.lost


def test_the_costs_compare_the_routes_on_average():
    costs = boards.Costs()
    costs.add(True, 15.0)
    assert not costs.compiled_loses  # nothing measured per puzzle
    costs.add(False, 10.0)
    costs.add(False, 30.0)
    assert not costs.compiled_loses  # 15 < 20
    costs.add(True, 30.0)
    assert costs.compiled_loses  # 22.5 > 20
    stats = {"propagations": 100, "variables": 50, "rounds": 2}
    assert boards.cost(stats, 10) == (100 * boards.PER_PROPAGATION
                                        + 10 * boards.PER_LITERAL
                                        + 100 * boards.PER_MODEL_VARIABLE)


def block_of(pack: list[Puzzle], rules: Rules) -> list[tuple]:
    """A block's answers (`flowsat.parallel`: its boards forgotten first), their stats but
    the times: one solution, two (a selector variable each) and, known the first, a proof."""
    KEPT.start()
    found = []
    for puzzle in pack:
        for limit in (1, 2):
            result, paths = search(puzzle, limit, rules=rules)
            found.append((result.status, paths, untimed(result.stats)))
        if paths:
            result, _ = search(puzzle, 1, rules=rules, known=paths[:1])
            found.append((result.status, untimed(result.stats)))
    return found


def untimed(stats: dict) -> dict:
    return {k: v for k, v in stats.items() if not k.endswith("_s")}


@pytest.mark.parametrize("rules", RULES[:3], ids=str)
def test_a_board_kept_from_an_earlier_block_answers_as_one_compiled_anew(rules, monkeypatch):
    """A later block loads the board compiled in an earlier one (`KEPT.boards.formulas`) into a
    fresh solver: the same answers and stats, solver counters and variables alike, as a
    process that compiles it for the first time (a worker of `--jobs 2`)."""
    made = []
    monkeypatch.setattr(boards, "compile_board", lambda *a: made.append(a) or compile_board(*a))
    pack = plain_pack(6, 8, rules, seed=5)

    anew = block_of(pack, rules)
    assert made and any(s[-1].get("route") == "compiled" for s in anew)
    block_of(plain_pack(6, 8, rules, seed=6), rules)  # another block, on the same boards
    compiles = len(made)
    assert block_of(pack, rules) == anew and len(made) == compiles  # none compiled again


def test_formulas_are_kept_from_a_process_second_block_on(monkeypatch):
    """A run of one block keeps no formula (the cycle collector would go over its clauses for
    nothing); from a second block on, its boards' formulas are kept."""

    pack = plain_pack(6, 4, Rules(), seed=5)
    first = statuses(pack, Rules(), fresh=False)
    assert ("solved", "compiled") in first and not KEPT.boards.formulas.formulas
    KEPT.start()
    assert statuses(pack, Rules(), fresh=False) == first and KEPT.boards.formulas.formulas


def test_a_kept_board_is_as_compiled_whatever_its_solvers_did(monkeypatch):
    """What a compiled board's puzzles change (variables made for selectors and differ
    bits, touch clauses stated) is changed in the solver's copy, not in the kept formula."""
    KEPT.compiled().formulas.keeping = True
    pack = plain_pack(6, 6, Rules(), seed=5)
    statuses(pack, Rules(), fresh=False)
    for puzzle in pack[:3]:
        search(puzzle, 3)
    board = next(iter(KEPT.boards.boards.values()))
    formula = KEPT.boards.formulas.formulas[board.key]
    assert board.enc.top > formula.enc.top == formula.size.variables
    assert len(formula.enc.blocks) < len(board.enc.blocks)
    assert formula.enc.clauses == [] and not len(formula.cells.diff_keys)


def test_the_formulas_kept_stay_within_the_board_count_and_the_memory_cap(monkeypatch):
    """The least recently used formula goes first past KEEP_BOARDS; none is kept that would
    take more than KEEP_SHARE of the memory cap (its board is still solved)."""
    monkeypatch.setattr(boards, "KEEP_BOARDS", 2)
    KEPT.compiled().formulas.keeping = True

    packs = [plain_pack(size, 3, Rules(), seed=3) for size in (5, 6, 7)]
    for pack in packs:
        statuses(pack, Rules(), fresh=False)
    kept = [key[0].width for key in KEPT.boards.formulas.formulas]
    assert kept == [6, 7]
    key = next(iter(KEPT.boards.formulas.formulas))
    formula = KEPT.boards.formulas.formulas[key]
    cap = formula.size.mb / boards.KEEP_SHARE / 2
    board = KEPT.boards.formulas.solver(key, key[0], key[2], key[1], key[3], cap)
    assert board.size == formula.size and key not in KEPT.boards.formulas.formulas
    boards.release(board.sat.solver)



def on_one_board(board: Board) -> boards.Compiled:
    """The board compiled with the default encoding and rules, on its own solver."""
    puzzle = board_cnf.blank(board)
    key = boards.board_key(puzzle, load_spec("edges-turns"), Rules(), "glucose4")
    return boards.Formulas().solver(key, board, key[2], key[1], "glucose4")


def test_a_walk_finds_the_touches_every_edge_shows():
    """`walk` counts touches on each path's nodes as bits (the edges scanned only where a
    path touches itself): its touching pairs are those of the edges whose nodes are on one
    path, unlinked, on a plain board and one that wraps, touching or not."""
    snake = [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3), (1, 2), (1, 1), (1, 0), (2, 0), (2, 1),
             (2, 2), (2, 3), (3, 3), (3, 2), (3, 1), (3, 0)]
    rows = {color: [(r, c) for c in range(4)] for r, color in enumerate("ABCD")}
    for board in (Board(4, 4), Board(4, 4, wrap=True)):
        on = on_one_board(board)
        try:
            for paths, touch in (({"A": snake}, True), (rows, board.wrap)):
                touches = walked_touches(on, paths)
                assert touches == touching_edges(on, paths)
                assert bool(touches) == touch
            on_scan = replace(on, tables=replace(on.tables, apart=None))
            assert walked_touches(on_scan, {"A": snake}) == touching_edges(on, {"A": snake})
        finally:
            release(on.sat.solver)


def walked_touches(on: boards.Compiled, paths: dict) -> list[tuple[int, int, int]]:
    """`walk`'s touching pairs of the paths, which it must read back from their model."""
    puzzle, model = drawn_model(on, paths)
    on.lazy_touch = True
    walked = compiled.walk(on, puzzle, model)
    assert walked is not None and walked[0] == paths
    return walked[1]


def drawn_model(on: boards.Compiled, paths: dict) -> tuple[Puzzle, list[int]]:
    """The puzzle of the paths' ends, and a model of every variable false but the paths'
    links."""
    width = on.enc.width
    rows = [[EMPTY] * width for _ in range(on.enc.height)]
    model = [-v for v in range(1, on.enc.top + 1)]
    for color, path in paths.items():
        for r, c in (path[0], path[-1]):
            rows[r][c] = color
        for (r, c), (r2, c2) in pairwise(path):
            e = next(e for e, n in on.tables.ways[r * width + c] if n == r2 * width + c2)
            model[e] = -model[e]
    return Puzzle(tuple(map("".join, rows)), board=on.enc.board), model


def touching_edges(on: boards.Compiled, paths: dict) -> list[tuple[int, int, int]]:
    """Every edge whose nodes are on one path and that is no link, by its definition."""
    _, model = drawn_model(on, paths)
    owner = {r * on.enc.width + c: k for k, path in enumerate(paths.values())
             for r, c in path}
    return [(i, j, -1 - e) for e, i, j in on.tables.edges
            if owner.get(i, -1) == owner.get(j, -2) and model[e] < 0]


def test_edges_that_join_the_same_nodes_twice_are_scanned_one_by_one():
    assert board_cnf.apart([(0, 0, 1), (1, 1, 2), (2, 0, 4)]) == [(1, 0b11), (4, 0b1)]
    assert board_cnf.apart([(0, 0, 1), (1, 1, 0)]) is None


def solution_literals(board: boards.Compiled, puzzle: Puzzle, paths: dict) -> list[int]:
    """The edge variables of a compiled board as the paths set them: their links true, every
    other edge false."""
    enc = compiled.Run(board, puzzle, Rules(), [], {}, None).enc
    linked = {(min(i, j), max(i, j)) for path in paths.values()
              for i, j in pairwise(enc.path_nodes(path))}
    return [e if pair in linked else -e
            for pair, e in zip(board.enc.edges, board.links.var_array.tolist(), strict=True)]


@pytest.mark.parametrize("board", [Board(6, 6), Board(12, 12), Board(13, 12), Board(15, 15),
                                   Board(14, 13, holes=frozenset({30, 31, 95}))], ids=str)
@pytest.mark.parametrize("rules", RULES[:3], ids=str)
def test_each_solution_of_a_puzzle_satisfies_its_compiled_board(board, rules):
    """Every clause of a compiled board (degrees, codes, the corner rule under its switch,
    the turn rows on boards over TURNS_OVER cells) holds for the solutions of its puzzles:
    their dots, codes and links, as assumptions, leave it satisfiable (the uniqueness switch
    on where the solution was found with it), on boards below and over TURNS_OVER cells,
    with holes or none."""
    rng = random.Random(board.size)
    pack = [random_level(board, rng, rules, mean_length=length)[0] for length in (4, 8, 30)]
    spec = load_spec("edges-turns")
    for puzzle in pack:
        result, found = search(puzzle, 1, rules=rules)
        assert result.status == "solved"
        key = boards.board_key(puzzle, spec, rules, "glucose4")
        board = boards.Formulas().solver(key, puzzle.board, spec, rules, "glucose4")
        try:
            assumed = compiled.assumptions_of(board, puzzle)
            if board.unique and result.stats.get("uniqueness") != "uniqueness rule":
                assumed = assumed[1:]  # found with the rule off
            assert board.sat.solve(None, assumed + solution_literals(board, puzzle, found[0]))
        finally:
            release(board.sat.solver)


@pytest.mark.parametrize("rules", RULES[:3], ids=str)
def test_over_dots_first_over_nodes_the_dots_and_codes_come_first(rules, monkeypatch):
    """The assumptions on a board over DOTS_FIRST_OVER nodes are those of the node order
    (the uniqueness switch first, as `search_on` reads them): each dot, then the codes, then
    the nodes that are no dots, each in its order; at DOTS_FIRST_OVER or under, the node
    order, the codes last."""
    board, spec = Board(15, 15), load_spec("edges-turns")
    puzzle = random_level(board, random.Random(3), rules, mean_length=8)[0]
    key = boards.board_key(puzzle, spec, rules, "glucose4")
    formula = boards.Formulas().solver(key, puzzle.board, spec, rules, "glucose4")
    try:
        count = formula.tables.nodes
        assert count > compiled.DOTS_FIRST_OVER
        first = compiled.assumptions_of(formula, puzzle)
        monkeypatch.setattr(compiled, "DOTS_FIRST_OVER", count)
        in_order = compiled.assumptions_of(formula, puzzle)
    finally:
        release(formula.sat.solver)
    switch = [formula.unique] if formula.unique else []
    assert in_order[:len(switch)] == first[:len(switch)] == switch
    nodes = in_order[len(switch):len(switch) + count]
    codes = in_order[len(switch) + count:]
    dots = [x for x in nodes if x > 0]
    assert len(dots) == 2 * len(puzzle.colors) and len(codes) == len(dots) * formula.cells.nbits
    assert first == switch + dots + codes + [x for x in nodes if x < 0]


def test_the_turn_rows_are_stated_on_boards_over_turns_over_cells(monkeypatch):
    spec, rules = load_spec("edges-turns"), Rules()

    def clauses(board: Board) -> int:
        key = boards.board_key(board_cnf.blank(board), spec, rules, "glucose4")
        return compile_board(key, board, spec, rules, key[-1]).size.clauses

    below, over = Board(12, 12), Board(13, 12)
    plain = clauses(below), clauses(over)
    monkeypatch.setattr(board_cnf, "TURNS_OVER", 0)
    assert clauses(below) > plain[0] and clauses(over) == plain[1]


def turn_rows_by_walking(board: Board, formula: board_cnf.Formula) -> list[tuple[int, ...]]:
    """The turn rows by their definition, walked cell by cell: for each turn (in CORNERS,
    nearest the border first), its two literals negated and the dot of every cell on its
    inside diagonal up to the border, unless a hole lies on the way."""
    rows = []
    for glyph in board_cnf.CORNERS:
        (dr, dc), found = board_cnf.DIAGONALS[glyph], []
        nodes, lits = formula.links.corners(glyph)
        for x, (a, b) in zip(nodes.tolist(), lits.tolist(), strict=True):
            r, c, dots = *divmod(x, board.width), []
            while 0 <= r + dr < board.height and 0 <= c + dc < board.width:
                r, c = r + dr, c + dc
                dots.append(r * board.width + c)
            if all(board.on_board[i] for i in dots):
                found.append((len(dots), (-a, -b, *formula.links.dot[dots].tolist())))
        rows += [row for _, row in sorted(found, key=lambda f: f[0])]
    return rows


@pytest.mark.parametrize("board", [Board(13, 12), Board(14, 13, holes=frozenset({30, 31, 95}))],
                         ids=str)
def test_the_turn_rows_are_each_turns_diagonal_of_dots(board):
    spec, rules = load_spec("edges-turns"), Rules()
    key = boards.board_key(board_cnf.blank(board), spec, rules, "glucose4")
    formula = compile_board(key, board, spec, rules, key[-1])
    expected = turn_rows_by_walking(board, formula)
    clauses = [tuple(c) for c in formula.clauses]
    first = clauses.index(expected[0])
    assert clauses[first:first + len(expected)] == expected


@pytest.mark.parametrize("rules", RULES[:3], ids=str)
def test_a_formula_reads_the_same_in_batches_of_any_size(rules):
    """A compiled formula's clauses (`Clauses`, kept as blocks of columns) read whole or a
    batch at a time are the same, counted right; loaded, a batch at a time, they make the
    same solver."""
    board, spec = Board(13, 12), load_spec("edges-turns")
    key = boards.board_key(board_cnf.blank(board), spec, rules, "glucose4")
    formula = compile_board(key, board, spec, rules, key[-1])
    whole = [list(c) for c in formula.clauses]
    assert len(whole) == len(formula.clauses) == formula.size.clauses
    assert sum(map(len, whole)) == formula.size.literals
    for size in (1, 7, 1000, 10**6):
        batches = [list(map(list, batch)) for batch in formula.clauses.batches(size)]
        assert max(map(len, batches)) <= size
        assert [c for batch in batches for c in batch] == whole
    with Oracle("glucose4", formula.clauses, keep=False) as kept, \
            Oracle("glucose4", whole) as listed:
        assert kept.clauses == [] and listed.clauses == whole
        assert kept.solver.nof_clauses() == listed.solver.nof_clauses() > 0
        assert kept.solve() is listed.solve() is True


def test_a_solver_that_is_rebuilt_keeps_its_clauses():
    with pytest.raises(ValueError, match="keeps its clauses"):
        Oracle("kissat404", [[1, 2]], keep=False)


def test_each_run_keeps_its_own_boards_and_a_call_without_one_keeps_none():
    """The compiled boards belong to the `Kept` of whoever runs the puzzles: another run's
    first puzzle on the same board is encoded alone, and so is every puzzle of a call that
    passes none."""
    first, second = plain_pack(6, 2, Rules(), seed=3)
    assert [solve(p).stats.get("route") for p in (first, second)] == ["uniqueness rule",
                                                                      "compiled"]
    other = Kept()
    assert solve_alone(second, kept=other).stats.get("route") == "uniqueness rule"
    assert solve_alone(first, kept=other).stats.get("route") == "compiled"
    assert all(solve_alone(p).stats.get("route") == "uniqueness rule" for p in (first, second))
    other.boards.clear()
