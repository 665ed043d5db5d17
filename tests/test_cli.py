"""`flowsat solve` end to end through typer's CliRunner: output, messages, exit statuses."""

from __future__ import annotations

import json
import sys
import types

import pytest
from typer.testing import CliRunner

from flowsat.backend import REGISTRY
from flowsat.commands import app
from flowsat.result import Result
from tests.bench_backends import Plain
from tests.conftest import PUZZLES

EXAMPLES = PUZZLES / "examples"
FLOW5 = str(EXAMPLES / "flow_5x5.txt")
CROSSING = str(PUZZLES / "unsolvable" / "crossing_3x3.txt")
SELF_TOUCH = str(PUZZLES / "unsolvable" / "self_touch_5x5.txt")


def run(*args: str):
    return CliRunner().invoke(app, ["solve", *args])


def records(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines()]


def test_all_solved_exit_0_with_a_drawn_board():
    result = run(FLOW5)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{FLOW5}: solved in ")
    board = lines[1:6]
    assert len(board) == 5 and any(ch in "".join(board) for ch in "─│┌┐└┘")
    assert "\x1b[" not in result.stdout  # plain when not a terminal


def test_color_on_demand():
    assert "\x1b[38;2;" in run(FLOW5, "--color").stdout


def test_quiet_prints_only_status_lines():
    result = run("--quiet", FLOW5, str(EXAMPLES / "numberlink_set.txt"))
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == [
        FLOW5] + [str(EXAMPLES / "numberlink_set.txt#") + str(k) for k in (1, 2, 3)]


def test_unsolvable_exit_1():
    result = run(FLOW5, CROSSING)
    assert result.exit_code == 1
    assert f"{CROSSING}: unsolvable" in result.stdout


def test_self_touch_switch():
    assert run(SELF_TOUCH).exit_code == 1
    assert run(SELF_TOUCH, "--allow-self-touch").exit_code == 0


def test_json_one_object_per_puzzle():
    result = run("--format", "json", FLOW5, str(EXAMPLES / "numberlink_set.txt"), CROSSING)
    objs = records(result.stdout)
    assert [(o["index"], o["status"]) for o in objs] == [
        (1, "solved"), (1, "solved"), (2, "solved"), (3, "solved"), (1, "unsolvable")]
    first = objs[0]
    assert set(first) == {"file", "index", "status", "backend", "rules", "encoding", "solver",
                          "puzzle", "grid", "paths", "stats", "error"}
    assert first["backend"] == "sat" and first["error"] is None
    grid = first["grid"]
    for letter, path in first["paths"].items():
        assert all(grid[r][c] == letter for r, c in path)
    assert all(ch != "." for row in grid for ch in row)
    assert first["puzzle"] == (EXAMPLES / "flow_5x5.txt").read_text().split()
    assert objs[-1]["paths"] is None and objs[-1]["grid"] is None  # only ever a solution
    assert objs[-1]["puzzle"] == ["A.B", "...", "B.A"]


def test_bad_inputs_exit_2_and_the_rest_goes_on(tmp_path):
    ragged = tmp_path / "ragged.txt"
    ragged.write_text("A.A\n..\n")
    result = run(str(tmp_path / "missing.txt"), str(ragged), FLOW5)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"{tmp_path / 'missing.txt'}:1:1: no such file",
        f"{ragged}:2:3: row has 2 cells, the first row has 3"]
    assert f"{FLOW5}: solved" in result.stdout
    assert "Traceback" not in result.output


def test_errors_appear_in_json_too(tmp_path):
    result = run("--format", "json", str(tmp_path / "missing.txt"))
    (obj,) = records(result.stdout)
    assert obj["status"] == "error" and "no such file" in obj["error"]
    assert obj["puzzle"] is obj["grid"] is obj["paths"] is None
    assert (obj["encoding"], obj["solver"]) == ("edges-turns", "glucose4")  # sat's defaults
    asked = run("--format", "json", "--encoding", "zucker2016", "--solver", "cadical195",
                str(tmp_path / "missing.txt"))
    (obj,) = records(asked.stdout)
    assert (obj["encoding"], obj["solver"]) == ("zucker2016", "cadical195")


def test_show_refuses_a_record_of_other_rows(tmp_path):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text((EXAMPLES / "flow_5x5.txt").read_text())
    answers = tmp_path / "answers.jsonl"
    answers.write_text(run("--format", "json", str(puzzle)).stdout)
    shown = CliRunner().invoke(app, ["show", str(puzzle), "--solution", str(answers)])
    assert shown.exit_code == 0 and "solved" in shown.stdout
    rows = puzzle.read_text().splitlines()
    puzzle.write_text("\n".join([rows[0][::-1], *rows[1:]]) + "\n")  # the file changed since
    shown = CliRunner().invoke(app, ["show", str(puzzle), "--solution", str(answers)])
    assert shown.exit_code == 2
    assert "the record is of another puzzle than" in shown.stderr


def test_timeout_exit_3_wins_over_2_and_1(tmp_path):
    result = run("--timeout", "0", FLOW5, str(tmp_path / "missing.txt"), CROSSING)
    assert result.exit_code == 3
    assert result.stdout.count(": timeout in ") == 2


def test_usage_errors_exit_2_in_one_line():
    for args in (["--solver", "nope", FLOW5], ["--encoding", "nope", FLOW5],
                 ["--backend", "nope", FLOW5]):
        result = run(*args)
        assert result.exit_code == 2
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert result.stderr.startswith("flowsat: error: ")


def test_folders_expand_to_their_puzzle_files():
    result = run("--quiet", str(EXAMPLES))
    assert result.exit_code == 0
    assert len(result.stdout.splitlines()) == 7


def test_a_wrong_solution_is_an_internal_error_never_printed(monkeypatch):
    def wrong(puzzle, *_):
        return Result("solved", {c: list(ends) for c, ends in puzzle.dots.items()})

    broken = types.ModuleType("flowsat_test_broken")
    broken.BACKEND = Plain("broken", wrong)
    monkeypatch.setitem(sys.modules, broken.__name__, broken)
    monkeypatch.setitem(REGISTRY, "broken", broken.__name__)
    result = run("--backend", "broken", "--format", "json", FLOW5)
    assert result.exit_code == 4
    (obj,) = records(result.stdout)
    assert obj["status"] == "error" and obj["paths"] is None
    assert "internal error (a bug)" in obj["error"]
    assert "internal error" in result.stderr


def test_help_documents_exit_statuses():
    result = CliRunner().invoke(app, ["solve", "--help"])
    assert "Exit status: 0 every puzzle solved; 1 some puzzle unsolvable" in result.stdout


@pytest.mark.parametrize("flag", ["--version"])
def test_version(flag):
    result = CliRunner().invoke(app, [flag])
    assert result.exit_code == 0 and result.stdout.startswith("flowsat ")


@pytest.mark.parametrize("color", [None, True, False])
def test_an_answer_is_printed_in_one_write_as_line_by_line(capsys, color):
    import typer

    from flowsat.commands.solve import echo

    red = "\x1b[31mA\x1b[0m─B"
    for parts in ([("p#1: solved", None), (red + "\n", color)], [("plain", None)],
                  [(red, None), (red, True)], [("x", True), ("y", False)]):
        echo(parts)
        once = capsys.readouterr().out
        for line, switch in parts:
            typer.echo(line, color=switch)
        assert once == capsys.readouterr().out


def test_a_dash_reads_the_puzzle_from_standard_input():
    text = (EXAMPLES / "flow_5x5.txt").read_text()
    result = CliRunner().invoke(app, ["solve", "--format", "json", "-"], input=text)
    assert result.exit_code == 0, result.output
    (obj,) = records(result.stdout)
    assert obj["file"] == "<stdin>" and obj["status"] == "solved"
    bad = CliRunner().invoke(app, ["solve", "-"], input="A.\n")
    assert bad.exit_code == 2
    assert bad.stderr == "<stdin>:1:1: label 'A' has only one dot; a color needs two\n"


def test_h_is_help_on_every_command():
    from flowsat.commands import COMMANDS

    for command in [[], *([name] for name in COMMANDS)]:
        short, long = (CliRunner().invoke(app, [*command, flag]) for flag in ("-h", "--help"))
        assert short.exit_code == 0 and short.stdout == long.stdout, command
        assert short.stdout.startswith("Usage: ")


def test_solve_without_files_prints_the_usage_line():
    result = CliRunner().invoke(app, ["solve"], prog_name="flowsat")
    assert result.exit_code == 2
    usage, error = result.stderr.splitlines()
    assert usage.startswith("Usage: flowsat solve [OPTIONS]")
    assert error == "flowsat: error: Missing argument 'files'."


def test_a_folder_of_extensionless_files_names_them_and_a_named_one_is_read(tmp_path):
    (tmp_path / "sub").mkdir()
    for name in ("janko", "b", "c", "sub/d.puz"):
        (tmp_path / name).write_text((EXAMPLES / "flow_5x5.txt").read_text())
    result = run("-q", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr == (f"{tmp_path}:1:1: a folder with no puzzle files (*.txt) in it: "
                             f"skipped b, c, janko and 1 more; a file given by name is always "
                             f"read ({tmp_path / 'b'})\n")
    named = run("-q", str(tmp_path / "janko"), str(tmp_path / "sub" / "d.puz"))
    assert named.exit_code == 0 and named.stdout.count(": solved") == 2
