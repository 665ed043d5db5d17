"""Any solver program as a backend (`program:COMMAND`): the puzzle goes to the program, its
answer is read back, traced into paths and checked like every backend's.

The puzzle is written in `program_format` (`numberlink`: `W H` + rows; `grid`: the rows) on the
program's standard input, or to a temporary file where `{file}` stands in the command. Its
answer is read by `answer.read_answer`. The program runs as a process group of its own
(`flowsat.process`): past the timeout the group is killed (`timeout`); a program killed by a
signal, or whose output is no answer, is an `error` naming its exit status; a board whose labels
make no paths is `wrong`, and so is one the checker refuses (see `OUTSIDE`). `total_s` is the
program's whole life, from its start to its exit: what a user of the program waits for.
"""

from __future__ import annotations

OPTIONS = ("command", "program_format")
ARGUMENT = "command"  # `program:COMMAND`: the text after the colon
OUTSIDE = True  # an answer that fails the checker is the program's error (`wrong`), not a bug
FORMATS = ("numberlink", "grid")
FILE = "{file}"
LAZY = ("solve", "program_argv")  # the work, in `backend.py`: imported on first use


def __getattr__(name: str):
    if name not in LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from flowsat.program import backend

    return getattr(backend, name)
