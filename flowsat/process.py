"""Running an outside program with a deadline, as a process group of its own.

The program starts in a new session, so the group holds it and everything it starts (a shell's
pipeline, an adapter's solver). When it exits, past its deadline, and whenever flowsat stops
while it runs (Ctrl-C, SIGTERM, an exception), the whole group is killed: no orphans. While a
program runs, a SIGTERM that would have killed flowsat outright ends it as `SystemExit(143)`,
so that this cleanup (and any temporary folder's) happens first.
"""

from __future__ import annotations

import contextlib
import os
import resource
import select
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from flowsat.deadline import shielded
from flowsat.result import UsageError

TERMINATED = 128 + signal.SIGTERM  # the exit status of a process ended by SIGTERM
MAX_OUTPUT = 16 * 2**20  # bytes of output a program may write: far more than any board


@dataclass
class Finished:
    """How a program ended: its exit status (negative: killed by that signal), its output,
    whether the deadline killed it, its whole life in seconds, and whether its standard output
    reached MAX_OUTPUT (what it wrote past that is lost)."""

    returncode: int
    stdout: str
    stderr: str
    timed_out: bool
    seconds: float
    cut: bool = False

    def how(self) -> str:
        """Its end in words: `exit status N` or `killed by SIGNAME`."""
        if self.returncode < 0:
            return f"killed by {signal.Signals(-self.returncode).name}"
        return f"exit status {self.returncode}"


def command_words(command: str, what: str) -> list[str]:
    """The words of a command line, checked: not empty, quotes closed, the program found and
    executable; a UsageError naming what is wrong otherwise."""
    try:
        argv = shlex.split(command)
    except ValueError as err:
        raise UsageError(f"{what} {command!r}: {err}") from None
    if not argv:
        raise UsageError(f"{what} is empty: give a command, e.g. 'cadical -q'")
    program = argv[0]
    if os.sep in program:
        if not os.path.exists(program):
            raise UsageError(f"{what} {program!r} is not a program: no such file")
        if os.path.isdir(program) or not os.access(program, os.X_OK):
            raise UsageError(f"{what} {program!r} is not an executable file")
    elif shutil.which(program) is None:
        raise UsageError(f"{what} {program!r} is not a program on PATH")
    return argv


def run_program(argv: list[str], stdin: Path | None = None,
                timeout: float | None = None) -> Finished:
    """Run the program to its end or its deadline, its standard input read from the file
    `stdin` (else nothing). Its output goes to files, never to memory: each may grow to
    `MAX_OUTPUT` bytes (past that the program gets SIGXFSZ), and that much is read back. A
    solve's `deadline` waits for its end (the program keeps its own timeout), so that the
    group is killed and the folder removed before the timeout is raised."""
    with (shielded(), terminate_as_exit(),
          tempfile.TemporaryDirectory(prefix="flowsat-run-") as folder,
          open(stdin or os.devnull, "rb") as source, open(Path(folder, "out"), "w+b") as out,
          open(Path(folder, "err"), "w+b") as err):
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdin=source, stdout=out, stderr=err,
                                   start_new_session=True, preexec_fn=limit_output)
        try:
            timed_out = not ended(process, timeout)
        finally:
            kill_group(process)  # what the program left running, or everything on the way out
        seconds = round(time.perf_counter() - start, 6)
        cut = out.seek(0, os.SEEK_END) >= MAX_OUTPUT
        return Finished(process.returncode, text(out), text(err), timed_out, seconds, cut)


def ended(process: subprocess.Popen, timeout: float | None) -> bool:
    """Whether the program ended within the timeout (then reaped). Waits on its pidfd where
    the system has one: woken as it exits, where `Popen.wait(timeout)` polls, sleeping up to
    50 ms at a time (a 70 ms program measured 120 ms)."""
    try:
        pidfd = os.pidfd_open(process.pid)
    except (AttributeError, OSError):
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            return False
        return True
    try:
        waiting = select.poll()  # (not select.select: no limit on the descriptor's number)
        waiting.register(pidfd, select.POLLIN)
        if not waiting.poll(None if timeout is None else max(0, round(timeout * 1000))):
            return False
    finally:
        os.close(pidfd)
    process.wait()
    return True


def limit_output() -> None:
    """In the program's process, before it starts: files it writes stop at MAX_OUTPUT."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (MAX_OUTPUT, MAX_OUTPUT))


def text(file: BinaryIO) -> str:
    """What the program wrote to the file, as text (undecodable bytes replaced)."""
    file.seek(0)
    return file.read(MAX_OUTPUT).decode("utf-8", errors="replace")


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
