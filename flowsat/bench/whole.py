"""Whole sets in one process (a plan's `timing = "set"`): what a user waits for when they give
`flowsat solve` a whole set, Python's start-up and imports paid once.

Each run is one `flowsat solve --format json` of every puzzle file of a set, under the set's
rules, its clock and CPU (the process's and its children's) taken from outside; the answers
are the lines it writes (each checked by flowsat solve itself). Each run also times
`flowsat solve` of an empty folder: the start-up alone.
"""

from __future__ import annotations

import json
import resource
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from flowsat.bench.configs import Config
from flowsat.bench.plan import Place, RunKey
from flowsat.process import run_program
from flowsat.puzzle.rules import Rules

FILES = "*"  # a set run's `file`: every file of its set
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
                "files": list(self.files)}


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

    return [sys.executable, "-m", "flowsat", "solve", "--backend", run.config.backend,
            "--format", "json", "--timeout", f"{timeout:g}",
            *solve_flags(run.config.backend, run.config.options),
            *rule_flags(run.place.rules), *files]


def timed(argv: list[str], deadline: float) -> tuple[Any, float]:
    """The program's end and the CPU seconds it (and what it started) spent."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    finished = run_program(argv, timeout=deadline)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return finished, round(cpu, 6)


def run_set(run: SetRun, timeout: float) -> dict[str, Any]:
    """The outcome of a set run: `solved` when every puzzle was answered (solved or shown
    unsolvable), else the first other status; the answers counted; time_s the whole
    process's wall clock, cpu_s its CPU; the start-up alone beside them."""
    with tempfile.TemporaryDirectory(prefix="flowsat-empty-") as empty:
        started, started_cpu = timed(command(run, timeout, [empty]), 60.0)
    start = time.perf_counter()
    finished, cpu = timed(command(run, timeout, list(run.files)),
                          timeout * len(run.files) + 60.0)
    wall = round(time.perf_counter() - start, 6)
    answers = Counter(json.loads(line).get("status", "error")
                      for line in finished.stdout.splitlines() if line.startswith("{"))
    others = [s for s in answers if s not in FINISHED]
    status = "timeout" if finished.timed_out else others[0] if others else (
        "solved" if answers else "error")
    error = None if status == "solved" else (
        f"{finished.how()}: {finished.stderr.strip()[-300:]}")
    return {"status": status, "time_s": wall if status == "solved" else None,
            "wall_s": wall, "cpu_s": cpu, "answers": dict(answers),
            "startup_s": started.seconds, "startup_cpu_s": started_cpu,
            "stats": {}, "error": error}
