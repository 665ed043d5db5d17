"""Cardinality constraints: the direct (pairwise) clauses, or any of PySAT's `pysat.card`."""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np
from pysat.formula import IDPool

# pysat.card is imported where one of its methods is asked for: the default encodings are
# pairwise (its import costs every start: docs/performance.md, "Compiled boards")

# PySAT's pairwise encoding only knows bound 1; "pairwise" here is the direct binomial encoding
# for any bound (one clause per subset), which is what small degree constraints want. PySAT's
# bitwise and ladder encodings only know bound 1 too: other bounds use the direct encoding.
# The methods are the `card` choices of `flowsat.sat.choices`.


@cache
def subsets(n: int, k: int) -> tuple[tuple[int, ...], ...]:
    return tuple(combinations(range(n), k))


def at_most(lits: list[int], k: int, method: str, pool: IDPool | None) -> list[list[int]]:
    """Clauses saying at most k of lits are true."""
    if k >= len(lits):
        return []
    if method == "pairwise" or k == 0:
        return [[-lits[i] for i in subset] for subset in subsets(len(lits), k + 1)]
    from pysat.card import CardEnc, EncType, UnsupportedBound

    try:
        return CardEnc.atmost(lits, k, vpool=pool, encoding=getattr(EncType, method)).clauses
    except UnsupportedBound:
        return at_most(lits, k, "pairwise", pool)


def at_least(lits: list[int], k: int, method: str, pool: IDPool | None) -> list[list[int]]:
    """Clauses saying at least k of lits are true."""
    if k <= 0:
        return []
    if k > len(lits):
        return [[]]
    if method == "pairwise" or k == 1:
        return [[lits[i] for i in subset] for subset in subsets(len(lits), len(lits) - k + 1)]
    from pysat.card import CardEnc, EncType, UnsupportedBound

    try:
        return CardEnc.atleast(lits, k, vpool=pool, encoding=getattr(EncType, method)).clauses
    except UnsupportedBound:
        return at_least(lits, k, "pairwise", pool)


def exactly(lits: list[int], k: int, method: str, pool: IDPool | None) -> list[list[int]]:
    """Clauses saying exactly k of lits are true."""
    return at_least(lits, k, method, pool) + at_most(lits, k, method, pool)


def exactly_rows(lits: np.ndarray, k: int) -> list[np.ndarray]:
    """The direct clauses of `exactly(row, k, "pairwise")` for every row of a matrix of
    literals (rows of one length n, k <= n), as arrays of clauses of one width each: the
    same clauses, made for all rows at once."""
    return [(sign * lits[:, columns]).reshape(-1, columns.shape[1])
            for sign, columns in exactly_parts(lits.shape[1], k)]


def exactly_parts(n: int, k: int) -> list[tuple[int, np.ndarray]]:
    """The blocks of the direct clauses of exactly k of n literals (k <= n): each a sign and
    the subsets of literals (as columns) whose clauses it has (at least k, then at most k)."""
    out = []
    if k >= 1:
        out.append((1, subset_columns(n, n - k + 1)))
    if k < n:
        out.append((-1, subset_columns(n, k + 1)))
    return out


@cache
def subset_columns(n: int, k: int) -> np.ndarray:
    """`subsets(n, k)` as an index array (made once: most boards have nodes of 2 to 4 links)."""
    return np.array(subsets(n, k), dtype=np.intp)
