"""Boards as PNG pictures: the SVG picture rasterized by CairoSVG (the optional `png` extra)."""

from __future__ import annotations

from flowsat.result import UsageError

INSTALL = "pip install 'flowsat[png]'"


def require() -> None:
    """Raise a UsageError saying how to install CairoSVG when it cannot be loaded."""
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError) as err:  # OSError: the cairo library itself is missing
        raise UsageError(f"--png needs CairoSVG ({err}); install it with: {INSTALL}") from None


def png(svg_text: str) -> bytes:
    """The PNG image of an SVG picture."""
    require()
    import cairosvg

    return cairosvg.svg2png(bytestring=svg_text.encode())
