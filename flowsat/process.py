"""Running an outside program with a deadline, as a process group of its own.

The program starts in a new session, so the group holds it and everything it starts (a shell's
pipeline, an adapter's solver). Past its deadline, and whenever flowsat stops while it runs
(Ctrl-C, SIGTERM, an exception), the whole group is killed and waited for: no orphans. While a
program runs, a SIGTERM that would have killed flowsat outright ends it as `SystemExit(143)`,
so that this cleanup (and any temporary folder's) happens first.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from flowsat.result import UsageError

TERMINATED = 128 + signal.SIGTERM  # the exit status of a process ended by SIGTERM


@dataclass
class Finished:
    """How a program ended: its exit status (negative: killed by that signal), its output,
    whether the deadline killed it, and its whole life in seconds."""

    returncode: int
    stdout: str
    stderr: str
    timed_out: bool
    seconds: float

    def how(self) -> str:
        """Its end in words: `exit status N` or `killed by SIGNAME`."""
        if self.returncode < 0:
            return f"killed by {signal.Signals(-self.returncode).name}"
        return f"exit status {self.returncode}"


def check_program(argv: list[str], what: str = "program") -> None:
    """A UsageError unless the command names a program that can be run."""
    if not argv or shutil.which(argv[0]) is None:
        raise UsageError(f"{what} {argv[0] if argv else '(empty command)'!r} is not a program "
                         f"on PATH or a runnable file")


def run_program(argv: list[str], stdin: Path | None = None,
                timeout: float | None = None) -> Finished:
    """Run the program to its end or its deadline, its standard input read from the file
    `stdin` (else nothing: a file, not a pipe, so a program that does not read it is fine)."""
    with terminate_as_exit(), open(stdin or os.devnull, "rb") as source:
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdin=source, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, errors="replace",
                                   start_new_session=True)
        timed_out = False
        try:
            try:
                out, err = process.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
                kill_group(process)
                out, err = process.communicate()
        finally:
            kill_group(process)  # what the program left running, or everything on the way out
        return Finished(process.returncode, out, err, timed_out,
                        round(time.perf_counter() - start, 6))


def kill_group(process: subprocess.Popen) -> None:
    """SIGKILL to the program's whole process group; the program reaped."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    if process.returncode is None:
        with contextlib.suppress(Exception):
            process.kill()
        process.wait()


def exit_on_terminate(*_: object) -> None:
    raise SystemExit(TERMINATED)


@contextlib.contextmanager
def terminate_as_exit() -> Iterator[None]:
    """Within: SIGTERM raises SystemExit where it would have killed the process silently (only
    the main thread can take signals; a handler someone else set is left alone)."""
    main = threading.current_thread() is threading.main_thread()
    if not main or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return
    signal.signal(signal.SIGTERM, exit_on_terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
