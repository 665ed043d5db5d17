"""Benchmark: flowsat's SAT backend against the peers, whole processes in one run, per set.

    python benchmarks/race.py SET... [--runs 5] [--size 1002] [--also NAME=FLOWSAT]...
                              [--flowsat-args '--timeout 120 ...']

Sets: `load` (the project's corpus `puzzles/small`, `puzzles/large` and every board of
`../shared/puzzles/numberlink/`), `numberlink` (those boards alone), `40x20` and `50x50`
(those sizes of both), `small` (the boards of both up to 15x15), `spirals` (the four-spiral
board of `flowsat generate --shape spiral` and its unsolvable twin, `--size` N x N, made at
run time by `flowsat.generate.spiral`),
`zucker` (the 28 solvable puzzles of `../shared/puzzles/zucker/`), `mid` (the boards of both
8 to 36 wide, 8 to 20 high, with up to 40 pairs), `packs` (the Numberlink files given by
`--pack`, as one set: e.g. packs of levels made by `flowsat generate`), `levels` (`--levels`
N levels, 5,571 by default as in the game's plain levels that `packs` stands in for, an equal
share of each square size from 5x5 to 14x14, made by the `flowsat` on PATH with fixed seeds
and kept in the temporary folder for the next runs: in one process start-up is spread over
as many puzzles as in the real set).

Each run of a set is one process per program over the whole set: the Go Numberlink solver
(`/work/anchors-bin/numberlink`, the set on stdin), `flowsat solve --format json` (the set as
one Numberlink file, so one process solves all), and for `zucker` the 2016 SAT program
(`pyflowsolver3.py -q FILES`, PicoSAT). Printed per program: the median wall and CPU seconds
of the whole process over the runs and its peak memory; for flowsat also the median per run of
the summed backend stats (`encode_s`, `load_s` handing the clauses to the solver, `solve_s`,
`decode_s` reading models back, `total_s`), the median backend time of one puzzle, and the
statuses. Ratios are against the Go solver measured in the same run, with `uptime`'s load. Each run
takes the programs in turn starting one further on than the run before: a program that always
ran right after Go took 10-25% longer on the 1002x1002 spirals than in any other place.
`--also before=/path/to/flowsat` races another flowsat build in the same run (e.g. the
commit before a change, installed in a venv of its own), reported as `before`; `--deduce`
races each flowsat build with `--deduce off` and once more with `--deduce on` (propagation
first), reported as `NAME+deduce`; `--no-plain` leaves out the runs without it.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

from flowsat.generate.spiral import spiral_rows, spiral_size

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = ROOT.parent / "shared"
ANCHORS = Path("/work/anchors-bin")

Board = tuple[str, list[str]]  # (name, rows)
SMALL_CELLS = 15 * 15  # the `small` set: boards up to this many cells
STAGES = ("encode_s", "deduce_s", "load_s", "solve_s", "decode_s", "total_s")


def numberlink_boards(path: Path) -> Iterator[Board]:
    """The boards of a Numberlink file, as they stand (comments skipped)."""
    lines = [x.rstrip("\r\n") for x in path.read_text().splitlines()
             if not x.startswith("#")]
    lines = [x for x in lines if x.strip()]
    at, index = 0, 0
    while at < len(lines):
        w, h = map(int, lines[at].split())
        if w == 0 and h == 0:
            return
        index += 1
        yield f"{path.name}#{index}", lines[at + 1:at + 1 + h]
        at += 1 + h


def grid_board(path: Path) -> Board:
    return str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path), [
        x.rstrip("\r\n") for x in path.read_text().splitlines() if x.strip()]


def corpus(*sizes: str) -> list[Board]:
    folders = [ROOT / "puzzles" / tier for tier in ("small", "large")]
    files = sorted(f for folder in folders for f in folder.rglob("*.txt")
                   if not sizes or f.parent.name in sizes)
    return [grid_board(f) for f in files]


def shared_numberlink(*sizes: str) -> list[Board]:
    boards = [b for f in sorted((SHARED / "puzzles" / "numberlink").glob("*.txt"))
              for b in numberlink_boards(f)]
    return [b for b in boards if not sizes or f"{len(b[1][0])}x{len(b[1])}" in sizes]


def zucker() -> list[Board]:
    return [grid_board(f) for f in sorted((SHARED / "puzzles" / "zucker").glob("*.txt"))
            if not f.name.startswith("unsolvable")]


def spirals(size: int) -> list[Board]:
    spiral_size("spiral-unsolvable", size, size)  # an even size from 8
    return [(f"spiral {size}", spiral_rows(size)),
            (f"spiral {size} + E", spiral_rows(size, unsolvable=True))]


SETS: dict[str, Callable[[argparse.Namespace], list[Board]]] = {
    "load": lambda a: corpus() + shared_numberlink(),
    "numberlink": lambda a: shared_numberlink(),
    "40x20": lambda a: corpus("40x20") + shared_numberlink("40x20"),
    "50x50": lambda a: corpus("50x50") + shared_numberlink("50x50"),
    "small": lambda a: [b for b in corpus() + shared_numberlink()
                        if len(b[1]) * len(b[1][0]) <= SMALL_CELLS],
    "spirals": lambda a: spirals(a.size),
    "zucker": lambda a: zucker(),
    "mid": lambda a: [b for b in corpus() + shared_numberlink()
                      if 8 <= len(b[1][0]) <= 36 and 8 <= len(b[1]) <= 20
                      and pairs(b[1]) <= MID_PAIRS],
    "packs": lambda a: [b for f in a.pack for b in numberlink_boards(Path(f))],
    "levels": lambda a: levels(a.levels),
}
LEVEL_SIZES = range(5, 15)  # the `levels` set: square boards of these sides, an equal share


def levels(count: int) -> list[Board]:
    """`count` levels made by `flowsat generate` (seed 1 on, per size), kept in a file of the
    temporary folder once made."""
    path = Path(tempfile.gettempdir()) / f"flowsat-race-levels-{count}.txt"
    if not path.exists():
        share = [count // len(LEVEL_SIZES) + (k < count % len(LEVEL_SIZES))
                 for k in range(len(LEVEL_SIZES))]
        made = [subprocess.run(["flowsat", "generate", "--size", f"{n}x{n}", "--count", str(k),
                                "--seed", "1", "--format", "numberlink"], check=True,
                               capture_output=True, text=True).stdout
                for n, k in zip(LEVEL_SIZES, share, strict=True)]
        path.with_suffix(".part").write_text("".join(made))
        path.with_suffix(".part").rename(path)
    return list(numberlink_boards(path))
MID_PAIRS = 40  # the `mid` set: boards 8 to 36 wide, 8 to 20 high, up to this many pairs


def pairs(rows: list[str]) -> int:
    """A board's number of dot labels."""
    return len({ch for row in rows for ch in row} - {".", "0"})


def as_numberlink(boards: list[Board]) -> str:
    return "".join(f"{len(rows[0])} {len(rows)}\n" + "\n".join(rows) + "\n"
                   for _, rows in boards) + "0 0\n"


def run(argv: list[str], stdin: str | None = None) -> tuple[float, float, int, str]:
    """Wall seconds, CPU seconds, peak memory (MB) and stdout of a whole process."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as inp:
        if stdin is not None:
            inp.write(stdin)
            inp.seek(0)
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdin=inp, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1, 3):  # solved, unsolvable, timeout or limit
            sys.exit(f"{' '.join(argv)} failed with exit status {code}")
        out.seek(0)
        return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024, out.read()


def flowsat_stats(stdout: str) -> tuple[dict[str, float], list[float], Counter]:
    """The summed stage times, each puzzle's backend time, and the statuses."""
    sums = dict.fromkeys(STAGES, 0.0)
    each, statuses = [], Counter()
    for line in stdout.splitlines():
        record = json.loads(line)
        statuses[record["status"]] += 1
        stats = record.get("stats") or {}
        for key in STAGES:
            sums[key] += stats.get(key, 0.0)
        each.append(stats.get("total_s", 0.0))
    return sums, each, statuses


def has_pycosat() -> bool:
    """Whether this Python can run the 2016 SAT program (it needs pycosat)."""
    found = subprocess.run([sys.executable, "-c", "import pycosat"], capture_output=True)
    if found.returncode:
        print("sat2016 left out: this Python has no pycosat (pip install pycosat)")
    return found.returncode == 0


def race(name: str, boards: list[Board], runs: int, extra: list[str],
         builds: dict[str, tuple[str, list[str]]]) -> None:
    cells = max(len(rows) * len(rows[0]) for _, rows in boards)
    with tempfile.TemporaryDirectory(prefix="race-") as folder:
        file = Path(folder, f"{name}.txt")
        file.write_text(as_numberlink(boards))
        programs = {"go": ([str(ANCHORS / "numberlink")], file.read_text())}
        for build, (flowsat, own) in builds.items():
            programs[build] = ([flowsat, "solve", "--format", "json", "--max-cells",
                                str(max(cells, 40_000)), *extra, *own, str(file)], None)
        if name == "zucker" and has_pycosat():
            programs["sat2016"] = ([sys.executable, str(ANCHORS / "pyflowsolver3.py"), "-q",
                                    *(str(SHARED / "puzzles" / "zucker" / Path(b).name)
                                      for b, _ in boards)], None)
        results: dict[str, list] = {p: [] for p in programs}
        load = [os.getloadavg()[0]]
        order = list(programs.items())
        for turn in range(runs):  # each run starts one program further on (see above)
            for program, (argv, stdin) in order[turn % len(order):] + order[:turn % len(order)]:
                results[program].append(run(argv, stdin))
            load.append(os.getloadavg()[0])
    print(f"## {name}: {len(boards)} boards, {runs} runs, load {min(load):.2f}-{max(load):.2f}")
    go_wall = statistics.median(r[0] for r in results["go"])
    for program, rs in results.items():
        wall = statistics.median(r[0] for r in rs)
        cpu = statistics.median(r[1] for r in rs)
        peak = max(r[2] for r in rs)
        print(f"{program:8s} wall {wall:8.3f} s  cpu {cpu:8.3f} s  peak {peak:6d} MB  "
              f"{wall / go_wall:6.2f}x go")
    for build in builds:
        stats = [flowsat_stats(r[3]) for r in results[build]]
        stages = "  ".join(f"{k[:-2]} {statistics.median(s[0][k] for s in stats):.3f}"
                           for k in STAGES)
        each = statistics.median(statistics.median(s[1]) for s in stats)
        print(f"{build} backend (s, summed over the set): {stages}")
        print(f"{build} median puzzle {1000 * each:.1f} ms; statuses {dict(stats[0][2])}")
    sys.stdout.flush()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", choices=sorted(SETS))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--size", type=int, default=1002)
    parser.add_argument("--pack", action="append", default=[], metavar="FILE",
                        help="a Numberlink file of the `packs` set (e.g. made by `flowsat "
                             "generate --format numberlink`), repeated for more")
    parser.add_argument("--levels", type=int, default=5571,
                        help="levels in the `levels` set (default: as many as the game's)")
    parser.add_argument("--also", action="append", default=[], metavar="NAME=FLOWSAT",
                        help="another flowsat program to race, under a name")
    parser.add_argument("--flowsat-args", default="", help="more flowsat solve arguments")
    parser.add_argument("--deduce", action="store_true",
                        help="race each flowsat build with --deduce too")
    parser.add_argument("--no-plain", action="store_true",
                        help="with --deduce: leave out the runs without it")
    args = parser.parse_args()
    paths = {"flowsat": shutil.which("flowsat") or sys.exit("flowsat is not on PATH")}
    paths.update(also.split("=", 1) for also in args.also)
    plain = ["--deduce", "off"] if args.deduce else []  # else each build's default
    builds = {} if args.deduce and args.no_plain else {n: (p, plain) for n, p in paths.items()}
    if args.deduce:
        builds |= {f"{n}+deduce": (p, ["--deduce", "on"]) for n, p in paths.items()}
    print(f"{os.cpu_count()} cores; uptime: {os.popen('uptime').read().strip()}")
    for name in args.sets:
        boards = SETS[name](args)
        if not boards:
            print(f"## {name}: no boards (is ../shared there?)")
            continue
        race(name, boards, args.runs, shlex.split(args.flowsat_args), builds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
