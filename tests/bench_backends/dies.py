"""Its worker process dies in the middle of a run."""

import os

OPTIONS = ()


def solve(puzzle, *, allow_self_touch=False, timeout=None):
    os._exit(3)
