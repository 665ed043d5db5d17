"""The program backend's options: the command and the format the puzzle is written in."""

from __future__ import annotations

from dataclasses import dataclass

from flowsat.options import option

FORMATS = ("numberlink", "grid")
FILE = "{file}"


@dataclass(frozen=True)
class ProgramOptions:
    """The program's command (`program:COMMAND`: the text after the colon) and the format the
    puzzle is written in for it."""

    command: str  # not a flag: the text of `--backend program:COMMAND`
    program_format: str = option(
        "the puzzle as the solver program reads it: numberlink ('W H' and the rows; the "
        "default) or grid (the rows).", choices=FORMATS, default="numberlink")

    def __post_init__(self) -> None:  # the program found once, its words kept (`argv`)
        object.__setattr__(self, "argv", program_argv(self.command, self.program_format))


def program_argv(command: str, program_format: str = "numberlink") -> list[str]:
    """The command's words, once the program exists and the format is known (UsageError)."""
    from flowsat.process import command_words  # here: the command line imports this
    from flowsat.result import UsageError  # package for its options, at every start

    if program_format not in FORMATS:
        raise UsageError(f"unknown program format {program_format!r}; choose from "
                         f"{', '.join(FORMATS)}")
    return command_words(command, "solver program")
