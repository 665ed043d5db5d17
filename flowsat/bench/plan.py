"""The runs of a bench: every puzzle, orientation, configuration and repeat, and their keys."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flowsat.bench.configs import Config
from flowsat.puzzle import SYMMETRIES, Puzzle, PuzzleError, expand_paths, read_puzzles
from flowsat.puzzle.rules import Rules

RunKey = tuple[str | None, str, int, str, str, int]  # set (None outside a plan), file,
# index, symmetry, configuration, repeat


@dataclass(frozen=True)
class Place:
    """A puzzle set of a plan as a puzzle file is in it: the set's name, the rules its puzzles
    are answered under, and the configurations that run on it (None: every one). One file
    may be in several sets: its puzzles run once in each."""

    set: str
    rules: Rules
    configs: frozenset[str] | None = None

    def takes(self, config: Config) -> bool:
        return self.configs is None or config.name in self.configs


@dataclass(frozen=True)
class Run:
    """One solve: a puzzle in one orientation by one configuration, the repeat-th time; in a
    plan, under the rules of the set it is in (None: the bench's)."""

    puzzle: Puzzle
    symmetry: str
    config: Config
    repeat: int
    set: str | None = None
    rules: Rules | None = None

    @property
    def key(self) -> RunKey:
        return (self.set, self.puzzle.file, self.puzzle.index, self.symmetry, self.config.name,
                self.repeat)

    def describe(self) -> dict[str, Any]:
        """The fields of its record that say what was run."""
        p = self.puzzle
        return {"file": p.file, "index": p.index, "name": p.name, "rows": p.height,
                "cols": p.width, "kind": p.kind, "colors": len(p.colors),
                "symmetry": self.symmetry,
                "config": self.config.name, "backend": self.config.backend,
                "options": self.config.options, "timing": self.config.timing,
                "repeat": self.repeat} | self.placed()

    def placed(self) -> dict[str, Any]:
        """The set and rules of a run of a plan."""
        if self.set is None:
            return {}
        return {"set": self.set, "rules": self.rules.record() if self.rules else None}


def record_key(record: dict[str, Any]) -> RunKey:
    """A record's run (records from before sets were the unit have none: None)."""
    return (record.get("set"), record["file"], record["index"], record["symmetry"],
            record["config"], record["repeat"])


def load_puzzles(paths: Iterable[str | Path],
                 max_cells: int | None = None) -> tuple[list[Puzzle], list[PuzzleError]]:
    """Every puzzle of every file (folders: their *.txt files), and the inputs that are bad."""
    puzzles, errors = [], []
    for file in expand_paths(paths):
        for item in read_puzzles(file, *([max_cells] if max_cells else [])):
            (errors if isinstance(item, PuzzleError) else puzzles).append(item)
    return puzzles, errors


def orientations(symmetries: str) -> tuple[str, ...]:
    """`none`: the puzzle as it is; `all`: its eight rotations and reflections."""
    return SYMMETRIES if symmetries == "all" else ("identity",)


def plan(puzzles: list[Puzzle], symmetries: str, configs: list[Config], repeat: int,
         placed: Mapping[str, list[Place]] | None = None) -> list[Run]:
    """Repeat by repeat, each sweeping every puzzle, so that slow drifts of the machine's
    load touch every configuration alike; the sets of a puzzle (in a plan, `placed`: the sets
    each file is in) and its configurations run back to back. Hexagonal boards run as they
    are (the symmetries are the square grid's). Configurations timed over a whole set run
    apart (flowsat.bench.whole)."""
    placed = placed or {}
    return [Run(p, s, c, r, *((place.set, place.rules) if place else ()))
            for r in range(1, repeat + 1) for p in puzzles
            for place in placed.get(p.file) or [None]
            for s in orientations(symmetries) if s == "identity" or p.board.shape == "square"
            for c in configs if c.timing != "set" and (place is None or place.takes(c))]
