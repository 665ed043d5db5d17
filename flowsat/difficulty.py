"""How hard a puzzle is, from what solving it costs: a numeric score and a named tier.

Three measures, each turned into a share of the way from trivial to hard:
- `forced`: the share of empty cells that follow from forced moves alone, the best-first
  backend's own (`flowsat.search.problem`): from both dots of every color, each pass fixing
  what the last one found, until nothing more follows (no self-touch: a path must step onto
  its own cell next to its head);
- `nodes`: the states the best-first search expands (capped at `max_nodes`);
- `conflicts` and `decisions`: what the SAT solver needs (`SAT`: encoding and solver).

The search and its forced moves run with the 2016 program's switches (preset `2016`), and the
SAT solver is named: the measures stay put as flowsat's defaults get better.

score = 10 x mean of (1 - forced, log10(1 + nodes) / 5, log10(1 + conflicts + decisions) / 5),
each part at most 1: 0 when forced moves fill the board, 10 when forced moves give nothing, the
search needs 100,000 states and the SAT solver 100,000 conflicts and decisions. The tiers cut
the score where the 2016 set's packs fall (see docs/generate.md, "Difficulty").
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import DEFAULT_RULES, Rules

if TYPE_CHECKING:
    from flowsat.sat.kept import Kept
    from flowsat.search.options import SearchOptions

MAX_NODES = 50_000
SAT = {"encoding": "edges-unique", "solver": "glucose4",
       "compiled": "off"}  # counts of the puzzle alone, not of those before it
PRESET = "2016"
TIERS = ((2.5, "easy"), (5.0, "regular"), (7.0, "hard"), (math.inf, "extreme"))


@dataclass
class Rating:
    """A puzzle's measures, score and tier (`status` is the SAT backend's; only a solved
    puzzle is rated)."""

    status: str
    forced: float = 0.0
    nodes: int = 0
    nodes_capped: bool = False
    conflicts: int = 0
    decisions: int = 0
    score: float = 0.0
    tier: str = ""

    def record(self, puzzle: Puzzle) -> dict:
        """The JSON object of `flowsat rate --format json`."""
        return {"file": puzzle.file, "index": puzzle.index, "size": puzzle.size,
                "colors": len(puzzle.dots), **asdict(self)}


def rate(puzzle: Puzzle, rules: Rules = DEFAULT_RULES, max_nodes: int = MAX_NODES,
         kept: Kept | None = None) -> Rating:
    """The rating of a puzzle (status other than `solved` and no measures when SAT finds no
    solution); `kept`: what the SAT backend keeps between a run's puzzles."""
    from flowsat.solve import solve

    sat = solve(puzzle, rules=rules, kept=kept, **SAT)
    if sat.status != "solved":
        return Rating(sat.status)
    search = solve(puzzle, "astar", rules=rules, max_nodes=max_nodes,
                   preset=PRESET)
    rating = Rating("solved", forced=round(forced_share(puzzle, rules), 4),
                    nodes=search.stats.get("nodes", 0),
                    nodes_capped=search.status != "solved",
                    conflicts=sat.stats.get("conflicts", 0),
                    decisions=sat.stats.get("decisions", 0))
    rating.score = score(rating)
    rating.tier = tier(rating.score)
    return rating


def score(r: Rating) -> float:
    parts = (1 - r.forced, math.log10(1 + r.nodes) / 5,
             math.log10(1 + r.conflicts + r.decisions) / 5)
    return round(10 * sum(min(p, 1.0) for p in parts) / len(parts), 2)


def tier(score: float) -> str:
    return next(name for top, name in TIERS if score < top)


def forced_share(puzzle: Puzzle, rules: Rules = DEFAULT_RULES) -> float:
    """The share of empty cells that forced moves fill, starting from either dot of each
    color; without self-touch each pass knows what the others filled (as a hint)."""
    from flowsat.backend import refuse_kind
    from flowsat.search import BACKEND
    from flowsat.search.backend import board_of
    from flowsat.search.problem import FlowProblem

    refuse_kind(BACKEND, puzzle.kind)
    board = board_of(puzzle)
    pairs = [(board.index[a], board.index[b]) for a, b in puzzle.dots.values()]
    colors = list(range(len(pairs)))
    known: dict[int, int] = {}
    while True:
        before = len(known)
        for flip in (False, True):
            starts, goals = zip(*(p[::-1] if flip else p for p in pairs), strict=True)
            hint = None if rules.self_touch else dict(known)
            problem = FlowProblem(board, list(starts), list(goals), colors, preset(),
                                  Rules(rules.self_touch), hint=hint)
            state = problem.initial()
            if state is None:  # no solution: nothing is forced that is worth counting
                return 0.0
            for color, path in problem.paths(state).items():
                known.update((board.index[cell], color) for cell in path
                             if puzzle.board.number(cell) not in puzzle.board.bridges)
        if len(known) == before or rules.self_touch:
            break
    empty = len(board.index) - 2 * len(pairs)  # the cells on the board but the dots
    return (len(known) - 2 * len(pairs)) / empty if empty else 1.0


def preset() -> SearchOptions:
    """The search's checks and forced moves as the `PRESET` sets them."""
    from flowsat.search import BACKEND

    return BACKEND.options(preset=PRESET)
