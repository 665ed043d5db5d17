"""No import circles in flowsat/: every module's imports, read from its source (ast), make a
graph of flowsat's modules that must have no cycle.

Every import counts, wherever it is: at the top, inside a function (it runs later, but it
still ties the two modules together) and under `if TYPE_CHECKING:` (it never runs, but the
module is written against the other one's names: a circle of types is a circle of design).
An import points to the module it names: `import a.b` and `from a import b` (b a module) to
`a.b`, `from a import name` to `a`. The packages Python runs first on the way (`a` for
`a.b`) are no edge: a package that imports its own modules is how packages are made.
`importlib.import_module("a.b")` with the name written out counts as `import a.b`; names
made at run time (a registry's strings) are not seen.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import flowsat

ROOT = Path(flowsat.__file__).parent
# Circles known to be there and owned by others, each as the modules that import one another
# round (the lead empties this list as they are fixed): the test fails on any other, and on
# one of these that takes in more modules.
ALLOWED: list[set[str]] = []  # none left: every circle is a failure


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    """flowsat's modules by name."""
    return {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The flowsat modules a module imports, anywhere in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant)):
            found.add(node.args[0].value)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package, one level up per dot after the first
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([base] if base else [])])
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {m for m in found if m in known}


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imported(name, path, set(found)) - {name} for name, path in found.items()}


def tangles(edges: dict[str, set[str]]) -> list[set[str]]:
    """The graph's strongly connected parts of more than one module (Tarjan): in each, every
    module imports every other one, through the others."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    parts: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = set()
            while True:
                w = stack.pop()
                part.add(w)
                if w == v:
                    break
            parts.append(part)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return [part for part in parts if len(part) > 1]


def circle(edges: dict[str, set[str]], part: set[str]) -> tuple[str, ...]:
    """A shortest way round from the part's smallest module back to it, within the part."""
    first = min(part)
    paths = {first: (first,)}
    todo = [first]
    while todo:
        v = todo.pop(0)
        for w in sorted(edges[v] & part):
            if w == first:
                return paths[v]
            if w not in paths:
                paths[w] = (*paths[v], w)
                todo.append(w)
    raise AssertionError(f"no way round {part}")


def test_flowsat_has_no_import_circles():
    edges = graph()
    found = [part for part in tangles(edges) if part not in ALLOWED]
    assert not found, "import circles: " + "; ".join(
        f"{' -> '.join((*(c := circle(edges, part)), c[0]))} (modules in circles: "
        f"{', '.join(sorted(part))})" for part in found)


def test_the_reader_finds_every_kind_of_import(tmp_path, monkeypatch):
    package = tmp_path / "flowsat"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("from flowsat.sub import a\n")
    (package / "sub" / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import b\n")
    (package / "sub" / "b.py").write_text("def f():\n    from flowsat.sub.c import x\n")
    (package / "sub" / "c.py").write_text("import flowsat.sub.a\nx = 1\n")
    (package / "d.py").write_text("import importlib\nimportlib.import_module('flowsat.sub.c')\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", package)
    edges = graph()
    assert edges["flowsat.sub"] == {"flowsat.sub.a"}  # a package importing its own module
    assert edges["flowsat.d"] == {"flowsat.sub.c"}
    assert tangles(edges) == [{"flowsat.sub.a", "flowsat.sub.b", "flowsat.sub.c"}]
    assert circle(edges, tangles(edges)[0]) == ("flowsat.sub.a", "flowsat.sub.b",
                                                "flowsat.sub.c")
