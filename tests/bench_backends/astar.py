"""Stands for the best-first backend's interface: the `preset` option, `nodes` in its stats."""

from flowsat.result import Result

OPTIONS = ("preset",)


def solve(puzzle, *, rules=None, timeout=None, preset="default"):
    return Result("limit", stats={"nodes": 1}, config={"preset": preset})
