"""Boards as text: dots as their labels, paths in box-drawing characters, ANSI colors."""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import pairwise

from flowsat.puzzle.board import OPPOSITE, Board
from flowsat.puzzle.model import Cell, Paths, Puzzle
from flowsat.puzzle.rules import DEFAULT_RULES, Rules
from flowsat.render.geometry import OVER, direction, passes
from flowsat.render.palette import WALL_RGB, palette

GLYPHS = {frozenset("LR"): "─", frozenset("UD"): "│", frozenset("UL"): "┘",
          frozenset("UR"): "└", frozenset("DL"): "┐", frozenset("DR"): "┌",
          frozenset("U"): "╵", frozenset("D"): "╷", frozenset("L"): "╴", frozenset("R"): "╶",
          frozenset("UDLR"): "┼"}  # the last: both passes of a bridge
CYCLE_GLYPHS = {frozenset("LR"): "═", frozenset("UD"): "║", frozenset("UL"): "╝",
                frozenset("UR"): "╚", frozenset("DL"): "╗", frozenset("DR"): "╔",
                frozenset("UDLR"): "╬"}
WALL_GLYPHS = {frozenset("UD"): "┃", frozenset("LR"): "━", frozenset("UL"): "┛",
               frozenset("UR"): "┗", frozenset("DL"): "┓", frozenset("DR"): "┏",
               frozenset("U"): "╹", frozenset("D"): "╻", frozenset("L"): "╸", frozenset("R"): "╺",
               frozenset("UDL"): "┫", frozenset("UDR"): "┣", frozenset("ULR"): "┻",
               frozenset("DLR"): "┳", frozenset("UDLR"): "╋"}  # walls meeting between cells
SIDES = {"up": "U", "down": "D", "left": "L", "right": "R"}
HOLE, BRIDGE = " ", "+"
HEX_NOTE = "({kind} board: each cell shows the letter of its flow; --svg FILE or --png FILE " \
           "draws the links, walls and warps)"
RESET = "\x1b[0m"
HIGHLIGHT = "\x1b[1;97;41m"  # cycles: bold white on red


def links(paths: Paths, board: Board | None = None) -> dict[Cell, set[str]]:
    """The directions (U, D, L, R) in which each cell is linked to the next on its path, on the
    board (default: a plain one as large as the paths); a step to a cell that is not a
    neighbor, as between two pieces of a partial path, links nothing."""
    if board is None:
        cells = [tuple(cell) for path in paths.values() for cell in path] or [(0, 0)]
        board = Board.square(max(c for _, c in cells) + 1, max(r for r, _ in cells) + 1)
    out: dict[Cell, set[str]] = {}
    for path in paths.values():
        for a, b in pairwise(map(tuple, path)):
            way = direction(board, a, b)
            if way:
                out.setdefault(a, set()).add(SIDES[way])
                out.setdefault(b, set()).add(SIDES[OPPOSITE[way]])
    return out


def cycle_links(cycles: Iterable[list[Cell]], board: Board) -> dict[Cell, set[str]]:
    """The links around each cycle (cells in order around it)."""
    return links({i: [*cycle, cycle[0]] for i, cycle in enumerate(cycles)}, board)


def draw(puzzle: Puzzle, paths: Paths | None = None, color: bool = False,
         cycles: Iterable[list[Cell]] = ()) -> str:
    """The board, two characters a cell: the cell's glyph (a blank for a hole, '+' for a bridge,
    '┼' where two flows cross it), then '─' if it links to the right or '┃' for a wall; when
    walls run between rows, a line after each row with '│' for links down and '━' for walls
    (the line after the last row and the character after the last cell: the warps). `cycles`
    in double lines (highlighted in color). Hexagonal boards: see `honeycomb`."""
    board = puzzle.board
    if board.shape == "hex":
        return honeycomb(puzzle, paths or {}, color)
    paths = paths or {}
    linked, ring = links(paths, board), cycle_links(cycles, board)
    owner = {tuple(cell): c for c, path in paths.items() for cell in path}
    for b in board.bridges:  # the color drawn is the one across, as in the pictures
        across = passes(board, b, paths).get(OVER)
        if across:
            owner[board.cell(b)] = across
    rgb = palette(puzzle.colors) if color else {}
    walls_down = any(board.cell(a)[0] != board.cell(b)[0] for a, b in board.walls)
    lines = []
    for r in range(puzzle.height):
        line = []
        for c in range(puzzle.width):
            cell, last = (r, c), c + 1 == puzzle.width
            if cell in ring:
                text = CYCLE_GLYPHS[frozenset(ring[cell])] + \
                    pad(board, cell, ring[cell], last).replace("─", "═")
                line.append(highlight(text) if color else text)
                continue
            dirs = linked.get(cell, set())
            text = glyph(puzzle, cell, dirs) + pad(board, cell, dirs, last)
            letter = owner.get(cell, puzzle[cell])
            line.append(paint_walls(text, rgb.get(letter), color))
        lines.append("".join(line))
        if walls_down and (r + 1 < puzzle.height or board.wrap):
            lines.append(between(board, r, linked, owner, rgb, color))
    return "\n".join(lines)


def honeycomb(puzzle: Puzzle, paths: Paths, color: bool) -> str:
    """A hexagonal board's cells, each the letter of its dot or of the flow through it ('·'
    empty, a blank for a hole): column c at character 2c, row r on line 2r, one line lower in
    even columns (which sit half a cell lower), so that neighbors touch; then a line saying
    what the pictures add."""
    board = puzzle.board
    owner = {tuple(cell): c for c, path in paths.items() for cell in path}
    rgb = palette(puzzle.colors) if color else {}
    grid = [[" "] * (2 * board.width - 1) for _ in range(2 * board.height)]
    for i in board.cells:
        r, c = board.cell(i)
        letter = puzzle[r, c] if puzzle[r, c] != "." else owner.get((r, c), "·")
        grid[2 * r + (c % 2 == 0)][2 * c] = paint(letter, rgb[letter]) if letter in rgb \
            else letter
    lines = ["".join(row).rstrip() for row in grid]
    while not lines[0]:
        lines.pop(0)
    return "\n".join([*lines, HEX_NOTE.format(kind=board.kind)])


def glyph(puzzle: Puzzle, cell: Cell, dirs: set[str]) -> str:
    """What stands for a cell: its dot's letter, its path, a hole, a bridge, an empty cell."""
    i = puzzle.board.number(cell)
    if not puzzle.board.on_board[i]:
        return HOLE
    if puzzle[cell] != ".":
        return puzzle[cell]
    return GLYPHS.get(frozenset(dirs), BRIDGE if i in puzzle.board.bridges else "·")


def walled(board: Board, cell: Cell, way: str) -> bool:
    """Whether a wall closes the side of a cell (on the board) that way."""
    i = board.number(cell)
    n = board.geometric_neighbor(i, way)
    return board.on_board[i] and n is not None and (min(i, n), max(i, n)) in board.walls


def pad(board: Board, cell: Cell, dirs: set[str], last: bool) -> str:
    """What follows a cell's glyph: a line if it links to the right, a wall, else a space
    (after the last cell: only on a board with warps)."""
    if last and not board.wrap:
        return ""
    return "─" if "R" in dirs else "┃" if walled(board, cell, "right") else " "


def between(board: Board, r: int, linked: dict[Cell, set[str]], owner: dict[Cell, str],
            rgb: dict, color: bool) -> str:
    """The line below row r: '│' where a cell links down, '━' under a wall, and where walls meet
    between four cells the heavy line that joins them."""
    down = (r + 1) % board.height
    out = []
    for c in range(board.width):
        cell = (r, c)
        if walled(board, cell, "down"):
            out.append(paint_walls("━", None, color))
        elif "D" in linked.get(cell, ()):
            letter = owner.get(cell)
            out.append(paint("│", rgb[letter]) if letter in rgb else "│")
        else:
            out.append(" ")
        if c + 1 < board.width or board.wrap:
            right = (c + 1) % board.width
            meet = frozenset(side for side, there in (
                ("U", walled(board, cell, "right")), ("D", walled(board, (down, c), "right")),
                ("L", walled(board, cell, "down")), ("R", walled(board, (r, right), "down")))
                if there)
            out.append(paint_walls(WALL_GLYPHS[meet], None, color) if meet else " ")
    return "".join(out)


def paint(text: str, rgb: tuple[int, int, int]) -> str:
    return f"\x1b[38;2;{rgb[0]};{rgb[1]};{rgb[2]}m{text}{RESET}"


def paint_walls(text: str, rgb: tuple[int, int, int] | None, color: bool) -> str:
    """The text in its color (None: uncolored), its walls in the walls' color."""
    if not color:
        return text
    parts = re.split(f"([{''.join(WALL_GLYPHS.values())}]+)", text)
    return "".join(paint(part, WALL_RGB) if k % 2 else paint(part, rgb) if rgb else part
                   for k, part in enumerate(parts) if part)


def highlight(text: str) -> str:
    """The text on a red background, but for a trailing space (no link to the right)."""
    body = text.rstrip(" ")
    return f"{HIGHLIGHT}{body}{RESET}{text[len(body):]}"


def summary(puzzle: Puzzle, result, backend: str, rules: Rules = DEFAULT_RULES) -> str:
    """One line: the puzzle, its status, the time, the configuration and the main counts, and
    the rule when it is unsolvable without self-touch."""
    stats = result.stats
    config = "/".join(v for v in result.config.values() if isinstance(v, str))
    counts = ", ".join(f"{stats[k]:,} {k.replace('_', ' ')}" for k in
                       ("variables", "clauses", "cycle_cuts", "nodes") if k in stats)
    detail = "; ".join(x for x in (f"{backend} {config}".strip(), counts) if x)
    line = f"{puzzle.name}: {result.status} in {stats.get('total_s', 0):.3f} s ({detail})"
    line = f"{line}: {result.error}" if result.error else line
    return line + rule_note(result.status, rules)


def rule_note(status: str, rules: Rules) -> str:
    """For an unsolvable puzzle without self-touch, every cell filled: which rule made it so,
    and the switch (with cells left empty, self-touch changes nothing:
    `flowsat.search.checks.empty`)."""
    if status != "unsolvable" or rules.self_touch or not rules.fill_all:
        return ""
    return ("; unsolvable under the no-self-touch rule (a path never touches itself side by "
            "side): --allow-self-touch lifts it")
