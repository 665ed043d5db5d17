"""`--jobs`: puzzles shared among worker processes give what one process gives, in the same order
(`flowsat.parallel`)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

import pytest
from typer.testing import CliRunner

from flowsat import parallel
from flowsat.commands import app
from flowsat.sat import boards
from flowsat.sat.board_cnf import compile_board
from tests.conftest import PUZZLES, ROOT, hears_ctrl_c

SMALL = PUZZLES / "small"
TIMES = re.compile(r"\d+(\.\d+)? s\b")


def flowsat(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flowsat", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)


@pytest.fixture
def files(tmp_path) -> list[str]:
    """Many puzzles, a bad file, a missing one, an unsolvable puzzle and one too large for
    the best-first search to solve within a hundred states."""
    bad = tmp_path / "bad.txt"
    bad.write_text("AB\nC\n")
    return [str(SMALL / "5x5"), str(bad), str(PUZZLES / "unsolvable" / "crossing_3x3.txt"),
            str(SMALL / "6x6"), str(tmp_path / "missing.txt"),
            str(PUZZLES / "large" / "50x50" / "50x50-0001.txt"), str(SMALL / "7x7")]


def test_text_is_the_same_on_two_workers_timings_aside(files):
    """The best-first search carries nothing from one puzzle to the next: its lines are those
    of one process, byte for byte but the times. A budget of states, not seconds, stops the
    50x50 board: both runs do the same work however loaded the machine is."""
    heads = ["--backend", "astar", "--problem", "heads", "--max-nodes", "100"]  # (the sweeps
    # answer the 50x50 board's limit with the states they reached, which vary from run to run)
    one = flowsat("solve", *heads, "--jobs", "1", *files)
    two = flowsat("solve", *heads, "--jobs", "2", *files)
    assert one.returncode == two.returncode == 3, one.stderr
    assert ": limit in " in one.stdout and ": unsolvable " in one.stdout
    assert one.stdout.count("solved in") == 60
    assert TIMES.sub("T s", one.stdout) == TIMES.sub("T s", two.stdout)
    assert one.stderr == two.stderr and one.stderr.count("\n") == 2  # the bad and missing files


def test_a_worker_times_out_as_one_process_does(monkeypatch):
    """The deadline rings in a worker as in the command's process: a 50x50 board in each of
    two workers, with a timeout no machine solves it within."""
    monkeypatch.setattr(parallel, "BLOCK", 1)
    monkeypatch.setattr(parallel, "MIN_ITEMS_A_WORKER", 1)
    assert parallel.workers_for(2, 2) == 2
    big = str(PUZZLES / "large" / "50x50" / "50x50-0001.txt")
    result = CliRunner().invoke(app, ["solve", "--backend", "astar", "--problem", "heads",
                                      "--timeout", "0.5", "--jobs", "2", big, big])
    assert result.exit_code == 3, result.output
    assert [line.split(": ")[1].split(" in ")[0] for line in result.stdout.splitlines()] == [
        "timeout", "timeout"]


def timeless(line: str) -> dict:
    """A JSON record without its timings (the stats ending in `_s`)."""
    record = json.loads(line)
    record["stats"] = {k: v for k, v in (record["stats"] or {}).items() if not k.endswith("_s")}
    return record


def test_json_is_the_same_on_two_workers_timings_aside(files):
    """SAT: the records, stats and all (a compiled board's counters too: each block of
    puzzles starts afresh), but the times."""
    args = ["--format", "json", "--timeout", "60", *files]
    one, two = flowsat("solve", "--jobs", "1", *args), flowsat("solve", *args)
    assert one.returncode == two.returncode == 2, one.stderr
    first, second = ([timeless(line) for line in out.stdout.splitlines()] for out in (one, two))
    assert len(first) == 64 and first == second
    assert one.stderr == two.stderr


def numberlink_pack(path: Path, folders: list[str], counts: list[int | None] | None = None
                    ) -> Path:
    """The puzzles of the folders (the first `counts` of each; None: all) in one file ('W H'
    and the rows of each), board after board."""
    text = ""
    for folder, count in zip(folders, counts or [None] * len(folders), strict=True):
        for file in sorted((SMALL / folder).iterdir())[:count]:
            rows = file.read_text().split()
            text += f"{len(rows[0])} {len(rows)}\n" + "\n".join(rows) + "\n\n"
    path.write_text(text)
    return path


def test_a_pack_answers_byte_for_byte_the_same_on_one_or_two_workers(tmp_path, monkeypatch):
    """Blocks of 8, 8, then 16 puzzles, two workers for a pack of three boards: each puzzle
    meets the same solver history (its block's), so its stats are those of one process,
    counters and compiled route alike; one process compiles each board once for all its
    blocks from the second on (`boards.Formulas`), each worker anew."""
    monkeypatch.setattr(parallel, "BLOCK", 8)
    monkeypatch.setattr(parallel, "MAX_BLOCK", 16)
    monkeypatch.setattr(parallel, "MIN_ITEMS_A_WORKER", 1)
    made = []
    monkeypatch.setattr(boards, "compile_board", lambda *a: made.append(a[0]) or
                        compile_board(*a))
    pack = numberlink_pack(tmp_path / "pack.txt", ["5x5", "6x6", "7x7"])
    assert parallel.workers_for(60, 2) == 2
    outputs = []
    for jobs in ("1", "2"):
        outputs.append(CliRunner().invoke(app, ["solve", "--format", "json", "--jobs", jobs,
                                                str(pack)]))
    # (the workers' compiles are theirs) the formulas are kept from a run's second block on
    # (a run of one block keeps none): the first block's 5x5 board compiles again, no other
    assert made and made.count(made[0]) == 2 and len(made) == len(set(made)) + 1
    assert outputs[0].exit_code == outputs[1].exit_code == 0, outputs[0].output
    one, two = ([timeless(line) for line in out.stdout.splitlines()] for out in outputs)
    assert len(one) == 60 and one == two
    later = [r["stats"] for r in one if r["index"] > 8 and r["stats"].get("route") == "compiled"]
    assert later and any(s["board_puzzles"] > 0 for s in later)
    assert all(s["board_puzzles"] < 16 for s in later)  # a block's boards are its own
    assert any(s["board_puzzles"] >= 8 for s in later)  # (in blocks of 16 from the third)


def test_a_board_its_block_shares_compiles_at_its_first_puzzle(tmp_path, monkeypatch):
    """Blocks of 8: the first all 5x5, the second one 5x5, one 6x6 and six 7x7 puzzles. A
    board two puzzles of a block share is compiled (or loaded) at the first of them; a
    board alone in its block is encoded per puzzle; the same on one or two workers."""
    monkeypatch.setattr(parallel, "BLOCK", 8)
    monkeypatch.setattr(parallel, "MIN_ITEMS_A_WORKER", 1)
    pack = numberlink_pack(tmp_path / "pack.txt", ["5x5", "6x6", "7x7"], [9, 1, 6])
    records = []
    for jobs in ("1", "2"):
        result = CliRunner().invoke(app, ["solve", "--format", "json", "--jobs", jobs, str(pack)])
        assert result.exit_code == 0, result.output
        records.append([timeless(line) for line in result.stdout.splitlines()])
    assert records[0] == records[1]
    stats = [r["stats"] for r in records[0]]
    assert [s["route"] == "compiled" for s in stats] == [True] * 8 + [False] * 2 + [True] * 6
    assert [s["board_puzzles"] for s in stats[:8] + stats[10:]] == [*range(8), *range(6)]


@pytest.mark.parametrize("jobs", ["0", "-1"])
def test_jobs_below_one_is_a_usage_error(jobs):
    for command in ("solve", "rate", "check-unique", "convert"):
        result = CliRunner().invoke(app, [command, "--jobs", jobs, str(SMALL / "5x5")])
        assert result.exit_code == 2, result.output
        assert "--jobs" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def distinct_boards(tmp_path) -> list[str]:
    """The first puzzle of each size (the SAT counters of a rating depend on the puzzles of
    the same board solved before it in its process), and a bad file."""
    bad = tmp_path / "bad.txt"
    bad.write_text("A.\n")
    return [str(sorted(folder.iterdir())[0]) for folder in sorted(SMALL.iterdir())] + [str(bad)]


@pytest.mark.parametrize("command", [["rate", "--max-nodes", "1000"], ["check-unique"],
                                     ["convert", "--to", "pack"]])
def test_rate_check_unique_convert_the_same_on_two_workers(command, tmp_path, monkeypatch):
    monkeypatch.setattr(parallel, "MIN_ITEMS_A_WORKER", 1)
    outputs = []
    for jobs in ("1", "2"):
        result = CliRunner().invoke(app, [*command, "--jobs", jobs, *distinct_boards(tmp_path)])
        outputs.append((result.exit_code, result.stdout, result.stderr))
    assert outputs[0] == outputs[1]
    assert outputs[0][0] == 2 and outputs[0][1].count("\n") >= 13


def test_answers_come_in_order_from_the_workers(monkeypatch):
    """The work runs in other processes (two of them), its answers and exceptions come back
    in input order."""
    monkeypatch.setattr(parallel, "BLOCK", 8)

    def work(n: int) -> tuple[int, int]:
        if n % 7 == 3:
            raise ValueError(f"item {n}")
        return n, os.getpid()

    got = list(parallel.answers(range(50), work, 2))
    assert [item for item, _ in got] == list(range(50))
    pids = {done.get()[1] for n, done in got if n % 7 != 3}
    assert len(pids) == 2 and os.getpid() not in pids
    for n, done in got:
        if n % 7 == 3:
            with pytest.raises(ValueError, match=f"item {n}"):
                done.get()
        else:
            assert done.get()[0] == n


def test_a_dead_worker_answers_with_an_error(monkeypatch):
    """The rest of its block is answered with the error, the next blocks go on."""
    monkeypatch.setattr(parallel, "BLOCK", 8)

    def work(n: int) -> int:
        if n == 20:
            os._exit(9)
        return n

    got = list(parallel.answers(range(60), work, 2))
    assert [item for item, _ in got] == list(range(60))
    with pytest.raises(RuntimeError, match="exit status 9"):
        got[20][1].get()
    block = next(b for b in parallel.bounds() if 20 in b)
    assert all(got[n][1].error for n in range(21, block.stop))
    assert got[block.stop][1].get() == block.stop
    assert [done.get() for n, done in got if n > 20 and not done.error][-1] == 59


def test_blocks_grow_by_index_alone(monkeypatch):
    monkeypatch.setattr(parallel, "BLOCK", 4)
    monkeypatch.setattr(parallel, "MAX_BLOCK", 16)
    first = list(islice(parallel.bounds(), 8))
    assert [len(b) for b in first] == [4, 4, 8, 8, 16, 16, 16, 16]
    assert [b.start for b in first[1:]] == [b.stop for b in first[:-1]] and first[0].start == 0
    assert [parallel.blocks_in(n) for n in (0, 1, 4, 5, 8, 9, 16, 17)] == [0, 1, 1, 2, 2, 3, 3, 4]


def test_one_process_starts_each_block_afresh_told_its_items(monkeypatch):
    """Each block is read whole before the work on it starts, and told to `fresh`."""
    monkeypatch.setattr(parallel, "BLOCK", 4)
    monkeypatch.setattr(parallel, "MAX_BLOCK", 8)
    fresh: list[tuple[int, int, list[int]]] = []
    seen: list[int] = []
    read: list[int] = []
    for _ in parallel.answers(counted(30, read), seen.append,
                              fresh=lambda items: fresh.append((len(seen), len(read), items))):
        pass
    starts = [b.start for b in islice(parallel.bounds(), 5)]
    ends = [*starts[1:], 30]
    assert [(done, ahead) for done, ahead, _ in fresh] == list(zip(starts, ends, strict=True))
    assert starts == [0, 4, 8, 16, 24]
    assert [items for *_, items in fresh] == [list(range(a, b))
                                              for a, b in zip(starts, ends, strict=True)]


def counted(count: int, read: list[int]) -> Iterator[int]:
    """The numbers up to `count`, each noted in `read` as it is read."""
    for n in range(count):
        read.append(n)
        yield n


@pytest.mark.parametrize(("count", "jobs", "workers"), [(10**6, 3, 3), (65, 2, 2), (64, 2, 1),
                                                        (200, 8, 3), (10**6, 1, 1)])
def test_read_ahead_reads_what_tells_the_workers(count, jobs, workers, monkeypatch):
    """Up to the first item of the block the last worker wanted would get, or to the end
    (blocks of 64, 64, 128, 128, 256...)."""
    monkeypatch.setattr(parallel, "BLOCK", 64)
    monkeypatch.setattr(parallel, "MAX_BLOCK", 256)
    read: list[int] = []
    items, got = parallel.read_ahead(counted(count, read), jobs)
    wanted = next(islice(parallel.bounds(), jobs - 1, None)).start + 1
    assert got == workers and len(read) == (min(count, wanted) if jobs > 1 else 0)
    assert next(items) == 0


def test_the_workers_start_before_the_items_are_all_read():
    """The parent reads a block at a time, one a worker ahead of them: the first answers come
    while most items are still unread, and every item comes back."""
    read: list[int] = []
    answered = parallel.answers(counted(5000, read), lambda n: n * n, 2)
    first, done = next(answered)
    assert (first, done.get()) == (0, 0) and len(read) < 1000
    assert [done.get() for _, done in answered] == [n * n for n in range(1, 5000)]


def test_few_puzzles_start_no_worker():
    assert parallel.workers_for(1, None) == 1
    assert parallel.workers_for(max(parallel.MIN_ITEMS_A_WORKER, parallel.BLOCK) * 2, 2) == 2
    assert parallel.workers_for(parallel.BLOCK, 2) == 1  # one block: one process
    assert parallel.workers_for(1000, 1) == 1


def test_ctrl_c_stops_the_workers_and_keeps_what_was_printed():
    folders = [str(SMALL / "15x15")] * 5
    process = subprocess.Popen([sys.executable, "-m", "flowsat", "solve", "-q", "--jobs", "2",
                                *folders], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=ROOT, preexec_fn=hears_ctrl_c)
    first = process.stdout.readline()
    process.send_signal(signal.SIGINT)
    rest, err = process.communicate(timeout=60)
    assert process.returncode == 130 and "interrupted" in err
    lines = [first, *rest.splitlines(keepends=True)]
    names = sorted(str(f) for f in (SMALL / "15x15").iterdir()) * 5
    assert [line.split(":")[0] for line in lines] == names[:len(lines)]
    assert len(lines) < len(names)
