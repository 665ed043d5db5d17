"""What a run says of its rules: which looser rule lifts an unsolvable verdict (a short solve
under each rule a switch gives, `--allow-self-touch`, `--allow-empty`, named only when it found
a solution, so a note never promises what a switch does not do), and the rules a puzz.link
puzzle is solved under (Nikoli's there; the flags decide here)."""

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


def note(status: str, lifted: list[str]) -> str:
    """What an unsolvable verdict adds: the switches that lift it, found by a solve."""
    if status != "unsolvable" or not lifted:
        return ""
    each = "each" if len(lifted) > 1 else "it"
    return f"; {' or '.join(lifted)} lifts it (a solve under {each} found a solution)"


NIKOLI = Rules(self_touch=True, fill_all=False)  # puzz.link's Numberlink


def nikoli_note(rules: Rules) -> str:
    """The line a run of puzz.link puzzles prints: the rules they are solved under, and the
    switches that give Nikoli's."""
    if rules == NIKOLI:
        return ("flowsat: puzz.link puzzles: solved under Nikoli's rules, as there (cells may "
                "stay empty, paths may run beside themselves: --allow-empty --allow-self-touch)")
    under = ", ".join(("paths may run beside themselves" if rules.self_touch
                       else "no path beside itself",
                       "every cell filled" if rules.fill_all else "cells may stay empty"))
    return (f"flowsat: puzz.link puzzles: solved under these rules ({under}); Nikoli's rules "
            f"apply there: --allow-empty --allow-self-touch give them")
