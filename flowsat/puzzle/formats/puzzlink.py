"""puzz.link URLs, one a line: `https://puzz.link/p?numlin/W/H/BODY`, the Numberlink boards
most people play online. BODY is pzprjs's `decodeNumber16` (src/variety-common/Encode.js):
the cells in row-major order, `0`-`f` a number, `-xx` 16-255, `+xxx` 256-4095, `=xxx` and
`%xxx` 4096 and 8192 above their three hex digits, `.` a "?" clue (a number not shown), `g`-`z`
a run of 1-20 empty cells; cells the body does not reach are empty (as pzprjs reads it).
Numbers are written as pzprjs writes them, but for `=` and `%` always with three digits, as
its reader takes them (its writer leaves out leading zeros there).

A number is a label: numbers 1-93 are the labels of `LABELS` in order (`1`-`9`, `A`-`Z`,
`a`-`z`, `0`, punctuation), so a board written and read back keeps its labels; other numbers
take the labels left over, in increasing order. Nikoli's rules hold on puzz.link (cells may
stay empty, paths may run beside themselves): the solving flags decide, as for any file.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from flowsat.puzzle.formats.base import (
    AtColumn,
    Format,
    Lazy,
    PuzzleError,
    first_line,
    make_puzzle,
    per_line,
    plain_rows,
    too_big,
)
from flowsat.puzzle.model import EMPTY, Paths, Puzzle

# the labels of numbers 1, 2, ...: digits, letters, then the other printable characters
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LABELS = "123456789" + LETTERS + LETTERS.lower() + "0" + "".join(
    chr(c) for c in range(0x21, 0x7F) if not chr(c).isalnum() and chr(c) != EMPTY)
HOST = "https://puzz.link"
# a URL of any pzprjs site (a `Path` made of it keeps one '/' of `https://`), its type, the
# rest; `p.html?` is the older sites' page
URL = Lazy(r"\s*(https?:/{1,2}[^/?\s]+/p(?:\.html)?\?)([^/\s]*)(.*?)\s*$", re.ASCII)
TYPES = ("numlin", "numberlink")  # pzprjs's name of Numberlink and its alias
RUN = {ch: n for n, ch in enumerate("ghijklmnopqrstuvwxyz", 1)}  # empty cells in a row
WIDE = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192)}  # hex digits, offset
HEX = frozenset("0123456789abcdef")
MOST = 8192 + 0xFFF  # the largest number a body can hold


class Bad(AtColumn):
    """Something wrong at a column of the URL (from 1)."""


def url_of(text: str) -> str | None:
    """The text as a puzz.link URL (`https://` whole again) when it is one, else None."""
    found = URL.match(text)
    if found is None:
        return None
    return re.sub(r"^(https?:)/+", r"\1//", text.strip())


def is_puzzlink(lines: list[str]) -> bool:
    """A file is one of puzz.link URLs when its first line that is not blank is one."""
    return URL.match(first_line(lines)) is not None


def decode_numbers(body: str, cells: int, start: int = 1) -> list[int | None]:
    """The number of each of `cells` cells (None: empty, -1: a "?" clue) from a body; a Bad
    at the column (`start`: the body's first) of what is wrong."""
    out: list[int | None] = []
    i = 0
    while i < len(body):
        ch, col = body[i], start + i
        if len(out) >= cells:
            raise Bad(col, f"the body goes on past the last of the {cells} cells")
        if ch in HEX:
            out.append(int(ch, 16))
        elif ch in WIDE:
            digits, offset = WIDE[ch]
            text = body[i + 1:i + 1 + digits]
            if len(text) < digits or not HEX.issuperset(text):
                raise Bad(col, f"{ch!r} takes {digits} hex digits (0-9, a-f), found {text!r}")
            out.append(int(text, 16) + offset)
            i += digits
        elif ch == ".":
            out.append(-1)
        elif ch in RUN:
            if len(out) + RUN[ch] > cells:
                raise Bad(col, f"{ch!r} is {RUN[ch]} empty cells, past the last of the "
                               f"{cells} cells")
            out += [None] * RUN[ch]
        else:
            raise Bad(col, f"{ch!r} is no cell of a numlin body (0-9 a-f, - + = % and hex "
                           f"digits, '.', g-z)")
        i += 1
    return out + [None] * (cells - len(out))


def encode_numbers(numbers: list[int | None]) -> str:
    """A body from each cell's number (None: empty, -1: a "?" clue), as pzprjs writes it."""
    out, empty = [], 0
    for n in numbers:
        if n is None:
            empty += 1
            if empty == len(RUN):
                out.append("z")
                empty = 0
            continue
        if empty:
            out.append("ghijklmnopqrstuvwxyz"[empty - 1])
            empty = 0
        out.append(number_text(n))
    if empty:
        out.append("ghijklmnopqrstuvwxyz"[empty - 1])
    return "".join(out)


def number_text(n: int) -> str:
    """One cell of a body: its number in the shortest form that holds it."""
    if n == -1:
        return "."
    if not 0 <= n <= MOST:
        raise ValueError(f"a body holds numbers 0 to {MOST}, not {n}")
    if n < 16:
        return f"{n:x}"
    if n < 256:
        return f"-{n:02x}"
    if n < 4096:
        return f"+{n:03x}"
    return f"={n - 4096:03x}" if n < 8192 else f"%{n - 8192:03x}"


def labels_of(numbers: set[int]) -> dict[int, str]:
    """Each number's label: its own for 1-93, the labels left over for the others."""
    own = {n: LABELS[n - 1] for n in numbers if 1 <= n <= len(LABELS)}
    spare = iter(ch for ch in LABELS if ch not in set(own.values()))
    return own | {n: next(spare) for n in sorted(numbers - set(own))}


def parse_url(line: str, file: str, n: int, index: int, max_cells: int) -> Puzzle:
    """The puzzle of one URL line (line n of the file); a Bad for what is wrong with it."""
    found = URL.match(line)
    if found is None:
        raise Bad(1, "not a puzz.link URL (https://puzz.link/p?numlin/W/H/BODY)")
    kind, rest = found[2], found[3]
    if kind not in TYPES:
        raise Bad(found.start(2) + 1, f"a {kind!r} puzzle: flowsat reads numlin (Numberlink) "
                                      f"URLs only")
    parts, col = rest.split("/"), found.end(2) + 2  # rest: '/W/H/BODY'
    if len(parts) != 4 or parts[0]:
        raise Bad(found.end(2) + 1, "expected /W/H/BODY after numlin")
    width, height = (size(text, c, what) for text, c, what in (
        (parts[1], col, "W"), (parts[2], col + len(parts[1]) + 1, "H")))
    if width * height > max_cells:
        raise Bad(col, too_big(width, height, max_cells))
    start = col + len(parts[1]) + len(parts[2]) + 2
    numbers = decode_numbers(parts[3], width * height, start)
    rows = board_rows(numbers, width, body_columns(parts[3], start))
    puzzle = make_puzzle(rows, file, index, n, "puzzlink", max_cells, [n] * height)
    if isinstance(puzzle, PuzzleError):  # (checked above: only the size could be wrong)
        raise Bad(1, puzzle.message)
    return puzzle


def size(text: str, col: int, what: str) -> int:
    if not text.isdigit() or not text.isascii() or int(text) == 0:
        raise Bad(col, f"{what}: expected a number of cells from 1, found {text[:20]!r}")
    return int(text)


def body_columns(body: str, start: int) -> list[int]:
    """The column of the body's text that gives each cell a number or a "?" clue."""
    out, i = [], 0
    while i < len(body):
        ch = body[i]
        if ch in RUN:
            out += [0] * RUN[ch]
        else:
            out.append(start + i)
            i += WIDE.get(ch, (0, 0))[0]
        i += 1
    return out


def board_rows(numbers: list[int | None], width: int, columns: list[int]) -> list[str]:
    """The rows of labels; a Bad at the column of a "?" clue, or of a number that is not on
    exactly two cells."""
    if -1 in numbers:
        raise Bad(columns[numbers.index(-1)], 'a "?" clue (a number not shown) cannot be a '
                                              "Flow dot: every dot needs its number")
    count = Counter(n for n in numbers if n is not None)
    odd = next((n for n, k in count.items() if k != 2), None)
    if odd is not None:
        at = [c for c, n in enumerate(numbers) if n == odd][min(count[odd], 3) - 1]
        many = "one cell" if count[odd] == 1 else "three or more cells"
        raise Bad(columns[at], f"number {odd} is on {many}; a number is on exactly two")
    if len(count) > len(LABELS):
        raise Bad(columns[0] if columns else 1, f"{len(count)} numbers: a board takes "
                                                f"{len(LABELS)} at most")
    label = labels_of(set(count))
    cells = "".join(EMPTY if n is None else label[n] for n in numbers)
    return [cells[r:r + width] for r in range(0, len(cells), width)]


def parse_puzzlink(lines: list[str], file: str, max_cells: int
                   ) -> Iterator[Puzzle | PuzzleError]:
    """Each URL of the lines (index: its place among the lines that are not blank)."""
    return per_line(lines, file, lambda line, n, index: parse_url(line, file, n, index,
                                                                  max_cells))


def puzzlink_text(puzzle: Puzzle, paths: Paths | None = None) -> str:
    """The puzzle as a puzz.link URL line (plain square boards only)."""
    rows = plain_rows(puzzle, "puzzlink").split()
    numbers = [None if ch == EMPTY else LABELS.index(ch) + 1 for row in rows for ch in row]
    return f"{HOST}/p?numlin/{puzzle.width}/{puzzle.height}/{encode_numbers(numbers)}\n"


FORMAT = Format("puzzlink", "puzz.link numlin URLs, one a line; plain square boards only",
                is_puzzlink, parse_puzzlink, puzzlink_text, plain_only=True)
