"""DIMACS export (`flowsat encode`), outside solver programs (`--solver external:COMMAND`)
and the list of encodings (`flowsat encodings`)."""

from __future__ import annotations

import shlex
import sys

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver
from typer.testing import CliRunner

from flowsat.checker import problems
from flowsat.commands import app
from flowsat.puzzle import read_puzzles
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError
from flowsat.sat import DEFAULT_ENCODING
from flowsat.sat.decode import trace
from flowsat.sat.dimacs import read_answer
from flowsat.sat.formula import encode
from flowsat.sat.spec import builtin_specs
from flowsat.solve import solve
from tests.conftest import PUZZLES, ROOT

FLOW9 = PUZZLES / "examples" / "flow_9x9.txt"
CYCLES = PUZZLES / "unsolvable" / "cycles_5x6.txt"  # cycles galore with self-touch allowed
STANDIN = f"{shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'tests/solvers/standin.py'))}"


def run(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.mark.parametrize("encoding", ["edges-binary", "edges-unique", "zucker2016"])
def test_dimacs_round_trips_through_pysat_to_the_same_answer(tmp_path, encoding):
    cnf = tmp_path / "f.cnf"
    assert run("encode", str(FLOW9), "--encoding", encoding, "-o", str(cnf)).exit_code == 0
    (puzzle,) = read_puzzles(FLOW9)
    formula = encode(puzzle, encoding)
    loaded = CNF(from_file=str(cnf))
    assert loaded.nv == formula.enc.top
    assert loaded.clauses == formula.clauses + ([[formula.unique]] if formula.unique else [])
    with Solver(name="glucose4", bootstrap_with=loaded.clauses) as sat:
        while True:  # cut cycles as the backend does, until a model of paths only
            assert sat.solve()
            model = sat.get_model()
            traced = trace(formula.enc, formula.links.links(model))
            paths, cycles = traced.paths, traced.cycles
            if not cycles:
                break
            for cycle in cycles:
                sat.add_clause(formula.links.cut(cycle, model))
    assert problems(puzzle, paths) == []
    text = cnf.read_text()
    assert "c var 1 " in text and f"c encoding {encoding}:" in text


def test_dimacs_comments_name_every_variable(tmp_path):
    text = run("encode", str(FLOW9)).stdout
    names = [line.split()[2] for line in text.splitlines() if line.startswith("c var ")]
    (puzzle,) = read_puzzles(FLOW9)
    formula = encode(puzzle, DEFAULT_ENCODING)
    formula.state_lazy_touch()  # the export states what a solve adds lazily
    assert [int(n) for n in names] == list(range(1, formula.enc.top + 1))
    assert "c var 1 bit ((0, 0), 0)" in text
    assert any("edge ((0, 0), (0, 1))" in line for line in text.splitlines())


def test_encode_errors():
    result = run("encode", str(PUZZLES / "examples" / "numberlink_set.txt"), "--index", "9")
    assert result.exit_code == 2 and "has no puzzle 9" in result.stderr
    result = run("encode", str(FLOW9), "--encoding", "nope")
    assert result.exit_code == 2 and "unknown encoding 'nope'" in result.stderr


def test_external_solver_with_cycle_cuts_by_rerunning(tmp_path):
    log = tmp_path / "calls.log"
    (puzzle,) = read_puzzles(CYCLES)
    result = solve(puzzle, solver=f"external:{STANDIN} --log {log}",
                   rules=Rules(self_touch=True))
    assert result.status == "solved"
    assert problems(puzzle, result.paths, Rules(self_touch=True)) == []
    assert result.stats["touch_free_first"]["status"] == "unsolvable"  # (a search before)
    rounds = result.stats["rounds"]
    lines = log.read_text().splitlines()
    before, calls = lines[:-rounds], lines[-rounds:]
    assert before and rounds == result.stats["rebuilds"]
    clause_counts = [int(line.split()[1]) for line in calls]
    assert clause_counts == sorted(clause_counts)  # each rerun carries the cuts so far
    if result.stats["cycle_cuts"]:
        assert clause_counts[-1] == clause_counts[0] + result.stats["cycle_cuts"]
    assert solve(puzzle, solver=f"external:{STANDIN}").status == "unsolvable"


def test_external_solver_placeholders_and_result_file(tmp_path):
    script = tmp_path / "minisat_like.py"
    script.write_text(
        "import sys\nfrom pysat.formula import CNF\nfrom pysat.solvers import Solver\n"
        "f = CNF(from_file=sys.argv[1])\n"
        "with Solver(bootstrap_with=f.clauses) as s, open(sys.argv[2], 'w') as out:\n"
        "    ok = s.solve()\n"
        "    out.write('SAT\\n' + ' '.join(map(str, s.get_model())) + ' 0\\n' if ok "
        "else 'UNSAT\\n')\n"
        "sys.exit(10 if ok else 20)\n")
    (puzzle,) = read_puzzles(FLOW9)
    command = f"external:{shlex.quote(sys.executable)} {shlex.quote(str(script))} {{cnf}} {{out}}"
    result = solve(puzzle, solver=command)
    assert result.status == "solved" and problems(puzzle, result.paths) == []


def test_external_solver_timeout_and_failures():
    (puzzle,) = read_puzzles(FLOW9)
    result = solve(puzzle, solver=f"external:{STANDIN} --sleep", timeout=0.5)
    assert result.status == "timeout"
    crashed = solve(puzzle, solver=f"external:{STANDIN} --crash")
    assert crashed.status == "error" and "(exit status 1): no answer" in crashed.error
    assert "it said: c something went wrong" in crashed.error
    with pytest.raises(UsageError, match="'no-such-solver' is not a program on PATH"):
        solve(puzzle, solver="external:no-such-solver")
    result = run("solve", str(FLOW9), "--solver", "external:no-such-solver")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1


def test_read_answer_formats():
    assert read_answer("c hi\ns SATISFIABLE\nv 1 -2\nv 3 0\n") == (True, [1, -2, 3])
    assert read_answer("s UNSATISFIABLE\n") == (False, [])
    assert read_answer("SAT\n-1 2 0\n") == (True, [-1, 2])
    assert read_answer("UNSAT\n") == (False, [])
    assert read_answer("", 20) == (False, [])
    assert read_answer("s UNKNOWN\n") == (None, [])


def test_encodings_lists_every_named_encoding_once():
    text = run("encodings").stdout
    listed = [line.split(":")[0].split()[0] for line in text.splitlines()
              if not line.startswith(" ")]
    assert listed == sorted(builtin_specs())
    assert f"{DEFAULT_ENCODING} (default):" in text
