"""Reading puzzle files: both formats, and every input error as one located line."""

from __future__ import annotations

from pathlib import Path

import pytest

from flowsat.puzzle import Puzzle, PuzzleError, parse_puzzles, read_puzzles
from tests.conftest import NUMBERLINK, PUZZLES, needs_shared, zucker_files


def read(tmp_path: Path, content: str | bytes, name: str = "p.txt", **kw) -> list:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, newline="")
    return list(read_puzzles(path, **kw))


def only_error(items: list) -> PuzzleError:
    assert len(items) == 1 and isinstance(items[0], PuzzleError), items
    return items[0]


def located(err: PuzzleError) -> tuple[int, int]:
    return err.line, err.col


def test_grid_format_every_printable_character_but_the_dot_is_a_label(tmp_path):
    (p,) = read(tmp_path, "R.G1\n_-B.\n1_RG\n-.B#\n#...\n")
    assert p.rows == ("R.G1", "_-B.", "1_RG", "-.B#", "#...")
    assert p.dots == {"R": ((0, 0), (2, 2)), "G": ((0, 2), (2, 3)), "1": ((0, 3), (2, 0)),
                      "_": ((1, 0), (2, 1)), "-": ((1, 1), (3, 0)), "B": ((1, 2), (3, 2)),
                      "#": ((3, 3), (4, 0))}
    assert (p.width, p.height, p.format, p.index) == (4, 5, "grid", 1)


@pytest.mark.parametrize("numberlink", [False, True])
def test_all_93_labels_in_both_formats(tmp_path, numberlink):
    labels = "".join(chr(c) for c in range(0x21, 0x7F) if chr(c) != ".")
    rows = [labels, labels[::-1]]
    text = "\n".join([f"{len(labels)} 2", *rows] if numberlink else rows) + "\n"
    (p,) = read(tmp_path, text)
    assert len(p.colors) == 93 and set(p.colors) == set(labels)
    assert all(p.dots[ch] == ((0, k), (1, 92 - k)) for k, ch in enumerate(labels))


def test_a_hash_is_a_label_inside_a_numberlink_board_and_a_comment_outside(tmp_path):
    text = "# note\n3 3\n#.#\n# #\n..!\n# after\n\n2 2\n##\n..\n0 0\n"
    items = read(tmp_path, text)
    assert isinstance(items[0], PuzzleError)  # '# #' is a row here, and a space is no cell
    assert located(items[0]) == (4, 2) and "U+0020 a space" in items[0].message
    text = "# note\n3 3\n#.#\n!..\n..!\n# after\n\n2 2\n##\n..\n0 0\n"
    first, second = read(tmp_path, text)
    assert first.rows == ("#.#", "!..", "..!") and second.rows == ("##", "..")
    assert first.dots["#"] == ((0, 0), (0, 2)) and first.dots["!"] == ((1, 0), (2, 2))


@pytest.mark.parametrize(("content", "where", "named"), [
    ("A.\u00e9A\n\u00e9...\n", (1, 3), "U+00E9 'é'"),
    ("A..A\nB\x01.B\n", (2, 2), "U+0001 a control character"),
    ("A..A\nB\t.B\n", (2, 2), "U+0009 a tab"),
    ("A. A\nB..B\n", (1, 3), "U+0020 a space"),
    ("A..A \nB..B \n", (1, 5), "U+0020 a space"),  # never read as a narrower board
    ("A..A\rB..B\n", (1, 5), "U+000D a carriage return"),  # only a CRLF's CR ends a line
    ("A..A\x0cB..B\n", (1, 5), "U+000C a control character"),
    ("4 2\nA..A\nB.\u2028B\n", (3, 3), "U+2028 a line separator"),
    ("4 2\nA..A\nB..\u0392\n", (3, 4), "U+0392 '\u0392'"),  # a Greek capital beta, not a B
])
def test_a_character_that_is_no_cell_is_named_where_it_is(tmp_path, content, where, named):
    err = only_error(read(tmp_path, content))
    assert located(err) == where
    assert err.message.startswith(f"{named} is not a cell")
    assert "\n" not in str(err)


def test_crlf_and_trailing_blank_lines_are_fine(tmp_path):
    (p,) = read(tmp_path, "A.B\r\n...\r\nB.A\r\n\r\n\n  \n")
    assert p.rows == ("A.B", "...", "B.A")


def test_rectangular_board(tmp_path):
    (p,) = read(tmp_path, "A....B\nA....B\n")
    assert (p.height, p.width) == (2, 6)


def test_case_matters_and_many_colors(tmp_path):
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    (p,) = read(tmp_path, letters + "\n" + letters[::-1] + "\n")
    assert len(p.colors) == 62


def test_numberlink_file_with_comments_and_end_marker(tmp_path):
    text = "# a comment\n\n3 2\nA.A\n...\n# between\n2 2\nab\nab\n0 0\n4 1\nAA..\n"
    items = read(tmp_path, text)
    assert [p.rows for p in items] == [("A.A", "..."), ("ab", "ab")]
    assert [(p.index, p.line, p.format) for p in items] == [(1, 3, "numberlink"),
                                                           (2, 7, "numberlink")]
    assert items[1].name.endswith("p.txt#2")


def test_numberlink_file_ends_at_end_of_file(tmp_path):
    assert len(read(tmp_path, "2 1\naa\n2 1\nbb")) == 2


@pytest.mark.parametrize(("content", "where", "words"), [
    (b"", (1, 1), "empty file"),
    (b"\n\n", (1, 1), "empty file"),
    (b"A.A\n\x00\x01\n", (2, 1), "binary"),
    (b"A.A\n\xff\xfe\n", (2, 1), "not UTF-8"),
    (b"A.B\n..\nB.A\n", (2, 3), "row has 2 cells, the first row has 3"),
    (b"A.B\n....\nB.A\n", (2, 4), "row has 4 cells"),
    (b"A.B\n...\nB.C\n", (1, 1), "label 'A' has only one dot"),
    (b"A.A\n.A.\nB.B\n", (2, 2), "label 'A' has three or more dots"),
    (b"~.\\\n\\.~\n[..\n", (3, 1), "label '[' has only one dot"),
    (b"...\n...\n", (1, 1), "no dots"),
    (b"3 2\nA.A\n", (1, 1), "header says 2 rows, found 1"),
    (b"3 2\nA.A\n....\n", (3, 4), "row has 4 cells, header says 3"),
    (b"# c\n3 1\nA.\n", (3, 3), "row has 2 cells, header says 3"),
])
def test_each_input_error_is_one_located_line(tmp_path, content, where, words):
    err = only_error(read(tmp_path, content))
    assert located(err) == where
    assert words in err.message
    assert str(err) == f"{tmp_path / 'p.txt'}:{where[0]}:{where[1]}: {err.message}"
    assert "\n" not in str(err)


def test_missing_file(tmp_path):
    err = only_error(list(read_puzzles(tmp_path / "nope.txt")))
    assert str(err) == f"{tmp_path / 'nope.txt'}:1:1: no such file"


def test_board_above_the_size_limit_says_the_limit(tmp_path):
    err = only_error(read(tmp_path, "A" + "." * 9 + "A\n", max_cells=10))
    assert "11 cells, above the limit of 10 cells" in err.message
    err = only_error(read(tmp_path, "5 3\nA...A\n.....\n.....\n", max_cells=10))
    assert located(err) == (1, 1) and "limit of 10" in err.message


def test_a_bad_puzzle_in_a_numberlink_file_does_not_stop_the_others(tmp_path):
    text = "2 1\naa\n3 1\nab.\n2 2\nxy\n\n2 1\ncc\n3 1\nA..\n..A\n2 1\ndd\n"
    items = read(tmp_path, text)
    kinds = [type(x).__name__ for x in items]
    assert kinds == ["Puzzle", "PuzzleError", "PuzzleError", "Puzzle", "PuzzleError",
                     "PuzzleError", "Puzzle"]
    assert [x.index for x in items] == [1, 2, 3, 4, 5, None, 6]
    assert "label 'a' has only one dot" in items[1].message
    assert "header says 2 rows, found 1" in items[2].message
    assert located(items[5]) == (12, 1) and "expected a 'W H' header" in items[5].message


def test_project_puzzles_all_parse():
    files = sorted(PUZZLES.rglob("*.txt"))
    assert files
    for file in files:
        items = list(read_puzzles(file))
        assert items and all(isinstance(p, Puzzle) for p in items), (file, items)


@needs_shared
def test_shared_puzzles_all_parse():
    for file in [*zucker_files(), *sorted(NUMBERLINK.glob("*.txt"))]:
        items = list(read_puzzles(file))
        assert items and all(isinstance(p, Puzzle) for p in items), (file, items[:1])
    big = list(read_puzzles(NUMBERLINK / "inputs4.txt"))
    assert max(len(p.colors) for p in big) > 50


def test_parse_puzzles_from_text():
    (p,) = parse_puzzles("A.\n.A\n")
    assert p.dots == {"A": ((0, 0), (1, 1))}


def test_dots_found_while_reading_are_those_of_the_board_in_order():
    for file in sorted(PUZZLES.rglob("*.txt")):
        for p in read_puzzles(file):
            fresh = Puzzle(p.rows, board=p.board).dots  # found from the rows afresh
            assert list(p.dots.items()) == list(fresh.items()), (file, p.index)


NUMBERLINK_TEXTS = [
    "2 1\naa\n3 1\nab.\n2 2\nxy\n\n2 1\ncc\n3 1\nA..\n..A\n2 1\ndd\n",
    "3 2\n#.#\nb.b\n# comment\n2 2\n3 1\n.A.\n4 1\nA A.\n2 1\naa\n0 0\n",
    "3 3\nA.B\n...\nB.A\n3 3\nA.B\n..\nB.A\n3 2\nA.A\n",
    "2 2\nAB\n\nAB\n1 1\n.\n2 1\nx\t\n0 3\n2 1\nA.\n2 1\nAA\n",
    "3 1\nA.A\n5 5\nA...A\n.....\n.....\n.....\nB...B\n2 1\n",
]


@pytest.mark.parametrize("text", NUMBERLINK_TEXTS)
def test_numberlink_boards_read_a_block_at_a_time_as_line_by_line(text, monkeypatch):
    from flowsat.puzzle.formats import numberlink

    def seen(items: list) -> list:
        return [(str(x), x.index) if isinstance(x, PuzzleError) else
                (x, x.line, list(x.dots.items())) for x in items]

    fast = seen(list(parse_puzzles(text, "f.txt", max_cells=20)))
    monkeypatch.setattr(numberlink, "whole_rows", lambda *args: None)  # line by line only
    assert fast == seen(list(parse_puzzles(text, "f.txt", max_cells=20)))
    assert any(isinstance(x[0], Puzzle) for x in fast)
