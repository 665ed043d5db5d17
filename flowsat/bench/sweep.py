"""A bench: plan the runs, skip those already recorded, run the rest, record each as it ends."""

from __future__ import annotations

import shlex
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from itertools import chain
from pathlib import Path

from flowsat.atomic import make_folder
from flowsat.backend import REGISTRY, backend
from flowsat.bench.configs import (
    SAT_ENCODINGS,
    SAT_SOLVERS,
    Config,
    configurations,
    default_baseline,
)
from flowsat.bench.meta import environment, load_average, now, where
from flowsat.bench.plan import Place, Run, load_puzzles, plan, record_key
from flowsat.bench.progress import Mode, Progress
from flowsat.bench.records import append, open_results, read_meta, read_records, write_meta
from flowsat.bench.whole import SetRun, run_set, set_runs
from flowsat.bench.workers import Outcome, run_all
from flowsat.puzzle import Puzzle, PuzzleError
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError
from flowsat.solve import blame


def standalone_backends() -> list[str]:
    """The backends that need nothing but their name (not `program`, which needs a command)."""
    return [name for name in REGISTRY if not backend(name).argument]


FREE_ON_RESUME = ("workers", "cluster", "out", "plan")  # where it runs (and where the plan
# is: its text is checked instead); every other setting stays


@dataclass
class Settings:
    """What a bench is asked to do (no encodings or solvers given: the SAT defaults)."""

    paths: list[str]
    backends: list[str] = field(default_factory=standalone_backends)  # all but `program`
    encodings: list[str] | None = None  # SAT encodings, default `SAT_ENCODINGS`
    solvers: list[str] | None = None  # SAT solvers, default `SAT_SOLVERS`
    symmetries: str = "none"
    repeat: int = 1
    timeout: float = 60.0
    workers: int = 1
    out: str = "bench-out"
    allow_self_touch: bool = False
    baselines: bool = True
    program_format: str | None = None  # how solver programs get the puzzle, default numberlink
    cluster: str | None = None  # a Dask scheduler's address, or local:N
    deduce: list[str] | None = None  # the sat backend's propagation-first choices to race
    groups: list[list[str]] | None = None  # the report's tables of groups (default: by
    # set when there are sets, by size, by kind)

    @property
    def rules(self) -> Rules:
        return Rules(self_touch=self.allow_self_touch)

    def configs(self) -> list[Config]:
        return configurations(self.backends, self.encodings, self.solvers, self.baselines,
                              self.program_format, self.timeout, self.deduce)

    def load(self, max_cells: int | None = None) -> tuple[list[Puzzle], list[PuzzleError]]:
        """The puzzles of the bench's paths, and the inputs that are bad."""
        return load_puzzles(self.paths, max_cells)

    def placed(self) -> dict[str, list[Place]]:
        """The sets each puzzle file is in: none outside a plan."""
        return {}

    def command(self) -> str:
        """The command that runs this bench afresh."""
        words = ["flowsat", "bench", *self.paths, "--backends", ",".join(self.backends)]
        if "sat" in self.backends:
            words += ["--encodings", ",".join(self.encodings or SAT_ENCODINGS),
                      "--solvers", ",".join(self.solvers or SAT_SOLVERS)]
        words += ["--symmetries", self.symmetries, "--repeat", str(self.repeat),
                  "--timeout", f"{self.timeout:g}", "--workers", str(self.workers),
                  "--out", self.out]
        words += ["--cluster", self.cluster] if self.cluster else []
        words += ["--allow-self-touch"] * self.allow_self_touch + ["--no-baselines"] * (
            not self.baselines)
        words += ["--program-format", self.program_format] * bool(self.program_format)
        words += ["--deduce", ",".join(self.deduce)] if self.deduce else []
        return shlex.join(words)


def bench(settings: Settings, puzzles: list[Puzzle], *, resume: bool = False,
          progress: Mode | bool = True, argv: list[str] | None = None) -> Counter[str]:
    """Run every run not yet in `results.jsonl`, appending each record as it ends; the count of
    each status among the runs made now (a solver program's error or wrong answer counted as
    `program`: its failure, not flowsat's); `progress` on stderr as a bar or lines (`Progress`)."""
    configs = settings.configs()
    folder = make_folder(settings.out)
    done = {record_key(r) for r in read_records(folder)}
    if done and not resume:
        raise UsageError(f"{folder} holds results already: --resume goes on with them, "
                         f"or choose another --out")
    meta = start(folder, settings, configs, resume, argv)
    todo = [run for run in plan(puzzles, settings.symmetries, configs, settings.repeat,
                                settings.placed()) if run.key not in done]
    wholes = [run for run in set_runs(settings.placed(), configs, settings.repeat)
              if run.key not in done]
    statuses: Counter[str] = Counter()
    try:
        with open_results(folder) as out, Progress(len(todo) + len(wholes), progress) as shown:
            for run, got in chain(runs(settings, todo), whole_sets(wholes, settings.timeout)):
                if run.key in done:  # a run a cluster gave back twice is counted once
                    continue
                done.add(run.key)
                load = load_average()
                append(out, run.describe() | where() | {"load": load[0] if load else None}
                       | got)
                shown.advance(got["status"])
                failed = blame(got["status"], backend(run.config.backend)) == "program"
                statuses["program" if failed else got["status"]] += 1
    finally:
        meta["sessions"][-1].update(ended=now(), load_average_end=load_average(),
                                    runs=sum(statuses.values()),
                                    complete=sum(statuses.values()) == len(todo) + len(wholes))
        write_meta(folder, meta)
    return statuses


def runs(settings: Settings, todo: list[Run]) -> Iterator[tuple[Run, Outcome]]:
    """Each run with its outcome as it ends: on the local pool, or on a Dask cluster (where
    the outcome says where it ran)."""
    if settings.cluster:
        from flowsat.bench import cluster

        return cluster.run_all(todo, settings.cluster, settings.timeout, settings.rules)
    return run_all(todo, settings.workers, settings.timeout, settings.rules)


def whole_sets(todo: list[SetRun], timeout: float) -> Iterator[tuple[SetRun, Outcome]]:
    """Each run of a whole set in one process, here, one after another."""
    for run in todo:
        yield run, run_set(run, timeout)


def shown(value) -> str:
    """A setting as the command line gives it."""
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)


def start(folder: Path, settings: Settings, configs: list[Config], resume: bool,
          argv: list[str] | None) -> dict:
    """`meta.json`: the environment once; the settings, configurations and a session entry
    for each start or resume. A resume may add runs, not change what a run means."""
    meta = read_meta(folder) if resume else {}
    old = meta.get("settings", {})
    for name, value in asdict(settings).items():
        if name in old and name not in FREE_ON_RESUME and old[name] != value:
            raise UsageError(f"{folder} was run with {name.replace('_', '-')} "
                             f"{shown(old[name])}, not {shown(value)}; --resume must keep it")
    known = {c["name"]: c for c in meta.get("configs", [])}
    known.update((c.name, asdict(c)) for c in configs)
    meta = {"environment": meta.get("environment") or environment(),
            "command": settings.command(), "settings": asdict(settings),
            "configs": list(known.values()),
            "baseline": meta.get("baseline") or default_baseline(configs),
            "sessions": [*meta.get("sessions", []),
                         {"started": now(), "argv": argv, "load_average": load_average()}]}
    write_meta(folder, meta)
    return meta
