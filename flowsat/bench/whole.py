"""Whole sets in one process (a plan's `timing = "set"`): what a user waits for when they give
`flowsat solve` a whole set, Python's start-up and imports paid once.

Each run is one `flowsat solve --format json` of every puzzle file of a set, under the set's
rules (`--jobs` as the configuration says, else every core), its clock, CPU (the process's
and its children's) and peak memory taken by `peak.py`, a small process that starts it; the
answers are the lines it writes (each checked by flowsat solve itself), their stage seconds
summed. Each run also times `flowsat solve` of an empty folder: the start-up
alone. A solver program (`program:COMMAND`) is timed the same way over the set written as one
Numberlink file, its answers read back and checked here under the set's rules
(`flowsat.bench.program_set`); its start-up is the program given no puzzle (`0 0`).
"""

from __future__ import annotations

import json
import resource
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flowsat.bench.configs import Config
from flowsat.bench.plan import Place, RunKey, load_puzzles
from flowsat.bench.program_set import END, judge_all, set_text
from flowsat.process import MAX_OUTPUT, Finished, run_program
from flowsat.program.backend import run_on
from flowsat.program.options import program_argv
from flowsat.puzzle.rules import Rules

FILES = "*"  # a set run's `file`: every file of its set
PEAK = Path(__file__).with_name("peak.py")  # run as a script: see its docstring
FINISHED = ("solved", "unsolvable")


@dataclass(frozen=True)
class SetRun:
    """One configuration over a whole set, the repeat-th time."""

    place: Place
    files: tuple[str, ...]
    config: Config
    repeat: int

    @property
    def key(self) -> RunKey:
        return (self.place.set, FILES, 0, "identity", self.config.name, self.repeat)

    def describe(self) -> dict[str, Any]:
        """The fields of its record that say what was run."""
        return {"file": FILES, "index": 0, "name": f"set {self.place.set}", "rows": 0,
                "cols": 0, "kind": "set", "colors": 0, "symmetry": "identity",
                "config": self.config.name, "backend": self.config.backend,
                "options": self.config.options, "timing": "set", "repeat": self.repeat,
                "set": self.place.set, "rules": self.place.rules.record(),
                "files": list(self.files)} | ({"jobs": self.config.jobs}
                                             if self.config.jobs else {})


def set_runs(placed: dict[str, list[Place]], configs: list[Config], repeat: int
             ) -> list[SetRun]:
    """A run of each set-timed configuration over each set that takes it, repeat by repeat."""
    sets: dict[Place, list[str]] = {}
    for file, places in placed.items():
        for place in places:
            sets.setdefault(place, []).append(file)
    return [SetRun(place, tuple(files), c, r) for r in range(1, repeat + 1)
            for place, files in sets.items() for c in configs
            if c.timing == "set" and place.takes(c)]


def rule_flags(rules: Rules) -> list[str]:
    """`flowsat solve`'s flags for a set's rules."""
    return ["--allow-self-touch"] * rules.self_touch + ["--allow-empty"] * (not rules.fill_all)


def command(run: SetRun, timeout: float, files: list[str]) -> list[str]:
    """`flowsat solve` of the files with the configuration's flags, the set's rules and the
    plan's timeout a puzzle."""
    from flowsat.bench.configs import solve_flags

    jobs = ["--jobs", str(run.config.jobs)] if run.config.jobs else []
    return [sys.executable, "-m", "flowsat", "solve", "--backend", run.config.backend,
            "--format", "json", "--timeout", f"{timeout:g}", *jobs,
            *solve_flags(run.config.backend, run.config.options),
            *rule_flags(run.place.rules), *files]


def timed(start: Callable[[], Finished]) -> tuple[Finished, float]:
    """The program's end and the CPU seconds it (and what it started) spent."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    finished = start()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return finished, round(cpu, 6)


def set_limit(timeout: float, puzzles: int) -> float:
    """Seconds a solver program's set run may take: the timeout for each puzzle, and once more
    for its start-up (as long as its start-up alone may take: a program that hangs costs the
    bench no more than its timeout a puzzle)."""
    return timeout * (puzzles + 1)


def measured(start: Callable[[list[str]], Finished], argv: list[str]
             ) -> tuple[Finished, float, float, float | None]:
    """The program started through `peak.py`: how it ended, its wall and CPU seconds and its
    peak memory (MB) as `peak.py` measured them (when it could not: the wall and CPU seen
    from here, the peak unknown)."""
    with tempfile.TemporaryDirectory(prefix="flowsat-peak-") as folder:
        out = Path(folder, "peak")
        begun = time.perf_counter()
        finished, cpu = timed(lambda: start([sys.executable, "-S", str(PEAK), str(out), *argv]))
        wall = round(time.perf_counter() - begun, 6)
        try:
            wall, cpu, peak = map(float, out.read_text(encoding="utf-8").split())
        except (OSError, ValueError):  # killed at its deadline, or before it started
            return finished, wall, cpu, None
    return finished, wall, cpu, peak


def run_set(run: SetRun, timeout: float) -> dict[str, Any]:
    """The outcome of a set run: `solved` when every puzzle was answered (solved or shown
    unsolvable), else the first other status; the answers counted; time_s the whole
    process's wall clock, cpu_s its CPU, peak_mb its peak memory, the backend's stage
    seconds summed over the answers; the start-up alone beside them."""
    if run.config.backend == "program":
        return program_set(run, timeout)
    with tempfile.TemporaryDirectory(prefix="flowsat-empty-") as empty:
        started, started_cpu = timed(lambda: run_program(command(run, timeout, [empty]), None,
                                                         timeout))
    finished, wall, cpu, peak = measured(
        lambda argv: run_program(argv, None, timeout * len(run.files) + 60.0),
        command(run, timeout, list(run.files)))
    records = [json.loads(line) for line in finished.stdout.splitlines() if line.startswith("{")]
    answers = Counter(r.get("status", "error") for r in records)
    stages = Counter()
    for r in records:
        stages.update({k: v for k, v in (r.get("stats") or {}).items()
                       if k.endswith("_s") and isinstance(v, int | float)})
    return outcome(finished, wall, cpu, answers, None, started, started_cpu) | {
        "peak_mb": peak, **size_of(load_puzzles(run.files)[0]),
        "stats": {k: round(v, 6) for k, v in stages.items()}}


def size_of(puzzles: list) -> dict[str, int]:
    """A set's puzzles and cells, the record's `puzzles` and `cells`."""
    return {"puzzles": len(puzzles), "cells": sum(p.board.size for p in puzzles)}


def program_set(run: SetRun, timeout: float) -> dict[str, Any]:
    """A solver program's set run: the set as one file, the answers checked here."""
    puzzles, errors = load_puzzles(run.files)
    bad = str(errors[0]) if errors else None  # the first that cannot be read
    argv = program_argv(run.config.options["command"], run.config.options["program_format"])
    started, started_cpu = timed(lambda: run_on(END, argv, timeout))
    if bad or not run.place.rules.fill_all or any(not p.board.plain for p in puzzles):
        why = bad or "a solver program gets square boards with every cell filled"
        return outcome(started, 0.0, 0.0, Counter(), why, started, started_cpu)
    text = set_text(puzzles)
    finished, wall, cpu, peak = measured(
        lambda words: run_on(text, words, set_limit(timeout, len(puzzles))), argv)
    answers, problem = judge_all(finished.stdout, puzzles, run.place.rules)
    return outcome(finished, wall, cpu, answers, problem, started, started_cpu) | {
        "peak_mb": peak, **size_of(puzzles)}


def outcome(finished: Finished, wall: float, cpu: float, answers: Counter, problem: str | None,
            started: Finished, started_cpu: float) -> dict[str, Any]:
    """A set run's record: its status (`solved` when every answer is, `timeout`, else the
    first other answer's status, `error` when there was none), times, answers and what
    went wrong."""
    others = [s for s in answers if s not in FINISHED]
    status = "timeout" if finished.timed_out else others[0] if others else (
        "solved" if answers and not problem else "error")
    end = finished.stderr.strip()[-300:]
    said = None if problem and not (finished.returncode or end) else f"{finished.how()}: {end}"
    cut = f"its output cut at {MAX_OUTPUT // 2**20} MiB" if finished.cut else None
    error = None if status == "solved" else "; ".join(filter(None, [problem, cut, said]))
    return {"status": status, "time_s": wall if status == "solved" else None,
            "wall_s": wall, "cpu_s": cpu, "answers": dict(answers),
            "startup_s": started.seconds, "startup_cpu_s": started_cpu,
            "stats": {}, "error": error}
