"""Configurations: a backend and its options, under a short stable name for reports."""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flowsat.result import UsageError
from flowsat.sat.options import DEFAULT_ENCODING
from flowsat.solve import BACKENDS, backend_module, split_backend

SAT_ENCODINGS = (DEFAULT_ENCODING, "zucker2016")  # the default route, the 2016 reduction
SAT_SOLVERS = ("glucose4", "cadical195")
SAT_2016 = {"encoding": "zucker2016", "solver": "pycosat"}  # the 2016 program: PicoSAT
ASTAR_2016 = {"preset": "2016"}  # the 2016 C solver's feature set
DEDUCE_CHOICES = ("on", "off", "auto")  # the sat backend's propagation first (`--deduce`)
NAMED = re.compile(r"([\w.-]+)=(.*)", re.DOTALL)  # NAME=COMMAND in program:NAME=COMMAND


@dataclass(frozen=True)
class Config:
    """A backend with options; `module` lets a worker process find the backend as `solve` does."""

    name: str
    backend: str
    module: str
    options: dict[str, Any] = field(default_factory=dict, hash=False)

    @property
    def is_2016(self) -> bool:
        return self.options in (SAT_2016, ASTAR_2016)


def configurations(backends: list[str], encodings: list[str] | None = None,
                   solvers: list[str] | None = None, baselines: bool = True,
                   program_format: str | None = None,
                   timeout: float | None = None, deduce: list[str] | None = None) -> list[Config]:
    """Every configuration asked for, each name once; the 2016 rows too with `baselines`;
    `program:NAME=COMMAND` (or `program:COMMAND`) as `program/NAME`. A solver that cannot
    run (with the timeout, or at all) is a UsageError here, up front."""
    if (encodings or solvers or deduce) and "sat" not in backends:
        raise UsageError("--encodings, --solvers and --deduce apply to the sat backend only")
    if program_format and not any(b.startswith("program:") for b in backends):
        raise UsageError("--program-format applies to program:... backends only")
    found: dict[str, Config] = {}
    for backend in backends:
        if backend == "sat":
            configs = sat_configs(encodings or list(SAT_ENCODINGS), solvers or list(SAT_SOLVERS),
                                  baselines, timeout, deduce)
        elif backend == "astar":
            configs = [config("astar", "astar/default")]
            configs += [config("astar", "astar/2016", **ASTAR_2016)] if baselines else []
        elif backend.startswith("program:"):
            configs = [program_config(backend, program_format or "numberlink")]
        else:
            configs = [config(split_backend(backend)[0], f"{backend}/default")]
        found.update((c.name, c) for c in configs)
    return list(found.values())


def sat_configs(encodings: list[str], solvers: list[str], baselines: bool,
                timeout: float | None = None, deduce: list[str] | None = None) -> list[Config]:
    """Every encoding with every solver (and every `--deduce` choice given: `NAME/deduce=on`),
    then PicoSAT on the 2016 encoding if pycosat imports."""
    from flowsat.sat.oracle import solver_name
    from flowsat.sat.spec import load_spec

    for choice in deduce or []:
        if choice not in DEDUCE_CHOICES:
            raise UsageError(f"--deduce: {choice!r} is not one of {', '.join(DEDUCE_CHOICES)}")
    names = [solver_name(s, timeout) for s in solvers]
    found = [config("sat", f"sat/{load_spec(e).name}/{s}" + (f"/deduce={d}" if d else ""),
                    encoding=e, solver=s, **({"deduce": d} if d else {}))
             for e in encodings for s in names for d in deduce or [None]]
    if baselines and importlib.util.find_spec("pycosat"):
        found.append(config("sat", f"sat/{load_spec(SAT_2016['encoding']).name}/pycosat",
                            **SAT_2016))
    return found


def program_config(backend: str, program_format: str) -> Config:
    """A solver program's configuration, named `program/NAME` (NAME: the one given, else the
    program's file name), once the program is found."""
    from flowsat.program import program_argv

    text = split_backend(backend)[1]["command"].strip()
    named = NAMED.fullmatch(text)
    command = named[2].strip() if named else text
    argv = program_argv(command, program_format)
    name = named[1] if named else Path(argv[0]).name
    return config("program", f"program/{name}", command=command,
                  program_format=program_format)


def config(backend: str, name: str, **options: Any) -> Config:
    """A configuration, once its backend is known and takes its options."""
    backend_module(backend, options)
    return Config(name, backend, BACKENDS[backend], options)


def default_baseline(configs: list[Config]) -> str:
    """The configuration that ratios are taken against: the first 2016 one, else the first."""
    return next((c.name for c in configs if c.is_2016), configs[0].name)
