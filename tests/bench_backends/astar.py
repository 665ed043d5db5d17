"""Stands for the best-first backend's interface: the `preset` option, `nodes` in its stats."""

from flowsat.result import Result

OPTIONS = ("preset",)


def solve(puzzle, *, allow_self_touch=False, timeout=None, preset="default"):
    return Result("limit", stats={"nodes": 1}, config={"preset": preset})
