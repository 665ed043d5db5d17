"""Takes 0.3 s, then gives up (status `limit`): long enough to be caught mid-run."""

import time

from flowsat.result import Result
from tests.bench_backends import Plain


def solve(puzzle, options=None, observe=None):
    time.sleep(0.3)
    return Result("limit", stats={"nodes": puzzle.width * puzzle.height})


BACKEND = Plain("slow", solve)
