"""The machine and software a bench ran on, for `meta.json` and the report."""

from __future__ import annotations

import os
import platform
import socket
import subprocess
from datetime import UTC, datetime
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

import flowsat

PACKAGES = ("python-sat", "numpy", "typer", "rich", "matplotlib", "pycosat", "ortools")


def environment() -> dict[str, Any]:
    """CPU, cores, memory, OS, Python and package versions, flowsat's version and commit."""
    return {
        "date": now(), "cpu": cpu_model(), "cores": os.cpu_count(), "memory_gib": memory_gib(),
        "os": platform.platform(), "python": f"{platform.python_implementation()} "
                                             f"{platform.python_version()}",
        "flowsat": flowsat.__version__, "git": git_state(), "packages": versions(),
        "load_average": load_average(),
    }


@cache
def where() -> dict[str, str]:
    """The host a run ran on and its machine (CPU, cores, memory), for every record: timings
    from different machines are not comparable."""
    return {"host": socket.gethostname(),
            "machine": f"{cpu_model()}, {os.cpu_count()} cores, {memory_gib()} GiB"}


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def load_average() -> list[float] | None:
    """The 1, 5 and 15 minute load averages: how busy the machine was."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def memory_gib() -> float | None:
    try:
        total_kib = int(Path("/proc/meminfo").read_text().split()[1])
        return round(total_kib / 2**20, 1)
    except (OSError, ValueError, IndexError):
        return None


def versions() -> dict[str, str | None]:
    found: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    return found


def git_state() -> dict[str, Any] | None:
    """The commit flowsat's source is at and whether it has uncommitted changes, if a checkout."""
    source = Path(flowsat.__file__).resolve().parent

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(source), *args], capture_output=True,
                              text=True, timeout=10, check=True).stdout.strip()
    try:
        return {"commit": git("rev-parse", "HEAD"),
                "dirty": bool(git("status", "--porcelain", "--untracked-files=no"))}
    except (OSError, subprocess.SubprocessError):
        return None
