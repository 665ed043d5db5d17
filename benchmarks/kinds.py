"""Benchmark: what each kind of board costs the SAT backend, and square boards against a commit.

    python benchmarks/kinds.py [--size 10] [--levels 12] [--repeats 3] [--base COMMIT]
        [--out results/kinds] [--write-levels puzzles/kinds]

Part 1 (kinds): random solved levels (seeds 1..LEVELS) of one size for each kind: plain square
(a random filling), and the same fillings with holes, with walls, with bridges, or shifted
across warps, and hexagonal boards (random walks; see `level`); each solved REPEATS times in
this process with the default encoding, in turns (level by level, every kind, so that load
falls on all alike). Times are CPU seconds of the process (less sensitive than wall time to
other work on a shared machine). Per kind: the median seconds (encode + solve + check),
variables, clauses, cycle cuts, and the ratio of its median to the plain square one's.

Part 2 (square against BASE): the square puzzles of puzzles/small (SIZE x SIZE) solved with
this checkout and with the commit BASE (a `git worktree` in a temporary folder, imported in a
subprocess), in alternating subprocess runs, REPEATS each; per version the median over puzzles
of each puzzle's median seconds, and the ratio.

Results: OUT/kinds-SIZExSIZE.md and .csv; `uptime`'s load is noted before and after.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from flowsat.generate.cover import add_bridges, level_of, random_level, unused_links
from flowsat.generate.filling import random_filling
from flowsat.puzzle.board import Board
from flowsat.puzzle.formats.pack import level_line
from flowsat.puzzle.rules import Rules
from flowsat.solve import solve

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("square", "square+holes", "square+walls", "square+bridges", "square+warps", "hex")
HARNESS = """
import json, statistics, sys, time
sys.path.insert(0, sys.argv[1])
from flowsat.puzzle import read_puzzles
from flowsat.solve import solve
times = {}
for file in sys.argv[3:]:
    (puzzle,) = read_puzzles(file)
    for _ in range(int(sys.argv[2])):
        t = time.process_time()
        assert solve(puzzle).status == "solved"
        times.setdefault(file, []).append(time.process_time() - t)
print(json.dumps(times))
"""


def level(kind: str, size: int, seed: int):
    """A solved level of that kind: a random filling of the square board (no holes), then
    walls on unused links, holes for some paths, bridges, or the filling shifted across the
    warps (unused warps walled); hexagonal boards: random walks (holes where they meet)."""
    rng = random.Random(seed)
    if kind == "hex":
        return random_level(Board(size, size, "hex"), rng, mean_length=float(size))
    paths = random_filling(size, size, rng, mean_length=float(size))
    board = Board(size, size)
    walks = [[board.number(cell) for cell in path] for path in paths.values()]
    if kind == "square+walls":
        unused = sorted(unused_links(board, walks))
        board = replace(board, walls=frozenset(e for e in unused if rng.random() < 0.3))
    elif kind == "square+holes":
        gone = [w for w in walks if rng.random() < 0.15]
        walks = [w for w in walks if w not in gone]
        board = replace(board, holes=frozenset(i for w in gone for i in w))
    elif kind == "square+bridges":
        board, walks = add_bridges(board, walks, rng, 1.0, Rules())
    elif kind == "square+warps":
        dr, dc = rng.randrange(size), rng.randrange(size)

        def shift(i: int) -> int:
            return ((i // size + dr) % size) * size + (i % size + dc) % size

        walks = [list(map(shift, w)) for w in walks]
        grid = {tuple(sorted(map(shift, e))) for e in board.link_list}
        board = Board(size, size, wrap=True)  # the links new to the shifted grid walled
        board = replace(board, walls=frozenset(e for e in unused_links(board, walks)
                                               if e not in grid))
    return level_of(board, walks)


def kinds_part(size: int, levels: int, repeats: int) -> list[dict]:
    puzzles = {kind: [level(kind, size, seed)[0] for seed in range(1, levels + 1)]
               for kind in KINDS}
    times: dict[str, list[list[float]]] = {k: [[] for _ in range(levels)] for k in KINDS}
    stats: dict[str, list[dict]] = {k: [{} for _ in range(levels)] for k in KINDS}
    for _ in range(repeats):
        for n in range(levels):
            for kind in KINDS:
                t = time.process_time()
                result = solve(puzzles[kind][n])
                times[kind][n].append(time.process_time() - t)
                assert result.status == "solved", (kind, n)
                stats[kind][n] = result.stats
    rows = []
    for kind in KINDS:
        medians = [statistics.median(t) for t in times[kind]]
        rows.append({"kind": kind, "board": puzzles[kind][0].kind, "levels": levels,
                     "median_s": statistics.median(medians), "worst_s": max(medians),
                     **{k: statistics.median(s[k] for s in stats[kind])
                        for k in ("variables", "clauses", "cycle_cuts")}})
    square = rows[0]["median_s"]
    for row in rows:
        row["ratio"] = row["median_s"] / square
    return rows


def versions_part(size: int, repeats: int, base: str) -> list[dict]:
    files = sorted(str(p) for p in (ROOT / "puzzles" / "small" / f"{size}x{size}").glob("*.txt"))
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "base"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(old),
                        base], check=True)
        try:
            runs: dict[str, dict[str, list[float]]] = {"this": {}, base: {}}
            for _ in range(repeats):
                for name, root in (("this", ROOT), (base, old)):
                    out = subprocess.run([sys.executable, "-c", HARNESS, str(root), "1", *files],
                                         check=True, capture_output=True, text=True).stdout
                    for file, t in json.loads(out).items():
                        runs[name].setdefault(file, []).extend(t)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)],
                           check=True)
    rows = [{"version": name, "puzzles": len(files),
             "median_s": statistics.median(statistics.median(t) for t in per.values()),
             "total_s": sum(statistics.median(t) for t in per.values())}
            for name, per in runs.items()]
    for row in rows:
        row["ratio"] = row["median_s"] / rows[1]["median_s"]
    return rows


def write_levels(folder: Path) -> None:
    """The levels of puzzles/kinds: one pack per shape, a level per combination of kinds."""
    folder.mkdir(parents=True, exist_ok=True)
    combos = {"square": [("holes",), ("walls",), ("bridges",), ("warps",), ("holes", "walls"),
                         ("holes", "bridges"), ("walls", "bridges"), ("warps", "walls"),
                         ("warps", "bridges"), ("holes", "walls", "bridges", "warps")],
              "hex": [(), ("holes",), ("walls",), ("warps",), ("holes", "walls", "warps")]}
    for shape, wanted in combos.items():
        lines = []
        for n, parts in enumerate(wanted, start=1):
            target = "+".join([shape, *[p for p in ("holes", "walls", "bridges", "warps")
                                       if p in parts]])
            rng = random.Random(n)
            while True:
                size = rng.choice((5, 6, 7))
                board = Board(size if shape == "square" else 2 * (size // 2), size, shape,
                              "warps" in parts)
                puzzle, paths = random_level(board, rng, walls=0.3 * ("walls" in parts),
                                             bridges=1.0 * ("bridges" in parts),
                                             level=n)
                if puzzle.kind == target:
                    break
            lines.append(level_line(puzzle, paths))
        (folder / f"{shape}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"wrote {folder / f'{shape}.txt'}")


def uptime() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10)
    parser.add_argument("--levels", type=int, default=12)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--base", default="b01f415")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "kinds")
    parser.add_argument("--write-levels", type=Path)
    args = parser.parse_args()
    if args.write_levels:
        write_levels(args.write_levels)
        return 0
    load_before = uptime()
    kinds = kinds_part(args.size, args.levels, args.repeats)
    versions = versions_part(args.size, args.repeats, args.base)
    load_after = uptime()
    args.out.mkdir(parents=True, exist_ok=True)
    name = f"kinds-{args.size}x{args.size}"
    with (args.out / f"{name}.csv").open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(kinds[0]))
        writer.writeheader()
        writer.writerows(kinds)
    md = [f"# What each kind of board costs (SAT, default encoding, {args.size}x{args.size})",
          "", f"`python benchmarks/kinds.py --size {args.size} --levels {args.levels} "
          f"--repeats {args.repeats} --base {args.base}`; load (uptime, 1/5/15 min) "
          f"{load_before} before, {load_after} after; 2 cores shared with other work. "
          "CPU seconds, medians over repeats, then over levels.", "",
          "| kind | board kind of level 1 | levels | median s | worst s | ratio to square | "
          "variables | clauses | cycle cuts |", "| --- | --- | --- | --- | --- | --- | --- | "
          "--- | --- |"]
    md += [f"| {r['kind']} | {r['board']} | {r['levels']} | {r['median_s']:.4f} | "
           f"{r['worst_s']:.4f} | {r['ratio']:.2f} | {r['variables']:.0f} | {r['clauses']:.0f} "
           f"| {r['cycle_cuts']:.0f} |" for r in kinds]
    md += ["", f"## Square boards: this checkout against {args.base}", "",
           f"puzzles/small/{args.size}x{args.size}, each solved {args.repeats} times per "
           f"version in alternating subprocess runs.", "",
           "| version | puzzles | median s | sum of medians s | ratio to base |",
           "| --- | --- | --- | --- | --- |"]
    md += [f"| {r['version']} | {r['puzzles']} | {r['median_s']:.4f} | {r['total_s']:.3f} | "
           f"{r['ratio']:.2f} |" for r in versions]
    (args.out / f"{name}.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
