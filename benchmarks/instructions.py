"""Instructions (valgrind's callgrind) that flowsat's SAT route takes on `race.py`'s sets:
the same on every run, where wall times on a shared 2-core machine vary up to 2x.

    python benchmarks/instructions.py SET... [--build NAME=PYTHON]...
                                     [--what process,warm,encode,stages] [--pack FILE]...

Each build is a Python with flowsat installed (default: this one, as `flowsat`), e.g. the
venvs of two commits. Counted, in millions, with `PYTHONHASHSEED=0 OPENBLAS_NUM_THREADS=1`:
`process`, the whole process `python -m flowsat solve --format json --jobs 1 FILE` (the set
as one Numberlink file, as `race.py` runs it; one process, as callgrind counts the one it
starts, not the workers it forks); `warm`, one pass of the backend over the set in a
process that has made one already ((3 passes - 1 pass) / 2); `encode`, the formulas alone
(default encoding), a first pass (each board's first puzzle: `encode 1st`) and a second
(the shared clause tables made: `encode 2nd`); `stages` (not among the default measures), in
thousands a puzzle, what `flowsat solve --format json` does to each puzzle, stage by stage,
in a process that has solved the set once: `parse` (reading the file), `backend` (the sat
backend's solve, on the boards compiled by then), `check` (the checker on its answer),
`record` (its JSON line) ((2 passes - none) / 2 / the puzzles). Needs `valgrind` on the
PATH; each count is a process under it, 20-50x slower than without.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from race import SETS, as_numberlink  # noqa: E402

ENV = {"PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
MEASURES = ("process", "warm", "encode")
STAGES = ("parse", "backend", "check", "record")  # `stages`, asked for by name


def instructions(argv: list[str]) -> int:
    """The instructions a process takes, by callgrind (run in an empty folder: `python -m`
    looks in the current one first, and a checkout there would stand in for the build)."""
    with tempfile.TemporaryDirectory(prefix="callgrind-") as folder:
        done = subprocess.run(["valgrind", "--tool=callgrind",
                               f"--callgrind-out-file={folder}/cg.%p.out", *argv],
                              capture_output=True, text=True, env={**os.environ, **ENV},
                              cwd=folder)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode not in (0, 1) or not found:  # 1: some puzzle unsolvable
        raise SystemExit(f"instructions.py: {' '.join(argv)} failed:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def passes(python: str, what: str, file: Path, count: int) -> int:
    """Instructions of a process that makes `count` passes of `what` over a set's file."""
    return instructions([python, __file__, "--inner", what, str(file), str(count)])


def measure(python: str, what: str, file: Path) -> dict[str, float]:
    """The counts of one measure on one set (its file), in millions (`stages`: thousands a
    puzzle)."""
    if what == "process":
        return {what: instructions([python, "-m", "flowsat", "solve", "--format", "json",
                                    "--jobs", "1", "--max-cells", "1100000", str(file)]) / 1e6}
    if what == "warm":
        return {what: (passes(python, "solve", file, 3)
                       - passes(python, "solve", file, 1)) / 2e6}
    if what == "stages":
        count = len(read(file))
        return {stage: (passes(python, stage, file, 2) - passes(python, stage, file, 0))
                / 2 / count / 1e3 for stage in STAGES}
    none, one, two = (passes(python, "encode", file, n) for n in (0, 1, 2))
    return {"encode 1st": (one - none) / 1e6, "encode 2nd": (two - one) / 1e6}


def read(file: Path) -> list:
    """The puzzles of a set's file (any it cannot read left out)."""
    from flowsat.puzzle import Puzzle
    from flowsat.puzzle.formats import parse_puzzles

    return [p for p in parse_puzzles(file.read_text(), file.name) if isinstance(p, Puzzle)]


def inner(what: str, file: Path, count: int) -> None:
    """`count` passes over a set in this process (after one puzzle encoded, for the imports;
    a stage: after the set solved once)."""
    import gc

    from flowsat.sat import encode
    from flowsat.sat.options import DEFAULT_ENCODING

    if what in STAGES:
        return stage_passes(what, file, count)
    solve = sat_solve()
    puzzles = read(file)
    encode(puzzles[0], DEFAULT_ENCODING)
    gc.freeze()
    for _ in range(count):
        for puzzle in puzzles:
            if what == "solve":
                solve(puzzle)
            else:
                encode(puzzle, DEFAULT_ENCODING).enc.clauses = []


def stage_passes(stage: str, file: Path, count: int) -> None:
    """`count` passes of one stage of `flowsat solve --format json` over a set, its boards
    compiled and its answers made by a first solve of the whole set (as the command's)."""
    import gc

    from flowsat.backend import NO_LIMITS
    from flowsat.checker import check
    from flowsat.puzzle.formats import parse_puzzles
    from flowsat.puzzle.rules import DEFAULT_RULES
    from flowsat.result import record_line
    from flowsat.sat import BACKEND
    from flowsat.solve import run

    text, options, kept = file.read_text(), BACKEND.options(), BACKEND.kept()
    puzzles = read(file)
    kept.start(puzzles)
    answers = [(p, run(p, BACKEND, options, DEFAULT_RULES, NO_LIMITS, None, kept))
               for p in puzzles]
    gc.freeze()
    for _ in range(count):
        if stage == "parse":
            list(parse_puzzles(text, file.name))
        for puzzle, result in answers if stage != "parse" else ():
            if stage == "backend":
                BACKEND.solve(puzzle, options, DEFAULT_RULES, NO_LIMITS, None, kept)
            elif stage == "check" and result.paths:
                check(puzzle, result.paths, DEFAULT_RULES)
            elif stage == "record":
                record_line(puzzle, result, "sat", DEFAULT_RULES)


def sat_solve() -> Callable[[object], object]:
    """The sat backend's solve with its defaults, in this build (BACKEND, or before the
    backends kept a contract, `flowsat.sat.solve`)."""
    try:
        from flowsat.sat import BACKEND
    except ImportError:
        from flowsat.sat import solve

        return solve
    from flowsat.backend import NO_LIMITS
    from flowsat.puzzle.rules import DEFAULT_RULES

    options = BACKEND.options()
    return lambda puzzle: BACKEND.solve(puzzle, options, DEFAULT_RULES, NO_LIMITS)


def main() -> int:
    if sys.argv[1:2] == ["--inner"]:
        inner(sys.argv[2], Path(sys.argv[3]), int(sys.argv[4]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="+", choices=sorted(SETS))
    parser.add_argument("--build", action="append", default=[], metavar="NAME=PYTHON")
    parser.add_argument("--what", default=",".join(MEASURES))
    parser.add_argument("--size", type=int, default=1002, help="the spirals' size")
    parser.add_argument("--pack", action="append", default=[], metavar="FILE",
                        help="a Numberlink file of the `packs` set (race.py's), repeated")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("instructions.py: valgrind is not on the PATH", file=sys.stderr)
        return 2
    builds = dict(b.split("=", 1) for b in args.build) or {"flowsat": sys.executable}
    measures = args.what.split(",")
    if unknown := set(measures) - {*MEASURES, "stages"}:
        parser.error(f"--what: unknown {', '.join(sorted(unknown))}")
    with tempfile.TemporaryDirectory(prefix="instructions-") as folder:
        for name in args.sets:
            file = Path(folder, f"{name}.txt")
            file.write_text(as_numberlink(SETS[name](args)))
            for build, python in builds.items():
                counts = {}
                for what in measures:
                    counts.update(measure(python, what, file))
                shown = "  ".join(f"{k} {v:,.{1 if k in STAGES else 0}f} "
                                  f"{'K/puzzle' if k in STAGES else 'M'}"
                                  for k, v in counts.items())
                print(f"{name:8s} {build:10s} {shown}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
