"""The report's *Growth* section: how each configuration's time and memory grow with the board,
fitted over the whole-set runs (`timing = "set"`) of a family of sets.

A family is the sets named `FAMILY SIZE` (`spiral 100x100`, `spiral 1000x1000`): within it each
set is a point, its cells a puzzle against its median wall seconds a puzzle (and its stages'
seconds, and its peak memory) over the runs that answered every puzzle. The growth is the
least-squares slope of log time against log cells (1: linear, 2: quadratic); the memory a cell
the least-squares slope of peak memory against cells.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from flowsat.bench.markdown import ms, number, number_2, row, table_head
from flowsat.bench.summary import median

Point = tuple[float, float]  # (cells a puzzle, a measure a puzzle)


def family(name: str) -> str:
    """A set's family: its name without a last word that holds a digit (its size)."""
    head, _, last = name.rpartition(" ")
    return head if head and any(c.isdigit() for c in last) else name


def slope(points: Iterable[Point]) -> float | None:
    """The least-squares slope of y against x; None without two distinct x."""
    points = list(points)
    if len({x for x, _ in points}) < 2:
        return None
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    return (sum((x - mx) * (y - my) for x, y in points)
            / sum((x - mx) ** 2 for x, _ in points))


def log_slope(points: Iterable[Point]) -> float | None:
    """The growth: the slope of log y against log x, over the points with both positive."""
    return slope((math.log(x), math.log(y)) for x, y in points if x > 0 and y > 0)


def set_measures(runs: list[dict]) -> dict[str, float | None]:
    """A set's medians a puzzle over its runs that answered every puzzle: wall and wall past
    the start-up (seconds), each stage (seconds), the peak memory (MB, a process's)."""
    done = [r for r in runs if r["status"] == "solved"]
    n = runs[0]["puzzles"] or 1
    stages = dict.fromkeys(k for r in done for k in r.get("stats") or {})
    return {"cells": runs[0]["cells"] / n,
            "wall": median(r["wall_s"] / n for r in done),
            "past start-up": median(max(r["wall_s"] - r["startup_s"], 0) / n for r in done),
            "peak_mb": median(r["peak_mb"] for r in done if r.get("peak_mb") is not None),
            **{k: median((r.get("stats") or {}).get(k, 0) / n for r in done) for k in stages}}


def points(wholes: list[dict]) -> dict[tuple[str, str], list[tuple[str, dict]]]:
    """Per family and configuration, each set's measures (`set_measures`), smallest first."""
    runs: dict[tuple[str, str], list[dict]] = {}
    for r in wholes:
        if r.get("cells"):  # (set runs recorded before they counted cells: not fitted)
            runs.setdefault((r["set"], r["config"]), []).append(r)
    found: dict[tuple[str, str], list[tuple[str, dict]]] = {}
    for (name, config), mine in runs.items():
        found.setdefault((family(name), config), []).append((name, set_measures(mine)))
    for sets in found.values():
        sets.sort(key=lambda item: item[1]["cells"])
    return found


def fitted(sets: list[tuple[str, dict]], key: str) -> float | None:
    return log_slope((m["cells"], m[key]) for _, m in sets if m.get(key) is not None)


def bytes_a_cell(sets: list[tuple[str, dict]]) -> float | None:
    """What each cell adds to the peak memory, in bytes (the slope of MB against cells)."""
    found = slope((m["cells"], m["peak_mb"]) for _, m in sets if m["peak_mb"] is not None)
    return None if found is None else found * 2**20


def growth(wholes: list[dict]) -> list[str]:
    """The *Growth* section: a row per family and configuration, then its stages, then every
    point."""
    found = {k: v for k, v in points(wholes).items() if any(m["wall"] for _, m in v)}
    if not found:
        return []
    lines = ["## Growth", "",
             "Whole-set runs (above) by family of sets (`FAMILY SIZE`): each set a point, its "
             "cells a puzzle against its median seconds a puzzle over the runs that answered "
             "every puzzle. Growth: the least-squares slope of log time against log cells "
             "(1: linear; whole process, and past the start-up measured beside it; at the "
             "top: between its two largest sets, past the start-up, where the start-up no "
             "longer hides the growth); memory a cell: the least-squares slope of the "
             "process's peak memory against cells; largest: the largest set it finished.", "",
             *table_head("family", "configuration", "sets", "cells a puzzle",
                         "growth (whole)", "growth (past start-up)", "growth at the top",
                         "memory a cell (bytes)", "largest: ms a puzzle",
                         "largest: peak (MB)")]
    for (name, config), sets in found.items():
        done = [(s, m) for s, m in sets if m["wall"] is not None]
        largest = done[-1][1] if done else {}
        lines.append(row(name, f"`{config}`", len(done),
                         f"{number(sets[0][1]['cells'])} to {number(sets[-1][1]['cells'])}",
                         number_2(fitted(done, "wall")),
                         number_2(fitted(done, "past start-up")),
                         number_2(fitted(done[-2:], "past start-up")),
                         number(bytes_a_cell(done)), ms(largest.get("wall")),
                         number(largest.get("peak_mb"))))
    return [*lines, "", *stage_growth(found), *every_point(found)]


def stage_growth(found: dict[tuple[str, str], list[tuple[str, dict]]]) -> list[str]:
    """The growth of each stage the backend timed (its `_s` stats, summed over a set)."""
    lines = []
    for (name, config), sets in found.items():
        done = [(s, m) for s, m in sets if m["wall"] is not None]
        stages = [k for k in dict.fromkeys(k for _, m in done for k in m)
                  if k.endswith("_s") and any(m.get(k) for _, m in done)]
        if stages and len(done) > 1:
            lines.append(row(name, f"`{config}`", *(
                f"{k}: {number_2(fitted(done, k))} ({ms(done[-1][1].get(k))} ms)"
                for k in stages)))
    if not lines:
        return []
    return ["### Growth by stage", "",
            "Each stage the backend timed (its stats, summed over a set's answers, a puzzle): "
            "its growth, and in brackets its ms a puzzle on the largest set.", "",
            *table_head("family", "configuration", "stages"), *lines, ""]


def every_point(found: dict[tuple[str, str], list[tuple[str, dict]]]) -> list[str]:
    lines = ["### The points", "",
             *table_head("family", "set", "cells a puzzle", "configuration",
                         "ms a puzzle", "past start-up (ms)", "peak (MB)")]
    for (name, config), sets in found.items():
        lines += [row(name, s, number(m["cells"]), f"`{config}`", ms(m["wall"]),
                      ms(m["past start-up"]), number(m["peak_mb"])) for s, m in sets]
    return [*lines, ""]
