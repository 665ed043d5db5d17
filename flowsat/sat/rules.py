"""Clause families about the board, whatever encodes cells and links (through `links.linked`
and `links.corner`): deductions before solving, 2x2 squares, and the uniqueness rule."""

from __future__ import annotations

from flowsat.sat.encoder import Encoder
from flowsat.sat.links import CORNERS, TYPES


def deductions(enc: Encoder, links, allow_self_touch: bool) -> list[list[int]]:
    """Units for the links that follow from the board alone.

    An edge between dots of different colors is never linked; without self-touch, one between
    dots of one color always is. Then, to a fixpoint: a cell whose links are all known is
    closed, and a cell with just enough possible links for its degree (1 for a dot, 2 else,
    e.g. an empty corner of the board) takes them all.
    """
    dot = enc.dot
    known: dict[tuple[int, int], bool] = {}
    for i, j in enc.edges:
        if dot[i] >= 0 and dot[j] >= 0 and (dot[i] != dot[j] or not allow_self_touch):
            known[i, j] = dot[i] == dot[j]
    todo = set(range(enc.size))
    while todo:
        i = todo.pop()
        edges = [(min(i, n), max(i, n)) for n in enc.neighbors[i]]
        open_ = [e for e in edges if e not in known]
        linked = sum(known.get(e, False) for e in edges)
        degree = 1 if dot[i] >= 0 else 2
        if open_ and (linked == degree or linked + len(open_) == degree):
            for e in open_:
                known[e] = linked < degree
                todo.update(e)
    units = []
    for (i, j), on in known.items():
        lits = links.linked(i, j)
        units += [lits] if on else [[-x] for x in lits]
    return units


def inside(enc: Encoder, i: int, glyph: str) -> int | None:
    """The cell diagonally inside a corner of that shape at cell i."""
    a = enc.step(i, TYPES[glyph][0])
    return None if a is None else enc.step(a, TYPES[glyph][1])


def no_squares(enc: Encoder, links) -> list[list[int]]:
    """No 2x2 square of cells linked all around (the smallest cycle)."""
    clauses = []
    for i in range(enc.size):
        r, c = enc.cell(i)
        if r + 1 < enc.height and c + 1 < enc.width:
            ring = [(i, "┌"), (i + 1, "┐"), (i + enc.width + 1, "┘"), (i + enc.width, "└")]
            corners = [links.corner(cell, glyph) for cell, glyph in ring]
            if None not in corners:
                clauses.append(sorted({-x for lits in corners for x in lits}))
    return clauses


def corner_rules(enc: Encoder, links, active: int) -> list[list[int]]:
    """The uniqueness rule, on while `active` is true: a path turns a corner only where the
    cell diagonally inside the corner is a dot or turns the same way (so that walking
    inwards along the diagonal reaches a dot). A puzzle with one solution obeys it; one with
    several may not, so a solver that finds no model with it on must try again without."""
    clauses = []
    for i in range(enc.size):
        for glyph in CORNERS:
            here = links.corner(i, glyph)
            if here is None:
                continue
            q = inside(enc, i, glyph)
            if enc.dot[q] >= 0:
                continue
            there = links.corner(q, glyph)
            turn = [-active] + [-x for x in here]
            clauses += [turn] if there is None else [[*turn, y] for y in there]
    return clauses
