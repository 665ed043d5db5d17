"""Named encodings: a choice per clause family, read from the TOML specs of `flowsat/encodings/`."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import NamedTuple

from flowsat.puzzle.formats import PuzzleError, read_text
from flowsat.result import UsageError
from flowsat.sat.choices import FAMILIES, compiles, line, needed_solver, problem

CHOICES = FAMILIES  # each family's choices (`flowsat.sat.choices`)


class Spec(NamedTuple):
    """One named encoding: what it chooses for each family, and why (in its file). (A named
    tuple: a frozen dataclass of its twelve fields costs every start its making.)"""

    name: str
    summary: str
    cells: str
    links: str
    card: str = "pairwise"
    cycles: str = "lazy"  # lazy cuts; squares: also no 2x2 cycle up front; order: eager;
    # propagator: a user propagator inside the solver (`flowsat.sat.connectivity`)
    deduce: bool = False  # units for the links the board forces
    unique: bool = False  # the uniqueness rule, with a fall-back to the complete encoding
    touch: str = "eager"  # no-self-touch clauses up front, or (lazy) where a model touches
    degree: str = "direct"  # a cell's links: direct cardinality, or the corner rule's turns
    codes: str = "bounded"  # binary colors: no code past the last color's; free; short
    notes: str = ""

    def problem(self) -> str | None:
        """Why the choices do not fit together, if they do not (`choices.problem`)."""
        return problem(self)

    @property
    def compiles(self) -> bool:
        """Whether a board compiled once can carry every choice (`choices.compiles`)."""
        return compiles(self)

    def needs_solver(self) -> str | None:
        """The one solver the choices run on, if one needs one (`choices.needed_solver`)."""
        return needed_solver(self)

    @property
    def choices(self) -> str:
        """The choices as `family=choice` words."""
        return line(self)


def builtin_specs() -> dict[str, Path]:
    """The specs shipped with flowsat, by name."""
    folder = Path(__file__).resolve().parents[1] / "encodings"  # the package flowsat.encodings
    return {f.stem: f for f in folder.iterdir() if f.name.endswith(".toml")}


def load_spec(name: str) -> Spec:
    """A spec by name (from `flowsat/encodings/`) or from a TOML file's path, with any changes after
    '+': `edges-binary+card=ladder+unique=true` is edges-binary with those two choices. A
    built-in one is read once a process (`built_in`); a file, each time (it may change)."""
    return changed_spec(name) if ".toml" in name.split("+", 1)[0] else built_in(name)


@cache
def built_in(name: str) -> Spec:
    """`load_spec` of a built-in spec's name, with any changes (kept: shipped, it never changes)."""
    return changed_spec(name)


def changed_spec(name: str) -> Spec:
    """`load_spec`, read now."""
    base, *changes = name.split("+")
    path = Path(base)
    spec = read_spec(path) if path.suffix == ".toml" and path.is_file() else builtin_spec(base)
    if not changes:
        return spec
    values = {}
    for change in changes:
        family, _, value = change.partition("=")
        options = CHOICES.get(family)
        if options is None:
            raise UsageError(f"encoding {name!r}: no family {family!r}; families are "
                             f"{', '.join(CHOICES)}")
        choice = next((o for o in options if str(o).lower() == value.lower()), None)
        if choice is None:
            raise UsageError(f"encoding {name!r}: {family} = {value!r}; choose from "
                             f"{', '.join(str(o).lower() for o in options)}")
        values[family] = choice
    spec = spec._replace(name=f"{spec.name}+" + "+".join(changes), **values)
    if spec.problem():
        raise UsageError(f"encoding {name!r}: {spec.problem()}")
    return spec


@cache
def builtin_spec(name: str) -> Spec:
    specs = builtin_specs()
    if name not in specs:
        raise UsageError(f"unknown encoding {name!r}; choose from {', '.join(sorted(specs))} "
                         f"or give a spec file (.toml)")
    return read_spec(specs[name])


def read_spec(path: Path) -> Spec:
    """The spec in a TOML file, checked: known keys, and a known choice for each family."""
    try:
        data = tomllib.loads(read_text(str(path)))
    except PuzzleError as err:
        raise UsageError(f"{err.file}: cannot read the encoding spec: {err.message}") from None
    except tomllib.TOMLDecodeError as err:
        raise UsageError(f"{path}: cannot read the encoding spec: {err}") from None
    known = set(Spec._fields)
    unknown = sorted(set(data) - known)
    if unknown:
        raise UsageError(f"{path}: unknown key {unknown[0]!r}; keys are {', '.join(sorted(known))}")
    data.setdefault("name", path.stem)
    needed = [key for key in Spec._fields[1:] if key not in Spec._field_defaults]
    if missing := [key for key in needed if key not in data and key not in CHOICES]:
        raise UsageError(f"{path}:1:1: no {missing[0]} = \"...\"; a spec needs "
                         f"{', '.join(needed)}")
    for family, options in CHOICES.items():
        value = data.get(family, Spec._field_defaults.get(family))
        if value is None:
            raise UsageError(f"{path}: no {family} = ...; choose from {', '.join(options)}")
        if value not in options:
            raise UsageError(f"{path}: {family} = {value!r}; choose from {', '.join(options)}")
    try:
        spec = Spec(**data)
    except TypeError as err:
        raise UsageError(f"{path}: {err}") from None
    if spec.problem():
        raise UsageError(f"{path}: {spec.problem()}")
    return spec
