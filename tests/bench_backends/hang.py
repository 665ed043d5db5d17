"""Never answers (until the process that started its worker is gone), deaf to the deadline's
signal as C code that never returns would be."""

import os
import signal
import time

from tests.bench_backends import Plain


def solve(puzzle, options=None, observe=None):
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    parent = os.getppid()
    while os.getppid() == parent:
        time.sleep(0.05)
    os._exit(0)


BACKEND = Plain("hang", solve)
