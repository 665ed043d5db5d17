"""The `program` backend's work: run the solver program on the puzzle, read its answer back."""

from __future__ import annotations

import tempfile
from pathlib import Path

from flowsat.process import Finished, command_words, run_program
from flowsat.program import FILE, FORMATS
from flowsat.program.answer import Unreadable, Untraceable, read_answer, shorten, trace
from flowsat.puzzle.formats import puzzle_text
from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import DEFAULT_RULES, Rules
from flowsat.result import Result, UsageError


def solve(puzzle: Puzzle, *, command: str, program_format: str = "numberlink",
          rules: Rules = DEFAULT_RULES, timeout: float | None = None) -> Result:
    """The program's answer to the puzzle, traced into paths (checked by `flowsat.solve`)."""
    if not puzzle.board.plain or not rules.fill_all:  # the formats say rows of a rectangle
        raise UsageError(f"a solver program gets square boards with every cell filled, not "
                         f"{puzzle.kind if not puzzle.board.plain else '--allow-empty'}")
    ran = run(puzzle, program_argv(command, program_format), program_format, timeout)
    result = verdict(puzzle, ran, rules.self_touch)
    result.stats = {"total_s": ran.seconds, "exit_status": ran.returncode}
    result.config = {"program_format": program_format}  # the command is in the backend's name
    return result


def run(puzzle: Puzzle, argv: list[str], program_format: str,
        timeout: float | None) -> Finished:
    """The program run on the puzzle, written to a temporary file that is its standard input
    or stands where `{file}` is in its command."""
    with tempfile.TemporaryDirectory(prefix="flowsat-program-") as folder:
        file = Path(folder, "puzzle.txt")
        file.write_text(puzzle_text(puzzle, program_format), encoding="utf-8")
        named = [word.replace(FILE, str(file)) for word in argv]
        return run_program(named, None if named != argv else file, timeout)


def verdict(puzzle: Puzzle, ran: Finished, allow_self_touch: bool) -> Result:
    """What the run says: its answer with the paths traced, or how it failed."""
    if ran.timed_out:
        return Result("timeout", error=f"no answer after {ran.seconds:.3g} s: the program "
                                       f"was killed")
    if ran.returncode < 0:
        return Result("error", error=failure(ran.how(), ran.stderr))
    try:
        answer = read_answer(ran.stdout, puzzle)
    except Unreadable as err:
        return Result("error", error=failure(f"{ran.how()}, no answer: {err}", ran.stderr))
    if answer.status != "solved":
        return Result(answer.status, error=answer.reason)
    try:
        return Result("solved", trace(puzzle, answer.rows, allow_self_touch))
    except Untraceable as err:
        return Result("wrong", error=f"{err}: {shorten(ran.stdout)}")


def program_argv(command: str, program_format: str = "numberlink") -> list[str]:
    """The command's words, once the program exists and the format is known (UsageError)."""
    if program_format not in FORMATS:
        raise UsageError(f"unknown program format {program_format!r}; choose from "
                         f"{', '.join(FORMATS)}")
    return command_words(command, "solver program")


def failure(how: str, stderr: str) -> str:
    """A failed run in one line: how it ended and the last line it wrote on stderr."""
    last = next((line.strip() for line in reversed(stderr.splitlines()) if line.strip()), "")
    return f"the program failed ({how})" + (f": {last[:200]}" if last else "")

