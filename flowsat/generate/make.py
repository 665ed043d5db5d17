"""Making a puzzle with exactly one solution, proved by SAT, from a seed.

A candidate is a random Hamiltonian path cut into paths that do not touch themselves
(`filling.random_pieces`), reshaped at random down to the number of colors wanted
(`shuffle_to`). Its paths' ends are the dots; the filling is a solution, and SAT proves it is
the only one. Where SAT finds a second solution, a path is cut where the two differ (the new
dots rule that solution out: it runs through them) until the proof goes through. When the
colors are still too many, paths are joined end to end, a batch at a time, each batch proved:
a second solution cannot keep every new joint (else cutting it at the joints would give the
proved layout before the batch a second solution), so the joints it leaves are cut again and
not tried again.

Everything follows from the seed and deterministic budgets (a conflict limit per proof, a
number of candidates per seed), never from the clock: the same seed makes the same puzzle on
any machine. The deadline is only a safety stop, and it is reported.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import pairwise

from flowsat.generate.filling import LETTERS as FILE_LABELS
from flowsat.generate.filling import puzzle_of
from flowsat.generate.kinds import PLAIN, Kind, bridge, filling, wall_off
from flowsat.generate.layout import Layout, Link, lettered
from flowsat.puzzle.board import Board
from flowsat.puzzle.model import Cell, Paths, Puzzle
from flowsat.puzzle.rules import DEFAULT_RULES, Rules
from flowsat.render.palette import PALETTE
from flowsat.unique import Uniqueness, check_unique

# The 2016 palette's letters first (the game's colors in pictures), then the other letters and
# digits, then the other labels (punctuation), 93 in all.
LETTERS = "".join(PALETTE) + "".join(ch for ch in FILE_LABELS if ch not in PALETTE)
# Proofs run on layouts of any number of paths: the model takes any character as a dot, so
# the labels go on with other characters there (only the files need printable ASCII).
LABELS = LETTERS + "".join(chr(0x100 + k) for k in range(40_000))
MAX_CONFLICTS = 100_000  # per proof of uniqueness; beyond it a candidate is given up
CANDIDATES = 20  # fillings tried per seed


class Stopped(Exception):
    """The safety deadline passed (what was made until then depends on the machine)."""


@dataclass
class Made:
    """A puzzle proved unique, its solution, and what making it took."""

    puzzle: Puzzle
    solution: Paths
    seed: int
    candidates: int = 1  # fillings tried
    proofs: int = 0  # SAT calls
    seconds: float = 0.0


def default_colors(height: int, width: int) -> tuple[int, int]:
    """The color range used when none is given: about the square root of the cells, as in
    the game (4 to 6 on 5x5, 12 to 18 on 15x15)."""
    root = (height * width) ** 0.5
    most = min(len(LETTERS), height * width // 2)
    return min(max(2, round(0.8 * root)), most), min(max(2, round(1.2 * root)), most)


def make_puzzle(height: int, width: int, seed: int, colors: tuple[int, int],
                rules: Rules = DEFAULT_RULES, max_conflicts: int = MAX_CONFLICTS,
                candidates: int = CANDIDATES, deadline: float | None = None,
                kind: Kind = PLAIN) -> Made | None:
    """A unique puzzle of the kind from the seed with colors in the range, or None when every
    candidate failed. Raises Stopped at the deadline."""
    start = time.perf_counter()
    rng = random.Random(seed)
    proofs = 0

    def prove_paths(board: Board, paths: Iterable[list[Cell]]) -> Uniqueness:
        nonlocal proofs
        if deadline is not None and time.perf_counter() > deadline:
            raise Stopped(f"seed {seed}: stopped at the deadline after {proofs} proofs")
        proofs += 1
        known = lettered(paths, LABELS)
        return check_unique(puzzle_of(known, height, width, board=board), known=known,
                            rules=rules, max_conflicts=max_conflicts)

    def prove(layout: Layout) -> Uniqueness:
        return prove_paths(layout.board, layout.paths.values())

    def keep_bridge(board: Board, paths: list[list[Cell]]) -> bool:
        return len(paths) >= colors[0] and prove_paths(board, paths).verdict == "unique"

    for candidate in range(1, candidates + 1):
        target = rng.randint(*colors)
        # paths that do not touch themselves, whatever the rule: they are far more often
        # unique, with self-touch allowed too
        layout = filling(kind, height, width, rng, height * width / target)
        split_to(layout, target, rng)
        shuffle_to(layout, target, rng)
        if kind.walls:
            wall_off(layout, rng, kind.walls)
        if not make_unique(layout, prove, rng):
            continue
        join_to(layout, target, rng, prove)
        board, paths = layout.board, list(layout.paths.values())
        if kind.bridges:
            board, paths = bridge(layout, rng, kind.bridges, rules, keep_bridge)
        if colors[0] <= len(paths) <= colors[1] and board.kind == kind.name:
            solution = lettered(paths, LETTERS)
            return Made(puzzle_of(solution, height, width, board=board), solution, seed,
                        candidate, proofs, round(time.perf_counter() - start, 3))
    return None


def split_to(layout: Layout, target: int, rng: random.Random) -> None:
    """Cut random paths (leaving no path shorter than 3 cells) until there are `target`, or
    no path can be cut."""
    while len(layout) < target and (cuts := layout.cuts()):
        layout.cut(*rng.choice(cuts))


def shuffle_to(layout: Layout, target: int, rng: random.Random) -> None:
    """Join paths at random down to `target`, moving path ends about to make joins possible:
    an end next to a cell of another path links to it, cutting that path behind the cell.
    Paths of two cells (adjacent dots: nothing to solve) are moved first, until none is
    left."""
    for _ in range(50 * layout.height * layout.width):
        pairs = layout.ends(longest=2)
        if len(layout) <= target and not pairs:
            return
        a = rng.choice(pairs or layout.ends())
        x = rng.choice(layout.neighbors(a))
        if layout.owner[x] == layout.owner[a]:
            continue
        if layout.is_end(x) and layout.joinable(layout.owner[a], layout.owner[x]):
            layout.join(a, x)
        else:
            path = layout.paths[layout.owner[x]]
            i = path.index(x)
            layout.rewire(a, x, rng.choice([path[k] for k in (i - 1, i + 1)
                                            if 0 <= k < len(path)]))


def make_unique(layout: Layout, prove: Callable[[Layout], Uniqueness],
                rng: random.Random) -> bool:
    """Cut a path where each second solution differs from the layout (any cut rules the
    second solution out: it runs through the new dots) until the layout is proved unique;
    False when no path can be cut or the budget runs out."""
    while (found := prove(layout)).verdict == "multiple":
        cuts = layout.cuts()
        if not cuts:
            return False
        other = linked(found.solutions[1])
        layout.cut(*rng.choice([link for link in cuts if link not in other] or cuts))
    return found.verdict == "unique"


def join_to(layout: Layout, target: int, rng: random.Random,
            prove: Callable[[Layout], Uniqueness]) -> None:
    """Join paths, keeping the layout unique, down to `target` paths or until no join is
    left to try. Batches double after a clean proof and halve after a second solution."""
    tried: set[Link] = set()
    batch = max(1, (len(layout) - target) // 2)
    while len(layout) > target:
        joints = []
        while len(joints) < min(batch, len(layout) - target):
            joins = [j for j in layout.joins() if j not in tried]
            if not joins:
                break
            joint = rng.choice(joins)
            layout.join(*joint)
            joints.append(joint)
        if not joints:
            return
        clean = undo_failed(layout, joints, tried, prove)
        batch = batch * 2 if clean else max(1, batch // 2)


def undo_failed(layout: Layout, joints: list[Link], tried: set[Link],
                prove: Callable[[Layout], Uniqueness]) -> bool:
    """Prove the layout unique after the joints were made, cutting again (and marking as
    tried) each joint a second solution leaves; True when none had to be undone."""
    clean = True
    while joints:
        found = prove(layout)
        if found.verdict == "unique":
            return clean
        clean = False
        if found.verdict == "multiple":
            other = linked(found.solutions[1])
            undone = [j for j in joints if j not in other] or joints[:1]
            tried.update(undone)
        else:  # the budget ran out: back to the proved layout (a lone joint is not retried)
            undone = joints[:]
            tried.update(joints if len(joints) == 1 else ())
        for joint in undone:
            layout.cut(*joint)
            joints.remove(joint)
    return clean


def linked(paths: Paths) -> set[Link]:
    """The links of a solution, each pair in both orders."""
    return {pair for path in paths.values() for a, b in pairwise(path)
            for pair in ((a, b), (b, a))}
