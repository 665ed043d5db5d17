"""Eager acyclicity: every path is oriented from its first dot to its second and its cells are
numbered in increasing order along it, so that no cycle can close (binary numbers of
ceil(log2 cells) bits, one comparator per edge direction). The alternative is lazy: cut each
cycle found in a model, in the solve loop."""

from __future__ import annotations

from flowsat.puzzle.rules import Rules
from flowsat.sat.encoder import Encoder, Keys
from flowsat.sat.rules import no_squares


def squares(enc: Encoder, links, rules: Rules) -> None:
    """`cycles = "squares"`: lazy cuts, and no 2x2 cycle up front (`rules.no_squares`)."""
    enc.clauses += no_squares(enc, links, rules)


def order(enc: Encoder, links, rules: Rules | None = None) -> None:
    """Clauses that orient every link and number cells increasingly along each path."""
    nbits = max(1, enc.size.bit_length())
    flat = enc.new_vars("order", Keys(enc.size * nbits, lambda t: (enc.cell(t // nbits),
                                                                   t % nbits)))
    number = [flat[i:i + nbits] for i in range(0, len(flat), nbits)]
    into: list[list[int]] = [[] for _ in range(enc.size)]
    out: list[list[int]] = [[] for _ in range(enc.size)]
    for i, j in enc.edges:
        (e,) = links.linked(i, j)
        forward, backward = enc.new_vars("direction", [(enc.cell(i), enc.cell(j)),
                                                       (enc.cell(j), enc.cell(i))])
        enc.clauses += [[-e, forward, backward], [-forward, e], [-backward, e],
                        [-forward, -backward]]
        above = equal_above(enc, number[i], number[j])
        greater(enc, number[j], number[i], above, forward)
        greater(enc, number[i], number[j], above, backward)
        out[i].append(forward)
        into[j].append(forward)
        out[j].append(backward)
        into[i].append(backward)
    starts = {ends[0] for ends in enc.puzzle.dots.values()}
    for i in enc.nodes:
        if enc.dot[i] < 0:  # two links or (cells may stay empty) none: one in, one out
            bound = enc.exactly if enc.rules.fill_all else enc.at_most
            bound(into[i], 1)
            bound(out[i], 1)
        else:
            first = enc.cell(i) in starts
            enc.exactly(out[i] if first else into[i], 1)
            enc.clauses += [[-x] for x in (into[i] if first else out[i])]


def equal_above(enc: Encoder, x: list[int], y: list[int]) -> list[int]:
    """Variables q[t] implying that x and y agree on every bit above t (least bit first)."""
    q = enc.new_vars("agree above", range(len(x) - 1))
    for t, v in enumerate(q):
        enc.clauses += [[-v, -x[t + 1], y[t + 1]], [-v, x[t + 1], -y[t + 1]]]
        if t + 1 < len(q):
            enc.clauses.append([-v, q[t + 1]])
    return q


def greater(enc: Encoder, x: list[int], y: list[int], above: list[int], lit: int) -> None:
    """lit -> x > y: at some bit t, x has 1 and y has 0, and they agree above t."""
    z = enc.new_vars("greater at", range(len(x)))
    enc.clauses.append([-lit, *z])
    for t, v in enumerate(z):
        enc.clauses += [[-v, x[t]], [-v, -y[t]]]
        if t < len(above):
            enc.clauses.append([-v, above[t]])
