"""The `flowsat` command line: one module a group of commands, assembled here into `app`.

`main` imports only the module of the command asked for (all of them for `flowsat --help`):
each holds its commands on a `group` of its own, whose commands `assemble` adds to the app in
the order `--help` lists them.
"""

import gc
import importlib
import os
import signal
import sys
from collections.abc import Iterable
from typing import Annotated

import typer
from typer.core import TyperGroup

from flowsat import __version__
from flowsat.commands.common import EXIT, EXIT_STATUS, input_error, usage_error
from flowsat.memory import for_good, limit_address_space
from flowsat.puzzle import PuzzleError
from flowsat.result import UsageError

# each command, in the order of `flowsat --help`, and the module (of this package) holding it
COMMANDS = {"solve": "solve", "show": "show", "generate": "make", "rate": "make",
            "check-unique": "make", "count": "count", "bench": "bench", "experiment": "bench",
            "encodings": "encode", "encode": "encode", "check": "files", "convert": "files",
            "report": "bench"}

try:  # the exceptions by which click ends a command on purpose (usage errors, exits):
    from typer import TyperException as ClickException  # typer 0.28 carries its own click
except ImportError:
    from click import ClickException


class Guarded(TyperGroup):
    """Commands whose exceptions end in one line, never a traceback: a bad option value, a
    usage error or an input error that escaped its command exit 2, Ctrl-C 130, anything
    unforeseen 4 (an internal error); FLOWSAT_DEBUG=1 keeps the traceback for developers."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except ClickException as err:  # a bad option or argument: one line, not four
            if err.exit_code != EXIT["input"] or type(err).__name__ == "NoArgsIsHelpError":
                raise
            if type(err).__name__ == "MissingParameter" and err.ctx:  # what the command takes
                typer.echo(err.ctx.get_usage(), err=True)
            usage_error(err.format_message())
        except (typer.Exit, typer.Abort):
            raise
        except KeyboardInterrupt:  # Ctrl-C, or SIGTERM where a command turns it into one
            typer.echo("flowsat: interrupted", err=True)
            raise typer.Exit(130) from None
        except UsageError as err:
            usage_error(err)
        except PuzzleError as err:
            input_error(err)
        except Exception as err:
            if os.environ.get("FLOWSAT_DEBUG"):
                raise
            typer.echo(f"flowsat: internal error (a bug): {type(err).__name__}: "
                       f"{' '.join(str(err).split())[:300]}", err=True)
            raise typer.Exit(EXIT["internal"]) from None


def show_version(value: bool) -> None:
    if value:
        typer.echo(f"flowsat {__version__}")
        raise typer.Exit()


def main_options(version: Annotated[bool, typer.Option(
        "--version", callback=show_version, is_eager=True, help="Print the version.")] = False
                 ) -> None:
    """Solve Flow Free / Numberlink puzzles by SAT or best-first search."""


def assemble(names: Iterable[str] = COMMANDS, args: list[str] | None = None) -> typer.Typer:
    """The command line with the commands named (every one by default), their modules
    imported, each fitted to the command line's arguments where its module says how (`fit`:
    None, every option of every command)."""
    made = typer.Typer(cls=Guarded, add_completion=False, no_args_is_help=True,
                       rich_markup_mode=None, pretty_exceptions_enable=False,
                       context_settings={"help_option_names": ["-h", "--help"]},
                       help=f"Solve Flow Free / Numberlink puzzles by SAT or best-first "
                            f"search.\n\n{EXIT_STATUS}")
    made.callback()(main_options)
    for name in (n for n in COMMANDS if n in set(names)):
        module = importlib.import_module(f"{__name__}.{COMMANDS[name]}")
        if hasattr(module, "fit"):
            module.fit(args)
        made.registered_commands += [c for c in module.group.registered_commands
                                     if (c.name or c.callback.__name__.replace("_", "-")) == name]
    return made


def asked(args: list[str]) -> list[str]:
    """The command on the command line, when it is one; else every command (for `--help`, or
    for click to say what is wrong): typer turns every command's options into click's at each
    start (15 ms for all of them here)."""
    first = next((a for a in args if not a.startswith("-")), None)
    return [first] if first in COMMANDS else list(COMMANDS)


def __getattr__(name: str) -> typer.Typer:
    """`app`, every command of it, made on first use (by tests and the library: `main` makes
    its own, with the command asked for only)."""
    if name != "app":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()["app"] = made = assemble()
    return made


def main() -> None:
    if hasattr(signal, "SIGPIPE"):  # `flowsat ... | head` ends quietly, like other Unix tools
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    app = for_good(lambda: assemble(asked(sys.argv[1:]), sys.argv[1:]))
    limit_address_space()
    gc.freeze()  # what the imports made lives as long as the process: collections skip it
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("flowsat: interrupted", err=True)
        sys.exit(130)
