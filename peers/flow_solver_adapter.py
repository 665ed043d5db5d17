"""The 2016 C program (`flow_solver`) as a flowsat solver program: reads a puzzle in the Numberlink
format (`W H` + rows) on standard input, or the grid format from a file named as the argument,
and answers as `flowsat --backend program:...` reads (the solved board as `W H` + rows of the
puzzle's labels, `IMPOSSIBLE`, or `UNKNOWN` and why).

    flowsat solve FILES --backend 'program:python3 -S peers/flow_solver_adapter.py
        --flow-solver ../anchors-bin/flow_solver'
    python3 peers/flow_solver_adapter.py [--flow-solver PATH] [PUZZLE] < puzzle.txt

(`--flow-solver`: default `flow_solver` on PATH; `-S`: Python starts without site packages.)

flow_solver takes square boards up to 14x14 with at most 16 colors, named by the 2016 letters
(R B Y G O C M m P A W g T b c p); the adapter renames the puzzle's labels to those, runs
`flow_solver -A FILE` (no animation: it prints the start, then the solved board, each cell the
display character of its color, and `search successful|unsolvable|out of memory`), and maps the
characters back. Boards it cannot take and a search out of memory are `UNKNOWN`. Standard
library only, so that its start (about 20 ms of Python) is the adapter's whole cost.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# the 2016 program's colors: input letter -> the character its boards show without ANSI colors
DISPLAY = {"R": "o", "B": "+", "Y": "@", "G": "*", "O": "x", "C": "%", "M": "?", "m": "v",
           "P": "^", "A": "=", "W": "~", "g": "-", "T": "$", "b": '"', "c": "&", "p": "."}
MAX_SIZE = 14  # its MAX_SIZE is 15, but a row of 15 and its newline overflow its line buffer
RESULT = re.compile(r"^search (successful|unsolvable|out of memory)", re.MULTILINE)


def read_puzzle(text: str) -> list[str]:
    """The puzzle's rows, from the Numberlink format (after `W H`) or the grid format."""
    lines = [line.strip() for line in text.splitlines()
             if line.strip() and not line.startswith("#")]
    if lines and re.fullmatch(r"\d+\s+\d+", lines[0]):
        width, height = map(int, lines[0].split())
        return lines[1:1 + height] if width else []
    return lines


def labels(rows: list[str]) -> list[str]:
    """The puzzle's labels in order of first appearance."""
    return list(dict.fromkeys(ch for row in rows for ch in row if ch != "."))


def refusal(rows: list[str], found: list[str]) -> str | None:
    """Why flow_solver cannot take the board, if it cannot."""
    if not rows or len(rows) != len(rows[0]) or any(len(r) != len(rows) for r in rows):
        return "flow_solver takes square boards only"
    if not 3 <= len(rows) <= MAX_SIZE:
        return f"flow_solver takes boards from 3x3 to {MAX_SIZE}x{MAX_SIZE}"
    if len(found) > len(DISPLAY):
        return f"flow_solver takes at most {len(DISPLAY)} colors, the puzzle has {len(found)}"
    return None


def solve(rows: list[str], program: str) -> str:
    """flow_solver's answer to the puzzle, in the labels of the puzzle."""
    found = labels(rows)
    why = refusal(rows, found)
    if why:
        return f"UNKNOWN {why}"
    letters = dict(zip(found, DISPLAY, strict=False))  # label -> 2016 letter
    back = {DISPLAY[letter]: label for label, letter in letters.items()}
    with tempfile.TemporaryDirectory(prefix="flow-solver-") as folder:
        board = Path(folder, "board.txt")
        board.write_text("".join("".join(letters.get(ch, ".") for ch in row) + "\n"
                                 for row in rows))
        ran = subprocess.run([program, "-A", str(board)], capture_output=True, text=True)
    result = RESULT.search(ran.stdout)
    if ran.returncode != 0 or not result:
        sys.exit(f"flow_solver failed (exit status {ran.returncode}): "
                 f"{(ran.stderr or ran.stdout).strip()[-200:]}")
    if result[1] == "unsolvable":
        return "IMPOSSIBLE"
    if result[1] == "out of memory":
        return "UNKNOWN flow_solver ran out of memory"
    board_rows = last_board(ran.stdout[:result.start()], len(rows))
    solved = ["".join(back.get(ch, "?") for ch in row) for row in board_rows]
    return "\n".join([f"{len(rows)} {len(rows)}", *solved])


def last_board(text: str, size: int) -> list[str]:
    """The last board printed before the result: rows between `#` walls."""
    rows = [line[1:-1] for line in text.splitlines()
            if len(line) == size + 2 and line[0] == line[-1] == "#" and set(line) != {"#"}]
    return rows[-size:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flow-solver", default=shutil.which("flow_solver") or "flow_solver",
                        help="the 2016 program (default: flow_solver on PATH)")
    parser.add_argument("puzzle", nargs="?", type=Path,
                        help="a puzzle file (default: standard input)")
    args = parser.parse_args()
    text = args.puzzle.read_text() if args.puzzle else sys.stdin.read()
    print(solve(read_puzzle(text), args.flow_solver))


if __name__ == "__main__":
    main()
