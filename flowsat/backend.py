"""The contract every backend keeps, and the registry of backends.

A backend is one object (`Backend`): its name, its `Options` dataclass (the fields the command
line and bench plans are made from), the kinds of board it takes, and
`solve(puzzle, options, rules, limits) -> Result`. Options are made once, from the command line
or a plan, by `backend.options(**given)`, which checks every value against its field's bounds;
the solve loop never sees loose keyword arguments. What stops a run (time, memory) is the same
for every backend: `Limits`.

The registry names each backend's module and the attribute that holds its object; a backend's
package imports only its options until `solve` is called (start-up stays light).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import fields
from typing import Any, ClassVar

from flowsat import numpy_now
from flowsat.options import MAX_MEMORY, TIMEOUT, check_options
from flowsat.puzzle.model import Cell, Paths, Puzzle
from flowsat.puzzle.rules import Rules
from flowsat.result import Result, UsageError

Observer = Callable[[str, Paths, list[list[Cell]]], None]  # (event, paths, cycles): animations


class Limits:
    """What stops a run, for every backend: seconds (None: none) and MB (None: half the
    memory available at the start, `flowsat.memory.cap_mb`). Checked when made, not changed
    after (a plain class: making a dataclass costs every start some 3 M instructions)."""

    __slots__ = ("max_memory", "timeout")

    def __init__(self, timeout: float | None = None, max_memory: float | None = None):
        TIMEOUT.check("timeout", timeout)
        MAX_MEMORY.check("max_memory", max_memory)
        object.__setattr__(self, "timeout", timeout)
        object.__setattr__(self, "max_memory", max_memory)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Limits are not changed once made ({name})")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Limits) and (self.timeout, self.max_memory) == (
            other.timeout, other.max_memory)

    def __hash__(self) -> int:
        return hash((self.timeout, self.max_memory))

    def __repr__(self) -> str:
        return f"Limits(timeout={self.timeout!r}, max_memory={self.max_memory!r})"


NO_LIMITS = Limits()


class Backend:
    """One way of solving: what every backend module's `BACKEND` object is (the contract,
    written as a plain class: each backend's class keeps it without deriving from it, and a
    `typing.Protocol` would cost every start its making)."""

    name: ClassVar[str]
    Options: ClassVar[type]  # a frozen dataclass; its fields carry help, flag and bounds
    kinds: ClassVar[frozenset[str] | None]  # the board kinds it takes (None: every kind)
    outside: ClassVar[bool]  # its answers come from outside flowsat (a wrong one is `wrong`)
    argument: ClassVar[str | None]  # the option `NAME:TEXT` gives (program: its command)
    observes: ClassVar[bool]  # whether it calls `observe` (what `--animate` replays)
    engine: ClassVar[str]  # the module that does the work, imported by the first solve
    # (optional) counts: ClassVar[bool]: its `solved` carries a count in the stats and no
    # paths (`flowsat.count.backend`, the counters as bench configurations)

    def options(self, **given: Any) -> Any:
        """The options instance, every value checked against its field's bounds."""

    def solve(self, puzzle: Puzzle, options: Any, rules: Rules, limits: Limits,
              observe: Observer | None = None) -> Result:
        """The puzzle's result: solved with paths (checked by the caller), or why not. A
        backend that keeps something from one puzzle to the next has a method `kept()`
        making it, and takes it back as `solve(..., kept=...)` (`keeper`)."""


def keeper(owner: Backend) -> Any:
    """What a run of puzzles on the backend keeps from one to the next, made for the caller
    to own and pass to each `solve` (None: the backend keeps nothing). Its `start(items)`
    is told each block of puzzles (`flowsat.parallel.answers`)."""
    make = getattr(owner, "kept", None)
    return None if make is None else make()


REGISTRY: dict[str, str] = {  # name -> module whose `BACKEND` is the backend
    "sat": "flowsat.sat",
    "astar": "flowsat.search",
    "program": "flowsat.program",
    "cpsat": "flowsat.cpsat",
}


def backend(name: str) -> Backend:
    """The registered backend of that name (a UsageError naming the choices otherwise)."""
    if name not in REGISTRY:
        raise UsageError(f"unknown backend {name!r}; choose from {', '.join(REGISTRY)}")
    return importlib.import_module(REGISTRY[name]).BACKEND


def loaded(owner: Backend) -> None:
    """Import the module that does the backend's work (`owner.engine`), which its package
    leaves until `solve` is called, and load numpy (the boards' tables and the checker use
    it), which `import numpy` leaves until its first use: the command line does both before
    its first puzzle, whose time then holds neither."""
    importlib.import_module(owner.engine)
    numpy_now()


def chosen(text: str, **given: Any) -> tuple[Backend, Any]:
    """The backend `NAME` (or `NAME:TEXT`, TEXT its `argument` option: `program:COMMAND`) and
    its options made from those given."""
    name, colon, rest = text.partition(":")
    found = backend(name)
    if colon and not found.argument:
        raise UsageError(f"the {name} backend takes nothing after ':'")
    if colon:
        given = {**given, found.argument: rest}
    if found.argument and not str(given.get(found.argument) or "").strip():
        raise UsageError(f"the {name} backend needs its {found.argument}: "
                         f"{name}:{found.argument.upper()}")
    return found, found.options(**given)


def made(owner: Backend, given: dict[str, Any]) -> Any:
    """`owner.Options` from the values given, once each is an option of the backend within
    its field's bounds (a UsageError naming the option otherwise): what `Backend.options` does."""
    known = {f.name for f in fields(owner.Options)}
    for name in given.keys() - known:
        raise UsageError(f"{flag_of(name)} does not apply to the {owner.name} backend")
    check_options(owner.Options, given)
    return owner.Options(**given)


def flag_of(name: str) -> str:
    """How the command line gives an option of some backend: `--no-links` for `links`."""
    for module in REGISTRY.values():
        found = importlib.import_module(module).BACKEND.Options.__dataclass_fields__.get(name)
        if found and found.metadata.get("flag"):
            return found.metadata["flag"]
    return f"--{name.replace('_', '-')}"


def described(options: Any) -> dict[str, Any]:
    """The configuration a result cut short names (the backend could not say it): the
    options' values that are set."""
    return {f.name: value for f in fields(options)
            if (value := getattr(options, f.name)) is not None}


def refuse_kind(owner: Backend, kind: str) -> None:
    """A UsageError for a kind of board (`square+holes`) the backend does not take."""
    if owner.kinds is not None and not set(kind.split("+")) <= owner.kinds:
        raise UsageError(f"the {owner.name} backend solves {', '.join(sorted(owner.kinds))} "
                         f"boards, not {kind} boards; use the sat backend")
