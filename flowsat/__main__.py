"""`flowsat` and `python -m flowsat`: the command line, imported with the cycle collector
paused (see `flowsat.memory.for_good`)."""

import os
import sys

from flowsat.memory import for_good


def main() -> None:
    for_good(lambda: __import__("flowsat.commands"))
    from flowsat.commands import main as run

    run()


def entry() -> None:
    """`main`, then out without the interpreter's teardown: freeing a large board's objects
    one by one (its cells, links and tables, kept for the next board of its size) took a
    tenth to a third of a second after a million-cell board was answered. Exit handlers run
    and the output is flushed first, as at any exit."""
    try:
        main()
        code = 0
    except SystemExit as done:
        code = exit_status(done.code)
    import atexit

    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def exit_status(code: object) -> int:
    """The status `sys.exit(code)` ends with: None 0, a number itself, else (a message, which
    is printed) 1."""
    if code is None or isinstance(code, int):
        return code or 0
    print(code, file=sys.stderr)
    return 1


if __name__ == "__main__":
    entry()
