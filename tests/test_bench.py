"""`flowsat bench` and `flowsat report`: records, timeouts, crashes, resume, report numbers."""

from __future__ import annotations

import csv
import importlib.util
import json
import math
import os
import re
import signal
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from xml.etree import ElementTree

import pytest
from typer.testing import CliRunner

from flowsat.backend import REGISTRY
from flowsat.bench import Settings, bench, load_puzzles, write_report
from flowsat.bench.configs import configurations
from flowsat.bench.records import RESULTS, open_results, read_records
from flowsat.bench.report import machine
from flowsat.commands import app
from tests.conftest import PUZZLES, ROOT, ZUCKER, needs_shared

EXAMPLES = PUZZLES / "examples"
FLOW5 = str(EXAMPLES / "flow_5x5.txt")
FIELDS = {"file", "index", "name", "rows", "cols", "kind", "colors", "symmetry", "config",
          "backend", "options", "repeat", "status", "time_s", "wall_s", "cpu_s", "stats", "error",
          "load", "host", "machine", "timing"}
ONE_SAT = ["--encodings", "edges-binary", "--solvers", "cadical195", "--no-baselines"]


@pytest.fixture
def test_backends(monkeypatch):
    for name in ("hang", "dies", "raises", "naps", "slow", "astar"):
        monkeypatch.setitem(REGISTRY, name, f"tests.bench_backends.{name}")


def run_cli(*args: str):
    return CliRunner().invoke(app, list(args))


def key(r: dict) -> tuple:
    return r["file"], r["index"], r["symmetry"], r["config"], r["repeat"]


def lines(folder) -> list[dict]:
    return [json.loads(line) for line in (folder / RESULTS).read_text().splitlines()]


def test_small_bench_gives_one_record_per_run_with_consistent_fields(tmp_path):
    settings = Settings([str(EXAMPLES)], backends=["sat"], encodings=["edges-binary"],
                        solvers=["cadical195", "glucose4"], baselines=False, repeat=2,
                        timeout=30, out=str(tmp_path))
    puzzles, errors = load_puzzles([EXAMPLES])
    statuses = bench(settings, puzzles, progress=False)
    records = lines(tmp_path)
    assert not errors and len(puzzles) == 7
    assert len(records) == 7 * 2 * 2 == statuses["solved"]
    assert len({key(r) for r in records}) == len(records)
    assert {(p.file, p.index) for p in puzzles} == {(r["file"], r["index"]) for r in records}
    for r in records:
        assert set(r) == FIELDS
        assert r["status"] == "solved" and r["error"] is None and r["symmetry"] == "identity"
        assert r["config"] == f"sat/edges-binary/{r['options']['solver']}"
        assert 0 < r["time_s"] <= r["wall_s"] and r["time_s"] == r["stats"]["total_s"]
        assert r["cpu_s"] > 0
        assert r["stats"]["variables"] > 0 and r["cols"] * r["rows"] >= r["colors"] * 2
    meta = json.loads((tmp_path / "meta.json").read_text())
    assert meta["environment"]["cores"] == os.cpu_count()
    assert meta["command"].startswith(f"flowsat bench {EXAMPLES} --backends sat ")
    assert meta["sessions"][0]["complete"] is True and meta["sessions"][0]["runs"] == 28


def test_a_hanging_run_is_killed_at_the_timeout_and_the_bench_goes_on(tmp_path, test_backends):
    """The hung worker is killed a grace (1 s) after the timeout; the timeout leaves the SAT run
    of a 5x5 board room on a loaded machine (at 0.2 s it timed out under a load of 12)."""
    result = run_cli("bench", FLOW5, "--backends", "hang,sat", *ONE_SAT, "--timeout", "1",
                     "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    hung, solved = lines(tmp_path)
    assert (hung["config"], hung["status"], hung["time_s"]) == ("hang/default", "timeout", None)
    assert "worker killed" in hung["error"] and 2.0 <= hung["wall_s"] < 6
    assert (solved["config"], solved["status"]) == ("sat/edges-binary/cadical195", "solved")


def test_a_crashing_worker_is_recorded_as_error_and_the_bench_goes_on(tmp_path, test_backends):
    result = run_cli("bench", FLOW5, "--backends", "dies,raises,sat", *ONE_SAT, "--repeat", "2",
                     "--out", str(tmp_path))
    assert result.exit_code == 4, result.output
    got = [(r["config"], r["status"], r["error"]) for r in lines(tmp_path)]
    assert got == [("dies/default", "error", "worker died: exit status 3"),
                   ("raises/default", "error", f"RuntimeError: broken on {FLOW5}"),
                   ("sat/edges-binary/cadical195", "solved", None)] * 2
    assert (tmp_path / "report.md").exists()


def test_an_interrupted_bench_resumed_ends_with_every_run_once(tmp_path, test_backends):
    """The bench process is killed (SIGKILL) mid-way, a torn line is left at the end of the
    results as a kill during a write would, and --resume completes the set."""
    args = ["bench", str(EXAMPLES), "--backends", "naps", "--repeat", "4", "--timeout", "5",
            "--out", str(tmp_path)]
    code = ("import sys; from flowsat.backend import REGISTRY; "
            "REGISTRY['naps'] = 'tests.bench_backends.naps'; "
            "from flowsat.commands import app; app(sys.argv[1:])")
    child = subprocess.Popen([sys.executable, "-c", code, *args], cwd=ROOT,
                             stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    results = tmp_path / RESULTS
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and (
            not results.exists() or results.read_text().count("\n") < 5):
        time.sleep(0.01)
    child.send_signal(signal.SIGKILL)
    child.wait()
    before = lines(tmp_path)
    assert 5 <= len(before) < 28
    with results.open("a") as f:
        f.write('{"file": "puzzles/exa')
    assert len(read_records(tmp_path)) == len(before)

    assert run_cli(*args).exit_code == 2  # without --resume, results are never mixed up
    result = run_cli(*args, "--resume")
    assert result.exit_code == 0, result.output
    records = lines(tmp_path)
    assert records[:len(before)] == before
    assert len(records) == 28 == len({key(r) for r in records})
    puzzles = load_puzzles([EXAMPLES])[0]
    assert {key(r) for r in records} == {(p.file, p.index, "identity", "naps/default", k)
                                         for p in puzzles for k in range(1, 5)}
    meta = json.loads((tmp_path / "meta.json").read_text())
    assert len(meta["sessions"]) == 2 and meta["sessions"][1]["runs"] == 28 - len(before)


def test_resume_keeps_the_timeout(tmp_path):
    args = ["bench", FLOW5, *ONE_SAT, "--out", str(tmp_path)]
    assert run_cli(*args).exit_code == 0
    result = run_cli(*args, "--resume", "--timeout", "5")
    assert result.exit_code == 2 and "--resume must keep it" in result.output


def test_a_torn_last_line_is_cut_before_appending(tmp_path):
    (tmp_path / RESULTS).write_text('{"a": 1}\n{"file": "x", "ind')
    with open_results(tmp_path) as f:
        f.write(b'{"b": 2}\n')
    assert (tmp_path / RESULTS).read_text() == '{"a": 1}\n{"b": 2}\n'


def independent_medians(records: list[dict], field: str = "time_s") -> dict[tuple, float]:
    runs = defaultdict(list)
    for r in records:
        done = r["status"] in ("solved", "unsolvable")
        runs[r["file"], r["index"], r["config"]].append(r[field] if done else math.inf)
    return {k: statistics.median(v) for k, v in runs.items()}


def md_table(text: str, heading: str) -> list[dict[str, str]]:
    """The rows of the markdown table under a heading, as dicts by column name."""
    part = text.split(heading, 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip() for c in ln.strip("|").split("|")] for ln in part.splitlines()
            if ln.startswith("|")]
    return [dict(zip(rows[0], r, strict=True)) for r in rows[2:]]


def test_the_report_numbers_are_the_medians_of_the_records(tmp_path):
    settings = Settings([str(EXAMPLES), str(PUZZLES / "unsolvable")], backends=["sat"],
                        encodings=["edges-binary", "zucker2016"], solvers=["glucose4"],
                        baselines=False, repeat=3, timeout=30, out=str(tmp_path))
    puzzles = load_puzzles(settings.paths)[0]
    bench(settings, puzzles, progress=False)
    write_report(tmp_path, baseline="sat/zucker2016/glucose4", plots=False)
    records = lines(tmp_path)
    medians = independent_medians(records)
    cpu = independent_medians(records, "cpu_s")
    labels = {(r["file"], r["index"]): os.path.basename(r["name"]) for r in records}
    rows = list(csv.DictReader((tmp_path / "report.csv").open()))
    assert len(rows) == len(medians) == len(puzzles) * 2
    for row in rows:
        assert float(row["median_s"]) == pytest.approx(
            medians[row["file"], int(row["index"]), row["config"]], rel=1e-8)
        assert float(row["median_cpu_s"]) == pytest.approx(
            cpu[row["file"], int(row["index"]), row["config"]], rel=1e-8)
        assert int(row["runs"]) == 3

    text = (tmp_path / "report.md").read_text()
    table = md_table(text, "## Per puzzle: median time")
    by_label = {r["puzzle"]: r for r in table}
    for (file, index, config), m in medians.items():
        label = labels[file, index]
        cell = float(by_label[label][config].strip("*").replace(",", ""))
        assert cell == pytest.approx(m * 1000, rel=0.006)
        fastest = min(("sat/edges-binary/glucose4", "sat/zucker2016/glucose4"),
                      key=lambda c, f=file, i=index: medians[f, i, c])
        assert by_label[label]["winner"] == f"`{fastest}`"
    assert {r["answer"] for r in table} == {"solved", "unsolvable"}

    ratios = [medians[k[0], k[1], "sat/zucker2016/glucose4"] / m for k, m in medians.items()
              if k[2] == "sat/edges-binary/glucose4"]
    geo = math.exp(statistics.fmean(map(math.log, ratios)))
    summary = {r["configuration"]: r for r in md_table(text, "## Summary")}
    speedup = summary["`sat/edges-binary/glucose4`"]["speed-up vs `sat/zucker2016/glucose4`"]
    assert speedup == f"\u00d7{geo:.2f}"
    assert summary["`sat/zucker2016/glucose4`"]["solved"] == "7"
    assert "not comparable" not in text


def test_more_workers_than_cores_is_flagged(tmp_path):
    settings = Settings([FLOW5], backends=["sat"], encodings=["edges-binary"],
                        solvers=["cadical195"], baselines=False, workers=(os.cpu_count() or 1) + 1,
                        timeout=30, out=str(tmp_path))
    bench(settings, load_puzzles(settings.paths)[0], progress=False)
    write_report(tmp_path, plots=False)
    assert "timings are not comparable" in (tmp_path / "report.md").read_text()


def test_symmetries_all_runs_eight_orientations_and_reports_their_spread(tmp_path):
    result = run_cli("bench", FLOW5, "--backends", "sat", *ONE_SAT, "--symmetries", "all",
                     "--repeat", "2",
                     "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    records = lines(tmp_path)
    assert len(records) == 16 and len({r["symmetry"] for r in records}) == 8
    text = (tmp_path / "report.md").read_text()
    spread = md_table(text, "## Rotations and reflections")[0]
    assert spread["count"] == "conflicts" and spread["sensitive"] in ("yes", "slightly", "no")
    assert spread["count spread"].startswith("\u00d7")
    assert (tmp_path / "plots" / "orientation-spread.svg").read_text().startswith("<?xml")
    picture = tmp_path / "plots" / "hardest-1.svg"  # the solved board, small
    assert "![flow_5x5.txt](plots/hardest-1.svg)" in text
    pipes = ElementTree.fromstring(picture.read_text()).iter("{http://www.w3.org/2000/svg}path")
    assert len([p for p in pipes if p.get("class") == "pipe"]) == 8  # its eight colors


@needs_shared
def test_the_2016_figures_stand_beside_this_runs(tmp_path):
    files = [str(ZUCKER / "regular_5x5_01.txt"), str(ZUCKER / "extreme_8x8_01.txt")]
    result = run_cli("bench", *files, "--encodings", "zucker2016", "--solvers", "cadical195",
                     "--no-baselines", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    text = (tmp_path / "report.md").read_text()
    assert "ms over the 2 it finished; variables and clauses equal the 2016 program's on " \
           "2 of 2" in text
    work = md_table(text, "## Per puzzle: size of the work")
    assert [r["2016 C nodes"] for r in work] == ["16", "76"]
    assert "2016 C (ms)" in md_table(text, "## Per puzzle: median time")[0]


def test_default_configurations_and_the_2016_rows(test_backends):
    names = [c.name for c in configurations(["sat", "astar"])]
    pycosat = ["sat/zucker2016/pycosat"] if importlib.util.find_spec("pycosat") else []
    assert names == ["sat/edges-turns/glucose4", "sat/edges-turns/cadical195",
                     "sat/zucker2016/glucose4", "sat/zucker2016/cadical195", *pycosat,
                     "astar/default", "astar/2016"]
    astar_2016 = configurations(["astar"])[1]
    assert astar_2016.options == {"preset": "2016"} and astar_2016.is_2016
    assert [c.name for c in configurations(["sat"], ["zucker2016"], ["g4"], False)] == [
        "sat/zucker2016/glucose4"]


@pytest.mark.skipif(importlib.util.find_spec("pycosat") is None, reason="pycosat not installed")
def test_the_picosat_row_solves_as_the_others(tmp_path):
    result = run_cli("bench", FLOW5, str(PUZZLES / "unsolvable" / "crossing_3x3.txt"),
                     "--encodings", "zucker2016", "--solvers", "cadical195", "--out",
                     str(tmp_path))
    assert result.exit_code == 0, result.output
    got = {(r["config"], r["name"]): r["status"] for r in lines(tmp_path)}
    assert got[("sat/zucker2016/pycosat", FLOW5)] == "solved"
    assert "Every configuration that finished a puzzle gave the same answer" in (
        tmp_path / "report.md").read_text()


@pytest.mark.parametrize(("args", "message"), [
    (["--backends", "nosuch"], "unknown backend 'nosuch'"),
    (["--solvers", "nosuch"], "unknown solver 'nosuch'"),
    (["--backends", "hang", "--solvers", "g4"], "apply to the sat backend only"),
])
def test_usage_errors_exit_2_before_any_run(tmp_path, test_backends, args, message):
    result = run_cli("bench", FLOW5, *args, "--out", str(tmp_path / "out"))
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "out" / RESULTS).exists()


def test_report_of_a_folder_without_results_is_a_usage_error(tmp_path):
    result = run_cli("report", str(tmp_path))
    assert result.exit_code == 2 and "no results.jsonl" in result.output


def test_bad_puzzle_files_are_reported_and_the_rest_runs(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("A.A\nB\n")
    result = run_cli("bench", str(bad), FLOW5, "--backends", "sat", *ONE_SAT,
                     "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert re.search(rf"{re.escape(str(bad))}:2:2: row has 1 cells", result.output)
    assert [r["status"] for r in lines(tmp_path / "out")] == ["solved"]


def test_workers_import_the_flowsat_that_runs_the_bench(tmp_path):
    """Run from a folder holding another `flowsat` (a checkout beside an installed one), the
    workers still solve with the bench's own."""
    (tmp_path / "flowsat").mkdir()
    (tmp_path / "flowsat" / "__init__.py").write_text("WRONG = True\n")  # nothing inside
    (tmp_path / "p.txt").write_text("A.A\nB.B\n")
    script = Path(sys.executable).with_name("flowsat")  # the installed command
    if not script.exists():
        pytest.skip("no installed flowsat command beside this Python")
    done = subprocess.run([str(script), "bench", "p.txt", "--backends", "sat", *ONE_SAT,
                           "--out", "out"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert [r["status"] for r in read_records(tmp_path / "out")] == ["solved"]


def test_the_report_says_runs_waited_only_when_the_load_passed_the_cores():
    meta = {"environment": {"cores": 2}, "settings": {}}
    quiet, busy = ([{"load": x} for x in loads] for loads in ([0.9, 1.4], [1.5, 3.2]))
    assert "waited for a core" not in "\n".join(machine(meta, quiet))
    assert "highest 3.20 (above the number of cores" in "\n".join(machine(meta, busy))
