"""Every printable ASCII character but '.' is a dot label, kept exactly through every output;
a character that is no cell is an input error; the answer says which rule it was found under."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from itertools import combinations

import pytest
from typer.testing import CliRunner

from flowsat.commands import app
from flowsat.generate.corpus import puzzle_text
from flowsat.generate.make import make_puzzle
from flowsat.puzzle import Puzzle, parse_puzzles, read_puzzles
from flowsat.puzzle.model import LABELS
from flowsat.puzzle.rules import Rules
from flowsat.render.palette import (
    BACKGROUND,
    MIN_CONTRAST,
    PALETTE,
    contrast,
    distance,
    generated,
    oklab,
    palette,
)
from flowsat.render.svg import svg
from flowsat.render.text import draw
from flowsat.solve import solve
from tests.conftest import PUZZLES

LABELLED = PUZZLES / "labels"
GRID = LABELLED / "punctuation_12x12.txt"
NUMBERLINK = LABELLED / "punctuation_numberlink.txt"
SELF_TOUCH = str(PUZZLES / "unsolvable" / "self_touch_5x5.txt")
PUNCTUATION = {ch for ch in LABELS if not ch.isalnum()}


def cli(*args: str):
    return CliRunner().invoke(app, list(args))


def labelled_puzzles() -> list[Puzzle]:
    return [p for f in (GRID, NUMBERLINK) for p in read_puzzles(f)]


def test_there_are_93_labels():
    assert len(LABELS) == 93 and "." not in LABELS and " " not in LABELS
    assert all(0x21 <= ord(ch) <= 0x7E for ch in LABELS)


def test_the_labelled_boards_use_every_extra_character_with_30_pairs_and_more():
    puzzles = labelled_puzzles()
    assert [len(p.colors) for p in puzzles] == [30, 31, 93]
    assert set(puzzles[0].colors) | set(puzzles[1].colors) == PUNCTUATION
    assert puzzles[2].rows[0].startswith("#")  # a row inside the board, not a comment


@pytest.mark.parametrize("backend", ["sat", "astar"])
@pytest.mark.parametrize("allow_self_touch", [False, True])
def test_both_backends_solve_every_labelled_board_with_its_labels(backend, allow_self_touch):
    for puzzle in labelled_puzzles():
        result = solve(puzzle, backend, rules=Rules(allow_self_touch))  # checked
        assert result.status == "solved", (puzzle.name, result)
        assert set(result.paths) == set(puzzle.colors)


def test_quote_and_backslash_labels_go_through_json_and_back_through_show(tmp_path):
    solved = cli("solve", "--format", "json", str(GRID), str(NUMBERLINK))
    assert solved.exit_code == 0, solved.output
    results = tmp_path / "results.jsonl"
    results.write_text(solved.stdout)
    records = [json.loads(line) for line in solved.stdout.splitlines()]
    assert all(r["status"] == "solved" for r in records)
    assert {'"', "\\"} <= set(records[0]["paths"]) and {'"', "\\"} <= set(records[2]["paths"])
    puzzle = next(iter(read_puzzles(GRID)))
    for (r, c), ch in ((cell, color) for color, ends in puzzle.dots.items() for cell in ends):
        assert records[0]["grid"][r][c] == ch
    shown = cli("show", "--solution", str(results), str(GRID), str(NUMBERLINK))
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.count(": solved (") == 3
    assert '"' in shown.stdout and "\\" in shown.stdout and "─" in shown.stdout


def test_bad_characters_exit_2_in_one_line_each_while_other_files_are_solved(tmp_path):
    accented = tmp_path / "accented.txt"
    accented.write_text("A..A\nB.\u00e9B\n", encoding="utf-8")
    control = tmp_path / "control.txt"
    control.write_bytes(b"3 2\nA.A\nB\x07B\n")
    result = cli("solve", "--quiet", str(accented), str(GRID), str(control))
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"{accented}:2:3: U+00E9 'é' is not a cell: a cell is '.' (empty) or a printable "
        f"ASCII character (a dot's label)",
        f"{control}:3:2: U+0007 a control character is not a cell: a cell is '.' (empty) or "
        f"a printable ASCII character (a dot's label)"]
    assert result.stdout.startswith(f"{GRID}: solved in ")


def test_svg_escapes_every_label():
    puzzle = Puzzle.from_text('"<&>\\\' / ...... / "<&>\\\'')
    paths = {ch: [(0, c), (1, c), (2, c)] for c, ch in enumerate(puzzle.colors)}
    tree = ET.fromstring(svg(puzzle, paths, title='a "<&>" board'))
    pipes = [e.get("data-color") for e in tree.iter() if e.get("class") == "pipe"]
    assert pipes == list('"<&>\\\'')
    assert tree.find("{http://www.w3.org/2000/svg}title").text == 'a "<&>" board'


def test_every_label_gets_its_own_readable_color():
    labels = list(LABELS)
    colors = palette(labels)
    assert len(set(colors.values())) == 93
    extra = generated()
    assert [colors[c] for c in labels if c not in PALETTE] == extra
    assert all(contrast(rgb, BACKGROUND) >= MIN_CONTRAST for rgb in extra)
    fixed = [*PALETTE.values(), BACKGROUND]
    gaps = [distance(oklab(a), oklab(b))
            for a, b in [*combinations(extra, 2), *((x, f) for x in extra for f in fixed)]]
    assert min(gaps) > 0.06  # in OKLab; the first 46 (62 letters and digits) stay 0.08 apart
    assert min(distance(oklab(a), oklab(b)) for a, b in combinations(extra[:46], 2)) > 0.08


def test_the_terminal_colors_each_of_93_flows():
    (_, _, board) = labelled_puzzles()
    result = solve(board)
    drawn = draw(board, result.paths, color=True)
    assert len({line.split("m")[0] for line in drawn.split("\x1b[38;2;")[1:]}) == 93


# the rule in the answer

def test_unsolvable_names_a_switch_only_when_a_solve_under_it_found_a_solution(tmp_path):
    result = cli("solve", SELF_TOUCH)
    assert result.exit_code == 1
    assert "--allow-self-touch or --allow-empty lifts it (a solve under each found" in \
        result.stdout
    crossing = str(PUZZLES / "unsolvable" / "crossing_3x3.txt")  # no rule helps
    for args in ([], ["--allow-self-touch"], ["--backend", "astar"]):
        answer = cli("solve", *args, crossing)
        assert answer.exit_code == 1 and "unsolvable" in answer.stdout
        assert "lifts it" not in answer.stdout
    unique = cli("check-unique", crossing)
    assert unique.exit_code == 1 and "lifts it" not in unique.stdout
    nikoli = tmp_path / "nikoli.txt"  # solvable only with a cell left empty
    nikoli.write_text("A.A\n...\n")
    for command in ("solve", "check-unique"):
        answer = cli(command, str(nikoli))
        assert answer.exit_code == 1
        assert answer.stdout.rstrip().endswith(
            "; --allow-empty lifts it (a solve under it found a solution)"), answer.stdout
    assert "lifts it" not in cli("solve", "--format", "json", str(nikoli)).stdout


@pytest.mark.parametrize("flag", [[], ["--allow-self-touch"]])
def test_every_json_record_states_the_rules(tmp_path, flag):
    bad = tmp_path / "bad.txt"
    bad.write_text("A.\t\n")
    result = cli("solve", "--format", "json", *flag, SELF_TOUCH, str(bad))
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["status"] for r in records] == ["solved" if flag else "unsolvable", "error"]
    assert all(r["rules"] == {"self_touch": bool(flag), "fill_all": True} for r in records)


@pytest.mark.parametrize("fmt", ["grid", "numberlink"])
def test_the_generator_labels_past_62_colors_and_its_files_read_back(fmt):
    made = make_puzzle(20, 20, 2, (70, 70))
    assert len(made.puzzle.colors) == 70 and set(made.puzzle.colors) <= set(LABELS)
    assert set(made.puzzle.colors) & PUNCTUATION
    (again,) = parse_puzzles(puzzle_text(made.puzzle, fmt))
    assert again.rows == made.puzzle.rows and again.dots == made.puzzle.dots
