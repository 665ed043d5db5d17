"""The report as a solver competition gives it: PAR-2, the virtual best and each configuration's
share of it, tables by size and kind, the cactus and pairwise plots, and report.html."""

from __future__ import annotations

import csv
import json
import math
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from flowsat.bench.competition import (
    contributions,
    group_by,
    grouped_scores,
    penalty_of,
    ranking,
    rule_label,
    score,
    timeout_of,
)
from flowsat.bench.html import inline, unique_ids, write_html
from flowsat.bench.records import META, RESULTS
from flowsat.bench.report import write_report
from flowsat.bench.summary import INF, VIRTUAL_BEST, tabulate, with_virtual_best
from tests.conftest import PUZZLES, ROOT

TIMEOUT = 10.0
T = None  # a run that timed out


def record(puzzle: str, config: str, time: float | None, repeat: int = 1, status: str = "",
           rows: int = 5, cols: int = 5, kind: str = "square", colors: int = 4,
           **more) -> dict:
    """A record as `flowsat bench` writes it, with what the report reads."""
    status = status or ("timeout" if time is None else "solved")
    return {"file": f"{puzzle}.txt", "index": 1, "name": f"{puzzle}.txt", "rows": rows,
            "cols": cols, "kind": kind, "colors": colors, "symmetry": "identity",
            "config": config, "backend": config.split("/")[0], "options": {},
            "repeat": repeat, "status": status,
            "time_s": time if status in ("solved", "unsolvable") else None,
            "wall_s": time or TIMEOUT, "cpu_s": time, "stats": {}, "error": None, **more}


# Known medians. a: x 1 (over the repeats 0.9, 1, 5), y 2, z timeout; b: x 3 (3, 3, timeout),
# y and z 0.5 (a tie); c: x timeout, y 4, z an error; d: nobody finished.
RUNS = [
    *(record("a", "x", t, n) for n, t in enumerate((0.9, 1.0, 5.0), 1)),
    record("a", "y", 2.0), record("a", "z", T),
    *(record("b", "x", t, n) for n, t in enumerate((3.0, 3.0, T), 1)),
    record("b", "y", 0.5), record("b", "z", 0.5),
    record("c", "x", T, rows=7, cols=7, kind="hex"), record("c", "y", 4.0, rows=7, cols=7,
                                                           kind="hex"),
    record("c", "z", 1.0, status="error", rows=7, cols=7, kind="hex"),
    *(record("d", c, T, rows=10, cols=10, colors=9) for c in "xyz"),
]
P = 2 * TIMEOUT  # what an unfinished puzzle costs
PAR2 = {"x": 1 + 3 + P + P, "y": 2 + 0.5 + 4 + P, "z": P + 0.5 + P + P}
VBS = 1 + 0.5 + 4 + P  # x on a, y or z on b, y on c, none on d


def table():
    return tabulate(RUNS, ["x", "y", "z"])


def test_par2_sums_the_medians_and_twice_the_timeout_for_each_puzzle_not_finished():
    t = table()
    assert {c: score(t.puzzles, [c], P).par2 for c in "xyz"} == pytest.approx(PAR2)
    assert [(s.name, s.solved) for s in ranking(t, P)] == [("y", 3), ("x", 2), ("z", 1)]
    assert score(t.puzzles, ["y"], P).mean == pytest.approx(PAR2["y"] / 4)


def test_the_virtual_best_takes_the_fastest_finished_configuration_on_each_puzzle():
    t = table()
    vbs = score(t.puzzles, t.configs, P, VIRTUAL_BEST)
    assert (vbs.solved, vbs.par2) == (3, pytest.approx(VBS))
    chosen = {p.label: p.entries[VIRTUAL_BEST] for p in with_virtual_best(t).puzzles}
    assert chosen["a.txt"].runs[0]["config"] == "x" and chosen["c.txt"].runs[0]["config"] == "y"
    assert chosen["b.txt"].median_s == 0.5 and not chosen["d.txt"].finished


def test_each_configuration_s_share_of_the_virtual_best():
    shares = {c.name: c for c in contributions(table(), P)}
    # alone fastest: x on a, y on c (b is a tie); alone finished: y on c
    assert [(shares[c].fastest, shares[c].only) for c in "xyz"] == [(1, 0), (1, 1), (0, 0)]
    without_x = 2 + 0.5 + 4 + P  # y takes a
    without_y = 1 + 0.5 + P + P  # c unfinished, z takes b
    without_z = VBS  # y ties z on b
    assert shares["x"].loss == pytest.approx(without_x - VBS)
    assert shares["y"].loss == pytest.approx(without_y - VBS)
    assert shares["z"].loss == pytest.approx(without_z - VBS)


def test_the_timeout_comes_from_the_meta_else_the_records_and_unknown_makes_par2_endless():
    assert timeout_of({"settings": {"timeout": 7}}, RUNS) == 7.0
    assert timeout_of({}, [{"timeout": 3}, {"timeout": 5}, {}]) == 5.0
    assert timeout_of({}, RUNS) is None
    t, endless = table(), penalty_of(None)
    assert score(t.puzzles, ["y"], endless).par2 == INF
    finished_all = [p for p in t.puzzles if p.label in ("a.txt", "b.txt")]
    assert score(finished_all, ["x"], endless).par2 == pytest.approx(1 + 3)


def test_puzzles_group_by_size_in_order_of_cells_by_kind_colors_rule_and_set():
    t = table()
    assert [(g.label, [p.label for p in g.puzzles]) for g in group_by(t.puzzles, ["size"])] \
        == [("5\u00d75", ["a.txt", "b.txt"]), ("7\u00d77", ["c.txt"]), ("10\u00d710", ["d.txt"])]
    assert [g.label for g in group_by(t.puzzles, ["kind"])] == ["square", "hex"]
    assert [g.label for g in group_by(t.puzzles, ["colors", "kind"])] == \
        ["4 \u00b7 square", "4 \u00b7 hex", "9 \u00b7 square"]
    assert [g.label for g in group_by(t.puzzles, ["set"])] == ["\u2014"]  # no record names one
    rules = {"rules": {"self_touch": False}}
    assert [g.label for g in group_by(t.puzzles, ["rule"], rules)] == ["self-touch off"]
    assert rule_label("corner") == "corner"
    named = tabulate([{**r, "set": "big" if r["rows"] > 5 else "small"} for r in RUNS])
    assert [len(g.puzzles) for g in group_by(named.puzzles, ["set"])] == [2, 2]
    with pytest.raises(ValueError, match="no grouping shape"):
        group_by(t.puzzles, ["shape"])


def test_grouped_scores_add_up_to_the_whole():
    t = table()
    groups = grouped_scores(t, ["size"], P)
    for i, c in enumerate(t.configs):
        assert sum(scores[i].par2 for _, scores, _ in groups) == pytest.approx(PAR2[c])
    assert sum(vbs.par2 for _, _, vbs in groups) == pytest.approx(VBS)
    small = groups[0][1]
    assert [(s.name, s.solved, s.par2) for s in small] == [
        ("x", 2, pytest.approx(4)), ("y", 2, pytest.approx(2.5)), ("z", 1, pytest.approx(P + .5))]


def test_the_cactus_lines_count_puzzles_finished_within_each_time():
    from flowsat.bench.plots import cactus_lines

    assert cactus_lines(table(), ["x", "y", "z"]) == {
        "x": [1.0, 3.0], "y": [0.5, 2.0, 4.0], "z": [0.5], VIRTUAL_BEST: [0.5, 1.0, 4.0]}


def test_a_pair_panel_puts_what_one_did_not_finish_on_the_edge():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from flowsat.bench.plots import pair

    fig, ax = plt.subplots()
    pair(ax, table().puzzles, "x", "y", edge=TIMEOUT, low=0.1)
    points = sorted(map(tuple, ax.collections[0].get_offsets().tolist()))
    plt.close(fig)
    assert points == sorted([(1.0, 2.0), (3.0, 0.5), (TIMEOUT, 4.0), (TIMEOUT, TIMEOUT)])


def md_table(text: str, heading: str) -> list[dict[str, str]]:
    part = text.split(heading, 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip() for c in ln.strip("|").split("|")] for ln in part.splitlines()
            if ln.startswith("|")]
    return [dict(zip(rows[0], r, strict=True)) for r in rows[2:]]


def bench_folder(folder: Path, records: list[dict], timeout: float | None = TIMEOUT) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / RESULTS).write_text("".join(json.dumps(r) + "\n" for r in records))
    settings = {"timeout": timeout} if timeout is not None else {}
    (folder / META).write_text(json.dumps({"settings": settings, "baseline": "x",
                                           "configs": [{"name": c} for c in "xyz"]}))
    return folder


def test_the_report_ranks_the_configurations_and_gives_the_virtual_best(tmp_path):
    folder = bench_folder(tmp_path, RUNS)
    written = write_report(folder, plots=False)
    assert folder / "report.html" in written
    text = (folder / "report.md").read_text()
    rows = md_table(text, "## Competition")
    assert [r["configuration"] for r in rows] == ["`y`", "`x`", "`z`", f"**{VIRTUAL_BEST}**"]
    for r in rows[:3]:
        name = r["configuration"].strip("`")
        assert float(r["PAR-2 (s)"]) == pytest.approx(PAR2[name], rel=1e-3)
    assert float(rows[3]["PAR-2 (s)"]) == pytest.approx(VBS, rel=1e-3)
    assert rows[0]["alone finished"] == "1" and rows[3]["finished"] == "3"
    summary = md_table(text, "## Summary")[-1]
    assert summary["configuration"] == f"**{VIRTUAL_BEST}**" and summary["solved"] == "3"
    assert [r["size"] for r in md_table(text, "## By size")] == ["5\u00d75", "7\u00d77",
                                                                 "10\u00d710"]
    assert [r["kind"] for r in md_table(text, "## By kind")] == ["square", "hex"]
    assert "## By set" not in text
    sheet = {(r["puzzle"], r["config"]): r for r in csv.DictReader(
        (folder / "report.csv").open())}
    assert float(sheet["a.txt", "x"]["par2_s"]) == 1.0
    assert float(sheet["a.txt", "z"]["par2_s"]) == float(sheet["c.txt", "z"]["par2_s"]) == P


def test_runs_that_name_their_set_get_a_table_by_set(tmp_path):
    named = [{**r, "set": "big" if r["rows"] > 5 else "small"} for r in RUNS]
    write_report(bench_folder(tmp_path, named), plots=False)
    rows = md_table((tmp_path / "report.md").read_text(), "## By set")
    assert [(r["set"], r["puzzles"]) for r in rows] == [("big", "2"), ("small", "2")]
    assert rows[1]["`x`"] == f"2 \u00b7 {1 + 3:.3g}"


def test_without_a_known_timeout_par2_of_the_unfinished_is_a_dash(tmp_path):
    write_report(bench_folder(tmp_path, RUNS, timeout=None), plots=False)
    text = (tmp_path / "report.md").read_text()
    assert "timeout is not known" in text
    assert {r["PAR-2 (s)"] for r in md_table(text, "## Competition")} == {"\u2014"}


def test_markdown_inline_is_escaped_and_formatted():
    assert inline("a <b> & `x<y>` **bold** *it* 2 * 3") == \
        "a &lt;b&gt; &amp; <code>x&lt;y&gt;</code> <strong>bold</strong> <em>it</em> 2 * 3"
    assert inline("one ` alone") == "one ` alone"


def test_inline_svgs_keep_their_ids_apart():
    svg = '<svg><defs><path id="m1"/><clipPath id="p1"/></defs>' \
          '<use xlink:href="#m1" fill="#m1aaaa" clip-path="url(#p1)"/></svg>'
    out = unique_ids(svg, "f2-")
    assert 'id="f2-m1"' in out and 'href="#f2-m1"' in out and "url(#f2-p1)" in out
    assert 'fill="#m1aaaa"' in out  # only whole ids are renamed


def test_the_page_has_the_report_s_tables_and_lists(tmp_path):
    (tmp_path / "plots").mkdir()
    (tmp_path / "plots" / "one.svg").write_text('<?xml version="1.0"?>\n<svg id="a"></svg>')
    page = write_html(tmp_path / "r.html", "# Title\n\ntext *em*\n\n- one\n  more\n- two\n\n"
                      "| a | b |\n| --- | --- |\n| `c` | 1,000 |\n\n![one](plots/one.svg)\n\n"
                      "![gone](plots/gone.svg)\n", tmp_path)
    html = page.read_text()
    assert "<title>Title</title>" in html and "<p>text <em>em</em></p>" in html
    assert "<ul><li>one more</li><li>two</li></ul>" in html
    assert '<td><code>c</code></td><td class="n">1,000</td>' in html
    assert '<figure><svg id="f1-a"></svg>' in html and "gone.svg missing" in html
    assert "<?xml" not in html


class Tags(HTMLParser):
    """The number of each tag in a page, and every external address it refers to."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: dict[str, int] = {}
        self.external: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] = self.tags.get(tag, 0) + 1
        self.external += [v for k, v in attrs if k in ("src", "href") and v
                          and re.match(r"[a-z]+:", v)]


def read_tags(html: str) -> Tags:
    found = Tags()
    found.feed(html)
    return found


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser") or \
        shutil.which("google-chrome")
    if not found:
        pytest.skip("no chromium (apt-get install chromium) to open report.html in")
    return found


def browse(page: Path, profile: Path, *args: str) -> subprocess.CompletedProcess:
    """Chromium headless on the page, offline, with a profile of its own."""
    return subprocess.run(
        [chromium(), "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-first-run", f"--user-data-dir={profile}", *args, page.as_uri()],
        capture_output=True, text=True, timeout=120, check=True)


def test_a_real_bench_s_page_opens_in_a_browser_with_its_tables_and_plots(tmp_path):
    chromium()
    puzzles = [str(PUZZLES / "small" / "5x5" / f"5x5-000{n}.txt") for n in (1, 2)]
    out = tmp_path / "bench"
    subprocess.run([sys.executable, "-m", "flowsat", "bench", *puzzles, "--backends",
                    "sat,astar", "--encodings", "edges-binary", "--solvers", "cadical195",
                    "--no-baselines", "--timeout", "5", "--out", str(out)],
                   cwd=ROOT, capture_output=True, check=True, timeout=300)
    page, md = out / "report.html", (out / "report.md").read_text()
    plots = sorted((out / "plots").glob("*.svg"))
    assert {"cactus.svg", "pairs.svg"} <= {p.name for p in plots}
    assert md.count("](plots/") == len(plots)

    dom = browse(page, tmp_path / "profile", "--dump-dom").stdout
    page_tags = read_tags(dom)
    tags = page_tags.tags
    assert tags["table"] == len(re.findall(r"^\| --- ", md, re.M))
    assert tags["svg"] == len(plots) == tags["figure"]
    assert "script" not in tags and "img" not in tags and not page_tags.external
    assert ">Competition</h2>" in dom and f"<strong>{VIRTUAL_BEST}</strong>" in dom

    shot = tmp_path / "page.png"
    browse(page, tmp_path / "profile", f"--screenshot={shot}", "--window-size=1000,3000")
    import matplotlib.image

    pixels = matplotlib.image.imread(shot)[..., :3]
    dark = (pixels.mean(axis=2) < 0.5).mean()  # text, lines, table borders: not a blank page
    assert 0.002 < dark < 0.5 and not math.isclose(pixels.std(), 0)
