"""Does a puzzle have exactly one solution? Proved by SAT, with two checked solutions as the
evidence when it has more.

Find a solution (or take the one a generator knows), block it, and prove that no other exists:
for a unique puzzle, one unsatisfiable call. The proof keeps the SAT backend's corner rule on,
which is sound without self-touch and makes proofs on large boards many times faster.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from flowsat.backend import Limits
from flowsat.checker import check
from flowsat.deadline import Timeout, deadline
from flowsat.puzzle.model import Paths, Puzzle, solution_grid
from flowsat.puzzle.rules import DEFAULT_RULES, Rules
from flowsat.solve import run_many

if TYPE_CHECKING:
    from flowsat.sat.kept import Kept

Verdict = Literal["unique", "multiple", "unsolvable", "timeout", "limit"]
PROOF = {"encoding": "edges-unique", "solver": "glucose4"}  # the fastest on generated boards


@dataclass
class Uniqueness:
    """The verdict, the distinct checked solutions found (two when `multiple`, the known one
    first), and the SAT stats of the proof."""

    verdict: Verdict
    solutions: list[Paths] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def unique(self) -> bool | None:
        """True or False; None when the puzzle has no solution or the search was cut short."""
        return {"unique": True, "multiple": False}.get(self.verdict)

    def record(self, puzzle: Puzzle) -> dict[str, Any]:
        """The JSON object of `flowsat check-unique --format json`."""
        solutions = [{"grid": solution_grid(puzzle, paths),
                      "paths": {c: [list(cell) for cell in path] for c, path in paths.items()}}
                     for paths in self.solutions]
        return {"file": puzzle.file, "index": puzzle.index, "status": self.verdict,
                "unique": self.unique, "solutions": solutions, "stats": self.stats}


def check_unique(puzzle: Puzzle, *, known: Paths | None = None, rules: Rules = DEFAULT_RULES,
                 timeout: float | None = None, kept: Kept | None = None, **options: Any
                 ) -> Uniqueness:
    """Whether the puzzle has one solution, several or none. `options` go to the SAT backend
    (`encoding`, `solver`, `max_conflicts`, each for each of the two runs); the timeout
    bounds the whole proof (see `flowsat.deadline`); `kept`: what the SAT backend keeps between
    a run's puzzles (`flowsat.sat.kept`)."""
    from flowsat.sat import BACKEND

    made = BACKEND.options(**{**PROOF, **options})
    try:
        with deadline(timeout):
            return prove(puzzle, known, rules, Limits(timeout), made, kept)
    except Timeout:
        return Uniqueness("timeout")


def prove(puzzle: Puzzle, known: Paths | None, rules: Rules, limits: Limits,
          options: Any, kept: Kept | None = None) -> Uniqueness:
    """`check_unique` within the backends' own clock checks."""
    end = None if limits.timeout is None else time.perf_counter() + limits.timeout
    if known is None:
        first, found = run_many(puzzle, 1, options, rules, limits, kept=kept)
        if not found:
            return Uniqueness(first.status, [], first.stats)
        known = found[0]
    check(puzzle, known, rules)
    left = None if end is None else max(end - time.perf_counter(), 0.0)
    result, more = run_many(puzzle, 1, options, rules, Limits(left, limits.max_memory),
                            known=[known], kept=kept)
    verdict = {"unsolvable": "unique", "solved": "multiple"}.get(result.status, result.status)
    return Uniqueness(verdict, [known, *more], result.stats)
