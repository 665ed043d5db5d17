"""`flowsat solve --svg/--png/--animate` and `flowsat show` end to end."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import types
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

from flowsat import solve as solve_module
from flowsat.backend import REGISTRY
from flowsat.commands import app
from flowsat.result import Result
from flowsat.sat import boards
from tests.bench_backends import Plain
from tests.conftest import PUZZLES, ROOT
from tests.test_render import screen

EXAMPLES = PUZZLES / "examples"
FLOW5 = str(EXAMPLES / "flow_5x5.txt")
SET = str(EXAMPLES / "numberlink_set.txt")
CYCLES = str(PUZZLES / "unsolvable" / "cycles_5x6.txt")
CROSSING = str(PUZZLES / "unsolvable" / "crossing_3x3.txt")


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def untimed(lines: list[str]) -> list[str]:
    return [re.sub(r" in \d+\.\d+ s ", " in T s ", line) for line in lines]


# pictures

def test_svg_to_one_file_and_png_to_a_folder(tmp_path):
    pytest.importorskip("cairosvg", exc_type=ImportError)
    result = run("solve", "--svg", str(tmp_path / "one.svg"), "--png", str(tmp_path / "pngs"),
                 FLOW5)
    assert result.exit_code == 0, result.output
    root = ET.parse(tmp_path / "one.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert (tmp_path / "pngs" / "flow_5x5.png").read_bytes()[:4] == b"\x89PNG"


def test_a_folder_gets_a_file_per_puzzle_solved_or_not(tmp_path):
    result = run("solve", "--svg", str(tmp_path / "out"), FLOW5, SET, CROSSING)
    assert result.exit_code == 1  # crossing is unsolvable
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert names == ["crossing_3x3.svg", "flow_5x5.svg", "numberlink_set-1.svg",
                     "numberlink_set-2.svg", "numberlink_set-3.svg"]
    unsolved = (tmp_path / "out" / "crossing_3x3.svg").read_text()
    assert 'class="pipe"' not in unsolved and unsolved.count("<circle") == 4


def test_one_file_for_several_puzzles_is_a_usage_error(tmp_path):
    result = run("solve", "--svg", str(tmp_path / "x.svg"), SET)
    assert result.exit_code == 2
    assert result.stderr == (f"flowsat: error: --svg {tmp_path / 'x.svg'} is one file but the "
                             f"run has 3 puzzles; give a folder\n")
    assert result.stdout == ""


def test_png_without_cairosvg_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import cairosvg raises ImportError
    result = run("solve", "--png", str(tmp_path), FLOW5)
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith("flowsat: error: --png needs CairoSVG")
    assert line.endswith("install it with: pip install 'flowsat[png]'")


# the terminal replay

def search_backend(monkeypatch):
    """A stand-in best-first backend: it pops states that grow the SAT solution one color after
    the other, and after each a state that goes astray."""

    def solve(puzzle, options, observe=None):
        observe = observe or (lambda *event: None)
        solution = solve_module.solve(puzzle).paths
        state = {c: path[:1] for c, path in solution.items()}
        for color, path in solution.items():
            for k in range(2, len(path) + 1):
                observe("expand", state, [])
                wrong = next((n for n in puzzle.neighbors(path[k - 2]) if n not in path), None)
                if wrong:
                    observe("expand", {**state, color: [*path[:k - 1], wrong]}, [])
                state = {**state, color: path[:k]}
        return Result("solved", solution, stats={"nodes": 1})

    module = types.ModuleType("flowsat_test_search")
    module.BACKEND = Plain("search", solve, observes=True)
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setitem(REGISTRY, "search", module.__name__)


def test_search_replay_ends_in_the_board_of_the_plain_output(monkeypatch):
    search_backend(monkeypatch)
    plain = run("solve", "--backend", "search", FLOW5)
    animated = run("solve", "--backend", "search", "--animate", "--color", "--delay", "0", FLOW5)
    assert animated.exit_code == plain.exit_code == 0
    frames = re.findall(r"expand (\d+)/(\d+)", animated.stdout)
    states = 25 - 8  # popped on the way: the first dots, then one step at a time but the last
    assert [(int(k), int(n)) for k, n in frames] == [(k, states) for k in range(1, states + 1)]
    assert untimed(screen(animated.stdout)) == untimed(plain.stdout.splitlines()[:-1])


def test_sat_replay_shows_the_models_with_cycles_then_the_plain_output(monkeypatch):
    monkeypatch.setattr(boards, "COMPILE_UP_TO", -1)  # each run's models its own
    cadical = ["--encoding", "edges-binary", "--solver", "cadical195"]  # models with cycles
    plain = run("solve", "--allow-self-touch", *cadical, CYCLES)
    animated = run("solve", "--allow-self-touch", *cadical, "--animate", "--show-cycles",
                   "--color", "--delay", "0", CYCLES)
    cuts = re.findall(r"model \d+/\d+, (\d+) cycle", animated.stdout)
    assert sum(map(int, cuts)) == int(re.search(r"(\d+) cycle cuts", plain.stdout)[1]) > 0
    assert "╔" in animated.stdout and "\x1b[1;97;41m" in animated.stdout  # cycles highlighted
    assert untimed(screen(animated.stdout)) == untimed(plain.stdout.splitlines()[:-1])


def test_no_replay_and_no_ansi_escapes_when_piped():
    piped = subprocess.run([sys.executable, "-m", "flowsat", "solve", "--allow-self-touch",
                            "--animate", "--show-cycles", CYCLES], capture_output=True,
                           text=True, cwd=ROOT, check=False)
    assert piped.returncode == 0, piped.stderr
    assert "\x1b" not in piped.stdout
    assert untimed(piped.stdout.splitlines()) == untimed(
        run("solve", "--allow-self-touch", CYCLES).stdout.splitlines())


@pytest.mark.parametrize(("args", "message"), [
    (["--show-cycles"], "--show-cycles, --fast and --delay go with --animate"),
    (["--animate", "--format", "json"], "--animate draws text: it does not go with --format"),
])
def test_animation_options_that_do_not_go_together(args, message):
    result = run("solve", *args, FLOW5)
    assert result.exit_code == 2 and result.stderr.startswith(f"flowsat: error: {message}")


# flowsat show

def test_show_draws_the_solution_of_a_results_file_as_solve_does(tmp_path):
    results = tmp_path / "results.jsonl"
    results.write_text(run("solve", "--format", "json", FLOW5, SET, CROSSING).stdout)
    shown = run("show", "--solution", str(results), FLOW5, SET, CROSSING)
    assert shown.exit_code == 0, shown.output
    solved = run("solve", FLOW5, SET).stdout.split("\n\n")
    blocks = shown.stdout.split("\n\n")
    assert blocks[0].splitlines()[0] == f"{FLOW5}: solved ({results}:1)"
    assert [b.splitlines()[1:] for b in blocks[:4]] == [b.splitlines()[1:] for b in solved[:4]]
    assert blocks[4].splitlines() == [f"{CROSSING}: unsolvable ({results}:5)",
                                      "A · B", "· · ·", "B · A"]


def test_show_without_results_draws_the_unsolved_board():
    result = run("show", CROSSING)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [f"{CROSSING}: puzzle", "A · B", "· · ·", "B · A", ""]


def test_show_refuses_a_solution_that_fails_the_checker_in_one_line(tmp_path):
    record = json.loads(run("solve", "--format", "json", FLOW5).stdout)
    record["paths"]["H"] = record["paths"]["H"][:-1]  # a path that stops short of its dot
    results = tmp_path / "results.jsonl"
    results.write_text("not json\n" + json.dumps(record) + "\n")
    result = run("show", "--solution", str(results), FLOW5, CROSSING)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"{results}:1:1: not a result of `flowsat solve --format json`: Expecting value: "
        f"line 1 column 1 (char 0)",
        f"{results}:2:1: the solution of {FLOW5} fails the checker: path 'H' does not run "
        f"from one of its dots to the other",
        f"{CROSSING}:1:1: no result for this puzzle in {results}"]


def test_show_to_a_picture(tmp_path):
    result = run("show", "--svg", str(tmp_path / "board.svg"), FLOW5)
    assert result.exit_code == 0 and result.stdout == ""
    root = ET.parse(tmp_path / "board.svg").getroot()
    assert len(root.findall("{http://www.w3.org/2000/svg}circle")) == 16


def test_puzzle_files_of_the_same_name_get_distinct_pictures(tmp_path):
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "board.txt").write_text("A.A\nB.B\n")
    result = run("show", "--svg", str(tmp_path / "out"), str(tmp_path / "a"), str(tmp_path / "b"))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["board.svg", "board_2.svg"]


def test_show_with_a_missing_results_file_says_so_in_one_line(tmp_path):
    missing = tmp_path / "none.jsonl"
    result = run("show", "--solution", str(missing), FLOW5)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"{missing}:1:1: no such file\n"


def test_animate_needs_a_backend_that_reports_its_progress(monkeypatch):
    module = types.ModuleType("flowsat_test_silent")
    module.BACKEND = Plain("silent", lambda puzzle, *_: solve_module.solve(puzzle))
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setitem(REGISTRY, "silent", module.__name__)
    result = run("solve", "--backend", "silent", "--animate", FLOW5)
    assert result.exit_code == 2
    assert result.stderr == "flowsat: error: --animate does not apply to the silent backend\n"
