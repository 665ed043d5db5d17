"""The rules a solution obeys, carried with the run (one object, not flags in every signature)."""

from __future__ import annotations

from typing import NamedTuple


class Rules(NamedTuple):
    """`self_touch`: a flow may run beside itself (off: two cells of one flow joined by an open
    link are consecutive on it; a bridge's two passes do not count). `fill_all`: every cell is
    covered (off: cells may stay empty, as in Nikoli-style Numberlink). (A named tuple: as a
    frozen dataclass it cost every start some 3 M instructions.)"""

    self_touch: bool = False
    fill_all: bool = True

    @property
    def name(self) -> str:
        """A short name, e.g. for reports: 'no-touch', 'touch', 'no-touch,empty'."""
        return ("touch" if self.self_touch else "no-touch") + ("" if self.fill_all else ",empty")

    def record(self) -> dict[str, bool]:
        """The rules as every JSON record states them: which puzzle was answered."""
        return {"self_touch": self.self_touch, "fill_all": self.fill_all}


DEFAULT_RULES = Rules()
