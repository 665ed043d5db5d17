"""The report's *Growth* section: slopes fitted over whole-set runs, by family of sets."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flowsat.bench.growth import bytes_a_cell, family, growth, log_slope, points, slope


def set_record(name: str, config: str, cells: int, puzzles: int, wall: float, peak: float,
               status: str = "solved", **stats: float) -> dict:
    return {"set": name, "config": config, "cells": cells, "puzzles": puzzles,
            "wall_s": wall, "startup_s": 0.1, "peak_mb": peak, "status": status,
            "stats": stats, "timing": "set"}


@pytest.mark.parametrize(("name", "found"), [
    ("spiral 100x100", "spiral"), ("corpus big 50x50", "corpus big"), ("packs", "packs"),
    ("mid boards", "mid boards"), ("spiral 1000", "spiral")])
def test_a_set_s_family_is_its_name_without_its_size(name, found):
    assert family(name) == found


@settings(max_examples=50, deadline=None)
@given(power=st.floats(0.5, 3), scale=st.floats(1e-6, 1e3),
       cells=st.lists(st.integers(10, 10**7), min_size=2, max_size=8, unique=True))
def test_the_growth_of_a_power_law_is_its_power(power, scale, cells):
    found = log_slope((x, scale * x**power) for x in cells)
    assert found == pytest.approx(power, rel=1e-6)


def test_no_slope_without_two_sizes():
    assert slope([(3.0, 1.0), (3.0, 2.0)]) is None and log_slope([(5, 1.0)]) is None


def test_memory_a_cell_and_time_a_puzzle_come_from_the_runs_that_finished():
    records = [set_record(f"spiral {n}x{n}", "sat", n * n, 1, 0.1 + 1e-6 * n * n,
                          40 + 200 * n * n / 2**20, deduce_s=2e-7 * n * n)
               for n in (100, 200, 400) for _ in range(3)]
    records.append(set_record("spiral 400x400", "sat", 160_000, 1, 99.0, 9999.0, "timeout"))
    sets = points(records)[("spiral", "sat")]
    assert [name for name, _ in sets] == ["spiral 100x100", "spiral 200x200", "spiral 400x400"]
    assert sets[-1][1]["wall"] == pytest.approx(0.1 + 0.16)  # (not the timed-out run's)
    assert bytes_a_cell(sets) == pytest.approx(200)
    assert sets[-1][1]["deduce_s"] == pytest.approx(0.032)


def test_a_set_of_several_puzzles_is_a_point_a_puzzle():
    records = [set_record("corpus 10x10", "go", 20 * 100, 20, 2.0, 5.0),
               set_record("corpus 20x20", "go", 5 * 400, 5, 2.0, 5.0)]
    (_, small), (_, large) = points(records)[("corpus", "go")]
    assert (small["cells"], small["wall"]) == (100, 0.1)
    assert (large["cells"], large["wall"]) == (400, 0.4)
    assert log_slope([(small["cells"], small["wall"]), (large["cells"], large["wall"])]) == (
        pytest.approx(math.log(4) / math.log(4)))


def test_the_section_gives_each_family_and_configuration_its_growth_and_points():
    records = [set_record(f"spiral {n}x{n}", config, n * n, 1, k * 1e-6 * n * n, 10 + n,
                          total_s=k * 1e-6 * n * n)
               for n in (100, 1000) for config, k in (("go", 1), ("sat", 2))]
    records.append({"set": "old", "config": "go", "status": "solved", "wall_s": 1.0,
                    "timing": "set"})  # recorded before set runs counted cells: left out
    text = "\n".join(growth(records))
    assert "## Growth" in text and "### Growth by stage" in text and "### The points" in text
    assert "| spiral | `go` | 2 | 10,000 to 1,000,000 | 1.00 |" in text
    assert "| spiral | `sat` | 2 | 10,000 to 1,000,000 | 1.00 |" in text
    assert "total_s: 1.00 (2,000 ms)" in text
    assert "old" not in text
    assert growth([]) == []
