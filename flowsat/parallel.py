"""Work on many puzzles in worker processes, the answers given back in input order as soon as
every earlier one is in (`--jobs` of `solve`, `rate`, `check-unique`, `convert`).

The items are cut into blocks of consecutive ones (`bounds`): BLOCK, BLOCK, then twice as
many twice, and so on up to MAX_BLOCK (16, 16, 32, 32, 64, 64, 128, 128, 256, 256, ...),
fixed by the index alone, whatever the number of workers or of items. Each block starts
afresh: what the work keeps from one item to the next (a board compiled for SAT, in the
`sat.kept.Kept` the caller owns) is forgotten first, and the block's items are told
(`answers`' `fresh`: a board that several of them share compiles at the first). A worker is
given whole blocks, so every item meets the same history, and gives the same answer,
whatever `--jobs` is. Small inputs still make blocks for two workers; long ones start few
blocks; the last blocks stay small enough that a worker does not wait long for the one still
on the last.

The workers are forked from the command once its imports are done and the first blocks read
(enough to tell how many workers the items need: `read_ahead`), the cheapest start on Linux.
The parent reads the rest while they work, and sends each block's items as it is read; each
worker sends back one answer an item as it is done. A worker ignores Ctrl-C: the parent
stops them all and the answers printed so far stay. An exception raised by the work goes
back as the item's answer, to be raised again in the parent at the item's turn, as if the
work had run there.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, islice, takewhile
from typing import TYPE_CHECKING, Generic, TypeVar

from flowsat import memory

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.context import BaseContext
    from multiprocessing.process import BaseProcess

# A worker pays off from this many items each: below, forking and the compiled boards made
# again in every worker cost more than the items save (see docs/solving.md, --jobs).
MIN_ITEMS_A_WORKER = 8
# Items of the first two blocks, and of any block at most (see the module docstring): each
# block starts its boards on fresh solvers (their formulas are kept: sat.boards.Formulas)
# and is handed out whole: fewer blocks than workers leave workers idle, and so does a long
# last block (docs/performance.md, blocks)
BLOCK = 16
MAX_BLOCK = 256
STOP_GRACE = 1.0  # seconds a worker has to end after SIGTERM
PARENT_POLL = 1.0  # seconds between a worker's looks at its parent, where no signal tells it
PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies
Fresh = Callable[[Sequence], None] | None  # told each block's items as it starts


T = TypeVar("T")
R = TypeVar("R")


class Done(Generic[R]):
    """The answer of the work on one item: what it returned or the exception it raised (a
    plain class: making a dataclass costs every start some 3 M instructions)."""

    __slots__ = ("error", "value")

    def __init__(self, value: R | None = None, error: Exception | None = None):
        self.value, self.error = value, error

    def get(self) -> R:
        """The value, or the exception raised again."""
        if self.error is not None:
            raise self.error
        return self.value  # type: ignore[return-value]


def attempt(work: Callable[[T], R], item: T) -> Done[R]:
    """The work on the item, its answer or the exception it raised."""
    try:
        return Done(work(item))
    except Exception as err:
        return Done(error=err)


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def bounds() -> Iterator[range]:
    """The blocks, by index, from the first on, without end (see the module docstring)."""
    start, size = 0, BLOCK
    while True:
        for _ in range(2):
            yield range(start, start + size)
            start += size
        size = min(2 * size, MAX_BLOCK)


def blocks_in(count: int) -> int:
    """The blocks that `count` items begin."""
    return sum(1 for _ in takewhile(lambda block: block.start < count, bounds()))


def workers_for(count: int, jobs: int | None) -> int:
    """The worker processes for `count` items and `--jobs` (None: every core), no more than
    there are blocks: 1 means the work runs here, without workers."""
    return max(1, min(wanted(jobs), count // MIN_ITEMS_A_WORKER, blocks_in(count)))


def wanted(jobs: int | None) -> int:
    """The workers `--jobs` asks for (None: every core)."""
    return cores() if jobs is None else jobs


def read_ahead(items: Iterable[T], jobs: int | None) -> tuple[Iterator[T], int]:
    """The items, still to be read, and the worker processes for them: with more than one
    wanted, the items up to the first of the block the last worker would be given are read
    now (all of them if they end before), so that no more workers start than there are
    blocks."""
    source, most = iter(items), wanted(jobs)
    if most == 1:
        return source, 1
    last = next(islice(bounds(), most - 1, None))
    ahead = list(islice(source, last.start + 1))
    return chain(ahead, source), workers_for(len(ahead), most)


def share(max_memory: float | None, workers: int) -> float | None:
    """A worker's part of a memory cap the workers share (None: the default's part, which each
    worker is given as its default)."""
    return None if max_memory is None else max_memory / workers


def answers(items: Iterable[T], work: Callable[[T], R], workers: int = 1, fresh: Fresh = None
            ) -> Iterator[tuple[T, Done[R]]]:
    """Each item with the answer of `work` on it, in the order of the items, on `workers`
    processes (1: here, a block at a time, each read whole before the work on it starts).
    `fresh(items)` is told each block as it starts: the work forgets what it kept from the
    items before (in a worker, its own copy of what the caller owns)."""
    if workers > 1:
        yield from pooled(items, work, workers, fresh)
        return
    source = iter(items)
    for block in bounds():
        if not (todo := list(islice(source, len(block)))):
            return
        if fresh is not None:
            fresh(todo)
        for item in todo:
            yield item, attempt(work, item)


Block = tuple[int, list]  # the index of a block's first item, and its items


def serve(conn: Connection, work: Callable[[T], R], cap_mb: float, parent: int,
          fresh: Fresh = None) -> None:
    """A worker's life: do the work on each block of items sent, answer by answer, until the
    parent (process `parent`) closes the pipe or dies."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent(parent)
    memory.set_default_cap_mb(cap_mb)
    try:
        while True:
            start, items = conn.recv()
            if fresh is not None:
                fresh(items)
            for i, item in enumerate(items, start):
                done = portable(attempt(work, item))
                conn.send((i, done.value, done.error))  # plain: no class of its own to pickle
    except (EOFError, BrokenPipeError):  # the parent is gone or done
        return


def portable(done: Done[R]) -> Done[R]:
    """The answer, or, where its exception cannot be sent whole, the exception in words."""
    if done.error is None:
        return done
    try:
        import pickle  # (here: only a worker's error goes through it)

        pickle.loads(pickle.dumps(done.error))
    except Exception:
        return Done(error=RuntimeError(f"{type(done.error).__name__}: {done.error}"))
    return done


def exit_with_parent(parent: int) -> None:
    """End this process (SIGTERM: a solver program it runs goes with it, `flowsat.process`)
    when its parent does, however the parent ends, kill -9 included: the pipe cannot tell, as
    every worker forked later holds its end too. Linux signals the death (PR_SET_PDEATHSIG);
    elsewhere a thread watches the parent's pid."""
    if not signal_at_parent_death(signal.SIGTERM):
        import threading

        threading.Thread(target=watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # it died before the signal was asked for
        os.kill(os.getpid(), signal.SIGTERM)


def signal_at_parent_death(signum: int) -> bool:
    """Whether the system sends this process the signal when its parent dies (Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def watch_parent(parent: int) -> None:
    """SIGTERM to this process once its parent is no longer `parent` (it died: the process
    was handed to another)."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL)
    os.kill(os.getpid(), signal.SIGTERM)


class Worker:
    """A worker process and the block of items it is on."""

    def __init__(self, context: BaseContext, work: Callable, cap_mb: float, fresh: Fresh = None):
        sys.stdout.flush()  # what is buffered here would be written again by the child
        sys.stderr.flush()
        self.conn, child = context.Pipe()
        self.process = context.Process(target=serve, daemon=True,
                                       args=(child, work, cap_mb, os.getpid(), fresh))
        self.process.start()
        child.close()
        self.left: set[int] = set()

    def give(self, todo: deque[Block]) -> None:
        if todo and not self.left:
            start, items = block = todo.popleft()
            self.left = set(range(start, start + len(items)))
            with contextlib.suppress(OSError):  # the worker died: `collect` answers its items
                self.conn.send(block)

    def take(self, done: dict[int, Done]) -> bool:
        """Read the answer that is in; False if the worker died instead (`collect`)."""
        try:
            i, value, error = self.conn.recv()
        except (EOFError, OSError):
            return self.collect(done)
        done[i] = Done(value, error)
        self.left.discard(i)
        return True

    def collect(self, done: dict[int, Done]) -> bool:
        """Take the answers that are in; False if the worker died (its items are answered
        with the error)."""
        try:
            while self.left and self.conn.poll():
                i, value, error = self.conn.recv()
                done[i] = Done(value, error)
                self.left.discard(i)
            if not self.left or self.process.is_alive():
                return True
        except (EOFError, OSError):
            pass
        self.process.join()
        error = RuntimeError(f"worker process died ({death(self.process.exitcode)})")
        done.update((i, Done(error=error)) for i in self.left)
        self.left = set()
        return False

    def stop(self) -> None:
        """SIGTERM first, so that a solver program the worker runs is killed with its process
        group (`flowsat.process`); SIGKILL if it has not ended within STOP_GRACE."""
        self.conn.close()
        stop_process(self.process)


def stop_process(process: BaseProcess) -> None:
    """SIGTERM (the process ends its program's group, `flowsat.process`), then SIGKILL if it
    has not ended within STOP_GRACE."""
    if process.is_alive():
        process.terminate()
        process.join(STOP_GRACE)
    if process.is_alive():
        process.kill()
        process.join()


def death(exitcode: int | None) -> str:
    """How a worker process ended, in words."""
    if exitcode is not None and exitcode < 0:
        return f"killed by {signal.Signals(-exitcode).name}"
    return f"exit status {exitcode}"


def pooled(items: Iterable[T], work: Callable[[T], R], workers: int, fresh: Fresh = None
           ) -> Iterator[tuple[T, Done[R]]]:
    """`answers` over worker processes forked from this one, the items read while they work
    (a block at a time, no more than one a worker ahead of them)."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    cap = memory.default_cap_mb() / workers  # measured here, before any worker starts
    source, sizes = iter(items), bounds()
    todo: deque[Block] = deque()  # blocks read, not yet handed out
    read: dict[int, T] = {}  # items read, not yet given back
    done: dict[int, Done] = {}
    shown, more = 0, True
    pool = [Worker(context, work, cap, fresh) for _ in range(workers)]
    ready = selectors.DefaultSelector()  # kept for the run: one made a wait costs more
    for w in pool:  # than a small puzzle's answer
        watch(ready, w)
    try:
        while more or read:
            for w in pool:
                w.give(todo)
            if more and len(todo) < workers:
                more = read_block(source, next(sizes), read, todo)
                continue
            for key, _ in ready.select():
                w, what = key.data
                if w not in pool:  # replaced on the way
                    continue
                if what == "ended":  # its answers taken, the rest answered with the error
                    w.process.join()  # (its sentinel may close before it can be reaped)
                    w.collect(done)
                if what == "ended" or not w.take(done):
                    ready.unregister(w.conn)
                    ready.unregister(w.process.sentinel)
                    w.stop()
                    pool[pool.index(w)] = w = Worker(context, work, cap, fresh)
                    watch(ready, w)
                w.give(todo)
            while shown in done:
                yield read.pop(shown), done.pop(shown)
                shown += 1
    finally:
        ready.close()
        for w in pool:
            w.stop()


def read_block(source: Iterator[T], block: range, read: dict[int, T], todo: deque[Block]
               ) -> bool:
    """Read the block's items (fewer where the source ends) to hand out; False if the
    source has ended."""
    items = list(islice(source, len(block)))
    if items:
        read.update(enumerate(items, block.start))
        todo.append((block.start, items))
    return len(items) == len(block)


def watch(ready: selectors.BaseSelector, w: Worker) -> None:
    """Wake the run when the worker sends an answer or its process ends."""
    ready.register(w.conn, selectors.EVENT_READ, (w, "answer"))
    ready.register(w.process.sentinel, selectors.EVENT_READ, (w, "ended"))
