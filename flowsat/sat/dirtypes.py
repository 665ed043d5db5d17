"""The 2016 direction types (`links = "dirtypes"`): each cell that is no dot has one type of
`TYPES`, linking it to two neighbors; a dot links to one neighbor (Zucker's encoding)."""

from __future__ import annotations

import numpy as np

from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError
from flowsat.sat.encoder import Encoder
from flowsat.sat.links import TYPES, Model


def true(model: Model, v: int) -> bool:
    return model[v - 1] > 0


class DirTypes:
    """2016: one variable per direction type of each non-dot cell, exactly one true.

    A type makes the cell's color equal to the two neighbors it points at and, under the
    no-self-touch rule, different from its other neighbors; a dot has exactly one neighbor of
    its color. The 2016 reduction relies on that 'different' family to keep links mutual, so
    without it (self-touch allowed) links are made mutual explicitly, and a dot has exactly one
    neighbor pointing at it (an adjacent dot of its color through a link variable of their own).
    """

    name = "dirtypes"

    def __init__(self, enc: Encoder, cells, rules: Rules):
        refuse(enc, rules)
        self.enc, self.touch = enc, rules.self_touch
        self.types: dict[int, dict[str, tuple[int, int, int]]] = {}  # cell -> glyph -> var, n1, n2
        for i in enc.nodes:
            if enc.dot[i] < 0:
                ends = {glyph: (a, b) for glyph, (da, db) in TYPES.items()
                        if (a := enc.step(i, da)) is not None
                        and (b := enc.step(i, db)) is not None}
                tvars = enc.new_vars("type", [(enc.cell(i), glyph) for glyph in ends])
                self.types[i] = {glyph: (v, *ab) for v, (glyph, ab) in zip(tvars, ends.items(),
                                                                          strict=True)}
        self.dot_links: dict[tuple[int, int], int] = {}  # adjacent dots of one color (touch)
        same, differ = [], []
        for i in enc.nodes:
            if enc.dot[i] >= 0:
                self.add_dot(i, cells)
            else:
                self.add_free(i, same, differ)
        cells.same(same)
        cells.differ(differ)

    def pointing_at(self, n: int, i: int) -> list[int]:
        """The type variables of non-dot cell n that link it to cell i."""
        return [v for v, a, b in self.types[n].values() if i in (a, b)]

    def add_dot(self, i: int, cells) -> None:
        enc, k = self.enc, self.enc.dot[i]
        if not self.touch:  # 2016: exactly one neighbor has the dot's color
            lits = [cells.is_color(n, k) for n in enc.neighbors[i]]
            enc.clauses.append(lits)
            enc.at_most(lits, 1)
            return
        lits = []
        for n in enc.neighbors[i]:
            if enc.dot[n] < 0:
                lits += self.pointing_at(n, i)
            elif enc.dot[n] == k:
                key = (min(i, n), max(i, n))
                if key not in self.dot_links:
                    self.dot_links[key] = enc.new_var("link", (enc.cell(key[0]),
                                                               enc.cell(key[1])))
                lits.append(self.dot_links[key])
        enc.exactly(lits, 1)

    def add_free(self, i: int, same: list, differ: list) -> None:
        enc, types = self.enc, self.types[i]
        tvars = [v for v, _, _ in types.values()]
        enc.clauses.append(tvars)
        enc.at_most(tvars, 1)
        for v, a, b in types.values():
            for n in enc.neighbors[i]:
                if n in (a, b):
                    same.append((i, n, v))
                    if self.touch and enc.dot[n] < 0:  # links are mutual
                        enc.clauses.append([-v, *self.pointing_at(n, i)])
                elif not self.touch:
                    differ.append((i, n, v))

    def linked(self, i: int, j: int) -> list[int]:
        if self.enc.dot[i] < 0:
            return self.pointing_at(i, j)
        if self.enc.dot[j] < 0:
            return self.pointing_at(j, i)
        if self.enc.dot[i] != self.enc.dot[j]:
            return []
        key = (min(i, j), max(i, j))
        return [self.dot_links[key]] if self.touch else [self.enc.true()]

    def corner(self, i: int, glyph: str) -> list[int] | None:
        found = self.types.get(i, {}).get(glyph)
        return [found[0]] if found else None

    def corners(self, glyph: str) -> tuple[np.ndarray, np.ndarray]:
        """`corner(i, glyph)` of every cell that has one: the cells, their literals as rows."""
        found = [(i, types[glyph][0]) for i, types in self.types.items() if glyph in types]
        both = np.array(found, dtype=np.int64).reshape(-1, 2)
        return both[:, 0], both[:, 1:]

    def links(self, model: Model) -> list[tuple[int, int]]:
        found = {(min(i, n), max(i, n)) for i, types in self.types.items()
                 for v, a, b in types.values() if true(model, v) for n in (a, b)}
        found |= {key for key, v in self.dot_links.items() if true(model, v)}
        if not self.touch:  # adjacent dots of one color are linked to each other
            dot = self.enc.dot
            found |= {(i, j) for i, j in self.enc.edges if dot[i] >= 0 and dot[i] == dot[j]}
        return sorted(found)

    def block(self, model: Model) -> list[int]:
        """A clause that rules out the model's links (its solution) and nothing else."""
        return ([-v for types in self.types.values() for v, _, _ in types.values()
                 if true(model, v)] + [-v for v in self.dot_links.values() if true(model, v)])

    def cut(self, cycle: list[int], model: Model) -> list[int]:
        """2016: forbid this combination of direction types on the cycle's cells."""
        return [-v for i in cycle for v, _, _ in self.types[i].values() if true(model, v)]


def refuse(enc: Encoder, rules: Rules) -> None:
    """The direction types know the four ways of a square cell and a cell on one path."""
    if enc.board.shape != "square" or enc.board.bridges:
        raise UsageError(f"links = 'dirtypes' (the 2016 direction types) cannot express a "
                         f"{enc.board.kind} board; use an edges encoding")
    if not rules.fill_all:
        raise UsageError("links = 'dirtypes' (the 2016 direction types) fills every cell; "
                         "use an edges encoding with --allow-empty")
