"""`report.html`: the markdown report as one self-contained page, its SVG plots inline, readable
offline (no external asset, no script).

Only the markdown the report writes is read: headings, paragraphs, `-` and `1.` lists, pipe
tables, indented code, image lines, and `code`, **bold** and *emphasis* in text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

from flowsat.atomic import write_file

STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 80em;
       padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: .5em 0 1em; font-size: 13px; }
.wide { overflow-x: auto; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: left; }
td.n { text-align: right; white-space: nowrap; }
th { background: #f0f0f0; }
tr:nth-child(even) td { background: #fafafa; }
code { font-size: 12px; }
pre { background: #f5f5f5; padding: .5em; overflow-x: auto; }
figure { margin: 1em 0; }
figure svg { max-width: 100%; height: auto; }
"""
IMAGE = re.compile(r"!\[(?P<alt>[^\]]*)\]\((?P<path>[^)]+)\)")
HEADING = re.compile(r"(#{1,6}) (.*)")
ITEM = {"ul": re.compile(r"- (.*)"), "ol": re.compile(r"\d+\. (.*)")}
SVG_ID = re.compile(r'\bid="([^"]+)"')
NUMBER = re.compile(r"[\d,.·\u00d7%e+\- —]+")  # a cell of figures, right-aligned


def write_html(path: Path, markdown: str, folder: Path) -> Path:
    """The page of a markdown report; images are read from under `folder`."""
    title = next((m.group(2) for line in markdown.splitlines()
                  if (m := HEADING.fullmatch(line)) and m.group(1) == "#"), "flowsat report")
    body = "\n".join(blocks(markdown.splitlines(), folder))
    return write_file(path, f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
                    f"<title>{html.escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n"
                    f"<body>\n{body}\n</body>\n</html>\n")


def blocks(lines: list[str], folder: Path) -> Iterator[str]:
    """The HTML of each block of the markdown, in order."""
    figures = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif m := HEADING.fullmatch(line):
            level = len(m.group(1))
            yield f'<h{level} id="{slug(m.group(2))}">{inline(m.group(2))}</h{level}>'
            i += 1
        elif m := IMAGE.fullmatch(line.strip()):
            figures += 1
            yield figure(m.group("alt"), folder / m.group("path"), f"f{figures}-")
            i += 1
        else:
            kind, taken = block_kind(line), take(lines, i, block_kind(line))
            yield render(kind, taken)
            i += len(taken)


def block_kind(line: str) -> str:
    if line.startswith("|"):
        return "table"
    if line.startswith("    "):
        return "pre"
    return next((k for k, pattern in ITEM.items() if pattern.fullmatch(line)), "p")


def take(lines: list[str], start: int, kind: str) -> list[str]:
    """The lines of the block of `kind` starting at `start`."""
    end = start + 1
    while end < len(lines) and continues(lines[end], kind):
        end += 1
    return lines[start:end]


def continues(line: str, kind: str) -> bool:
    """Whether the line goes on a block of `kind`: not blank, no heading nor image, and of
    the same kind (or, in a list, indented under its item)."""
    if not line.strip() or HEADING.fullmatch(line) or IMAGE.fullmatch(line.strip()):
        return False
    return block_kind(line) == kind or (kind in ITEM and line.startswith("  "))


def render(kind: str, lines: list[str]) -> str:
    if kind == "table":
        return table(lines)
    if kind == "pre":
        return f"<pre><code>{html.escape(chr(10).join(x[4:] for x in lines))}</code></pre>"
    if kind == "p":
        return f"<p>{inline(' '.join(lines))}</p>"
    items = []  # a list: an item goes on over the indented lines after it
    for line in lines:
        if m := ITEM[kind].fullmatch(line):
            items.append(m.group(1))
        else:
            items[-1] += " " + line.strip()
    return f"<{kind}>" + "".join(f"<li>{inline(x)}</li>" for x in items) + f"</{kind}>"


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def table(lines: list[str]) -> str:
    """A pipe table: its first row the head, its second the rule under it."""
    head, *rows = [cells(x) for x in lines[:1] + lines[2:]]
    parts = ['<div class="wide"><table>',
             "<thead><tr>" + "".join(f"<th>{inline(c)}</th>" for c in head) + "</tr></thead>",
             "<tbody>"]
    parts += ["<tr>" + "".join(cell(c) for c in r) + "</tr>" for r in rows]
    return "\n".join([*parts, "</tbody>", "</table></div>"])


def cell(text: str) -> str:
    return f'<td class="n">{inline(text)}</td>' if NUMBER.fullmatch(text) else \
        f"<td>{inline(text)}</td>"


def inline(text: str) -> str:
    """`code`, **bold** and *emphasis*; everything else escaped."""
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick stays as it is
        parts[-2:] = [f"{parts[-2]}`{parts[-1]}"]
    out = []
    for n, part in enumerate(parts):
        if n % 2:
            out.append(f"<code>{html.escape(part)}</code>")
        else:
            part = html.escape(part, quote=False)
            part = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", part)
            out.append(re.sub(r"\*(\S(?:.*?\S)?)\*", r"<em>\1</em>", part))
    return "".join(out)


def slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def figure(alt: str, path: Path, prefix: str) -> str:
    """An SVG file inline, its ids made unique on the page; a note when it is missing."""
    caption = f"<figcaption>{html.escape(alt)}</figcaption>"
    text = path.read_text(encoding="utf-8") if path.suffix == ".svg" and path.is_file() else ""
    if "<svg" not in text:
        return f"<figure><p>({html.escape(alt)}: {html.escape(path.name)} missing)</p>" \
               f"{caption}</figure>"
    return f"<figure>{unique_ids(text[text.find('<svg'):], prefix)}{caption}</figure>"


def unique_ids(svg: str, prefix: str) -> str:
    """The SVG with each of its ids, and every reference to one, prefixed: several SVGs on
    one page must not share an id (matplotlib names its clip paths and markers by content)."""
    ids = set(SVG_ID.findall(svg))
    if not ids:
        return svg
    names = "|".join(map(re.escape, sorted(ids, key=len, reverse=True)))
    return re.sub(rf'(id="|#)({names})(?=["\')])', rf"\1{prefix}\2", svg)
