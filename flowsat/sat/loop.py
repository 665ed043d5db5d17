"""The one SAT loop: solve, read the model, decode it, cut what is wrong in it and solve again,
until a model of right paths only; then block it for the next solution, or relax the formula
once it has none (PySAT's `enum_models` with lazy cuts, written against a small protocol).

Each route keeps the protocol (`Route`): the puzzle's own formula (`flowsat.sat.fresh`), a
board compiled once (`flowsat.sat.compiled`) and the residue of propagation
(`flowsat.sat.residue`). The loop knows none of them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from flowsat.puzzle.model import Cell, Paths
from flowsat.result import UsageError
from flowsat.sat.decode import BrokenModel
from flowsat.sat.oracle import Oracle

Observer = Callable[[str, Paths, list[list[Cell]]], None]  # (event, paths, cycles)


class Decoded(NamedTuple):
    """What a model says: its paths (as far as they go), the cycles of links off them (each
    as the route keeps it) and the touches to rule out (pairs of nodes on one path)."""

    paths: Paths | None
    cycles: Sequence = ()
    touching: Sequence = ()


class Route:
    """The protocol every route keeps (a plain class, read, never derived from: a
    `typing.Protocol` costs every start its making). Its stats dict is the search's."""

    stats: dict

    def solve(self) -> bool | None:
        """Solve under the route's assumptions: True, False, None (deadline or budget)."""

    def model(self) -> list[int]:
        """The last model."""

    def decode(self, model: list[int]) -> Decoded | None:
        """The model read (None: the route changed its formula, solve again)."""

    def cuts(self, decoded: Decoded, model: list[int]) -> list[list[int]]:
        """The clauses that rule out the cycles and touches of the model (none: a bug)."""

    def add(self, clauses: list[list[int]]) -> None:
        """Add clauses for the rest of the search."""

    def block(self, model: list[int]) -> None:
        """Rule out a solution found (its links), for the next one."""

    def relax(self) -> bool:
        """With no model left: switch a rule off and solve again (True), or not (False)."""

    def cells(self, cycles: list) -> list[list[Cell]]:
        """The cycles as cells (for `observe`)."""


def solutions(route: Route, limit: int, observe: Observer | None = None
              ) -> tuple[bool | None, list[Paths]]:
    """Up to `limit` solutions, each blocked before the next is looked for: the last answer
    (False: no more, None: stopped) and the solutions."""
    found: list[Paths] = []
    answer: bool | None = False
    while len(found) < limit:
        answer, paths, model = next_solution(route, observe)
        if answer is False and route.relax():
            continue
        if answer is not True:
            break
        found.append(paths)
        if len(found) < limit:
            route.block(model)
    return answer, found


def next_solution(route: Route, observe: Observer | None = None
                  ) -> tuple[bool | None, Paths | None, list[int] | None]:
    """Solve, cutting what is wrong in each model, until a model of right paths only (True,
    its paths, the model), no model (False) or the deadline or budget (None)."""
    stats = route.stats
    while True:
        t = time.perf_counter()
        answer = route.solve()
        stats["solve_s"] += time.perf_counter() - t
        stats["rounds"] += 1
        if answer is not True:
            return answer, None, None
        t = time.perf_counter()
        model = route.model()
        decoded = route.decode(model)
        stats["decode_s"] = stats.get("decode_s", 0.0) + time.perf_counter() - t
        if decoded is None:
            continue
        if not decoded.cycles and not decoded.touching:  # a solution
            return True, decoded.paths, model
        if observe and decoded.cycles:
            observe("model", decoded.paths, route.cells(decoded.cycles))
        cuts = route.cuts(decoded, model)
        if not cuts:
            raise BrokenModel("a model breaks a stated touch")
        route.add(cuts)
        stats["cycle_cuts"] += len(decoded.cycles)
        if decoded.touching:
            stats["touch_cuts"] = stats.get("touch_cuts", 0) + len(decoded.touching)


class Budget:
    """An oracle whose calls share a conflict limit: `solve` answers None once it is spent
    (or, looked at between calls only, once the deadline has passed)."""

    def __init__(self, sat: Oracle, conflicts: int):
        if not isinstance(sat, Oracle):
            raise UsageError(f"solver {sat.name} takes no conflict limit")
        self.sat, self.end = sat, sat.stats().get("conflicts", 0) + conflicts

    def __getattr__(self, name: str) -> Any:  # add, model, stats: the oracle's own
        return getattr(self.sat, name)

    def left(self) -> int:
        return self.end - self.sat.stats().get("conflicts", 0)

    def solve(self, deadline: float | None = None, assumptions: list[int] = ()
              ) -> bool | None:
        if self.left() <= 0 or (deadline is not None and time.perf_counter() > deadline):
            return None
        return self.sat.solve_within(self.left(), assumptions)
