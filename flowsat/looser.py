"""Which looser rule lifts an unsolvable verdict: a short solve under each rule a switch gives
(`--allow-self-touch`, `--allow-empty`), named only when it found a solution, so a note never
promises what a switch does not do."""

from __future__ import annotations

from collections.abc import Callable

from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import Rules
from flowsat.result import Result

# seconds each extra solve may take: a note is worth a short wait, not a second run
PROBE_S = 5.0

Solver = Callable[[Puzzle, Rules, float], Result]  # a puzzle solved under rules, in seconds


def looser_rules(rules: Rules) -> list[tuple[str, Rules]]:
    """The switches that loosen these rules, each with the rules it gives: self-touch first,
    then empty cells (with cells left empty, self-touch changes nothing: a board is solvable
    under both touch rules or neither, `flowsat.search.checks.empty`)."""
    out = []
    if not rules.self_touch and rules.fill_all:
        out.append(("--allow-self-touch", rules._replace(self_touch=True)))
    if rules.fill_all:
        out.append(("--allow-empty", rules._replace(fill_all=False)))
    return out


def lifting(puzzle: Puzzle, rules: Rules, solver: Solver, seconds: float = PROBE_S
            ) -> list[str]:
    """The switches under whose rules a solve of at most `seconds` found a solution."""
    return [flag for flag, looser in looser_rules(rules)
            if solver(puzzle, looser, seconds).status == "solved"]


def note(status: str, rules: Rules, lifted: list[str]) -> str:
    """What an unsolvable verdict adds: the switches that lift it, found by a solve."""
    if status != "unsolvable" or not lifted:
        return ""
    each = "each" if len(lifted) > 1 else "it"
    return f"; {' or '.join(lifted)} lifts it (a solve under {each} found a solution)"
