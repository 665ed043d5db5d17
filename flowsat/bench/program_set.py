"""A solver program over a whole set in one process (a plan's `timing = "set"` of a
`program:COMMAND` row): the set written as one Numberlink file, the program's output cut
into one answer a puzzle, each read, traced and checked as the program backend's is.

The answers come in the puzzles' order, each as `flowsat.program.answer` reads one: a verdict
line (`IMPOSSIBLE`, `UNSOLVABLE`, `UNKNOWN ...`), or a solved board (its `W H` line when it
has one, then as many rows as the board is high); blank lines between them do not count.
"""

from __future__ import annotations

from collections import Counter

from flowsat.checker import InvalidSolution, check
from flowsat.program.answer import (
    GAVE_UP,
    HEADER,
    NO_SOLUTION,
    Unreadable,
    Untraceable,
    read_answer,
    shorten,
    trace,
)
from flowsat.puzzle.formats.registry import puzzle_text
from flowsat.puzzle.model import Puzzle
from flowsat.puzzle.rules import Rules

END = "0 0\n"  # the Numberlink format's end of the puzzles


def set_text(puzzles: list[Puzzle]) -> str:
    """The puzzles as one Numberlink file, `0 0` at its end."""
    return "".join(puzzle_text(p, "numberlink") for p in puzzles) + END


def answer_blocks(text: str, puzzles: list[Puzzle]) -> list[str]:
    """The output cut into one answer a puzzle; Unreadable when it holds fewer or more."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    blocks, at = [], 0
    for puzzle in puzzles:
        if at == len(lines):
            raise Unreadable(f"{len(blocks)} answers for {len(puzzles)} puzzles")
        length = answer_length(lines[at], puzzle)
        blocks.append("\n".join(lines[at:at + length]))
        at += length
        if at > len(lines):
            raise Unreadable(f"the output ends inside answer {len(blocks)} of {len(puzzles)}")
    if at < len(lines):
        raise Unreadable(f"more output than {len(puzzles)} answers: "
                         f"{shorten(chr(10).join(lines[at:]))}")
    return blocks


def answer_length(first: str, puzzle: Puzzle) -> int:
    """The lines of the answer starting with `first`: a verdict, or a board's header and rows."""
    if first.upper() in NO_SOLUTION or first.upper().startswith(GAVE_UP):
        return 1
    header = HEADER.match(first)
    return 1 + int(header[2]) if header else puzzle.height


def judged(block: str, puzzle: Puzzle, rules: Rules) -> tuple[str, str | None]:
    """An answer's status and, when it is no verdict to trust, why: a board that cannot be
    traced or that the checker refuses is `wrong`, output that is no answer `error`."""
    try:
        answer = read_answer(block, puzzle)
    except Unreadable as err:
        return "error", f"no answer: {err}"
    if answer.status != "solved":
        return answer.status, None
    try:
        check(puzzle, trace(puzzle, answer.rows, rules), rules)
    except (Untraceable, InvalidSolution) as err:
        return "wrong", f"{err}: {shorten(block)}"
    return "solved", None


def judge_all(text: str, puzzles: list[Puzzle], rules: Rules) -> tuple[Counter, str | None]:
    """Each puzzle's status counted, and the first problem (`FILE#INDEX: why`), if any."""
    try:
        blocks = answer_blocks(text, puzzles)
    except Unreadable as err:
        return Counter(), f"the program's output is not one answer a puzzle: {err}"
    statuses: Counter = Counter()
    problem = None
    for block, puzzle in zip(blocks, puzzles, strict=True):
        status, why = judged(block, puzzle, rules)
        statuses[status] += 1
        if why and problem is None:
            problem = f"{puzzle.file}#{puzzle.index}: {why}"
    return statuses, problem
