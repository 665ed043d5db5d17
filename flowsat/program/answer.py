"""A solver program's answer read back: its output as a verdict, a solved board traced into paths.

The output, blank lines aside, is a line `IMPOSSIBLE` or `UNSOLVABLE` (no solution), a line
starting with `UNKNOWN` (the program gave up: a limit of its own, said on the rest of the line),
or the solved board: H rows of W labels, optionally after a `W H` line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from flowsat.puzzle.model import EMPTY, Cell, Paths, Puzzle, solution_grid
from flowsat.puzzle.rules import Rules
from flowsat.result import Result

NO_SOLUTION = ("IMPOSSIBLE", "UNSOLVABLE")
GAVE_UP = "UNKNOWN"
HEADER = re.compile(r"(\d+)\s+(\d+)$")
# steps of the search for a path through a label's cells (self-touch) beyond one a cell (a
# forced walk, without self-touch, takes one a cell: a 1000x1000 board's path is 250,000 long)
TRACE_BUDGET = 100_000


class Unreadable(ValueError):
    """Output that is no answer at all (not a board of the puzzle's size, not a verdict)."""


class Untraceable(ValueError):
    """A board of the right size whose labels do not form one path per color."""


@dataclass(frozen=True)
class Answer:
    """What a program said: `solved` with its rows, `unsolvable`, or `limit` with its reason."""

    status: str
    rows: tuple[str, ...] = ()
    reason: str | None = None


def read_answer(text: str, puzzle: Puzzle) -> Answer:
    """The program's answer; Unreadable when its output is none."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        raise Unreadable("no output")
    first = lines[0]
    if first.upper() in NO_SOLUTION:
        return Answer("unsolvable")
    if first.upper().startswith(GAVE_UP):
        return Answer("limit", reason=first[len(GAVE_UP):].strip(" :") or "gave up")
    header = HEADER.match(first)
    if header:
        size = (int(header[1]), int(header[2]))
        if size != (puzzle.width, puzzle.height):
            raise Unreadable(f"a {size[0]}x{size[1]} board for a {puzzle.size} puzzle")
        lines = lines[1:]
    if len(lines) != puzzle.height or any(len(line) != puzzle.width for line in lines):
        raise Unreadable(f"not a solved {puzzle.size} board (H rows of W labels, after an "
                         f"optional 'W H' line) nor IMPOSSIBLE/UNSOLVABLE/UNKNOWN: "
                         f"{shorten(text)}")
    return Answer("solved", tuple(lines))


def shorten(text: str, limit: int = 80) -> str:
    """The start of a program's output on one line, for messages."""
    flat = " / ".join(line.strip() for line in text.strip().splitlines())
    return repr(flat if len(flat) <= limit else flat[:limit] + "...")


def trace(puzzle: Puzzle, rows: tuple[str, ...], rules: Rules) -> Paths:
    """Each color's path from one of its dots to the other through the cells labelled with it;
    Untraceable with the first problem. Without self-touch a label's cells form a simple chain
    and the walk is forced; with it, a path is searched for (a step budget bounds the search)."""
    cells: dict[str, set[Cell]] = {}
    for r, row in enumerate(rows):
        for c, label in enumerate(row):
            dot = puzzle[(r, c)]
            if dot != EMPTY and label != dot:
                raise Untraceable(f"the dot {dot!r} at {(r, c)} is labelled {label!r}")
            if label not in puzzle.dots:
                raise Untraceable(f"cell {(r, c)} holds {label!r}, not a color of the puzzle")
            cells.setdefault(label, set()).add((r, c))
    paths = {}
    for color, (start, goal) in puzzle.dots.items():
        path = walk(puzzle, cells.get(color, set()), start, goal, rules)
        if path is None:
            raise Untraceable(f"the cells labelled {color!r} do not make one path from "
                              f"{start} to {goal}" + ("" if rules.self_touch else
                                                      " without touching itself"))
        paths[color] = path
    return paths


def walk(puzzle: Puzzle, cells: set[Cell], start: Cell, goal: Cell,
         rules: Rules) -> list[Cell] | None:
    """A path from start to goal through every one of the cells, depth first within a budget;
    without self-touch, only where each step has a single way on."""
    if start not in cells or goal not in cells:
        return None
    path, on = [start], {start}

    def steps(cell: Cell) -> list[Cell]:
        return [] if cell == goal else [n for n in puzzle.neighbors(cell)
                                        if n in cells and n not in on]

    ways = [steps(start)]
    for _ in range(len(cells) + TRACE_BUDGET):
        if path[-1] == goal and len(path) == len(cells):
            return path
        if ways[-1] and (rules.self_touch or len(ways[-1]) == 1):
            cell = ways[-1].pop()
            path.append(cell)
            on.add(cell)
            ways.append(steps(cell))
        elif len(path) > 1 and rules.self_touch:
            on.discard(path.pop())
            ways.pop()
        else:
            return None
    return None


def answer_rows(puzzle: Puzzle, result: Result) -> str:
    """A result as solver programs give their answer (what `read_answer` reads): `W H` and the
    rows of labels, `UNSOLVABLE`, or `UNKNOWN` and why; a blank line after it."""
    if result.status == "solved":
        return "\n".join([f"{puzzle.width} {puzzle.height}",
                          *solution_grid(puzzle, result.paths or {}), ""])
    if result.status == "unsolvable":
        return "UNSOLVABLE\n"
    return f"UNKNOWN {result.status}" + (f": {result.error}" if result.error else "") + "\n"
