"""The sat backend's options as data (the command line is made from these fields), checked
once when made (`checked`)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from flowsat.options import MAX_CONFLICTS, Bounds, check_options, option
from flowsat.result import UsageError

if TYPE_CHECKING:
    from flowsat.sat.spec import Spec

DEFAULT_ENCODING = "edges-turns"
DEFAULT_SOLVER = "glucose4"
DEDUCE = ("auto", "on", "off")
COMPILED = ("auto", "off")
DEDUCE_FROM = 10_000  # cells: where `deduce` is auto, boards this large propagate first
# cells: boards this large take `degree = "turns"` and `codes = "short"` (on smaller ones the
# tables they need cost more than the clauses they save: direct degrees, whole codes; 50, not
# 150, since the tables are shared per board: docs/notes/2026-11-23-speed.md, "stop 23")
LEAN_FROM = 50


def setting(default: Any, help: str, bounds: Bounds | None = None) -> Any:
    """A field whose default is what runs when it is not given (the command line's option
    says nothing: `option`'s metadata)."""
    return field(default=default, metadata=option(help, bounds=bounds).metadata)


@dataclass(frozen=True)
class SatOptions:
    """What the sat backend takes besides the rule and the limits (`flowsat.backend.Limits`):
    each field holds what runs."""

    encoding: str = setting(
        DEFAULT_ENCODING, f"SAT encoding: a name, a spec file (.toml), NAME+family=choice "
        f"(default {DEFAULT_ENCODING}).")
    solver: str = setting(
        DEFAULT_SOLVER, f"SAT solver: a PySAT name or alias, pycosat, or external:COMMAND "
        f"(default {DEFAULT_SOLVER}).")
    deduce: str = setting(
        "auto", "propagate first: fix the links the board forces, then solve only the rest; a "
        "contradiction proves the puzzle unsolvable: on, off, or auto (default: on for square "
        f"boards of {DEDUCE_FROM:,} cells or more without walls, bridges or warps, under the "
        "default rules).")
    compiled: str = setting(
        "auto", "solve a board's later puzzles on one solver compiled for the board, the dots "
        "as assumptions: auto (from a board's second puzzle in a run, without --max-conflicts, "
        "whose budget must end the same way whatever came before) or off (a formula of its "
        "own for every puzzle: solver counts that depend on the puzzle alone).")
    max_conflicts: int | None = setting(
        None, "Stop (status limit) after this many solver conflicts over the whole search: "
        "a budget that ends the same way on every machine.", MAX_CONFLICTS)

    @cached_property
    def spec(self) -> Spec:
        """The encoding's spec, read once (`flowsat.sat.spec.load_spec`): no field, so no
        flag."""
        from flowsat.sat.spec import load_spec

        return load_spec(self.encoding)


def checked(**given: Any) -> SatOptions:
    """The options from the values given (None: the default), each checked: an unknown name,
    a number out of bounds, a `deduce` not on, off or auto (True, False: on, off), an
    encoding that is no encoding (its spec is read now) are a UsageError. An encoding that
    runs on one solver takes it when none is given. The solver's name is checked when the
    search starts (PySAT knows its names; it is not imported before)."""
    given = {k: v for k, v in given.items() if v is not None}
    names = {f.name for f in fields(SatOptions)}
    for name in given.keys() - names:
        raise UsageError(f"--{name.replace('_', '-')} does not apply to the sat backend")
    check_options(SatOptions, given)
    if isinstance(given.get("deduce"), bool):
        given["deduce"] = "on" if given["deduce"] else "off"
    options = replace(SatOptions(), **given)
    if options.deduce not in DEDUCE:
        raise UsageError(f"--deduce: {options.deduce!r} is not on, off or auto")
    if options.compiled not in COMPILED:
        raise UsageError(f"--compiled: {options.compiled!r} is not auto or off")
    for name in ("encoding", "solver"):
        if not isinstance(getattr(options, name), str):
            raise UsageError(f"--{name}: {getattr(options, name)!r} is not a name")
    needed = options.spec.needs_solver()  # read now: a UsageError here, and parsed once
    if needed and "solver" not in given:  # (a propagator: `choices.Choice.solver`)
        options = replace(options, solver=needed)
    return options

