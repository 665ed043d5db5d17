"""The cpsat backend as the contract has it (`flowsat.backend.Backend`): light to import,
OR-Tools imported on the first solve (`flowsat.cpsat.run`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from flowsat.backend import made
from flowsat.cpsat.options import CpsatOptions

if TYPE_CHECKING:
    from flowsat.backend import Limits, Observer
    from flowsat.puzzle.model import Puzzle
    from flowsat.puzzle.rules import Rules
    from flowsat.result import Result


class CpsatBackend:
    """Solving by OR-Tools CP-SAT, connectivity as a circuit constraint: every kind of
    board, every rule."""

    name: ClassVar[str] = "cpsat"
    Options: ClassVar[type] = CpsatOptions
    kinds: ClassVar[frozenset[str] | None] = None
    outside: ClassVar[bool] = False
    argument: ClassVar[str | None] = None
    observes: ClassVar[bool] = False
    engine: ClassVar[str] = "flowsat.cpsat.run"

    def options(self, **given: Any) -> CpsatOptions:
        return made(self, given)

    def solve(self, puzzle: Puzzle, options: CpsatOptions, rules: Rules, limits: Limits,
              observe: Observer | None = None) -> Result:
        """A solution of the puzzle, or why there is none (`flowsat.cpsat.run.solve`)."""
        from flowsat.cpsat.run import solve

        return solve(puzzle, options, rules, limits)


BACKEND = CpsatBackend()
