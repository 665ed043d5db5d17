"""Never answers (until the process that started its worker is gone)."""

import os
import time

OPTIONS = ()


def solve(puzzle, *, allow_self_touch=False, timeout=None):
    parent = os.getppid()
    while os.getppid() == parent:
        time.sleep(0.05)
    os._exit(0)
