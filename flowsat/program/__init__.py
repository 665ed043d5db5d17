"""Any solver program as a backend (`program:COMMAND`): the puzzle goes to the program, its
answer is read back, traced into paths and checked like every backend's.

The puzzle is written in `program_format` (`numberlink`: `W H` + rows; `grid`: the rows) on the
program's standard input, or to a temporary file where `{file}` stands in the command. Its
answer is read by `answer.read_answer`. The program runs as a process group of its own
(`flowsat.process`): past the timeout the group is killed (`timeout`); a program killed by a
signal, or whose output is no answer, is an `error` naming its exit status; a board whose labels
make no paths is `wrong`, and so is one the checker refuses (`outside`). `total_s` is the
program's whole life, from its start to its exit: what a user of the program waits for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from flowsat.backend import Limits, Observer, made
from flowsat.program.options import FILE, FORMATS, ProgramOptions, program_argv

if TYPE_CHECKING:
    from flowsat.puzzle.model import Puzzle
    from flowsat.puzzle.rules import Rules
    from flowsat.result import Result

class Program:
    """A solver program as a backend (`flowsat.backend.Backend`)."""

    name: ClassVar[str] = "program"
    Options: ClassVar[type] = ProgramOptions
    kinds: ClassVar[frozenset[str] | None] = None  # refused in `backend.solve`, saying why
    outside: ClassVar[bool] = True  # a wrong answer is the program's error, not a bug
    argument: ClassVar[str | None] = "command"
    observes: ClassVar[bool] = False
    engine: ClassVar[str] = "flowsat.program.backend"

    def options(self, **given: Any) -> ProgramOptions:
        return made(self, given)

    def solve(self, puzzle: Puzzle, options: ProgramOptions, rules: Rules, limits: Limits,
              observe: Observer | None = None) -> Result:
        from flowsat.program.backend import solve

        return solve(puzzle, options, rules, limits)


BACKEND = Program()

__all__ = ["BACKEND", "FILE", "FORMATS", "ProgramOptions", "program_argv"]
