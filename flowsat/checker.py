"""The solution checker: independent of every encoder and search, it reads only the board.

A solution is a path per color. It is right when every path runs from one of its color's dots
to the other through orthogonal steps without repeating a cell, passes through no other color's
dot, every cell lies on exactly one path, and, under the default rule, no path touches itself
side by side (two cells of one path that are neighbors on the board are consecutive on it).
"""

from __future__ import annotations

from itertools import pairwise

from flowsat.puzzle.model import Cell, Paths, Puzzle


class InvalidSolution(AssertionError):
    """A backend returned a solution that breaks the rules: a bug, never an answer."""


def check(puzzle: Puzzle, paths: Paths, allow_self_touch: bool = False) -> None:
    """Raise InvalidSolution with the first problem of the solution, if it has one."""
    found = problems(puzzle, paths, allow_self_touch)
    if found:
        raise InvalidSolution(f"{puzzle.name}: {found[0]}")


def problems(puzzle: Puzzle, paths: Paths, allow_self_touch: bool = False) -> list[str]:
    """Every rule the solution breaks, one message each; an empty list means it is right."""
    found = [f"color {c!r} has no path" for c in puzzle.dots if c not in paths]
    found += [f"path {c!r} is not a color of the puzzle" for c in paths if c not in puzzle.dots]
    for color, path in paths.items():
        if color in puzzle.dots:
            found += path_problems(puzzle, color, [tuple(cell) for cell in path])
    found += coverage_problems(puzzle, paths)
    if not allow_self_touch:
        found += [touch for color, path in paths.items()
                  for touch in self_touches(color, [tuple(cell) for cell in path])]
    return found


def path_problems(puzzle: Puzzle, color: str, path: list[Cell]) -> list[str]:
    """What is wrong with one path on its own: ends, steps, repeats, other colors' dots."""
    found = []
    if any(not (0 <= r < puzzle.height and 0 <= c < puzzle.width) for r, c in path):
        return [f"path {color!r} leaves the board"]
    if len(path) < 2 or {path[0], path[-1]} != set(puzzle.dots[color]):
        found.append(f"path {color!r} does not run from one of its dots to the other")
    for a, b in pairwise(path):
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            found.append(f"path {color!r} jumps from {a} to {b}, not an orthogonal step")
    if len(set(path)) != len(path):
        found.append(f"path {color!r} visits a cell twice")
    found += [f"path {color!r} passes through the dot of {puzzle[cell]!r} at {cell}"
              for cell in path if puzzle[cell] not in (".", color)]
    return found


def coverage_problems(puzzle: Puzzle, paths: Paths) -> list[str]:
    """Cells on no path and cells on more than one."""
    owners: dict[Cell, list[str]] = {cell: [] for cell in puzzle.cells()}
    for color, path in paths.items():
        for cell in map(tuple, path):
            if cell in owners and color not in owners[cell]:
                owners[cell].append(color)
    return ([f"cell {cell} is on no path" for cell, who in owners.items() if not who]
            + [f"cell {cell} is on paths {' and '.join(who)}"
               for cell, who in owners.items() if len(who) > 1])


def self_touches(color: str, path: list[Cell]) -> list[str]:
    """Pairs of neighboring cells of one path that are not consecutive on it."""
    place = {cell: i for i, cell in enumerate(path)}
    return [f"path {color!r} touches itself at {(r, c)} and {other}"
            for (r, c), i in place.items()
            for other in ((r + 1, c), (r, c + 1))
            if other in place and abs(place[other] - i) != 1]
