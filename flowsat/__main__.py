"""`flowsat` and `python -m flowsat`: the command line, imported with the cycle collector
paused (see `flowsat.memory.for_good`)."""

from flowsat.memory import for_good


def main() -> None:
    for_good(lambda: __import__("flowsat.commands"))
    from flowsat.commands import main as run

    run()


if __name__ == "__main__":
    main()
