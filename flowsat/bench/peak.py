"""Run a program and write its wall and CPU seconds and its peak resident memory (MB) to a
file, as one line: `python -S peak.py OUT PROGRAM [ARGS...]`, exiting as the program did.

Run as a small process of its own (no site, no flowsat), because Linux counts in a child's
peak memory the pages of the process it was forked from: a program started straight from the
bench, which holds the plan's puzzles, would never read less than the bench's size. This
process is a few MB, and the program is spawned from it, so its peak is its own."""

import os
import sys
import time


def main() -> None:
    out, argv = sys.argv[1], sys.argv[2:]
    start = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    with open(out, "w", encoding="utf-8") as f:
        f.write(f"{wall:.6f} {usage.ru_utime + usage.ru_stime:.6f} {usage.ru_maxrss / 1024:.1f}\n")
    code = os.waitstatus_to_exitcode(status)
    if code < 0:  # killed by a signal: die by the same one, so the caller sees it
        os.kill(os.getpid(), -code)
    sys.exit(code)


if __name__ == "__main__":
    main()
