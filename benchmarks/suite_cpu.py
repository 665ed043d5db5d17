"""A pytest plugin: the CPU seconds each test file takes (the test's process and the children it
waited for), summed over the xdist workers, beside its wall seconds.

On a loaded machine the wall seconds grow with the load and the CPU seconds hardly move: they
are what a quiet machine would take, waits aside. Use:

    PYTHONPATH=benchmarks .venv/bin/pytest -p suite_cpu
"""

from __future__ import annotations

import resource
import time
from collections import defaultdict

import pytest

TOP = 15  # files listed
STARTED = pytest.StashKey[tuple[float, float]]()
totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])


def cpu_seconds() -> float:
    """User and system time of this process and of the children it has waited for."""
    own, children = (resource.getrusage(who) for who in
                     (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    item.stash[STARTED] = (cpu_seconds(), time.perf_counter())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    if call.when == "teardown" and STARTED in item.stash:
        cpu, wall = item.stash[STARTED]
        outcome.get_result().user_properties.append(
            ("suite_cpu", (cpu_seconds() - cpu, time.perf_counter() - wall)))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Where the reports arrive: in the one process, or in the controller from the workers."""
    for name, (cpu, wall) in report.user_properties:
        if name == "suite_cpu":
            row = totals[report.nodeid.split("::")[0]]
            row[0], row[1], row[2] = row[0] + cpu, row[1] + wall, row[2] + 1


def pytest_terminal_summary(terminalreporter) -> None:
    if not totals:
        return
    cpu = sum(row[0] for row in totals.values())
    terminalreporter.section(f"CPU by test file: {cpu:.1f} s in all")
    for file, (seconds, wall, count) in sorted(totals.items(), key=lambda kv: -kv[1][0])[:TOP]:
        terminalreporter.write_line(f"{seconds:7.1f} s CPU {100 * seconds / cpu:5.1f} % "
                                    f"{wall:7.1f} s wall {count:4d} tests  {file}")
