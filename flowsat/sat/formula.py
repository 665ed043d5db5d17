"""A puzzle's formula: its CNF, made by the encoding's clause families (`encode`), and what
reads its models and adds clauses to it as the search goes (`Encoding`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import DEFAULT_RULES, Rules
from flowsat.sat import rules as board_rules
from flowsat.sat.choices import REGISTRY, loaded
from flowsat.sat.encoder import Encoder
from flowsat.sat.options import LEAN_FROM
from flowsat.sat.spec import Spec, load_spec

if TYPE_CHECKING:
    from flowsat.sat.dirtypes import DirTypes
    from flowsat.sat.links import Edges

WRITTEN = ("deduce", "cycles")  # the families whose choices write clauses, in this order


class Encoding:
    """A puzzle's CNF, the families that know how to read its models, and the variable that
    switches the uniqueness rule on (0 when the encoding has none). (A plain class: making a
    dataclass costs every start its making: docs/performance.md.)"""

    def __init__(self, spec: Spec, enc: Encoder, cells: object,
                 links: DirTypes | Edges, unique: int = 0, lazy_touch: bool = False):
        self.spec, self.enc, self.cells, self.links = spec, enc, cells, links
        self.unique = unique
        self.lazy_touch = lazy_touch  # the no-self-touch clauses come where a model touches
        self.stated: set[tuple[int, int, int]] = set()  # touches ruled out so far

    @property
    def clauses(self) -> list[list[int]]:
        return self.enc.clauses

    def differ(self, pairs: list[tuple[int, int, int]]) -> list[list[int]]:
        """The clauses for lit -> color(i) != color(j), for each (i, j, lit) not stated
        yet, made now."""
        pairs = [p for p in pairs if p not in self.stated]
        if not pairs:
            return []
        self.stated.update(pairs)
        start = len(self.enc.clauses)
        self.cells.differ(pairs)
        return self.enc.clauses[start:]

    def complete_codes(self, more: int | None = None) -> list[list[int]]:
        """The clauses that make short color codes `more` bits longer (None: whole), made
        now (none: whole already)."""
        start = len(self.enc.clauses)
        getattr(self.cells, "complete", lambda more: None)(more)
        return self.enc.clauses[start:]

    def state_lazy_touch(self) -> list[list[int]]:
        """The no-self-touch clauses not stated yet, all at once, made now (none when the
        touch family is eager); from then on the formula is complete for the rule."""
        if not self.lazy_touch:
            return []
        self.lazy_touch = False
        return self.differ(self.links.apart())


def encode(puzzle: Puzzle, spec: Spec | str, rules: Rules = DEFAULT_RULES) -> Encoding:
    """The CNF of a puzzle under a named encoding (or a spec)."""
    spec = load_spec(spec) if isinstance(spec, str) else spec
    enc = Encoder(puzzle, spec.card, rules)
    # lazy no-self-touch clauses count on the corner rule to keep models from touching; where
    # it is never written (hexagonal boards, cells that may stay empty) they come up front,
    # and with them whole color codes
    lazy_touch = (spec.touch == "lazy" and not rules.self_touch
                  and board_rules.corners_written(enc))
    lean = cell_count(puzzle) >= LEAN_FROM  # turns and short codes: worth their tables
    codes = "free" if spec.codes == "short" and not (lazy_touch and lean) else spec.codes
    cell_family = loaded(REGISTRY["cells", spec.cells].make)(
        enc, **({"codes": codes} if codes != "bounded" else {}))
    link_family = loaded(REGISTRY["links", spec.links].make)(
        enc, cell_family, rules, **({"lazy_touch": True} if lazy_touch else {}),
        **({"degree": spec.degree} if spec.degree != "direct" and lean else {}))
    for family in WRITTEN:
        if write := REGISTRY[family, getattr(spec, family)].write:
            loaded(write)(enc, link_family, rules)
    switch = 0
    if spec.unique and not rules.self_touch:
        switch = enc.new_var("uniqueness rule on", True)
        enc.clauses += board_rules.corner_rules(enc, link_family, switch)
        enc.clauses += board_rules.empty_corner_rules(enc, link_family, switch)
    return Encoding(spec, enc, cell_family, link_family, switch, lazy_touch)


def cell_count(puzzle: Puzzle) -> int:
    """The nodes of the board's graph: its cells, a bridge counting twice (two passes)."""
    board = puzzle.board
    return board.size - len(board.holes) + len(board.bridges)
