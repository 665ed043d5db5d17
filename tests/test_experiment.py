"""`flowsat experiment`: a bench of encodings x solvers and its encodings report."""

from __future__ import annotations

import csv
import json
import math
import statistics

import pytest
from typer.testing import CliRunner

from flowsat.bench.experiment import effects
from flowsat.commands import app
from tests.conftest import PUZZLES

EXAMPLES = PUZZLES / "examples"
UNSOLVABLE = PUZZLES / "unsolvable"
ENCODINGS = "edges-binary,edges-unique,zucker2016"


def test_experiment_reports_every_configuration_per_set_and_what_each_choice_is_worth(
        tmp_path):
    result = CliRunner().invoke(app, [
        "experiment", str(EXAMPLES), str(UNSOLVABLE), "--encodings", ENCODINGS,
        "--solvers", "glucose4,minisat22", "--repeat", "2", "--timeout", "20",
        "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").open()]
    assert {r["backend"] for r in records} == {"sat"}
    assert len({r["config"] for r in records}) == 6

    rows = list(csv.DictReader((tmp_path / "encodings.csv").open()))
    assert {(r["group"], r["config"]) for r in rows} == {
        (str(group), f"sat/{e}/{s}") for group in (EXAMPLES, UNSOLVABLE)
        for e in ENCODINGS.split(",") for s in ("glucose4", "minisat22")}
    for r in rows:
        mine = [x for x in records if x["config"] == r["config"]
                and x["file"].startswith(r["group"])]
        per_puzzle = {}
        for x in mine:
            per_puzzle.setdefault((x["file"], x["index"]), []).append(x["time_s"])
        total = sum(statistics.median(v) for v in per_puzzle.values())
        assert float(r["total_s"]) == pytest.approx(total, rel=1e-9)
        assert int(r["solved"]) + int(r["unsolvable"]) == len(per_puzzle)
        assert r["unique"] == ("True" if "unique" in r["config"] else "False")

    text = (tmp_path / "encodings.md").read_text()
    assert text.startswith("# SAT encodings and solvers")
    assert f"flowsat experiment {EXAMPLES} {UNSOLVABLE} --encodings {ENCODINGS}" in text
    # the uniqueness rule against none, same solver: the ratio of the geometric means
    a, b = "sat/edges-binary/glucose4", "sat/edges-unique/glucose4"
    times = {}
    for x in records:
        if x["file"].startswith(str(EXAMPLES)) and x["config"] in (a, b):
            times.setdefault((x["file"], x["index"]), {}).setdefault(x["config"], []).append(
                x["time_s"])
    logs = [math.log(statistics.median(t[b]) / statistics.median(t[a])) for t in times.values()]
    ratio = math.exp(sum(logs) / len(logs))
    line = next(ln for ln in text.splitlines()
                if ln.startswith(f"| {EXAMPLES} | unique | false | true |") and a in ln
                and ln.endswith(f"{a} → {b} |"))
    assert line.split(" | ")[4] == f"{ratio:.3g}"
    assert (tmp_path / "report.md").exists()  # the bench's own report too

    sheet = (tmp_path / "encodings.csv").read_text()
    (tmp_path / "encodings.csv").unlink()
    again = CliRunner().invoke(app, ["report", str(tmp_path)])
    assert again.exit_code == 0, again.output
    assert (tmp_path / "encodings.md").read_text() == text  # flowsat report writes them again
    assert (tmp_path / "encodings.csv").read_text() == sheet


def test_experiment_needs_puzzles_or_the_shared_sets(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["experiment", "--encodings", "edges-binary"])
    assert result.exit_code == 2
    assert "give puzzle files or folders" in result.stderr


def test_only_configurations_that_differ_in_one_family_are_paired():
    names = ["edges-unique", "edges-unique-lazy", "edges-unique+deduce=true"]
    meta = {"configs": [{"name": f"sat/{n}/glucose4", "options": {"encoding": n,
                                                                  "solver": "glucose4"}}
                        for n in names],
            "settings": {"paths": ["set"]}}
    records = [{"config": f"sat/{n}/glucose4", "file": "set/a.txt", "index": 1,
                "name": "set/a.txt", "status": "solved", "time_s": t, "stats": {}}
               for n, t in zip(names, (0.2, 0.1, 0.4), strict=True)]
    pairs = {(e["family"], e["with"], e["and"]): e["ratio"] for e in effects(records, meta)}
    assert pairs == {
        ("touch", "sat/edges-unique/glucose4", "sat/edges-unique-lazy/glucose4"):
            pytest.approx(0.5),
        ("deduce", "sat/edges-unique/glucose4", "sat/edges-unique+deduce=true/glucose4"):
            pytest.approx(2.0)}  # lazy touch and deduce differ in two families: no pair


def test_experiment_races_propagation_first_as_a_choice(tmp_path):
    result = CliRunner().invoke(app, [
        "experiment", str(EXAMPLES), str(UNSOLVABLE), "--encodings", "edges-unique-lazy",
        "--solvers", "glucose4", "--deduce", "on,off", "--timeout", "20",
        "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").open()]
    on, off = (f"sat/edges-unique-lazy/glucose4/deduce={d}" for d in ("on", "off"))
    assert {r["config"] for r in records} == {on, off}
    for r in records:  # each configuration ran as it says: propagation first or not
        assert ("deduce_s" in r["stats"]) == (r["config"] == on), r
    for puzzle in {(r["file"], r["index"]) for r in records}:  # the same answers either way
        assert len({r["status"] for r in records if (r["file"], r["index"]) == puzzle}) == 1
    rows = list(csv.DictReader((tmp_path / "encodings.csv").open()))
    assert {(r["config"], r["propagate"]) for r in rows} == {(on, "on"), (off, "off")}
    text = (tmp_path / "encodings.md").read_text()
    assert "--deduce on,off" in text
    assert any(ln.startswith(f"| {EXAMPLES} | propagate | off | on |") for ln in text.splitlines())


def test_deduce_choices_are_checked_up_front(tmp_path):
    result = CliRunner().invoke(app, [
        "experiment", str(EXAMPLES), "--deduce", "maybe", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "--deduce: 'maybe' is not one of on, off, auto" in result.stderr
