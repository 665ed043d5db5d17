"""Boards as text: dots as their letters, paths in box-drawing characters, ANSI colors."""

from __future__ import annotations

from itertools import pairwise

from flowsat.puzzle.model import Cell, Paths, Puzzle
from flowsat.render.palette import palette

GLYPHS = {frozenset("LR"): "─", frozenset("UD"): "│", frozenset("UL"): "┘",
          frozenset("UR"): "└", frozenset("DL"): "┐", frozenset("DR"): "┌",
          frozenset("U"): "╵", frozenset("D"): "╷", frozenset("L"): "╴", frozenset("R"): "╶"}
RESET = "\x1b[0m"


def links(paths: Paths) -> dict[Cell, set[str]]:
    """The directions (U, D, L, R) in which each cell is linked to the next on its path."""
    out: dict[Cell, set[str]] = {}
    for path in paths.values():
        for (r1, c1), (r2, c2) in pairwise(path):
            step = {(-1, 0): "UD", (1, 0): "DU", (0, -1): "LR", (0, 1): "RL"}[r2 - r1, c2 - c1]
            out.setdefault((r1, c1), set()).add(step[0])
            out.setdefault((r2, c2), set()).add(step[1])
    return out


def draw(puzzle: Puzzle, paths: Paths | None = None, color: bool = False) -> str:
    """The board, two characters a cell: the cell's glyph, then '─' if it links to the right."""
    linked = links(paths or {})
    owner = {tuple(cell): c for c, path in (paths or {}).items() for cell in path}
    rgb = palette(puzzle.colors)
    lines = []
    for r in range(puzzle.height):
        line = []
        for c in range(puzzle.width):
            dirs = linked.get((r, c), set())
            glyph = puzzle[r, c] if puzzle[r, c] != "." else GLYPHS.get(frozenset(dirs), "·")
            text = glyph + ("─" if "R" in dirs else " " if c + 1 < puzzle.width else "")
            letter = owner.get((r, c), puzzle[r, c])
            line.append(paint(text, rgb[letter]) if color and letter in rgb else text)
        lines.append("".join(line))
    return "\n".join(lines)


def paint(text: str, rgb: tuple[int, int, int]) -> str:
    return f"\x1b[38;2;{rgb[0]};{rgb[1]};{rgb[2]}m{text}{RESET}"


def summary(puzzle: Puzzle, result, backend: str) -> str:
    """One line: the puzzle, its status, the time, the configuration and the main counts."""
    stats = result.stats
    config = "/".join(v for v in result.config.values() if isinstance(v, str))
    counts = ", ".join(f"{stats[k]:,} {k.replace('_', ' ')}" for k in
                       ("variables", "clauses", "cycle_cuts", "nodes") if k in stats)
    detail = "; ".join(x for x in (f"{backend} {config}".strip(), counts) if x)
    line = f"{puzzle.name}: {result.status} in {stats.get('total_s', 0):.3f} s ({detail})"
    return f"{line}: {result.error}" if result.error else line
