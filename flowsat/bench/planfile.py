"""Experiment plans: a bench as data (`flowsat bench --plan FILE.toml`).

A plan names puzzle sets (each a name and its paths or globs, with the rules its puzzles
are answered under and, if not every one, the configurations that run on it; a set, not a
file, is the unit: two sets may name the same files under other rules), configurations (a
backend and its options, the fields of the backend's options dataclass, validated by
`Backend.options` as the command line's are; `program:` rows for other people's programs),
how each configuration is timed (`warm`: inside a warm worker; `process`: `flowsat solve` as
a whole process per puzzle, start-up included; `set`: `flowsat solve` of a whole set in one
process, start-up included once, on `jobs` worker processes when given; a solver program is
timed `process` or `set` too), the repeats, the timeout, the workers or cluster, and how
the report groups the puzzles. A bad plan is one UsageError line naming the plan and what is
wrong, before anything runs.
"""

from __future__ import annotations

import glob
import re
import shlex
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flowsat.atomic import make_folder, write_file
from flowsat.backend import REGISTRY, Backend, chosen
from flowsat.bench.competition import GROUPS
from flowsat.bench.configs import Config, recorded, solve_flags
from flowsat.bench.counting import counting_config, is_counting
from flowsat.bench.plan import Place, load_puzzles
from flowsat.bench.records import read_records
from flowsat.bench.sweep import Settings
from flowsat.puzzle import Puzzle, PuzzleError, expand_paths
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError

TIMINGS = ("warm", "process", "set")
TOP = {"out", "repeat", "timeout", "workers", "cluster", "symmetries", "rules", "group_by",
       "sets", "configs"}
SET_KEYS = {"name", "paths", "rules", "configs"}
NOT_OPTIONS = {"name", "backend", "timing", "jobs"}  # the other keys: options
WHERE = re.compile(r"\(at line (\d+), column (\d+)\)")


@dataclass
class PlanSettings(Settings):
    """A bench made from a plan: its sets and configurations replace paths and backends."""

    plan: str = ""
    verb: str = "bench"  # the command that runs it: bench, or experiment
    sets: list[dict[str, Any]] = field(default_factory=list)  # name, paths, rules
    rows: list[dict[str, Any]] = field(default_factory=list)  # the plan's configurations

    def configs(self) -> list[Config]:
        return [configuration(self.plan, row, self.timeout) for row in self.rows]

    def command(self) -> str:
        return shlex.join(["flowsat", self.verb, "--plan", self.plan])

    def load(self, max_cells: int | None = None) -> tuple[list[Puzzle], list[PuzzleError]]:
        """Every set's puzzles, each file read once however many sets name it."""
        return load_puzzles(list(self.placed()), max_cells)

    def placed(self) -> dict[str, list[Place]]:
        """The sets each puzzle file is in, in the plan's order."""
        found: dict[str, list[Place]] = {}
        for s in self.sets:
            place = Place(s["name"], Rules(**s["rules"]),
                          frozenset(s["configs"]) if s.get("configs") is not None else None)
            for file in expand_paths(s["paths"]):
                found.setdefault(file, []).append(place)
        return found


def read_plan(path: Path, out: str | None = None, verb: str = "bench") -> PlanSettings:
    """The plan in `path`, checked whole: a UsageError `PLAN: what is wrong` otherwise."""
    name = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise UsageError(f"{name}: cannot read the plan: {err.strerror or err}") from None
    except tomllib.TOMLDecodeError as err:
        found = WHERE.search(str(err))
        at = f":{found[1]}:{found[2]}" if found else ""
        raise UsageError(f"{name}{at}: {WHERE.sub('', str(err)).strip()}") from None
    unknown(name, "the plan", data, TOP)
    rules = checked_rules(name, "the plan", data.get("rules", {}))
    sets = [plan_set(name, i, s, rules) for i, s in enumerate(listed(name, data, "sets"), 1)]
    names = [s["name"] for s in sets]
    if len(set(names)) != len(names):
        raise UsageError(f"{name}: two sets are named {twice(names)}")
    settings = PlanSettings(
        paths=[p for s in sets for p in s["paths"]], backends=[], baselines=False,
        repeat=number(name, data, "repeat", int, 1), timeout=number(name, data, "timeout",
                                                                    float, 60.0),
        workers=number(name, data, "workers", int, 1), cluster=data.get("cluster"),
        symmetries=choice(name, data, "symmetries", ("none", "all"), "none"),
        out=out or data.get("out") or str(Path("results") / path.stem),
        allow_self_touch=rules["self_touch"], groups=grouping(name, data.get("group_by")),
        plan=name, verb=verb, sets=sets, rows=listed(name, data, "configs"))
    made = settings.configs()  # every configuration checked now, before anything runs
    names = [c.name for c in made]
    if len(set(names)) != len(names):
        raise UsageError(f"{name}: two configurations are named {twice(names)}")
    for s in sets:
        check_set_configs(name, s, made)
    return settings


def check_set_configs(plan: str, given: dict[str, Any], configs: list[Config]) -> None:
    """A set's configurations are the plan's; one timed as a process (`flowsat solve` under
    the default rules, or a solver program) runs only on sets under the default rules."""
    names = {c.name for c in configs}
    chosen_here = given.get("configs")
    for c in chosen_here or []:
        if c not in names:
            raise UsageError(f"{plan}: set {given['name']}: no configuration {c!r}; the "
                             f"plan's are {', '.join(sorted(names))}")
    if given["rules"] == Rules().record():
        return
    for c in configs:
        if c.timing == "process" and (chosen_here is None or c.name in chosen_here):
            raise UsageError(f"{plan}: set {given['name']}: the configuration {c.name} is "
                             f"timed as a process, under the default rules only; give the "
                             f"set other configs = [...]")


def keep_plan(settings: PlanSettings, resume: bool) -> None:
    """The plan copied into its results folder (`plan.toml`); a resume must run the same."""
    folder = Path(settings.out)
    kept, text = folder / "plan.toml", Path(settings.plan).read_text(encoding="utf-8")
    if resume and kept.exists() and kept.read_text(encoding="utf-8") != text:
        raise UsageError(f"{settings.plan} is not the plan {kept} was run with; --resume must "
                         f"run the same plan")
    if read_records(folder) and not resume:
        return  # the bench refuses to run over earlier results
    make_folder(folder)
    if not kept.exists() or kept.resolve() != Path(settings.plan).resolve():
        write_file(kept, text)


def listed(plan: str, data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    """The plan's `[[key]]` tables: at least one, each a table."""
    items = data.get(key)
    if not items or not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise UsageError(f"{plan}: give at least one [[{key}]] table")
    return items


def plan_set(plan: str, index: int, given: dict[str, Any], rules: dict[str, bool]
             ) -> dict[str, Any]:
    """A set: its name, its paths (globs expanded, each matching something), its rules, and
    the names of the configurations that run on it (None: every one)."""
    name = given.get("name") or f"#{index}"
    unknown(plan, f"set {name}", given, SET_KEYS)
    paths = given.get("paths")
    if isinstance(paths, str):
        paths = [paths]
    if not paths or not all(isinstance(p, str) for p in paths):
        raise UsageError(f"{plan}: set {name}: give its paths, a list of files, folders or "
                         f"globs")
    found = []
    for pattern in paths:
        matched = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else (
            [pattern] if Path(pattern).exists() else [])
        if not matched:
            raise UsageError(f"{plan}: set {name}: nothing matches {pattern}")
        found += matched
    configs = given.get("configs")
    if configs is not None and (not isinstance(configs, list) or not configs
                                or not all(isinstance(c, str) for c in configs)):
        raise UsageError(f"{plan}: set {name}: configs is a list of the plan's configuration "
                         f"names")
    return {"name": str(name), "paths": found,
            "rules": {**rules, **checked_rules(plan, f"set {name}", given.get("rules", {}))},
            **({"configs": configs} if configs is not None else {})}


def checked_rules(plan: str, where: str, given: Any) -> dict[str, bool]:
    """Rules as a table of switches (`self_touch`, `fill_all`), each true or false."""
    known = set(Rules._fields)
    if not isinstance(given, dict):
        raise UsageError(f"{plan}: {where}: rules is a table, e.g. {{ self_touch = true }}")
    unknown(plan, f"{where}: rules", given, known)
    for key, value in given.items():
        if not isinstance(value, bool):
            raise UsageError(f"{plan}: {where}: rules: {key} is true or false")
    return Rules(**given).record()


def configuration(plan: str, row: dict[str, Any], timeout: float) -> Config:
    """One configuration of the plan, its options made by its backend (so checked as the
    command line's are); timed `process`: `flowsat solve` run as a solver program a puzzle;
    `set`: `flowsat solve` of a whole set in one process (flowsat.bench.whole)."""
    label = row.get("name") or row.get("backend") or row.get("counter") or "?"
    try:
        if is_counting(row):
            return counting_config(row)
        timing = row.get("timing", "warm")
        if timing not in TIMINGS:
            raise UsageError(f"timing {timing!r} is not one of {', '.join(TIMINGS)}")
        text = str(row.get("backend") or "")
        if not text:
            raise UsageError(f"give its backend: {', '.join(REGISTRY)} or program:COMMAND")
        options = {k: v for k, v in row.items() if k not in NOT_OPTIONS}
        owner, made = chosen(text, **options)
        jobs = set_jobs(row.get("jobs"), timing, owner.outside)
        if owner.outside:
            return program_row(row, owner, made)
        name, options = recorded(owner, options, timeout)
        name = row.get("name") or (name + f"/{timing}" * (timing != "warm"))
        if timing == "process":
            return whole_process(name, owner.name, options, timeout)
        return Config(name, owner.name, REGISTRY[owner.name], options, timing, jobs)
    except UsageError as err:
        raise UsageError(f"{plan}: configuration {label}: {err}") from None


def program_row(row: dict[str, Any], owner: Backend, made: Any) -> Config:
    """A solver program's configuration: a whole process a puzzle (`process`, the default) or
    a set (`set`: the set as one Numberlink file, so that format only)."""
    timing = row.get("timing", "process")
    if timing == "warm":
        raise UsageError("a solver program is timed as a whole process: a puzzle (timing = "
                         "\"process\") or a set (timing = \"set\")")
    if timing == "set" and made.program_format != "numberlink":
        raise UsageError("a solver program timed over a set reads it as one file of the "
                         "numberlink format, not program_format = "
                         f"{made.program_format!r}")
    options = {owner.argument: made.command, "program_format": made.program_format}
    name = row.get("name") or (f"{owner.name}/{Path(made.argv[0]).name}"
                               + "/set" * (timing == "set"))
    return Config(name, owner.name, REGISTRY[owner.name], options, timing)


def set_jobs(jobs: Any, timing: str, outside: bool) -> int | None:
    """A configuration's `jobs`: `flowsat solve --jobs` of a flowsat backend timed over a set."""
    from flowsat.options import WORKERS

    if jobs is None:
        return None
    if timing != "set" or outside:
        raise UsageError("jobs (flowsat solve --jobs) is for flowsat's own backends timed over "
                         "a set (timing = \"set\")")
    if not isinstance(jobs, int) or isinstance(jobs, bool):
        raise UsageError(f"jobs is a number, not {jobs!r}")
    return WORKERS.check("jobs", jobs)


def whole_process(name: str, backend: str, options: dict[str, Any], timeout: float) -> Config:
    """A configuration of flowsat's own backend timed as `flowsat solve` in a process of its
    own per puzzle (start-up and imports included), answered and checked as a program's. Its
    own timeout is past the bench's, so that the bench's kill at the timeout says `timeout`."""
    words = [sys.executable, "-m", "flowsat", "solve", "--backend", backend, "--format",
             "rows", "--timeout", f"{2 * timeout:g}", *solve_flags(backend, options), "{file}"]
    command = shlex.join(words)
    chosen("program", command=command)  # the same checks as any program row
    return Config(name, "program", REGISTRY["program"],
                  {"command": command, "program_format": "numberlink"}, "process")


def grouping(plan: str, given: Any) -> list[list[str]] | None:
    """The report's tables of groups: each a key (`size`) or keys together (`[set, size]`)."""
    if given is None:
        return None
    tables = [[g] if isinstance(g, str) else g for g in given] if isinstance(given, list) else []
    if not tables or not all(isinstance(t, list) and t for t in tables):
        raise UsageError(f"{plan}: group_by is a list of keys or lists of keys, "
                         f"e.g. [\"set\", [\"size\", \"kind\"]]")
    for key in (k for t in tables for k in t):
        if key not in GROUPS:
            raise UsageError(f"{plan}: group_by: no grouping {key!r}; choose from "
                             f"{', '.join(GROUPS)}")
    return tables


def number(plan: str, data: dict[str, Any], key: str, kind: type, default: Any) -> Any:
    """A number of the plan, checked as the command line's is (`--repeat`, `--timeout`)."""
    from flowsat.options import REPEAT, RUN_TIMEOUT, WORKERS

    value = data.get(key, default)
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise UsageError(f"{plan}: {key} is a number, not {value!r}")
    bounds = {"repeat": REPEAT, "timeout": RUN_TIMEOUT, "workers": WORKERS}[key]
    try:
        return bounds.check(key, value)
    except UsageError as err:
        raise UsageError(f"{plan}: {err}") from None


def choice(plan: str, data: dict[str, Any], key: str, choices: tuple[str, ...],
           default: str) -> str:
    value = data.get(key, default)
    if value not in choices:
        raise UsageError(f"{plan}: {key} is one of {', '.join(choices)}, not {value!r}")
    return value


def unknown(plan: str, where: str, given: dict[str, Any], known: set[str]) -> None:
    """A UsageError for the first key that is not one of `known`."""
    for key in sorted(given.keys() - known):
        raise UsageError(f"{plan}: {where}: unknown key {key!r}; the keys are "
                         f"{', '.join(sorted(known))}")


def twice(names: list[str]) -> str:
    return next(n for n in names if names.count(n) > 1)
