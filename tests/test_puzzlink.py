"""puzz.link numlin URLs: pzprjs's number body read and written over its whole range, boards
written and read back, URLs given on the command line or one a line in a file, bad URLs in one
line each, and the rules a URL's puzzle is solved under."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from flowsat.commands import app
from flowsat.puzzle import Puzzle, PuzzleError, parse_puzzles, puzzle_text, read_puzzles
from flowsat.puzzle.formats.puzzlink import (
    LABELS,
    MOST,
    decode_numbers,
    encode_numbers,
    number_text,
)
from tests.conftest import PUZZLES

FLOW5 = PUZZLES / "examples" / "flow_5x5.txt"
# a 4x3 board by hand, pzprjs's way: 1 g(one empty) 2 g / +12c(300) h(two empty) -10(16) /
# 1 2 +12c -10
HAND = "https://puzz.link/p?numlin/4/3/1g2g+12ch-1012+12c-10"
NIKOLI = "https://puzz.link/p?numlin/3/2/1g1i"  # 1.1 / ...: cells must stay empty


def cli(*args: str, **kw):
    return CliRunner().invoke(app, list(args), **kw)


@pytest.mark.parametrize(("number", "text"), [
    (0, "0"), (15, "f"), (16, "-10"), (255, "-ff"), (256, "+100"), (4095, "+fff"),
    (4096, "=000"), (8191, "=fff"), (8192, "%000"), (MOST, "%fff")])
def test_each_number_range_is_written_and_read_as_pzprjs_does(number, text):
    assert number_text(number) == text
    assert decode_numbers(text, 1) == [number]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), st.just(-1), st.integers(0, MOST)), min_size=1,
                max_size=80))
def test_a_body_reads_back_what_it_writes(cells):
    body = encode_numbers(cells)
    assert decode_numbers(body, len(cells)) == cells


def test_long_runs_of_empty_cells_are_cut_at_20():
    assert encode_numbers([None] * 45 + [3]) == "zzk3"
    assert decode_numbers("zzk3", 46) == [None] * 45 + [3]


def test_a_url_by_hand_is_read_cell_by_cell():
    (puzzle,) = read_puzzles(HAND)
    assert isinstance(puzzle, Puzzle), puzzle
    # 1 and 2 keep their labels, 16 is the 16th label (G), 300 takes the first one left (3)
    assert puzzle.rows == ("1.2.", "3..G", "123G")
    assert puzzle.format == "puzzlink" and puzzle.name == HAND
    assert LABELS[15] == "G"


@st.composite
def boards(draw) -> Puzzle:
    """A plain board of up to 12x12 with pairs of dots of any of the 93 labels."""
    width, height = draw(st.integers(2, 12)), draw(st.integers(1, 12))
    cells = draw(st.permutations(range(width * height)))
    labels = draw(st.lists(st.sampled_from(LABELS), min_size=1, max_size=width * height // 2,
                           unique=True))
    grid = ["."] * (width * height)
    for k, label in enumerate(labels):
        grid[cells[2 * k]] = grid[cells[2 * k + 1]] = label
    return Puzzle(tuple("".join(grid[r * width:(r + 1) * width]) for r in range(height)))


@settings(max_examples=150, deadline=None)
@given(boards())
def test_every_plain_board_reads_back_what_it_writes(puzzle):
    text = puzzle_text(puzzle, "puzzlink")
    assert text.startswith(f"https://puzz.link/p?numlin/{puzzle.width}/{puzzle.height}/")
    (again,) = parse_puzzles(text, "urls.txt")
    assert isinstance(again, Puzzle), again
    assert again.rows == puzzle.rows


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, MOST), min_size=1, max_size=93, unique=True), st.randoms())
def test_a_url_of_any_numbers_reads_the_same_once_written_again(numbers, rng):
    """Numbers of every range in pairs, the other cells empty: the board read from the URL
    is written as a URL that reads as the same board."""
    cells = [n for n in numbers for _ in range(2)] + [None] * rng.randrange(20)
    rng.shuffle(cells)
    (puzzle,) = read_puzzles(f"https://puzz.link/p?numlin/{len(cells)}/1/"
                             f"{encode_numbers(cells)}")
    assert isinstance(puzzle, Puzzle), puzzle
    row = puzzle.rows[0]
    pairs = [[i for i, n in enumerate(cells) if n == m] for m in numbers]
    assert all(row[a] == row[b] for a, b in pairs)  # each number's two cells, one label
    assert len({row[a] for a, _ in pairs}) == len(numbers)  # another for each number
    assert all((row[i] == ".") == (n is None) for i, n in enumerate(cells))
    (again,) = parse_puzzles(puzzle_text(puzzle, "puzzlink"), "urls.txt")
    assert again.rows == puzzle.rows


def test_numbers_above_the_labels_take_the_labels_left_over():
    numbers = [94, 5000, 9000, 1]
    cells = [n for n in numbers for _ in range(2)]
    (puzzle,) = read_puzzles(f"https://puzz.link/p?numlin/8/1/{encode_numbers(cells)}")
    assert puzzle.rows == ("22334411",)  # 1 keeps '1'; 94, 5000, 9000 take 2, 3, 4


@pytest.mark.parametrize(("url", "col", "message"), [
    ("https://puzz.link/p?numlin/4/3/1g.g+12ch-1012+12c-10", 34,
     'a "?" clue (a number not shown) cannot be a Flow dot'),
    ("https://puzz.link/p?numlin/4/3/1g2g+12ch-1012+12c-10z", 53, "the body goes on past the last"),
    ("https://puzz.link/p?numlin/4/3/1g2g+12ch-1012+12c-1", 50, "'-' takes 2 hex digits"),
    ("https://puzz.link/p?numlin/4/3/1g2g+12ch-1012+12c-1!", 50, "'-' takes 2 hex digits"),
    ("https://puzz.link/p?numlin/4/3/1g2g+12ch-1012+12cA", 50, "'A' is no cell"),
    ("https://puzz.link/p?numlin/4/3/1g2g+12ch-1012+12c1", 50, "number 1 is on three"),
    ("https://puzz.link/p?numlin/4/3/1g2g+12cr", 40, "'r' is 12 empty cells, past the last"),
    ("https://puzz.link/p?numlin/4/3/1g1g3", 36, "number 3 is on one cell"),
    ("https://puzz.link/p?numlin/4/0/1", 30, "H: expected a number of cells from 1"),
    ("https://puzz.link/p?numlin/4/3", 27, "expected /W/H/BODY"),
    ("https://puzz.link/p?slither/4/3/1", 21, "a 'slither' puzzle"),
])
def test_a_bad_url_is_one_line_pointing_at_what_is_wrong(tmp_path, url, col, message):
    file = tmp_path / "urls.txt"
    file.write_text(f"{NIKOLI}\n\n{url}\n")
    result = cli("solve", "-q", "--allow-empty", str(file))
    assert result.exit_code == 2
    error = [line for line in result.stderr.splitlines() if not line.startswith("flowsat:")]
    assert len(error) == 1 and error[0].startswith(f"{file}:3:{col}: {message}"), error
    assert f"{file}#1: solved" in result.stdout  # the other URL still goes through


def test_a_url_on_the_command_line_says_which_rules_it_is_solved_under():
    url = puzzle_text(next(read_puzzles(FLOW5)), "puzzlink").strip()
    result = cli("solve", "--format", "json", url)
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["file"] == url and record["status"] == "solved"
    assert record["rules"] == {"self_touch": False, "fill_all": True}  # the flags decide
    assert result.stderr == ("flowsat: puzz.link puzzles: solved under these rules (no path "
                             "beside itself, every cell filled); Nikoli's rules apply there: "
                             "--allow-empty --allow-self-touch give them\n")
    nikoli = cli("solve", "--format", "json", "--allow-empty", "--allow-self-touch", url)
    assert json.loads(nikoli.stdout)["rules"] == {"self_touch": True, "fill_all": False}
    assert "solved under Nikoli's rules" in nikoli.stderr
    assert "puzz.link" not in cli("solve", str(FLOW5)).stderr  # other files: no such line


def test_a_nikoli_board_is_solved_under_nikolis_rules_only_when_asked():
    plain = cli("solve", "-q", NIKOLI)
    assert plain.exit_code == 1
    assert plain.stdout.rstrip().endswith("; --allow-empty lifts it (a solve under it found a "
                                          "solution)")
    assert cli("solve", "-q", "--allow-empty", "--allow-self-touch", NIKOLI).exit_code == 0


def test_convert_and_generate_write_urls_that_read_back(tmp_path):
    converted = cli("convert", "--to", "puzzlink", str(PUZZLES / "examples"))
    assert converted.exit_code == 0, converted.output
    urls = tmp_path / "urls.txt"
    urls.write_text(converted.stdout)
    originals = [p for p in (item for f in sorted((PUZZLES / "examples").rglob("*.txt"))
                             for item in read_puzzles(f)) if isinstance(p, Puzzle)]
    again = list(read_puzzles(urls))
    assert [p.rows for p in again] == [p.rows for p in originals]
    made = cli("generate", "--size", "6x5", "--count", "2", "--seed", "7", "--format",
               "puzzlink")
    assert made.exit_code == 0, made.output
    puzzles = list(parse_puzzles(made.stdout, "made.txt"))
    assert len(puzzles) == 2 and all(isinstance(p, Puzzle) and p.size == "6x5"
                                     for p in puzzles)
    assert not any(isinstance(p, PuzzleError) for p in puzzles)
