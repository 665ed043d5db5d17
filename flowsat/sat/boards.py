"""The compiled boards of a run (`Boards`, which `flowsat.sat.kept.Kept` holds for its owner)
and their formulas (`Formulas`), and when a board is worth compiling.

A board keeps the compiled route while it costs less a puzzle than the per-puzzle route: the
cost of each puzzle on either route is estimated from what the solve counted (`cost`: the
solver's propagations, the models read and the per-puzzle formula's literals), the same on
every machine, so that the choice, made from the puzzles of a block only (`flowsat.parallel`),
is the same whatever `--jobs` is.

A block starts with fresh solvers (no learned clause, no cut: `Boards`), but the formula a
board compiles to depends on the board alone: kept in the process (`Formulas`), it is loaded
into a new solver by the later blocks, not compiled again. What is kept never shows in an
answer: a block decides its routes as if nothing were.
"""

from __future__ import annotations

import copy
import time
from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

from flowsat.puzzle.board import Board
from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import Rules
from flowsat.sat.board_cnf import BoardCodes, BoardEdges, Formula, Tables, compile_board
from flowsat.sat.encoder import Encoder, graph
from flowsat.sat.estimate import Size, formula_size
from flowsat.sat.oracle import DIRECT_ADD, Oracle, release
from flowsat.sat.spec import Spec

COMPILE_UP_TO = 5_000  # nodes: larger boards are encoded per puzzle (their solve dominates)
KEEP_BOARDS = 8  # compiled boards kept at once (the least recently used dropped), on solvers
KEEP_CLAUSES = 2_000_000  # and their clauses in all, at most (and so the formulas kept)
KEEP_SHARE = 0.125  # and the formulas kept (`Formulas`), of the memory cap (`Size.mb`), at most
# A fresh solver once the kept cuts and touch clauses outnumber the formula's clauses, or the
# variables made since (differ bits, each search's selector for blocked solutions: every
# model read is a list of all variables) pass this share of the formula's: a quarter more on
# each of the next searches costs about as much as a recompile (docs/performance.md)
FRESH_VARIABLES = 0.25
# A board compiles the COMPILE_AT-th time a puzzle asks for it (the earlier ones are encoded
# per puzzle; later costs more on the 2016 set, docs/performance.md), or at the first where
# this many puzzles of its block share it (`Boards.shared`)
COMPILE_AT = 2
# Cells up to which a board compiles at the first of the puzzles its block shares it with:
# on larger ones the compiled route can cost more, and the first puzzle, encoded alone,
# measures the per-puzzle route (`Costs`) (docs/performance.md, "Compiled boards")
SHARED_UP_TO = 400
SEEN_KEYS = 10_000  # the keys asked for so far, kept (and their costs)
# A board's usual colors, times the square root of its cells (`key_bits`): puzzles of a few
# colors fewer share one compile (docs/performance.md, "Compiled boards")
USUAL_COLORS = 1.1
# Cells up to which a board's bits cover its usual colors: on larger ones a puzzle's solve
# dominates, and the per-puzzle formula solves it faster than a compiled board; there a
# board compiles only for puzzles with as many code bits
USUAL_UP_TO = 1_000
# Instructions a puzzle costs, for `cost`: each propagation of the solver, each variable of
# a model read, each literal of the per-puzzle formula encoded and loaded (measured with
# callgrind: docs/performance.md, "Compiled boards")
PER_PROPAGATION = 600
PER_MODEL_VARIABLE = 160
PER_LITERAL = 2_200


def cost(stats: dict, literals: int = 0) -> float:
    """A puzzle's solve in instructions, estimated from its stats (the per-puzzle route: with
    its formula's literals): the same on every machine."""
    return (PER_PROPAGATION * stats.get("propagations", 0) + PER_LITERAL * literals
            + PER_MODEL_VARIABLE * stats.get("variables", 0) * stats.get("rounds", 0))


@dataclass
class Costs:
    """The estimated `cost` of a board's puzzles so far in the block, and their number, on
    each route."""

    per_puzzle: float = 0.0
    per_puzzle_count: int = 0
    compiled: float = 0.0
    compiled_count: int = 0

    def add(self, compiled: bool, spent: float) -> None:
        if compiled:
            self.compiled, self.compiled_count = self.compiled + spent, self.compiled_count + 1
        else:
            self.per_puzzle += spent
            self.per_puzzle_count += 1

    @property
    def compiled_loses(self) -> bool:
        """Whether a puzzle costs more on the compiled route, on average (a puzzle measured on
        each route at least)."""
        return (self.per_puzzle_count > 0 and self.compiled_count > 0
                and self.compiled * self.per_puzzle_count > self.per_puzzle * self.compiled_count)


def code_bits(colors: int) -> int:
    """The bits of a color code for that many colors."""
    return max(1, (colors - 1).bit_length())


def key_bits(puzzle: Puzzle) -> int:
    """The code bits of a puzzle's compiled board (it is keyed by them): enough for its
    colors and, if that is more, for about as many colors as most puzzles on its board have,
    a little over the square root of its cells (`flowsat generate` makes 0.8 to 1.2 times
    it): puzzles with a few colors fewer share one compile (a pack of 10x10 levels of 7 to
    12 colors compiles once, not once for 3 bits and once for 4), on boards up to
    USUAL_UP_TO cells. A puzzle's unused high bits are 0 in its assumptions."""
    cells = puzzle.width * puzzle.height
    usual = round(USUAL_COLORS * cells ** 0.5) if cells <= USUAL_UP_TO else 0
    return code_bits(max(len(puzzle.colors), usual))


def board_key(puzzle: Puzzle, spec: Spec, rules: Rules, solver: str) -> tuple:
    """What a compiled board is kept by: the board, rules, encoding, solver, code bits
    (`key_bits`)."""
    return puzzle.board, rules, spec, solver, key_bits(puzzle)


def fits(spec: Spec, rules: Rules, board: Board, solver: str) -> bool:
    """Whether a board can be compiled for the encoding and solver: choices that compile
    (`Spec.compiles`: edge variables with binary codes and lazy cycle cuts, the default
    encodings and the proofs'), a PySAT solver that keeps its state between calls, a board
    below COMPILE_UP_TO nodes."""
    return spec.compiles and solver in DIRECT_ADD and graph(board).size <= COMPILE_UP_TO

@dataclass
class Compiled:
    """A board's formula for every puzzle on it, loaded into one solver."""

    key: tuple
    enc: Encoder
    links: BoardEdges
    cells: BoardCodes
    sat: Oracle
    unique: int  # the uniqueness switch (0: none)
    lazy_touch: bool
    clauses: int  # loaded so far (the formula, then cuts and touch clauses)
    size: Size  # of the formula
    compile_s: float  # to compile it (or load it, compiled before)
    tables: Tables
    stated: set[tuple[int, int, int]] = field(default_factory=set)
    puzzles: int = 0  # answered on this solver
    cuts: int = 0  # cycle cuts and touch clauses learned on its puzzles, kept
    counted: dict = field(default_factory=dict)  # the solver's stats after its last puzzle

    @property
    def variables(self) -> int:
        """The formula's variables (not those its puzzles made since: selectors, differ bits)."""
        return self.size.variables

    @property
    def worn(self) -> bool:
        """Whether a fresh solver costs less than this one from now on (FRESH_VARIABLES)."""
        return (self.clauses > 2 * self.size.clauses or self.enc.top - self.variables
                > FRESH_VARIABLES * self.variables)


def loaded(formula: Formula, solver: str, start: float) -> Compiled:
    """A fresh solver for the board: the formula's clauses loaded into a new one, and copies
    of what its puzzles change in the encoder (variables made later, differ bits), as they
    were when it was compiled (`start`: when the compile or the load began)."""
    enc = copy.copy(formula.enc)
    enc.blocks, enc.clauses = list(enc.blocks), []
    cells = copy.copy(formula.cells)
    cells.enc, cells.equals, cells.joined = enc, {}, []
    links = copy.copy(formula.links)
    links.enc = enc
    sat = Oracle(solver, formula.clauses, keep=False)
    return Compiled(formula.key, enc, links, cells, sat, formula.unique, formula.lazy_touch,
                    formula.size.clauses, formula.size, time.perf_counter() - start,
                    formula.tables)


class Formulas:
    """The boards compiled in this process, by `board_key`, kept across blocks (a block
    loads them into fresh solvers) once `keeping`: from a process's second block on (kept
    clauses are long-lived lists, which the cycle collector goes over now and then: a run
    of one block, as the 2016 set, would pay for them and never use them). The least
    recently used is dropped past KEEP_BOARDS, or KEEP_CLAUSES, or KEEP_SHARE of the memory
    cap."""

    def __init__(self):
        self.formulas: OrderedDict[tuple, Formula] = OrderedDict()
        self.keeping = False

    def solver(self, key: tuple, board: Board, spec: Spec, rules: Rules, solver: str,
               cap: float | None = None) -> Compiled:
        """A fresh solver for the board, compiled now if it is not kept."""
        start = time.perf_counter()
        formula = self.formulas.pop(key, None) or compile_board(key, board, spec, rules,
                                                                key[-1])
        if self.keeping:
            self.formulas[key] = formula  # the most recently used last
            self.keep(cap)
        return loaded(formula, solver, start)

    def keep(self, cap: float | None) -> None:
        """The least recently used dropped until the rest fit."""
        room = float("inf") if cap is None else KEEP_SHARE * cap
        while self.formulas and (
                len(self.formulas) > KEEP_BOARDS
                or sum(len(f.clauses) for f in self.formulas.values()) > KEEP_CLAUSES
                or sum(f.size.mb for f in self.formulas.values()) > room):
            self.formulas.popitem(last=False)

    def clear(self) -> None:
        self.formulas.clear()



class Boards:
    """The compiled boards of a run (of a block of it), by `board_key`, each on its solver: a
    board is loaded (`formulas`) the COMPILE_AT-th time a puzzle asks for it (the first is
    encoded alone, as a single puzzle should be, and measures the per-puzzle route's cost),
    or at the first if COMPILE_AT puzzles of the block share it (`shared`), the least
    recently used dropped past KEEP_BOARDS or KEEP_CLAUSES, and a board whose compiled route
    costs more than the per-puzzle route (`Costs`) is dropped for good."""

    def __init__(self, formulas: Formulas | None = None):
        self.formulas = Formulas() if formulas is None else formulas
        self.boards: OrderedDict[tuple, Compiled] = OrderedDict()
        self.seen: OrderedDict[tuple, int] = OrderedDict()  # times asked
        self.costs: dict[tuple, Costs] = {}
        self.lost: set[tuple] = set()  # the boards whose compiled route lost
        self.shared: set[tuple[Board, int]] = set()  # compiled at their first: see `shared`

    def get(self, puzzle: Puzzle, spec: Spec, rules: Rules, solver: str, cap: float | None = None
            ) -> Compiled | None:
        """The puzzle's compiled board, made now if it is asked for the COMPILE_AT-th time or
        its block's puzzles share it (None: before, or a board that does not fit, or whose
        formula's estimate passes the memory cap, MB, or whose compiled route lost)."""
        key = board_key(puzzle, spec, rules, solver)
        if key in self.lost:
            return None
        found = self.boards.get(key)
        if found is not None:
            self.boards.move_to_end(key)
            return found
        self.seen[key] = asked = self.seen.pop(key, 0) + 1
        if len(self.seen) > SEEN_KEYS:
            old = self.seen.popitem(last=False)[0]
            self.costs.pop(old, None)
            self.lost.discard(old)
        if asked < COMPILE_AT and (key[0], key[-1]) not in self.shared:
            return None
        if not fits(spec, rules, puzzle.board, solver) or (
                cap is not None and (guess := formula_size(puzzle, spec, rules, cap)) is not None
                and guess.mb > cap):
            return None
        found = self.boards[key] = self.formulas.solver(key, puzzle.board, spec, rules, solver, cap)
        while len(self.boards) > KEEP_BOARDS or (
                len(self.boards) > 1 and sum(b.clauses for b in self.boards.values())
                > KEEP_CLAUSES):
            release(self.boards.popitem(last=False)[1].sat.solver)
        return found

    def measured(self, key: tuple, compiled: bool, spent: float) -> bool:
        """Count a puzzle's `cost` on its route; True if the board's compiled route loses
        from now on (it is dropped, and the board's puzzles go the per-puzzle route)."""
        costs = self.costs.setdefault(key, Costs())
        costs.add(compiled, spent)
        if key in self.lost or not costs.compiled_loses:
            return False
        self.lost.add(key)
        if (board := self.boards.get(key)) is not None:
            self.drop(board)
        return True

    def first(self, puzzle: Puzzle, spec: Spec, rules: Rules, solver: str, cap: float | None,
              stats: dict | None = None, literals: int = 0) -> None:
        """A run's first puzzle, seen before the boards were made (`Kept.first`), and what it
        cost (if it was solved)."""
        self.get(puzzle, spec, rules, solver, cap)
        if stats is not None:
            self.measured(board_key(puzzle, spec, rules, solver), False, cost(stats, literals))

    def drop(self, compiled: Compiled) -> None:
        """Forget a board (a fresh solver next time)."""
        if self.boards.get(compiled.key) is compiled:
            del self.boards[compiled.key]
            release(compiled.sat.solver)

    def clear(self, block: Sequence[Puzzle] = ()) -> None:
        """Forget every board: the block of these puzzles starts (none: no block)."""
        for board in self.boards.values():
            release(board.sat.solver)
        self.boards.clear()
        self.seen.clear()
        self.costs.clear()
        self.lost.clear()
        self.shared = shared(block)


def shared(block: Sequence[Puzzle]) -> set[tuple[Board, int]]:
    """The boards with their code bits (`board_key` but the encoding, rules and solver, the
    same for a whole run) that COMPILE_AT puzzles of the block or more share: each compiles
    at its first puzzle, not alone first, up to SHARED_UP_TO cells."""
    counts = Counter((puzzle.board, key_bits(puzzle)) for puzzle in block
                     if puzzle.width * puzzle.height <= SHARED_UP_TO)
    return {board for board, count in counts.items() if count >= COMPILE_AT}


