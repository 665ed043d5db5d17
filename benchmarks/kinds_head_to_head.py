"""Benchmark: both backends head to head on the project's proven-unique corpus, by kind of board.

    python benchmarks/kinds_head_to_head.py [--corpus puzzles/unique] [--repeats 3]
        [--timeout 10] [--rules no-touch,self-touch] [--out results/kinds_head_to_head]

Every puzzle of the corpus's manifest (`flowsat generate --kind`, 5x5 to 15x15) is solved
REPEATS times in this process by the sat backend (its default encoding) and the astar
backend (its default preset), in turns (puzzle by puzzle, both backends, so that load falls
on both alike), after one untimed round (the imports, the caches of each board), under each
rule asked for (a unique puzzle may have more solutions with self-touch: still solvable). A
kind a backend does not take (a usage error naming it) is shown as refused. Per kind and
backend: the puzzles solved, the median over puzzles of each puzzle's median CPU seconds (a
shared machine's load shows less in them than in wall seconds), the worst, the median nodes
(astar) or encode and solve seconds and conflicts (sat), and the ratios of the median to the
other backend's on that kind and to its own on plain square boards (same run, same rule). A
solve that times out (wall clock) is not repeated and counts at the CPU it took until
stopped (the medians are then lower bounds; `solved` says how many finished). Both backends
must agree (solved or not) on every puzzle both finish: a disagreement stops the run.

Writes OUT.md (the tables, of every puzzle and of the 13x13 and 15x15 ones, with `uptime`'s
load before and after) and OUT.jsonl (one record per puzzle, backend and rule: the CPU
seconds of every repeat and the backend's stats, written as each puzzle is done).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

from flowsat.puzzle import read_puzzles
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError
from flowsat.solve import solve

ROOT = Path(__file__).resolve().parents[1]
BACKENDS = ("sat", "astar")
STATS = {"sat": ("encode_s", "solve_s", "conflicts"), "astar": ("nodes",)}
LARGE = ("13x13", "15x15")  # the second table's sizes


def corpus(folder: Path) -> list[tuple[dict, object]]:
    """The manifest's rows with their puzzles, in the manifest's order."""
    with (folder / "manifest.csv").open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return [(row, next(iter(read_puzzles(folder / row["file"])))) for row in rows]


def run_one(puzzle, backend: str, rules: Rules, timeout: float) -> dict:
    """One solve: status, CPU seconds and the backend's stats; `refused` for a usage error."""
    start = time.process_time()
    try:
        result = solve(puzzle, backend, rules=rules, timeout=timeout)
    except UsageError as err:
        return {"status": "refused", "why": str(err)}
    cpu = time.process_time() - start
    return {"status": result.status, "cpu_s": cpu,
            **{k: result.stats[k] for k in STATS[backend] if k in result.stats}}


def measure(puzzle, rules: Rules, repeats: int, timeout: float) -> dict[str, dict]:
    """Each backend's record for the puzzle: the CPU seconds of each timed repeat, the
    status and stats of the last."""
    records: dict[str, dict] = {b: {"cpu": []} for b in BACKENDS}
    for repeat in range(repeats + 1):
        for backend in BACKENDS:
            if records[backend].get("status") in ("refused", "timeout"):
                continue  # not again: a timeout keeps the CPU it took until stopped
            got = run_one(puzzle, backend, rules, timeout)
            if got["status"] == "refused":
                records[backend] = got
                continue
            if repeat or got["status"] == "timeout":
                records[backend]["cpu"].append(got.pop("cpu_s"))
            records[backend].update({k: v for k, v in got.items() if k != "cpu_s"})
    finished = {records[b]["status"] for b in BACKENDS} - {"refused", "timeout", "limit"}
    if len(finished) > 1:
        raise SystemExit(f"{puzzle.name}: the backends disagree: "
                         f"{ {b: records[b]['status'] for b in BACKENDS} }")
    return records


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def table(records: list[dict]) -> list[str]:
    """The markdown table by kind and backend (the records of one rule)."""
    by = defaultdict(list)
    for r in records:
        by[r["kind"], r["backend"]].append(r)
    kinds = list(dict.fromkeys(r["kind"] for r in records))
    cpu = {key: median([median(r["cpu"]) for r in rs if r.get("cpu")]) for key, rs in by.items()}
    lines = ["| kind | backend | puzzles | solved | median CPU s | worst CPU s | nodes | "
             "encode s | solve s | conflicts | x other backend | x square |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for kind in kinds:
        for backend in BACKENDS:
            rs = by[kind, backend]
            if all(r["status"] == "refused" for r in rs):
                lines.append(f"| {kind} | {backend} | {len(rs)} | refused | | | | | | | | |")
                continue
            other = "astar" if backend == "sat" else "sat"
            solved = sum(r["status"] == "solved" for r in rs)
            worst = max(median(r["cpu"]) for r in rs if r["cpu"])

            def stat(name: str, rs=rs) -> str:
                values = [r[name] for r in rs if name in r]
                return f"{median(values):.4g}" if values else ""

            versus = cpu[kind, backend] / cpu[kind, other] if cpu.get((kind, other)) else None
            square = cpu[kind, backend] / cpu["square", backend] if cpu.get(
                ("square", backend)) else None
            lines.append(
                f"| {kind} | {backend} | {len(rs)} | {solved} | {cpu[kind, backend]:.4f} | "
                f"{worst:.4f} | {stat('nodes')} | {stat('encode_s')} | {stat('solve_s')} | "
                f"{stat('conflicts')} | {'' if versus is None else f'{versus:.2f}'} | "
                f"{'' if square is None else f'{square:.2f}'} |")
    return lines


RULES = {"no-touch": Rules(), "self-touch": Rules(self_touch=True)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "puzzles" / "unique")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--rules", default=",".join(RULES),
                        help="the rules to run under, comma-separated: no-touch, self-touch")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "kinds_head_to_head")
    args = parser.parse_args()
    modes = [name.strip() for name in args.rules.split(",")]
    if not set(modes) <= set(RULES):
        parser.error(f"--rules {args.rules}: choose from {', '.join(RULES)}")
    puzzles = corpus(args.corpus)
    head = (f"{len(puzzles)} puzzles of {args.corpus.name}/, median of {args.repeats} CPU "
            f"times each after an untimed round, timeout {args.timeout:g} s; "
            f"{os.cpu_count()} cpus, load {load()} at start")
    print("#", head, flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    records = []
    with args.out.with_suffix(".jsonl").open("w", encoding="utf-8") as raw:
        for mode in modes:
            for row, puzzle in puzzles:
                for backend, record in measure(puzzle, RULES[mode], args.repeats,
                                               args.timeout).items():
                    record = {"file": row["file"], "kind": row["kind"] or "square",
                              "size": row["size"], "backend": backend, "rule": mode, **record}
                    records.append(record)
                    raw.write(json.dumps(record) + "\n")
                    raw.flush()
                    print(f"{mode:10} {row['file']:40} {backend:6} {record['status']:8} "
                          f"{median(record.get('cpu', [])):8.4f}", flush=True)
    text = report(records, args.corpus.name, f"{head}; load {load()} at end",
                  "python benchmarks/kinds_head_to_head.py " + " ".join(sys.argv[1:]))
    args.out.with_suffix(".md").write_text(text, encoding="utf-8")
    print(text)
    return 0


def report(records: list[dict], corpus: str, head: str, command: str) -> str:
    """The markdown report: per rule, the table of every puzzle and of the large ones."""
    text = [f"# Both backends by kind of board ({corpus}/)", "", head, "",
            f"Command: `{command}`"]
    for mode in dict.fromkeys(r["rule"] for r in records):
        ours = [r for r in records if r["rule"] == mode]
        large = [r for r in ours if r["size"] in LARGE]
        text += ["", f"## {mode}: every puzzle (5x5 to 15x15)", "", *table(ours),
                 "", f"## {mode}: {' and '.join(LARGE)} only", "", *table(large)]
    return "\n".join(text) + "\n"


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    sys.exit(main())
