"""Raises an exception, as a buggy backend would."""

OPTIONS = ()


def solve(puzzle, *, allow_self_touch=False, timeout=None):
    raise RuntimeError(f"broken on {puzzle.name}")
