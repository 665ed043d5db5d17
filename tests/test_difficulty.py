"""The difficulty rating: forced cells, the score and its tiers, the 2016 packs, `flowsat rate`."""

from __future__ import annotations

import json
import re
import statistics

from typer.testing import CliRunner

from flowsat.checker import InvalidSolution
from flowsat.commands import app
from flowsat.difficulty import TIERS, Rating, forced_share, preset, rate, score, tier
from flowsat.puzzle import Puzzle, read_puzzles
from flowsat.puzzle.formats import parse_puzzles
from flowsat.search.backend import orient
from flowsat.search.board import Board
from flowsat.search.problem import FlowProblem
from tests.conftest import PUZZLES, ZUCKER, needs_shared, zucker_files

CORRIDORS = Puzzle.from_text("A...A / B...B / C...C")  # every move forced
# made by flowsat generate: no move is forced, the search needs a few states
OPEN = Puzzle.from_text("R.....B / ....Y.. / GOYG... / ....... / ....... / .R...O. / ...B...")


def test_forced_share():
    assert forced_share(CORRIDORS) == 1.0
    assert forced_share(OPEN) == 0.0
    assert forced_share(Puzzle.from_text("A.B / ... / B.A")) == 0.0  # no solution
    (holed,) = parse_puzzles("3,0,1,2,,4;0,1,2;3,6,7,8,5", "holed")  # a hole in the middle
    assert forced_share(holed) == 1.0


def test_forced_moves_from_both_ends_meet():
    """One pass from one dot of each pair (the search's own start) fills part of the board;
    passes from either end, each knowing what the last fixed, fill all of it."""
    (puzzle,) = read_puzzles(PUZZLES / "examples" / "flow_7x7.txt")
    board = Board(puzzle.height, puzzle.width)
    starts, goals = orient(board, puzzle, outside_in=True)
    one = FlowProblem(board, starts, goals, list(range(len(starts))), preset())
    filled = sum(map(len, one.paths(one.initial()).values()))
    assert 2 * len(puzzle.dots) < filled < puzzle.height * puzzle.width
    assert forced_share(puzzle) == 1.0


def test_score_and_tiers():
    trivial = Rating("solved", forced=1.0)
    hardest = Rating("solved", forced=0.0, nodes=10**6, conflicts=10**6)
    assert score(trivial) == 0.0 and score(hardest) == 10.0
    assert tier(0.0) == "easy" and tier(9.9) == "extreme"
    scores = [0.0, 2.5, 5.0, 7.0]
    assert [tier(s) for s in scores] == [name for _, name in TIERS]
    assert score(Rating("solved", forced=0.5, nodes=100)) < score(Rating("solved", forced=0.5,
                                                                         nodes=1000))


def test_rate():
    easy = rate(CORRIDORS)
    assert (easy.status, easy.tier, easy.forced, easy.nodes) == ("solved", "easy", 1.0, 0)
    assert rate(Puzzle.from_text("A.B / ... / B.A")).status == "unsolvable"
    capped = rate(OPEN, max_nodes=1)
    assert capped.nodes_capped and capped.nodes == 1 and capped.score > easy.score
    assert not rate(OPEN).nodes_capped


@needs_shared
def test_the_2016_packs_in_order():
    """regular_* rate lower than extreme_* and jumbo_* (cheap ones only: nodes capped)."""
    by_pack: dict[str, list[float]] = {}
    for file in zucker_files():
        if not file.name.startswith("unsolvable"):
            (puzzle,) = read_puzzles(file)
            by_pack.setdefault(file.name.split("_")[0], []).append(rate(puzzle,
                                                                        max_nodes=300).score)
    assert max(by_pack["regular"]) < statistics.median(by_pack["extreme"])
    assert statistics.median(by_pack["regular"]) < 2.5  # easy
    assert statistics.median(by_pack["regular"]) < statistics.median(by_pack["jumbo"])
    (first,) = read_puzzles(ZUCKER / "regular_5x5_01.txt")
    assert rate(first).tier == "easy"


def run(*args: str):
    return CliRunner().invoke(app, ["rate", *args])


def test_cli_text_json_and_exit_statuses(tmp_path):
    good, cross, bad = tmp_path / "good.txt", tmp_path / "cross.txt", tmp_path / "bad.txt"
    good.write_text("A...A\nB...B\nC...C\n")
    cross.write_text("A.B\n...\nB.A\n")
    bad.write_text("A..\n")
    text = run(str(good))
    assert text.exit_code == 0 and text.stdout.startswith(f"{good}: easy (")
    record = json.loads(run("--format", "json", str(good)).stdout)
    assert {"file", "size", "colors", "tier", "score", "forced", "nodes", "nodes_capped",
            "conflicts", "decisions"} <= set(record)
    assert (record["size"], record["colors"], record["tier"]) == ("5x3", 3, "easy")
    result = run(str(good), str(cross))
    assert result.exit_code == 1 and f"{cross}: unsolvable" in result.stdout
    assert run(str(bad), str(good)).exit_code == 2


def test_cli_node_cap(tmp_path):
    board = tmp_path / "open.txt"
    board.write_text("\n".join(OPEN.rows) + "\n")
    record = json.loads(run("--format", "json", "--max-nodes", "1", str(board)).stdout)
    assert record["nodes_capped"] is True and record["nodes"] == 1
    assert re.search(r"forced 0%, \d+ nodes, \d+ conflicts, \d+ decisions\n$",
                     run(str(board)).stdout)


def test_cli_an_internal_error_is_reported_and_the_rest_goes_on(tmp_path, monkeypatch):
    from flowsat import difficulty

    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_text("A...A\nB...B\nC...C\n")
    bad.write_text("A.A\nB.B\n")
    real = difficulty.rate

    def broken(puzzle, *args):
        if puzzle.file == str(bad):
            raise InvalidSolution(f"{puzzle.file}: cell (0, 1) is on no path")
        return real(puzzle, *args)

    monkeypatch.setattr(difficulty, "rate", broken)
    result = run(str(bad), str(good))
    assert result.exit_code == 4 and "internal error (a bug)" in result.stderr
    assert result.stdout.startswith(f"{good}: easy")
