"""Pictures and terminal drawings of every kind of board: hexagons, holes, walls, bridges, warps."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest

from flowsat.checker import problems
from flowsat.puzzle import Board, Puzzle, Rules, read_puzzles
from flowsat.puzzle.board import OPPOSITE
from flowsat.render.animate import height_if_fits
from flowsat.render.geometry import OVER, outline, side, steps
from flowsat.render.palette import BACKGROUND, palette
from flowsat.render.svg import GAP, PIPE, STUB, WALL, WALL_RGB, Canvas, svg
from flowsat.render.text import draw
from tests.conftest import PUZZLES
from tests.test_render import near, read_png

SVG = "{http://www.w3.org/2000/svg}"
CELL = 40
DEFAULT = Rules()
LEVELS = [p for f in sorted((PUZZLES / "kinds").glob("*.txt")) for p in read_puzzles(f)]


def puzzle_of(rows: str, board: Board, paths: dict, rules: Rules = DEFAULT) -> Puzzle:
    """A hand-made puzzle whose paths the checker accepts."""
    puzzle = Puzzle.from_text(rows, board=board)
    assert problems(puzzle, paths, rules) == []
    return puzzle


def elements(picture: str, kind: str) -> list[ET.Element]:
    return [e for e in ET.fromstring(picture).iter() if e.get("class") == kind]


def segments(d: str) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The straight segments of path data made of M, H, V, L and l commands."""
    out, x, y = [], 0.0, 0.0
    for op, args in re.findall(r"([MHVLl])([-0-9.,]+)", d):
        v = [float(a) for a in args.split(",")]
        if op == "M":
            x, y = v
            continue
        end = ((v[0], y) if op == "H" else (x, v[0]) if op == "V" else (v[0], v[1])
               if op == "L" else (x + v[0], y + v[1]))
        out.append(((x, y), end))
        x, y = end
    return out


def covered(found: list, p: tuple[float, float], q: tuple[float, float]) -> bool:
    """Whether one of the segments runs along the whole of p-q."""
    def on(s, point):
        (x0, y0), (x1, y1) = s
        cross = (x1 - x0) * (point[1] - y0) - (y1 - y0) * (point[0] - x0)
        inside = min(x0, x1) - 0.02 <= point[0] <= max(x0, x1) + 0.02 and \
            min(y0, y1) - 0.02 <= point[1] <= max(y0, y1) + 0.02
        return abs(cross) < 0.05 * math.dist(*s) and inside
    return any(on(s, p) and on(s, q) for s in found)


def lines_of(picture: str, kind: str) -> list:
    return [s for e in elements(picture, kind) for s in segments(e.get("d"))]


def pixel_side(canvas: Canvas, board: Board, i: int, d: str):
    """A side of a cell, in the picture's pixels (rounded as the SVG writes them)."""
    return tuple((round(canvas.x(x), 2), round(canvas.y(y), 2)) for x, y in side(board, i, d))


def pixels_of(picture: str):
    pytest.importorskip("cairosvg", exc_type=ImportError)
    from flowsat.render.png import png

    pixels = read_png(png(picture))

    def at(canvas: Canvas, x: float, y: float) -> tuple[int, int, int]:
        return pixels[int(canvas.y(y))][int(canvas.x(x))]
    return at


# -- geometry ---------------------------------------------------------------------------------

@pytest.mark.parametrize("shape", ["square", "hex"])
def test_steps_and_outlines_agree_with_the_board_centers(shape):
    board = Board(5, 4, shape)
    corners = {"square": 4, "hex": 6}[shape]
    for i in board.cells:
        x, y = board.center(i)
        for d in board.directions:
            n = board.step(i, d, False)
            if n is not None:
                nx, ny = board.center(n)
                assert math.isclose(nx - x, steps(shape)[d][0], abs_tol=1e-9)
                assert math.isclose(ny - y, steps(shape)[d][1], abs_tol=1e-9)
                assert all(math.isclose(math.dist(p, q), 0, abs_tol=1e-9)  # one shared side
                           for p, q in zip(side(board, i, d),
                                           reversed(side(board, n, OPPOSITE[d])), strict=True))
        points = outline(board, i)
        assert len(points) == corners
        radius = 0.5 / math.cos(math.pi / corners)  # half a cell from center to each side
        assert all(math.isclose(math.dist(p, (x, y)), radius) for p in points)


# -- SVG: structure ---------------------------------------------------------------------------

def test_a_plain_board_keeps_its_grid_of_whole_rows_and_columns():
    puzzle = Puzzle.from_text("A.B / ... / A.B / ...")
    picture = svg(puzzle, cell=CELL)
    pad, right, bottom = 4, 4 + 3 * CELL, 4 + 4 * CELL
    want = [f"M{pad},{pad + r * CELL}H{right}" for r in range(5)] + \
        [f"M{pad + c * CELL},{pad}V{bottom}" for c in range(4)]
    (grid,) = elements(picture, "grid")
    assert grid.get("d") == " ".join(want)
    assert not elements(picture, "walls")


def test_a_hexagonal_board_is_drawn_in_hexagons_with_every_side():
    level = next(p for p in LEVELS if p.kind == "hex+holes")
    board, paths = level.board, level.given_paths
    picture = svg(level, paths, cell=CELL)
    tints = [sub for e in elements(picture, "tint") for sub in e.get("d").split("M")[1:]]
    assert len(tints) == sum(map(len, paths.values())) == len(board.cells)
    assert all(sub.count("L") == 5 and sub.strip().endswith("z") for sub in tints)  # hexagons
    canvas, drawn = Canvas.of(board, CELL), lines_of(picture, "grid") + lines_of(picture, "walls")
    walls = lines_of(picture, "walls")
    for i in range(board.size):
        for d in board.directions:
            n = board.step(i, d, False)
            there = board.on_board[i] or (n is not None and board.on_board[n])
            assert covered(drawn, *pixel_side(canvas, board, i, d)) == there, (i, d)
            border = board.on_board[i] != (n is not None and board.on_board[n])
            assert covered(walls, *pixel_side(canvas, board, i, d)) == border, (i, d)


def test_a_wall_is_a_bar_on_the_side_between_its_two_cells():
    board = Board(3, 2, walls=frozenset({(0, 1)}))
    puzzle = Puzzle.from_text("A.. / A..", board=board)
    picture = svg(puzzle, cell=CELL)
    canvas = Canvas.of(board, CELL)
    walls, grid = lines_of(picture, "walls"), lines_of(picture, "grid")
    assert covered(walls, *pixel_side(canvas, board, 0, "right"))
    assert not covered(walls, *pixel_side(canvas, board, 1, "right"))
    assert covered(grid, *pixel_side(canvas, board, 1, "right"))
    assert not covered(walls, *pixel_side(canvas, board, 0, "down"))
    assert all(covered(walls, *pixel_side(canvas, board, i, d))  # the border: walls too
               for i, d in [(0, "up"), (0, "left"), (5, "right"), (5, "down")])
    at = pixels_of(picture)
    assert near(at(canvas, 1, 0.5), WALL_RGB)  # the middle of the wall
    assert not near(at(canvas, 2, 0.5), WALL_RGB)  # a grid line


def test_a_hole_is_a_gap_with_no_cell_drawn():
    board = Board(3, 3, holes=frozenset({4}))
    paths = {"A": [(0, 0), (0, 1), (0, 2)], "B": [(1, 0), (2, 0), (2, 1), (2, 2), (1, 2)]}
    puzzle = puzzle_of("A.A / B.B / ...", board, paths)
    picture = svg(puzzle, paths, cell=CELL)
    canvas = Canvas.of(board, CELL)
    hole = "M" + "L".join(map(canvas.at, outline(board, 4))) + "z"
    assert all(hole not in e.get("d") for e in elements(picture, "tint"))  # no tint there
    walls = lines_of(picture, "walls")
    for d in board.directions:  # each side of the hole is the border of a cell next to it
        assert covered(walls, *pixel_side(canvas, board, 4, d))
    x, y = board.center(4)
    at = pixels_of(picture)
    rgb = palette(puzzle.colors)
    assert near(at(canvas, x, y), BACKGROUND)
    assert near(at(canvas, x - 0.3, y - 0.3), BACKGROUND)  # no tint, no grid inside
    assert near(at(canvas, x, y - 0.5), WALL_RGB)
    assert near(at(canvas, 0.5, 1.5), rgb["B"]) and near(at(canvas, 1.5, 0.5), rgb["A"])


def bridge_puzzle(vertical_first: bool) -> tuple[Puzzle, dict]:
    board = Board(3, 3, bridges=frozenset({4}))
    across, down = [(1, 0), (1, 1), (1, 2)], [(2, 1), (1, 1), (0, 1)]
    paths = {"B": down, "A": across} if vertical_first else {"A": across[::-1], "B": down}
    return puzzle_of(".B. / A.A / .B.", board, paths, Rules(fill_all=False)), paths


@pytest.mark.parametrize("vertical_first", [True, False])
def test_at_a_bridge_the_pass_across_is_drawn_over_the_one_up_and_down(vertical_first):
    puzzle, paths = bridge_puzzle(vertical_first)
    board = puzzle.board
    assert board.axes[4][OVER] == (3, 5)  # the pass on top is the one across
    picture = svg(puzzle, paths, cell=CELL)
    canvas = Canvas.of(board, CELL)
    order = [e for e in ET.fromstring(picture).iter() if e.get("class") in
             ("pipe", "gap", "over", "rails")]
    assert [e.get("class") for e in order] == ["pipe", "pipe", "gap", "over", "rails"]
    center = canvas.at(board.center(4))
    pipes = {e.get("data-color"): e.get("d") for e in order if e.get("class") == "pipe"}
    assert f"M{center}l0,-20" in pipes["B"] and f"M{center}l0,20" in pipes["B"]
    assert f"M{center}l-20,0" in pipes["A"] and f"M{center}l20,0" in pipes["A"]
    over = order[3]
    assert over.get("data-color") == "A" and over.get("data-cell") == "4"
    ends = [canvas.at((x + dx / 2, board.center(4)[1])) for x in [board.center(4)[0]]
            for dx in (-1, 1)]
    assert over.get("d") == f"M{ends[0]}l{CELL},0"  # across the whole cell
    at = pixels_of(picture)
    rgb = palette(puzzle.colors)
    x, y = board.center(4)
    assert near(at(canvas, x, y), rgb["A"])  # A on top
    assert near(at(canvas, x + 0.4, y), rgb["A"])
    for dy in (-1, 1):
        assert near(at(canvas, x, y + dy * (PIPE / 2 + GAP / 2)), BACKGROUND)  # the gap
        assert near(at(canvas, x, y + dy * 0.42), rgb["B"])  # B goes on under it


def test_an_unsolved_bridge_shows_its_rails_only():
    puzzle, _ = bridge_puzzle(True)
    picture = svg(puzzle, cell=CELL)
    assert [len(elements(picture, k)) for k in ("gap", "over", "rails")] == [0, 0, 1]
    assert elements(picture, "rails")[0].get("stroke") == WALL


def test_a_warp_is_an_opening_in_the_border_the_pipe_goes_through():
    board = Board(3, 3, wrap=True, walls=frozenset({(6, 8), (2, 8)}))
    paths = {"A": [(0, 0), (0, 2)], "B": [(2, 1), (0, 1)]}
    puzzle = puzzle_of("ABA / ... / .B.", board, paths, Rules(self_touch=True, fill_all=False))
    picture = svg(puzzle, paths, cell=CELL)
    canvas = Canvas.of(board, CELL)
    walls, openings = lines_of(picture, "walls"), lines_of(picture, "openings")
    opened = [(0, "left"), (2, "right"), (3, "left"), (1, "up"), (7, "down"), (0, "up")]
    closed = [(6, "left"), (8, "right"), (2, "up"), (8, "down")]
    for i, d in opened:
        assert covered(openings, *pixel_side(canvas, board, i, d))  # dashed
        assert not covered(walls, *pixel_side(canvas, board, i, d))
    for i, d in closed:
        assert covered(walls, *pixel_side(canvas, board, i, d))
        assert not covered(openings, *pixel_side(canvas, board, i, d))
    assert len(openings) == 12 - len(closed)
    assert canvas.left >= STUB * CELL  # room for the pipe past the border
    at = pixels_of(picture)
    rgb = palette(puzzle.colors)
    out = STUB + 0.1  # past the border, where a pipe through a warp still shows
    assert near(at(canvas, -out, 0.5), rgb["A"]) and near(at(canvas, 3 + out, 0.5), rgb["A"])
    assert near(at(canvas, 1.5, -out), rgb["B"]) and near(at(canvas, 1.5, 3 + out), rgb["B"])
    assert near(at(canvas, -out, 1.5), BACKGROUND)  # an opening no path goes through
    assert near(at(canvas, 0.5, 0.5 + 1), BACKGROUND)


def test_every_level_of_every_kind_shows_each_path_and_each_hole():
    pytest.importorskip("cairosvg", exc_type=ImportError)
    for level in LEVELS:
        board, paths = level.board, level.given_paths
        picture = svg(level, paths, cell=CELL)
        canvas, at = Canvas.of(board, CELL), pixels_of(picture)
        rgb = palette(level.colors)
        on_top = {b: c for b in board.bridges for c, p in paths.items()
                  if board.cell(board.axes[b][OVER][0]) in p
                  and board.cell(b) in p}
        for color, path in paths.items():
            for cell in path:
                i = board.number(cell)
                want = rgb[on_top.get(i, color)]
                assert near(at(canvas, *board.center(i)), want), (level.name, color, cell)
        for i in board.holes:
            assert near(at(canvas, *board.center(i)), BACKGROUND), (level.name, i)
        assert len(elements(picture, "over")) == len(board.bridges)


@pytest.mark.parametrize("shape", ["square", "hex"])
@pytest.mark.parametrize("wrap", [False, True])
@pytest.mark.parametrize("width,height", [(3, 3), (4, 3), (4, 5), (5, 4), (6, 6), (1, 4), (4, 1)])
def test_the_way_between_two_cells_is_the_first_direction_reaching_one_from_the_other(
        shape, wrap, width, height):
    walls = frozenset(Board(width, height, shape, wrap).link_list[-2:])
    board = Board(width, height, shape, wrap, frozenset({0}), walls)  # as if there were none
    for i in range(board.size):
        for j in range(board.size):
            old = next((d for d in board.directions if board.geometric_neighbor(i, d) == j), None)
            assert board.way_between(board.cell(i), board.cell(j)) == old, (board, i, j)
    for off in ((-1, 0), (0, width), (height, 0), (0, -1)):  # a cell off the grid: no way
        assert board.way_between((0, 0), off) is board.way_between(off, (0, 0)) is None


# -- the terminal ----------------------------------------------------------------------------

def test_the_terminal_draws_walls_between_cells_and_rows():
    board = Board(3, 2, walls=frozenset({(0, 1), (1, 4)}))
    paths = {"A": [(0, 0), (1, 0)], "B": [(0, 2), (1, 2)]}
    puzzle = puzzle_of("A.B / A.B", board, paths, Rules(fill_all=False))
    assert draw(puzzle, paths).split("\n") == ["A┃· B",
                                               "│┗━╸│",
                                               "A · B"]
    assert draw(puzzle).split("\n") == ["A┃· B", " ┗━╸ ", "A · B"]


def test_the_terminal_draws_a_hole_as_a_gap():
    board = Board(3, 3, holes=frozenset({4}))
    paths = {"A": [(0, 0), (0, 1), (0, 2)], "B": [(1, 0), (2, 0), (2, 1), (2, 2), (1, 2)]}
    puzzle = puzzle_of("A.A / B.B / ...", board, paths)
    assert draw(puzzle, paths).split("\n") == ["A───A", "B   B", "└───┘"]


def test_the_terminal_draws_a_bridge_crossed_or_not():
    puzzle, paths = bridge_puzzle(True)
    assert draw(puzzle).split("\n") == ["· B ·", "A + A", "· B ·"]
    assert draw(puzzle, paths).split("\n") == ["· B ·", "A─┼─A", "· B ·"]
    assert draw(puzzle, {"B": paths["B"]}).split("\n") == ["· B ·", "A │ A", "· B ·"]
    colored = draw(puzzle, paths, color=True)
    a = palette(puzzle.colors)["A"]
    assert f"\x1b[38;2;{a[0]};{a[1]};{a[2]}m┼─" in colored  # the color across, as in SVG


def test_the_terminal_shows_a_flow_through_a_warp_at_both_edges():
    board = Board(3, 3, wrap=True, walls=frozenset({(6, 8)}))
    paths = {"A": [(0, 0), (0, 2)], "B": [(2, 1), (0, 1)]}
    puzzle = puzzle_of("ABA / ... / .B.", board, paths, Rules(self_touch=True, fill_all=False))
    assert draw(puzzle, paths).split("\n") == ["A B A─", "· · · ", "· B ·┃"]


def test_the_terminal_draws_a_hexagonal_board_as_a_honeycomb_of_letters():
    level = next(p for p in LEVELS if p.kind == "hex+holes")
    board, paths = level.board, level.given_paths
    owner = {cell: c for c, path in paths.items() for cell in path}
    for shown, letter in ((paths, owner.get), ({}, lambda cell: "·")):
        *lines, note = draw(level, shown).split("\n")
        assert len(lines) == 2 * board.height
        for r in range(board.height):
            for c in range(board.width):
                line = lines[2 * r + (c % 2 == 0)]
                there = line[2 * c] if 2 * c < len(line) else " "
                i = board.number((r, c))
                want = " " if i in board.holes else level[r, c] if level[r, c] != "." else \
                    letter((r, c))
                assert there == want, (r, c)
        assert "--svg" in note and "--png" in note and level.kind in note
    assert height_if_fits(level) is None  # not replayed


# -- the command line -------------------------------------------------------------------------

def test_solve_draws_each_level_of_a_pack_to_its_own_picture(tmp_path):
    from tests.test_render_cli import run

    pack = PUZZLES / "kinds" / "hex.txt"
    result = run("solve", "--svg", str(tmp_path), str(pack))
    assert result.exit_code == 0, result.output
    levels = list(read_puzzles(pack))
    assert sorted(p.name for p in tmp_path.iterdir()) == \
        sorted(f"hex-{k}.svg" for k in range(1, len(levels) + 1))
    for level in levels:
        picture = (tmp_path / f"hex-{level.index}.svg").read_text()
        tints = [sub for e in elements(picture, "tint") for sub in e.get("d").split("M")[1:]]
        assert len(tints) == len(level.board.cells)  # every cell on a path, in a hexagon
        assert all(sub.count("L") == 5 for sub in tints)
    assert "each cell shows the letter of its flow" in run("solve", str(pack)).output


def test_a_replay_on_a_board_with_walls_between_rows_erases_itself():
    import io

    from flowsat.render.animate import Replay
    from tests.test_render import screen

    board = Board(3, 2, walls=frozenset({(0, 1), (1, 4)}))
    paths = {"A": [(0, 0), (1, 0)], "B": [(0, 2), (1, 2)]}
    puzzle = puzzle_of("A.B / A.B", board, paths, Rules(fill_all=False))
    out = io.StringIO()
    replay = Replay(puzzle, out=out, delay=0, color=False)
    for k in (1, 2):
        replay("expand", {c: p[:k] for c, p in paths.items()}, [])
    replay.play(paths)
    assert len(replay.shown(paths)) == 2
    assert draw(puzzle, paths).split("\n")[1] in out.getvalue()  # the line between the rows
    assert screen(out.getvalue()) == []
