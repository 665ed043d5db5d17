"""The search's options, made from the registry of switches (`flowsat.search.checks`): the
backend's options (`SearchOptions`, the fields `flowsat solve`'s command line is made from,
like every backend's, and what the problem reads), the presets and the stats.
"""

from __future__ import annotations

from dataclasses import make_dataclass, replace
from pathlib import Path
from typing import Any

from flowsat.options import MAX_NODES, option
from flowsat.result import UsageError
from flowsat.search.checks import PRESET_NAMES, REGISTRY, Switch

PRESET_HELP = {"2016": "the 2016 C program's checks only",
               "full": "everything that pays; the default"}
DEFAULT_PRESET = "full"
PRESET_TEXT = "switch set, " + " or ".join(f"'{name}' ({text})"
                                         for name, text in PRESET_HELP.items()) + "."
# the switches each preset sets; an option given by name overrides its preset
PRESETS: dict[str, dict[str, Any]] = {
    preset: {switch.name: switch.value_in(preset) for switch in REGISTRY}
    for preset in PRESET_NAMES}
SWITCHES = tuple(switch.name for switch in REGISTRY)
# the search problems: flows' heads moved (`flowsat.search.problem`), cells' links decided in a
# sweep (`flowsat.search.cells`), or the one that suits the board (`flowsat.search.backend`)
PROBLEMS = ("auto", "heads", "cells")
SWEEP_CELLS = 400  # from this many cells on, `auto` sweeps cells (docs/search.md)
PROBLEM_TEXT = ("the search problem: 'heads' (move the flows' heads, as in 2016), 'cells' (decide "
                "each cell's links in a sweep; square boards, every cell filled) or 'auto' ("
                f"cells on plain square boards of {SWEEP_CELLS} cells or more, else heads).")
STATS = ("forced", *(switch.stat for switch in REGISTRY if switch.check), "pruned_blocked")


def flag(switch: Switch) -> str:
    """The switch's command-line option: `--no-NAME` turns off a switch some preset has on,
    `--NAME` turns on one no preset has, `--NAME N` sets a width."""
    name = switch.name.replace("_", "-")
    return f"--no-{name}" if isinstance(switch.on, bool) and switch.presets else f"--{name}"


def switch_field(switch: Switch) -> tuple[str, Any, Any]:
    """The switch's field of the options: a flag for on/off, a number within its bounds for a
    width."""
    if isinstance(switch.on, bool):
        return switch.name, bool | None, option(switch_help(switch), flag=flag(switch))
    return switch.name, int | None, option(switch_help(switch), bounds=switch.bounds)


def switch_help(switch: Switch) -> str:
    if not isinstance(switch.on, bool):
        return f"{switch.help} (N; 0 = off, default {switch.value_in(DEFAULT_PRESET)})."
    return f"turn off: {switch.help}." if switch.presets else f"{switch.help}."


def resolved(options: Any) -> None:
    """Check the preset and the problem, and set every switch not given to the preset's
    value: the options are whole once made."""
    if options.preset not in PRESETS:
        raise UsageError(f"unknown preset {options.preset!r}; choose from {', '.join(PRESETS)}")
    if options.problem not in PROBLEMS:
        raise UsageError(f"unknown problem {options.problem!r}; choose from "
                         f"{', '.join(PROBLEMS)}")
    object.__setattr__(options, "problem", str(options.problem))  # (an enum's member)
    for name, value in PRESETS[options.preset].items():
        if getattr(options, name) is None:
            object.__setattr__(options, name, value)


OPTIONS_DOC = """What the search does besides the rules and the limits: the preset
(default `full`), a field for every switch of the registry (None when made: the preset's
value), and the rest. A switch that is on in a preset is turned off by its `--no-...` flag."""

SearchOptions = make_dataclass("SearchOptions", [
    ("preset", str, option(PRESET_TEXT, default=DEFAULT_PRESET)),
    ("problem", str, option(PROBLEM_TEXT, choices=PROBLEMS, default="auto")),
    *map(switch_field, REGISTRY),
    ("order", str | None, option("move the colors in this order (letters).")),
    ("random_order", int | None, option("shuffle the color order with this seed.")),
    ("hint", Path | None, option("a partial solution (grid format) whose filled cells are "
                                 "fixed.")),
    ("max_nodes", int | None, option("stop after this many expanded states (exit 3).",
                                     bounds=MAX_NODES)),
], frozen=True, namespace={"__post_init__": resolved, "__doc__": OPTIONS_DOC})  # (made
# without a docstring, a dataclass writes one from its signature: 1 M instructions a start)
SearchOptions.__module__ = __name__


def for_kinds(options: SearchOptions, kinds: frozenset[str], fill_all: bool) -> SearchOptions:
    """The options with the switches that do not hold on a board of these kinds, or under
    the rule on cells, turned off."""
    return replace(options, **{s.name: s.off for s in REGISTRY
                               if not s.holds_for(kinds) or not s.holds_under(fill_all)})
