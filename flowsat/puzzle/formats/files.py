"""Files and folders to text: a puzzle file's text (only a regular UTF-8 file, up to a size)
split into lines, and the puzzle files a folder stands for."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterable
from pathlib import Path

from flowsat.puzzle.formats.base import PuzzleError

MAX_BYTES = 64 * 2**20  # files above this are refused before they are read
STDIN = "-"  # the file name that stands for standard input
STDIN_NAME = "<stdin>"  # its name in error lines and records


def text_lines(text: str) -> list[str]:
    """The lines of a text split at '\n' only, each without the '\r' of a CRLF ending (other
    line breaks Python knows, such as form feeds, stay in the line and are then reported),
    without the blank lines at its end."""
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def read_text(file: str) -> str:
    """The file's text (`-`: standard input's; a UTF-8 byte-order mark dropped), or a
    PuzzleError saying why it cannot be read as text. Only regular files are read, and only up
    to MAX_BYTES: a FIFO, a device or a huge file is refused before anything is read from it."""
    data = read_bytes(file)
    name = STDIN_NAME if file == STDIN else file
    nul = data.find(b"\0")
    if nul >= 0:
        line, col = position(data, nul)
        raise PuzzleError(name, line, col, "binary content (a NUL byte), not a puzzle")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as err:
        line, col = position(data, err.start)
        raise PuzzleError(name, line, col, "not UTF-8 text: binary content?") from None


def read_bytes(file: str) -> bytes:
    """The content of a regular file (or of standard input, `-`) of at most MAX_BYTES, or a
    PuzzleError saying why not."""
    if file == STDIN:
        data = sys.stdin.buffer.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise PuzzleError(STDIN_NAME, 1, 1, too_long(len(data)))
        return data
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
    skipped = skipped_files(folder)
    if not skipped:
        return "a folder with no puzzle files (*.txt) in it"
    shown = ", ".join(skipped[:SHOWN_SKIPPED]) + (
        f" and {len(skipped) - SHOWN_SKIPPED} more" if len(skipped) > SHOWN_SKIPPED else "")
    return (f"a folder with no puzzle files (*.txt) in it: skipped {shown}; a file given by "
            f"name is always read ({os.path.join(folder, skipped[0])})")


SHOWN_SKIPPED = 3  # the skipped files a line names


def skipped_files(folder: str) -> list[str]:
    """The files below a folder, relative to it, sorted: those its *.txt rule leaves out (the
    folder has none of those; symbolic links to folders are not followed)."""
    found = []
    for top, _, names in os.walk(folder):
        found += [os.path.relpath(os.path.join(top, n), folder) for n in names]
    return sorted(found)


def position(data: bytes, offset: int) -> tuple[int, int]:
    """The 1-based line and column of a byte offset."""
    line = data.count(b"\n", 0, offset) + 1
    return line, offset - (data.rfind(b"\n", 0, offset) + 1) + 1


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
    """The *.txt files below a folder, its folders that cannot be read and its broken or
    looping symbolic links; each folder once (symbolic links may loop)."""
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
        try:
            folder_inside = entry.is_dir()
        except OSError:  # a symbolic link loop: reading it says so, the others still read
            found.append(entry.path)
            continue
        if folder_inside:
            found += files_below(entry.path, seen)
        elif entry.name.endswith(".txt") or (entry.is_symlink()
                                             and not os.path.exists(entry.path)):
            found.append(entry.path)
    return found
