"""Named encodings: a choice per clause family, read from the TOML specs in `encodings/`."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from functools import cache
from importlib import resources
from pathlib import Path

from flowsat.result import UsageError

CHOICES = {
    "cells": ("onehot", "binary"),
    "links": ("dirtypes", "edges"),
    "card": ("pairwise", "seqcounter", "sortnetwrk", "cardnetwrk", "bitwise", "ladder",
             "totalizer", "mtotalizer", "kmtotalizer"),
    "cycles": ("lazy",),
}


@dataclass(frozen=True)
class Spec:
    """One named encoding: what it chooses for each family, and why (in its file)."""

    name: str
    summary: str
    cells: str
    links: str
    card: str = "pairwise"
    cycles: str = "lazy"
    notes: str = ""


def builtin_specs() -> dict[str, Path]:
    """The specs shipped with flowsat, by name."""
    try:
        folder = resources.files("flowsat.encodings")
    except ModuleNotFoundError:  # running from a source checkout, not an installed package
        folder = Path(__file__).resolve().parents[2] / "encodings"
    return {Path(f.name).stem: Path(str(f)) for f in folder.iterdir() if f.name.endswith(".toml")}


def load_spec(name_or_path: str) -> Spec:
    """A spec by name (from `encodings/`) or from a TOML file's path."""
    path = Path(name_or_path)
    if path.suffix == ".toml" and path.is_file():
        return read_spec(path)
    return builtin_spec(name_or_path)


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
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise UsageError(f"{path}: cannot read the encoding spec: {err}") from None
    known = {f.name for f in fields(Spec)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise UsageError(f"{path}: unknown key {unknown[0]!r}; keys are {', '.join(sorted(known))}")
    data.setdefault("name", path.stem)
    for family, options in CHOICES.items():
        value = data.get(family, getattr(Spec, family, None))
        if value not in options:
            raise UsageError(f"{path}: {family} = {value!r}; choose from {', '.join(options)}")
    try:
        return Spec(**data)
    except TypeError as err:
        raise UsageError(f"{path}: {err}") from None
