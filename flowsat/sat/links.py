"""Connection families: how the links between neighboring cells of one path are represented.

Each family adds its clauses on top of a cell-state family (`cells.same` / `cells.differ`),
reads the links of a model back (`links`), and cuts a cycle found in a model (`cut`).
"""

from __future__ import annotations

from flowsat.sat.encoder import DOWN, LEFT, RIGHT, UP, Encoder, Keys

# The 2016 direction types of a non-dot cell, each linking it to two neighbors.
TYPES = {"─": (LEFT, RIGHT), "│": (UP, DOWN), "┘": (UP, LEFT), "└": (UP, RIGHT),
         "┐": (DOWN, LEFT), "┌": (DOWN, RIGHT)}

Model = list[int]


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

    def __init__(self, enc: Encoder, cells, allow_self_touch: bool):
        self.enc, self.touch = enc, allow_self_touch
        self.types: dict[int, dict[str, tuple[int, int, int]]] = {}  # cell -> glyph -> var, n1, n2
        for i in range(enc.size):
            if enc.dot[i] < 0:
                ends = {glyph: (a, b) for glyph, (da, db) in TYPES.items()
                        if (a := enc.step(i, da)) is not None
                        and (b := enc.step(i, db)) is not None}
                tvars = enc.new_vars("type", [(enc.cell(i), glyph) for glyph in ends])
                self.types[i] = {glyph: (v, *ab) for v, (glyph, ab) in zip(tvars, ends.items(),
                                                                          strict=True)}
        self.dot_links = {}  # (i, j) -> var, for adjacent dots of one color (self-touch only)
        for i in range(enc.size):
            if enc.dot[i] >= 0:
                self.add_dot(i, cells)
            else:
                self.add_free(i, cells)

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

    def add_free(self, i: int, cells) -> None:
        enc, types = self.enc, self.types[i]
        tvars = [v for v, _, _ in types.values()]
        enc.clauses.append(tvars)
        enc.at_most(tvars, 1)
        for v, a, b in types.values():
            for n in enc.neighbors[i]:
                if n in (a, b):
                    cells.same(i, n, v)
                    if self.touch and enc.dot[n] < 0:  # links are mutual
                        enc.clauses.append([-v, *self.pointing_at(n, i)])
                elif not self.touch:
                    cells.differ(i, n, v)

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


class Edges:
    """One variable per board edge: a dot has exactly one linked edge, other cells two.

    A linked edge joins cells of one color; under the no-self-touch rule an unlinked edge
    joins cells of different colors, so the edge variable means 'same color'.
    """

    name = "edges"

    def __init__(self, enc: Encoder, cells, allow_self_touch: bool):
        self.enc = enc
        edges = enc.edges
        self.vars = enc.new_vars("edge", Keys(len(edges), lambda t: (enc.cell(edges[t][0]),
                                                                      enc.cell(edges[t][1]))))
        incident: list[list[int]] = [[] for _ in range(enc.size)]
        for (i, j), e in zip(enc.edges, self.vars, strict=True):
            incident[i].append(e)
            incident[j].append(e)
            cells.same(i, j, e)
            if not allow_self_touch:
                cells.differ(i, j, -e)
        for i, lits in enumerate(incident):
            enc.exactly(lits, 1 if enc.dot[i] >= 0 else 2)
        self.index = {edge: e for edge, e in zip(enc.edges, self.vars, strict=True)}

    def links(self, model: Model) -> list[tuple[int, int]]:
        return [edge for edge, e in zip(self.enc.edges, self.vars, strict=True) if true(model, e)]

    def block(self, model: Model) -> list[int]:
        """A clause that rules out the model's links (its solution) and nothing else."""
        return [-e for e in self.vars if true(model, e)]

    def cut(self, cycle: list[int], model: Model) -> list[int]:
        """Cells without a dot cannot be closed off: some edge must leave the set."""
        inside = set(cycle)
        return [self.index[min(i, n), max(i, n)] for i in cycle
                for n in self.enc.neighbors[i] if n not in inside]


FAMILIES = {"dirtypes": DirTypes, "edges": Edges}
