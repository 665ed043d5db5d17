"""Raises an exception, as a buggy backend would."""

from tests.bench_backends import Plain


def solve(puzzle, options=None, observe=None):
    raise RuntimeError(f"broken on {puzzle.name}")


BACKEND = Plain("raises", solve)
