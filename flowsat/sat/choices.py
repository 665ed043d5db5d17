"""The registry of encoding-family choices: each one entry saying its family and name, what it
needs of the other families, whether a board compiled once can carry it, and (for a choice
that writes clauses of its own) the function that writes them. `spec.CHOICES`,
`Spec.problem()`, the printers and `formula.encode` are made from it.

Adding a choice is one `Choice` here plus its module: `cycles = "squares"` below is the
pattern (a function `(enc, links, rules)` that writes its clauses through the `Encoder`).
A choice whose connectivity lives in the solver (a propagator: `cycles = "propagator"`)
names, as `connect`, a function `(formula, solver) -> engine` that attaches its engine to the
PySAT solver before the first solve (`flowsat.sat.fresh.carried`); the engine's `stats` join
the search's. A choice that runs on one solver only names it (`solver`): it is the default
when no solver is given, and another one is a usage error (`wrong_solver`).
"""

from __future__ import annotations

from functools import lru_cache
from importlib import import_module
from typing import NamedTuple


class Choice(NamedTuple):
    """One choice of one family (a plain named tuple: light to import, read at every start)."""

    family: str
    name: str | bool
    needs: tuple[tuple[str, tuple], ...] = ()  # (family, the choices it may have) each
    compiles: bool = False  # whether a board compiled once carries it (`sat.compiled`)
    write: str = ""  # "module:function" writing its clauses, `(enc, links, rules)`
    make: str = ""  # "module:class" of a cells or links family (its clauses)
    connect: str = ""  # "module:function" attaching an engine, `(formula, solver) -> engine`
    solver: str = ""  # the one solver it runs on ("": any)
    otherwise: tuple[tuple[str, tuple], ...] = ()  # needs that do as well as `needs`

    def problem(self, chosen: dict[str, object]) -> str | None:
        """Why this choice does not go with the others chosen, if it does not."""
        wrong = [(family, allowed) for family, allowed in self.needs
                 if chosen[family] not in allowed]
        if not wrong or (self.otherwise and all(chosen[family] in allowed
                                                for family, allowed in self.otherwise)):
            return None
        (family, allowed), *_ = wrong
        if self.otherwise:
            return (f"{self.family} = {shown(self.name)} goes with {listed(self.needs)}, or "
                    f"with {listed(self.otherwise)}")
        if len(self.needs) == 1 and mutual(self, family, allowed):
            return (f"{self.family} = {shown(self.name)} goes with {family} = "
                    f"{shown(allowed[0])} and only with it")
        return f"{self.family} = {shown(self.name)} needs {listed(self.needs)}"


def listed(needs: tuple[tuple[str, tuple], ...]) -> str:
    """Needs as a spec's words: `links = 'edges' or 'edgecolors' and touch = 'eager'`."""
    parts = [f"{f} = " + " or ".join(map(shown, a)) for f, a in needs]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def shown(value: object) -> str:
    """A choice as a spec writes it."""
    return f"'{value}'" if isinstance(value, str) else str(value).lower()


def mutual(choice: Choice, family: str, allowed: tuple) -> bool:
    """Whether the one choice `choice` needs also needs it, and nothing else does."""
    if len(allowed) != 1:
        return False
    other = REGISTRY[family, allowed[0]]
    return other.needs == ((choice.family, (choice.name,)),)


EDGES, BINARY, LAZY = ("links", ("edges",)), ("cells", ("binary",)), ("cycles", ("lazy",))
CHOSEN = (
    Choice("cells", "onehot", make="flowsat.sat.cells:OneHot"),
    Choice("cells", "binary", compiles=True, make="flowsat.sat.cells:Binary"),
    Choice("cells", "none", (("links", ("edgecolors",)),), make="flowsat.sat.cells:NoCells",
           otherwise=(EDGES, ("cycles", ("propagator",)), ("touch", ("eager",)))),  # (colorless)
    Choice("links", "dirtypes", make="flowsat.sat.dirtypes:DirTypes"),
    Choice("links", "edges", compiles=True, make="flowsat.sat.links:Edges"),
    Choice("links", "edgecolors", (("cells", ("none",)),), make="flowsat.sat.links:EdgeColors"),
    Choice("card", "pairwise", compiles=True),  # the direct encoding (`sat.card`)
    *(Choice("card", method) for method in (  # `pysat.card`'s
        "seqcounter", "sortnetwrk", "cardnetwrk", "bitwise", "ladder", "totalizer",
        "mtotalizer", "kmtotalizer")),
    Choice("cycles", "lazy", compiles=True),  # cut as models show them (`sat.loop`)
    Choice("cycles", "squares", write="flowsat.sat.cycles:squares"),
    Choice("cycles", "order", (("links", ("edges", "edgecolors")),),
           write="flowsat.sat.cycles:order"),
    Choice("cycles", "propagator", (("links", ("edges", "edgecolors")),),  # inside CaDiCaL
           connect="flowsat.sat.connectivity:connect", solver="cadical195"),
    Choice("deduce", False, compiles=True),
    Choice("deduce", True, write="flowsat.sat.rules:deduced"),
    Choice("unique", False, compiles=True),
    Choice("unique", True, compiles=True),
    Choice("touch", "eager", compiles=True),
    Choice("touch", "lazy", (EDGES,), compiles=True),
    Choice("degree", "direct", compiles=True),
    Choice("degree", "turns", (EDGES, ("card", ("pairwise",))), compiles=True),
    Choice("codes", "bounded", compiles=True),
    Choice("codes", "free", (BINARY, LAZY), compiles=True),
    Choice("codes", "short", (BINARY, LAZY, EDGES, ("touch", ("lazy",))), compiles=True),
)
REGISTRY = {(c.family, c.name): c for c in CHOSEN}
FAMILIES: dict[str, tuple] = {}
for _choice in CHOSEN:
    FAMILIES[_choice.family] = (*FAMILIES.get(_choice.family, ()), _choice.name)


def chosen(spec: object) -> list[Choice]:
    """The spec's choice in each family, in the families' order."""
    return [REGISTRY[family, getattr(spec, family)] for family in FAMILIES]


def problem(spec: object) -> str | None:
    """Why a spec's choices do not fit together, if they do not (the first choice that says
    so, in the families' order)."""
    values = {family: getattr(spec, family) for family in FAMILIES}
    return next((p for c in chosen(spec) if (p := c.problem(values))), None)


def compiles(spec: object) -> bool:
    """Whether every choice of the spec can be carried by a board compiled once."""
    return all(c.compiles for c in chosen(spec))


def needed_solver(spec: object) -> str | None:
    """The one solver the spec's choices run on, if one of them needs one."""
    return next((c.solver for c in chosen(spec) if c.solver), None)


@lru_cache(maxsize=64)  # (asked by every search: a run's few specs and solvers)
def wrong_solver(spec: object, solver: str) -> str | None:
    """Why the spec's choices do not run on `solver` (a PySAT name), if they do not."""
    needing = next((c for c in chosen(spec) if c.solver not in ("", solver)), None)
    return needing and (f"{needing.family} = {shown(needing.name)} runs on --solver "
                        f"{needing.solver} only, not {solver}")


def line(spec: object) -> str:
    """The spec's choices as `family=choice` words (`flowsat encodings`, DIMACS comments)."""
    return " ".join(f"{c.family}={str(c.name).lower()}" for c in chosen(spec))


def loaded(target: str):
    """The function or class a choice names (`module:name`), imported now."""
    module, _, name = target.partition(":")
    return getattr(import_module(module), name)
