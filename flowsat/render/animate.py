"""Replays in the terminal: the states a backend reports, redrawn in place by ANSI cursor moves.

A backend reports its progress through `observe(event, paths, cycles)`: the SAT backend each
model with cycles before it cuts them ("model"), the best-first search each state it pops from
its queue ("expand"; its paths run from a dot). A `Replay` records them while the backend runs
(so the replay slows neither the solve nor its timings) and plays them back afterwards, in the
order they came: every state with cycles (a model cut on the way), and of the other states
those on the way to the solution (each path a part of the solution's, from one of its dots),
each filling more cells than the one before. Then it erases itself, leaving the screen to the
usual output."""

from __future__ import annotations

import shutil
import sys
import time
from array import array
from dataclasses import dataclass, field
from typing import TextIO

from flowsat.puzzle.model import Cell, Paths, Puzzle
from flowsat.render.text import draw

DELAY = 0.1  # seconds a search state stays on screen (as in 2016); --fast: a quarter of that
MODEL_HOLD = 10  # a model with cycles stays this many times longer
MAX_STATES = 1_000_000  # search states kept (about 250 bytes each); the replay stops there


@dataclass
class Frame:
    event: str
    paths: Paths  # as reported, or (search states) rebuilt from the solution
    cycles: list[list[Cell]] = field(default_factory=list)


class Replay:
    """An observer for a backend, then the replay of what it saw.

    A search state is kept as the hash of each color's path (its cells in order), so that
    keeping one costs about a microsecond a color; a state is on the way to the solution when
    each of its paths hashes like a part of the solution's path for that color starting at
    one of its dots, and is then drawn as those parts."""

    def __init__(self, puzzle: Puzzle, out: TextIO | None = None, delay: float | None = None,
                 fast: bool = False, color: bool = True, show_cycles: bool = False):
        self.puzzle, self.out = puzzle, out or sys.stdout
        self.delay = (DELAY if delay is None else delay) / (4 if fast else 1)
        self.color, self.show_cycles = color, show_cycles
        self.seen: list[Frame | tuple[str, array]] = []  # models, and hashed search states
        self.states = 0

    def __call__(self, event: str, paths: Paths, cycles: list[list[Cell]]) -> None:
        """Record one reported state (the `observe` callback)."""
        if cycles:
            self.seen.append(Frame(event, {c: list(p) for c, p in paths.items()},
                                   [list(c) for c in cycles]))
        elif self.states < MAX_STATES:
            self.seen.append((event, array("q", (hash(tuple(paths[c])) if c in paths else 0
                                                 for c in self.puzzle.colors))))
            self.states += 1

    def shown(self, solution: Paths | None) -> list[Frame]:
        """The frames to play: models with cycles, and search states on the way to the
        solution, each filling more cells than the one before."""
        parts = [starts(solution[c]) for c in self.puzzle.colors] if solution else None
        out, filled = [], 0
        for item in self.seen:
            if isinstance(item, Frame):
                out.append(item)
            elif parts and (paths := self.rebuilt(item[1], parts)) is not None:
                n = sum(map(len, paths.values()))
                if n > filled:
                    out.append(Frame(item[0], paths))
                    filled = n
        return out

    def rebuilt(self, hashes: array, parts: list[dict[int, list[Cell]]]) -> Paths | None:
        """A search state's paths as parts of the solution's, or None if one is not."""
        paths = {}
        for color, h, part in zip(self.puzzle.colors, hashes, parts, strict=True):
            if h:
                if h not in part:
                    return None
                paths[color] = part[h]
        return paths

    def play(self, solution: Paths | None) -> None:
        """Show the frames in place, one after the other, then erase them."""
        frames = self.shown(solution)
        rows = height_if_fits(self.puzzle)
        if not frames or rows is None:
            return
        for k, frame in enumerate(frames, 1):
            text = f"{self.caption(frame, k, len(frames))}\n{self.board(frame)}"
            self.out.write(("" if k == 1 else f"\r\x1b[{rows}A")
                           + "".join(f"{line}\x1b[K\n" for line in text.split("\n")))
            self.out.flush()
            time.sleep(self.delay * (MODEL_HOLD if frame.cycles else 1))
        self.out.write(f"\r\x1b[{rows}A\x1b[J")
        self.out.flush()

    def board(self, frame: Frame) -> str:
        return draw(self.puzzle, frame.paths, self.color,
                    frame.cycles if self.show_cycles else ())

    def caption(self, frame: Frame, k: int, n: int) -> str:
        cycles = f", {len(frame.cycles)} cycle(s) to cut" if frame.cycles else ""
        cut = " (too many states: the first ones only)" if self.states >= MAX_STATES else ""
        return f"{self.puzzle.name}: {frame.event} {k}/{n}{cycles}{cut}"


def starts(path: list[Cell]) -> dict[int, list[Cell]]:
    """The parts of a path that start at one of its ends, by their hash."""
    path = [tuple(cell) for cell in path]
    return {hash(tuple(part)): part for way in (path, path[::-1])
            for part in (way[:k] for k in range(1, len(way) + 1))}


def height_if_fits(puzzle: Puzzle) -> int | None:
    """The lines a frame takes (the board and its caption) when the board is drawn in text and
    fits the terminal; None otherwise (cursor moves would garble)."""
    size, lines = shutil.get_terminal_size(), draw(puzzle).split("\n")
    fits = (puzzle.board.shape == "square" and max(map(len, lines)) <= size.columns
            and len(lines) + 1 < size.lines)
    return len(lines) + 1 if fits else None
