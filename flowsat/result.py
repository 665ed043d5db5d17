"""What every backend returns for a puzzle."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from flowsat.puzzle.board import Board, cell_tuples
from flowsat.puzzle.model import Cell, Paths, Puzzle, cell_arrays, solution_grid
from flowsat.puzzle.rules import Rules

if TYPE_CHECKING:
    from collections.abc import Callable

# the cells of a record's paths from which numpy writes them: json.dumps is faster below (a
# 40x20 board: 0.25 ms against 1.6; 10,000 cells: even; a million: 0.7 s against 0.29)
ARRAYS_FROM = 10_000

Status = Literal["solved", "unsolvable", "timeout", "limit", "error", "wrong"]
STATUSES: tuple[Status, ...] = ("solved", "unsolvable", "timeout", "limit", "error", "wrong")
# `wrong`: a solver program's answer that is no solution (see `flowsat.program`)


@dataclass
class Result:
    """A backend's answer: a status, the paths when solved, its stats, the error when failed,
    and the configuration that produced it (encoding and solver, search switches, ...)."""

    status: Status
    paths: Paths | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    config: dict[str, Any] = field(default_factory=dict)


class UsageError(ValueError):
    """A backend option that cannot work (unknown solver, unknown encoding, ...)."""


class BackendError(Exception):
    """A backend could not answer for a reason outside flowsat (an outside solver program
    crashed or answered nonsense): the puzzle's status is `error`, the run goes on."""


def to_record(puzzle: Puzzle, result: Result, backend: str, rules: Rules) -> dict[str, Any]:
    """The JSON object of one answer: file, index, status, backend, rules, the puzzle's rows,
    and its solution (`grid`, `paths`: null unless solved), ..."""
    solved = result.status == "solved" and result.paths is not None
    return {
        "file": puzzle.file, "index": puzzle.index, **board_fields(puzzle),
        "status": result.status, "backend": backend,
        "rules": rules.record(), "encoding": result.config.get("encoding"),
        "solver": result.config.get("solver"),
        "puzzle": list(puzzle.rows),  # the board asked; `grid` and `paths` only a solution
        "grid": solution_grid(puzzle, result.paths) if solved else None,
        "paths": dict(result.paths) if solved else None,  # cells: JSON arrays (`record_json`)
        "stats": result.stats, "error": result.error,
    }


def record_line(puzzle: Puzzle, result: Result, backend: str, rules: Rules) -> str:
    """`record_json(to_record(...))`, the paths written from their cells' texts when they are
    the board's own cell tuples (`paths_json`)."""
    record = to_record(puzzle, result, backend, rules)
    paths = record["paths"] and paths_json(puzzle.board, record["paths"])
    if not paths:
        return record_json(record)
    record["paths"] = 0  # its key, unlike any text in a JSON string (`"` is escaped there)
    return encoder()(record).replace('"paths":0,', f'"paths":{paths},', 1)


def paths_json(board: Board, paths: Paths) -> str | None:
    """The paths as `json.dumps` writes them, each cell's text made once a board, when every
    cell is one of the board's own tuples (`Board.cell_list`, known by identity); else None."""
    from json.encoder import encode_basestring_ascii as quoted  # (JSON output only)

    # a large board's go to `cells_json`, which makes and keeps no text a cell (a board seen
    # once: a million cells' texts took 0.6 s and 180 MB)
    if board.size >= ARRAYS_FROM:
        return None
    texts = cell_texts(board.width, board.size)[1].get
    try:
        return "{" + ",".join([f"{quoted(color)}:[{','.join(map(texts, map(id, path)))}]"
                               for color, path in paths.items()]) + "}"
    except TypeError:  # a cell that is not the board's (no text), a color that is no str
        return None


@lru_cache(maxsize=16)  # the boards of a set's few sizes
def cell_texts(width: int, size: int) -> tuple[list[Cell], dict[int, str]]:
    """The cell tuples of the boards of that size (`Board.cell_list`: kept alive here) and
    each one's JSON text, by its identity."""
    cells = cell_tuples(width, size)
    return cells, {id(cell): f"[{cell[0]},{cell[1]}]" for cell in cells}


def record_json(record: dict[str, Any]) -> str:
    """A record as one line of JSON, the text of `json.dumps(record, separators=(",", ":"))`,
    its paths, from `ARRAYS_FROM` cells, written with each number's text made once (a million
    cells in a tenth of a second: json writes each number). A record is made afresh: json
    does not look for cycles in it."""
    import json  # here: only JSON output needs it, and every run imports this module

    paths = record.get("paths")
    if not paths:
        return encoder()(record)
    if sum(map(len, paths.values())) < ARRAYS_FROM:
        if not all(type(path) in (list, tuple) for path in paths.values()):  # a `CellPath`
            record = {**record, "paths": {color: list(path) for color, path in paths.items()}}
        return encoder()(record)  # cells: tuples or lists, both JSON arrays
    items = list(record.items())
    at = list(record).index("paths")
    head = json.dumps(dict(items[:at]), separators=(",", ":"))[:-1]  # "{...", no "}"
    tail = json.dumps(dict(items[at + 1:]), separators=(",", ":"))[1:]  # "...}", no "{"
    paths = ",".join(f"{json.dumps(color)}:{cells_json(path)}"
                     for color, path in record["paths"].items())
    return (f"{head}{',' if at else ''}\"paths\":{{{paths}}}"
            f"{',' if at + 1 < len(items) else ''}{tail}")


@cache
def encoder() -> Callable[[Any], str]:
    """What writes a record as `json.dumps(record, separators=(",", ":"))` does, made once
    (a record is made afresh: json need not look for cycles in it): json's C encoder itself,
    where there is one (`JSONEncoder.encode` makes one a call, through two Python calls: a
    tenth of writing a small board's record)."""
    from json import JSONEncoder
    from json.encoder import c_make_encoder, encode_basestring_ascii

    made = JSONEncoder(separators=(",", ":"), check_circular=False)
    if c_make_encoder is None:
        return made.encode
    chunks = c_make_encoder(None, made.default, encode_basestring_ascii, None,
                            made.key_separator, made.item_separator, False, False, True)
    return lambda record: "".join(chunks(record, 0))


def cells_json(path: list) -> str:
    """A path of (row, column) cells (ints) as JSON: [[r,c],...]."""
    if not path:
        return "[]"
    rows, cols = cell_arrays(path)
    low = int(min(rows.min(), cols.min()))
    texts = [str(n) for n in range(low, int(max(rows.max(), cols.max())) + 1)]
    opening = np.array([f"[{t}," for t in texts], dtype=object)
    closing = np.array([f"{t}]," for t in texts], dtype=object)
    pieces = np.empty(2 * len(path), dtype=object)
    pieces[0::2], pieces[1::2] = opening[rows - low], closing[cols - low]
    return f"[{''.join(pieces.tolist())[:-1]}]"


def board_fields(puzzle: Puzzle) -> dict[str, Any]:
    """What a record says of the board beyond its rows: `level` (a level pack's LEVEL field),
    `marks` (its SIZE's marks) and `kind` (any board but a plain square one)."""
    return {**({"level": puzzle.level} if puzzle.level is not None else {}),
            **({"marks": list(puzzle.marks)} if puzzle.marks else {}),
            **({"kind": puzzle.kind} if not puzzle.board.plain else {})}


def error_record(file: str, index: int | None, message: str, backend: str,
                 rules: Rules, asked: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON object for an input that could not be read as a puzzle, naming the encoding
    and solver asked for (`asked`: the backend's options)."""
    asked = asked or {}
    return {"file": file, "index": index, "status": "error", "backend": backend,
            "rules": rules.record(), "encoding": asked.get("encoding"),
            "solver": asked.get("solver"), "puzzle": None, "grid": None, "paths": None,
            "stats": {}, "error": message}
