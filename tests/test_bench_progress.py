"""A bench's progress where stderr is no terminal (`flowsat bench ... > log 2>&1`): a line at
each tenth of the runs and at least every `EVERY_S` seconds, with the runs done, the failures
and the time left; and the plots, drawn only where matplotlib is installed."""

from __future__ import annotations

import re
import sys
import time

from typer.testing import CliRunner

from flowsat.bench import progress
from flowsat.bench.progress import Progress, clock
from flowsat.commands import app
from tests.conftest import PUZZLES

LINE = re.compile(r"flowsat: bench (\d+)/(\d+) \((\d+)%\) · (\d+) failed · .* · (\S+) elapsed, "
                  r"(about \S+ left|time left unknown)$")


def test_a_line_at_each_tenth_of_the_runs(capsys, monkeypatch):
    monkeypatch.setattr(progress, "QUIET_S", 0.0)
    monkeypatch.setattr(progress, "FIRST_S", 0.0)
    with Progress(50, "lines") as shown:
        for k in range(50):
            shown.advance("error" if k % 7 == 0 else "solved")
    lines = capsys.readouterr().err.splitlines()
    found = [LINE.match(line) for line in lines]
    assert all(found), lines
    assert [int(m[1]) for m in found] == list(range(5, 51, 5))
    assert [int(m[4]) for m in found][-1] == 8  # the errors: runs 0, 7, ..., 49
    assert found[-1][6] == "about 0s left"


def test_a_line_every_few_seconds_while_no_run_ends(capsys, monkeypatch):
    monkeypatch.setattr(progress, "EVERY_S", 0.05)
    with Progress(3, "lines"):
        time.sleep(0.4)
    lines = capsys.readouterr().err.splitlines()
    assert lines and all(LINE.match(line) for line in lines), lines
    assert lines[0].startswith("flowsat: bench 0/3 (0%)") and lines[0].endswith(
        "time left unknown")


def test_no_line_in_the_first_seconds(capsys, monkeypatch):
    monkeypatch.setattr(progress, "QUIET_S", 0.0)
    with Progress(10, "lines") as shown:
        for _ in range(10):
            shown.advance("solved")
    assert capsys.readouterr().err == ""  # a bench that ends in 10 s needs no line


def test_no_line_without_lines_asked(capsys):
    for mode in (None, False):
        with Progress(10, mode) as shown:
            for _ in range(10):
                shown.advance("solved")
    assert capsys.readouterr().err == ""


def test_the_clock_reads_as_a_person_would():
    assert [clock(s) for s in (0, 9.6, 65, 3725)] == ["0s", "10s", "1m05s", "1h02m"]


def test_bench_into_a_log_prints_progress_lines(tmp_path, monkeypatch):
    monkeypatch.setattr(progress, "QUIET_S", 0.0)
    monkeypatch.setattr(progress, "FIRST_S", 0.0)
    result = CliRunner().invoke(app, ["bench", str(PUZZLES / "examples"), "--backends", "sat",
                                      "--encodings", "edges-turns", "--solvers", "glucose4",
                                      "--no-baselines", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("flowsat: bench")]
    assert lines and all(LINE.match(line) for line in lines), result.stderr
    assert LINE.match(lines[-1])[3] == "100"


def test_bench_without_matplotlib_writes_the_report_and_says_how_to_get_plots(
        tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` fails
    result = CliRunner().invoke(app, ["bench", str(PUZZLES / "examples" / "flow_5x5.txt"),
                                      "--backends", "astar", "--no-baselines",
                                      "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "report.md").exists()
    assert not (tmp_path / "out" / "plots").exists()
    assert "flowsat: no plots: matplotlib is not installed (pip install 'flowsat[plots]' " \
           "draws them)" in result.stderr.splitlines()
