"""The file formats as a registry: each format detects, reads and writes its own files, the
registry reads a file in the first format that takes it, `convert` writes every writable one,
and a file no format takes is one line naming the formats tried."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from flowsat.commands import app
from flowsat.generate.cover import random_level
from flowsat.puzzle import Board, Puzzle, PuzzleError, parse_puzzles, puzzle_text
from flowsat.puzzle.formats import FORMATS, NAMES, WRITABLE, CannotWrite, format_named
from flowsat.puzzle.formats.registry import detect
from flowsat.solve import solve
from tests.conftest import PUZZLES, ROOT

FLOW5 = PUZZLES / "examples" / "flow_5x5.txt"
FORMATS_DIR = ROOT / "flowsat" / "puzzle" / "formats"


def level(board: Board, seed: int = 1) -> tuple[Puzzle, dict]:
    return random_level(board, random.Random(seed))


def only(text: str, file: str = "f.txt") -> Puzzle | PuzzleError:
    (item,) = parse_puzzles(text, file)
    return item


def same_dots(a: Puzzle, b: Puzzle) -> bool:
    """The same board with dots in the same places (a pack labels its flows its own way)."""
    return a.board == b.board and sorted(a.dots.values()) == sorted(b.dots.values())


@pytest.mark.parametrize("name", WRITABLE)
def test_each_format_reads_back_what_it_writes_and_detects_it_first(name):
    puzzle = only(FLOW5.read_text())
    text = puzzle_text(puzzle, name, solve(puzzle).paths)
    assert detect(text.splitlines()) is format_named(name)
    again = only(text)
    assert isinstance(again, Puzzle), again
    assert again.format == name and same_dots(again, puzzle)


@pytest.mark.parametrize("name", [f.name for f in FORMATS if f.write and not f.plain_only])
def test_formats_for_every_kind_keep_the_board(name):
    puzzle, paths = level(Board(6, 5, "hex", True), seed=4)
    again = only(puzzle_text(puzzle, name, paths))
    assert (again.rows, again.board) == (puzzle.rows, puzzle.board)


@pytest.mark.parametrize("name", [f.name for f in FORMATS if f.plain_only])
def test_a_plain_only_format_refuses_another_kind(name):
    puzzle, paths = level(Board(5, 5, "hex"))
    with pytest.raises(CannotWrite, match=f"the {name} format holds plain square boards only"):
        puzzle_text(puzzle, name, paths)


def test_a_format_that_holds_a_solution_refuses_a_puzzle_without_one():
    puzzle, _ = level(Board.square(5, 5))
    needing = [f.name for f in FORMATS if f.needs_solution]
    assert needing == ["pack"]
    with pytest.raises(CannotWrite, match="needs a solution"):
        puzzle_text(puzzle, "pack")


def test_an_unknown_format_name_lists_the_known_ones():
    with pytest.raises(ValueError, match="unknown format 'png'; formats are " + ", ".join(NAMES)):
        format_named("png")


@pytest.mark.parametrize(("content", "col"), [
    ("hello world\nfoo bar\n", 6),  # no format's first line
    ("5 5 x\nA...A\n", 2),  # a header with a word too many
    ("flowsat bord 3x1\nA.A\n", 8),  # a misspelt board header
    ("\u00e9A.A\n", 1),
])
def test_a_file_no_format_takes_is_one_line_naming_the_formats_tried(tmp_path, content, col):
    path = tmp_path / "odd.txt"
    path.write_text(content, encoding="utf-8")
    result = CliRunner().invoke(app, ["solve", str(path)])
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"{path}:1:{col}: ")
    assert line.endswith(f"(no format fits the file: tried {', '.join(NAMES)})")
    assert "Traceback" not in result.output


def test_a_grid_with_a_mistake_is_still_told_as_a_grid():
    err = only("A.B\n..\nB.A\n")
    assert isinstance(err, PuzzleError) and err.message == "row has 2 cells, the first row has 3"


@pytest.mark.parametrize("name", WRITABLE)
def test_convert_offers_every_writable_format(tmp_path, name):
    out = tmp_path / "out.txt"
    result = CliRunner().invoke(app, ["convert", str(FLOW5), "--to", name, "-o", str(out)])
    assert result.exit_code == 0, result.output
    puzzle = only(out.read_text())
    assert puzzle.format == name and same_dots(puzzle, only(FLOW5.read_text()))


def test_convert_to_a_plain_only_format_refuses_another_kind_in_one_line():
    hexes = PUZZLES / "kinds" / "hex.txt"
    result = CliRunner().invoke(app, ["convert", str(hexes), "--to", "grid"])
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines and all(f"{hexes}:" in ln and "plain square boards only" in ln for ln in lines)


def imported(path: Path) -> set[str]:
    """The flowsat modules a file imports, wherever (top level or inside functions)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return {name for name in found if name.startswith("flowsat.")}


def test_the_base_imports_no_format_and_a_format_no_other_nor_the_registry():
    package = "flowsat.puzzle.formats"
    formats = {p.stem for p in FORMATS_DIR.glob("*.py")} - {"__init__", "base", "files",
                                                             "registry"}
    assert formats == {"grid", "numberlink", "pack", "boardtext", "puzzlink"}
    for name in ("base", "files", *formats):
        inside = {m.removeprefix(package + ".").split(".")[0]
                  for m in imported(FORMATS_DIR / f"{name}.py") if m.startswith(package + ".")}
        allowed = {"base"} if name != "base" else set()
        assert inside <= allowed, (name, inside)
        assert package not in imported(FORMATS_DIR / f"{name}.py"), name
    assert not any(m.startswith(("flowsat.result", "flowsat.cli"))
                   for p in FORMATS_DIR.glob("*.py") for m in imported(p))
