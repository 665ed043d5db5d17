"""What a puzzle's formula will cost before it is built: the same encoding on two small boards
with the puzzle's colors (its dots packed in the top rows, then 2 or 4 free rows; measured
once per encoding, colors and rule), and the cost of a free cell taken from their difference,
times the puzzle's free cells."""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from flowsat.puzzle.model import EMPTY, Puzzle
from flowsat.puzzle.rules import Rules
from flowsat.sat.formula import Encoding, cell_count, encode
from flowsat.sat.spec import Spec

PROBE_WIDTH = 12
PROBE_FREE_ROWS = (2, 4)
WORTH_IT = 8  # boards up to this many times the larger probe are built without an estimate
# Bytes a formula takes built and loaded into CaDiCaL 1.9.5 (Glucose 4 takes less): fitted on
# resident sizes measured on five encodings of a 30x30 and a 50x50 board, within 17%.
BYTES_PER_CLAUSE = 150
BYTES_PER_LITERAL = 52
BYTES_PER_VARIABLE = 320
MB = 1 << 20
# With a cap: a rough estimate first, from the probes of the colors rounded up to a multiple
# of this (at least 0.9 times the exact estimate on the named encodings, mostly above it), and
# the exact estimate only when the rough one is not FAR_BELOW times under the cap
BOUND_COLORS = 16
FAR_BELOW = 4


class Size(NamedTuple):
    """A formula's counts, exact or estimated."""

    variables: int
    clauses: int
    literals: int

    @property
    def mb(self) -> float:
        """The memory the formula takes, built and loaded into a solver, in MB."""
        return (BYTES_PER_CLAUSE * self.clauses + BYTES_PER_LITERAL * self.literals
                + BYTES_PER_VARIABLE * self.variables) / MB


def formula_size(puzzle: Puzzle, spec: Spec, rules: Rules, cap: float | None = None
                 ) -> Size | None:
    """The formula's estimated size, None for a board that is cheaper to build than to
    estimate; lazy no-self-touch clauses count as if all were stated (a fall-back states
    them all). With `cap` (MB), None too when a rough estimate from the probes of more colors
    (`BOUND_COLORS`: few probes serve all the puzzles of a file) is far below it."""
    if spec.touch == "lazy":
        spec = spec._replace(touch="eager")
    colors, cells = len(puzzle.colors), cell_count(puzzle)
    if cells <= WORTH_IT * PROBE_WIDTH * (1 + PROBE_FREE_ROWS[-1]):  # the least a large
        return None  # probe can have (a row of dots): no need to make the probes to know
    if cells <= WORTH_IT * cell_count(probe(colors, PROBE_FREE_ROWS[-1])):
        return None
    more = -(-colors // BOUND_COLORS) * BOUND_COLORS
    if cap is not None and scaled(puzzle, spec, rules, more).mb * FAR_BELOW <= cap:
        return None
    return scaled(puzzle, spec, rules, colors)


def scaled(puzzle: Puzzle, spec: Spec, rules: Rules, colors: int) -> Size:
    """The puzzle's formula scaled from the probes of `colors` colors (the puzzle's, or more
    for a rough estimate): the `order` encoding numbers the cells along the paths in as many bits as
    the count of cells has: that part grows with cells x bits, the rest with the free
    cells."""
    cells = cell_count(puzzle)
    small, large = (probe(colors, rows) for rows in PROBE_FREE_ROWS)
    per_cell = ((cells - 2 * len(puzzle.colors) - free_cells(small))
                / (free_cells(large) - free_cells(small)))
    lazy = spec._replace(cycles="lazy") if spec.cycles == "order" else spec
    a, b = measured(lazy, colors, rules)
    counts = [x + (y - x) * per_cell for x, y in zip(a, b, strict=True)]
    if spec.cycles == "order":
        _, whole = measured(spec, colors, rules)
        scale = cells * cells.bit_length() / (cell_count(large) * cell_count(large).bit_length())
        counts = [n + (w - y) * scale for n, w, y in zip(counts, whole, b, strict=True)]
    return Size(*(max(x, round(n)) for x, n in zip(a, counts, strict=True)))


@cache
def measured(spec: Spec, colors: int, rules: Rules
             ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The counts of the two probes' formulas (once per encoding, colors and rule)."""
    return tuple(tuple(size_of(encode(probe(colors, rows), spec, rules)))
                 for rows in PROBE_FREE_ROWS)


@cache
def probe(colors: int, free_rows: int) -> Puzzle:
    """A board PROBE_WIDTH wide: the colors' dots in reading order (each color's second dot
    `colors` cells after its first), then `free_rows` rows of free cells."""
    cells = [chr(0x100 + k) for k in range(colors)] * 2
    rows = -(-len(cells) // PROBE_WIDTH) + free_rows
    cells += [EMPTY] * (rows * PROBE_WIDTH - len(cells))
    return Puzzle(tuple("".join(cells[r * PROBE_WIDTH:(r + 1) * PROBE_WIDTH])
                        for r in range(rows)))


def free_cells(puzzle: Puzzle) -> int:
    """The nodes without a dot."""
    return cell_count(puzzle) - 2 * len(puzzle.dots)


def size_of(formula: Encoding) -> Size:
    """The counts of a built formula."""
    clauses = formula.clauses
    return Size(formula.enc.top, len(clauses), sum(map(len, clauses)))


# Bytes a node of the board's graph takes while propagation runs (the board's and the
# encoder's tables, the link states and chains, the traced paths): measured on the
# 1002x1002 spirals (about 1 GB peak for 1,004,004 nodes), rounded up.
BYTES_PER_DEDUCED_NODE = 1200


def deduction_mb(puzzle: Puzzle) -> float:
    """The memory propagation first takes on this board, in MB (the residue formula is small
    beside it)."""
    return BYTES_PER_DEDUCED_NODE * cell_count(puzzle) / MB
