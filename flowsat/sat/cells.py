"""Cell-state families: how a cell's color is represented in CNF.

Every family offers the same small interface to the connection families, in batches (one
call per family, not per pair, keeps the Python work per clause low):
`same(pairs)` adds clauses for lit -> color(i) == color(j) for each (i, j, lit),
`differ(pairs)` for lit -> color(i) != color(j), and `is_color(i, k)` gives a literal true
iff cell i has color k.
"""

from __future__ import annotations

from flowsat.sat.encoder import Encoder, Keys

Pairs = list[tuple[int, int, int]]  # (cell i, cell j, literal)


class OneHot:
    """One variable per cell and color (2016): dots fixed by units, other cells exactly one
    (at most one when cells may stay empty: an empty cell has none)."""

    name = "onehot"

    def __init__(self, enc: Encoder):
        self.enc = enc
        ncolors = len(enc.colors)
        flat = enc.new_vars("color", Keys(enc.size * ncolors, lambda t: (
            enc.cell(t // ncolors), enc.colors[t % ncolors])))
        self.x = [flat[i:i + ncolors] for i in range(0, len(flat), ncolors)]
        for i in enc.nodes:
            row, k = self.x[i], enc.dot[i]
            if k >= 0:
                enc.clauses.append([row[k]])
                enc.clauses += [[-x] for x in row if x != row[k]]
            else:
                if enc.rules.fill_all:
                    enc.clauses.append(list(row))
                enc.at_most(row, 1)

    def same(self, pairs: Pairs) -> None:
        x = self.x
        self.enc.clauses += [c for i, j, lit in pairs for a, b in zip(x[i], x[j], strict=True)
                             for c in ([-lit, -a, b], [-lit, a, -b])]

    def differ(self, pairs: Pairs) -> None:
        x = self.x
        self.enc.clauses += [[-lit, -a, -b] for i, j, lit in pairs
                             for a, b in zip(x[i], x[j], strict=True)]

    def is_color(self, i: int, k: int) -> int:
        return self.x[i][k]


class Binary:
    """ceil(log2 C) bits per cell holding the color's number; unused codes are forbidden.

    Clauses touching a dot use its known code directly, so they need no auxiliary variables;
    'differ' between two empty cells uses one variable per bit meaning 'differ in this bit'.
    """

    name = "binary"

    def __init__(self, enc: Encoder):
        self.enc = enc
        self.nbits = nbits = max(1, (len(enc.colors) - 1).bit_length())
        flat = enc.new_vars("bit", Keys(enc.size * nbits, lambda t: (enc.cell(t // nbits),
                                                                     t % nbits)))
        self.bits = [flat[i:i + nbits] for i in range(0, len(flat), nbits)]
        self.codes = {i: self.code(i, k) for i, k in enumerate(enc.dot) if k >= 0}
        self.diffs: dict[tuple[int, int], list[int]] = {}
        self.equals: dict[tuple[int, int], int] = {}
        enc.clauses += [[x] for code in self.codes.values() for x in code]
        limit = at_most_code(list(range(1, nbits + 1)), len(enc.colors) - 1)
        enc.clauses += [[bits[x - 1] if x > 0 else -bits[-x - 1] for x in clause]
                        for i, bits in enumerate(self.bits) if enc.dot[i] < 0 and enc.on[i]
                        for clause in limit]

    def code(self, i: int, k: int) -> list[int]:
        """The literals that say cell i holds color k."""
        return [b if k >> t & 1 else -b for t, b in enumerate(self.bits[i])]

    def split(self, pairs: Pairs) -> tuple[Pairs, Pairs, Pairs]:
        """The pairs between two empty cells, between a dot (first) and a cell, between dots."""
        codes = self.codes
        free, one, both = [], [], []
        for i, j, lit in pairs:
            if i in codes:
                (both if j in codes else one).append((i, j, lit))
            elif j in codes:
                one.append((j, i, lit))
            else:
                free.append((i, j, lit))
        return free, one, both

    def same(self, pairs: Pairs) -> None:
        free, one, both = self.split(pairs)
        bits, dot, clauses = self.bits, self.enc.dot, self.enc.clauses
        off = [-lit for _, _, lit in free]
        for t in range(self.nbits):  # column by column: C-level zip and map build the clauses
            a = [bits[i][t] for i, _, _ in free]
            b = [bits[j][t] for _, j, _ in free]
            clauses += map(list, zip(off, [-x for x in a], b, strict=True))
            clauses += map(list, zip(off, a, [-x for x in b], strict=True))
        clauses += [[-lit, x] for d, j, lit in one for x in self.code(j, dot[d])]
        clauses += [[-lit] for i, j, lit in both if dot[i] != dot[j]]

    def differ(self, pairs: Pairs) -> None:
        free, one, both = self.split(pairs)
        dot, clauses = self.enc.dot, self.enc.clauses
        self.make_diffs([(min(i, j), max(i, j)) for i, j, _ in free])
        diffs = self.diffs
        clauses += [[-lit, *diffs[min(i, j), max(i, j)]] for i, j, lit in free]
        clauses += [[-lit] + [-x for x in self.code(j, dot[d])] for d, j, lit in one]
        clauses += [[-lit] for i, j, lit in both if dot[i] == dot[j]]

    def make_diffs(self, pairs: list[tuple[int, int]]) -> None:
        """For each new pair of cells, one variable per bit that implies they differ there."""
        new = list(dict.fromkeys(p for p in pairs if p not in self.diffs))
        enc, nbits, bits = self.enc, self.nbits, self.bits
        flat = enc.new_vars("differ", Keys(len(new) * nbits, lambda t: (
            *map(enc.cell, new[t // nbits]), t % nbits)))
        for n, pair in enumerate(new):
            self.diffs[pair] = flat[n * nbits:(n + 1) * nbits]
        for t in range(nbits):
            d = [-flat[n * nbits + t] for n in range(len(new))]
            a = [bits[i][t] for i, _ in new]
            b = [bits[j][t] for _, j in new]
            enc.clauses += map(list, zip(d, a, b, strict=True))
            enc.clauses += map(list, zip(d, [-x for x in a], [-x for x in b], strict=True))

    def is_color(self, i: int, k: int) -> int:
        """A variable defined as 'cell i has color k' (made once per cell and color)."""
        if (i, k) not in self.equals:
            enc, lits = self.enc, self.code(i, k)
            y = enc.new_var("is", (enc.cell(i), enc.colors[k]))
            enc.clauses += [[-y, x] for x in lits]
            enc.clauses.append([y] + [-x for x in lits])
            self.equals[i, k] = y
        return self.equals[i, k]


def at_most_code(bits: list[int], top: int) -> list[list[int]]:
    """Clauses saying the number held in bits (least significant first) is at most top."""
    clauses = []
    for i, b in enumerate(bits):
        if not top >> i & 1:  # a 1 here, with every higher bit as in top, would exceed top
            clauses.append([-b] + [-bits[j] if top >> j & 1 else bits[j]
                                   for j in range(i + 1, len(bits))])
    return clauses


class NoCells:
    """No cell colors at all: for connection families that carry colors on their edges."""

    name = "none"

    def __init__(self, enc: Encoder):
        self.enc = enc


FAMILIES = {"onehot": OneHot, "binary": Binary, "none": NoCells}
