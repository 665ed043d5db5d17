"""What the sat backend keeps from one puzzle to the next: an object its caller owns (a
`flowsat solve` run, a worker process of one), never the module's.

A board compiled once answers its later puzzles (`flowsat.sat.compiled`). Whoever runs a
block of puzzles makes one `Kept`, passes it to every search of the block and calls `start`
when a block starts (`flowsat.parallel.answers`' `fresh`): the block's boards start on fresh
solvers, told which boards its puzzles share. Without one (None), every puzzle is encoded
alone. Light to import: the compiled boards' module is imported only once a run has more
than one puzzle to give them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from flowsat.puzzle.model import Puzzle

if TYPE_CHECKING:
    from collections.abc import Callable

    from flowsat.sat.boards import Boards


class Kept:
    """A run's compiled boards (None until its second puzzle, or its first block of more than
    one), its first puzzle until then (`first`: the arguments of `Boards.first`), and the
    puzzles of the block under way."""

    def __init__(self):
        self.boards: Boards | None = None
        self.attempt: Callable | None = None  # `compiled.attempt`, imported with the boards
        self.first: list[list] = []
        self.block: list[Puzzle] = []

    def start(self, items: Sequence = ()) -> None:
        """A block of these items starts (the puzzles among them): the compiled boards'
        solvers and the puzzles seen are forgotten; their formulas are kept from then on
        (`Formulas.keeping`: a block after the first may load them)."""
        self.first.clear()
        self.block = [item for item in items if isinstance(item, Puzzle)]
        if self.boards is not None:
            self.boards.clear(self.block)
            self.boards.formulas.keeping = True

    def waits(self) -> bool:
        """Whether the compiled boards are not made yet and need not be: the run's first
        puzzle, outside a block of several (a run of one puzzle pays nothing for them)."""
        return self.boards is None and not self.first and len(self.block) < 2

    def compiled(self) -> Boards:
        """The compiled boards, made now if they are not (their module imported), told the
        block under way and the run's first puzzle."""
        if self.boards is None:
            from flowsat.sat.boards import Boards
            from flowsat.sat.compiled import attempt

            self.boards, self.attempt = Boards(), attempt
            self.boards.clear(self.block)
        while self.first:
            self.boards.first(*self.first.pop())
        return self.boards
