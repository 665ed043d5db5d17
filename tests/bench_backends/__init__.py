"""Backends for the bench tests only, registered with monkeypatch in `flowsat.backend.REGISTRY`:
one that never answers, one whose process dies, one that raises, one that naps, a slow one,
a fake astar."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flowsat.backend import made


@dataclass(frozen=True)
class NoOptions:
    """The options of a backend that takes none."""


class Plain:
    """A test backend (`flowsat.backend.Backend`): `work(puzzle, options, observe)` answers."""

    kinds = None
    outside = False
    argument = None
    engine = __name__  # nothing more to import

    def __init__(self, name: str, work: Callable[..., Any], options: type = NoOptions,
                 observes: bool = False):
        self.name, self.work, self.Options, self.observes = name, work, options, observes

    def options(self, **given: Any) -> Any:
        return made(self, given)

    def solve(self, puzzle, options, rules, limits, observe=None):
        return self.work(puzzle, options, observe)
