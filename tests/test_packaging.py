"""What a built flowsat holds: setuptools' package discovery, configured in pyproject.toml,
finds every module under flowsat/, and every encoding spec is package data.

(Building a wheel takes some 14 s and the network for its build requirements, so these tests
ask setuptools' discovery what a build would take instead.)"""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

from setuptools.discovery import PackageFinder, PEP420PackageFinder

from tests.conftest import ROOT

SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def discovered() -> set[str]:
    """The packages a build takes, as `[tool.setuptools.packages.find]` configures it."""
    find = SETUPTOOLS["packages"]["find"]
    finder = PEP420PackageFinder if find.get("namespaces", True) else PackageFinder
    return set(finder.find(str(ROOT / find.get("where", ["."])[0]),
                           exclude=find.get("exclude", ()), include=find.get("include", ("*",))))


def package_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).parent.parts)


def sources() -> list[Path]:
    """The files under flowsat/ that are not caches."""
    return [p for p in (ROOT / "flowsat").rglob("*")
            if p.is_file() and "__pycache__" not in p.parts]


def test_discovery_takes_every_module_under_flowsat_and_nothing_else():
    packages = discovered()
    missing = sorted({str(p.relative_to(ROOT)) for p in sources()
                      if p.suffix == ".py" and package_of(p) not in packages})
    assert not missing, f"modules a build leaves out (a folder without __init__.py?): {missing}"
    assert all(p == "flowsat" or p.startswith("flowsat.") for p in packages), packages
    assert {"flowsat", "flowsat.encodings", "flowsat.sat", "flowsat.search.checks"} <= packages


def is_package_data(path: Path, packages: set[str]) -> bool:
    patterns = SETUPTOOLS["package-data"].get(package_of(path), ())
    return package_of(path) in packages and any(fnmatch(path.name, p) for p in patterns)


def test_every_encoding_spec_is_package_data():
    specs = sorted((ROOT / "flowsat" / "encodings").glob("*.toml"))
    assert len(specs) >= 8, specs
    packages = discovered()
    left_out = [str(p.relative_to(ROOT)) for p in sources()
                if p.suffix == ".toml" and not is_package_data(p, packages)]
    assert not left_out, f"files a build leaves out (add them to package-data): {left_out}"


def test_no_spec_is_left_at_the_top_level():
    assert not (ROOT / "encodings").exists(), "the specs live in flowsat/encodings/"
    assert "package-dir" not in SETUPTOOLS, "packages are found, not mapped by hand"

