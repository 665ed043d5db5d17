"""Memory caps, so that no run is killed by the operating system: the default cap (a share of
the memory available when the run starts) and what this process holds now."""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import TypeVar

MB = 1 << 20
DEFAULT_SHARE = 0.5  # of the memory available when the run starts
ADDRESS_SHARE = 0.8  # the last line: the address space a process may add, of what is available
ADDRESS_FLOOR_MB = 2048.0  # but at least this much: mappings reserved, not used, count too
FALLBACK_MB = 2048.0  # when the system tells nothing
_given: list[float] = []  # a default set for this process by its parent (bench workers)
T = TypeVar("T")


def available_mb() -> float | None:
    """The memory the system can give without swapping now: MemAvailable of /proc/meminfo,
    else the physical memory, else None."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / MB
    except (AttributeError, OSError, ValueError):
        return None


@cache
def measured_cap_mb() -> float:
    """DEFAULT_SHARE of the memory available at the first call in this process: the start of
    the run (FALLBACK_MB when the system tells nothing)."""
    available = available_mb()
    return round(DEFAULT_SHARE * available if available else FALLBACK_MB, 1)


def default_cap_mb() -> float:
    """The cap in MB of a run given no --max-memory."""
    return _given[-1] if _given else measured_cap_mb()


def set_default_cap_mb(mb: float) -> None:
    """Make `mb` this process's default cap (a bench's workers share the bench's)."""
    _given.append(mb)


def cap_mb(max_memory: float | None) -> float:
    return default_cap_mb() if max_memory is None else max_memory


def shown(mb: float) -> str:
    """An amount of MB as the messages give it: 7,512 MB, 0.5 MB."""
    return f"{mb:,.0f} MB" if mb >= 10 else f"{mb:.2g} MB"


def resident_mb() -> float | None:
    """What this process holds in memory now (its resident set), where the system says."""
    return statm_mb(1)


def mapped_mb() -> float | None:
    """The address space this process has mapped now, where the system says."""
    return statm_mb(0)


def statm_mb(field: int) -> float | None:
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[field]) * os.sysconf("SC_PAGE_SIZE") / MB
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def limit_address_space() -> None:
    """The last line, for the command line: this process (and the workers it starts) may map
    what it has now plus ADDRESS_SHARE of the memory available (ADDRESS_FLOOR_MB at least,
    as libraries reserve address space they never use), no more, so that an
    allocation the caps did not foresee fails (MemoryError: status `limit`) before the system
    kills a process. A lower limit already set is kept."""
    try:
        import resource
    except ImportError:  # not on this system
        return
    mapped, available = mapped_mb(), available_mb()
    if mapped is None or available is None:
        return
    want = int((mapped + max(ADDRESS_SHARE * available, ADDRESS_FLOOR_MB)) * MB)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    if soft == resource.RLIM_INFINITY or want < soft:
        resource.setrlimit(resource.RLIMIT_AS, (want, hard))


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off for a while (a decorator or a `with`): a formula is many
    small lists, none in a cycle, and the collector's passes over them (one every 700 new
    objects, now and then over every object there is) take a third of building and loading
    it. Cycles made meanwhile are collected once it is back on."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def for_good(load: Callable[[], T]) -> T:
    """What `load` returns, made with the cycle collector paused, then kept out of every later
    collection (`gc.freeze`, for the whole process: the command line's, not a library's): the
    modules a run imports live as long as it does, and the collector's passes over the objects
    they make (the 2016 set: some 20 passes, 2% of a run's instructions) find nothing."""
    with collector_paused():
        made = load()
        gc.freeze()  # before the collector is back: its next pass would look at them all
    return made
