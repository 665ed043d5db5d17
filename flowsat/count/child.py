"""Counting in a forked child, its answer pickled back through a pipe: so that a timeout or
the memory cap can stop it (a SIGKILL), and so that counters can race. Forked, not started
through `multiprocessing`: a bench worker, itself a daemon process, may not start one."""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
from collections.abc import Callable


def forked(work: Callable[[], object]) -> tuple[int, int]:
    """A child doing `work`, its answer (or the error it raised) pickled to a pipe: the
    pipe's read end and the child's pid. A child that dies (the memory cap) writes nothing."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: work, write, leave at once (no cleanup of the parent's)
        os.close(read)
        try:
            try:
                found = work()
            except Exception as err:  # carried to the parent, raised there
                found = err
            with os.fdopen(write, "wb") as out:
                pickle.dump(found, out)
        finally:
            os._exit(0)
    os.close(write)
    return read, pid


def answer(read: int) -> object:
    """What a child wrote to its pipe (which this closes); EOFError if it died first."""
    with os.fdopen(read, "rb") as pipe:
        return pickle.load(pipe)


def ended(pid: int) -> None:
    """The child killed, if it is still at work, and reaped."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
