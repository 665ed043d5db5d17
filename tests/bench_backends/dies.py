"""Its worker process dies in the middle of a run."""

import os

OPTIONS = ()


def solve(puzzle, *, rules=None, timeout=None):
    os._exit(3)
