"""The sat backend as the contract has it (`flowsat.backend.Backend`): light to import, its
search (with PySAT) imported on the first solve."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from flowsat.result import UsageError
from flowsat.sat.options import DEFAULT_SOLVER, SatOptions, checked

if TYPE_CHECKING:  # (the contract's module is not needed to import this one)
    from flowsat.backend import Limits, Observer
    from flowsat.puzzle.model import Puzzle
    from flowsat.puzzle.rules import Rules
    from flowsat.result import Result
    from flowsat.sat.kept import Kept


class SatBackend:
    """Solving by SAT: every kind of board, answers made in flowsat."""

    name: ClassVar[str] = "sat"
    Options: ClassVar[type] = SatOptions
    kinds: ClassVar[frozenset[str] | None] = None
    outside: ClassVar[bool] = False
    argument: ClassVar[str | None] = None
    observes: ClassVar[bool] = True
    engine: ClassVar[str] = "flowsat.sat.search"

    def options(self, **given: Any) -> SatOptions:
        """The options, each checked once (`flowsat.sat.options.checked`)."""
        return checked(**given)

    def kept(self) -> Kept:
        """What a run of puzzles keeps from one to the next, for its owner to pass to each
        `solve` (`flowsat.sat.kept`: the boards compiled once)."""
        from flowsat.sat.kept import Kept

        return Kept()

    def solve(self, puzzle: Puzzle, options: SatOptions, rules: Rules, limits: Limits,
              observe: Observer | None = None, kept: Kept | None = None) -> Result:
        """A solution of the puzzle, or why there is none (`flowsat.sat.search.search`)."""
        from flowsat.sat.search import search

        return search(puzzle, 1, options, rules, limits, observe=observe, kept=kept)[0]


BACKEND = SatBackend()


def can_stop(solver: str | None) -> bool:
    """Whether a solve with this solver (None: the default) can be cut at a deadline: a
    default timeout (`flowsat solve`'s, for text output) is not for Lingeling and Kissat,
    which refuse any. A name that is no solver: True (the solve says what is wrong)."""
    if not isinstance(solver, str) or solver == DEFAULT_SOLVER:
        return True
    from flowsat.sat.oracle import UNLIMITED, solver_name

    try:
        return solver_name(solver) not in UNLIMITED
    except UsageError:
        return True
