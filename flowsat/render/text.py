"""Boards as text: dots as their labels, paths in box-drawing characters, ANSI colors."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise

from flowsat.puzzle.model import Cell, Paths, Puzzle
from flowsat.render.palette import palette

GLYPHS = {frozenset("LR"): "─", frozenset("UD"): "│", frozenset("UL"): "┘",
          frozenset("UR"): "└", frozenset("DL"): "┐", frozenset("DR"): "┌",
          frozenset("U"): "╵", frozenset("D"): "╷", frozenset("L"): "╴", frozenset("R"): "╶"}
CYCLE_GLYPHS = {frozenset("LR"): "═", frozenset("UD"): "║", frozenset("UL"): "╝",
                frozenset("UR"): "╚", frozenset("DL"): "╗", frozenset("DR"): "╔"}
STEPS = {(-1, 0): "UD", (1, 0): "DU", (0, -1): "LR", (0, 1): "RL"}  # step -> (from, to) sides
RESET = "\x1b[0m"
HIGHLIGHT = "\x1b[1;97;41m"  # cycles: bold white on red


def links(paths: Paths) -> dict[Cell, set[str]]:
    """The directions (U, D, L, R) in which each cell is linked to the next on its path (a step
    to a cell that is not a neighbor, as between two pieces of a partial path, links nothing)."""
    out: dict[Cell, set[str]] = {}
    for path in paths.values():
        for a, b in pairwise(map(tuple, path)):
            step = STEPS.get((b[0] - a[0], b[1] - a[1]))
            if step:
                out.setdefault(a, set()).add(step[0])
                out.setdefault(b, set()).add(step[1])
    return out


def cycle_links(cycles: Iterable[list[Cell]]) -> dict[Cell, set[str]]:
    """The links around each cycle (cells in order around it)."""
    return links({i: [*cycle, cycle[0]] for i, cycle in enumerate(cycles)})


def draw(puzzle: Puzzle, paths: Paths | None = None, color: bool = False,
         cycles: Iterable[list[Cell]] = ()) -> str:
    """The board, two characters a cell: the cell's glyph, then '─' if it links to the right;
    `cycles` in double lines (highlighted in color)."""
    paths = paths or {}
    linked, ring = links(paths), cycle_links(cycles)
    owner = {tuple(cell): c for c, path in paths.items() for cell in path}
    rgb = palette(puzzle.colors) if color else {}
    lines = []
    for r in range(puzzle.height):
        line = []
        for c in range(puzzle.width):
            cell, last = (r, c), c + 1 == puzzle.width
            if cell in ring:
                text = CYCLE_GLYPHS[frozenset(ring[cell])] + pad(ring[cell], "═", last)
                line.append(highlight(text) if color else text)
                continue
            dirs = linked.get(cell, set())
            glyph = puzzle[cell] if puzzle[cell] != "." else GLYPHS.get(frozenset(dirs), "·")
            text = glyph + pad(dirs, "─", last)
            letter = owner.get(cell, puzzle[cell])
            line.append(paint(text, rgb[letter]) if letter in rgb else text)
        lines.append("".join(line))
    return "\n".join(lines)


def pad(dirs: set[str], line: str, last: bool) -> str:
    """What follows a cell's glyph: a line if it links to the right, else a space."""
    return "" if last else line if "R" in dirs else " "


def paint(text: str, rgb: tuple[int, int, int]) -> str:
    return f"\x1b[38;2;{rgb[0]};{rgb[1]};{rgb[2]}m{text}{RESET}"


def highlight(text: str) -> str:
    """The text on a red background, but for a trailing space (no link to the right)."""
    body = text.rstrip(" ")
    return f"{HIGHLIGHT}{body}{RESET}{text[len(body):]}"


def summary(puzzle: Puzzle, result, backend: str, allow_self_touch: bool = False) -> str:
    """One line: the puzzle, its status, the time, the configuration and the main counts, and
    the rule when it is unsolvable without self-touch."""
    stats = result.stats
    config = "/".join(v for v in result.config.values() if isinstance(v, str))
    counts = ", ".join(f"{stats[k]:,} {k.replace('_', ' ')}" for k in
                       ("variables", "clauses", "cycle_cuts", "nodes") if k in stats)
    detail = "; ".join(x for x in (f"{backend} {config}".strip(), counts) if x)
    line = f"{puzzle.name}: {result.status} in {stats.get('total_s', 0):.3f} s ({detail})"
    line = f"{line}: {result.error}" if result.error else line
    return line + rule_note(result.status, allow_self_touch)


def rule_note(status: str, allow_self_touch: bool) -> str:
    """For an unsolvable puzzle without self-touch: which rule made it so, and the switch."""
    if status != "unsolvable" or allow_self_touch:
        return ""
    return ("; unsolvable under the no-self-touch rule (a path never touches itself side by "
            "side): --allow-self-touch lifts it")
