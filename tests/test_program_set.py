"""A solver program timed over a whole set (`timing = "set"` of a `program:` row): the set as
one Numberlink file, the answers cut one a puzzle, each checked under the set's rules; the
report's ratios against the baseline's set runs. The program is `tests/solvers/set_program.py`."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from flowsat.bench.plan import Place
from flowsat.bench.planfile import configuration
from flowsat.bench.program_set import judge_all, set_text
from flowsat.bench.report import write_report
from flowsat.bench.summary import X
from flowsat.bench.whole import SetRun, command, measured, run_set
from flowsat.process import run_program
from flowsat.program.answer import answer_rows
from flowsat.puzzle import parse_puzzles, read_puzzles, solution_grid
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError
from flowsat.solve import solve
from tests.conftest import PUZZLES, ROOT

PROGRAM = ROOT / "tests" / "solvers" / "set_program.py"
PACK = PUZZLES / "packs" / "5x5.txt"
CROSSING = PUZZLES / "unsolvable" / "crossing_3x3.txt"
SELF_TOUCH = PUZZLES / "unsolvable" / "self_touch_5x5.txt"


def program_row(*words: str) -> dict:
    return {"backend": "program:" + shlex.join([sys.executable, str(PROGRAM), *words]),
            "timing": "set"}


def set_run(row: dict, files: list[str], rules: Rules | None = None) -> SetRun:
    return SetRun(Place("s", rules or Rules()), tuple(files), configuration("p", row, 30.0), 1)


@pytest.fixture(scope="module")
def three(tmp_path_factory) -> str:
    """A Numberlink file of three levels of the 5x5 pack."""
    file = tmp_path_factory.mktemp("set") / "three.txt"
    file.write_text("\n\n".join(PACK.read_text().split("\n\n", 3)[:3]) + "\n")
    return str(file)


@pytest.fixture(scope="module")
def answered(three):
    """Four puzzles (the last unsolvable) and the best-first search's answers to them."""
    puzzles = [*read_puzzles(three), *read_puzzles(CROSSING)]
    return puzzles, [solve(p, "astar") for p in puzzles]


def test_a_program_answers_a_whole_set_on_stdin_each_answer_checked(three):
    got = run_set(set_run(program_row("answers"), [three, str(CROSSING)]), 30.0)
    assert got["status"] == "solved" and got["error"] is None
    assert got["answers"] == {"solved": 3, "unsolvable": 1}
    assert got["wall_s"] > 0 and got["cpu_s"] > 0 and got["startup_s"] > 0
    assert got["puzzles"] == 4 and got["cells"] == 3 * 25 + 9 and got["peak_mb"] > 0


def test_a_set_run_s_peak_memory_is_the_program_s_own_not_the_bench_s():
    """Linux counts a forked child's parent's pages in the child's peak: the program starts
    from `peak.py`, a process of a few MB, never from the bench (here holding 300 MB)."""
    held = b"\1" * (300 * 2**20)
    run = [sys.executable, "-S", "-c"]
    small = measured(lambda argv: run_program(argv, None, 30.0), [*run, "pass"])
    big = measured(lambda argv: run_program(argv, None, 30.0),
                   [*run, "b = b'\\1' * (200 * 2**20); print(len(b))"])
    assert small[0].returncode == 0 and small[3] < 100
    assert big[0].stdout.strip() == str(200 * 2**20) and 200 <= big[3] < 300 and held
    killed = measured(lambda argv: run_program(argv, None, 30.0), [*run, "import os; os.abort()"])
    assert killed[0].returncode < 0  # died by its signal, as if started straight


def test_a_board_that_breaks_the_rules_is_wrong_never_a_pass(three):
    row = program_row("wrong", "{file}")  # the set as a file named in the command
    got = run_set(set_run(row, [three]), 30.0)
    assert got["status"] == "wrong" and got["answers"] == {"wrong": 1, "solved": 2}
    assert got["error"] == (f"{three}#1: the dot 'B' at (1, 1) is labelled 'R': "
                            f"'5 5 / RRRRR / RRRRR / RRRRR / RRRRR / RRRRR'")
    assert got["time_s"] is None


def test_a_self_touching_answer_passes_only_under_the_self_touch_rule():
    row = program_row("answers", "--self-touch")
    plain = run_set(set_run(row, [str(SELF_TOUCH)]), 30.0)
    assert plain["status"] == "wrong" and "without touching itself" in plain["error"]
    touching = run_set(set_run(row, [str(SELF_TOUCH)], Rules(self_touch=True)), 30.0)
    assert touching["status"] == "solved" and touching["answers"] == {"solved": 1}


def test_a_set_a_program_cannot_take_is_an_error_before_it_runs(three):
    hexagons = str(next((PUZZLES / "unique" / "hex").glob("*.txt")))
    got = run_set(set_run(program_row("answers"), [three, hexagons]), 30.0)
    assert got["status"] == "error" and got["answers"] == {}
    assert got["error"] == "a solver program gets square boards with every cell filled"


def test_answers_are_cut_by_their_boards_headers_or_not(answered):
    puzzles, results = answered
    rows = "".join(answer_rows(p, r) for p, r in zip(puzzles, results, strict=True))
    assert judge_all(rows, puzzles, Rules()) == ({"solved": 3, "unsolvable": 1}, None)
    bare = "\n".join(["\n".join(solution_grid(p, r.paths)) for p, r in
                      zip(puzzles[:3], results, strict=False)] + ["IMPOSSIBLE"])
    assert judge_all(bare, puzzles, Rules()) == ({"solved": 3, "unsolvable": 1}, None)


def test_fewer_or_more_answers_than_puzzles_is_an_error(answered):
    puzzles, results = answered
    answers = [answer_rows(p, r) for p, r in zip(puzzles, results, strict=True)]
    statuses, problem = judge_all("".join(answers[:-1]), puzzles, Rules())
    assert not statuses and problem.endswith("3 answers for 4 puzzles")
    statuses, problem = judge_all("".join(answers) + "UNSOLVABLE\n", puzzles, Rules())
    assert not statuses and "more output than 4 answers: 'UNSOLVABLE'" in problem


def test_a_set_is_one_numberlink_file_that_reads_back_as_its_puzzles(answered):
    puzzles, _ = answered
    text = set_text(puzzles)
    assert text.endswith("\n0 0\n") and text.count("\n5 5\n") == 2
    assert [p.rows for p in parse_puzzles(text)] == [p.rows for p in puzzles]


@pytest.mark.parametrize(("row", "said"), [
    ({"backend": "program:true", "timing": "set", "program_format": "grid"},
     "reads it as one file of the numberlink format"),
    ({"backend": "program:true", "timing": "warm"}, "a solver program is timed as a whole"),
    ({"backend": "program:true", "timing": "set", "jobs": 1}, "jobs (flowsat solve --jobs)"),
    ({"backend": "sat", "jobs": 1}, "jobs (flowsat solve --jobs) is for"),
    ({"backend": "sat", "timing": "set", "jobs": 0}, "--jobs: 0 is not a number"),
])
def test_program_set_rows_and_jobs_are_checked_up_front(row, said):
    with pytest.raises(UsageError) as err:
        configuration("p", row, 5.0)
    assert said in str(err.value)


def test_jobs_reach_flowsat_solve_of_a_set():
    config = configuration("p", {"backend": "sat", "timing": "set", "jobs": 1}, 5.0)
    words = command(SetRun(Place("s", Rules()), ("a.txt",), config, 1), 5.0, ["a.txt"])
    assert words[words.index("--jobs"):words.index("--jobs") + 2] == ["--jobs", "1"]
    program = configuration("p", program_row("answers"), 5.0)
    assert (program.name, program.timing, program.jobs) == (
        f"program/{Path(sys.executable).name}/set", "set", None)


def record(config: str, repeat: int, wall: float, cpu: float, status: str = "solved") -> dict:
    return {"set": "s", "file": "*", "index": 0, "name": "set s", "rows": 0, "cols": 0,
            "kind": "set", "colors": 0, "symmetry": "identity", "config": config,
            "backend": "program" if config == "go" else "sat", "options": {},
            "timing": "set", "repeat": repeat, "files": ["a.txt"], "status": status,
            "time_s": wall, "wall_s": wall, "cpu_s": cpu, "answers": {status: 1},
            "startup_s": 0.01, "startup_cpu_s": 0.01, "stats": {}, "error": None,
            "load": 1.5}


def test_the_report_gives_set_runs_as_ratios_of_the_baseline_s(tmp_path):
    runs = [record("go", 1, 0.1, 0.05), record("go", 2, 0.3, 0.05), record("go", 3, 0.2, 0.06),
            record("sat", 1, 0.8, 0.5), record("sat", 2, 0.9, 0.4),
            record("sat", 3, 0.1, 0.1, "wrong")]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in runs))
    (tmp_path / "meta.json").write_text(json.dumps(
        {"configs": [{"name": "go"}, {"name": "sat"}], "baseline": "go"}))
    write_report(tmp_path, plots=False)
    lines = (tmp_path / "report.md").read_text().splitlines()
    assert "| wall vs `go` | CPU vs `go` | load |" in lines[lines.index(next(
        x for x in lines if x.startswith("| set |")))]
    sat = next(x for x in lines if x.startswith("| s | `sat` |"))
    assert sat.startswith("| s | `sat` | 1 | 1 | 3 | 2 solved, 1 wrong |")
    assert f"| 850 | 450 | {X}4.25 | {X}9.00 | 1.50 |" in sat  # medians of the solved runs
    write_report(tmp_path, baseline="sat", plots=False)
    go = next(x for x in (tmp_path / "report.md").read_text().splitlines()
              if x.startswith("| s | `go` |"))
    assert f"{X}0.24 | {X}0.11 |" in go
    with pytest.raises(UsageError, match="choose from go, sat"):
        write_report(tmp_path, baseline="nobody", plots=False)
