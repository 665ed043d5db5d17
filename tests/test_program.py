"""Solver programs as a backend (`program:COMMAND`): statuses through `solve` and `bench`, the
answer read back and checked, a hung program's whole process group killed, no temporary files
left. The programs are `tests/solvers/program.py` in its modes."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from flowsat.checker import problems
from flowsat.commands import app
from flowsat.program.answer import Unreadable, Untraceable, read_answer, trace
from flowsat.puzzle import Puzzle, read_puzzles, solution_grid
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError
from flowsat.solve import solve
from tests.conftest import PUZZLES, ROOT

PROGRAM = ROOT / "tests" / "solvers" / "program.py"
FLOW5 = str(PUZZLES / "examples" / "flow_5x5.txt")
CROSSING = str(PUZZLES / "unsolvable" / "crossing_3x3.txt")
SELF_TOUCH = str(PUZZLES / "unsolvable" / "self_touch_5x5.txt")


def program(mode: str, *args: str) -> str:
    return "program:" + shlex.join([sys.executable, "-S", str(PROGRAM), mode, *args])


def puzzle(file: str) -> Puzzle:
    return next(read_puzzles(file))


def run_cli(*args: str):
    return CliRunner().invoke(app, list(args))


def gone(pid: int, seconds: float = 5) -> bool:
    """Whether the process is gone (or a zombie nobody will wait for) within a few seconds:
    a killed process takes a moment to die on a busy machine."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        state = Path(f"/proc/{pid}/stat")
        if state.exists() and state.read_text().split(")")[-1].split()[0] == "Z":
            return True
        time.sleep(0.02)
    return False


def wait_for(path: Path, seconds: float = 10) -> str:
    deadline = time.monotonic() + seconds
    while not (path.exists() and path.read_text().endswith("\n")):
        assert time.monotonic() < deadline, f"{path} never written"
        time.sleep(0.02)
    return path.read_text()


@pytest.mark.parametrize("fmt", ["numberlink", "grid"])
def test_a_right_answer_is_solved_and_passes_the_checker(fmt):
    p = puzzle(FLOW5)
    command = program("table") + (" {file}" if fmt == "grid" else "")
    result = solve(p, command, program_format=fmt)
    assert result.status == "solved" and result.error is None
    assert problems(p, result.paths) == []
    assert result.stats["total_s"] > 0 and result.stats["exit_status"] == 0


def test_each_failure_gets_its_status():
    p = puzzle(FLOW5)
    wrong = solve(p, program("wrong"))
    assert wrong.status == "wrong" and wrong.paths is None
    assert wrong.error.startswith("the dot 'A' at (0, 2) is labelled 'H'")
    crash = solve(p, program("crash"))
    assert crash.status == "error"
    assert crash.error == ("the program failed (exit status 3, no answer: no output): "
                           "something went wrong")
    segfault = solve(p, program("segfault"))
    assert segfault.status == "error" and "killed by SIGSEGV" in segfault.error
    endless = solve(p, "program:yes")  # output past MAX_OUTPUT: stopped, never all in memory
    assert endless.status == "error" and "killed by SIGXFSZ" in endless.error
    assert solve(puzzle(CROSSING), program("impossible")).status == "unsolvable"
    unknown = solve(puzzle(CROSSING), program("table"))
    assert (unknown.status, unknown.error) == ("limit", "not in my table")


def test_a_board_that_touches_itself_is_wrong_unless_self_touch_is_allowed():
    p = puzzle(SELF_TOUCH)
    refused = solve(p, program("table"))
    assert refused.status == "wrong" and "without touching itself" in refused.error
    allowed = solve(p, program("table"), rules=Rules(self_touch=True))
    assert allowed.status == "solved"
    assert problems(p, allowed.paths, Rules(self_touch=True)) == []


def test_a_hung_program_is_killed_with_its_whole_group_at_the_timeout(tmp_path):
    pids = tmp_path / "pids"
    start = time.monotonic()
    result = solve(puzzle(FLOW5), program("hang", str(pids), "{file}"), timeout=1)
    assert result.status == "timeout" and time.monotonic() - start < 5
    leader, child, file = wait_for(pids).split()
    assert gone(int(leader)) and gone(int(child))
    assert not Path(file).exists() and not Path(file).parent.exists()


def test_sigterm_of_flowsat_kills_the_program_group_and_removes_its_files(tmp_path):
    pids = tmp_path / "pids"
    flowsat = subprocess.Popen([sys.executable, "-m", "flowsat", "solve", FLOW5, "--backend",
                                program("hang", str(pids), "{file}")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    leader, child, file = wait_for(pids).split()
    flowsat.send_signal(signal.SIGTERM)
    assert flowsat.wait(10) == 128 + signal.SIGTERM
    assert gone(int(leader)) and gone(int(child)) and not Path(file).parent.exists()


def test_solve_exit_statuses_and_outputs():
    solved = run_cli("solve", FLOW5, "--backend", program("table"), "--format", "json")
    record = json.loads(solved.output)
    assert solved.exit_code == 0 and record["status"] == "solved"
    assert record["backend"] == program("table") and record["paths"]
    for mode, status in (("wrong", "wrong"), ("crash", "error")):
        failed = run_cli("solve", FLOW5, "--backend", program(mode), "-q")
        assert failed.exit_code == 5 and f": {status} in " in failed.output
    assert run_cli("solve", CROSSING, "--backend", program("impossible")).exit_code == 1
    assert run_cli("solve", CROSSING, "--backend", program("table")).exit_code == 3
    for args, message in ((["--backend", "program:no-such-program"], "not a program on PATH"),
                          (["--backend", "program"], "needs its command"),
                          (["--backend", "sat:x"], "takes nothing after ':'"),
                          (["--program-format", "grid"], "does not apply to the sat")):
        refused = run_cli("solve", FLOW5, *args)
        assert refused.exit_code == 2 and message in refused.output


def test_flowsat_answers_as_a_solver_program():
    """`--format rows` is the answer format programs give: flowsat solve as a program of its
    own (its whole process timed, as the peers are)."""
    rows = run_cli("solve", FLOW5, SELF_TOUCH, "--format", "rows")
    assert rows.exit_code == 1
    p = puzzle(FLOW5)
    board, verdict = rows.output.split("\n\n")[:2]
    assert read_answer(board, p).status == "solved" and verdict == "UNSOLVABLE"
    traced = trace(p, read_answer(board, p).rows, Rules())
    assert problems(p, traced) == [] and solution_grid(p, traced) == board.splitlines()[1:]
    assert solve(p, "program:" + shlex.join([sys.executable, "-m", "flowsat", "solve",
                                             "--format", "rows", "{file}"])).status == "solved"


def named(name: str, mode: str, *args: str) -> str:
    """`program:NAME=COMMAND` for the bench."""
    return program(mode, *args).replace("program:", f"program:{name}=", 1)


def test_bench_records_every_program_status_and_reports_them(tmp_path):
    pids, out = tmp_path / "pids", tmp_path / "bench"
    backends = ",".join(["sat", *(named(m, m) for m in ("table", "wrong", "crash")),
                         named("hang", "hang", str(pids))])
    result = run_cli("bench", FLOW5, CROSSING, "--backends", backends, "--encodings",
                     "edges-binary", "--solvers", "glucose4", "--no-baselines", "--timeout",
                     "1", "--out", str(out))
    assert result.exit_code == 5, result.output
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    got = {(Path(r["file"]).name, r["config"]): r["status"] for r in records}
    assert got == {
        ("flow_5x5.txt", "sat/edges-binary/glucose4"): "solved",
        ("flow_5x5.txt", "program/table"): "solved",
        ("flow_5x5.txt", "program/wrong"): "wrong",
        ("flow_5x5.txt", "program/crash"): "error",
        ("flow_5x5.txt", "program/hang"): "timeout",
        ("crossing_3x3.txt", "sat/edges-binary/glucose4"): "unsolvable",
        ("crossing_3x3.txt", "program/table"): "limit",
        ("crossing_3x3.txt", "program/wrong"): "wrong",
        ("crossing_3x3.txt", "program/crash"): "error",
        ("crossing_3x3.txt", "program/hang"): "timeout",
    }
    solved = next(r for r in records if r["config"] == "program/table" and r["stats"])
    assert solved["time_s"] == solved["stats"]["total_s"] > 0 and solved["cpu_s"] > 0
    leader, child, _ = wait_for(pids).split()
    assert gone(int(leader)) and gone(int(child))
    report = (out / "report.md").read_text()
    assert "**Wrong answers**" in report and "the whole process" in report
    assert "| `program/wrong` | 0 | 0 | 0 | 0 | 2 |" in report  # solved .. errors, wrong
    assert "- `program/table`: 1\u00d7 not in my table" in report  # gave up: UNKNOWN


def test_configurations_of_programs_are_named_and_checked():
    from flowsat.bench.configs import configurations

    configs = configurations(["program:go=/bin/cat", "program:/bin/cat -n"])
    assert [(c.name, c.options["command"]) for c in configs] == [
        ("program/go", "/bin/cat"), ("program/cat", "/bin/cat -n")]
    with pytest.raises(UsageError, match="not a program"):
        configurations(["program:x=/no/such/solver"])
    with pytest.raises(UsageError, match="needs its command"):
        configurations(["program"])


def test_output_that_is_no_answer_is_unreadable():
    p = Puzzle.from_text("A.A")
    assert read_answer("\n3 1\nAAA\n\n", p).rows == ("AAA",)
    assert read_answer("AAA", p).status == "solved"
    assert read_answer("unsolvable\n", p).status == "unsolvable"
    for text in ("", "AA\n", "AAA\nAAA\n", "4 1\nAAAA\n", "hello"):
        with pytest.raises(Unreadable):
            read_answer(text, p)


def test_boards_that_cannot_be_traced_say_why():
    p = Puzzle.from_text("A.B / ... / B.A")
    for rows, reason in ((("AAB", "A.B", "BAA"), "not a color"),
                         (("AAB", "AAB", "BBA"), "labelled"),
                         (("ABB", "ABB", "BBA"), "do not make one path")):
        with pytest.raises(Untraceable, match=reason):
            trace(p, rows, Rules())


@pytest.mark.parametrize("self_touch", [False, True])
def test_a_path_longer_than_the_search_budget_still_traces(self_touch, monkeypatch):
    """The budget bounds the search beyond one step a cell: a path of 250,000 cells (a
    1000x1000 spiral) is no wrong answer (here a budget of 2 against a row of 30 cells)."""
    monkeypatch.setattr("flowsat.program.answer.TRACE_BUDGET", 2)
    p = Puzzle(("A" + "." * 28 + "A",))
    rules = Rules(self_touch=self_touch)
    assert trace(p, ("A" * 30,), rules) == {"A": [(0, c) for c in range(30)]}


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 6), st.integers(2, 6), st.data())
def test_any_filling_traces_back_to_its_paths(width, height, data):
    """A grid cut into snake pieces (a boustrophedon cut at random), written as rows of labels,
    traces back to paths the checker accepts, and to the same cells per label."""
    snake = [(r, c if r % 2 == 0 else width - 1 - c) for r in range(height) for c in range(width)]
    cuts = sorted(data.draw(st.sets(st.integers(2, len(snake) - 2), max_size=len(snake) // 3)))
    pieces, last = [], 0
    for cut in [*cuts, len(snake)]:
        if cut - last >= 2:
            pieces.append(snake[last:cut])
            last = cut
    pieces[-1] += snake[last:]
    labels = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    paths = {labels[i]: piece for i, piece in enumerate(pieces)}
    rows = [["."] * width for _ in range(height)]
    for label, piece in paths.items():
        for cell in (piece[0], piece[-1]):
            rows[cell[0]][cell[1]] = label
    p = Puzzle(tuple("".join(row) for row in rows))
    traced = trace(p, tuple(solution_grid(p, paths)), Rules(self_touch=True))
    assert problems(p, traced, Rules(self_touch=True)) == []
    assert {c: set(path) for c, path in traced.items()} == {c: set(path)
                                                           for c, path in paths.items()}


def test_program_format_without_a_program_is_a_usage_error(tmp_path):
    result = run_cli("bench", FLOW5, "--backends", "sat", "--program-format", "grid",
                     "--out", str(tmp_path))
    assert result.exit_code == 2 and "applies to program" in result.output


def test_sigterm_of_a_bench_kills_the_program_its_worker_runs(tmp_path):
    """The bench stops its workers with SIGTERM first: a worker then kills its program's
    group and removes its files before it ends."""
    pids = tmp_path / "pids"
    bench = subprocess.Popen([sys.executable, "-m", "flowsat", "bench", FLOW5, "--backends",
                              named("hang", "hang", str(pids), "{file}"), "--timeout", "60",
                              "--out", str(tmp_path / "bench")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    leader, child, file = wait_for(pids, 30).split()
    bench.send_signal(signal.SIGTERM)
    assert bench.wait(10) == 130
    assert gone(int(leader)) and gone(int(child)) and not Path(file).parent.exists()
