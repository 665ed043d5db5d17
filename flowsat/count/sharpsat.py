"""The sharp-sat counter: projected model counting of flowsat's own CNF with Ganak (`pyganak`,
the optional extra `flowsat[count]`).

Only an encoding that rules out cycles in the formula itself counts solutions: one that cuts
them lazily (every named encoding but those with `cycles = "order"`) has models with cycles
that the search would cut later, so its count is too high. The order encoding numbers cells
increasingly along each path; a solution has many numberings (any increasing one), and each
link has a direction and each empty cell free color bits, so the models are counted projected
onto the link variables: the solutions are exactly the link sets that have a model. The
uniqueness (corner) rule is left out: it holds for every solution without self-touch, so it
would not change the count, but it is no part of the rules. Ganak runs in a child process,
so that a timeout or the memory cap ends it (a C call cannot be interrupted)."""

from __future__ import annotations

import os
import resource
import select
import time
from dataclasses import dataclass

from flowsat.count.child import answer, ended, forked
from flowsat.count.contract import Count, Limits, Progress
from flowsat.memory import cap_mb
from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import Rules

ENCODING = "edges-binary+cycles=order+unique=false"


@dataclass(frozen=True)
class SharpSat:
    """Counts the models of the order encoding, projected onto the links (see the module)."""

    encoding: str = ENCODING
    name = "sharp-sat"
    summary = "projected model counting of the order encoding with Ganak (flowsat[count])"

    def refuses(self, puzzle: Puzzle, rules: Rules) -> str | None:
        try:
            import pyganak  # noqa: F401
        except ImportError:
            return "pyganak is not installed (pip install 'flowsat[count]')"
        from flowsat.sat.spec import load_spec

        spec = load_spec(self.encoding)
        if spec.cycles != "order" or spec.links != "edges":
            return (f"encoding {spec.name} cuts cycles lazily (cycles = {spec.cycles!r}) or has "
                    f"no edge variables: its models are no count of solutions")
        return None

    def count(self, puzzle: Puzzle, rules: Rules, limits: Limits, limit: int | None = None,
              progress: Progress | None = None) -> Count:
        from flowsat.sat.formula import encode

        start = time.perf_counter()
        formula = encode(puzzle, self.encoding, rules)
        project = [int(v) for v in formula.links.var_array]
        stats = {"encoding": self.encoding, "variables": formula.enc.top,
                 "clauses": len(formula.clauses), "projected": len(project),
                 "encode_s": round(time.perf_counter() - start, 6)}
        left = None if limits.timeout is None else max(
            limits.timeout - (time.perf_counter() - start), 0.01)
        value, status = counted(formula.clauses, formula.enc.top, project, left,
                                cap_mb(limits.max_memory))
        stats["total_s"] = round(time.perf_counter() - start, 6)
        return Count(value or 0, status == "counted", status, stats)


def counted(clauses: list[list[int]], top: int, project: list[int], timeout: float | None,
            max_mb: float) -> tuple[int | None, str]:
    """Ganak's projected count in a forked child (`count.child`): (count, "counted"), or
    (None, "timeout") past the timeout, (None, "limit") when it ran out of memory."""
    read, pid = forked(lambda: ganak(clauses, top, project, max_mb))
    try:
        ready, _, _ = select.select([read], [], [], timeout)
        if not ready:
            os.close(read)
            return None, "timeout"
        try:
            found = answer(read)
        except EOFError:  # it died: the memory cap (or a crash, told as the same)
            return None, "limit"
        if isinstance(found, BaseException):
            raise found
        return found, "counted"
    finally:
        ended(pid)


def ganak(clauses: list[list[int]], top: int, project: list[int], max_mb: float) -> int:
    """The child's work: Ganak's count (its chatter on stdout silenced)."""
    import pyganak

    resource.setrlimit(resource.RLIMIT_AS, (int(max_mb * 2**20), resource.RLIM_INFINITY))
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    counter = pyganak.Counter()
    counter.new_vars(top)
    counter.add_clauses(clauses)
    counter.set_sampling_set(project)
    return counter.count()


COUNTER = SharpSat()
