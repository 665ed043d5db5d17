"""Reading back the output of `flowsat solve --format json`: one JSON object a line, each
with the `file` and `index` of its puzzle, its `status`, the puzzle's rows (`puzzle`) and,
when solved, its `paths` (and `grid`: null unless solved)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from flowsat.checker import problems
from flowsat.puzzle.formats import PuzzleError, read_text, text_lines
from flowsat.puzzle.model import Paths, Puzzle
from flowsat.puzzle.rules import DEFAULT_RULES, Rules


@dataclass
class Record:
    """One answer of a results file, and where it is: `results.jsonl:LINE`."""

    file: str
    index: int
    status: str
    paths: Paths | None
    where: str
    puzzle: tuple[str, ...] | None = None  # the rows answered (None: a record without them)


class RecordError(Exception):
    """A results file, or a line of it, that cannot be read: `FILE:LINE:COL: message`."""


def read_records(path: str | Path) -> tuple[list[Record], list[RecordError]]:
    """The records of a results file, and an error for each line that is not one; a
    RecordError if the file cannot be read."""
    try:
        lines = text_lines(read_text(str(path)))
    except PuzzleError as err:
        raise RecordError(str(err)) from None
    records, errors = [], []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            records.append(record(json.loads(line), f"{path}:{n}"))
        except (ValueError, TypeError, KeyError, OverflowError, RecursionError) as err:
            errors.append(RecordError(f"{path}:{n}:1: not a result of `flowsat solve --format "
                                      f"json`: {err}"))
    return records, errors


def record(obj: dict, where: str) -> Record:
    """A record from one JSON object; ValueError, TypeError or KeyError if it is not one."""
    if not isinstance(obj, dict):
        raise TypeError("not a JSON object")
    paths = obj.get("paths")
    if paths is not None:
        if not isinstance(paths, dict):
            raise TypeError("paths is not an object")
        paths = {letter: [cell_of(cell) for cell in cells] for letter, cells in paths.items()}
    rows = obj.get("puzzle")
    if rows is not None and not (isinstance(rows, list) and all(isinstance(r, str) for r in rows)):
        raise TypeError("puzzle is not a list of rows")
    return Record(str(obj["file"]), int(obj.get("index") or 1), str(obj["status"]), paths,
                  where, None if rows is None else tuple(rows))


def cell_of(value: object) -> tuple[int, int]:
    if not (isinstance(value, list) and len(value) == 2
            and all(isinstance(x, int) for x in value)):
        raise ValueError(f"a cell is [row, col], not {json.dumps(value)}")
    return value[0], value[1]


Key = tuple[Path, int]  # a puzzle: its file (resolved) and its index in the file


def by_puzzle(records: list[Record]) -> dict[Key, list[Record]]:
    """The records of each puzzle."""
    out: dict[Key, list[Record]] = {}
    for r in records:
        out.setdefault((Path(r.file).resolve(), r.index), []).append(r)
    return out


def find(records: dict[Key, list[Record]], puzzle: Puzzle) -> Record | None:
    """The puzzle's record (same file, same index): a solved one first, else the last one."""
    mine = records.get((Path(puzzle.file).resolve(), puzzle.index), [])
    return next((r for r in mine if r.status == "solved" and r.paths), mine[-1] if mine else None)


def solution_of(records: dict[Key, list[Record]], puzzle: Puzzle, source: str,
                rules: Rules = DEFAULT_RULES) -> tuple[str, Paths | None]:
    """The puzzle's status and checked solution (None when not solved, with where the status was
    read); a RecordError when it has no record, its record is of other rows, or its solution
    fails the checker."""
    rec = find(records, puzzle)
    if rec is None:
        raise RecordError(f"{puzzle.file}:{puzzle.line}:1: no result for this puzzle in "
                          f"{source}")
    if rec.puzzle is not None and rec.puzzle != tuple(puzzle.rows):
        raise RecordError(f"{rec.where}:1: the record is of another puzzle than "
                          f"{puzzle.name} (its 'puzzle' rows differ: the file changed since?)")
    if rec.status != "solved" or rec.paths is None:
        return f"{rec.status} ({rec.where})", None
    wrong = problems(puzzle, rec.paths, rules)
    if wrong:
        raise RecordError(f"{rec.where}:1: the solution of {puzzle.name} fails the checker: "
                          f"{wrong[0]}")
    return f"solved ({rec.where})", rec.paths
