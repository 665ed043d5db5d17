"""Hostile input: every case ends with a documented exit status, at most one clean line per
problem on stderr, never a traceback, never a hang (each case runs under an alarm).

Categories: puzzle file contents (through every command that reads puzzles), the file
system (devices, FIFOs, broken links, unreadable places, huge files), option values, spec and
result files, outside solver programs, the bench's up-front checks and resume, uncaught
exceptions, timeouts on a 200x200 board, and the DIMACS export against an outside solver.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from flowsat import solve as solve_module
from flowsat.commands import app
from flowsat.puzzle import Puzzle, read_puzzles
from flowsat.puzzle.formats import MAX_BYTES
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError
from flowsat.solve import solve
from tests.conftest import PUZZLES, hears_ctrl_c

FLOW5 = str(PUZZLES / "examples" / "flow_5x5.txt")
SELF_TOUCH = str(PUZZLES / "unsolvable" / "self_touch_5x5.txt")
CROSSING = str(PUZZLES / "unsolvable" / "crossing_3x3.txt")
STATUSES = {0, 1, 2, 3, 4}
LINE = re.compile(r"^(\S.*:\d+:\d+: \S|flowsat: \S)")  # FILE:LINE:COL: ... or flowsat: ...
ROOT_USER = hasattr(os, "geteuid") and os.geteuid() == 0


class Hung(Exception):
    pass


@contextlib.contextmanager
def alarm(seconds: float = 30):
    """Fail instead of hanging: the solve's own deadline keeps this timer as an outer one."""
    def hung(*_):
        raise Hung(f"still running after {seconds} s")

    before = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


def cli(*args: str, env: dict | None = None):
    with alarm():
        return CliRunner().invoke(app, list(args), env=env)


def clean(result, status: int | set[int] = STATUSES, problems: int = 1) -> list[str]:
    """The stderr lines, once the run is known to have ended cleanly: a documented status
    (the one expected), no traceback, each line located or flowsat's, few enough lines."""
    assert not isinstance(result.exception, Hung | AssertionError), result.exception
    statuses = {status} if isinstance(status, int) else status
    assert result.exit_code in statuses, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) <= problems, lines
    for line in lines:
        assert LINE.match(line), line
    return lines


# -- puzzle file contents, through every command that reads puzzles --------------------------

GOOD = b"AB\nAB\n"
CONTENTS = {  # name: (bytes, the status of `solve`, words of its one error line or None)
    "empty": (b"", 2, "empty file"),
    "blank lines": (b"\n\n  \n", 2, "empty file"),
    "bom only": (b"\xef\xbb\xbf", 2, "empty file"),
    "bom then grid": (b"\xef\xbb\xbf" + GOOD, 0, None),
    "bom then numberlink": (b"\xef\xbb\xbf2 2\nAB\nAB\n", 0, None),
    "crlf": (b"AB\r\nAB\r\n", 0, None),
    "nul byte": (b"AB\n\0B\n", 2, "NUL byte"),
    "invalid utf-8": (b"AB\n\xffB\n", 2, "not UTF-8"),
    "utf-16": ("AB\nAB\n".encode("utf-16"), 2, None),
    "only comments": (b"# a\n# b\n", 2, "only comment lines"),
    "comments and blanks": (b"# a\n\n# b\n\n", 2, "only comment lines"),
    "0 0 first": (b"0 0\n", 2, "before any puzzle"),
    "0 0 after comments": (b"# x\n0 0\n2 2\nAB\nAB\n", 2, "before any puzzle"),
    "header, too few rows": (b"3 3\nA.A\n", 2, "header says 3 rows"),
    "header, row too long": (b"2 2\nAB\nABC\n", 2, "header says 2"),
    "header, huge": (b"99999999999 99999999999\n", 2, "above the limit"),
    "header, no cells": (b"0 5\n", 2, "no cells"),
    "header alone": (b"3 3\n", 2, "header says 3 rows, found 0"),
    "header-like grid": (b"1 2\n...\n1.2\n", 2, None),
    "grid, ragged": (b"AB\nABC\n", 2, "row has 3 cells"),
    "grid, one dot": (b"A.\n..\n", 2, "only one dot"),
    "grid, three dots": (b"AAA\n...\n", 2, "three or more"),
    "grid, no dots": (b"...\n...\n", 2, "no dots"),
    "grid, too big": (b"A" + b"." * 2_000_000 + b"A\n", 2, "above the limit"),
    "numberlink, too big": (b"1500 1500\n" + b"." * 1500 + b"\n", 2, "above the limit"),
    "cr only": (b"AB\rAB\r", {1, 2}, None),
    "form feed": (b"A\x0cB\nA.B\n", {0, 1, 2}, None),
    "line separator": ("A\u2028B\nA.B\n".encode(), {0, 1, 2}, None),
    "tabs": (b"A\tB\nA\tB\n", {0, 1, 2}, None),
    "stray block": (b"2 2\nAB\nAB\nzzz\n2 2\nAB\nAB\n", 2, "expected a 'W H'"),
    "unsolvable": (b"AB\nBA\n", 1, None),
    "long line": (b"A" * 100_000 + b"\n", 2, None),
    "many numberlink": (b"2 2\nAB\nAB\n" * 50, 0, None),
}
AFTER_THE_FIRST = {"stray block"}  # errors past the first puzzle, which `encode` does not read
READERS = {  # command -> its arguments before the file
    "solve": ("solve", "-q"), "solve-json": ("solve", "--format", "json"),
    "astar": ("solve", "-q", "--backend", "astar"), "show": ("show",),
    "rate": ("rate",), "check-unique": ("check-unique", "-q"), "encode": ("encode",),
}


@pytest.mark.parametrize("command", READERS)
@pytest.mark.parametrize("name", CONTENTS)
def test_puzzle_file_contents(tmp_path, name, command):
    content, status, words = CONTENTS[name]
    path = tmp_path / "p.txt"
    path.write_bytes(content)
    result = cli(*READERS[command], str(path))
    broken = status == 2 and words is not None and not (command == "encode"
                                                         and name in AFTER_THE_FIRST)
    lines = clean(result, STATUSES if command != "solve" or not isinstance(status, int)
                  else status, problems=200)
    if broken:
        assert result.exit_code == 2 and any(words in line for line in lines), lines
        assert all(line.startswith(f"{path}:") for line in lines)


def test_line_numbers_count_newlines_only(tmp_path):
    path = tmp_path / "p.txt"
    path.write_bytes("2 2\nA\u2028B\nAB\n".encode())  # U+2028 is no line break in a file
    (err,) = read_puzzles(path)
    assert (err.line, err.col) == (2, 2) and "is not a cell" in err.message


def test_a_bom_is_dropped_not_read_as_a_cell(tmp_path):
    path = tmp_path / "p.txt"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD)
    (puzzle,) = read_puzzles(path)
    assert isinstance(puzzle, Puzzle) and puzzle.rows == ("AB", "AB")


# -- the file system -----------------------------------------------------------------------

def fifo(folder: Path) -> Path:
    path = folder / "fifo.txt"
    os.mkfifo(path)
    return path


def test_a_fifo_is_refused_not_waited_on(tmp_path):
    lines = clean(cli("solve", "-q", str(fifo(tmp_path)), FLOW5), 2)
    assert lines == [f"{tmp_path / 'fifo.txt'}:1:1: not a regular file (a FIFO): not read"]


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/urandom"])
@pytest.mark.parametrize("command", ["solve", "show", "rate", "encode", "check-unique"])
def test_devices_are_refused(device, command):
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    (line,) = clean(cli(command, device), 2)
    assert line == f"{device}:1:1: not a regular file (a character device): not read"


def test_a_file_above_the_byte_limit_is_not_read(tmp_path):
    path = tmp_path / "huge.txt"
    with path.open("wb") as f:  # sparse: no disk used
        f.truncate(MAX_BYTES + 1)
    (line,) = clean(cli("solve", "-q", str(path)), 2)
    assert "above the limit of" in line and line.startswith(f"{path}:1:1:")


@pytest.mark.parametrize("bad", ["missing.txt", "flow.txt/inside", "x" * 300 + ".txt"])
def test_an_unreadable_path_is_one_line_and_the_run_goes_on(tmp_path, bad):
    target = tmp_path / bad
    (tmp_path / "flow.txt").write_bytes(GOOD)
    result = cli("solve", "-q", str(target), FLOW5)
    (line,) = clean(result, 2)
    assert line.startswith(f"{target}:1:1: ")
    assert f"{FLOW5}: solved" in result.stdout


@pytest.mark.skipif(ROOT_USER, reason="root reads every file")
def test_a_file_without_read_permission_is_one_line(tmp_path):
    path = tmp_path / "locked.txt"
    path.write_bytes(GOOD)
    path.chmod(0)
    result = cli("solve", "-q", str(path), FLOW5)
    assert clean(result, 2) == [f"{path}:1:1: cannot read: Permission denied"]
    assert f"{FLOW5}: solved" in result.stdout


def folder_with_trouble(tmp_path: Path) -> Path:
    folder = tmp_path / "set"
    (folder / "sub").mkdir(parents=True)
    (folder / "good.txt").write_bytes(GOOD)
    (folder / "broken.txt").symlink_to(tmp_path / "nowhere")
    (folder / "dangling").symlink_to(tmp_path / "nowhere-either")
    (folder / "sub" / "loop").symlink_to(folder)
    fifo(folder / "sub")
    return folder


def test_a_folder_reports_broken_links_and_fifos_and_goes_on(tmp_path):
    folder = folder_with_trouble(tmp_path)
    result = cli("solve", "-q", str(folder))
    lines = clean(result, 2, problems=3)
    assert sorted(lines) == sorted([
        f"{folder / 'broken.txt'}:1:1: broken symbolic link (to '{tmp_path / 'nowhere'}')",
        f"{folder / 'dangling'}:1:1: broken symbolic link (to '{tmp_path / 'nowhere-either'}')",
        f"{folder / 'sub' / 'fifo.txt'}:1:1: not a regular file (a FIFO): not read"])
    assert f"{folder / 'good.txt'}: solved" in result.stdout


def test_an_unreadable_folder_inside_a_folder_is_one_line(tmp_path, monkeypatch):
    folder = tmp_path / "set"
    (folder / "locked").mkdir(parents=True)
    (folder / "good.txt").write_bytes(GOOD)
    real_scandir = os.scandir

    def scandir(path="."):
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    result = cli("solve", "-q", str(folder))
    assert clean(result, 2) == [f"{folder / 'locked'}:1:1: cannot read folder: "
                                f"Permission denied"]
    assert f"{folder / 'good.txt'}: solved" in result.stdout


@pytest.mark.parametrize("command", ["solve", "show", "rate", "check-unique"])
def test_a_folder_without_puzzle_files_says_so(tmp_path, command):
    (tmp_path / "notes.md").write_text("no puzzles here")
    lines = clean(cli(command, str(tmp_path)), 2)
    assert lines == [f"{tmp_path}:1:1: a folder with no puzzle files (*.txt) in it: skipped "
                     f"notes.md; a file given by name is always read ({tmp_path / 'notes.md'})"]


# -- option values -------------------------------------------------------------------------

OPTIONS = [  # command line before the option, the option
    (("solve", FLOW5), "--timeout"),
    (("solve", FLOW5, "--animate"), "--delay"),
    (("solve", FLOW5), "--max-cells"),
    (("solve", FLOW5, "--backend", "astar"), "--max-nodes"),
    (("solve", FLOW5, "--backend", "astar"), "--max-memory"),
    (("solve", FLOW5, "--backend", "astar"), "--bottleneck"),
    (("generate", "--size", "5x5"), "--timeout"),
    (("generate", "--size", "5x5"), "--max-conflicts"),
    (("generate", "--size", "5x5"), "--max-nodes"),
    (("generate", "--size", "5x5"), "--count"),
    (("generate", "--size", "5x5"), "--workers"),
    (("rate", FLOW5), "--max-nodes"),
    (("check-unique", FLOW5), "--timeout"),
    (("check-unique", FLOW5), "--max-conflicts"),
    (("bench", FLOW5), "--timeout"),
    (("bench", FLOW5), "--workers"),
    (("bench", FLOW5), "--repeat"),
    (("encode", FLOW5), "--max-cells"),
    (("show", FLOW5), "--max-cells"),
]
VALUES = ["nan", "inf", "-inf", "-1", "1e15", "banana"]


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize(("before", "option"), OPTIONS)
def test_option_values_out_of_bounds_are_one_usage_line(before, option, value, tmp_path):
    (line,) = clean(cli(*before, option, value, *(
        ["--out", str(tmp_path / "out")] if before[0] == "bench" else [])), 2)
    assert line.startswith("flowsat: error: ") and option in line


def test_library_calls_check_the_same_bounds():
    puzzle = Puzzle.from_text("AB / AB")
    for bad in (float("nan"), float("inf"), -1.0, 1e12):
        with pytest.raises(UsageError, match=r"--timeout: .* is not a number of seconds"):
            solve(puzzle, timeout=bad)
    with pytest.raises(UsageError, match="--max-nodes"):
        solve(puzzle, "astar", max_nodes=-3)


# -- spec files, result files, output places -----------------------------------------------

SPECS = {
    "not utf-8": b"\xff\xfe cells",
    "no links": b'cells = "binary"\ncards = 1\n',
    "missing field": b'cells = "binary"\n',
    "bad toml": b"cells = [[[",
    "wrong type": b'cells = 3\nlinks = "edges"\n',
    "unknown key": b'colour = "red"\n',
    "nul": b'cells = "\0"\n',
}


@pytest.mark.parametrize("name", SPECS)
def test_bad_spec_files_are_one_usage_line(tmp_path, name):
    spec = tmp_path / "mine.toml"
    spec.write_bytes(SPECS[name])
    for command in (("solve", FLOW5), ("encode", FLOW5)):
        (line,) = clean(cli(*command, "--encoding", str(spec)), 2)
        assert line.startswith(f"flowsat: error: {spec}")


SOLUTIONS = {
    "infinity": '{"file": "F", "index": 1, "status": "solved", "paths": {"A": [[Infinity, 0]]}}',
    "nan index": '{"file": "F", "index": NaN, "status": "solved", "paths": null}',
    "huge index": '{"file": "F", "index": 1e400, "status": "solved", "paths": null}',
    "deep nesting": "[" * 100_000 + "]" * 100_000,
    "not json": "solved, trust me",
    "array": "[1, 2, 3]",
    "paths not an object": '{"file": "F", "index": 1, "status": "solved", "paths": [1]}',
    "no status": '{"file": "F", "index": 1}',
    "nul": '{"file": "\0"}',
}


@pytest.mark.parametrize("name", SOLUTIONS)
def test_bad_result_files_are_clean_lines(tmp_path, name):
    results = tmp_path / "results.jsonl"
    results.write_text(SOLUTIONS[name].replace("F", FLOW5) + "\n")
    clean(cli("show", FLOW5, "--solution", str(results)), 2, problems=2)


@pytest.mark.parametrize("command", [
    ("generate", "--size", "5x5", "--out"), ("bench", FLOW5, "--backends", "astar", "--out"),
    ("experiment", FLOW5, "--encodings", "zucker2016", "--solvers", "g4", "--out")])
def test_out_naming_a_file_is_a_usage_error(tmp_path, command):
    existing = tmp_path / "existing"
    existing.write_text("mine")
    (line,) = clean(cli(*command, str(existing)), 2)
    assert "is a file, not a folder" in line and existing.read_text() == "mine"


@pytest.mark.parametrize("where", ["folder", "missing/x.cnf", "file/x.cnf"])
def test_encode_output_that_cannot_be_written(tmp_path, where):
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("")
    (line,) = clean(cli("encode", FLOW5, "-o", str(tmp_path / where)), 2)
    assert line.startswith(f"flowsat: error: cannot write {tmp_path / where}: ")


def test_generate_refuses_sizes_above_its_limit():
    (line,) = clean(cli("generate", "--size", "60x60"), 2)
    assert "above the generator's limit of 2500" in line


# -- outside solver programs ---------------------------------------------------------------

def program(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return shlex.quote(str(path))


FAILING = {  # program body: words of the error
    'echo "s SATISFIABLE"; echo "v 1 2 banana 0"': "(exit status 0): unreadable answer: "
                                                   "'banana' is not a literal",
    "exit 10": "(exit status 10): SATISFIABLE without a model",
    'echo "s SATISFIABLE"; exit 10': "(exit status 10): SATISFIABLE without a model",
    "exit 0": "(exit status 0): no answer",
    'echo "c oops" >&2; exit 1': "(exit status 1): no answer (neither SATISFIABLE nor "
                                 "UNSATISFIABLE); it said: c oops",
    "kill -SEGV $$": "(killed by SIGSEGV): no answer",
    "kill -KILL $$": "(killed by SIGKILL): no answer",
    'echo "s UNKNOWN"': "(exit status 0): no answer",
    'echo "s SATISFIABLE"; echo "v -1 -2 -3 0"': "its model falsifies clause",
    "head -c 100000 /dev/urandom": "(exit status 0): ",
}


@pytest.mark.parametrize("body", FAILING)
def test_an_outside_solver_without_a_clear_answer_is_its_error(tmp_path, body):
    command = program(tmp_path, "solver.sh", body)
    result = cli("solve", "--format", "json", FLOW5, "--solver", f"external:{command}")
    clean(result, 4, problems=0)
    assert '"status":"error"' in result.stdout and FAILING[body] in result.stdout
    assert "internal error" not in result.stdout


@pytest.mark.parametrize(("command", "words"), [
    ("", "external solver is empty"),
    ("'unclosed", "No closing quotation"),
    ("no-such-solver-program", "is not a program on PATH"),
    ("/no/such/file", "no such file"),
    ("/tmp", "is not an executable file"),
])
def test_outside_solver_commands_that_cannot_run(command, words):
    for args in (("solve", FLOW5), ("bench", FLOW5, "--backends", "sat", "--encodings",
                                    "zucker2016")):
        (line,) = clean(cli(*args, "--solver" if args[0] == "solve" else "--solvers",
                            f"external:{command}"), 2)
        assert words in line


def test_a_file_that_is_not_executable_says_so(tmp_path):
    script = tmp_path / "solver.sh"
    script.write_text("#!/bin/sh\nexit 20\n")
    (line,) = clean(cli("solve", FLOW5, "--solver", f"external:{script}"), 2)
    assert line == f"flowsat: error: external solver {str(script)!r} is not an executable file"


def sleeper(first: int) -> str:
    """A `sleep` (of under five hours) whose command line this process alone makes, the pid
    after the point, whatever runs beside it: other test workers, other users' tests."""
    return f"sleep {first}{os.getpid() % 1000:03d}.{os.getpid()}"


def leftovers(marker: str, whole: bool = True) -> list[str]:
    """The processes still running whose command line is the marker (or, not `whole`,
    holds it)."""
    pattern = f"^{re.escape(marker)}$" if whole else re.escape(marker)
    found = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True)
    return found.stdout.split()


def test_a_slow_solver_is_killed_with_its_children_at_the_timeout(tmp_path):
    marker = sleeper(7)
    command = program(tmp_path, "slow.sh", f"{marker} & {marker}")
    start = time.perf_counter()
    result = cli("solve", "-q", FLOW5, "--timeout", "0.5", "--solver", f"external:{command}")
    clean(result, 3, problems=0)
    assert time.perf_counter() - start < 3
    assert leftovers(marker) == []


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_flowsat_stopped_takes_the_solver_and_its_folder_with_it(tmp_path, sig):
    marker = sleeper(sig.value)
    command = program(tmp_path, "slow.sh", f"{marker} & {marker}")
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp)}
    proc = subprocess.Popen([sys.executable, "-c", "from flowsat.commands import main; main()",
                             "solve", FLOW5, "--solver", f"external:{command}"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=hears_ctrl_c)
    for _ in range(100):
        if leftovers(marker):
            break
        time.sleep(0.1)
    assert leftovers(marker), "the solver never started"
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=10)
    if sig == signal.SIGINT:
        assert proc.returncode == 130 and err.strip() == "flowsat: interrupted"
    else:  # flowsat.process turns SIGTERM into SystemExit(143) while a program runs
        assert proc.returncode == 143 and "Traceback" not in err
    assert leftovers(marker) == [] and list(temp.iterdir()) == []


# -- the bench: up-front refusals, resume ---------------------------------------------------

@pytest.mark.parametrize("solvers", ["lingeling", "kissat404", "external:no-such-program"])
def test_a_bench_refuses_solvers_that_cannot_run_before_it_starts(tmp_path, solvers):
    out = tmp_path / "out"
    (line,) = clean(cli("bench", FLOW5, "--backends", "sat", "--solvers", solvers,
                        "--encodings", "zucker2016", "--out", str(out)), 2)
    assert line.startswith("flowsat: error: ")
    assert not (out / "results.jsonl").exists()


BENCH = ("bench", FLOW5, "--backends", "astar")


@pytest.fixture(scope="module")
def benched(tmp_path_factory) -> Path:
    """A finished bench folder (copy it before resuming); its log has no progress bar."""
    out = tmp_path_factory.mktemp("bench") / "out"
    result = cli(*BENCH, "--out", str(out))
    clean(result, 0, problems=0)
    assert "ETA" not in result.output and "\r" not in result.output
    return out


@pytest.mark.parametrize(("change", "named"), [
    (("--backends", "astar,sat"), "backends"), (("--repeat", "2"), "repeat"),
    (("--allow-self-touch",), "allow-self-touch"), (("--timeout", "5"), "timeout"),
    (("--no-baselines",), "baselines"), (("--symmetries", "all"), "symmetries"),
    (("--paths",), "paths"),
])
def test_resume_with_other_settings_is_refused_naming_them(tmp_path, benched, change, named):
    out = shutil.copytree(benched, tmp_path / "out")
    again = [*BENCH, "--out", str(out), "--resume"]
    if change == ("--paths",):
        again[1] = CROSSING
    else:
        again += change
    (line,) = clean(cli(*again), 2)
    assert f"was run with {named} " in line and "--resume must keep it" in line


def test_resume_may_change_the_workers(tmp_path, benched):
    out = shutil.copytree(benched, tmp_path / "out")
    clean(cli(*BENCH, "--out", str(out), "--resume", "--workers", "2"), 0, problems=0)


# -- uncaught exceptions -------------------------------------------------------------------

def test_an_uncaught_exception_is_exit_4_in_one_line(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug\nover two lines")

    monkeypatch.setattr(solve_module, "run", broken)
    monkeypatch.setattr("flowsat.commands.solve.run", broken)
    (line,) = clean(cli("solve", FLOW5), 4)
    assert line == "flowsat: internal error (a bug): RuntimeError: a bug over two lines"
    result = cli("solve", FLOW5, env={"FLOWSAT_DEBUG": "1"})
    assert isinstance(result.exception, RuntimeError)  # developers keep the traceback


# -- timeouts that hold on a 200x200 board -------------------------------------------------

BIG = Puzzle.from_text(" / ".join(["a" + "." * 199] + ["." * 200] * 198 + ["a" + "." * 199]))
LIMIT_S = 1.0
SLACK_S = 2.0  # a second to unwind, doubled: on a loaded machine a process gets half a core
ROUTES = [("sat", {"solver": s}) for s in ("glucose4", "cadical195", "minisat22", "pycosat")
          ] + [("astar", {})]


@pytest.mark.parametrize("touch", [False, True], ids=["no-touch", "touch"])
@pytest.mark.parametrize(("backend", "options"), ROUTES,
                         ids=[o.get("solver", b) for b, o in ROUTES])
def test_a_200x200_board_returns_soon_after_its_timeout(backend, options, touch):
    if options.get("solver") == "pycosat":
        pytest.importorskip("pycosat")
    start = time.perf_counter()
    with alarm(60):
        result = solve(BIG, backend, rules=Rules(touch), timeout=LIMIT_S, **options)
    took = time.perf_counter() - start
    assert result.status in ("timeout", "solved", "unsolvable")
    assert took < LIMIT_S + SLACK_S, f"{took:.2f} s"


def test_a_timeout_waits_for_a_finalizer_to_end():
    """A solver freed by the collector while the deadline rings is freed whole (a timeout cut
    into its `__del__` would be lost there, and could free its C object twice)."""
    from flowsat.deadline import Timeout, deadline

    finished = []

    class Slow:
        def __del__(self):
            end = time.monotonic() + 0.4
            while time.monotonic() < end:
                pass
            finished.append(True)

    with alarm(30), pytest.raises(Timeout), deadline(0.01):
        Slow()  # freed at once; its __del__ runs past the deadline
        while True:
            time.sleep(0.01)
    assert finished == [True]


def test_a_timeout_waits_for_a_collector_callback_to_end():
    import gc

    from flowsat.deadline import Timeout, deadline

    finished = []

    def slow(phase, info):
        if phase == "start" and not finished:
            end = time.monotonic() + 0.4
            while time.monotonic() < end:
                pass
            finished.append(True)

    gc.callbacks.append(slow)
    try:
        with alarm(30), pytest.raises(Timeout), deadline(0.01):
            gc.collect()  # the callback runs past the deadline
            while True:
                time.sleep(0.01)
    finally:
        gc.callbacks.remove(slow)
    assert finished == [True]


def test_a_timeout_waits_for_a_weak_reference_callback_to_end():
    import weakref

    from flowsat.deadline import Timeout, deadline

    finished = []

    def slow():
        end = time.monotonic() + 0.4
        while time.monotonic() < end:
            pass
        finished.append(True)

    class Thing:
        pass

    with alarm(30), pytest.raises(Timeout), deadline(0.01):
        thing = Thing()
        weakref.finalize(thing, slow)
        del thing  # freed at once: the finalizer runs past the deadline
        while True:
            time.sleep(0.01)
    assert finished == [True]


def test_a_uniqueness_proof_of_a_200x200_board_returns_soon_after_its_timeout():
    from flowsat.unique import check_unique

    start = time.perf_counter()
    with alarm(60):
        found = check_unique(BIG, timeout=LIMIT_S)
    assert found.verdict in ("timeout", "unique", "multiple", "unsolvable")
    assert time.perf_counter() - start < LIMIT_S + SLACK_S


def test_solve_text_output_has_a_default_timeout(monkeypatch):
    seen = []

    def record(puzzle, backend, options, rules, limits, observe=None, kept=None):
        seen.append(limits.timeout)
        return real(puzzle, backend, options, rules, limits, observe, kept)

    real = solve_module.run
    monkeypatch.setattr("flowsat.commands.solve.run", record)
    clean(cli("solve", "-q", FLOW5), 0, problems=0)
    clean(cli("solve", "--format", "json", FLOW5), 0, problems=0)
    clean(cli("solve", "-q", FLOW5, "--solver", "lingeling"), 0, problems=0)  # cannot stop
    assert seen == [60.0, None, None]


# -- DIMACS: the export agrees with solve --------------------------------------------------

def outside_answer(cnf: str, drop_unique: bool) -> bool:
    """What PicoSAT, outside flowsat, says of an exported formula."""
    pycosat = pytest.importorskip("pycosat")
    lines = [ln for ln in cnf.splitlines() if ln and not ln.startswith(("c", "p"))]
    clauses = [[int(x) for x in ln.split()[:-1]] for ln in lines]
    if drop_unique and "switches the uniqueness rule on" in cnf:
        clauses = clauses[:-1]  # the complete encoding, as the header says
    return pycosat.solve(clauses) != "UNSAT"


@pytest.mark.parametrize("drop_unique", [False, True], ids=["as-is", "complete"])
@pytest.mark.parametrize("encoding", ["edges-unique-lazy", "edges-unique", "edges-binary",
                                      "edges-binary+touch=lazy", "zucker2016"])
@pytest.mark.parametrize("touch", [False, True], ids=["no-touch", "touch"])
def test_the_export_agrees_with_solve(encoding, touch, drop_unique):
    flags = ["--allow-self-touch"] if touch else []
    result = cli("encode", SELF_TOUCH, "--encoding", encoding, *flags)
    clean(result, 0, problems=1)
    (puzzle,) = read_puzzles(SELF_TOUCH)
    solved = solve(puzzle, encoding=encoding, rules=Rules(touch)).status == "solved"
    assert outside_answer(result.stdout, drop_unique) == solved


def test_the_export_says_what_it_leaves_out():
    result = cli("encode", FLOW5)
    (note,) = clean(result, 0)
    assert "cycles detached from the dots are not excluded" in note
    assert "c not complete: cycles detached" in result.stdout
    result = cli("encode", FLOW5, "--encoding", "edges-unique-lazy+cycles=order")
    assert clean(result, 0, problems=0) == []
    assert "c complete: every solution rule is stated" in result.stdout
