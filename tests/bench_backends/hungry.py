"""Runs out of memory, as a backend past every cap would."""

OPTIONS = ()


def solve(puzzle, *, allow_self_touch=False, timeout=None):
    raise MemoryError
