"""Boards as text: dots as their labels, paths in box-drawing characters, ANSI colors."""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import pairwise

from flowsat.puzzle.board import OPPOSITE, SQUARE, Board
from flowsat.puzzle.model import NOT_EMPTY, Cell, Paths, Puzzle
from flowsat.render.geometry import OVER, passes
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


BITS = {"U": 1, "D": 2, "L": 4, "R": 8}  # a cell's links as bits (`link_bits`)
WAY_BITS = {way: (BITS[side], BITS[SIDES[OPPOSITE[way]]]) for way, side in SIDES.items()}
BY_BITS = tuple(GLYPHS.get(frozenset(s for s, bit in BITS.items() if m & bit)) for m in range(16))
# a cell of a plain board as drawn by its link bits (`row_texts`) while it has no dot
CELL_TEXTS = tuple((BY_BITS[m] or "·") + ("─" if m & BITS["R"] else " ") for m in range(16))
# a step on a square board without warps, by (rows, columns) it goes: its two cells' link bits
STEP_BITS = {SQUARE[way]: ends for way, ends in WAY_BITS.items()}


def links(paths: Paths, board: Board | None = None) -> dict[Cell, set[str]]:
    """The directions (U, D, L, R) in which each cell is linked to the next on its path, on the
    board (default: a plain one as large as the paths); a step to a cell that is not a
    neighbor, as between two pieces of a partial path, links nothing."""
    if board is None:
        cells = [tuple(cell) for path in paths.values() for cell in path] or [(0, 0)]
        board = Board.square(max(c for _, c in cells) + 1, max(r for r, _ in cells) + 1)
    return {board.cell(i): sides_of(bits) for i, bits in enumerate(link_bits(paths, board))
            if bits}


def link_bits(paths: Paths, board: Board) -> list[int]:
    """`links` as each cell's bits (`BITS`), by cell number (a cell off the grid links
    nothing); on a square board without warps, each step's bits found from how far it goes."""
    if board.shape != "square" or board.wrap:
        return link_bits_along(paths, board)
    found, h, w, step = [0] * board.size, board.height, board.width, STEP_BITS.get
    for path in paths.values():
        for (ra, ca), (rb, cb) in pairwise(path):
            ends = step((rb - ra, cb - ca))
            if ends and 0 <= ra < h and 0 <= ca < w and 0 <= rb < h and 0 <= cb < w:
                found[ra * w + ca] |= ends[0]
                found[rb * w + cb] |= ends[1]
    return found


def link_bits_along(paths: Paths, board: Board) -> list[int]:
    """`link_bits` on any board: the way of each step from the board."""
    found, w = [0] * board.size, board.width
    for path in paths.values():
        for way, ((ra, ca), (rb, cb)) in zip(board.ways_along(path), pairwise(path), strict=True):
            ends = WAY_BITS.get(way)
            if ends:
                found[ra * w + ca] |= ends[0]
                found[rb * w + cb] |= ends[1]
    return found


def sides_of(bits: int) -> set[str]:
    """The sides (U, D, L, R) of a cell's link bits."""
    return {side for side, bit in BITS.items() if bits & bit}


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
    linked = link_bits(paths, board)
    cycles = list(cycles)
    ring = link_bits({k: [*cycle, cycle[0]] for k, cycle in enumerate(cycles)}, board) \
        if cycles else [0] * board.size
    cycled = any(ring)
    walls = walled_sides(board, "right"), walled_sides(board, "down")
    owner, rgb = (owners(board, paths), palette(puzzle.colors)) if color else ({}, {})
    walls_down = any(board.cell(a)[0] != board.cell(b)[0] for a, b in board.walls)
    lines, w = [], puzzle.width
    plain = plain_texts(puzzle, linked) if board.plain else None
    for r in range(puzzle.height):
        if plain:
            texts = plain[r * w:(r + 1) * w]
            texts[-1] = texts[-1][0]
        else:
            texts = row_texts(puzzle, r, linked, walls[0])
        if cycled:
            mark_cycles(puzzle, r, texts, ring, walls[0])
        if color:
            texts = painted(puzzle, r, texts, owner, rgb, ring)
        lines.append("".join(texts))
        if walls_down and (r + 1 < puzzle.height or board.wrap):
            lines.append(between(board, r, linked, owner, rgb, color, walls))
    return "\n".join(lines)


def row_texts(puzzle: Puzzle, r: int, linked: list[int], right: set[int]) -> list[str]:
    """Each cell of row r as drawn: its glyph (its dot's letter, its path, a hole, a bridge, an
    empty cell), then '─' if it links to the right, '┃' for a wall, else a space (after the
    last cell: only on a board with warps)."""
    board = puzzle.board
    on, bridges, link = board.on_board, board.bridges, BITS["R"]
    texts = []
    for i, label in enumerate(puzzle.rows[r], r * puzzle.width):
        bits = linked[i]
        glyph = HOLE if not on[i] else label if label != "." else BY_BITS[bits] or (
            BRIDGE if i in bridges else "·")
        texts.append(glyph + ("─" if bits & link else "┃" if i in right else " "))
    if not board.wrap:
        texts[-1] = texts[-1][0]
    return texts


def plain_texts(puzzle: Puzzle, linked: list[int]) -> list[str]:
    """`row_texts` of every cell of a plain board (no holes, bridges, walls nor warps) at once,
    each looked up by its link bits, then the dots' letters put in; the last cell of each row
    still followed by a space."""
    texts = list(map(CELL_TEXTS.__getitem__, linked))
    for dot in NOT_EMPTY.finditer("".join(puzzle.rows)):
        i = dot.start()
        texts[i] = dot.group() + texts[i][1]
    return texts


def mark_cycles(puzzle: Puzzle, r: int, texts: list[str], ring: list[int], right: set[int]
                ) -> None:
    """The cells of row r on the cycles drawn in double lines instead."""
    last = puzzle.width - 1 if not puzzle.board.wrap else None
    for c in range(puzzle.width):
        bits = ring[r * puzzle.width + c]
        if bits:
            after = "═" if bits & BITS["R"] else "┃" if r * puzzle.width + c in right else " "
            texts[c] = CYCLE_GLYPHS[frozenset(sides_of(bits))] + (after if c != last else "")


def painted(puzzle: Puzzle, r: int, texts: list[str], owner: dict[Cell, str], rgb: dict,
            ring: list[int]) -> list[str]:
    """The texts of row r in their flows' colors, the walls in theirs, the cycles
    highlighted."""
    return [highlight(text) if ring[r * puzzle.width + c] else
            paint_walls(text, rgb.get(owner.get((r, c), puzzle[r, c])), True)
            for c, text in enumerate(texts)]


def owners(board: Board, paths: Paths) -> dict[Cell, str]:
    """The flow through each cell; at a bridge, the one across (drawn over, as in the
    pictures)."""
    owner = {tuple(cell): c for c, path in paths.items() for cell in path}
    for b in board.bridges:
        across = passes(board, b, paths).get(OVER)
        if across:
            owner[board.cell(b)] = across
    return owner


def walled_sides(board: Board, way: str) -> set[int]:
    """The cells (on the board) whose side that way (`right` or `down`) is a wall."""
    return {i for a, b in board.walls if a < b for i, n in ((a, b), (b, a))
            if board.on_board[i] and board.geometric_neighbor(i, way) == n}


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


def between(board: Board, r: int, linked: list[int], owner: dict[Cell, str], rgb: dict,
            color: bool, walls: tuple[set[int], set[int]]) -> str:
    """The line below row r: '│' where a cell links down, '━' under a wall, and where walls meet
    between four cells the heavy line that joins them (`walls`: the cells walled to the right
    and down)."""
    (right, down), w = walls, board.width
    below = (r + 1) % board.height * w
    out = []
    for c in range(w):
        i = r * w + c
        if i in down:
            out.append(paint_walls("━", None, color))
        elif linked[i] & BITS["D"]:
            letter = owner.get((r, c))
            out.append(paint("│", rgb[letter]) if letter in rgb else "│")
        else:
            out.append(" ")
        if c + 1 < w or board.wrap:
            meet = frozenset(side for side, there in (
                ("U", i in right), ("D", below + c in right),
                ("L", i in down), ("R", r * w + (c + 1) % w in down)) if there)
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


def summary(puzzle: Puzzle, result, backend: str, note: str = "") -> str:
    """One line: the puzzle, its status, the time, the configuration and the main counts, and
    a note (`flowsat.looser.note`: the switches that lift an unsolvable verdict)."""
    stats = result.stats
    config = "/".join(v for v in result.config.values() if isinstance(v, str))
    counts = ", ".join(f"{stats[k]:,} {k.replace('_', ' ')}" for k in
                       ("variables", "clauses", "cycle_cuts", "nodes") if k in stats)
    detail = "; ".join(x for x in (f"{backend} {config}".strip(), counts) if x)
    line = f"{puzzle.name}: {result.status} in {stats.get('total_s', 0):.3f} s ({detail})"
    line = f"{line}: {result.error}" if result.error else line
    return line + note
