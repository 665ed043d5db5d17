"""What a puzzle's formula will cost before it is built: the same encoding on two small boards
with the puzzle's colors (its dots packed in the top rows, then 2 or 4 free rows), and the
cost of a free cell taken from their difference, times the puzzle's free cells."""

from __future__ import annotations

from dataclasses import astuple, dataclass, replace

from flowsat.puzzle.model import EMPTY, Puzzle
from flowsat.sat.spec import Spec

PROBE_WIDTH = 12
PROBE_FREE_ROWS = (2, 4)
WORTH_IT = 4  # boards up to this many times the larger probe are built without an estimate
# Bytes a formula takes built and loaded into CaDiCaL 1.9.5 (Glucose 4 takes less): fitted on
# resident sizes measured on five encodings of a 30x30 and a 50x50 board, within 17%.
BYTES_PER_CLAUSE = 150
BYTES_PER_LITERAL = 52
BYTES_PER_VARIABLE = 320
MB = 1 << 20


@dataclass(frozen=True)
class Size:
    """A formula's counts, exact or estimated."""

    variables: int
    clauses: int
    literals: int

    @property
    def mb(self) -> float:
        """The memory the formula takes, built and loaded into a solver, in MB."""
        return (BYTES_PER_CLAUSE * self.clauses + BYTES_PER_LITERAL * self.literals
                + BYTES_PER_VARIABLE * self.variables) / MB


def formula_size(puzzle: Puzzle, spec: Spec, allow_self_touch: bool) -> Size | None:
    """The formula's estimated size, None for a board that is cheaper to build than to
    estimate; lazy no-self-touch clauses count as if all were stated (a fall-back states
    them all)."""
    from flowsat.sat.backend import encode

    if spec.touch == "lazy":
        spec = replace(spec, touch="eager")
    colors = len(puzzle.colors)
    small, large = (probe(colors, rows) for rows in PROBE_FREE_ROWS)
    if cell_count(puzzle) <= WORTH_IT * cell_count(large):
        return None
    cells = cell_count(puzzle)
    per_cell = cells - 2 * colors - free_cells(small)
    step = free_cells(large) - free_cells(small)

    def measured(spec: Spec) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return tuple(astuple(size_of(encode(p, spec, allow_self_touch))) for p in (small, large))

    lazy = replace(spec, cycles="lazy") if spec.cycles == "order" else spec
    a, b = measured(lazy)
    counts = [x + (y - x) * per_cell / step for x, y in zip(a, b, strict=True)]
    if spec.cycles == "order":  # cells numbered along the paths: bits as many as the cells'
        _, whole = measured(spec)  # count has, so that part grows with cells x bits
        scale = cells * cells.bit_length() / (cell_count(large) * cell_count(large).bit_length())
        counts = [n + (w - y) * scale for n, w, y in zip(counts, whole, b, strict=True)]
    return Size(*(max(x, round(n)) for x, n in zip(a, counts, strict=True)))


def probe(colors: int, free_rows: int) -> Puzzle:
    """A board PROBE_WIDTH wide: the colors' dots in reading order (each color's second dot
    `colors` cells after its first), then `free_rows` rows of free cells."""
    cells = [chr(0x100 + k) for k in range(colors)] * 2
    rows = -(-len(cells) // PROBE_WIDTH) + free_rows
    cells += [EMPTY] * (rows * PROBE_WIDTH - len(cells))
    return Puzzle(tuple("".join(cells[r * PROBE_WIDTH:(r + 1) * PROBE_WIDTH])
                        for r in range(rows)))


def cell_count(puzzle: Puzzle) -> int:
    return puzzle.width * puzzle.height


def free_cells(puzzle: Puzzle) -> int:
    return sum(row.count(EMPTY) for row in puzzle.rows)


def size_of(formula) -> Size:
    """The counts of a built formula."""
    clauses = formula.clauses
    return Size(formula.enc.top, len(clauses), sum(map(len, clauses)))
