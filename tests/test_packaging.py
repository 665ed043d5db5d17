"""The installed package holds every subpackage of the source tree and the encoding specs."""

from __future__ import annotations

import tomllib

from tests.conftest import ROOT


def test_every_package_is_listed_in_pyproject():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"])
    found = {".".join(p.relative_to(ROOT).parent.parts)
             for p in (ROOT / "flowsat").rglob("__init__.py")}
    assert found | {"flowsat.encodings"} == listed
