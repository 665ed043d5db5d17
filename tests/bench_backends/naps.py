"""Takes a twentieth of a second, then gives up (status `limit`)."""

import time

from flowsat.result import Result
from tests.bench_backends import Plain


def solve(puzzle, options=None, observe=None):
    time.sleep(0.05)
    return Result("limit", stats={"nodes": puzzle.width * puzzle.height})


BACKEND = Plain("naps", solve)
