"""Experiment plans: `flowsat bench --plan FILE.toml` end to end, and bad plans refused up front."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from flowsat.bench.planfile import read_plan, solve_flags
from flowsat.bench.records import read_records
from flowsat.commands import app
from flowsat.result import UsageError
from tests.conftest import PUZZLES, ROOT

FIVE = PUZZLES / "small" / "5x5"
SAT_AND_SEARCH = """
[[configs]]
backend = "sat"
solver = "glucose4"

[[configs]]
name = "search"
backend = "astar"
"""
TINY = f"""
repeat = 2
timeout = 30
group_by = ["set", ["size", "kind"]]

[[sets]]
name = "first"
paths = ["{FIVE / '5x5-0001.txt'}"]

[[sets]]
name = "second"
paths = ["{FIVE}/5x5-000[2].txt"]

{SAT_AND_SEARCH}
[[configs]]
name = "sat-process"
backend = "sat"
timing = "process"
"""


def write(folder: Path, text: str, name: str = "plan.toml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def run_cli(*args: str):
    return CliRunner().invoke(app, list(args))


def test_a_tiny_plan_runs_end_to_end_in_both_timing_modes(tmp_path):
    plan, out = write(tmp_path, TINY, "tiny.toml"), tmp_path / "out"
    got = run_cli("bench", "--plan", str(plan), "--out", str(out))
    assert got.exit_code == 0, got.output
    records = read_records(out)
    assert len(records) == 2 * 3 * 2  # puzzles x configurations x repeats
    assert {r["status"] for r in records} == {"solved"}
    assert {(Path(r["file"]).name, r["set"]) for r in records} == {
        ("5x5-0001.txt", "first"), ("5x5-0002.txt", "second")}
    assert {r["config"]: r["timing"] for r in records} == {
        "sat/glucose4": "warm", "search": "warm", "sat-process": "process"}
    assert all(r["rules"] == {"self_touch": False, "fill_all": True} for r in records)
    process = [r for r in records if r["timing"] == "process"]
    assert all(r["backend"] == "program" and "flowsat solve" in r["options"]["command"]
               for r in process)
    meta = json.loads((out / "meta.json").read_text())
    assert meta["command"] == f"flowsat bench --plan {plan}"
    assert meta["settings"]["groups"] == [["set"], ["size", "kind"]]
    assert [s["name"] for s in meta["settings"]["sets"]] == ["first", "second"]
    assert (out / "plan.toml").read_text() == TINY
    report = (out / "report.md").read_text()
    assert f"flowsat bench --plan {plan}" in report
    assert "| `sat-process` | program | process |" in report
    assert "| set | puzzles |" in report and "| size and kind | puzzles |" in report
    assert "| by kind" not in report and "| kind | puzzles |" not in report  # the plan's only


def test_resume_of_a_plan_runs_what_is_missing_and_refuses_another_plan(tmp_path):
    one = TINY.replace("repeat = 2", "repeat = 1").split("[[configs]]\nname = \"search\"")[0]
    plan, out = write(tmp_path, one), tmp_path / "out"
    assert run_cli("bench", "--plan", str(plan), "--out", str(out)).exit_code == 0
    lines = (out / "results.jsonl").read_text().splitlines()
    (out / "results.jsonl").write_text(lines[0] + "\n")
    got = run_cli("bench", "--plan", str(plan), "--out", str(out), "--resume")
    assert got.exit_code == 0, got.output
    assert len(read_records(out)) == len(lines)
    other = write(tmp_path, one.replace("timeout = 30", "timeout = 20"), "other.toml")
    got = run_cli("bench", "--plan", str(other), "--out", str(out), "--resume")
    assert got.exit_code == 2 and "--resume must run the same plan" in got.output


@pytest.mark.parametrize(("text", "said"), [
    ("[[sets]]\nname='a'\npaths=['{five}']\n[[configs]]\nbackend='sat'\nno_foo=true\n",
     "plan.toml: configuration sat: --no-foo does not apply to the sat backend"),
    ("[[sets]]\nname='a'\npaths=['{five}']\n[[configs]]\nname='x'\nbackend='sat'\n"
     "max_conflicts=-1\n", "plan.toml: configuration x: --max-conflicts: -1"),
    ("[[sets]]\nname='a'\npaths=['nowhere/*.txt']\n[[configs]]\nbackend='sat'\n",
     "plan.toml: set a: nothing matches nowhere/*.txt"),
    ("[[sets]]\nname='a'\npaths=['{five}']\n[[configs]]\nbackend='astar'\ntiming='cold'\n",
     "timing 'cold' is not one of warm, process"),
    ("[[sets]]\nname='a'\npaths=['{five}']\n[[configs]]\nbackend='program:true'\n"
     "timing='warm'\n", "a solver program is timed as a whole process"),
    ("group_by=['shape']\n[[sets]]\nname='a'\npaths=['{five}']\n[[configs]]\nbackend='sat'\n",
     "group_by: no grouping 'shape'"),
    ("repeats=3\n", "plan.toml: the plan: unknown key 'repeats'"),
    ("[[sets]]\nname='a'\npaths=['{five}']\n", "give at least one [[configs]] table"),
    ("rules={touch=true}\n[[sets]]\nname='a'\npaths=['{five}']\n[[configs]]\nbackend='sat'\n",
     "the plan: rules: unknown key 'touch'"),
    ("repeat = = 2\n", "plan.toml:1:10: "),
])
def test_a_bad_plan_is_one_line_exit_2_before_anything_runs(tmp_path, text, said):
    plan = write(tmp_path, text.replace("{five}", str(FIVE)))
    got = run_cli("bench", "--plan", str(plan), "--out", str(tmp_path / "out"))
    assert got.exit_code == 2
    assert said in got.output and "Traceback" not in got.output
    assert not (tmp_path / "out" / "results.jsonl").exists()


def test_the_plan_says_the_settings_and_paths_do_not_go_with_it(tmp_path):
    plan = write(tmp_path, TINY)
    got = run_cli("bench", "--plan", str(plan), "--timeout", "3")
    assert got.exit_code == 2 and "--timeout does not go with --plan" in got.output
    got = run_cli("bench", str(FIVE), "--plan", str(plan))
    assert got.exit_code == 2 and "not both" in got.output


def test_process_timing_gives_flowsat_solve_the_configurations_flags():
    assert solve_flags("astar", {"preset": "2016", "max_nodes": 5}) == [
        "--preset", "2016", "--max-nodes", "5"]
    from flowsat.backend import backend

    switch = next(f for f in backend("astar").Options.__dataclass_fields__.values()
                  if (f.metadata.get("flag") or "").startswith("--no-"))
    assert solve_flags("astar", {switch.name: False}) == [switch.metadata["flag"]]
    assert solve_flags("astar", {switch.name: True}) == []


def test_every_committed_plan_is_valid_and_names_its_results_folder(monkeypatch):
    plans = sorted((ROOT / "plans").glob("*.toml"))
    assert plans
    monkeypatch.chdir(ROOT)
    for plan in plans:
        try:
            settings = read_plan(plan.relative_to(ROOT))
        except UsageError as err:  # the peers' programs or ../shared may not be here
            assert "not a program" in str(err) or "nothing matches ../shared" in str(err), err
            continue
        assert (ROOT / settings.out).is_dir(), plan


TWO_SETS = f"""
[[sets]]
name = "plain"
paths = ["{FIVE}/5x5-000[12].txt"]

[[sets]]
name = "touching"
paths = ["{FIVE}/5x5-000[12].txt"]
rules = {{ self_touch = true }}
"""  # the same files in two sets, under two rules
TWO_RULES = f"""
repeat = 1
timeout = 30
{TWO_SETS}
[[sets]]
name = "search only"
paths = ["{FIVE / '5x5-0001.txt'}"]
rules = {{ fill_all = false }}
configs = ["search"]

{SAT_AND_SEARCH}"""


def test_one_file_in_two_sets_runs_under_each_set_s_rules(tmp_path):
    plan, out = write(tmp_path, TWO_RULES), tmp_path / "out"
    got = run_cli("bench", "--plan", str(plan), "--out", str(out))
    assert got.exit_code == 0, got.output
    records = read_records(out)
    runs = sorted((r["set"], Path(r["file"]).name, r["config"]) for r in records)
    assert runs == sorted([(s, f"5x5-000{n}.txt", c) for s in ("plain", "touching")
                           for n in (1, 2) for c in ("sat/glucose4", "search")]
                          + [("search only", "5x5-0001.txt", "search")])
    rules = {r["set"]: r["rules"] for r in records}
    assert rules == {"plain": {"self_touch": False, "fill_all": True},
                     "touching": {"self_touch": True, "fill_all": True},
                     "search only": {"self_touch": False, "fill_all": False}}
    report = (out / "report.md").read_text()
    assert "| plain: 5x5-0001.txt |" in report and "| touching: 5x5-0001.txt |" in report
    by_rule = report.split("## By rule")[1].split("##")[0]
    assert "self-touch on" in by_rule and "fill-all off" in by_rule


def test_resume_goes_on_set_by_set(tmp_path):
    plan, out = write(tmp_path, TWO_RULES), tmp_path / "out"
    assert run_cli("bench", "--plan", str(plan), "--out", str(out)).exit_code == 0
    lines = (out / "results.jsonl").read_text().splitlines()
    kept = [line for line in lines if json.loads(line)["set"] != "touching"]
    (out / "results.jsonl").write_text("\n".join(kept) + "\n")
    got = run_cli("bench", "--plan", str(plan), "--out", str(out), "--resume")
    assert got.exit_code == 0, got.output
    after = (out / "results.jsonl").read_text().splitlines()
    assert len(after) == len(lines)  # the touching set's runs only, each once
    assert [json.loads(line)["set"] for line in after[len(kept):]] == ["touching"] * (
        len(lines) - len(kept))


def test_records_from_before_sets_read_and_report(tmp_path):
    """A results.jsonl without `set` and `rules` (before plans) still reads and reports."""
    plan, out = write(tmp_path, TINY), tmp_path / "out"
    assert run_cli("bench", "--plan", str(plan), "--out", str(out)).exit_code == 0
    old = []
    for line in (out / "results.jsonl").read_text().splitlines():
        record = json.loads(line)
        del record["set"], record["rules"]
        old.append(json.dumps(record))
    (out / "results.jsonl").write_text("\n".join(old) + "\n")
    assert len(read_records(out)) == len(old)
    got = run_cli("report", str(out))
    assert got.exit_code == 0, got.output
    assert "| 5x5-0001.txt |" in (out / "report.md").read_text()


@pytest.mark.parametrize(("text", "said"), [
    ("[[sets]]\nname='a'\npaths=['{five}']\nconfigs=['nobody']\n[[configs]]\nbackend='sat'\n",
     "plan.toml: set a: no configuration 'nobody'"),
    ("[[sets]]\nname='a'\npaths=['{five}']\nconfigs='sat'\n[[configs]]\nbackend='sat'\n",
     "plan.toml: set a: configs is a list"),
    ("[[sets]]\nname='a'\npaths=['{five}']\nrules={{fill_all=false}}\n[[configs]]\n"
     "name='p'\nbackend='sat'\ntiming='process'\n",
     "plan.toml: set a: the configuration p is timed as a process"),
    ("[[sets]]\nname='a'\npaths=['{five}']\n[[sets]]\nname='a'\npaths=['{five}']\n"
     "[[configs]]\nbackend='sat'\n", "plan.toml: two sets are named a"),
])
def test_a_bad_set_is_one_line_exit_2(tmp_path, text, said):
    plan = write(tmp_path, text.replace("{five}", str(FIVE)).replace("{{", "{").replace(
        "}}", "}"))
    got = run_cli("bench", "--plan", str(plan), "--out", str(tmp_path / "out"))
    assert got.exit_code == 2, got.output
    assert said in got.output and "Traceback" not in got.output
    assert len(got.output.strip().splitlines()) == 1
    assert not (tmp_path / "out" / "results.jsonl").exists()


WHOLE = f"""
repeat = 2
timeout = 30
{TWO_SETS}
[[configs]]
name = "one by one"
backend = "astar"

[[configs]]
name = "whole"
backend = "astar"
timing = "set"
preset = "2016"
"""


def test_a_set_timed_configuration_runs_each_set_in_one_process(tmp_path):
    plan, out = write(tmp_path, WHOLE), tmp_path / "out"
    got = run_cli("bench", "--plan", str(plan), "--out", str(out))
    assert got.exit_code == 0, got.output
    wholes = [r for r in read_records(out) if r["timing"] == "set"]
    assert sorted((r["set"], r["repeat"]) for r in wholes) == [
        ("plain", 1), ("plain", 2), ("touching", 1), ("touching", 2)]
    for r in wholes:
        assert r["status"] == "solved" and r["answers"] == {"solved": 2}
        assert len(r["files"]) == 2 and r["wall_s"] >= r["startup_s"] * 0.5 > 0
        assert r["puzzles"] == 2 and r["cells"] >= 2 * 25 and r["peak_mb"] > 0
        assert 0 < r["stats"]["total_s"] < r["wall_s"]  # the answers' stage seconds, summed
    assert len(read_records(out)) == 4 + 2 * 2 * 2  # and the per-puzzle runs
    report = (out / "report.md").read_text()
    section = report.split("## Whole sets in one process")[1].split("\n## ")[0]
    assert "| plain | `whole` | 2 | 2 | 2 | 4 solved |" in section  # files, puzzles, runs
    assert "`one by one`" in section
    got = run_cli("bench", "--plan", str(plan), "--out", str(out), "--resume")
    assert got.exit_code == 0 and len(read_records(out)) == 12  # nothing left to run


def test_a_whole_set_runs_under_its_rules_and_the_configuration_s_options():
    from flowsat.bench.plan import Place
    from flowsat.bench.planfile import configuration
    from flowsat.bench.whole import SetRun, command
    from flowsat.puzzle.rules import Rules

    config = configuration("p", {"backend": "astar", "preset": "2016", "timing": "set"}, 5.0)
    assert config.name == "astar/2016/set" and config.timing == "set"
    run = SetRun(Place("s", Rules(self_touch=True, fill_all=False)), ("a.txt",), config, 1)
    words = command(run, 5.0, ["a.txt"])
    assert words[words.index("solve"):] == [
        "solve", "--backend", "astar", "--format", "json", "--timeout", "5", "--preset",
        "2016", "--allow-self-touch", "--allow-empty", "a.txt"]
