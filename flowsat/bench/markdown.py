"""The pieces of the bench report's Markdown: numbers as table cells, rows, table heads."""

from __future__ import annotations

from typing import Any

from flowsat.bench.summary import INF, VIRTUAL_BEST, X


def ms(seconds: float | None) -> str:
    """Milliseconds, three significant digits; an endless time is a dash."""
    if seconds is None or seconds == INF:
        return "—"
    value = seconds * 1000
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


def times(x: float | None) -> str:
    return "—" if x is None else f"{X}{x:.2f}"


def number(x: float | None) -> str:
    return "—" if x is None else f"{x:,.0f}" if x == int(x) else f"{x:,.1f}"


def number_2(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def row(*cells: Any) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def table_head(*cells: str) -> list[str]:
    return [row(*cells), row(*["---"] * len(cells))]


def name_cell(name: str) -> str:
    """A configuration's name as code; the virtual best in bold, being none."""
    return f"**{name}**" if name == VIRTUAL_BEST else f"`{name}`"


def seconds_cell(x: float) -> str:
    """Seconds, three significant digits; an endless time (the penalty unknown) a dash."""
    return "—" if x == INF else f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def ratio(mine: float | None, base: float | None) -> str:
    """A time over the baseline's, as the report writes ratios."""
    return times(mine / base) if mine is not None and base else "—"
