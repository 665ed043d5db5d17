"""Configurations: a backend and its options, under a short stable name for reports.

A bench crosses the values given for some options (`--encodings`, `--solvers`, `--deduce`:
`CROSSED`) on every backend whose options have them, and adds each backend's 2016 row
(`BASELINES`); a configuration is named after its backend and the values it was given.
"""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass, field, fields
from itertools import product
from pathlib import Path
from typing import Any

from flowsat.backend import REGISTRY, Backend, backend
from flowsat.result import UsageError
from flowsat.sat.options import DEFAULT_ENCODING

SAT_ENCODINGS = (DEFAULT_ENCODING, "zucker2016")  # the default route, the 2016 reduction
SAT_SOLVERS = ("glucose4", "cadical195")
DEDUCE_CHOICES = ("on", "off", "auto")  # the sat backend's propagation first (`--deduce`)
CROSSED = {"encoding": "--encodings", "solver": "--solvers", "deduce": "--deduce"}
DEFAULT_CROSSED = {"encoding": SAT_ENCODINGS, "solver": SAT_SOLVERS}  # when none are given
# the 2016 rows: the 2016 program (the zucker2016 reduction, PicoSAT, when pycosat is
# installed) and the 2016 C solver's feature set
BASELINES = {"sat": {"encoding": "zucker2016", "solver": "pycosat"}, "astar": {"preset": "2016"}}
NAMED = re.compile(r"([\w.-]+)=(.*)", re.DOTALL)  # NAME=COMMAND in program:NAME=COMMAND


@dataclass(frozen=True)
class Config:
    """A backend with the options given; `module` lets a worker process find the backend.
    `timing`: `warm` (timed inside a warm worker), `process` (a whole process a puzzle) or
    `set` (a whole process a set, `flowsat solve --jobs` given `jobs` when not None)."""

    name: str
    backend: str
    module: str
    options: dict[str, Any] = field(default_factory=dict, hash=False)
    timing: str = "warm"
    jobs: int | None = None

    @property
    def is_2016(self) -> bool:
        return self.options == BASELINES.get(self.backend)


def configurations(backends: list[str], encodings: list[str] | None = None,
                   solvers: list[str] | None = None, baselines: bool = True,
                   program_format: str | None = None,
                   timeout: float | None = None, deduce: list[str] | None = None) -> list[Config]:
    """Every configuration asked for, each name once; the 2016 rows too with `baselines`;
    `program:NAME=COMMAND` (or `program:COMMAND`) as `program/NAME`. A solver that cannot
    run (with the timeout, or at all) is a UsageError here, up front."""
    for choice in deduce or []:
        if choice not in DEDUCE_CHOICES:
            raise UsageError(f"--deduce: {choice!r} is not one of {', '.join(DEDUCE_CHOICES)}")
    given = {"encoding": encodings, "solver": solvers, "deduce": deduce}
    owners = [backend(text.partition(":")[0]) for text in backends]
    if any(given.values()) and not any(has_option(b, k) for b in owners for k in CROSSED):
        raise UsageError("--encodings, --solvers and --deduce apply to the sat backend only")
    if program_format and not any(b.argument and ":" in text
                                  for b, text in zip(owners, backends, strict=True)):
        raise UsageError("--program-format applies to program:... backends only")
    found: dict[str, Config] = {}
    for text, owner in zip(backends, owners, strict=True):
        for name, options in rows(text, owner, given, baselines, program_format, timeout):
            found[name] = config(owner, name, options)
    return list(found.values())


def rows(text: str, owner: Backend, given: dict[str, list[str] | None], baselines: bool,
         program_format: str | None, timeout: float | None) -> list[tuple[str, dict[str, Any]]]:
    """The configurations of one backend, named: its `NAME:TEXT` argument (named by its own
    NAME= or its program's file name), or every combination of the crossed values it takes,
    then its 2016 row."""
    if owner.argument:
        return [argument_row(text, owner, program_format)]
    crossed = {k: v or DEFAULT_CROSSED.get(k) for k, v in given.items() if has_option(owner, k)}
    crossed = {k: v for k, v in crossed.items() if v}
    found = [recorded(owner, options, timeout) for values in product(*crossed.values())
             if runnable(options := dict(zip(crossed, values, strict=True)))]
    base = BASELINES.get(owner.name)
    if baselines and base and (base.get("solver") != "pycosat"
                               or importlib.util.find_spec("pycosat")):
        found.append(recorded(owner, base, timeout))
    return found


def runnable(options: dict[str, Any]) -> bool:
    """Whether a crossed configuration can run: an encoding that runs on one solver only
    (`cycles = "propagator"`: CaDiCaL 1.9.5) is crossed with that solver alone."""
    if "encoding" not in options or "solver" not in options:
        return True
    from flowsat.sat.choices import wrong_solver
    from flowsat.sat.oracle import solver_name
    from flowsat.sat.spec import load_spec

    return not wrong_solver(load_spec(options["encoding"]), solver_name(options["solver"]))


def argument_row(text: str, owner: Backend, program_format: str | None
                 ) -> tuple[str, dict[str, Any]]:
    """`NAME:[LABEL=]TEXT`: the row `NAME/LABEL` (LABEL: the program's file name when not
    given), the argument and the format the program reads (the plan's, else the default)."""
    argument = text.partition(":")[2].strip()
    if not argument:
        raise UsageError(f"the {owner.name} backend needs its {owner.argument}: "
                         f"{owner.name}:{owner.argument.upper()}")
    named = NAMED.fullmatch(argument)
    value = named[2].strip() if named else argument
    fmt = program_format or owner.Options.__dataclass_fields__["program_format"].default
    made = owner.options(**{owner.argument: value, "program_format": fmt})
    name = named[1] if named else Path(made.argv[0]).name
    return f"{owner.name}/{name}", {owner.argument: value, "program_format": fmt}


def recorded(owner: Backend, options: dict[str, Any], timeout: float | None
             ) -> tuple[str, dict[str, Any]]:
    """A configuration's name (the backend, then each value as reports write it: an encoding
    by its name, a solver by its canonical name, `deduce=on`; `default` for none) and its
    options (a solver by its canonical name, once it can run with the timeout)."""
    from flowsat.sat.oracle import solver_name
    from flowsat.sat.spec import load_spec

    if "solver" in options:
        options = {**options, "solver": solver_name(options["solver"], timeout)}
    parts = [load_spec(v).name if k == "encoding" else v if k in ("solver", "preset")
             else f"{k}={v}" for k, v in options.items()]
    return "/".join([owner.name, *(parts or ["default"])]), options


def has_option(owner: Backend, option: str) -> bool:
    return option in {f.name for f in fields(owner.Options)}


def config(owner: Backend, name: str, options: dict[str, Any]) -> Config:
    """A configuration, once its backend takes its options (made and checked here)."""
    owner.options(**options)
    return Config(name, owner.name, REGISTRY[owner.name], options,
                  "process" if owner.outside else "warm")


def default_baseline(configs: list[Config]) -> str:
    """The configuration that ratios are taken against: the first 2016 one, else the first."""
    return next((c.name for c in configs if c.is_2016), configs[0].name)


def solve_flags(name: str, options: dict[str, Any]) -> list[str]:
    """`flowsat solve`'s flags for the options of the backend `name`: a switch when it
    differs from what the flag leaves, else `--name value`."""
    declared = {f.name: f for f in fields(backend(name).Options)}
    words: list[str] = []
    for key, value in options.items():
        flag = declared[key].metadata.get("flag")
        if flag:
            if bool(value) != flag.startswith("--no-"):
                words.append(flag)
        elif value is not None:
            words += [f"--{key.replace('_', '-')}", str(value)]
    return words
