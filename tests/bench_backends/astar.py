"""Stands for the best-first backend's interface: the `preset` option, `nodes` in its stats."""

from dataclasses import dataclass

from flowsat.result import Result
from tests.bench_backends import Plain


@dataclass(frozen=True)
class Options:
    preset: str = "default"


def solve(puzzle, options, observe=None):
    return Result("limit", stats={"nodes": 1}, config={"preset": options.preset})


BACKEND = Plain("astar", solve, Options)
