"""The SAT backend: compile a puzzle to CNF, solve it with a PySAT solver, cut cycles, decode.

Cycles detached from the dots satisfy the local clauses; each model is traced from the dots,
the cells left over form cycles, each cycle is cut by a clause added to the same solver
instance, and the solver runs again (incrementally: nothing is rebuilt or reloaded).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from weakref import WeakKeyDictionary

import numpy as np

from flowsat.memory import cap_mb, collector_paused, shown
from flowsat.puzzle.model import Cell, Paths, Puzzle
from flowsat.puzzle.rules import DEFAULT_RULES, Rules
from flowsat.result import Result, UsageError
from flowsat.sat import cells, compiled, links, residue
from flowsat.sat import rules as board_rules
from flowsat.sat.cycles import order
from flowsat.sat.deduce import OFF, ON, RESIDUE_SHARE, Propagation, corners_hold, counts, propagated
from flowsat.sat.encoder import Encoder
from flowsat.sat.estimate import Size, cell_count, deduction_mb, formula_size, size_of
from flowsat.sat.options import DEDUCE_FROM, DEFAULT_ENCODING, DEFAULT_SOLVER, LEAN_FROM
from flowsat.sat.oracle import FromScratch, Oracle, open_oracle, solver_name
from flowsat.sat.spec import Spec, load_spec

Observer = Callable[[str, Paths, list[list[Cell]]], None]  # (event, paths, cycles)


class BrokenModel(AssertionError):
    """A model whose links do not form paths from the dots: a bug in an encoding."""


@dataclass
class Encoding:
    """A puzzle's CNF, the families that know how to read its models, and the variable that
    switches the uniqueness rule on (0 when the encoding has none)."""

    spec: Spec
    enc: Encoder
    cells: object
    links: links.DirTypes | links.Edges
    unique: int = 0
    lazy_touch: bool = False  # the no-self-touch clauses come where a model touches
    stated: set[tuple[int, int, int]] = field(default_factory=set)  # touches ruled out so far

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
    cell_family = cells.FAMILIES[spec.cells](enc, **({"codes": codes} if codes != "bounded"
                                                     else {}))
    link_family = links.FAMILIES[spec.links](enc, cell_family, rules,
                                             **({"lazy_touch": True} if lazy_touch else {}),
                                             **({"degree": spec.degree} if spec.degree
                                                != "direct" and lean else {}))
    if spec.deduce:
        enc.clauses += board_rules.deductions(enc, link_family, rules)
    if spec.cycles == "squares":
        enc.clauses += board_rules.no_squares(enc, link_family, rules)
    elif spec.cycles == "order":
        order(enc, link_family)
    switch = 0
    if spec.unique and not rules.self_touch:
        switch = enc.new_var("uniqueness rule on", True)
        enc.clauses += board_rules.corner_rules(enc, link_family, switch)
    return Encoding(spec, enc, cell_family, link_family, switch, lazy_touch)


def solve(puzzle: Puzzle, *, rules: Rules = DEFAULT_RULES, timeout: float | None = None,
          encoding: str = DEFAULT_ENCODING, solver: str = DEFAULT_SOLVER,
          observe: Observer | None = None, max_memory: float | None = None,
          deduce: str | bool | None = None) -> Result:
    """A solution of the puzzle, or why there is none."""
    return search(puzzle, 1, rules=rules, timeout=timeout, encoding=encoding, solver=solver,
                  observe=observe, max_memory=max_memory, deduce=deduce)[0]


@collector_paused()
def search(puzzle: Puzzle, limit: int, *, rules: Rules = DEFAULT_RULES,
           timeout: float | None = None, encoding: str = DEFAULT_ENCODING,
           solver: str = DEFAULT_SOLVER, observe: Observer | None = None,
           known: Sequence[Paths] = (), max_conflicts: int | None = None,
           max_memory: float | None = None, deduce: str | bool | None = None
           ) -> tuple[Result, list[Paths]]:
    """Up to `limit` distinct solutions, each one blocked before the next is looked for.

    With limit > 1 the stats say how many were found (`solutions`) and whether the search ran
    out of solutions (`exhausted`), so that one solution and `exhausted` means it is unique.
    `known` solutions are blocked before the search and not counted: with one known solution,
    `unsolvable` proves it unique. An encoding with the uniqueness rule looking for one
    solution solves with it first and, finding nothing, again without it (`route` in the
    stats says which answered); counting and proofs keep it on with no fall-back, as every
    solution obeys it (it follows from the no-self-touch rule: see `rules.corner_rules`).
    `max_conflicts` bounds the solver's conflicts over the whole search (status `limit`): a
    budget that, unlike a timeout, ends the same way on every machine. `observe("model",
    paths, cycles)` is called with each model that has cycles, before they are cut (for
    animations). A formula whose estimate (then whose built size) passes `max_memory` MB
    (default: `memory.default_cap_mb()`) is not built (not loaded): status `limit`.
    """
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout
    name = solver_name(solver, timeout)
    spec, cap = load_spec(encoding), cap_mb(max_memory)
    config = {"encoding": spec.name, "solver": name}
    forced = None
    if deducing(deduce, puzzle, rules):
        needed = deduction_mb(puzzle)
        if needed > cap:
            return over_cap_text(f"propagation would need about {shown(needed)}", needed, cap,
                                 start, config), []
        forced = first_deduce(puzzle, rules, deadline)
        config["deduce"] = True
        if forced.residue is not None or forced.propagation is None:
            return by_deduction(forced, limit, name, deadline, known, max_conflicts, start,
                                config)
    if forced is None and (done := compiled.attempt(puzzle, limit, spec, rules, name, cap, trace,
                                                    deadline, known, max_conflicts, observe)):
        return finished(*done, start, config)
    estimate = formula_size(puzzle, spec, rules, cap)
    if estimate is not None and estimate.mb > cap:
        return over_cap(estimate, cap, "would need about", start, config), []
    formula = encode(puzzle, spec, rules)
    if forced is not None:
        formula.enc.clauses += fixed(formula, forced.propagation.state)
    built = size_of(formula)
    if built.mb > cap:
        return over_cap(built, cap, "needs", start, config), []
    stats = {"variables": formula.enc.top, "clauses": len(formula.clauses), "cycle_cuts": 0,
             "rounds": 0, "encode_s": time.perf_counter() - start, "solve_s": 0.0,
             "decode_s": 0.0, **(forced.stats if forced else {})}
    assumptions = [formula.unique] if formula.unique else []
    found: list[Paths] = []
    loading = time.perf_counter()
    with open_oracle(name, formula.clauses) as sat:
        stats["load_s"] = time.perf_counter() - loading
        for paths in known:
            block_known(formula, sat, paths)
        oracle = sat if max_conflicts is None else Budget(sat, max_conflicts)
        while len(found) < limit:
            answer, paths, model = next_solution(formula, oracle, deadline, stats, observe,
                                                 assumptions)
            if answer is False and assumptions and limit == 1 and not known:  # fall back
                assumptions = []
                for clause in formula.state_lazy_touch():  # without the corner rule,
                    sat.add(clause)                         # models touch all over
                continue
            if answer is not True:
                break
            found.append(paths)
            if len(found) < limit:
                sat.add(formula.links.block(model))
        stats.update(sat.stats())
        out_of_budget = max_conflicts is not None and oracle.left() <= 0
    if formula.unique and limit == 1 and not known:
        stats["route"] = "uniqueness rule" if assumptions else "complete"
    formula.enc.clauses = []  # freed now: the cycle collector would (its names point back)
    return finished(answer, found, limit, out_of_budget, stats, start, config)


def finished(answer: bool | None, found: list[Paths], limit: int, out_of_budget: bool,
             stats: dict, start: float, config: dict) -> tuple[Result, list[Paths]]:
    """The result of a search that ended with `answer` (False: no more solutions, None:
    stopped) and the solutions found."""
    if limit > 1:
        stats.update(solutions=len(found), exhausted=answer is False)
    stats["total_s"] = time.perf_counter() - start
    stats = {k: round(v, 6) if isinstance(v, float) else v for k, v in stats.items()}
    stopped = "limit" if out_of_budget else "timeout"
    if answer is None and limit > 1:
        stats["stopped"] = stopped
    status = "solved" if found else "unsolvable" if answer is False else stopped
    return Result(status, found[0] if found else None, stats=stats, config=config), found


@dataclass
class Forced:
    """What propagation first found: the finished propagation (None: a contradiction), the
    residue formula when the residue is small enough to go alone (else None: the encoding
    goes, with the forced links as units), and the stats."""

    propagation: Propagation | None
    residue: residue.Residue | None
    stats: dict


def first_deduce(puzzle: Puzzle, rules: Rules, deadline: float | None = None) -> Forced:
    """Propagate, then make the residue formula if the residue is small (RESIDUE_SHARE)."""
    t = time.perf_counter()
    p = propagated(Encoder(puzzle, rules=rules), deadline)
    res = None
    if p is not None:
        state = np.frombuffer(p.state, dtype=np.uint8)
        if counts(state)["undecided"] <= RESIDUE_SHARE * len(state):
            try:
                res = residue.residue(p)
            except residue.NoSolution:
                p = None
    stats = {"deduce_s": time.perf_counter() - t,
             **(counts(np.frombuffer(p.state, dtype=np.uint8)) if p else {"deduced": "unsolvable"})}
    return Forced(p, res, stats)


def fixed(formula: Encoding, state: bytearray) -> list[list[int]]:
    """The forced links as clauses of the encoding: each made link's literals (one clause:
    linked), each left-out link's negated (units)."""
    clauses: list[list[int]] = []
    for (i, j), s in zip(formula.enc.edges, state, strict=True):
        if s == ON:
            clauses.append(formula.links.linked(i, j))
        elif s == OFF:
            clauses += [[-x] for x in formula.links.linked(i, j)]
    return clauses


def deducing(deduce: str | bool | None, puzzle: Puzzle, rules: Rules) -> bool:
    """Whether to propagate first: on, off, or auto (None: on boards of DEDUCE_FROM cells or
    more where the corner rule holds, where the numpy rounds run)."""
    if isinstance(deduce, bool):
        return deduce
    if deduce in (None, "auto"):  # large boards where the numpy rounds run (they pay there)
        return cell_count(puzzle) >= DEDUCE_FROM and corners_hold(puzzle.board, rules)
    if deduce not in ("on", "off"):
        raise UsageError(f"--deduce: {deduce!r} is not on, off or auto")
    return deduce == "on"


def by_deduction(forced: Forced, limit: int, name: str, deadline: float | None,
                 known: Sequence[Paths], max_conflicts: int | None, start: float,
                 config: dict) -> tuple[Result, list[Paths]]:
    """`search` by propagation first and the residue formula (or none: a contradiction)."""
    stats = {"cycle_cuts": 0, "rounds": 0, "solve_s": 0.0, "decode_s": 0.0, **forced.stats}
    budget = None if max_conflicts is None else (lambda sat: Budget(sat, max_conflicts))
    answer, found = False, []
    if forced.propagation is not None:
        answer, found = residue.search(forced.propagation, forced.residue, limit, name,
                                       deadline, stats, list(known), budget)
    out_of_budget = stats.pop("out_of_budget", False)
    return finished(answer, found, limit, out_of_budget, stats, start, config)


def over_cap_text(text: str, mb: float, cap: float, start: float, config: dict) -> Result:
    """Status `limit`: what would pass the memory cap."""
    return Result("limit", stats={"memory_mb": round(mb, 1),
                                  "total_s": round(time.perf_counter() - start, 6)},
                  error=f"{text}, above the memory cap of {shown(cap)} (--max-memory)",
                  config=config)


def over_cap(size: Size, cap: float, needs: str, start: float, config: dict) -> Result:
    """Status `limit` for a formula above the memory cap, saying what it would take."""
    return over_cap_text(f"the formula {needs} {shown(size.mb)} ({size.variables:,} variables, "
                         f"{size.clauses:,} clauses, {size.literals:,} literals)", size.mb, cap,
                         start, config)


def next_solution(formula: Encoding, sat: Oracle | FromScratch, deadline: float | None, stats: dict,
                  observe: Observer | None = None, assumptions: list[int] = ()
                  ) -> tuple[bool | None, Paths | None, list[int] | None]:
    """Solve, cutting the cycles of each model (and, when the no-self-touch clauses are
    lazy, adding them where the model touches), until a model of right paths only (True,
    its paths, the model), no model (False) or the deadline (None)."""
    while True:
        t = time.perf_counter()
        answer = sat.solve(deadline, assumptions)
        stats["solve_s"] += time.perf_counter() - t
        stats["rounds"] += 1
        if answer is not True:
            return answer, None, None
        t = time.perf_counter()
        model = sat.model()
        try:
            traced = trace(formula.enc, formula.links.links(model))
        except BrokenModel:  # short color codes join two colors: one more bit, or a bug
            stats["decode_s"] = stats.get("decode_s", 0.0) + time.perf_counter() - t
            if not (longer := formula.complete_codes(1)):
                raise
            sat.extend(longer)
            stats["code_completions"] = stats.get("code_completions", 0) + 1
            continue
        paths, cycles = traced.paths, traced.cycles
        touching = (formula.links.touching(traced.colors(formula.enc.size), model)
                    if formula.lazy_touch else [])
        stats["decode_s"] = stats.get("decode_s", 0.0) + time.perf_counter() - t
        if not cycles and not touching:
            return True, paths, model
        if observe and cycles:
            observe("model", paths, [[formula.enc.cell(i) for i in c] for c in cycles])
        cuts = [formula.links.cut(c, model) for c in cycles] + formula.differ(touching)
        if not cuts:
            raise BrokenModel(f"{formula.enc.puzzle.name}: a model breaks a stated touch")
        for clause in cuts:
            sat.add(clause)
        stats["cycle_cuts"] += len(cycles)
        if touching:
            stats["touch_cuts"] = stats.get("touch_cuts", 0) + len(touching)


class Budget:
    """An oracle whose calls share a conflict limit: `solve` answers None once it is spent
    (or, looked at between calls only, once the deadline has passed)."""

    def __init__(self, sat: Oracle, conflicts: int):
        if not isinstance(sat, Oracle):
            raise UsageError(f"solver {sat.name} takes no conflict limit")
        self.sat, self.end = sat, sat.stats().get("conflicts", 0) + conflicts

    def __getattr__(self, name: str):  # add, model, stats: the oracle's own
        return getattr(self.sat, name)

    def left(self) -> int:
        return self.end - self.sat.stats().get("conflicts", 0)

    def solve(self, deadline: float | None = None, assumptions: list[int] = ()
              ) -> bool | None:
        if self.left() <= 0 or (deadline is not None and time.perf_counter() > deadline):
            return None
        return self.sat.solve_within(self.left(), assumptions)


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


@dataclass
class Traced:
    """A model's links read back: the paths from each color's first dot (a bridge's pass as
    its cell), the cycles (nodes, each in order along it: the linked nodes no path reaches),
    and the paths' nodes, one path after another, with each path's length."""

    paths: Paths
    cycles: list[list[int]]
    nodes: list[int]
    lengths: list[int]

    def colors(self, size: int) -> np.ndarray:
        """Each node's path (its color's index), -1 where no path goes."""
        color = np.full(size, -1, dtype=np.int64)
        color[np.fromiter(self.nodes, np.intp, len(self.nodes))] = np.repeat(
            np.arange(len(self.lengths)), self.lengths)
        return color


@dataclass(frozen=True)
class Needs:
    """What the links of a model must give each node of an encoder (made once per encoder):
    its number of links (a dot one, another cell two, a hole none), and `size` at a dot,
    where a node's sum of neighbors takes the end of the walk as its other one; with cells
    that may stay empty, which nodes may have no link at all."""

    links: np.ndarray
    at_ends: np.ndarray
    may_stay_empty: np.ndarray | None


NEEDS: WeakKeyDictionary[Encoder, Needs] = WeakKeyDictionary()


def needs(enc: Encoder) -> Needs:
    """The encoder's `Needs`, made on first use."""
    found = NEEDS.get(enc)
    if found is None:
        dot = enc.dots >= 0
        links = np.where(dot, 1, 2) * enc.graph.on_array
        found = NEEDS[enc] = Needs(links, dot * float(enc.size),
                                   None if enc.rules.fill_all else ~dot)
    return found


def trace(enc: Encoder, linked: np.ndarray | list[tuple[int, int]]) -> Traced:
    """The paths and cycles of a model's linked node pairs. Where every node has the links
    it must (`Needs`), each node's two neighbors are known by their sum (an end's other one:
    the node `size`), so that a path is walked one list look-up a node and the cycles are
    the linked nodes left over; otherwise cell by cell (`trace_by_cells`). BrokenModel where
    a path from a dot does not end at its color's other dot."""
    size, need = enc.size, needs(enc)
    ends = np.asarray(linked, dtype=np.int64).reshape(-1, 2)
    nodes_at = ends.ravel()
    degree = np.bincount(nodes_at, minlength=size)
    wrong = degree != need.links
    if need.may_stay_empty is not None:
        wrong &= (degree > 0) | ~need.may_stay_empty
    if wrong.any():
        return trace_by_cells(enc, ends.tolist())
    ahead = (np.bincount(nodes_at, ends[:, ::-1].ravel(), size) + need.at_ends).astype(
        np.int64).tolist()  # from node i, having come from p: ahead[i] - p
    nodes: list[int] = []
    lengths, paths, visit, cell_of = [], {}, nodes.append, enc.graph.cells
    for color, (first, last) in enc.puzzle.dots.items():
        start, prev, cur = len(nodes), size, enc.index(first)
        while cur != size:  # a dot has one link, others two: the walk ends at a dot
            visit(cur)
            prev, cur = cur, ahead[cur] - prev
        if prev != enc.index(last):  # a path to another color's dot (short color codes)
            raise BrokenModel(f"{enc.puzzle.name}: path {color!r} breaks at {enc.cell(prev)}")
        paths[color] = list(map(cell_of.__getitem__, nodes[start:]))
        lengths.append(len(nodes) - start)
    cycles = [] if len(nodes) == np.count_nonzero(degree) else cycles_left(ends, degree,
                                                                          nodes, ahead)
    return Traced(paths, cycles, nodes, lengths)


def cycles_left(ends: np.ndarray, degree: np.ndarray, nodes: list[int], ahead: list[int]
                ) -> list[list[int]]:
    """The cycles of the linked nodes off the paths (`nodes`), each node with two links
    (`ahead`: their sum), each cycle walked from its smallest node."""
    left = degree > 0
    left[nodes] = False
    cycles = []
    for start in np.flatnonzero(left).tolist():
        if not left[start]:
            continue
        cycle, prev, cur = [], int(ends[(ends == start).any(axis=1)][0].sum()) - start, start
        while True:
            cycle.append(cur)
            prev, cur = cur, ahead[cur] - prev
            if cur == start:
                break
        left[cycle] = False
        cycles.append(cycle)
    return cycles


def trace_by_cells(enc: Encoder, linked: list[tuple[int, int]] | list[list[int]]) -> Traced:
    """`trace` one cell at a time, with a list of each node's links: any links at all
    (BrokenModel where a path from a dot breaks off, meets another path or runs on)."""
    adjacent: list[list[int]] = [[] for _ in range(enc.size)]  # by node
    for i, j in linked:
        adjacent[i].append(j)
        adjacent[j].append(i)
    paths: Paths = {}
    reached = set()
    nodes: list[int] = []
    lengths = []
    cell_of = enc.graph.cells
    for color, (a, b) in enc.puzzle.dots.items():
        path, prev, cur, end = [enc.index(a)], -1, enc.index(a), enc.index(b)
        while cur != end:
            ahead = adjacent[cur]
            if len(ahead) == 2 and prev in ahead:  # on the way: the other link
                ahead = [ahead[ahead[0] == prev]]
            elif prev in ahead:
                ahead = [n for n in ahead if n != prev]
            if len(ahead) != 1 or ahead[0] in reached or len(path) > enc.size:
                raise BrokenModel(f"{enc.puzzle.name}: path {color!r} breaks at {enc.cell(cur)}")
            prev, cur = cur, ahead[0]
            path.append(cur)
        reached.update(path)
        nodes += path
        lengths.append(len(path))
        paths[color] = list(map(cell_of.__getitem__, path))
    fill_all = enc.rules.fill_all
    left = {i for i in enc.nodes if fill_all or adjacent[i]} - reached  # not the empty ones
    return Traced(paths, components(adjacent, left), nodes, lengths)


def components(adjacent: list[list[int]], cells: set[int]) -> list[list[int]]:
    """The cells split into walks along the links; every cell off the paths has two links,
    so each walk goes once around a whole cycle."""
    parts = []
    while cells:
        cur = cells.pop()
        part = [cur]
        while ahead := [n for n in adjacent[cur] if n in cells]:
            cur = ahead[0]
            cells.discard(cur)
            part.append(cur)
        parts.append(part)
    return parts
