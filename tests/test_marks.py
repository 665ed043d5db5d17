"""Level packs whose SIZE carries marks (`10+B:I`, `8:9+I:B`, as 154 of the game's levels do):
read, kept as `marks` (in JSON, in the pack and board formats written back), a pack whose first
line has marks taken as a pack, and a mark no one knows refused where it stands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from flowsat.commands import app
from flowsat.puzzle import Puzzle, PuzzleError, parse_puzzles, puzzle_text, read_puzzles
from flowsat.puzzle.formats import MARKS
from flowsat.puzzle.formats.files import text_lines
from flowsat.puzzle.formats.pack import FORMAT as PACK
from flowsat.puzzle.formats.pack import level_line
from flowsat.puzzle.formats.registry import detect

MARKED = Path(__file__).parent / "packs" / "marks.txt"  # made with flowsat generate, marked
WANT = [("B", "I"), ("B", "I"), ("I", "B"), ("I", "B"), (), ("B",)]
LINE = "3,0,1,3;0,1,2;3,4,5;6,7,8"  # a 3x3 level, to put marks on


def only(text: str) -> Puzzle | PuzzleError:
    (item,) = parse_puzzles(text, "m.txt")
    return item


def test_the_marks_of_a_pack_are_read_and_kept():
    levels = list(read_puzzles(MARKED))
    assert all(isinstance(p, Puzzle) and p.format == "pack" for p in levels), levels
    assert [p.marks for p in levels] == WANT
    assert [p.level for p in levels] == [1, 2, 3, 4, 5, 6]
    assert (levels[2].width, levels[2].height) == (8, 9)


def test_a_pack_whose_first_line_has_marks_is_taken_for_a_pack():
    lines = text_lines(MARKED.read_text())
    assert lines[0].startswith("10+B:I,")
    assert detect(lines) is PACK
    assert detect(lines[2:]) is PACK  # `8:9+I:B` first


def test_a_mark_changes_nothing_but_the_marks():
    plain, marked = only(LINE + "\n"), only(LINE.replace("3,", "3+I:B,", 1) + "\n")
    assert (marked.rows, marked.board, marked.given) == (plain.rows, plain.board, plain.given)
    assert (plain.marks, marked.marks) == ((), ("I", "B"))


def test_solve_json_records_carry_the_marks():
    result = CliRunner().invoke(app, ["solve", str(MARKED), "--format", "json"])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [tuple(r.get("marks", ())) for r in records] == WANT
    assert "marks" not in records[4]  # none: no key, as `level` and `kind`


def test_check_verifies_the_levels_with_marks():
    result = CliRunner().invoke(app, ["check", str(MARKED)])
    assert result.exit_code == 0, result.output
    assert result.stdout.count(": right") == len(WANT)


def test_marks_survive_pack_to_board_to_pack(tmp_path):
    runner = CliRunner()
    boards = tmp_path / "boards.txt"
    assert runner.invoke(app, ["convert", str(MARKED), "--to", "board", "-o", str(boards)]
                         ).exit_code == 0
    assert boards.read_text().startswith("flowsat board 10x10 level 1 marks B:I\n")
    again = runner.invoke(app, ["convert", str(boards), "--to", "pack"])
    assert again.exit_code == 0, again.output
    assert again.stdout.splitlines() == text_lines(MARKED.read_text())


@pytest.mark.parametrize(("size", "col", "words"), [
    ("3+Q", 3, "unknown mark 'Q'"),
    ("3+B:Q", 5, "unknown mark 'Q'"),
    ("3+BI", 3, "unknown mark 'BI'"),
    ("3+b", 3, "unknown mark 'b'"),
    ("3+", 3, "unknown mark ''"),
    ("3+B:", 5, "unknown mark ''"),
    ("3+B:B", 5, "mark 'B' given twice"),
    ("3+B+I", 3, "unknown mark 'B+I'"),
    ("3:3+I:B:I", 9, "mark 'I' given twice"),
])
def test_a_mark_no_one_knows_is_refused_where_it_stands(tmp_path, size, col, words):
    path = tmp_path / "p.txt"
    path.write_text(LINE.replace("3,", size + ",", 1) + "\n" + LINE + "\n", encoding="utf-8")
    bad, good = read_puzzles(path)
    assert isinstance(bad, PuzzleError) and isinstance(good, Puzzle)
    assert (bad.line, bad.col) == (1, col) and words in bad.message, bad
    result = CliRunner().invoke(app, ["check", str(path)])
    assert result.exit_code == 2 and result.stderr.splitlines() == [str(bad)]
    assert result.stdout.splitlines() == [f"{path}#2 (level 1): right"]


@pytest.mark.parametrize(("header", "col", "words"), [
    ("flowsat board 3x3 marks Q", 25, "unknown mark 'Q'"),
    ("flowsat board 3x3 marks B:B level 2", 27, "mark 'B' given twice"),
    ("flowsat board 3x3 marks", 19, "unknown header word 'marks'"),
])
def test_the_board_format_refuses_the_same_marks(header, col, words):
    err = only(f"{header}\nA . B\n. . .\nA . B\n")
    assert isinstance(err, PuzzleError) and (err.line, err.col) == (1, col), err
    assert words in err.message


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=MARKS + "QbZ:+_,1 ", max_size=8))
def test_nothing_after_a_size_is_read_in_silence(suffix):
    """Whatever follows `3+`: kept whole as marks (the line written back is the line read), or
    an error, located in the SIZE field unless the suffix adds fields (with no '3' to write,
    FLOWS can never match the line's three paths)."""
    line = LINE.replace("3,", f"3+{suffix},", 1)
    items = list(parse_puzzles(line + "\n", "m.txt"))
    marks = suffix.split(":")
    if all(m in MARKS and len(m) == 1 for m in marks) and len(set(marks)) == len(marks):
        (puzzle,) = items
        assert puzzle.marks == tuple(marks)
        assert level_line(puzzle, puzzle.given_paths) == line
        assert puzzle_text(puzzle, "pack", puzzle.given_paths) == line + "\n"
    else:
        assert all(isinstance(x, PuzzleError) for x in items), items
        assert all(x.line == 1 for x in items)
        size_end = len("3+" + suffix)
        if "," not in suffix and ";" not in suffix:
            assert items[0].col <= size_end + 1 and ("mark" in items[0].message
                                                 or "SIZE" in items[0].message), items
