"""What a run imports at start-up: a sat run of a text file imports none of what only other
runs use (external solver programs, propagation's residue, JSON, the other backends), and the
command line it reads is the same whatever `flowsat solve` took options for."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import typer

from flowsat.commands import assemble
from flowsat.commands import solve as command
from tests.conftest import PUZZLES

FIVE = PUZZLES / "small" / "5x5" / "5x5-0001.txt"
# imported where they are used: an external solver (`external:COMMAND`), propagation first on
# large boards, JSON output, PySAT's cardinality encodings (not the default pairwise), the
# names of characters that are no cell (bad input); and never: pkgutil
NOT_ON_A_SAT_RUN = ("flowsat.process", "flowsat.sat.dimacs", "flowsat.sat.residue", "json",
                    "pysat.card", "unicodedata", "pkgutil")


def imported_by(args: list[str]) -> tuple[set[str], str]:
    """The modules a command line's run imported, and what it printed (stdout and stderr)."""
    code = ("import sys; sys.argv = ['flowsat', *sys.argv[1:]]\n"
            "from flowsat.__main__ import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('MODULES', *sorted(sys.modules))")
    run = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                         check=True)
    text, _, modules = run.stdout.rpartition("MODULES ")
    return set(modules.split()), text + run.stderr


def test_a_sat_run_of_a_text_file_imports_only_what_it_uses():
    modules, text = imported_by(["solve", str(FIVE)])
    assert "solved" in text and "flowsat.sat.search" in modules
    assert not modules & set(NOT_ON_A_SAT_RUN)
    assert not {m for m in modules if m.startswith(("flowsat.search", "flowsat.program"))}


# what no `flowsat solve` of a puzzle file by sat needs: the drawing and plotting libraries,
# the bench machinery, the generator, the pictures, the search and program backends
NEVER_ON_A_SOLVE = ("rich", "matplotlib", "PIL", "dask", "flowsat.bench", "flowsat.generate",
                    "flowsat.render.svg", "flowsat.render.animate", "flowsat.search",
                    "flowsat.program", "flowsat.unique", "flowsat.difficulty")
# the layers a sat solve goes through (docs/architecture.md), and nothing else of flowsat
A_SOLVE_S_LAYERS = ("flowsat.commands.solve", "flowsat.commands.common", "flowsat.puzzle",
                    "flowsat.sat", "flowsat.render.text", "flowsat.render.geometry",
                    "flowsat.render.palette")


@pytest.mark.parametrize(("args", "shown", "also"), [
    ([], "solved", ()),
    (["--format", "json"], "solved", ()),
    (["--format", "rows"], "RBBBB\nRRYYB", ("flowsat.program",)),  # (solver programs' rows)
])
def test_a_solve_imports_neither_drawing_nor_plotting_nor_the_bench(args, shown, also):
    """Counted, not timed: every module a one-puzzle run imports is paid at each start."""
    modules, text = imported_by(["solve", *args, str(FIVE)])
    assert shown in text
    never = tuple(m for m in NEVER_ON_A_SOLVE if m not in also)
    assert not {m for m in modules if m.split(".")[0] in never or m.startswith(never)}
    ours = {m for m in modules if m.startswith("flowsat.") and m.count(".") > 1}
    assert {m for m in ours if not m.startswith((*A_SOLVE_S_LAYERS, *also))} == set()


def test_json_output_and_propagation_import_what_they_need():
    modules, text = imported_by(["solve", "--format", "json", "--deduce", "on", str(FIVE)])
    assert '"status":"solved"' in text
    assert {"json", "flowsat.sat.residue"} <= modules
    assert "flowsat.render.text" not in modules  # (the text format's)


@pytest.mark.parametrize(("args", "shown"), [
    (["show", str(FIVE)], "R B · · ·"),
    (["--help"], "solve"),
])
def test_commands_that_use_no_numpy_do_not_load_it(args, shown):
    """numpy (half of a small run's start-up) is loaded at its first use, not at import."""
    modules, text = imported_by(args)
    assert shown in text and "numpy" in modules  # (there, not loaded)
    assert not {m for m in modules if m.startswith("numpy.")}


def test_numpy_loads_whole_at_its_first_use_on_one_thread():
    code = ("import os, sys, threading, flowsat, numpy, numpy as np\n"
            "before = [m for m in sys.modules if m.startswith('numpy.')]\n"
            "sums = []\n"
            "ts = [threading.Thread(target=lambda: sums.append(int(np.arange(4).sum())))\n"
            "      for _ in range(4)]\n"
            "[t.start() for t in ts]; [t.join() for t in ts]\n"
            "from numpy.lib.stride_tricks import sliding_window_view\n"
            "import numpy.typing\n"
            "print(before, sums, type(numpy).__name__, hasattr(numpy, 'no_such_name'),\n"
            "      os.environ.get('OPENBLAS_NUM_THREADS'), numpy.__path__ is not None)")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    said = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env=env).stdout.split()
    assert said == ["[]", "[6,", "6,", "6,", "6]", "module", "False", "None", "True"]


@pytest.mark.parametrize("code", [
    "from flowsat.backend import backend, loaded; loaded(backend('sat'))",  # (solve's)
    "import flowsat.bench.workers",  # (the fork server preloads it: its workers share numpy)
])
def test_a_run_loads_numpy_before_its_first_puzzle(code):
    """Not inside the first puzzle's time (its stats), nor once in each bench worker."""
    said = subprocess.run([sys.executable, "-c", f"import sys\n{code}\n"
                           "print('numpy._core' in sys.modules)"],
                          capture_output=True, text=True, check=True).stdout.split()
    assert said == ["True"]


@pytest.mark.parametrize(("args", "shown", "search"), [
    (["--no-parity"], "parity does not apply to the sat backend", True),
    (["--backend", "astar", "--no-parity"], "solved", True),
    (["--backend=astar"], "solved", True),
    (["--help"], "--no-parity", True),
    (["--encoding", "edges-binary", "-q"], "solved", False),
])
def test_the_options_of_every_backend_are_there_when_the_command_line_may_need_them(
        args, shown, search):
    """Solve takes the options of the sat backend alone only when nothing else is asked for:
    another backend's option is refused as before, not as unknown to the command."""
    modules, text = imported_by(["solve", *args, str(FIVE)])
    assert shown in text and "No such option" not in text
    assert ("flowsat.search.checks" in modules) == search


def test_the_options_solve_takes_by_name_are_options_of_its_command():
    """`fit` tells the options on the command line from what typer makes: the names it knows
    must be the command's (one it got wrong would refuse a command line that reads)."""
    try:
        for args in (["solve", str(FIVE)], None):
            click_command = typer.main.get_command(assemble(["solve"], args)).commands["solve"]
            names = {n for p in click_command.params for n in (*p.opts, *p.secondary_opts)}
            known = command.option_names(command.solve)
            assert {"--encoding", "--format", "-q", "--color", "--no-color"} <= known <= names
            assert ("--no-parity" in known) == (args is None)
    finally:
        command.fit(None)  # every option again, for the other tests' `app`


@pytest.mark.parametrize(("args", "status", "said"), [
    (["solve", "--format", "json", str(FIVE)], 0, '"status":"solved"'),
    (["solve", str(PUZZLES / "unsolvable" / "crossing_3x3.txt")], 1, "unsolvable in"),
    (["solve", "no-such-file.txt"], 2, "no-such-file.txt:1:1: no such file"),
    (["solve", "--no-such-flag", str(FIVE)], 2, "No such option"),
])
def test_a_process_leaves_without_teardown_with_its_status_and_all_its_output(
        args, status, said):
    """`python -m flowsat` (and the `flowsat` script) ends by `os._exit` after the command:
    the exit status and the output are those of an ordinary exit."""
    run = subprocess.run([sys.executable, "-m", "flowsat", *args], capture_output=True,
                         text=True, check=False)
    assert run.returncode == status and said in run.stdout + run.stderr
    assert not run.stdout or run.stdout.endswith("\n")


@pytest.mark.parametrize(("code", "status"), [(None, 0), (0, 0), (3, 3), (True, 1),
                                              ("a message", 1)])
def test_the_exit_status_is_the_one_sys_exit_gives(code, status, capsys):
    from flowsat.__main__ import exit_status

    assert exit_status(code) == status
    assert capsys.readouterr().err == ("a message\n" if isinstance(code, str) else "")
