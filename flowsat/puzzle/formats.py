"""Reading puzzle files: the grid format (one puzzle a file), the Numberlink format, the game's
level packs (`packs`) and the board format for every kind of board (`boardtext`).

Grid: one line per row; '.' is an empty cell, every other printable ASCII character a dot.
Numberlink: a `W H` line then H rows, several puzzles a file, `0 0` ends; a line starting with
`#` is a comment outside a board's H rows, and a row (`#` is a label) inside them.
A character that cannot be a cell (a space, a tab, a control byte, non-ASCII) is an error.
Level pack: one level a line, `SIZE,0,LEVEL,FLOWS[,...];PATH;...` (see `packs`).
Board: a `flowsat board WxH ...` header line, then the rows (see `boardtext`).
Every problem is reported as a `PuzzleError` that prints as `FILE:LINE:COL: message`; reading
goes on with the next puzzle of the file wherever the file still makes sense.
"""

from __future__ import annotations

import os
import re
import stat
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

from flowsat.puzzle.model import EMPTY, Puzzle, not_a_cell, not_a_cell_message

MAX_CELLS = 2_000_000  # boards above this are refused (the 1002x1002 spirals: 1,004,004 cells)
MAX_BYTES = 64 * 2**20  # files above this are refused before they are read
HEADER = re.compile(r"\s*(\d+)\s+(\d+)\s*$", re.ASCII)
DOTS = re.compile(f"[^{re.escape(EMPTY)}]")  # a cell that is not empty


class PuzzleError(Exception):
    """A problem with an input, located in its file."""

    def __init__(self, file: str, line: int, col: int, message: str, index: int | None = None):
        super().__init__(f"{file}:{line}:{col}: {message}")
        self.file, self.line, self.col, self.message, self.index = file, line, col, message, index


def read_puzzles(path: str | Path, max_cells: int = MAX_CELLS) -> Iterator[Puzzle | PuzzleError]:
    """Every puzzle of a file, in order, with a `PuzzleError` in place of each bad one."""
    file = str(path)
    try:
        text = read_text(file)
    except PuzzleError as err:
        yield err
        return
    yield from parse_puzzles(text, file, max_cells)


def parse_puzzles(text: str, file: str = "<text>",
                  max_cells: int = MAX_CELLS) -> Iterator[Puzzle | PuzzleError]:
    """The puzzles of a file's text, in the format the text is in."""
    lines = text_lines(text)
    from flowsat.puzzle import boardtext, packs

    if not lines:
        yield PuzzleError(file, 1, 1, "empty file: no puzzle in it")
    elif only_comments(lines, file, max_cells):
        yield PuzzleError(file, 1, 1, "only comment lines ('#'): no puzzle in it")
    elif boardtext.is_board_text(lines):
        yield from boardtext.parse_board_file(lines, file, max_cells)
    elif packs.is_pack(lines):
        yield from packs.parse_pack(lines, file, max_cells)
    elif is_numberlink(lines):
        yield from parse_numberlink(lines, file, max_cells)
    else:
        yield parse_grid(lines, file, max_cells)


def text_lines(text: str) -> list[str]:
    """The lines of a text split at '\n' only, each without the '\r' of a CRLF ending (other
    line breaks Python knows, such as form feeds, stay in the line and are then reported),
    without the blank lines at its end."""
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def read_text(file: str) -> str:
    """The file's text (a UTF-8 byte-order mark dropped), or a PuzzleError saying why it
    cannot be read as text. Only regular files are read, and only up to MAX_BYTES: a FIFO,
    a device or a huge file is refused before anything is read from it."""
    data = read_bytes(file)
    nul = data.find(b"\0")
    if nul >= 0:
        line, col = position(data, nul)
        raise PuzzleError(file, line, col, "binary content (a NUL byte), not a puzzle")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as err:
        line, col = position(data, err.start)
        raise PuzzleError(file, line, col, "not UTF-8 text: binary content?") from None


def read_bytes(file: str) -> bytes:
    """The content of a regular file of at most MAX_BYTES, or a PuzzleError saying why not."""
    try:
        info = os.stat(file)
        if stat.S_ISDIR(info.st_mode):
            raise PuzzleError(file, 1, 1, folder_problem(file))
        if not stat.S_ISREG(info.st_mode):
            raise PuzzleError(file, 1, 1, f"not a regular file ({file_kind(info.st_mode)}): "
                                          f"not read")
        if info.st_size > MAX_BYTES:
            raise PuzzleError(file, 1, 1, too_long(info.st_size))
        with open(file, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        message = (f"broken symbolic link (to {os.readlink(file)!r})" if os.path.islink(file)
                   else "no such file")
        raise PuzzleError(file, 1, 1, message) from None
    except OSError as err:
        raise PuzzleError(file, 1, 1, f"cannot read: {err.strerror}") from None
    if len(data) > MAX_BYTES:
        raise PuzzleError(file, 1, 1, too_long(len(data)))
    return data


def too_long(size: int) -> str:
    return f"file of {size} bytes, above the limit of {MAX_BYTES} bytes: not read"


def file_kind(mode: int) -> str:
    """What a file that is not a regular one is, in words."""
    kinds = {stat.S_ISFIFO: "a FIFO", stat.S_ISCHR: "a character device",
             stat.S_ISBLK: "a block device", stat.S_ISSOCK: "a socket"}
    return next((name for test, name in kinds.items() if test(mode)), "not a file")


def folder_problem(folder: str) -> str:
    """What is wrong with a folder where a puzzle file was expected."""
    try:
        with os.scandir(folder) as entries:
            inside = [e.name for e in entries]
    except OSError as err:
        return f"cannot read folder: {err.strerror}"
    if inside and expand_paths([folder]) != [folder]:
        return "is a folder, not a puzzle file"
    return "a folder with no puzzle files (*.txt) in it"


def position(data: bytes, offset: int) -> tuple[int, int]:
    """The 1-based line and column of a byte offset."""
    line = data.count(b"\n", 0, offset) + 1
    return line, offset - (data.rfind(b"\n", 0, offset) + 1) + 1


def is_numberlink(lines: list[str]) -> bool:
    """A file is in the Numberlink format when its first line that is no comment is `W H`."""
    first = next((ln for ln in lines if ln.strip() and not ln.startswith("#")), "")
    return HEADER.match(first) is not None


def only_comments(lines: list[str], file: str, max_cells: int) -> bool:
    """Whether every line is a comment (`#`) or blank, and the lines are no grid either (in
    the grid format `#` is a dot label)."""
    if any(ln.strip() and not ln.startswith("#") for ln in lines):
        return False
    return isinstance(parse_grid(lines, file, max_cells), PuzzleError)


def parse_grid(lines: list[str], file: str, max_cells: int) -> Puzzle | PuzzleError:
    error = cell_error(lines, list(range(1, len(lines) + 1)), file)
    if error:
        return error
    width = len(lines[0])
    if width == 0:
        return PuzzleError(file, 1, 1, "the first row is empty")
    for n, row in enumerate(lines[1:], start=2):
        if len(row) != width:
            return PuzzleError(file, n, min(len(row), width) + 1,
                               f"row has {len(row)} cells, the first row has {width}")
    return make_puzzle(lines, file, 1, 1, "grid", max_cells, list(range(1, len(lines) + 1)))


def parse_numberlink(lines: list[str], file: str,
                     max_cells: int) -> Iterator[Puzzle | PuzzleError]:
    """Puzzles after `W H` headers; a bad puzzle is reported and reading resumes after it."""
    n, index = 0, 0
    while n < len(lines):
        line = lines[n]
        n += 1
        if not line.strip() or line.startswith("#"):
            continue
        header = HEADER.match(line)
        if not header:  # report a stray block once, then look for the next header
            yield PuzzleError(file, n, 1, f"expected a 'W H' header line, found {line[:20]!r}")
            while n < len(lines) and lines[n].strip() and not HEADER.match(lines[n]):
                n += 1
            continue
        width, height = int(header[1]), int(header[2])
        if width == 0 and height == 0:
            if index == 0:
                yield PuzzleError(file, n, 1, "the '0 0' end line comes before any puzzle")
            return
        index += 1
        header_line, rows, row_lines = n, [], []
        while (len(rows) < height and n < len(lines) and lines[n].strip()
               and not HEADER.match(lines[n])):
            rows.append(lines[n])  # a '#' here is a label, not a comment
            row_lines.append(n + 1)
            n += 1
        yield numberlink_puzzle(width, height, rows, row_lines, file, index, header_line,
                                max_cells)


def numberlink_puzzle(width: int, height: int, rows: list[str], row_lines: list[int], file: str,
                      index: int, header_line: int, max_cells: int) -> Puzzle | PuzzleError:
    """The puzzle under a `W H` header, or what is wrong with it."""
    if width * height == 0:
        return PuzzleError(file, header_line, 1, f"board {width}x{height} has no cells", index)
    if width * height > max_cells:
        return PuzzleError(file, header_line, 1, too_big(width, height, max_cells), index)
    if len(rows) < height:
        return PuzzleError(file, header_line, 1, f"header says {height} rows, found {len(rows)}",
                           index)
    error = cell_error(rows, row_lines, file)
    if error:
        error.index = index
        return error
    bad = next((i for i, row in enumerate(rows) if len(row) != width), None)
    if bad is not None:
        return PuzzleError(file, row_lines[bad], min(len(rows[bad]), width) + 1,
                           f"row has {len(rows[bad])} cells, header says {width}", index)
    return make_puzzle(rows, file, index, header_line, "numberlink", max_cells, row_lines)


def make_puzzle(rows: list[str], file: str, index: int, line: int, fmt: str, max_cells: int,
                row_lines: list[int]) -> Puzzle | PuzzleError:
    """A puzzle from rectangular rows, or the first thing wrong with its dots or size."""
    height, width = len(rows), len(rows[0])
    if width * height > max_cells:
        return PuzzleError(file, line, 1, too_big(width, height, max_cells), index)
    error = dot_error(rows, row_lines, file)
    if error:
        error.index = index
        return error
    return Puzzle(tuple(rows), file=file, index=index, line=line, format=fmt)


def too_big(width: int, height: int, max_cells: int) -> str:
    return (f"board {width}x{height} has {width * height} cells, above the limit of "
            f"{max_cells} cells")


def cell_error(rows: list[str], row_lines: list[int], file: str) -> PuzzleError | None:
    """The first character of the rows that cannot be a cell, located and named."""
    for row, line in zip(rows, row_lines, strict=True):
        bad = not_a_cell(row)
        if bad is not None:
            return PuzzleError(file, line, bad + 1, not_a_cell_message(row[bad]))
    return None


def dot_error(rows: list[str], row_lines: list[int], file: str) -> PuzzleError | None:
    """The first dot problem: no dots at all, or a label without exactly two dots."""
    seen: Counter[str] = Counter()
    first: dict[str, tuple[int, int]] = {}
    for r, row in enumerate(rows):
        for found in DOTS.finditer(row):  # the cells that are not empty
            c, ch = found.start(), found.group()
            seen[ch] += 1
            first.setdefault(ch, (row_lines[r], c + 1))
            if seen[ch] == 3:
                return PuzzleError(file, row_lines[r], c + 1,
                                   f"label {ch!r} has three or more dots; a color has exactly two")
    if not seen:
        return PuzzleError(file, row_lines[0], 1, "no dots: every cell is '.'")
    single = next((ch for ch, k in seen.items() if k == 1), None)
    if single:
        return PuzzleError(file, *first[single],
                           f"label {single!r} has only one dot; a color needs two")
    return None


def puzzle_text(puzzle: Puzzle, fmt: str = "grid") -> str:
    """The puzzle as a file: its rows, after a `W H` line in the Numberlink format."""
    header = f"{puzzle.width} {puzzle.height}\n" if fmt == "numberlink" else ""
    return header + "\n".join(puzzle.rows) + "\n"


def expand_paths(paths: Iterable[str | Path]) -> list[str]:
    """Files as given; folders replaced by the puzzle files (*.txt) below them, sorted, and
    by what cannot be looked into there (folders that cannot be read, broken symbolic links),
    for reading them to say why. A folder with none of these stands for itself (reading it
    says it has no puzzle files)."""
    files: list[str] = []
    for p in map(str, paths):
        if os.path.isdir(p):
            files += sorted(files_below(p, set())) or [p]
        else:
            files.append(p)
    return files


def files_below(folder: str, seen: set[str]) -> list[str]:
    """The *.txt files below a folder, its folders that cannot be read and its broken
    symbolic links; each folder once (symbolic links may loop)."""
    real = os.path.realpath(folder)
    if real in seen:
        return []
    seen.add(real)
    try:
        with os.scandir(folder) as it:
            entries = list(it)
    except OSError:
        return [folder]
    found = []
    for entry in entries:
        if entry.is_dir():
            found += files_below(entry.path, seen)
        elif entry.name.endswith(".txt") or (entry.is_symlink()
                                             and not os.path.exists(entry.path)):
            found.append(entry.path)
    return found
