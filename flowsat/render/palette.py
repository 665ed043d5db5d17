"""Colors for the letters: the 16 of the 2016 palette, then distinct generated ones."""

from __future__ import annotations

import colorsys

RGB = tuple[int, int, int]

PALETTE: dict[str, RGB] = {
    "R": (255, 0, 0), "B": (0, 0, 255), "Y": (238, 238, 0), "G": (0, 128, 0),
    "O": (255, 128, 0), "C": (0, 255, 255), "M": (255, 0, 255), "m": (165, 42, 42),
    "P": (128, 0, 128), "A": (166, 166, 166), "W": (255, 255, 255), "g": (0, 255, 0),
    "T": (189, 183, 107), "b": (0, 0, 139), "c": (0, 139, 139), "p": (255, 20, 147),
}


def palette(colors: list[str]) -> dict[str, RGB]:
    """A color for each letter: the 2016 one where it has one, else hues spread by the golden
    angle in order of appearance, so that neighbors in the order look far apart."""
    out, n = {}, 0
    for letter in colors:
        if letter in PALETTE:
            out[letter] = PALETTE[letter]
        else:
            hue = (0.1 + n * 0.618034) % 1.0
            light = (0.55, 0.7, 0.4)[n % 3]
            r, g, b = colorsys.hls_to_rgb(hue, light, 0.85)
            out[letter] = (round(r * 255), round(g * 255), round(b * 255))
            n += 1
    return out
