"""Colors for the labels: the 16 letters of the 2016 palette, then distinct generated ones."""

from __future__ import annotations

from functools import cache
from itertools import product

from flowsat.puzzle.model import LABELS

RGB = tuple[int, int, int]

PALETTE: dict[str, RGB] = {  # the 2016 letters, with the values of the 2016 pictures
    "R": (255, 0, 0),  # red
    "B": (0, 0, 255),  # blue
    "Y": (238, 238, 0),  # yellow
    "G": (0, 128, 0),  # green
    "O": (255, 128, 0),  # orange
    "C": (0, 255, 255),  # cyan
    "M": (255, 0, 255),  # magenta
    "m": (165, 42, 42),  # maroon
    "P": (128, 0, 128),  # purple
    "A": (166, 166, 166),  # gray
    "W": (255, 255, 255),  # white
    "g": (0, 255, 0),  # bright green
    "T": (189, 183, 107),  # tan
    "b": (0, 0, 139),  # dark blue
    "c": (0, 139, 139),  # dark cyan
    "p": (255, 20, 147),  # pink
}
BACKGROUND: RGB = (0, 0, 0)  # the board, as in the game
WALL_RGB: RGB = (207, 207, 168)  # walls, and the border of a board that is not plain
MIN_CONTRAST = 4.5  # a generated color against the background (WCAG's ratio for text)
EXTRA = len(LABELS) - len(PALETTE)  # the labels beyond the 16: 77, enough for any board


def palette(colors: list[str]) -> dict[str, RGB]:
    """A color for each label: the 2016 one where it has one, else the generated ones in order
    of appearance."""
    extra = iter(generated())
    return {c: PALETTE[c] if c in PALETTE else next(extra) for c in colors}


@cache
def generated(n: int = EXTRA) -> list[RGB]:
    """`n` colors readable on the background, each as far as can be (in OKLab) from the 16, the
    background and the ones chosen before it: farthest-point picks from a grid of the RGB cube."""
    levels = [round(i * 255 / 8) for i in range(9)]
    candidates = [rgb for rgb in product(levels, repeat=3)
                  if contrast(rgb, BACKGROUND) >= MIN_CONTRAST]
    lab = [oklab(rgb) for rgb in candidates]
    fixed = [oklab(rgb) for rgb in (*PALETTE.values(), BACKGROUND)]
    gap = [min(distance(x, f) for f in fixed) for x in lab]
    chosen: list[RGB] = []
    for _ in range(n):
        best = max(range(len(candidates)), key=gap.__getitem__)
        chosen.append(candidates[best])
        gap = [min(g, distance(x, lab[best])) for g, x in zip(gap, lab, strict=True)]
    return chosen


def linear(channel: int) -> float:
    """An sRGB channel (0..255) as linear light (0..1)."""
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio of two colors, 1 (same luminance) to 21 (white on black)."""
    la, lb = (0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b_)
              for r, g, b_ in (a, b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def oklab(rgb: RGB) -> tuple[float, float, float]:
    """The color in OKLab, where distances follow how different colors look."""
    r, g, b = map(linear, rgb)
    l_ = (0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b) ** (1 / 3)
    m_ = (0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b) ** (1 / 3)
    s_ = (0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b) ** (1 / 3)
    return (0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
            1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
            0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_)


def distance(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2) ** 0.5


def hex_color(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)
