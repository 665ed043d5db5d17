"""Runs out of memory, as a backend past every cap would."""

OPTIONS = ()


def solve(puzzle, *, rules=None, timeout=None):
    raise MemoryError
