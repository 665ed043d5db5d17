"""A progress bar on stderr: runs done, ETA, and running counts of each status."""

from __future__ import annotations

from collections import Counter
from types import TracebackType

SHOWN = ("solved", "unsolvable", "timeout", "error")


class Progress:
    """`with Progress(total) as p: p.advance(status)`; silent when `enabled` is false."""

    def __init__(self, total: int, enabled: bool = True):
        self.counts: Counter[str] = Counter()
        self.bar = None
        if enabled:
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

    def text(self) -> str:
        counts = [f"{self.counts[s]} {s}" for s in SHOWN]
        counts += [f"{self.counts[s]} {s}" for s in ("limit", "wrong") if self.counts[s]]
        return " · ".join(counts)

    def advance(self, status: str) -> None:
        self.counts[status] += 1
        if self.bar:
            self.bar.update(self.task, advance=1, counts=self.text())

    def __enter__(self) -> Progress:
        if self.bar:
            self.bar.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.bar:
            self.bar.stop()
