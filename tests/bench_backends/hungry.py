"""Runs out of memory, as a backend past every cap would."""

from tests.bench_backends import Plain


def solve(puzzle, options=None, observe=None):
    raise MemoryError


BACKEND = Plain("hungry", solve)
