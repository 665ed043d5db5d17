"""The solution checker: independent of every encoder and search, it reads only the board graph.

A solution is a path per color. It is right when every path runs from one of its color's dots
to the other, each step over an open link of the board (no wall, no hole, a wrap only on a board
with warps), passing a bridge cell straight through, never through another color's dot or
twice through a cell (a bridge cell: once each way); when every board cell lies on one path and
every bridge cell on one path each way (fill-all; without it cells may stay empty); and, under
the default rule, when no path touches itself: two cells of one path joined by an open link are
consecutive on it (a bridge's two passes are two cells here, each owning the links of its way).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import chain, pairwise
from operator import contains

import numpy as np

from flowsat.puzzle.board import Board
from flowsat.puzzle.model import Cell, CellPath, Paths, Puzzle, cell_arrays
from flowsat.puzzle.rules import DEFAULT_RULES, Rules

Node = int | tuple[int, int]  # a cell's number, or (bridge cell, its pass)
# boards of this many cells and more are checked with arrays first: below it the cell-by-cell
# check is the faster (numpy's cost a call, about 2 ms a board of 25 paths, outweighs the
# work: cell by cell 0.19 against 0.41 ms a puzzle of the 2016 set, 0.9 against 2.0 ms at
# 40x20, 3.5 against 2.1 ms at 50x50)
ARRAYS_FROM = 2_000


class InvalidSolution(AssertionError):
    """A backend returned a solution that breaks the rules: a bug, never an answer."""


def check(puzzle: Puzzle, paths: Paths, rules: Rules = DEFAULT_RULES) -> None:
    """Raise InvalidSolution with the first problem of the solution, if it has one."""
    found = problems(puzzle, paths, rules)
    if found:
        raise InvalidSolution(f"{puzzle.name}: {found[0]}")


def problems(puzzle: Puzzle, paths: Paths, rules: Rules = DEFAULT_RULES) -> list[str]:
    """Every rule the solution breaks, one message each; an empty list means it is right.
    A board without bridges is first checked for a yes or no: with arrays from `ARRAYS_FROM`
    cells (a million cells in a fifth of a second), below that with Python's loops over whole
    paths (`right_by_cells`); only a solution that fails that check is gone through cell by
    cell for its messages."""
    board = puzzle.board
    if not board.bridges and (right_by_arrays if board.size >= ARRAYS_FROM else right_by_cells)(
            puzzle, paths, rules):
        return []
    found = [f"color {c!r} has no path" for c in puzzle.dots if c not in paths]
    found += [f"path {c!r} is not a color of the puzzle" for c in paths if c not in puzzle.dots]
    cells = {color: [tuple(cell) for cell in path] for color, path in paths.items()}
    outside = {color: off_board(puzzle, color, path) for color, path in cells.items()}
    w = puzzle.width
    numbers = {color: [r * w + c for r, c in path] for color, path in cells.items()
               if not outside[color]}  # each on-board path's cells by number, made once
    for color, path in cells.items():
        if color in puzzle.dots:
            found += outside[color] or path_problems(puzzle, color, path, numbers[color])
    nodes = {color: path_nodes(puzzle, numbered) for color, numbered in numbers.items()}
    found += coverage_problems(puzzle, nodes, rules)
    if not rules.self_touch:
        found += [touch for color, path in nodes.items()
                  for touch in self_touches(puzzle, color, path)]
    return found


def right_by_arrays(puzzle: Puzzle, paths: Paths, rules: Rules) -> bool:
    """Whether the solution keeps every rule, checked with numpy (a board without bridges):
    the paths are the colors, each runs from one of its dots to the other over open links,
    no cell is on a path twice, no dot is inside a path, every cell is covered (fill-all),
    and no two cells of one path joined by a link are apart on it (no self-touch: the links
    with both cells on one path are that path's steps, none more)."""
    board, h, w = puzzle.board, puzzle.height, puzzle.width
    if set(paths) != set(puzzle.dots):
        return False
    on_board = board.on_array
    dot_cells = np.zeros(board.size, dtype=bool)
    owner = np.full(board.size, -1, dtype=np.min_scalar_type(-1 - len(paths)))  # path by path
    place = np.zeros(board.size, dtype=np.int64)
    numbered = []
    for k, (color, path) in enumerate(paths.items()):
        cells = path_arrays(path)
        if cells is None:
            return False
        r, c = cells
        if len(r) < 2 or not ((r >= 0) & (r < h) & (c >= 0) & (c < w)).all():
            return False
        numbers = r * w + c
        if not on_board[numbers].all() or (owner[numbers] >= 0).any():
            return False
        owner[numbers] = k
        place[numbers] = at = np.arange(len(numbers))
        if (place[numbers] != at).any():
            return False  # a cell twice on the path (its later place wrote over the first)
        ends = {tuple(path[0]), tuple(path[-1])}
        if ends != set(puzzle.dots[color]):
            return False
        numbered.append(numbers)
    for a, b in puzzle.dots.values():
        dot_cells[[board.number(a), board.number(b)]] = True
    if any(dot_cells[numbers[1:-1]].any() for numbers in numbered):
        return False
    ways = list(board.toward_arrays.values())
    for numbers in numbered:  # each step to a neighbor through an open link, a way a time
        here, there = numbers[:-1], numbers[1:]
        step = np.take(ways[0], here) == there
        for way in ways[1:]:
            step |= np.take(way, here) == there
        if not step.all():
            return False
    if rules.fill_all and (owner[on_board] < 0).any():
        return False
    if not rules.self_touch:  # the links inside a path are its steps (now known), no more
        a, b = board.links.T
        owner_a = owner[a]
        inside = np.count_nonzero((owner_a >= 0) & (owner_a == owner[b]))
        if inside != sum(len(numbers) - 1 for numbers in numbered):
            return False
    return True


def right_by_cells(puzzle: Puzzle, paths: Paths, rules: Rules) -> bool:
    """Whether the solution keeps every rule (a board without bridges), checked a path at a
    time with few Python steps, the cells taken so far as the bits of a number: the paths are
    the colors, each a list of (row, column) tuples of ints on the grid (`cell_numbers`),
    running from one of its dots to the other over open links; its cells are distinct, and
    those between its ends are cells nothing took before (no dot, no hole, no other path);
    every cell is taken (fill-all); no self-touch: the links with both cells on one path
    (`Grid.apart`) are its steps, no more."""
    dots = puzzle.dots
    if paths.keys() != dots.keys():
        return False
    g, width = grid(puzzle.board), puzzle.width
    bit, near, number = g.bit.__getitem__, g.near.__getitem__, g.by_id.__getitem__
    apart = () if rules.self_touch else g.apart
    ends = [bit(r * width + c) | bit(s * width + t) for (r, c), (s, t) in dots.values()]
    taken = sum(ends, g.holes)  # (the dots: distinct cells, no holes)
    steps = inside = 0
    for path, end in zip(map(paths.__getitem__, dots), ends, strict=True):
        try:  # (the board's own cell tuples, known by identity, inline: the usual case)
            numbers = list(map(number, map(id, path)))
        except KeyError:
            numbers = cell_numbers(g, path)
        if numbers is None or len(numbers) < 2:
            return False
        on = sum(map(bit, numbers))  # as many bits as cells: no cell twice
        if (bit(numbers[0]) | bit(numbers[-1]) != end or on.bit_count() != len(numbers)
                or on & taken != end or not all(map(contains, map(near, numbers),
                                                    numbers[1:]))):
            return False
        taken |= on
        steps += len(numbers) - 1
        for d, first in apart:
            inside += (on & on >> d & first).bit_count()
    return (taken == g.full or not rules.fill_all) and (rules.self_touch or inside == steps)


def cell_numbers(g: Grid, path: Sequence[Cell]) -> list[int] | None:
    """The path's cells by number (None: a cell that is none of the board's): the board's own
    cell tuples (`Board.cell_list`, what the SAT backend's paths are made of) known by their
    identity, any other read as a (row, column) pair of ints."""
    try:
        return list(map(g.by_id.__getitem__, map(id, path)))
    except KeyError:  # a cell that is not one of the board's own
        pass
    if set(map(type, chain.from_iterable(path))) - {int}:
        return None
    try:
        numbers = list(map(g.numbers.get, path))
    except TypeError:  # a cell that is no tuple
        return None
    return None if None in numbers else numbers


class Grid:
    """What `right_by_cells` reads of a board: its cell tuples (kept: they are known by their
    identity while they live) and each one's number, by identity and by value, each cell's
    bit and the cells it has an open link to, the holes' bits and every cell's, and the links
    by the difference of their cells' numbers, each difference with the bits of the links'
    first cells."""

    __slots__ = ("apart", "bit", "by_id", "cells", "full", "holes", "near", "numbers")

    def __init__(self, board: Board):
        self.cells = list(board.cell_list)
        self.by_id = {id(cell): i for i, cell in enumerate(self.cells)}
        self.numbers = {cell: i for i, cell in enumerate(self.cells)}
        self.bit = [1 << i for i in range(board.size)]
        near: list[set[int]] = [set() for _ in range(board.size)]
        firsts: dict[int, int] = {}
        for a, b in {(min(a, b), max(a, b)) for a, b in board.link_list}:
            near[a].add(b)
            near[b].add(a)
            firsts[b - a] = firsts.get(b - a, 0) | 1 << a
        self.near = list(map(frozenset, near))
        self.apart = sorted(firsts.items())
        self.holes = sum(1 << i for i in board.holes)
        self.full = (1 << board.size) - 1


@lru_cache(maxsize=16)  # the boards of a set's few sizes
def grid(board: Board) -> Grid:
    return Grid(board)


def path_arrays(path: Sequence[Cell]) -> tuple[np.ndarray, np.ndarray] | None:
    """A path's rows and columns as two int arrays of one length (None: some cell is no
    (row, column) pair): a list's cells read one by one, a `CellPath`'s arrays as given."""
    if not isinstance(path, CellPath) and set(map(len, path)) - {2}:
        return None
    r, c = cell_arrays(path)
    if not (r.ndim == c.ndim == 1 and r.shape == c.shape and r.dtype.kind == c.dtype.kind == "i"):
        return None
    return r, c


def off_board(puzzle: Puzzle, color: str, path: list[Cell]) -> list[str]:
    """The first cell of the path that is no cell of the board, if there is one."""
    h, w, on = puzzle.height, puzzle.width, puzzle.board.on_board
    for r, c in path:
        if not (0 <= r < h and 0 <= c < w):
            return [f"path {color!r} leaves the board at {(r, c)}"]
        if not on[r * w + c]:
            return [f"path {color!r} enters the hole at {(r, c)}"]
    return []


def path_problems(puzzle: Puzzle, color: str, path: list[Cell], numbers: list[int]
                  ) -> list[str]:
    """What is wrong with one path on its own (`numbers`: its cells' numbers): ends, steps,
    bridges, other colors' dots."""
    board = puzzle.board
    found = []
    if len(path) < 2 or {path[0], path[-1]} != set(puzzle.dots[color]):
        found.append(f"path {color!r} does not run from one of its dots to the other")
    links = board.link_index
    for k, (i, j) in enumerate(pairwise(numbers)):
        if (i, j) not in links and (j, i) not in links:
            found += step_problems(puzzle, color, path[k], path[k + 1])
    for k in range(1, len(path) - 1) if board.bridges else ():
        if numbers[k] in board.bridges and board.axis_of(numbers[k], numbers[k - 1]) != \
                board.axis_of(numbers[k], numbers[k + 1]):
            found.append(f"path {color!r} turns on the bridge at {path[k]}")
    for cell, times in Counter(path).items() if len(set(numbers)) < len(numbers) else ():
        if times > 1 and times > (2 if board.number(cell) in board.bridges else 1):
            often = "twice" if times == 2 else f"{times} times"
            found.append(f"path {color!r} visits {cell} {often}")
    if not other_dots(puzzle, color).isdisjoint(path):
        found += [f"path {color!r} passes through the dot of {puzzle[cell]!r} at {cell}"
                  for cell in path if puzzle[cell] not in (".", color)]
    return found


def other_dots(puzzle: Puzzle, color: str) -> set[Cell]:
    """The cells of the other colors' dots (every other cell of the board is empty)."""
    return {cell for other, ends in puzzle.dots.items() if other != color for cell in ends}


def step_problems(puzzle: Puzzle, color: str, a: Cell, b: Cell) -> list[str]:
    """Why a step from a to b is no move over an open link, if it is not."""
    board = puzzle.board
    i, j = board.number(a), board.number(b)
    if j not in board.adjacent(i):
        warp = any(board.step(i, d, wrap=True) == j for d in board.directions)
        why = "a warp, and the board has none" if warp else "not a step to a neighbor"
        return [f"path {color!r} jumps from {a} to {b}: {why}"]
    if (min(i, j), max(i, j)) in board.walls:
        return [f"path {color!r} crosses the wall between {a} and {b}"]
    return []


def path_nodes(puzzle: Puzzle, numbers: list[int]) -> list[Node]:
    """The path's cells by number, a bridge cell as (cell, the pass it takes): what is covered
    once."""
    board = puzzle.board
    if not board.bridges:
        return numbers
    return [(i, board.axis_of(i, numbers[k - 1])) if i in board.bridges else i
            for k, i in enumerate(numbers)]


def coverage_problems(puzzle: Puzzle, nodes: dict[str, list[Node]], rules: Rules) -> list[str]:
    """Cells (and bridge passes) on more than one path, and, under fill-all, on none."""
    board = puzzle.board
    wanted, wanted_set = covered(board)
    every = [node for path in nodes.values() for node in path]
    if (len(set(every)) == len(every) and wanted_set.issuperset(every)
            and (len(every) == len(wanted) or not rules.fill_all)):
        return []  # each node on one path at most (and, under fill-all, all of them on one)
    owners: dict[Node, list[str]] = {node: [] for node in wanted}
    for color, path in nodes.items():
        for node in dict.fromkeys(path):
            if node in owners:  # a bridge turned has no pass: reported with its path
                owners[node].append(color)
    found = [f"{name(board, node)} is on paths {' and '.join(who)}"
             for node, who in owners.items() if len(who) > 1]
    if rules.fill_all:
        found += [f"{name(board, node)} is on no path" for node, who in owners.items()
                  if not who]
    return found


@lru_cache(maxsize=16)  # the boards of a set's few sizes
def covered(board: Board) -> tuple[list[Node], frozenset[Node]]:
    """The nodes a solution covers once: the cells, a bridge cell once each way."""
    wanted: list[Node] = [i for i in board.cells if i not in board.bridges]
    wanted += [(b, k) for b in sorted(board.bridges) for k in range(len(board.axes[b]))]
    return wanted, frozenset(wanted)


def name(board, node: Node) -> str:
    if isinstance(node, tuple):
        return f"the bridge at {where(board, node)}"
    return f"cell {board.cell(node)}"


def where(board, node: Node) -> str:
    """A cell as (r, c); a bridge's pass with its way."""
    if isinstance(node, tuple):
        return f"{board.cell(node[0])} {'across' if node[1] == 0 else 'up and down'}"
    return str(board.cell(node))


def self_touches(puzzle: Puzzle, color: str, path: list[Node]) -> list[str]:
    """Pairs of cells of one path joined by an open link that are not consecutive on it."""
    board = puzzle.board
    place = {node: k for k, node in enumerate(path)}
    if not board.bridges:  # cells only
        nbrs = board.neighbors
        return [f"path {color!r} touches itself at {board.cell(i)} and {board.cell(n)}"
                for i, k in place.items() for n in nbrs[i] if place.get(n, k) > k + 1]
    found = []
    for node, k in place.items():
        i = node[0] if isinstance(node, tuple) else node
        for n in board.neighbors[i]:
            if isinstance(node, tuple) and board.axis_of(i, n) != node[1]:
                continue  # a link of the bridge's other pass
            other = (n, board.axis_of(n, i)) if n in board.bridges else n
            if other in place and place[other] > k + 1:
                found.append(f"path {color!r} touches itself at {where(board, node)} and "
                             f"{where(board, other)}")
    return found
