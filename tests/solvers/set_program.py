"""A stand-in solver program for a whole set (`timing = "set"` of a `program:` row): reads
Numberlink puzzles (on stdin, or the file given after the mode), solves each with flowsat's
best-first search and prints the answers in order, as the Go Numberlink solver does.

    answers [--self-touch]  `W H` and the rows (paths may touch themselves with the flag), a
                            blank line after each; UNSOLVABLE for a puzzle without solution
    headless                the solved rows alone, no `W H` line, no blank line
    short                   the answers but the last
    wrong                   the first answer a board with every cell its first label
"""

import sys
from pathlib import Path

from flowsat.program.answer import answer_rows
from flowsat.puzzle import Puzzle, parse_puzzles, solution_grid
from flowsat.puzzle.rules import Rules
from flowsat.solve import solve


def main() -> None:
    mode, *rest = sys.argv[1:]
    touch = "--self-touch" in rest
    files = [r for r in rest if r != "--self-touch"]
    text = Path(files[0]).read_text() if files else sys.stdin.read()
    puzzles = [p for p in parse_puzzles(text) if isinstance(p, Puzzle)]
    results = [(p, solve(p, "astar", rules=Rules(self_touch=touch))) for p in puzzles]
    answers = [answer_rows(p, r) for p, r in results]
    if mode == "headless":
        answers = ["\n".join(solution_grid(p, r.paths)) for p, r in results]
    elif mode == "short":
        answers = answers[:-1]
    elif mode == "wrong" and puzzles:
        first = puzzles[0]
        label = next(ch for row in first.rows for ch in row if ch != ".")
        answers[0] = "\n".join([f"{first.width} {first.height}",
                                *[label * first.width] * first.height, ""])
    print("\n".join(answers))


if __name__ == "__main__":
    main()
