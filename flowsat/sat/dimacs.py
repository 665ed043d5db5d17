"""DIMACS CNF out, solver answers in: the bridge to SAT solvers outside this process."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from flowsat.sat.backend import Encoding


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
            literals += [int(w) for w in words[1:] if w != "0"]
        elif words[0] in ("SAT", "UNSAT") and len(words) == 1:
            answer = words[0] == "SAT"
            if answer and n + 1 < len(lines):
                literals = [int(w) for w in lines[n + 1].split() if w != "0"]
            break
    return answer, literals


def full_model(literals: list[int], nvars: int) -> list[int]:
    """A model as PySAT gives it (variable v at place v - 1); unlisted variables false."""
    model = [-v for v in range(1, nvars + 1)]
    for lit in literals:
        if 0 < abs(lit) <= nvars:
            model[abs(lit) - 1] = lit
    return model


def describe(formula: Encoding, allow_self_touch: bool) -> Iterator[str]:
    """The comment lines of an exported formula: the puzzle, the choices, every variable."""
    from flowsat import __version__

    puzzle, spec = formula.enc.puzzle, formula.spec
    yield f"flowsat {__version__}: {puzzle.name} ({puzzle.size}, {len(puzzle.colors)} colors)"
    yield (f"encoding {spec.name}: cells={spec.cells} links={spec.links} card={spec.card} "
           f"cycles={spec.cycles} deduce={str(spec.deduce).lower()} "
           f"unique={str(spec.unique).lower()}")
    yield "rule: " + ("paths may touch themselves" if allow_self_touch else
                      "no path touches itself side by side")
    yield "colors: " + " ".join(f"{k}={c}" for k, c in enumerate(puzzle.colors))
    if formula.unique:
        yield (f"variable {formula.unique} switches the uniqueness rule on; the last clause "
               f"fixes it true (drop it for the complete encoding)")
    yield ("cycles detached from the dots are not excluded by these clauses unless the "
           "encoding says cycles=order: cut them and solve again")
    for v, name in formula.enc.names():
        yield f"var {v} {name}"
