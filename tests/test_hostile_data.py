"""Hostile disks and lost processes: no command truncates a file it reads or leaves half a file
(`flowsat.atomic`), a place that cannot be written is one line and exit 2, workers end with
their parent however it dies, and bad numbers, specs and program output are one line each
(issue 39, items 1-6)."""

from __future__ import annotations

import ast
import errno
import json
import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from flowsat import atomic
from flowsat.bench.program_set import judge_all
from flowsat.puzzle import Puzzle, PuzzleError, read_puzzles
from flowsat.puzzle.formats import parse_puzzles
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError
from tests.conftest import PUZZLES, ROOT
from tests.test_hostile import ROOT_USER, alarm, clean, cli, leftovers

FLOW5 = str(PUZZLES / "examples" / "flow_5x5.txt")
FLOW7 = str(PUZZLES / "examples" / "flow_7x7.txt")
SMALL = str(PUZZLES / "small" / "5x5")  # twenty 5x5 puzzles
# modules that write files only into temporary folders of their own (bench/peak.py: a script
# on its own, with its output file in one)
TEMPORARY_ONLY = {"sat/oracle.py", "program/backend.py", "process.py", "bench/peak.py"}


def flowsat(*args: str, **how) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-B", "-m", "flowsat", *args], capture_output=True,
                          text=True, timeout=120, cwd=ROOT, **how)


# -- 1. outputs written beside their target and renamed over it ------------------------------

def test_convert_onto_its_own_input_rewrites_it_whole(tmp_path):
    a = tmp_path / "a.txt"
    shutil.copy(FLOW7, a)
    before = [p.rows for p in read_puzzles(a)]
    clean(cli("convert", "--to", "board", "-o", str(a), str(a)), 0, problems=0)
    after = list(read_puzzles(a))
    assert [p.rows for p in after] == before and after[0].format == "board"
    assert os.listdir(tmp_path) == ["a.txt"]  # no temporary file left


def test_convert_onto_its_own_input_keeps_it_when_a_puzzle_is_not_written(tmp_path):
    a = tmp_path / "a.txt"
    a.write_text("5,0,1,2,12;2,7,12,17,22;10,11,12,13,14\n5,0,2,2;0,9\n")  # level 2: one path
    before = a.read_bytes()
    lines = clean(cli("convert", "--to", "board", "-o", str(a), str(a)), 2, problems=2)
    assert lines == [f"{a}:2:7: FLOWS says 2 flows, the line has 1 paths",
                     f"flowsat: {a} left as it was: some of its puzzles were not written"]
    assert a.read_bytes() == before and os.listdir(tmp_path) == ["a.txt"]


def test_a_write_cut_short_leaves_the_old_file_and_no_other(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old\n")
    with pytest.raises(KeyboardInterrupt), atomic.replacing(target) as out:
        out.write(b"half of the n")
        raise KeyboardInterrupt
    assert target.read_text() == "old\n" and os.listdir(tmp_path) == ["out.txt"]


def test_a_symbolic_link_is_written_through_and_kept(tmp_path):
    real, link = tmp_path / "real.txt", tmp_path / "link.txt"
    real.write_text("old\n")
    link.symlink_to(real)
    atomic.write_file(link, "new\n")
    assert link.is_symlink() and real.read_text() == "new\n"
    assert sorted(os.listdir(tmp_path)) == ["link.txt", "real.txt"]


def test_a_new_file_gets_the_usual_permissions(tmp_path):
    atomic.write_file(tmp_path / "new.txt", "x")
    umask = os.umask(0)
    os.umask(umask)
    assert (tmp_path / "new.txt").stat().st_mode & 0o777 == 0o666 & ~umask


def writes_in_place(tree: ast.AST) -> list[int]:
    """The lines that open a file to write or write one whole, other than through atomic."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute | ast.Name):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
        modes = [a.value for a in node.args[1:2] + [k.value for k in node.keywords
                                                    if k.arg == "mode"]
                 if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if name in ("write_text", "write_bytes") or (
                name == "open" and any(set(m) & set("wax+") for m in modes)) or (
                name == "savefig" and node.args and not isinstance(node.args[0], ast.Name)):
            found.append(node.lineno)
    return found


def test_only_flowsat_atomic_writes_files():
    """Every output goes through `flowsat.atomic` (a writer of its own would truncate)."""
    package = ROOT / "flowsat"
    found = {f"{path.relative_to(package)}:{line}"
             for path in package.rglob("*.py")
             if str(path.relative_to(package)) not in TEMPORARY_ONLY | {"atomic.py"}
             for line in writes_in_place(ast.parse(path.read_text()))}
    assert found == set()
    assert writes_in_place(ast.parse('open(f, "w")\nPath(f).write_text("x")')) == [1, 2]


# -- 3. places that cannot be written: one line naming them, exit 2 --------------------------

@pytest.mark.parametrize("where", ["folder", "missing folder", "part a file", "full device"])
def test_convert_to_a_place_it_cannot_write(tmp_path, where):
    (tmp_path / "file").write_text("x")
    target, problem = {
        "folder": (tmp_path, "it is a folder"),
        "missing folder": (tmp_path / "no" / "x.txt", f"no folder {tmp_path / 'no'}"),
        "part a file": (tmp_path / "file" / "x.txt", "a part of its path is a file, not a folder"),
        "full device": (Path("/dev/full"), "No space left on device")}[where]
    if where == "full device" and not target.exists():
        pytest.skip("no /dev/full here")
    (line,) = clean(cli("convert", "--to", "board", "-o", str(target), FLOW5), 2)
    assert line == f"flowsat: error: cannot write {target}: {problem}"
    assert sorted(os.listdir(tmp_path)) == ["file"]


def test_a_manifest_that_is_a_folder_is_refused_before_any_puzzle_is_made(tmp_path):
    (line,) = clean(cli("generate", "--size", "5x5", "--seed", "1", "--out", str(tmp_path / "new"),
                        "--manifest", str(tmp_path)), 2)
    assert line == f"flowsat: error: cannot write {tmp_path}: it is a folder"
    assert not (tmp_path / "new").exists()


@pytest.fixture
def read_only(tmp_path, monkeypatch) -> Path:
    """A folder nobody may write into: by its mode, and (root writing anyway) as a read-only
    file system would refuse it."""
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    if ROOT_USER:
        def refuse(real):
            def call(path, *args, **kwargs):
                if str(path).startswith(str(folder)):
                    raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
                return real(path, *args, **kwargs)
            return call
        monkeypatch.setattr(os, "open", refuse(os.open))
        monkeypatch.setattr(os, "mkdir", refuse(os.mkdir))
    yield folder
    folder.chmod(0o755)


def test_a_read_only_folder_is_one_line(read_only):
    problem = "(Permission denied|Read-only file system)"
    (line,) = clean(cli("convert", "--to", "board", "-o", str(read_only / "x.txt"), FLOW5), 2)
    assert re.fullmatch(f"flowsat: error: cannot write {read_only / 'x.txt'}: {problem}", line)
    (line,) = clean(cli("bench", FLOW5, "--backends", "astar", "--no-baselines",
                        "--out", str(read_only / "out")), 2)
    assert re.fullmatch(f"flowsat: error: cannot make folder {read_only / 'out'}: {problem}",
                        line)
    (line,) = clean(cli("bench", FLOW5, "--backends", "astar", "--no-baselines",
                        "--out", str(read_only)), 2)
    assert re.fullmatch(f"flowsat: error: cannot write {read_only / 'meta.json'}: {problem}",
                        line)
    (line,) = clean(cli("show", FLOW5, "--svg", str(read_only / "pictures")), 2)
    assert str(read_only / "pictures") in line
    assert os.listdir(read_only) == []


def test_a_bench_out_that_is_a_file_is_one_line(tmp_path):
    file = tmp_path / "file"
    file.write_text("x")
    plan = tmp_path / "plan.toml"
    plan.write_text(f'out = "{file}"\ntimeout = 5\n[[sets]]\nname = "s"\npaths = ["{FLOW5}"]\n'
                    f'[[configs]]\nbackend = "astar"\n')
    (line,) = clean(cli("bench", "--plan", str(plan)), 2)
    assert line == f"flowsat: error: cannot write into {file}: it is a file, not a folder"
    (line,) = clean(cli("bench", FLOW5, "--backends", "astar", "--out", str(file / "out")), 2)
    assert line.startswith(f"flowsat: error: cannot make folder {file / 'out'}: ")
    assert file.read_text() == "x"


def small_disk(size: int):
    """A process whose files cannot grow past `size` bytes, as on a disk that fills up (a
    write past it is cut there and fails: Python ignores SIGXFSZ)."""
    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE,
                                      (size, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))


@pytest.mark.parametrize(("size", "full"), [(4096, "results.jsonl"), (1024, "meta.json")])
def test_a_bench_on_a_full_disk_keeps_whole_lines_and_no_temporary_file(tmp_path, size, full):
    out = tmp_path / "out"
    done = flowsat("bench", SMALL, "--backends", "sat", "--encodings", "edges-turns",
                   "--solvers", "glucose4", "--no-baselines", "--out", str(out),
                   preexec_fn=small_disk(size))
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [f"flowsat: error: cannot write {out / full}: "
                                        f"File too large"]
    assert not [p for p in os.listdir(out) if p.endswith(".tmp")]
    text = (out / "results.jsonl").read_text() if (out / "results.jsonl").exists() else ""
    assert text == "" or text.endswith("\n")
    records = [json.loads(line) for line in text.splitlines()]
    if full == "meta.json":
        assert records == [] and not (out / "meta.json").exists()
    else:  # the runs recorded before the disk filled, and meta.json says so
        meta = json.loads((out / "meta.json").read_text())
        assert 0 < len(records) == meta["sessions"][0]["runs"] < 20


def test_a_record_that_does_not_fit_is_taken_back(tmp_path):
    path = tmp_path / "records.jsonl"
    path.write_text('{"a":1}\n')
    with atomic.open_records(path) as out:
        atomic.append_line(out, '{"b":2}')
        before = resource.getrlimit(resource.RLIMIT_FSIZE)
        resource.setrlimit(resource.RLIMIT_FSIZE, (path.stat().st_size + 10, before[1]))
        try:
            with pytest.raises(UsageError, match="File too large"):
                atomic.append_line(out, json.dumps({"c": "x" * 100}))
        finally:
            resource.setrlimit(resource.RLIMIT_FSIZE, before)
        atomic.append_line(out, '{"d":4}')
    assert path.read_text() == '{"a":1}\n{"b":2}\n{"d":4}\n'


# -- 2. workers end with their parent ---------------------------------------------------------

@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pgrep and fork")
def test_workers_and_their_programs_end_when_solve_is_killed(tmp_path):
    folder = tmp_path / f"jobs{os.getpid()}"
    folder.mkdir()
    for i in range(20):  # two blocks of 16 and 4: two workers
        shutil.copy(FLOW5, folder / f"p{i:02d}.txt")
    marker = f"sleep 6{os.getpid() % 1000}"
    proc = subprocess.Popen([sys.executable, "-m", "flowsat", "solve", "--jobs", "2",
                             "--backend", f"program:{marker}", str(folder)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    with alarm(60):
        while len(leftovers(marker)) < 2:  # each worker runs the program
            time.sleep(0.1)
        workers = set(leftovers(str(folder), whole=False)) - {str(proc.pid)}
        assert len(workers) == 2
        proc.kill()
        proc.wait()
        while running(workers) or leftovers(marker):
            time.sleep(0.1)


WATCHED = """
import os, threading, time
from flowsat.parallel import watch_parent
parent = os.getpid()
child = os.fork()
if child == 0:  # the fall-back where the system does not signal a parent's death
    threading.Thread(target=watch_parent, args=(parent,), daemon=True).start()
    time.sleep(60)
    os._exit(0)
print(child, flush=True)
time.sleep(60)
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_worker_watching_its_parent_ends_when_it_is_killed():
    proc = subprocess.Popen([sys.executable, "-c", WATCHED], stdout=subprocess.PIPE, text=True,
                            cwd=ROOT)
    with alarm(30):
        child = proc.stdout.readline().strip()
        assert running({child}) == {child}
        proc.kill()
        proc.wait()
        while running({child}):
            time.sleep(0.1)
    proc.stdout.close()


def running(pids: set[str]) -> set[str]:
    """Those of the processes still running (a zombie nobody reaps is not)."""
    alive = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z":
            alive.add(pid)
    return alive


# -- 4. a symbolic link loop in a folder ----------------------------------------------------

def test_a_symbolic_link_loop_in_a_folder_is_one_bad_file(tmp_path):
    shutil.copy(FLOW5, tmp_path / "good.txt")
    (tmp_path / "a.txt").symlink_to(tmp_path / "b.txt")
    (tmp_path / "b.txt").symlink_to(tmp_path / "a.txt")
    (tmp_path / "up").symlink_to(tmp_path)  # a folder loop, read once
    result = cli("solve", "--format", "json", str(tmp_path))
    lines = clean(result, 2, problems=2)
    assert lines == [f"{tmp_path / n}:1:1: cannot read: Too many levels of symbolic links"
                     for n in ("a.txt", "b.txt")]
    statuses = {r["file"]: r["status"] for r in map(json.loads, result.stdout.splitlines())}
    assert statuses == {str(tmp_path / "good.txt"): "solved", str(tmp_path / "a.txt"): "error",
                        str(tmp_path / "b.txt"): "error"}


# -- 5. numbers of the level-pack format (and the board and Numberlink formats) --------------

BIG = "1" * 4301  # one digit more than Python turns into an int


@pytest.mark.parametrize(("text", "col", "says"), [
    (f"5,0,1,1;{BIG},2", 9, "path cell: a number of 4301 digits, too large"),
    (f"5,0,1,1;0,{BIG}", 11, "path cell: a number of 4301 digits, too large"),
    (f"{BIG},0,1,1;0,1", 1, "SIZE: a number of 4301 digits, too large"),
    (f"5:{BIG},0,1,1;0,1", 3, "SIZE: a number of 4301 digits, too large"),
    (f"5,0,{BIG},1;0,1", 5, "LEVEL: a number of 4301 digits, too large"),
    ("5,0,1,¹⁸;0,1", 7, "FLOWS: expected a number (digits 0-9), found '¹⁸'"),
    ("5,0,1,1;¹⁸,2", 9, "path cell: expected a number (digits 0-9), found '¹⁸'"),
    ("5,0,1,1;1,٣", 11, "path cell: expected a number (digits 0-9), found '٣'"),
    ("5,0,1,-5;18,17,12", 7, "FLOWS: expected a number (digits 0-9), found '-5'"),
    ("5,0,1,2", 7, "FLOWS says 2 flows, the line has 0 paths"),
])
def test_a_bad_number_of_a_level_line_is_named(text, col, says):
    (item,) = parse_puzzles(text + "\n", "p.txt")
    assert isinstance(item, PuzzleError), item
    assert (item.line, item.col, item.message) == (1, col, says)


@pytest.mark.parametrize("text", [f"{BIG} 5\n", f"flowsat board 5x{BIG}\n. .\n",
                                  f"flowsat board 2x1 level {BIG}\nA A\n"])
def test_a_huge_number_in_the_other_formats_is_one_line(tmp_path, text):
    (tmp_path / "p.txt").write_text(text)
    (line,) = clean(cli("solve", str(tmp_path / "p.txt")), 2)
    assert line.startswith(f"{tmp_path / 'p.txt'}:1:")


def test_a_level_pack_with_a_bad_number_exits_2_on_one_line(tmp_path):
    (tmp_path / "p.txt").write_text(f"5,0,1,1;{BIG},2\n")
    (line,) = clean(cli("solve", str(tmp_path / "p.txt")), 2)
    assert line == f"{tmp_path / 'p.txt'}:1:9: path cell: a number of 4301 digits, too large"


def test_a_grid_is_still_a_grid_beside_the_looser_pack_test():
    (item,) = parse_puzzles(",A,\nA..\n", "g.txt")  # two commas: as many as a grid's line
    # can have (a label is on two cells), one fewer than a level line's
    assert isinstance(item, Puzzle) and item.format == "grid"


# -- 6. encoding specs, solver programs over whole sets ---------------------------------------

def test_a_spec_without_summary_names_the_key(tmp_path):
    spec = tmp_path / "mine.toml"
    spec.write_text('cells = "onehot"\nlinks = "edges"\n')
    (line,) = clean(cli("solve", "--encoding", str(spec), FLOW5), 2)
    assert line == (f'flowsat: error: {spec}:1:1: no summary = "..."; a spec needs summary, '
                    f"cells, links")


def test_output_that_ends_inside_an_answer_is_no_answer():
    p5, p7 = (next(read_puzzles(f)) for f in (FLOW5, FLOW7))
    assert judge_all("x" * 100, [p5, p7], Rules()) == (
        {}, "the program's output is not one answer a puzzle: the output ends inside answer "
            "1 of 2")


def set_plan(tmp_path: Path, program: str, timeout: float) -> Path:
    """A plan of one solver program timed over a set of two puzzles."""
    plan = tmp_path / "plan.toml"
    plan.write_text(f'out = "{tmp_path / "out"}"\ntimeout = {timeout}\n'
                    f'[[sets]]\nname = "two"\npaths = ["{FLOW5}", "{FLOW7}"]\n'
                    f'[[configs]]\nname = "it"\nbackend = {json.dumps("program:" + program)}\n'
                    f'timing = "set"\n')
    return plan


def set_record(tmp_path: Path) -> dict:
    (line,) = (tmp_path / "out" / "results.jsonl").read_text().splitlines()
    return json.loads(line)


def test_a_set_program_printing_a_16_mib_line_is_an_error_of_its_run(tmp_path):
    script = tmp_path / "big.py"
    script.write_text("import sys\nsys.stdin.read()\nsys.stdout.write('x' * (17 << 20))\n")
    clean(cli("bench", "--plan", str(set_plan(tmp_path, shlex.join([sys.executable, str(script)]),
                                              20))), 5, problems=0)
    record = set_record(tmp_path)
    assert record["status"] == "error"
    assert record["error"].startswith("the program's output is not one answer a puzzle: the "
                                      "output ends inside answer 1 of 2; its output cut at 16 MiB")


def test_a_hanging_set_program_costs_the_plan_timeout_a_puzzle(tmp_path):
    start = time.perf_counter()
    with alarm(30):  # (60 s at least before: the start-up alone waited 60 s)
        clean(cli("bench", "--plan", str(set_plan(tmp_path, "sleep 100", 0.5))), 0, problems=0)
    record = set_record(tmp_path)
    assert record["status"] == "timeout" and record["startup_s"] < 5
    assert time.perf_counter() - start < 30
