"""The `program` backend's work: run the solver program on the puzzle, read its answer back."""

from __future__ import annotations

import tempfile
from pathlib import Path

from flowsat.backend import Limits
from flowsat.process import Finished, run_program
from flowsat.program.answer import Unreadable, Untraceable, read_answer, shorten, trace
from flowsat.program.options import FILE, ProgramOptions
from flowsat.puzzle.formats import puzzle_text
from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import Rules
from flowsat.result import Result, UsageError


def solve(puzzle: Puzzle, options: ProgramOptions, rules: Rules, limits: Limits) -> Result:
    """The program's answer to the puzzle, traced into paths (checked by `flowsat.solve`)."""
    if not puzzle.board.plain or not rules.fill_all:  # the formats say rows of a rectangle
        raise UsageError(f"a solver program gets square boards with every cell filled, not "
                         f"{puzzle.kind if not puzzle.board.plain else '--allow-empty'}")
    fmt = options.program_format
    ran = run(puzzle, options.argv, fmt, limits.timeout)
    result = verdict(puzzle, ran, rules)
    result.stats = {"total_s": ran.seconds, "exit_status": ran.returncode}
    result.config = {"program_format": fmt}  # the command is in the backend's name
    return result


def run(puzzle: Puzzle, argv: list[str], program_format: str,
        timeout: float | None) -> Finished:
    """The program run on the puzzle (`run_on`)."""
    return run_on(puzzle_text(puzzle, program_format), argv, timeout)


def run_on(text: str, argv: list[str], timeout: float | None) -> Finished:
    """The program run on the text (a puzzle, or a whole set), written to a temporary file
    that is its standard input or stands where `{file}` is in its command."""
    with tempfile.TemporaryDirectory(prefix="flowsat-program-") as folder:
        file = Path(folder, "puzzle.txt")
        file.write_text(text, encoding="utf-8")
        named = [word.replace(FILE, str(file)) for word in argv]
        return run_program(named, None if named != argv else file, timeout)


def verdict(puzzle: Puzzle, ran: Finished, rules: Rules) -> Result:
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
        return Result("solved", trace(puzzle, answer.rows, rules))
    except Untraceable as err:
        return Result("wrong", error=f"{err}: {shorten(ran.stdout)}")


def failure(how: str, stderr: str) -> str:
    """A failed run in one line: how it ended and the last line it wrote on stderr."""
    last = next((line.strip() for line in reversed(stderr.splitlines()) if line.strip()), "")
    return f"the program failed ({how})" + (f": {last[:200]}" if last else "")

