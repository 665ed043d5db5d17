"""A deadline over a whole solve: encoding, propagation and search start-up included.

The backends check their own clock where they loop (the SAT solver calls, every few hundred
search states); what lies between (building a large formula, the first propagation of a large
board) is pure Python and has no clock of its own. `deadline(seconds)` bounds all of it from
outside: a real-time timer whose signal raises `Timeout` in the main thread wherever the
Python code then is. A signal cannot stop C code, so the solver calls keep their own limits
(`solve_limited` + `interrupt`, CaDiCaL's budget slices); the timer only has to catch the
Python around them. It rings a little after the deadline, so that a backend that notices the
deadline itself reports its own stats, and again every RING_AGAIN_S, in case Python lost an
exception raised where it cannot propagate; it never raises inside a `__del__`, a garbage
collector's callback or a weak reference's (where it would be lost, and could cut a solver's
release in two). Code
that must not be cut short (cleaning up after an outside program) runs `shielded()`: the
timeout waits for its end. Outside the main thread, or where there is no `setitimer`, the block runs
without a timer (the backends' own checks still hold).
"""

from __future__ import annotations

import _weakrefset
import gc
import signal
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from types import FrameType

GRACE_S = 0.2  # the timer rings this long after the deadline
RING_AGAIN_S = 0.1
# the weak references' own modules, whose callbacks (a WeakKeyDictionary's `remove`, a
# `finalize`) run as an object is freed
WEAKREF_FILES = frozenset({weakref.__file__, _weakrefset.__file__})


class Timeout(BaseException):  # as KeyboardInterrupt: no `except Exception` swallows it
    """The deadline of a solve passed in Python code between the backends' own checks."""


class Shield:
    depth = 0  # how many shielded() blocks are running
    deferred = False  # the timer rang inside one


def ring(signum: int, frame: FrameType | None) -> None:
    if Shield.depth:
        Shield.deferred = True
        return
    if in_finalizer(frame):  # lost there, and it may cut a C object's release in two:
        return  # the next ring (RING_AGAIN_S later) raises it
    raise Timeout


def in_finalizer(frame: FrameType | None, depth: int = 4) -> bool:
    """Whether the code the signal came to runs inside a `__del__` (a solver freed by the
    collector, say), a collector's callback or a weak reference's, a few calls deep at most."""
    callbacks = {getattr(c, "__code__", None) for c in gc.callbacks}
    while frame is not None and depth:
        code = frame.f_code
        if code.co_name == "__del__" or code in callbacks or code.co_filename in WEAKREF_FILES:
            return True
        frame, depth = frame.f_back, depth - 1
    return False


@contextmanager
def shielded() -> Iterator[None]:
    """Run the block whole; a timeout that came meanwhile is raised at its end."""
    Shield.depth += 1
    try:
        yield
    finally:
        Shield.depth -= 1
    if Shield.depth == 0 and Shield.deferred:
        Shield.deferred = False
        raise Timeout


def deadline(seconds: float | None) -> AbstractContextManager[None]:
    """Raise `Timeout` in the block once `seconds` (+ GRACE_S) have passed; an outer
    deadline, if any, is kept and restored. Without seconds, or a timer to ring (no
    `setitimer`, not the main thread), a block with nothing around it (no generator to run:
    a puzzle of a pack without a timeout pays nothing)."""
    if (seconds is None or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()):
        return nullcontext()
    return timer(seconds)


@contextmanager
def timer(seconds: float) -> Iterator[None]:
    """`deadline` with a timer."""
    start = time.monotonic()
    outer_handler = signal.signal(signal.SIGALRM, ring)
    outer_left, _ = signal.setitimer(signal.ITIMER_REAL, 0)
    delay = seconds + GRACE_S
    if outer_left:
        delay = min(delay, outer_left)
    signal.setitimer(signal.ITIMER_REAL, max(delay, 1e-6), RING_AGAIN_S)
    try:
        yield
    finally:
        while True:  # stop the timer, even when it rings on the way
            try:
                signal.setitimer(signal.ITIMER_REAL, 0)
                break
            except Timeout:
                continue
        Shield.deferred = False
        signal.signal(signal.SIGALRM, outer_handler)
        if outer_left:
            left = outer_left - (time.monotonic() - start)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-6), RING_AGAIN_S)

