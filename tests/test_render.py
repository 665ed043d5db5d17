"""Pictures and replays: palette, SVG, PNG read back pixel by pixel, the terminal replay."""

from __future__ import annotations

import io
import re
import struct
import xml.etree.ElementTree as ET
import zlib
from itertools import combinations

import pytest

from flowsat.puzzle import Puzzle, read_puzzles
from flowsat.puzzle.rules import Rules
from flowsat.render.animate import Replay
from flowsat.render.palette import (
    BACKGROUND,
    MIN_CONTRAST,
    PALETTE,
    contrast,
    distance,
    generated,
    hex_color,
    oklab,
    palette,
)
from flowsat.render.svg import DOT, svg
from flowsat.render.text import CYCLE_GLYPHS, draw, links
from flowsat.solve import solve
from tests.conftest import PUZZLES

FLOW5 = PUZZLES / "examples" / "flow_5x5.txt"
CYCLES = PUZZLES / "unsolvable" / "cycles_5x6.txt"
SVG = "{http://www.w3.org/2000/svg}"


def first(path) -> Puzzle:
    return next(iter(read_puzzles(path)))


def screen(output: str) -> list[str]:
    """What a terminal shows after the output (colors dropped): the few ANSI moves the replay
    uses, cursor up (A), erase below (J) and to the end of the line (K), played back."""
    rows: list[list[str]] = [[]]
    r = c = 0
    for token in re.findall(r"\x1b\[[0-9;]*[A-Za-z]|.|\n", output):
        if token == "\n":
            r, c = r + 1, 0
        elif token == "\r":
            c = 0
        elif token.startswith("\x1b"):
            if token[-1] == "A":
                r -= int(token[2:-1] or 1)
            elif token[-1] in "JK":
                rows[r][c:] = []
                if token[-1] == "J":
                    del rows[r + 1:]
        else:
            rows += [[] for _ in range(r + 1 - len(rows))]
            rows[r][c:c + 1] = [token]
            c += 1
    lines = ["".join(row).rstrip() for row in rows]
    while lines and not lines[-1]:
        lines.pop()
    return lines


# palette

def test_the_16_letters_keep_the_2016_colors_and_others_get_generated_ones():
    letters = [*PALETTE, *"DEFHIJKLNQSUVXZ", *"adefhijklnoqrstuvwxyz", *"0123456789"]
    assert len(letters) == 62
    colors = palette(letters)
    assert all(colors[c] == PALETTE[c] for c in PALETTE)
    assert [colors[c] for c in letters[16:]] == generated()[:46]
    assert len(set(colors.values())) == 62


def test_generated_colors_are_distinct_and_readable_on_the_board():
    extra, fixed = generated()[:46], [*PALETTE.values(), BACKGROUND]  # all 77: test_labels
    assert all(contrast(rgb, BACKGROUND) >= MIN_CONTRAST for rgb in extra)
    gaps = [distance(oklab(a), oklab(b))
            for a, b in [*combinations(extra, 2), *((x, f) for x in extra for f in fixed)]]
    assert min(gaps) > 0.07  # in OKLab; the closest two of the 16 themselves are 0.107 apart


# text

def test_links_skip_steps_between_pieces():
    paths = {"A": [(0, 0), (0, 1), (1, 1), (1, 3)]}  # (1, 1) -> (1, 3) is no step
    assert links(paths) == {(0, 0): {"R"}, (0, 1): {"L", "D"}, (1, 1): {"U"}}


def cycle_cells(board: str) -> int:
    """How many cells of a drawn board are on cycles (cells are the even columns)."""
    double = "".join(CYCLE_GLYPHS.values())
    return sum(ch in double for line in board.splitlines() for ch in line[::2])


def test_cycles_are_drawn_in_double_lines():
    puzzle = Puzzle.from_text("A..A / .... / .... / B..B")
    ring = [(1, 0), (1, 1), (1, 2), (1, 3), (2, 3), (2, 2), (2, 1), (2, 0)]
    board = draw(puzzle, {"A": [(0, c) for c in range(4)]}, cycles=[ring]).splitlines()
    assert board[1:3] == ["╔═════╗", "╚═════╝"]
    assert cycle_cells("\n".join(board)) == len(ring)


# SVG and PNG

def test_svg_is_well_formed_with_one_pipe_per_color_and_two_dots():
    puzzle = first(FLOW5)
    result = solve(puzzle)
    root = ET.fromstring(svg(puzzle, result.paths))
    pipes = [e for e in root.iter(f"{SVG}path") if e.get("class") == "pipe"]
    colors = {c: hex_color(v) for c, v in palette(puzzle.colors).items()}
    assert sorted(p.get("data-color") for p in pipes) == sorted(puzzle.colors)
    assert all(p.get("stroke") == colors[p.get("data-color")] for p in pipes)
    dots = [e.get("fill") for e in root.iter(f"{SVG}circle")]
    assert sorted(dots) == sorted(colors[c] for c in puzzle.colors for _ in (1, 2))


def test_the_unsolved_board_has_dots_and_no_pipes():
    puzzle = first(FLOW5)
    root = ET.fromstring(svg(puzzle))
    assert not [e for e in root.iter(f"{SVG}path") if e.get("class") in ("pipe", "tint")]
    assert len(list(root.iter(f"{SVG}circle"))) == 2 * len(puzzle.colors)


def read_png(data: bytes) -> list[list[tuple[int, int, int]]]:
    """The RGB pixels of an 8-bit RGB or RGBA PNG, row by row (its line filters undone)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        size, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + size]
        pos += 12 + size
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert (depth, interlace) == (8, 0) and ctype in (2, 6)  # RGB or RGBA
            n = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw, stride, rows = zlib.decompress(idat), n * width, []
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - n] if i >= n else 0
            b, c = prev[i], prev[i - n] if i >= n else 0
            p = a + b - c
            guess = (a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c)
                     else b if abs(p - b) <= abs(p - c) else c)
            line[i] = (line[i] + (0, a, b, (a + b) // 2, guess)[kind]) & 255
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, n)])
        prev = line
    return rows


def near(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return max(abs(x - y) for x, y in zip(a, b, strict=True)) <= 3


def test_png_pixels_show_each_path_in_its_color_and_nothing_between_paths():
    pytest.importorskip("cairosvg", exc_type=ImportError)
    from flowsat.render.png import png

    puzzle = first(FLOW5)
    paths = solve(puzzle).paths
    cell, pad = 40, 4  # svg(): pad is a tenth of a cell
    pixels = read_png(png(svg(puzzle, paths, cell=cell)))
    assert len(pixels) == puzzle.height * cell + 2 * pad
    rgb = palette(puzzle.colors)

    def at(y: float, x: float) -> tuple[int, int, int]:
        return pixels[int(pad + y * cell)][int(pad + x * cell)]

    owner = {cell: c for c, path in paths.items() for cell in path}
    linked = links(paths)
    between = 0
    for (r, c), letter in owner.items():
        assert near(at(r + 0.5, c + 0.5), rgb[letter]), (r, c, letter)
        for side, (r2, c2) in (("R", (r, c + 1)), ("D", (r + 1, c))):
            if (r2, c2) not in owner:
                continue
            edge = at((r + r2) / 2 + 0.5, (c + c2) / 2 + 0.5)  # the middle of their side
            if side in linked[r, c]:
                assert near(edge, rgb[letter])
            elif owner[r2, c2] != letter:
                assert not near(edge, rgb[letter]) and not near(edge, rgb[owner[r2, c2]])
                between += 1
    assert between > 0
    for r, c in (cell for ends in puzzle.dots.values() for cell in ends):
        (side,) = linked[r, c]  # a dot is wider than its pipe: look away from the pipe
        dy, dx = {"U": (1, 0), "D": (-1, 0), "L": (0, 1), "R": (0, -1)}[side]
        assert near(at(r + 0.5 + 0.75 * DOT * dy, c + 0.5 + 0.75 * DOT * dx), rgb[puzzle[r, c]])


# the terminal replay

def test_sat_replay_shows_each_model_with_its_cycles_then_erases_itself():
    puzzle = first(CYCLES)
    out = io.StringIO()
    replay = Replay(puzzle, out=out, delay=0, color=False, show_cycles=True)
    result = solve(puzzle, rules=Rules(self_touch=True), observe=replay, encoding="edges-binary",
                   solver="cadical195")
    frames = replay.shown(result.paths)
    assert frames, "CaDiCaL's models of this puzzle have cycles"
    assert sum(len(f.cycles) for f in frames) == result.stats["cycle_cuts"]
    replay.play(result.paths)
    shown = out.getvalue().split("\r\x1b[")  # one piece a frame, then the erasing
    assert len(shown) == len(frames) + 1
    for frame, text in zip(frames, shown, strict=False):
        board = "\n".join(line.removesuffix("\x1b[K") for line in text.splitlines()[1:])
        assert cycle_cells(board) == sum(map(len, frame.cycles))
    assert screen(out.getvalue()) == []


def test_search_replay_keeps_the_states_on_the_way_to_the_solution():
    puzzle = first(FLOW5)
    solution = solve(puzzle).paths
    color = puzzle.colors[0]
    a = solution[color][0]
    astray = next(n for n in puzzle.neighbors(a) if n not in solution[color])
    on_the_way = [{c: solution[c][:k] for c in puzzle.colors} for k in (1, 2, 3)]
    replay = Replay(puzzle, out=io.StringIO(), delay=0, color=False)
    for state in (on_the_way[0], {color: [a, astray]}, on_the_way[1], on_the_way[0],
                  on_the_way[2]):
        replay("expand", state, [])
    frames = replay.shown(solution)
    assert [f.paths for f in frames] == on_the_way
    assert replay.shown(None) == []  # nothing to replay without a solution


@pytest.mark.parametrize("seed", range(20))
def test_link_bits_of_a_square_board_are_those_found_way_by_way(seed):
    import random

    from flowsat.puzzle import Board
    from flowsat.render.text import link_bits, link_bits_along

    rng = random.Random(seed)
    board = Board(rng.randint(1, 6), rng.randint(1, 6),
                  holes=frozenset({0}) if seed % 3 == 0 else frozenset())
    near = [-1, 0, 1] * 3 + [-7, 2]  # mostly steps to a neighbor, some off the grid
    paths = {}
    for k in range(rng.randint(1, 4)):
        r, c = rng.randrange(board.height), rng.randrange(board.width)
        path = [(r, c)]
        for _ in range(rng.randint(0, 12)):
            r, c = r + rng.choice(near), c + rng.choice(near)
            path.append((r, c))
        paths[k] = path if k % 2 else [list(cell) for cell in path]
    assert link_bits(paths, board) == link_bits_along(paths, board)


@pytest.mark.parametrize("seed", range(10))
def test_a_plain_board_is_drawn_at_once_as_row_by_row(seed):
    import random

    from flowsat.puzzle import Board
    from flowsat.render.text import plain_texts, row_texts

    rng = random.Random(seed)
    w, h = rng.randint(1, 7), rng.randint(1, 7)
    rows = tuple("".join(rng.choice("..AB#") for _ in range(w)) for _ in range(h))
    puzzle = Puzzle(rows, board=Board.square(w, h))
    linked = [rng.randrange(16) for _ in range(w * h)]
    at_once = plain_texts(puzzle, linked)
    for r in range(h):
        texts = at_once[r * w:(r + 1) * w]
        texts[-1] = texts[-1][0]
        assert texts == row_texts(puzzle, r, linked, set())
