"""The best-first backend: puzzle, options, rules and limits in, `Result` out.

Turns a puzzle into a `FlowProblem` (which dot of each pair starts, the color priority, the
hint), runs `best_first` on it with the limits, and turns the final state back into paths; on
large plain boards (`--problem`) into two `CellProblem`s, sweeps that take turns.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any

from flowsat.backend import Limits, Observer
from flowsat.memory import cap_mb, shown
from flowsat.puzzle.formats import PuzzleError, cell_error, read_text, text_lines
from flowsat.puzzle.model import EMPTY, Cell, Paths, Puzzle
from flowsat.puzzle.rules import Rules
from flowsat.result import Result, UsageError
from flowsat.search.algorithm import best_first, interleaved, searching
from flowsat.search.board import Board, GraphBoard
from flowsat.search.options import SWEEP_CELLS, SearchOptions
from flowsat.search.problem import FlowProblem

PEAKS = ("max_queue", "memory_mb")  # stats that are peaks, not counts


def solve(puzzle: Puzzle, options: SearchOptions, rules: Rules, limits: Limits,
          observe: Observer | None = None) -> Result:
    """A solution of the puzzle by best-first search, or why there is none."""
    start = time.perf_counter()
    config = {f.name: getattr(options, f.name) for f in fields(options)}
    config["hint"] = None if options.hint is None else str(options.hint)
    cap = cap_mb(limits.max_memory)
    tables = Board.tables_mb(puzzle.height, puzzle.width, 1 + bool(puzzle.board.bridges))
    if tables > cap:
        return Result("limit", stats={"memory_mb": round(tables, 1),
                                      "total_s": round(time.perf_counter() - start, 6)},
                      error=f"the board's tables would need about {shown(tables)} (a neighbor "
                            f"mask a cell: they grow with the square of the cells), above the "
                            f"memory cap of {shown(cap)} (--max-memory)", config=config)
    board = board_of(puzzle)
    letters = list(puzzle.dots)
    starts, goals = orient(board, puzzle, options.outside_in)
    priority = color_priority(board, starts, goals, options.autosort, options.random_order)
    if options.order:
        priority = user_priority(letters, options.order, priority)
    hinted = read_hint(options.hint, puzzle, board) if options.hint is not None else None
    max_nodes = options.max_nodes
    deadline = None if limits.timeout is None else start + limits.timeout
    held = {"breadth_first": options.breadth_first, "max_memory": cap, "held_mb": tables,
            "deadline": deadline}  # what every search is run with
    config["problem"] = "cells" if sweeps(options, board, rules, hinted) else "heads"
    stats: dict[str, Any] = {}
    if config["problem"] == "cells":  # the two best sweeps by a guess, taking turns
        from flowsat.search.cells import CellProblem  # (only where it searches)

        ways = 1 if max_nodes is not None and max_nodes < 2 else 2
        each = None if max_nodes is None else max_nodes // ways  # (both within max_nodes)
        problems = [CellProblem(board, starts, goals, options, rules, way)
                    for way in range(ways)]
        outcome, k, counts = interleaved([searching(
            one, max_nodes=each, on_expand=observer(observe, letters, one), alike=ways,
            **held) for one in problems])
        problem: Any = problems[k]
        for one, count in zip(problems, counts, strict=True):
            stats = added(stats, {**count, **one.stats})
    else:
        # with cells left empty, a bounded search for a solution with every cell filled
        # comes first (`flowsat.search.checks.empty`), then the complete one
        fills = [True, False] if not rules.fill_all and options.fill_first else [rules.fill_all]
        for fill_all in fills:
            budget = max_nodes if fill_all == rules.fill_all else options.fill_first
            if max_nodes is not None:
                budget = min(budget, max_nodes - stats.get("nodes", 0))
            problem = FlowProblem(board, starts, goals, priority, options,
                                  rules._replace(fill_all=fill_all),
                                  user_order=bool(options.order), hint=hinted)
            outcome = best_first(problem, max_nodes=budget,
                                 on_expand=observer(observe, letters, problem), **held)
            stats = added(stats, {**outcome.stats, **problem.stats})
            if fill_all != rules.fill_all:
                stats["fill_first_nodes"] = outcome.stats["nodes"]
            spent = outcome.status == "limit" and outcome.stats["nodes"] == budget != max_nodes
            if outcome.status != "unsolvable" and not spent:  # else on to the next search
                break
    stats["total_s"] = round(time.perf_counter() - start, 6)
    paths = named(letters, problem.paths(outcome.state)) if outcome.status == "solved" else None
    return Result(outcome.status, paths, stats, outcome.reason, config)


def sweeps(options: SearchOptions, board: Board, rules: Rules,
           hinted: dict[int, int] | None) -> bool:
    """Whether the cells' problem searches (`--problem`): asked for, or (auto) on a plain
    square board of `SWEEP_CELLS` cells or more, every cell filled, with the link propagation
    on (it stands on it), without a hint or a color order (the heads' choices). A UsageError
    when it is asked for where it does not go."""
    fits = not isinstance(board, GraphBoard) and rules.fill_all and hinted is None
    if options.problem == "cells" and not fits:
        raise UsageError("--problem cells: square boards only (holes and walls or not), every "
                         "cell filled, without --hint")
    auto = (options.problem == "auto" and options.links and not options.order
            and options.random_order is None and board.all.bit_count() >= SWEEP_CELLS)
    return fits and (options.problem == "cells" or auto)


def observer(observe: Observer | None, letters: list[str], problem: Any
             ) -> Callable[[Any], None] | None:
    """What the search calls on each state it expands: the observer shown its paths."""
    if observe is None:
        return None
    return lambda state: observe("expand", named(letters, problem.paths(state)), [])


def added(stats: dict[str, Any], more: dict[str, Any]) -> dict[str, Any]:
    """The stats of two searches run in turn: counts added, peaks the larger."""
    return {**stats, **{key: max(stats.get(key, 0), value) if key in PEAKS
                        else stats.get(key, 0) + value for key, value in more.items()}}


def board_of(puzzle: Puzzle) -> Board:
    """The search's bitboards for the puzzle's board: the square grid's shifts when it is
    square without bridges or warps, else the board graph's (`GraphBoard`)."""
    graph = puzzle.board
    if graph.shape != "square" or graph.bridges or graph.wrap:
        return GraphBoard(graph)
    return Board(puzzle.height, puzzle.width, frozenset(map(graph.cell, graph.holes)),
                 frozenset(frozenset(map(graph.cell, wall)) for wall in graph.walls))


def named(letters: list[str], paths: dict[int, list[Cell]]) -> Paths:
    return {letters[c]: path for c, path in paths.items()}


def orient(board: Board, puzzle: Puzzle, outside_in: bool) -> tuple[list[int], list[int]]:
    """Each color's start and goal cell: outside in, the dot nearer a wall starts (the first
    in reading order on a tie); otherwise the first in reading order."""
    starts, goals = [], []
    for a, b in puzzle.dots.values():
        i, j = board.index[a], board.index[b]
        if outside_in and board.wall_distance(j) < board.wall_distance(i):
            i, j = j, i
        starts.append(i)
        goals.append(j)
    return starts, goals


def color_priority(board: Board, starts: list[int], goals: list[int], autosort: bool,
                   seed: int | None) -> list[int]:
    """The order colors are tried in on ties: shuffled by a seed, or sorted (start nearest a
    wall first, then goal farthest from a wall, then ends farthest apart), or as read."""
    colors = list(range(len(starts)))
    if seed is not None:
        random.Random(seed).shuffle(colors)
    elif autosort:
        colors.sort(key=lambda c: (board.wall_distance(starts[c]),
                                   -board.wall_distance(goals[c]),
                                   -board.manhattan(starts[c], goals[c])))
    return colors


def user_priority(letters: list[str], order: str, priority: list[int]) -> list[int]:
    """The colors in the order given by letters, then the others in their priority."""
    chosen = []
    for letter in order:
        if letter not in letters:
            raise UsageError(f"--order: {letter!r} is not a color of the puzzle")
        if letters.index(letter) in chosen:
            raise UsageError(f"--order: {letter!r} is given twice")
        chosen.append(letters.index(letter))
    return chosen + [c for c in priority if c not in chosen]


def read_hint(path: str | Path, puzzle: Puzzle, board: Board) -> dict[int, int]:
    """A partial solution in the grid format: cell index -> color number for every cell that
    holds a label. Raises PuzzleError, located in the hint file, when it does not fit."""
    file = str(path)
    lines = text_lines(read_text(file))
    if len(lines) != puzzle.height:
        raise PuzzleError(file, 1, 1, f"the hint has {len(lines)} rows, the puzzle "
                                      f"{puzzle.name} has {puzzle.height}")
    error = cell_error(lines, list(range(1, len(lines) + 1)), file)
    if error:
        raise error
    letters = list(puzzle.dots)
    hinted = {}
    for r, row in enumerate(lines):
        if len(row) != puzzle.width:
            raise PuzzleError(file, r + 1, min(len(row), puzzle.width) + 1,
                              f"hint row has {len(row)} cells, the puzzle has {puzzle.width}")
        for c, ch in enumerate(row):
            if ch == EMPTY:
                continue
            if ch not in letters:
                raise PuzzleError(file, r + 1, c + 1, f"{ch!r} is not a color of the puzzle")
            if (r, c) not in board.index:
                raise PuzzleError(file, r + 1, c + 1, f"{ch!r} on a hole")
            if puzzle.board.number((r, c)) in puzzle.board.bridges:
                raise PuzzleError(file, r + 1, c + 1, f"{ch!r} on a bridge (which pass?)")
            if puzzle[r, c] not in (EMPTY, ch):
                raise PuzzleError(file, r + 1, c + 1,
                                  f"{ch!r} on the dot of {puzzle[r, c]!r}")
            hinted[board.index[r, c]] = letters.index(ch)
    return hinted
