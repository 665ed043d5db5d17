"""A bench's progress on stderr: runs done, ETA, and running counts of each status; a bar on a
terminal, else (a log: `flowsat bench ... > log 2>&1`) a line at least every 10 s and at
every tenth of the runs (none in a bench's first 10 s)."""

from __future__ import annotations

import sys
import threading
import time
from collections import Counter
from types import TracebackType
from typing import Literal

SHOWN = ("solved", "unsolvable", "timeout", "error")
EVERY_S = 10.0  # the longest a log goes without a line
STEPS = 10  # ... and a line at each tenth of the runs
QUIET_S = 1.0  # but never two lines closer than this: a fast bench's log is not flooded,
FIRST_S = EVERY_S  # nor a line before this: a bench that ends sooner needs none
Mode = Literal["bar", "lines"] | None


class Progress:
    """`with Progress(total, mode) as p: p.advance(status)`: a bar ("bar", or True), lines
    ("lines"), or nothing (None, False)."""

    def __init__(self, total: int, mode: Mode | bool = "bar"):
        mode = "bar" if mode is True else None if mode is False else mode
        self.counts: Counter[str] = Counter()
        self.total, self.bar, self.lines = total, None, None
        if mode == "bar":
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
            from rich.progress import Progress as Bar

            self.bar = Bar(TextColumn("bench"), BarColumn(), MofNCompleteColumn(),
                           TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                           TextColumn("{task.fields[counts]}"),
                           console=Console(stderr=True))
            self.task = self.bar.add_task("bench", total=total, counts=self.text())
        elif mode == "lines":
            self.lines = Lines(self)

    def text(self) -> str:
        counts = [f"{self.counts[s]} {s}" for s in SHOWN]
        counts += [f"{self.counts[s]} {s}" for s in ("limit", "wrong") if self.counts[s]]
        return " · ".join(counts)

    @property
    def done(self) -> int:
        return sum(self.counts.values())

    def advance(self, status: str) -> None:
        self.counts[status] += 1
        if self.bar:
            self.bar.update(self.task, advance=1, counts=self.text())
        if self.lines:
            self.lines.advanced()

    def __enter__(self) -> Progress:
        if self.bar:
            self.bar.start()
        if self.lines:
            self.lines.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.bar:
            self.bar.stop()
        if self.lines:
            self.lines.stop()


class Lines:
    """The progress of a bench as lines: one when a tenth more of the runs is done, and one
    every `EVERY_S` seconds (a thread's clock: a run may take minutes) when none came."""

    def __init__(self, progress: Progress):
        self.progress = progress
        self.start_s = self.last_s = time.monotonic()
        self.step = 0  # the tenths of the runs the lines have shown
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.clock = threading.Thread(target=self.tick, daemon=True, name="bench-progress")

    def start(self) -> None:
        self.start_s = self.last_s = time.monotonic()
        self.clock.start()

    def stop(self) -> None:
        self.stopped.set()
        if self.clock.is_alive():
            self.clock.join()

    def tick(self) -> None:
        """A line whenever `EVERY_S` seconds passed without one."""
        while not self.stopped.wait(max(0.0, self.last_s + EVERY_S - time.monotonic())):
            if time.monotonic() - self.last_s >= EVERY_S:
                self.write()

    def advanced(self) -> None:
        """A line when the runs done reach another tenth (the last one too: the end), from
        `FIRST_S` seconds on."""
        step, now = self.progress.done * STEPS // max(1, self.progress.total), time.monotonic()
        if step > self.step and now - self.last_s >= QUIET_S and now - self.start_s >= FIRST_S:
            self.step = step
            self.write()

    def write(self) -> None:
        with self.lock:
            self.last_s = time.monotonic()
            sys.stderr.write(line(self.progress, self.last_s - self.start_s) + "\n")
            sys.stderr.flush()


def line(progress: Progress, elapsed: float) -> str:
    """`flowsat: bench 40/130 (30%) · counts · 1m05s elapsed, about 2m32s left`."""
    done, total = progress.done, progress.total
    failed = sum(progress.counts[s] for s in ("error", "limit", "wrong"))
    left = f"about {clock(elapsed / done * (total - done))} left" if done else "time left unknown"
    return (f"flowsat: bench {done}/{total} ({done * 100 // max(1, total)}%) · {failed} failed · "
            f"{progress.text()} · {clock(elapsed)} elapsed, {left}")


def clock(seconds: float) -> str:
    """Seconds as `1h02m`, `3m05s` or `12s`."""
    s = round(seconds)
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    return f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"
