"""Making puzzles: random fillings of a board by paths (`filling`), edited as layouts
(`layout`) into puzzles proved to have one solution (`make`), made seed by seed in runs
(`run`) and written with their manifest (`corpus`); the spiral boards are built as they are
(`spiral`)."""

import re

from flowsat.result import UsageError

SIZE = r"\s*(\d+)\s*[xX]\s*(\d+)\s*$"  # compiled by the first `board_size`, not by `--help`

# the kinds of board with a density (`kinds`), their defaults and what the density is a share
# of: light, for `flowsat generate`'s options
DENSITY = {"holes": 0.1, "walls": 0.2, "bridges": 0.5}
DENSITY_HELP = {"holes": "share of the cells", "walls": "share of the links no path uses",
                "bridges": "share of the chances to bridge that are tried"}


def board_size(size: str) -> tuple[int, int]:
    """The width and height of `--size WxH`; UsageError when it is no board."""
    found = re.match(SIZE, size)
    if not found:
        raise UsageError(f"--size {size!r}: expected WxH, e.g. 15x15 or 30x20")
    width, height = int(found[1]), int(found[2])
    if width < 2 or height < 2:
        raise UsageError(f"--size {size}: a board needs at least 2 rows and 2 columns")
    return width, height
