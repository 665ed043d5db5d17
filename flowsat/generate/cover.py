"""Random solved levels of every kind of board: random walks cover the board's graph with paths,
whose ends become the dots, so every level is solvable by construction (for tests and the
kinds benchmark; the generator makes unique puzzles of these kinds: `flowsat.generate.kinds`).

Cells no walk could join become holes; some links no path uses become walls; on square boards,
where a path runs straight through a cell between the ends of two other paths, those two are
joined across it and the cell becomes a bridge.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from itertools import pairwise

from flowsat.checker import problems
from flowsat.generate.filling import puzzle_of
from flowsat.puzzle.board import Board
from flowsat.puzzle.formats.pack import LABELS
from flowsat.puzzle.model import Paths, Puzzle
from flowsat.puzzle.rules import DEFAULT_RULES, Rules


def random_level(board: Board, rng: random.Random, rules: Rules = DEFAULT_RULES,
                 mean_length: float = 6.0, walls: float = 0.0, bridges: float = 0.0,
                 **kw) -> tuple[Puzzle, Paths]:
    """A solved level on the board (more holes where walks meet dead ends): walls on about
    that share of the unused links, bridges where about that share of chances allow."""
    walks, holes = cover(board, rng, rules.self_touch, mean_length)
    board = replace(board, holes=board.holes | holes)
    unused = sorted(unused_links(board, walks))
    board = replace(board, walls=frozenset(e for e in unused if rng.random() < walls))
    if bridges and board.shape == "square":
        board, walks = add_bridges(board, walks, rng, bridges, rules)
    return level_of(board, walks, **kw)


def level_of(board: Board, walks: list[list[int]], **kw) -> tuple[Puzzle, Paths]:
    """The level whose dots are the walks' ends, and its solution (the walks)."""
    if len(walks) > len(LABELS):
        raise ValueError(f"{len(walks)} paths: more than {len(LABELS)} labels")
    paths = {LABELS[k]: [board.cell(i) for i in w] for k, w in enumerate(walks)}
    return puzzle_of(paths, board.height, board.width, board=board, **kw), paths


def unused_links(board: Board, walks: list[list[int]]) -> set[tuple[int, int]]:
    """The open links no walk takes."""
    return set(board.link_list) - {(min(a, b), max(a, b)) for w in walks
                                   for a, b in pairwise(w)}


def cover(board: Board, rng: random.Random, self_touch: bool, mean_length: float
          ) -> tuple[list[list[int]], frozenset[int]]:
    """Walks (two cells or more) over open links covering the board, and the cells left alone."""
    free = set(board.cells)
    walks, alone = [], set()
    order = list(board.cells)
    rng.shuffle(order)
    for start in order:
        if start not in free:
            continue
        free.discard(start)
        walk = [start]
        target = max(2, round(rng.expovariate(1 / mean_length)))
        while len(walk) < target:
            options = [(e, n) for e in ((0, -1) if len(walk) > 1 else (-1,))
                       for n in board.neighbors[walk[e]]
                       if n in free and (self_touch or fits(board, walk, e, n))]
            if not options:
                break
            e, n = rng.choice(options)
            if e == 0:
                walk.insert(0, n)
            else:
                walk.append(n)
            free.discard(n)
        if len(walk) > 1:
            walks.append(walk)
        else:
            alone.add(start)
    return walks, frozenset(alone)


def shuffled(items, rng: random.Random) -> list[int]:
    items = list(items)
    rng.shuffle(items)
    return items


def fits(board: Board, walk: list[int], end: int, n: int) -> bool:
    """Whether n can extend the walk at that end without touching it elsewhere."""
    tip = walk[end]
    return all(m == tip or m not in walk for m in board.neighbors[n])


def add_bridges(board: Board, walks: list[list[int]], rng: random.Random, share: float,
                rules: Rules, keep: Callable[[Board, list[list[int]]], bool] | None = None
                ) -> tuple[Board, list[list[int]]]:
    """Join two walks ending on either side of a cell that a third walk crosses straight,
    across that cell, which becomes a bridge (kept only where the rules still hold and
    `keep`, if given, says so)."""
    for b in shuffled(board.cells, rng):
        if rng.random() >= share or b in board.bridges:
            continue
        trial = try_bridge(board, walks, b)
        if trial is None:
            continue
        new_board, new_walks = trial
        if check_walks(new_board, new_walks, rules) and (keep is None or
                                                         keep(new_board, new_walks)):
            board, walks = new_board, new_walks
    return board, walks


def try_bridge(board: Board, walks: list[list[int]], b: int
               ) -> tuple[Board, list[list[int]]] | None:
    """The board and walks with b a bridge, if the walks around b allow it."""
    owner = {i: k for k, w in enumerate(walks) for i in w}
    if b not in owner:
        return None
    walk = walks[owner[b]]
    k = walk.index(b)
    if k in (0, len(walk) - 1) or walk.count(b) > 1:
        return None
    t = board.toward
    for across, other in ((("left", "right"), ("up", "down")), (("up", "down"), ("left", "right"))):
        if {walk[k - 1], walk[k + 1]} != {t[across[0]][b], t[across[1]][b]}:
            continue
        u, d = t[other[0]][b], t[other[1]][b]
        if u is None or d is None or u not in owner or d not in owner:
            return None
        p, q = owner[u], owner[d]
        if len({p, q, owner[b]}) < 3 or u not in (walks[p][0], walks[p][-1]) or \
                d not in (walks[q][0], walks[q][-1]):
            return None
        first = walks[p] if walks[p][-1] == u else walks[p][::-1]
        second = walks[q] if walks[q][0] == d else walks[q][::-1]
        joined = [*first, b, *second]
        rest = [w for n, w in enumerate(walks) if n not in (p, q)]
        return replace(board, bridges=board.bridges | {b}), [*rest, joined]
    return None


def check_walks(board: Board, walks: list[list[int]], rules: Rules) -> bool:
    """Whether the walks solve their level on the board under the rules."""
    if len(walks) > len(LABELS) or board.problem():
        return False
    puzzle, paths = level_of(board, walks)
    return not problems(puzzle, paths, rules)
