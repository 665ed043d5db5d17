"""Cell-state families: how a cell's color is represented in CNF.

Every family offers the same small interface to the connection families, in batches (one
call per family, not per pair, keeps the Python work per clause low):
`same(pairs)` adds clauses for lit -> color(i) == color(j) for each (i, j, lit),
`differ(pairs)` for lit -> color(i) != color(j), and `is_color(i, k)` gives a literal true
iff cell i has color k.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from flowsat.sat.encoder import Encoder, Keys

Arrays = tuple[np.ndarray, np.ndarray, np.ndarray]  # cells i, cells j, literals
Pairs = list[tuple[int, int, int]] | Arrays  # (cell i, cell j, literal) each


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

    def same(self, pairs: Pairs, key: tuple | None = None) -> None:
        x = self.x
        self.enc.clauses += [c for i, j, lit in as_list(pairs)
                             for a, b in zip(x[i], x[j], strict=True)
                             for c in ([-lit, -a, b], [-lit, a, -b])]

    def differ(self, pairs: Pairs) -> None:
        x = self.x
        self.enc.clauses += [[-lit, -a, -b] for i, j, lit in as_list(pairs)
                             for a, b in zip(x[i], x[j], strict=True)]

    def is_color(self, i: int, k: int) -> int:
        return self.x[i][k]


class Binary:
    """ceil(log2 C) bits per cell holding the color's number; unused codes are forbidden.

    Clauses touching a dot use its known code directly, so they need no auxiliary variables;
    'differ' between two empty cells uses one variable per bit meaning 'differ in this bit'.
    Every family is made with arrays, for all pairs at once.

    `codes`: "bounded" (the above), "free" (no clause against unused codes: a cell on a path
    from a dot has the dot's code, and the cells off the paths form cycles, which are cut), or
    "short": at first only the low bits of each color's code (`short_codes`: colors that
    share them have dots far apart), so a model may join two dots of different colors;
    `complete(1)` then adds a bit (and `differ` all, first: it needs whole codes).
    """

    name = "binary"

    def __init__(self, enc: Encoder, codes: str = "bounded"):
        self.enc = enc
        ncolors = len(enc.colors)
        self.full = max(1, (ncolors - 1).bit_length())
        self.nbits = nbits = short_bits(self.full) if codes == "short" else self.full
        self.codes = short_codes(enc, nbits) if nbits < self.full else np.arange(ncolors)
        self.full = max(self.full, int(self.codes.max(initial=0)).bit_length())
        self.layout: tuple[tuple[int, int], ...] = ()  # the bits' blocks: (first, bits a node)
        self.bits = self.new_bits(nbits)
        dots = enc.dots
        # +1 where a dot's code has a 1 in that bit, -1 where a 0: its literals are sign * bit
        code = self.codes[dots] * (dots >= 0)
        self.sign = np.where(code[:, None] >> np.arange(self.full) & 1, 1, -1) * (
            dots[:, None] >= 0)
        self.diff_keys = np.zeros(0, dtype=np.int64)  # sorted keys i * size + j of pairs
        self.diff_first = np.zeros(0, dtype=np.int64)  # and the first of their nbits variables
        self.equals: dict[tuple[int, int], int] = {}
        self.joined: list[tuple[Arrays, tuple | None]] = []  # `same`'s, while codes are short
        self.dot_units(0)
        if codes != "bounded":
            return
        free = np.zeros(enc.size, dtype=bool)
        free[enc.nodes] = True
        free = np.flatnonzero(free & (dots < 0))
        for k, clause in enumerate(at_most_code(list(range(1, nbits + 1)), ncolors - 1)):
            enc.clauses += enc.shared(("codes", self.layout, ncolors, k), free, enc.size,
                                      self.code_rows(clause))

    def code_rows(self, clause: list[int]) -> Callable[[np.ndarray], list[list[int]]]:
        """A clause of `at_most_code` over bits 1.. (the bits of a node), for nodes."""
        columns = np.array([abs(x) - 1 for x in clause])
        signs = np.array([1 if x > 0 else -1 for x in clause])
        return lambda nodes: (self.bits[nodes][:, columns] * signs).tolist()

    def new_bits(self, n: int) -> np.ndarray:
        """n fresh bit variables per node (bits `nbits - n` on), as a (size, n) array."""
        enc, low = self.enc, self.nbits - n
        first = enc.top + 1
        self.layout += ((first, n),)
        enc.new_vars("bit", Keys(enc.size * n, lambda t: (enc.cell(t // n), low + t % n)))
        return np.arange(first, first + enc.size * n, dtype=np.int64).reshape(-1, n)

    def dot_units(self, low: int) -> None:
        """Each dot's code from bit `low` on, as units."""
        have = np.flatnonzero(self.enc.dots >= 0)
        self.enc.add_rows((self.bits[have, low:] * self.sign[have, low:self.nbits])
                          .reshape(-1, 1))

    def complete(self, more: int | None = None) -> None:
        """Short codes made longer by `more` bits (None: made whole), with their clauses for
        every pair stated so far (nothing when codes are whole already)."""
        low = self.nbits
        self.nbits = self.full if more is None else min(self.full, low + more)
        if self.nbits == low:
            return
        self.bits = np.hstack((self.bits, self.new_bits(self.nbits - low)))
        self.dot_units(low)
        for pairs, key in self.joined:
            self.equal(pairs, low, key)
        if self.nbits == self.full:
            self.joined = []

    def code(self, i: int, k: int) -> list[int]:
        """The literals that say cell i holds color k."""
        k = int(self.codes[k])
        return [b if k >> t & 1 else -b for t, b in enumerate(self.bits[i].tolist())]

    def split(self, pairs: Pairs) -> tuple[Arrays, Arrays, Arrays, np.ndarray]:
        """The pairs between two empty cells, between a dot (first) and a cell, between dots,
        and the positions of the first among the pairs."""
        i, j, lit = as_arrays(pairs)
        dot = self.enc.dots
        di, dj = dot[i] >= 0, dot[j] >= 0
        one_i, one_j = di & ~dj, ~di & dj
        one = tuple(np.concatenate((x[one_i], y[one_j])) for x, y in ((i, j), (j, i),
                                                                      (lit, lit)))
        free = np.flatnonzero(~di & ~dj)
        return ((i[free], j[free], lit[free]), one, (i[di & dj], j[di & dj], lit[di & dj]),
                free)

    def same(self, pairs: Pairs, key: tuple | None = None) -> None:
        """`key` (if any) names the pairs: their cells and literals are a function of the
        board and the key (as in `Encoder.shared`)."""
        (bi, bj, blit) = self.equal(pairs, 0, key)
        self.enc.add_rows(-blit[self.enc.dots[bi] != self.enc.dots[bj], None])
        if self.nbits < self.full:
            self.joined.append((as_arrays(pairs), key))

    def equal(self, pairs: Pairs, low: int, key: tuple | None = None) -> Arrays:
        """`same` for the bits from `low` on, but between two dots: those pairs returned."""
        pairs = as_arrays(pairs)
        (d, c, dlit), both, free = self.split(pairs)[1:]
        bits, enc, n = self.bits[:, low:], self.enc, self.nbits - low
        codes = (free[:, None] * n + np.arange(n)).ravel()  # a pair's bits one by one
        for sign in (1, -1):  # [-lit, -a, b] for every pair and bit, then [-lit, a, -b]
            enc.clauses += enc.shared(key and ("same", *key, self.layout, low, sign), codes,
                                      len(pairs[0]) * n, self.equal_rows(pairs, bits, sign))
        code = bits[c] * self.sign[d, low:self.nbits]  # cell c has dot d's color
        enc.add_rows(np.stack((np.repeat(-dlit[:, None], bits.shape[1], 1), code), 2)
                     .reshape(-1, 2))
        return both

    @staticmethod
    def equal_rows(pairs: Arrays, bits: np.ndarray, sign: int
                   ) -> Callable[[np.ndarray], list[list[int]]]:
        """The clauses [-lit, -sign * a, sign * b] of pair p's bits a and b, bit t, made for
        codes p * bits + t."""
        def make(codes: np.ndarray) -> list[list[int]]:
            p, t = np.divmod(codes, bits.shape[1])
            i, j, lit = (x[p] for x in pairs)
            return np.column_stack((-lit, -sign * bits[i, t], sign * bits[j, t])).tolist()
        return make

    def differ(self, pairs: Pairs) -> None:
        self.complete()
        (i, j, lit), (d, c, dlit), (bi, bj, blit), _ = self.split(pairs)
        enc, dot = self.enc, self.enc.dots
        first = self.make_diffs(np.minimum(i, j), np.maximum(i, j))
        enc.add_rows(np.column_stack((-lit, first[:, None] + np.arange(self.nbits))))
        enc.add_rows(np.column_stack((-dlit, -(self.bits[c] * self.sign[d, :self.nbits]))))
        enc.add_rows(-blit[dot[bi] == dot[bj], None])

    def make_diffs(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """For each pair of cells, the first of its nbits variables that imply they differ
        in that bit; pairs met for the first time get new ones (in the order met)."""
        enc, nbits, size = self.enc, self.nbits, self.enc.size
        keys = i * size + j
        known = np.isin(keys, self.diff_keys)
        _, where = np.unique(keys[~known], return_index=True)
        new = keys[~known][np.sort(where)]  # first appearances, in order
        first = enc.top + 1
        pairs = np.column_stack((new // size, new % size)).tolist()
        enc.new_vars("differ", Keys(len(new) * nbits, lambda t: (
            *map(enc.cell, pairs[t // nbits]), t % nbits)))
        starts = first + nbits * np.arange(len(new), dtype=np.int64)
        a, b = self.bits[new // size], self.bits[new % size]
        d = -(starts[:, None] + np.arange(nbits))
        enc.add_rows(np.stack((d, a, b), 2).reshape(-1, 3),
                     np.stack((d, -a, -b), 2).reshape(-1, 3))
        order = np.argsort(np.concatenate((self.diff_keys, new)), kind="stable")
        self.diff_keys = np.concatenate((self.diff_keys, new))[order]
        self.diff_first = np.concatenate((self.diff_first, starts))[order]
        return self.diff_first[np.searchsorted(self.diff_keys, keys)]

    def is_color(self, i: int, k: int) -> int:
        """A variable defined as 'cell i has color k' (made once per cell and color)."""
        self.complete()
        if (i, k) not in self.equals:
            enc, lits = self.enc, self.code(i, k)
            y = enc.new_var("is", (enc.cell(i), enc.colors[k]))
            enc.clauses += [[-y, x] for x in lits]
            enc.clauses.append([y] + [-x for x in lits])
            self.equals[i, k] = y
        return self.equals[i, k]


SHORT_BITS, SHORT_LESS = 2, 3  # short codes: this many bits fewer, but at least so many


def short_bits(full: int) -> int:
    """The bits of a short code, for whole codes of `full` bits."""
    return min(full, max(SHORT_BITS, full - SHORT_LESS))


def short_codes(enc: Encoder, nbits: int) -> np.ndarray:
    """Each color's code: the low `nbits` bits (a group) given to colors in turn, each to the
    group whose dots are farthest from its own (Manhattan distance), no group taking more
    colors than the other bits number; those bits number the colors of a group."""
    ncolors = len(enc.colors)
    groups, room = 1 << nbits, 1 << (max(1, (ncolors - 1).bit_length()) - nbits)
    at = np.array([[*ends[0], *ends[-1]] for ends in enc.puzzle.dots.values()],
                  dtype=np.int64).reshape(-1, 2, 2)  # each color's two dots (row, column)
    far = np.abs(at[:, None, :, None] - at[None, :, None, :]).sum(-1).min((2, 3)).tolist()
    codes, count = [], [0] * groups
    near = [[enc.size] * groups for _ in range(ncolors)]  # color k's nearest in each group
    for k in range(ncolors):  # (a few dozen colors: lists beat arrays here)
        row = near[k]
        group = max(range(groups), key=lambda g: row[g] if count[g] < room else -1)
        codes.append(group | count[group] << nbits)
        count[group] += 1
        for later, apart in zip(near[k + 1:], far[k][k + 1:], strict=True):
            if apart < later[group]:
                later[group] = apart
    return np.array(codes, dtype=np.int64)


def as_list(pairs: Pairs) -> list[tuple[int, int, int]] | list[list[int]]:
    """Pairs (cell i, cell j, literal) as a list of triples."""
    return np.column_stack(pairs).tolist() if isinstance(pairs, tuple) else pairs


def as_arrays(pairs: Pairs) -> Arrays:
    """Pairs (cell i, cell j, literal) as three integer arrays."""
    if isinstance(pairs, tuple):
        return tuple(np.asarray(x, dtype=np.int64) for x in pairs)
    i, j, lit = np.array(pairs, dtype=np.int64).reshape(-1, 3).T
    return i, j, lit


def at_most_code(bits: list[int], top: int) -> list[list[int]]:
    """Clauses saying the number held in bits (least significant first) is at most top."""
    clauses = []
    for i, b in enumerate(bits):
        if not top >> i & 1:  # a 1 here, with every higher bit as in top, would exceed top
            clauses.append([-b] + [-bits[j] if top >> j & 1 else bits[j]
                                   for j in range(i + 1, len(bits))])
    return clauses


class NoCells:
    """No cell colors at all: for connection families that carry colors on their edges, or
    for edge links whose colors the propagator keeps apart (`cycles = "propagator"`)."""

    name = "none"

    def __init__(self, enc: Encoder):
        self.enc = enc

    def same(self, pairs: Pairs, key: tuple | None = None) -> None:
        """Nothing: with edge links, the propagator keeps colors apart (`cycles =
        "propagator"`)."""

    def differ(self, pairs: Pairs) -> None:
        """Nothing (see `same`)."""
