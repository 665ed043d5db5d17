"""The route of a puzzle's own formula (`formula.encode`) on a solver of its own, as the loop
takes it (`flowsat.sat.loop.Route`): models traced from the dots (`decode.trace`), cycles cut
(`links.cut`), lazy no-self-touch clauses stated where a model touches, short color codes made
longer where a model joins two colors.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from flowsat.puzzle.model import Cell, Paths
from flowsat.result import UsageError
from flowsat.sat.choices import chosen, loaded, shown
from flowsat.sat.decode import BrokenModel, trace
from flowsat.sat.formula import Encoding
from flowsat.sat.loop import Budget, Decoded
from flowsat.sat.oracle import FromScratch, Oracle


class Fresh:
    """The puzzle's formula on its solver (`Oracle`, or one under a `Budget`): the uniqueness
    rule assumed while it may be relaxed (one solution looked for, none known)."""

    def __init__(self, formula: Encoding, sat: Oracle | FromScratch | Budget,
                 deadline: float | None, stats: dict, limit: int, known: Sequence[Paths]):
        self.formula, self.sat, self.deadline, self.stats = formula, sat, deadline, stats
        self.assumptions = [formula.unique] if formula.unique else []
        self.relaxes = limit == 1 and not known

    def solve(self) -> bool | None:
        return self.sat.solve(self.deadline, self.assumptions)

    def model(self) -> list[int]:
        return self.sat.model()

    def decode(self, model: list[int]) -> Decoded | None:
        """The model traced from the dots; None where short color codes join two colors
        (one more bit stated: solve again)."""
        f = self.formula
        try:
            traced = trace(f.enc, f.links.links(model))
        except BrokenModel:  # short color codes join two colors: one more bit, or a bug
            if not (longer := f.complete_codes(1)):
                raise
            self.sat.extend(longer)
            self.stats["code_completions"] = self.stats.get("code_completions", 0) + 1
            return None
        touching = (f.links.touching(traced.colors(f.enc.size), model) if f.lazy_touch
                    else [])
        return Decoded(traced.paths, traced.cycles, touching)

    def cuts(self, decoded: Decoded, model: list[int]) -> list[list[int]]:
        f = self.formula
        return [f.links.cut(c, model) for c in decoded.cycles] + f.differ(decoded.touching)

    def add(self, clauses: list[list[int]]) -> None:
        for clause in clauses:
            self.sat.add(clause)

    def block(self, model: list[int]) -> None:
        self.sat.add(self.formula.links.block(model))

    def relax(self) -> bool:
        """The uniqueness rule off, and the no-self-touch clauses all stated (without the
        corner rule, models touch all over)."""
        if not (self.assumptions and self.relaxes):
            return False
        self.assumptions = []
        self.add(self.formula.state_lazy_touch())
        return True

    def cells(self, cycles: list[list[int]]) -> list[list[Cell]]:
        return [[self.formula.enc.cell(i) for i in c] for c in cycles]


def carried(formula: Encoding, sat: Oracle | FromScratch) -> object | None:
    """What the encoding's choices attach to the solver before its first solve, attached now
    (None: nothing). A choice's `connect(formula, solver)` gets the PySAT solver, attaches its
    engine (`solver.connect_propagator`, `solver.observe` of its variables: a
    `pysat.engines.Propagator`) and returns it; its `stats` dict, if it has one, joins the
    search's stats when the search ends (`Search.by_formula`)."""
    for choice in chosen(formula.spec):
        if not choice.connect:
            continue
        if not isinstance(sat, Oracle):
            raise UsageError(f"{choice.family} = {shown(choice.name)} needs a PySAT solver, "
                             f"not {sat.name}")
        try:
            return loaded(choice.connect)(formula, sat.solver)
        except NotImplementedError as err:  # PySAT: a solver without IPASIR-UP
            raise UsageError(f"{choice.family} = {shown(choice.name)} on {sat.name}: {err}"
                             ) from None
    return None


def block_known(formula: Encoding, sat: Oracle, paths: Paths) -> None:
    """Rule out a solution known beforehand: its model, found with its links (and no other)
    assumed through a selector variable, is blocked as a found one is. ValueError if it is
    no solution."""
    enc = formula.enc
    linked = {(min(i, j), max(i, j)) for path in paths.values()
              for i, j in pairwise(enc.path_nodes(path))}
    if not linked <= set(enc.edges):
        raise ValueError(f"{enc.puzzle.name}: the known paths are not a solution")
    selector = enc.new_var("known solution", len(enc.blocks))
    for i, j in enc.edges:
        lits = formula.links.linked(i, j)
        for clause in [lits] if (i, j) in linked else [[-x] for x in lits]:
            sat.add([-selector, *clause])
    if sat.solve(None, [selector]) is not True:
        raise ValueError(f"{enc.puzzle.name}: the known paths are not a solution")
    sat.add(formula.links.block(sat.model()))
    sat.add([-selector])
