"""The search's options, made from the registry of switches (`flowsat.search.checks`): the
backend's options as data (`SearchOptions`, the fields `flowsat solve`'s command line is made
from, like every backend's), the `Switches` the problem reads, the presets and the stats.
"""

from __future__ import annotations

from dataclasses import make_dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flowsat.options import MAX_MEMORY, MAX_NODES, MEMORY_HELP, check_options, option
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


SearchOptions = make_dataclass("SearchOptions", [
    ("preset", str | None, option(PRESET_TEXT)),
    *map(switch_field, REGISTRY),
    ("order", str | None, option("move the colors in this order (letters).")),
    ("random_order", int | None, option("shuffle the color order with this seed.")),
    ("hint", Path | None, option("a partial solution (grid format) whose filled cells are "
                                 "fixed.")),
    ("max_nodes", int | None, option("stop after this many expanded states (exit 3).",
                                     bounds=MAX_NODES)),
    ("max_memory", float | None, option(MEMORY_HELP, bounds=MAX_MEMORY)),
], frozen=True)
SearchOptions.__module__ = __name__
SearchOptions.__doc__ = """What `solve(puzzle, "astar", ...)` takes besides the rule and the
timeout (None: the preset's choice, or no limit): the preset, a field for every switch of the
registry, and the rest. A switch that is on in a preset is turned off by its `--no-...` flag."""


if TYPE_CHECKING:
    Switches = Any  # the class `switches_class` makes


@cache
def switches_class() -> type:
    """`Switches`, made on first use: by a search, not by every run that imports the options
    (a dataclass of some 20 fields costs a few milliseconds to make)."""
    made = make_dataclass(
        "Switches", [("allow_self_touch", bool, False), ("allow_empty", bool, False),
                     *((s.name, type(s.on), s.value_in(DEFAULT_PRESET)) for s in REGISTRY)],
        frozen=True)
    made.__module__ = __name__
    made.__doc__ = ("What the search does: the rules and each switch (defaults: the default "
                    "preset).")
    return made


def __getattr__(name: str) -> Any:
    if name != "Switches":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return switches_class()


def configure(preset: str, given: dict[str, Any]) -> dict[str, Any]:
    """The switches in effect: the preset's, overridden by those given."""
    if preset not in PRESETS:
        raise UsageError(f"unknown preset {preset!r}; choose from {', '.join(PRESETS)}")
    unknown = set(given) - set(SWITCHES)
    if unknown:
        raise UsageError(f"unknown search option {sorted(unknown)[0]!r}")
    check_options(SearchOptions, given)
    return {"preset": preset, **PRESETS[preset], **given}


def switches_of(config: dict[str, Any], allow_self_touch: bool = False,
                allow_empty: bool = False) -> Switches:
    """The `Switches` of a configuration (see `configure`) under the rules."""
    return switches_class()(allow_self_touch, allow_empty,
                            **{name: config[name] for name in SWITCHES})


def for_kinds(switches: Switches, kinds: frozenset[str]) -> Switches:
    """The switches with those that do not hold on a board of these kinds, or under the
    switches' rule on cells, turned off."""
    fill_all = not switches.allow_empty
    return replace(switches, **{s.name: s.off for s in REGISTRY
                                if not s.holds_for(kinds) or not s.holds_under(fill_all)})
