"""A stand-in solver program for `--backend program:...`: reads a puzzle (`W H` + rows on stdin,
or the file given after the mode) and behaves as its mode says.

    table       answers from its table of solved boards (UNKNOWN for a puzzle not in it)
    wrong       a board of the right size with every cell the first label: no paths
    impossible  IMPOSSIBLE
    crash       a message on stderr, exit status 3, no answer
    segfault    killed by SIGSEGV
    hang PIDS   starts a child that sleeps, writes both pids (and the puzzle file given, or
                -) to the file PIDS, and sleeps
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

TABLE = {  # puzzle rows -> solved rows
    ("H.AB.", "GH.A.", ".GFFB", "DE.EC", ".DC.."): ("HHABB", "GHAAB", "GGFFB", "DEEEC", "DDCCC"),
    # puzzles/unsolvable/self_touch_5x5.txt: solvable only by paths that touch themselves
    ("O.OG.", "Y..YG", "B.BR.", "...R.", "....."): ("OOOGG", "YYYYG", "BBBRR", "BBBRR", "BBBRR"),
}


def puzzle_rows(text: str) -> tuple[str, ...]:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return tuple(lines[1:]) if lines[0].replace(" ", "").isdigit() else tuple(lines)


def main() -> None:
    mode, *rest = sys.argv[1:]
    pids = rest.pop(0) if mode == "hang" else None
    text = Path(rest[0]).read_text() if rest else sys.stdin.read()
    rows = puzzle_rows(text)
    if mode == "table":
        solved = TABLE.get(rows)
        print("\n".join([f"{len(rows[0])} {len(rows)}", *solved]) if solved
              else "UNKNOWN not in my table")
    elif mode == "wrong":
        label = next(ch for row in rows for ch in row if ch != ".")
        print("\n".join(label * len(row) for row in rows))
    elif mode == "impossible":
        print("IMPOSSIBLE")
    elif mode == "crash":
        print("something went wrong", file=sys.stderr)
        sys.exit(3)
    elif mode == "segfault":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif mode == "hang":
        child = subprocess.Popen(["sleep", "60"])
        Path(pids).write_text(f"{os.getpid()} {child.pid} {rest[0] if rest else '-'}\n")
        time.sleep(60)


if __name__ == "__main__":
    main()
