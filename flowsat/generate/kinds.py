"""What kind of board the generator makes, and the steps that give a filling each feature.

A kind is the board's shape (square or hexagonal), its warps, and a density for each feature
(holes, walls, bridges), named like `Board.kind` (`hex+holes+warps`). The generator reshapes a
filling of the board's graph into a unique puzzle (`make`); the features come in where they
keep the filling a solution:

- holes, before the filling: a share of the cells drawn at random; the Hamiltonian path of the
  board is cut at them into runs, and runs are cut into paths (a cell left alone becomes a
  hole too);
- walls, once the paths are reshaped and before uniqueness is proved: a share of the links no
  path uses (on warps too), so that they rule other solutions out;
- bridges, last: where a path runs straight through a cell between the ends of two other paths,
  those two are joined across it (`cover.try_bridge`), kept where the puzzle stays unique.

Each feature asked for is there at least once in every puzzle (a candidate without it is
dropped), so the puzzle's kind is the kind asked for.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from flowsat.generate import DENSITY
from flowsat.generate.cover import add_bridges
from flowsat.generate.filling import cut, hamiltonian_path, random_pieces
from flowsat.generate.layout import Layout
from flowsat.puzzle.board import MIN_WRAP, Board
from flowsat.puzzle.model import Cell
from flowsat.puzzle.rules import Rules
from flowsat.result import UsageError

NAMES = ("square", "holes", "walls", "bridges", "hex", "warps")
FEATURES = tuple(DENSITY)  # the kinds with a density


@dataclass(frozen=True)
class Kind:
    """A kind of board to make: shape, warps, and the density of each feature (0: none)."""

    hex: bool = False
    warps: bool = False
    holes: float = 0.0
    walls: float = 0.0
    bridges: float = 0.0

    @property
    def name(self) -> str:
        """As `Board.kind` names it: 'square', 'hex+holes+warps', ..."""
        return "+".join(["hex" if self.hex else "square"] + [
            name for name, on in (("holes", self.holes), ("walls", self.walls),
                                  ("bridges", self.bridges), ("warps", self.warps)) if on])

    @property
    def plain(self) -> bool:
        return self.name == "square"

    def board(self, width: int, height: int) -> Board:
        """The board's graph before holes, walls and bridges."""
        if self.plain:
            return Board.square(width, height)
        return Board(width, height, "hex" if self.hex else "square", self.warps)

    def problem(self, width: int, height: int) -> str | None:
        """Why no board of this kind and size can be made, or None."""
        if self.warps and min(width, height) < MIN_WRAP:
            return f"--kind warps: a board with warps needs at least {MIN_WRAP} rows and columns"
        if self.warps and self.hex and width % 2:
            return "--kind hex,warps: a hexagonal board with warps needs an even width"
        return None

    def densities(self) -> dict[str, float | str]:
        """Each feature's density, '' for a feature this kind has not (a manifest's columns)."""
        return {name: getattr(self, name) or "" for name in FEATURES}


PLAIN = Kind()


def kind_of(names: Iterable[str], densities: dict[str, float | None] | None = None) -> Kind:
    """The kind named by `--kind` values (each may list several, comma-separated) with the
    densities given (the default for a feature named without one); UsageError for an unknown
    name, a contradiction, or a density without its feature."""
    wanted = [part.strip().lower() for value in names for part in value.split(",")]
    unknown = next((name for name in wanted if name not in NAMES), None)
    if unknown is not None:
        raise UsageError(f"--kind {unknown!r}: the kinds are {', '.join(NAMES)}")
    if "square" in wanted and "hex" in wanted:
        raise UsageError("--kind square,hex: a board is square or hexagonal, not both")
    if "hex" in wanted and "bridges" in wanted:
        raise UsageError("--kind hex,bridges: bridges are only known on square boards")
    given = {name: value for name, value in (densities or {}).items() if value is not None}
    for name, value in given.items():
        if name not in wanted:
            raise UsageError(f"--{name} {value:g} goes with --kind {name}")
        if not 0 < value <= 1:
            raise UsageError(f"--{name} {value:g}: a density is above 0 and at most 1")
    return Kind("hex" in wanted, "warps" in wanted,
                **{name: given.get(name, DENSITY[name]) for name in FEATURES if name in wanted})


def filling(kind: Kind, height: int, width: int, rng: random.Random, mean_length: float
            ) -> Layout:
    """Paths that fill a board of the kind (holes drawn here; no walls, no bridges yet), each
    of two cells or more and touching itself nowhere."""
    board = kind.board(width, height)
    if not kind.holes:
        return Layout(random_pieces(height, width, rng, mean_length, board=board), height, width,
                      board)
    holes = set(rng.sample(sorted(map(board.cell, board.cells)),
                           max(1, round(kind.holes * board.size))))
    pieces = []
    for run in runs(hamiltonian_path(height, width, rng, board=board), holes):
        while len(run) >= 2 and (got := cut(run, rng, mean_length, board)) is None:
            holes.add(run.pop())  # a cell the run's last path cannot take
        if len(run) < 2:
            holes.update(run)
            continue
        pieces += got
    board = replace(board, holes=frozenset(map(board.number, holes)))
    return Layout(pieces, height, width, board)


def runs(path: list[Cell], holes: set[Cell]) -> list[list[Cell]]:
    """The parts of the path between holes."""
    found: list[list[Cell]] = [[]]
    for cell in path:
        if cell in holes:
            found.append([])
        else:
            found[-1].append(cell)
    return [run for run in found if run]


def wall_off(layout: Layout, rng: random.Random, share: float) -> None:
    """Wall about that share (at least one) of the links no path of the layout uses."""
    board = layout.board
    used = {tuple(sorted(map(board.number, link))) for link in layout.links()}
    free = [link for link in board.link_list if link not in used]
    if free:
        walls = rng.sample(free, max(1, round(share * len(free))))
        layout.board = replace(board, walls=frozenset(walls))


def bridge(layout: Layout, rng: random.Random, share: float, rules: Rules,
           keep: Callable[[Board, list[list[Cell]]], bool]) -> tuple[Board, list[list[Cell]]]:
    """The layout's board and paths with bridges where two paths could be joined across a
    third (about that share of the chances tried), each kept where `keep` says so."""
    board = layout.board
    walks = [[board.number(cell) for cell in path] for path in layout.paths.values()]

    def cells(walks: list[list[int]]) -> list[list[Cell]]:
        return [[board.cell(i) for i in walk] for walk in walks]

    board, walks = add_bridges(board, walks, rng, share, rules,
                               keep=lambda trial, joined: keep(trial, cells(joined)))
    return board, cells(walks)
