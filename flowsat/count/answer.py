"""One puzzle's answer to `flowsat count`: its count, and (`--show K`) K of its solutions,
found by SAT and each checked; the JSON object it is written as."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flowsat.count import count
from flowsat.count.contract import Count, Limits, Progress
from flowsat.puzzle.model import Paths, Puzzle, solution_grid
from flowsat.puzzle.rules import Rules


@dataclass
class Answer:
    """The count and the solutions shown (each one checked)."""

    found: Count
    rules: Rules
    solutions: list[Paths] = field(default_factory=list)

    def record(self, puzzle: Puzzle) -> dict[str, Any]:
        """The JSON object of `flowsat count --format json`: `count` an exact integer of any
        size; `exact` false when it is a lower bound (status `limit` or `timeout`)."""
        found = self.found
        made = {"file": puzzle.file, "index": puzzle.index, "size": puzzle.size,
                "kind": puzzle.kind, "rules": self.rules.record(), "counter": found.counter,
                "status": found.status, "count": found.value, "exact": found.exact,
                "stats": found.stats}
        if self.solutions:
            made["solutions"] = [solution_grid(puzzle, paths) for paths in self.solutions]
        return made

    def line(self, puzzle: Puzzle) -> str:
        """The text line: how many solutions, or at least how many, and by what."""
        found = self.found
        many = f"{found.value:,} solution{'' if found.value == 1 else 's'}"
        if not found.exact:
            many = f"at least {many} ({found.status})"
        seconds = found.stats.get("total_s")
        took = "" if seconds is None else f", {seconds:.3g} s"
        by = found.stats.get("answered_by")  # the auto counter's: which counter answered
        return f"{puzzle.name}: {many} ({found.counter}{f': {by}' if by else ''}{took})"


def answer(puzzle: Puzzle, rules: Rules, counter: str, limit: int | None, limits: Limits,
           show: int = 0, progress: Progress | None = None) -> Answer:
    """The puzzle's count by the counter named and, with `show`, that many solutions."""
    found = count(puzzle, rules, counter, limit=limit, limits=limits, progress=progress)
    shown: list[Paths] = []
    if show and found.value:
        from flowsat.solve import solve_many

        _, shown = solve_many(puzzle, min(show, found.value), rules=rules,
                              timeout=limits.timeout)  # each one checked there
    return Answer(found, rules, shown)
