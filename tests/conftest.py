"""Shared fixtures: where the project's puzzles and the shared (other people's) data live."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
SHARED = ROOT.parent / "shared"
ZUCKER = SHARED / "puzzles" / "zucker"
NUMBERLINK = SHARED / "puzzles" / "numberlink"
REFERENCE = SHARED / "reference"

needs_shared = pytest.mark.skipif(not ZUCKER.is_dir(), reason="../shared is not present")


def hears_ctrl_c() -> None:
    """`preexec_fn` of a program a test sends SIGINT: it takes Ctrl-C as a terminal's job
    does, however the tests were started (a shell's background job ignores SIGINT, and what
    it starts inherits that: Python then leaves SIGINT ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def handmade_files() -> list[Path]:
    """The project's hand-made puzzles (examples, unsolvable ones): not the generated corpus."""
    return sorted(f for folder in ("examples", "unsolvable")
                  for f in (PUZZLES / folder).rglob("*.txt"))


def zucker_files() -> list[Path]:
    return sorted(ZUCKER.glob("*.txt")) if ZUCKER.is_dir() else []


def sat_search(puzzle, limit, *, known=(), observe=None, rules=None, kept=None, **given):
    """`flowsat.sat.search.search` with the options as keywords, made and checked as a caller
    makes them (`BACKEND.options`)."""
    from flowsat.puzzle.rules import DEFAULT_RULES
    from flowsat.sat import BACKEND
    from flowsat.sat.search import search

    return search(puzzle, limit, BACKEND.options(**given), rules or DEFAULT_RULES,
                  known=known, observe=observe, kept=kept)


