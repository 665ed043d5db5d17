"""Raises an exception, as a buggy backend would."""

OPTIONS = ()


def solve(puzzle, *, rules=None, timeout=None):
    raise RuntimeError(f"broken on {puzzle.name}")
