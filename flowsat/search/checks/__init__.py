"""Every switch of the best-first search in one registry: the checks that prune states (a
module each), the rules of the link propagation, and the search's choices (`choices.py`).

Each module of this package declares `SWITCHES`, a tuple of `Switch`; `REGISTRY` gathers them
in their `order`. `flowsat.search.options` makes from it the backend's options (a field per
switch, hence its command-line flag; what the problem reads), the presets and the `pruned_*`
stats, and the problem runs the checks that are on and hold for its board's kinds
and its rule on cells (`fills`: a check that holds only when every cell is filled says why in
its module).
Adding a check is adding a module here.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from typing import Any, NamedTuple

from flowsat.options import Bounds

PRESET_NAMES = ("2016", "full")  # the presets, described in `flowsat.search.options`
KINDS = ("square", "holes", "walls", "bridges", "hex", "warps")  # every kind of board
EVERY = frozenset(KINDS)
# the kinds a switch holds for unless it says otherwise: square boards, with holes and walls or
# not (a hole is a cell never set in a mask, so the bitboards' shifts see it as off the board;
# a wall is a link missing from the board's link masks)
SQUARE = frozenset({"square", "holes", "walls"})
# the rules on cells: every cell filled (the default), or cells may stay empty (--allow-empty)
FILLS = ("fill-all", "allow-empty")
BOTH, FILL_ALL, ALLOW_EMPTY = frozenset(FILLS), frozenset(FILLS[:1]), frozenset(FILLS[1:])
# a check: given the problem, the function that tells whether a state passes
Check = Callable[[Any], Callable[[Any], bool]]


class Switch(NamedTuple):
    """One switch: its name, what it does, where it is on, and (a check) what it prunes (a
    named tuple: a frozen dataclass of ten fields costs every start some 6 M instructions)."""

    name: str  # the option's name: `solve(..., name=value)`, `config` in JSON, `--no-name`
    help: str  # what it does when on, for `--help` and the tables of docs/search.md
    order: int  # checks run in this order (cheapest first); flags are listed in it
    presets: tuple[str, ...] = PRESET_NAMES  # the presets it is on in
    on: bool | int = True  # its value when on (an int is a width, 0 is off)
    kinds: frozenset[str] = SQUARE  # the kinds of board it holds for; off on any other
    fills: frozenset[str] = BOTH  # the rules on cells it holds under; off under the other
    check: Check | None = None  # for a check: the function that tells whether a state passes
    stat: str = ""  # for a check: the stat counting the states it pruned
    bounds: Bounds | None = None  # for a width: the values it may take

    @property
    def off(self) -> bool | int:
        return False if isinstance(self.on, bool) else 0

    def value_in(self, preset: str) -> bool | int:
        """Its value in a preset."""
        return self.on if preset in self.presets else self.off

    def holds_for(self, kinds: frozenset[str]) -> bool:
        """Whether it holds on a board of these kinds (every one of them)."""
        return kinds <= self.kinds

    def holds_under(self, fill_all: bool) -> bool:
        """Whether it holds with every cell filled (fill_all) or with cells left empty."""
        return FILLS[not fill_all] in self.fills


def gather() -> tuple[Switch, ...]:
    """The switches of every module of this package, in order."""
    found: list[Switch] = []
    for module in module_names():
        found += importlib.import_module(f"{__name__}.{module}").SWITCHES
    names = [switch.name for switch in found]
    assert len(set(names)) == len(names), f"a switch is declared twice: {names}"
    assert all(set(switch.presets) <= set(PRESET_NAMES) for switch in found)
    return tuple(sorted(found, key=lambda switch: switch.order))


def module_names() -> list[str]:
    """The names of this package's modules, from its folder (pkgutil would cost every start
    some 2 M instructions, as the solve command reads the switches for its flags)."""
    return sorted(name.removesuffix(".py") for name in os.listdir(__path__[0])
                  if name.endswith(".py") and name != "__init__.py")


REGISTRY = gather()
