"""Clause families about the board, whatever encodes cells and links (through `links.linked`
and `links.corner`): deductions before solving, 2x2 squares, and the uniqueness rule."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import combinations

import numpy as np

from flowsat.puzzle.board import Board
from flowsat.puzzle.rules import Rules
from flowsat.sat.encoder import DIRECTION, DOWN, RIGHT, Encoder, cut_rows, graph
from flowsat.sat.links import CORNERS, TYPES


def deduced(enc: Encoder, links, rules: Rules) -> None:
    """`deduce = true`: units for the links the board forces (`deductions`)."""
    enc.clauses += deductions(enc, links, rules)


def deductions(enc: Encoder, links, rules: Rules) -> list[list[int]]:
    """Units for the links that follow from the board alone.

    An edge between dots of different colors is never linked; without self-touch, one between
    dots of one color always is. Then, to a fixpoint: a cell whose links are all known is
    closed, and a cell with just enough possible links for its degree (1 for a dot, 2 else,
    e.g. an empty corner of the board) takes them all (when cells may stay empty, only a dot
    must take its degree; another cell with two links is closed all the same).
    """
    dot = enc.dot
    known: dict[tuple[int, int], bool] = {}
    for i, j in enc.edges:
        if dot[i] >= 0 and dot[j] >= 0 and (dot[i] != dot[j] or not rules.self_touch):
            known[i, j] = dot[i] == dot[j]
    todo = set(enc.nodes)
    while todo:
        i = todo.pop()
        edges = [(min(i, n), max(i, n)) for n in enc.neighbors[i]]
        open_ = [e for e in edges if e not in known]
        linked = sum(known.get(e, False) for e in edges)
        degree = 1 if dot[i] >= 0 else 2
        forced = rules.fill_all or dot[i] >= 0
        if open_ and (linked == degree or (forced and linked + len(open_) == degree)):
            for e in open_:
                known[e] = linked < degree
                todo.update(e)
    units = []
    for (i, j), on in known.items():
        lits = links.linked(i, j)
        units += [lits] if on else [[-x] for x in lits]
    return units


def square_at(enc: Encoder, i: int) -> tuple[int, int, int, int] | None:
    """The 2x2 square of cells with cell i at its top left, clockwise, when its four sides
    are open links between cells that are no bridges (a square board), else None."""
    if not enc.toward:
        return None
    right, below = enc.step(i, RIGHT), enc.step(i, DOWN)
    corner = None if right is None else enc.step(right, DOWN)
    if None in (right, below, corner) or enc.step(below, RIGHT) != corner:
        return None
    return i, right, corner, below


def no_squares(enc: Encoder, links, rules: Rules) -> list[list[int]]:
    """No 2x2 square of cells linked all around (the smallest cycle); without self-touch, no
    three links in a 2x2 square either (a U-turn: its two ends would touch). Squares with a
    wall, a hole or a bridge on them are left out (there a U-turn touches nothing)."""
    clauses = []
    for i in enc.nodes:
        cells = square_at(enc, i)
        if cells is None:
            continue
        sides = [links.linked(a, b) for a, b in zip(cells, cells[1:] + cells[:1], strict=True)]
        if rules.self_touch or any(len(s) != 1 for s in sides):
            ring = [(c, glyph) for c, glyph in zip(cells, ("┌", "┐", "┘", "└"), strict=True)]
            corners = [links.corner(cell, glyph) for cell, glyph in ring]
            if None not in corners:
                clauses.append(sorted({-x for lits in corners for x in lits}))
        else:
            clauses += [[-x for (x,) in three] for three in combinations(sides, 3)]
    return clauses


def corner_rules(enc: Encoder, links, active: int) -> list[list[int]]:
    """The corner rule, on while `active` is true: a path turns a corner only where the cell
    diagonally inside the corner is a dot or turns the same way (so that walking inwards
    along the diagonal reaches a dot).

    The 2016 notes give it as a consequence of a puzzle having one solution, and it is used
    here as such: with a fall-back to the complete encoding. Under the no-self-touch rule it
    in fact holds for every solution of every puzzle. Say a path turns ┌ at x, through a on
    its right and b below it, and q is the cell inside, next to both a and b. Were q on that
    path, it would have to be linked to both a and b (neighbors on one path are consecutive
    on it), closing the ring x-a-q-b; so q is on another path, linked to neither a nor b,
    and unless it is a dot its two links go right and down: q turns ┌ too. The rule only
    writes down what the 'different colors' clauses imply through several steps, so that
    unit propagation sees it at once; the fall-back can fire only on unsolvable puzzles.

    On other boards the proof holds word for word wherever its steps do, and the rule is
    written only there: the square grid's four directions (not on hexagonal boards), every
    cell covered (with fill-all off q may stay empty: `empty_corner_rules`), and x, a, b and
    q cells of the board, none of them a bridge (a bridge's two passes may be one path, so q
    could be on x's path), with open links x-a, x-b, a-q and b-q (behind a wall q may be on x's path
    without touching it; `inside` asks for all four). Then q has the four directions of a grid
    cell and the argument above is unchanged; where q's links right or down are walled off
    or lead into a hole, q cannot turn that way and the rule forbids the corner at x, as the
    proof says. Where they lead into a bridge, q may turn that way through the bridge's pass,
    which `corner` cannot say: no rule there (forbidding the corner would rule out solutions).
    Warps change nothing in it: they only give border cells neighbors. Links whose degree
    clauses already rule out the turns that the rule rules out (`degree = "turns"`) get no
    clause for those turns."""
    if not corners_written(enc):
        return []
    found = [links.corners(glyph) for glyph in CORNERS]
    width, size = found[0][1].shape[1], enc.size
    corner = np.zeros((len(CORNERS), size, width), dtype=np.int64)  # each turn's literals
    has = np.zeros((len(CORNERS), size), dtype=bool)  # the turns there are
    for turn, (nodes, lits) in enumerate(found):
        corner[turn, nodes], has[turn, nodes] = lits, True
    if getattr(links, "turns", False):  # the turns ruled out are stated by the degrees
        has &= np.stack([links.turns_left(glyph) for glyph in CORNERS])
    q, open_ = inside_table(enc.board)
    keep = has & open_ & (enc.dots[q] < 0)  # a turn with a cell inside, no dot there
    inside = np.take_along_axis(has, q, axis=1)  # and whether that cell may turn so
    chosen = np.empty((len(CORNERS), 1 + width, size), dtype=bool)
    chosen[:, 0], chosen[:, 1:] = keep & ~inside, (keep & inside)[:, None]
    return enc.shared(getattr(links, "key", None) and ("corners", *links.key, active),
                      np.flatnonzero(chosen), chosen.size,
                      corner_rows(q, corner, active))  # (none: dirtypes' vary by puzzle)


def corner_rows(q: np.ndarray, corner: np.ndarray, active: int
                ) -> Callable[[np.ndarray], list[list[int]]]:
    """The corner rule's clauses, for codes (turn * (1 + width) + t) * size + x:
    [-active, -corner(x)] (t = 0), or with column t - 1 of the inside cell's."""
    _, size, width = corner.shape
    def make(codes: np.ndarray) -> list[list[int]]:
        at, x = np.divmod(codes, size)
        turn, t = np.divmod(at, 1 + width)
        rows = np.column_stack((np.full(len(x), -active), -corner[turn, x],
                                corner[turn, q[turn, x], t - 1]))
        return cut_rows(rows, np.where(t > 0, rows.shape[1], rows.shape[1] - 1))
    return make


def corners_written(enc: Encoder) -> bool:
    """Whether the board and rules give the corner rule corners to write: a square grid's
    four directions, every cell covered."""
    return bool(enc.toward) and enc.rules.fill_all


def empty_corner_rules(enc: Encoder, links, active: int) -> list[list[int]]:
    """The corner rule where cells may stay empty (no self-touch), on while `active` is true:
    a path turning a corner at x (through a and b) makes the cell q inside either a dot, or
    turn the same way, or stay empty; so q links to nothing but the two cells its turn goes
    to, and to both or neither. `corner_rules`' proof, word for word, with one way more: q is
    not on x's path (that would close the ring x-a-q-b), so q is on another path, linked to
    neither a nor b, or on none. Written where that proof holds: a square grid's four
    directions, no bridge on the board, edge links (one literal a link), x, a, b and q four
    cells joined by open links, q no dot. It halves the conflicts of proving that a 2016
    puzzle has no second solution with empty cells (docs/counting.md)."""
    if not enc.toward or enc.rules.fill_all or enc.rules.self_touch or enc.board.bridges:
        return []
    clauses: list[list[int]] = []
    for x in enc.nodes:
        if enc.dot[x] >= 0:
            continue
        for glyph in CORNERS:
            clauses += empty_corner(enc, links, x, *TYPES[glyph], active)
    return clauses


def empty_corner(enc: Encoder, links, x: int, first: tuple[int, int],
                 second: tuple[int, int], active: int) -> list[list[int]]:
    """`empty_corner_rules`' clauses for the turn at x going `first` and `second`."""
    a, b = enc.step(x, first), enc.step(x, second)
    q = None if a is None else enc.step(a, second)
    if b is None or q is None or q != enc.step(b, first) or enc.dot[q] >= 0 or len(
            {x, a, b, q}) < 4:
        return []
    turn = [enc.step(q, first), enc.step(q, second)]
    sides = [links.linked(x, a), links.linked(x, b)] + [links.linked(q, n) for n in
                                                         enc.neighbors[q]]
    if any(len(side) != 1 for side in sides):
        return []
    head = [-active, -sides[0][0], -sides[1][0]]
    clauses = [[*head, -links.linked(q, n)[0]] for n in enc.neighbors[q] if n not in turn]
    ways = [links.linked(q, n)[0] for n in turn if n is not None]
    if len(ways) == 2:  # both or neither
        return [*clauses, [*head, -ways[0], ways[1]], [*head, ways[0], -ways[1]]]
    return clauses + [[*head, -w] for w in ways]


@lru_cache(maxsize=16)  # graph()'s boards
def inside_table(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """For each turn of CORNERS and node x, the cell q inside a turn at x (linking x to a and
    b, joined by open links to both a and b, none of them a bridge: `toward_array` knows no
    bridge; 0 where there is none), and whether there is one that turns into no bridge."""
    step = graph(board).toward_array
    inside, open_ = [], []
    for glyph in CORNERS:
        first, second = TYPES[glyph]
        a, b = step[first], step[second]
        q = np.where(a >= 0, step[second][a], -1)
        q = np.where((q >= 0) & (q == np.where(b >= 0, step[first][b], -2)), q, -1)
        beside = np.zeros(board.size, dtype=bool)  # q's neighbor first or second way: a bridge
        for d in (first, second) if board.bridges else ():
            way = board.toward[DIRECTION[d]]
            beside |= [way[i] in board.bridges for i in range(board.size)]
        inside.append(np.maximum(q, 0))
        open_.append((q >= 0) & ~np.r_[beside, np.zeros(len(q) - board.size, dtype=bool)][
            np.maximum(q, 0)])
    return np.stack(inside), np.stack(open_)
