"""The formats in the order a file is tried against them, and reading and writing through
them: a file is read in the first format whose `detect` takes its lines; one that none
takes is read as a grid, and what is wrong with it then names the formats tried. Adding a
format is one module with its `FORMAT`, and its place in `FORMATS`."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from flowsat.puzzle.formats.base import MAX_CELLS, CannotWrite, Format, PuzzleError
from flowsat.puzzle.formats.boardtext import FORMAT as BOARD
from flowsat.puzzle.formats.files import STDIN, STDIN_NAME, read_text, text_lines
from flowsat.puzzle.formats.grid import FORMAT as GRID
from flowsat.puzzle.formats.numberlink import FORMAT as NUMBERLINK
from flowsat.puzzle.formats.numberlink import only_comments
from flowsat.puzzle.formats.pack import FORMAT as PACK
from flowsat.puzzle.formats.puzzlink import FORMAT as PUZZLINK
from flowsat.puzzle.formats.puzzlink import url_of
from flowsat.puzzle.model import Paths, Puzzle

FORMATS: tuple[Format, ...] = (BOARD, PACK, PUZZLINK, NUMBERLINK, GRID)
FALLBACK = GRID  # how a file no format takes is read, to say what is wrong with it
NAMES = tuple(f.name for f in FORMATS)
WRITABLE = tuple(f.name for f in FORMATS if f.write)


def format_named(name: str) -> Format:
    """The format of that name (a ValueError naming them all if there is none)."""
    found = next((f for f in FORMATS if f.name == name), None)
    if found is None:
        raise ValueError(f"unknown format {name!r}; formats are {', '.join(NAMES)}")
    return found


def detect(lines: list[str]) -> Format | None:
    """The first format that takes the lines, if any."""
    return next((f for f in FORMATS if f.detect(lines)), None)


def read_puzzles(path: str | Path, max_cells: int = MAX_CELLS) -> Iterator[Puzzle | PuzzleError]:
    """Every puzzle of a file (`-`: standard input; a puzz.link URL that is no file: itself),
    in order, with a `PuzzleError` in place of each bad one."""
    file = str(path)
    url = url_of(file)
    if url and not os.path.lexists(file):
        yield from parse_puzzles(url, url, max_cells)
        return
    try:
        text = read_text(file)
    except PuzzleError as err:
        yield err
        return
    yield from parse_puzzles(text, STDIN_NAME if file == STDIN else file, max_cells)


def parse_puzzles(text: str, file: str = "<text>",
                  max_cells: int = MAX_CELLS) -> Iterator[Puzzle | PuzzleError]:
    """The puzzles of a file's text, in the format the text is in."""
    lines = text_lines(text)
    if not lines:
        yield PuzzleError(file, 1, 1, "empty file: no puzzle in it")
    elif only_comments(lines) and not_read(FALLBACK, lines, file, max_cells):
        yield PuzzleError(file, 1, 1, "only comment lines ('#'): no puzzle in it")
    elif fmt := detect(lines):
        yield from fmt.read(lines, file, max_cells)
    else:
        yield from map(tried, FALLBACK.read(lines, file, max_cells))


def not_read(fmt: Format, lines: list[str], file: str, max_cells: int) -> bool:
    """Whether reading the lines in the format gives no puzzle."""
    return not any(isinstance(item, Puzzle) for item in fmt.read(lines, file, max_cells))


def tried(item: Puzzle | PuzzleError) -> Puzzle | PuzzleError:
    """An error of a file no format takes, saying so."""
    if isinstance(item, Puzzle):
        return item
    return PuzzleError(item.file, item.line, item.col,
                       f"{item.message} (no format fits the file: tried {', '.join(NAMES)})",
                       item.index)


def puzzle_text(puzzle: Puzzle, fmt: str = "grid", paths: Paths | None = None) -> str:
    """The puzzle as a file of the format (with a solution, for a format that holds one); a
    CannotWrite for a puzzle the format cannot hold."""
    writer = format_named(fmt).write
    if writer is None:
        raise CannotWrite(f"the {fmt} format is read only")
    return writer(puzzle, paths)
