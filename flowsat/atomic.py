"""Files written whole or not at all, and write errors as one line.

Every file flowsat writes goes first to a temporary file beside its target (same folder, so
the same file system), renamed over the target once complete: a command never truncates a file
it is still reading (`convert -o a.txt a.txt`), and a full disk, a kill or a crash leaves the
old file or the new one, never half of one, nor the temporary file. A target that exists and is
no regular file (`/dev/stdout`, a FIFO, a device) is written in place; a symbolic link, through
to the file it names. Records appended one at a time (a bench's `results.jsonl`) are cut back
to their last whole line when a write fails. Any OSError on the way is a UsageError naming the
path and the problem (exit status 2).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, BinaryIO

from flowsat.result import UsageError


def cannot_write(path: str | Path, err: OSError) -> UsageError:
    """The one line for a file that cannot be written: its path and the problem."""
    why = {errno.EISDIR: "it is a folder",
           errno.ENOENT: f"no folder {os.path.dirname(os.path.abspath(path))}",
           errno.ENOTDIR: "a part of its path is a file, not a folder"}.get(err.errno)
    return UsageError(f"cannot write {path}: {why or err.strerror or err}")


def make_folder(folder: str | Path) -> Path:
    """The folder, made with its parents if missing; a UsageError when it cannot be."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"cannot write into {folder}: it is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise UsageError(f"cannot make folder {folder}: {err.strerror or err}") from None
    return folder


def write_file(path: str | Path, data: str | bytes) -> Path:
    """The file replaced whole by the data (text as UTF-8)."""
    with replacing(path) as out:
        try:
            out.write(data.encode("utf-8") if isinstance(data, str) else data)
        except OSError as err:
            raise cannot_write(path, err) from None
    return Path(path)


def target_of(path: str | Path) -> str:
    """Where the data of the path goes: the file a symbolic link names; a folder refused."""
    target = os.path.realpath(path) if os.path.islink(path) else os.fspath(path)
    if os.path.isdir(target):
        raise cannot_write(path, OSError(errno.EISDIR, "Is a directory"))
    return target


def in_place(target: str) -> bool:
    """Whether the target is written as it is: it exists and is no regular file."""
    try:
        return not stat.S_ISREG(os.stat(target).st_mode)
    except OSError:
        return False


@contextlib.contextmanager
def replacing(path: str | Path, text: bool = False) -> Iterator[IO]:
    """A new file (binary; `text`: UTF-8 text) that replaces the path once the block ends
    without an exception; otherwise the path is left as it was. An OSError of opening, closing
    or renaming is a UsageError (`cannot_write`); the block handles its own writes'."""
    target = target_of(path)
    temporary = target if in_place(target) else beside(target)
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | (
        os.O_TRUNC if temporary == target else os.O_EXCL)
    try:
        out = os.fdopen(os.open(temporary, flags, 0o666), "w" if text else "wb",
                        **({"encoding": "utf-8"} if text else {}))
    except OSError as err:
        raise cannot_write(path, err) from None
    try:
        yield out
    except BaseException:
        with contextlib.suppress(OSError):
            out.close()
        if temporary != target:
            remove(temporary)
        raise
    try:
        out.close()
        if temporary != target:
            os.replace(temporary, target)
    except OSError as err:
        if temporary != target:
            remove(temporary)
        raise cannot_write(path, err) from None


def beside(target: str) -> str:
    """A new name in the target's folder for its temporary file."""
    folder, name = os.path.split(target)
    return os.path.join(folder, f".{name}.{os.getpid()}.{os.urandom(3).hex()}.tmp")


def remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def open_records(path: str | Path) -> BinaryIO:
    """A file of one record a line, open for `append_line`, a torn last line (a kill's: no
    newline at its end) cut off first."""
    try:
        out = open(path, "ab+", buffering=0)  # noqa: SIM115 (the caller closes it)
        out.seek(0)
        data = out.read()
        if data and not data.endswith(b"\n"):
            out.truncate(data.rfind(b"\n") + 1)
        return out
    except OSError as err:
        raise cannot_write(path, err) from None


def append_line(out: BinaryIO, line: str) -> None:
    """One line appended, on disk before this returns; on a failure (a full disk) the file is
    cut back to where it was, and the UsageError names it."""
    data = memoryview((line.rstrip("\n") + "\n").encode("utf-8"))
    fd = out.fileno()
    start = os.lseek(fd, 0, os.SEEK_END)
    try:
        while data:
            data = data[os.write(fd, data):]
        os.fsync(fd)
    except OSError as err:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, start)
        raise cannot_write(out.name, err) from None
