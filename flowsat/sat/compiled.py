"""The compiled route: a puzzle solved on its board's compiled solver (`flowsat.sat.boards`),
its dots as assumptions (`board_cnf`): which nodes are dots and each dot's color code.

Decoding is the per-puzzle route's (`trace`), sped up by `walk`; the loop is the one of every
route (`flowsat.sat.loop`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from operator import mul
from typing import Any

import numpy as np

from flowsat.puzzle.model import Cell, Paths, Puzzle
from flowsat.puzzle.rules import Rules
from flowsat.sat.board_cnf import Tables
from flowsat.sat.boards import Boards, Compiled, cost
from flowsat.sat.decode import trace
from flowsat.sat.encoder import Encoder
from flowsat.sat.loop import Decoded, solutions

Search = Any  # `flowsat.sat.search.Search`, which imports this module: what a search asks


@dataclass
class Run:
    """One puzzle's search on a compiled board, as the loop takes it (`loop.Route`): its
    assumptions, its selector (for blocked solutions), its budget and stats; `rule`: the
    uniqueness switch still assumed (it is the first assumption), `relaxes`: whether it may
    be switched off (one solution looked for, none known)."""

    board: Compiled
    puzzle: Puzzle
    rules: Rules
    assumptions: list[int]
    stats: dict
    deadline: float | None
    end: int | None = None  # the solver's conflict count where the budget ends
    selector: int = 0
    relaxes: bool = False
    rule: bool = True

    @cached_property
    def enc(self) -> Encoder:
        """The puzzle's encoder, for what `walk` leaves to `trace` and for known paths."""
        return Encoder(self.puzzle, "pairwise", self.rules)

    def solve(self) -> bool | None:
        sat, assumptions = self.board.sat, self.assumed
        if self.deadline is not None and time.perf_counter() > self.deadline:
            return None
        if self.end is None:
            return sat.solve(self.deadline, assumptions)
        left = self.end - sat.stats().get("conflicts", 0)
        return None if left <= 0 else sat.solve_within(left, assumptions)

    @property
    def assumed(self) -> list[int]:
        """The assumptions of the next solve (the uniqueness switch left out once off)."""
        return self.assumptions[1 if self.board.unique and not self.rule else 0:]

    def model(self) -> list[int]:
        return self.board.sat.model()

    def decode(self, model: list[int]) -> Decoded:
        """The model walked from the dots (`walk`), or, where there is more to it (cycles, a
        broken path), traced (`trace`)."""
        board = self.board
        walked = walk(board, self.puzzle, model)
        if walked is not None:
            paths, touching = walked
            return Decoded(paths, (), touching)
        traced = trace(self.enc, board.links.links(model))
        touching = (board.links.touching(traced.colors(self.enc.size), model)
                    if board.lazy_touch else [])
        return Decoded(traced.paths, traced.cycles, touching)

    def cuts(self, decoded: Decoded, model: list[int]) -> list[list[int]]:
        """Each cycle cut for every puzzle on the board (or one of its nodes is a dot), the
        touches ruled out (`differ`)."""
        board = self.board
        return [board.links.cut_dots(c, model) for c in decoded.cycles] + differ(
            board, decoded.touching)

    def add(self, clauses: list[list[int]]) -> None:
        """Clauses kept on the board for its next puzzles too."""
        board = self.board
        board.sat.extend(clauses)
        board.clauses += len(clauses)
        board.cuts += len(clauses)

    def block(self, model: list[int]) -> None:
        self.selected(self.board.links.block(model))

    def relax(self) -> bool:
        """The uniqueness switch off, and every no-self-touch clause stated (kept)."""
        if not (self.rule and self.board.unique and self.relaxes):
            return False
        state_all_touches(self.board)
        self.rule = False
        return True

    def cells(self, cycles: list[list[int]]) -> list[list[Cell]]:
        return [[self.enc.cell(i) for i in c] for c in cycles]

    def selected(self, clause: list[int]) -> None:
        """A clause for this puzzle alone, under its selector."""
        if not self.selector:
            self.selector = self.board.enc.new_var("puzzle", self.board.puzzles)
            self.assumptions.append(self.selector)
        self.board.sat.add([-self.selector, *clause])

    def retire(self) -> None:
        if self.selector:
            self.board.sat.add([-self.selector])


# Nodes over which `assumptions_of` puts the dots and their codes before the nodes that are no
# dots (Glucose makes a decision level of each assumption, in order): on small boards the first
# propagation of them all is most of a solve, and the dots first cost more; on larger ones the
# conflicts are, and fewer (docs/performance.md, "Compiled boards")
DOTS_FIRST_OVER = 200


def assumptions_of(board: Compiled, puzzle: Puzzle) -> list[int]:
    """The puzzle's dots: the uniqueness switch (if any), then which nodes are dots and each
    dot's code (the dots and their codes first on boards over DOTS_FIRST_OVER nodes)."""
    t, width = board.tables, puzzle.width
    lits, place, bits, codes = t.no_dots[:], t.place, t.bits, []
    for signs, ends in zip(t.signs, puzzle.dots.values(), strict=False):  # (codes to spare)
        for r, c in ends:
            i = r * width + c
            lits[place[i]] *= -1
            codes += map(mul, signs, bits[i])
    if t.nodes <= DOTS_FIRST_OVER:
        return lits + codes
    switch = 1 if board.unique else 0
    nodes = lits[switch:]
    return lits[:switch] + [x for x in nodes if x > 0] + codes + [x for x in nodes if x < 0]


def walk(board: Compiled, puzzle: Puzzle, model: list[int]
         ) -> tuple[Paths, list[tuple[int, int, int]]] | None:
    """The model's paths from each color's first dot and (with lazy touch) the unlinked
    neighbors on one path with their 'apart' literal, walked one linked edge at a time (the
    formula gives a dot one, another node on a path two: a path never meets itself or
    another); None where there is more to it (cycles, or a path that breaks: `trace` tells)."""
    t, width, cells = board.tables, puzzle.width, board.enc.graph.cells
    ways, steps = t.ways, range(t.nodes)
    paths: Paths = {}
    walked: list[list[int]] = []
    for color, (a, b) in puzzle.dots.items():
        cur, end, prev = a[0] * width + a[1], b[0] * width + b[1], -1
        nodes = [cur]
        step = nodes.append
        for _ in steps:  # (a bound: a model that breaks the formula still ends its walk)
            if cur == end:
                break
            for e, n in ways[cur]:
                if n != prev and model[e] > 0:
                    break
            else:
                return None
            prev, cur = cur, n
            step(n)
        else:
            return None
        walked.append(nodes)
        paths[color] = list(map(cells.__getitem__, nodes))
    on_paths = sum(map(len, walked)) - len(walked)  # the links on the paths
    if on_paths + len(walked) != t.nodes if board.links.fill_all else on_paths != sum(
            map((0).__lt__, map(model.__getitem__, t.edge_index))):  # links off the paths: cycles
        return None
    if not board.lazy_touch or (t.apart is not None and touches(t, walked) == on_paths):
        return paths, []
    owner = [-1] * len(ways)
    for k, nodes in enumerate(walked):
        for n in nodes:
            owner[n] = k
    return paths, [(i, j, -1 - e) for e, i, j in t.edges
                   if owner[i] == owner[j] >= 0 and model[e] < 0]


def touches(t: Tables, walked: list[list[int]]) -> int:
    """The edges whose nodes are on one path (the links of the paths, and any touch), counted
    on each path's nodes as bits of a number."""
    count = 0
    for nodes in walked:
        on = sum(map(t.bit.__getitem__, nodes))
        for d, first in t.apart:
            count += (on & on >> d & first).bit_count()
    return count


def attempt(boards: Boards, asked: Search) -> tuple | None:
    """The search asked on the puzzle's compiled board, as `Search.finished` takes it
    (answer, solutions, out of budget, stats), or None: the per-puzzle route (the board's
    first puzzle, a board that does not fit or whose formula passes the cap)."""
    board = boards.get(asked.puzzle, asked.spec, asked.rules, asked.solver, asked.cap)
    if board is None or board.size.mb > asked.cap:
        return None
    answer, found, stats, out = search(boards, board, asked)
    if boards.measured(board.key, True, cost(stats)):
        stats["compiled_lost"] = True  # the board's next puzzles go the per-puzzle route
    return answer, found, out, stats


def search(boards: Boards, board: Compiled, asked: Search
           ) -> tuple[bool | None, list[Paths], dict, bool]:
    """The search asked, on a compiled board: the last answer (False: no more solutions,
    None: stopped), the solutions, the stats, and whether the conflict budget ran out. Any
    exception (a timeout) drops the board: its solver may be half way through a call."""
    try:
        return search_on(board, asked, boards)
    except BaseException:
        boards.drop(board)
        raise


def search_on(board: Compiled, asked: Search, boards: Boards
              ) -> tuple[bool | None, list[Paths], dict, bool]:
    """`search` (its exceptions not caught)."""
    start = time.perf_counter()
    sat, puzzle, limit, known = board.sat, asked.puzzle, asked.limit, asked.known
    before = board.counted or sat.stats()  # (the solver ran for nothing else since)
    stats = {"route": "compiled", "variables": board.enc.top, "clauses": board.clauses,
             "cuts_kept": board.cuts, "board_puzzles": board.puzzles, "cycle_cuts": 0,
             "rounds": 0, "solve_s": 0.0, "decode_s": 0.0, "load_s": 0.0}
    if board.puzzles == 0:
        stats["compile_s"] = board.compile_s
    budget = asked.options.max_conflicts
    run = Run(board, puzzle, asked.rules, assumptions_of(board, puzzle), stats, asked.deadline,
              None if budget is None else before.get("conflicts", 0) + budget,
              relaxes=limit == 1 and not known, rule=bool(board.unique))
    for paths in known:
        block_known(run, paths)
    stats["encode_s"] = time.perf_counter() - start
    answer, found = solutions(run, limit, asked.observe)
    run.retire()
    board.puzzles += 1
    after = board.counted = sat.stats()  # before a worn solver is released
    if board.worn:
        boards.drop(board)
        stats["fresh_solver"] = True  # the next puzzle on the board compiles it anew
    if board.unique and limit == 1 and not known:
        stats["uniqueness"] = "uniqueness rule" if run.rule else "complete"
    stats.update({k: v - before.get(k, 0) for k, v in after.items()})
    out_of_budget = run.end is not None and after.get("conflicts", 0) >= run.end
    return answer, found, stats, out_of_budget


def differ(board: Compiled, pairs: list[tuple[int, int, int]]) -> list[list[int]]:
    """The clauses for lit -> color(i) != color(j), for each pair not stated yet."""
    pairs = [p for p in pairs if p not in board.stated]
    if not pairs:
        return []
    board.stated.update(pairs)
    board.cells.differ(pairs)
    made, board.enc.clauses = board.enc.clauses, []
    return made


def state_all_touches(board: Compiled) -> None:
    """Every no-self-touch clause not stated yet (the complete formula, kept from now on)."""
    if board.lazy_touch:
        board.lazy_touch = False
        clauses = differ(board, board.links.apart())
        board.sat.extend(clauses)
        board.clauses += len(clauses)


def block_known(run: Run, paths: Paths) -> None:
    """Rule out a solution known beforehand (for this puzzle): its links, and no other, are
    a model (else ValueError: no solution), blocked under the puzzle's selector."""
    enc, links = run.enc, run.board.links
    linked = {(min(i, j), max(i, j)) for path in paths.values()
              for i, j in pairwise(enc.path_nodes(path))}
    if not linked <= set(enc.edges):
        raise ValueError(f"{enc.puzzle.name}: the known paths are not a solution")
    on = np.array([(i, j) in linked for i, j in enc.edges], dtype=bool)
    given = np.where(on, links.var_array, -links.var_array).tolist()
    rule_off = run.assumptions[1 if run.board.unique else 0:]  # (found with the rule off)
    if run.board.sat.solve(None, rule_off + given) is not True:
        raise ValueError(f"{enc.puzzle.name}: the known paths are not a solution")
    run.selected((-links.var_array[on]).tolist())
