"""Its worker process dies in the middle of a run."""

import os

from tests.bench_backends import Plain


def solve(puzzle, options=None, observe=None):
    os._exit(3)


BACKEND = Plain("dies", solve)
