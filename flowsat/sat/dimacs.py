"""DIMACS CNF out, solver answers in: the bridge to SAT solvers outside this process."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from flowsat.puzzle.rules import Rules
    from flowsat.sat.formula import Encoding

LITERAL = re.compile(r"-?[0-9]+")


def write_dimacs(out: IO[str], clauses: list[list[int]], nvars: int,
                 comments: Iterable[str] = ()) -> None:
    """`c` comment lines, the `p cnf` header, one clause a line."""
    out.writelines(f"c {line}\n" for line in comments)
    out.write(f"p cnf {nvars} {len(clauses)}\n")
    out.writelines(" ".join(map(str, clause)) + " 0\n" for clause in clauses)


def read_answer(text: str, exit_code: int | None = None) -> tuple[bool | None, list[int]]:
    """A solver's answer: True (with the literals of its model), False, or None (unknown).

    Reads the SAT competition output (`s SATISFIABLE`, `v` lines) or MiniSat's result file
    (`SAT` and the literals on the next line); without either, exit status 10 means
    satisfiable and 20 unsatisfiable, as the competitions have it.
    """
    answer: bool | None = {10: True, 20: False}.get(exit_code)
    literals: list[int] = []
    lines = text.splitlines()
    for n, line in enumerate(lines):
        words = line.split()
        if not words:
            continue
        if words[0] == "s" and len(words) > 1:
            answer = {"SATISFIABLE": True, "UNSATISFIABLE": False}.get(words[1])
        elif words[0] == "v":
            literals += literals_of(words[1:])
        elif words[0] in ("SAT", "UNSAT") and len(words) == 1:
            answer = words[0] == "SAT"
            if answer and n + 1 < len(lines):
                literals = literals_of(lines[n + 1].split())
            break
    return answer, literals


def literals_of(words: list[str]) -> list[int]:
    """The literals of a model line (its closing 0 dropped); ValueError for a word that is
    not one."""
    bad = next((w for w in words if not LITERAL.fullmatch(w)), None)
    if bad is not None:
        raise ValueError(f"{bad[:20]!r} is not a literal")
    return [int(w) for w in words if w != "0"]


def full_model(literals: list[int], nvars: int) -> list[int]:
    """A model as PySAT gives it (variable v at place v - 1); unlisted variables false."""
    model = [-v for v in range(1, nvars + 1)]
    for lit in literals:
        if 0 < abs(lit) <= nvars:
            model[abs(lit) - 1] = lit
    return model


def left_out(formula: Encoding) -> str | None:
    """What the exported clauses leave out of the puzzle's rules, if anything."""
    if formula.spec.cycles == "order":
        return None
    if formula.spec.cells == "none" and formula.spec.links == "edges":  # (the propagator's)
        return ("not complete: degrees only; cycles, colors joined and (without "
                "--allow-self-touch) touching are the propagator's (cycles=propagator)")
    return (f"not complete: cycles detached from the dots are not excluded (cycles="
            f"{formula.spec.cycles}): a model may hold some; cut them and solve again, or "
            f"export with --encoding NAME+cycles=order for a complete formula")


def describe(formula: Encoding, rules: Rules) -> Iterator[str]:
    """The comment lines of an exported formula: the puzzle, the choices, every variable."""
    from flowsat import __version__

    puzzle, spec = formula.enc.puzzle, formula.spec
    yield (f"flowsat {__version__}: {puzzle.name} ({puzzle.size} {puzzle.kind}, "
           f"{len(puzzle.colors)} colors)")
    yield f"encoding {spec.name}: {spec.choices}"
    yield "rule: " + ("paths may touch themselves" if rules.self_touch else
                      "no path touches itself side by side")
    yield "cells: " + ("every cell is covered" if rules.fill_all else "cells may stay empty")
    if formula.enc.second:
        yield "bridges (cell: node across, node up and down): " + ", ".join(
            f"{formula.enc.cell(b)}: {b} {n}" for b, n in formula.enc.second.items())
    yield "colors: " + " ".join(f"{k}={c}" for k, c in enumerate(puzzle.colors))
    if formula.unique:
        yield (f"variable {formula.unique} switches the uniqueness rule on; the last clause "
               f"fixes it true (drop it for the complete encoding)")
    if formula.spec.touch == "lazy" and not rules.self_touch:
        yield "every no-self-touch clause is stated (a solve adds them lazily, where needed)"
    yield left_out(formula) or "complete: every solution rule is stated (cycles=order)"
    for v, name in formula.enc.names():
        yield f"var {v} {name}"
