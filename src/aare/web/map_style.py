"""Colours, unit abbreviations and text sizing for the SVG map."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class PowerStyle:
    """`fill` for territories a power controls, `ink` for its unit chips and marks."""

    fill: str
    ink: str


POWERS: dict[str, PowerStyle] = {
    "Russia": PowerStyle("#d98b7e", "#8c2d22"),
    "Germany": PowerStyle("#a4abb3", "#465059"),
    "United Kingdom": PowerStyle("#ddc48f", "#86662a"),
    "Japan": PowerStyle("#f1b46c", "#b25e0e"),
    "United States": PowerStyle("#a3c58c", "#3e6a2e"),
}
NEUTRAL = PowerStyle("#ece5d3", "#6e6655")
SEA = "#bcd6ea"
SEA_DEEP = "#aacbe3"
ICE = "#e4edf3"
OFF_BOARD = "#e2ded4"
TEXT = "#1d2833"
SEA_TEXT = "#2b5677"

# Short names for unit stacks, in the order they are listed.
UNIT_ABBREV: dict[str, str] = {
    "infantry": "inf",
    "artillery": "art",
    "armour": "arm",
    "fighter": "ftr",
    "bomber": "bmb",
    "transport": "trn",
    "submarine": "sub",
    "destroyer": "dd",
    "carrier": "cv",
    "battleship": "bb",
    "aa_gun": "aa",
    "factory": "ic",
}

CSS = f"""
.land path.shape {{ stroke: none; }}
.sea path.shape {{ fill: {SEA}; stroke: none; }}
.space:hover path.shape {{ filter: brightness(1.07); }}
.lines path {{ fill: none; pointer-events: none; stroke-linejoin: round; stroke-linecap: round; }}
.lines .sea {{ stroke: #ffffff; stroke-opacity: 0.75; stroke-width: 0.9; stroke-dasharray: 3 2.5; }}
.lines .border {{ stroke: #6b5f4c; stroke-width: 0.7; stroke-opacity: 0.85; }}
.lines .coast {{ stroke: #41617b; stroke-width: 1.1; }}
.tokens {{ pointer-events: none; }}
text {{ fill: {TEXT}; }}
.name {{ font-weight: 600; letter-spacing: 0.02em; paint-order: stroke; stroke: #ffffff; stroke-opacity: 0.55;
        stroke-width: 2; stroke-linejoin: round; }}
.zone {{ fill: {SEA_TEXT}; font-weight: 700; }}
.ipc {{ font-weight: 700; }}
.chip text {{ fill: #ffffff; font-weight: 600; }}
.legend text {{ font-size: 11px; }}
"""


def slug(name: str) -> str:
    """An id-safe form of a space name: "Karelia S.S.R." -> "karelia-s-s-r"."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def text_width(text: str, size: float) -> float:
    """Rough width of text in a sans-serif font of `size` units."""
    return sum(0.36 if c in "il.:,' " else 0.62 if c.isupper() else 0.55 for c in text) * size


def power_style(power: str | None, board_colour: str | None = None) -> PowerStyle:
    if power is None:
        return NEUTRAL
    if power in POWERS:
        return POWERS[power]
    ink = board_colour or "#555555"
    return PowerStyle(_tint(ink, 0.5), ink)


def _tint(colour: str, amount: float) -> str:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    r, g, b = (round(v + (255 - v) * amount) for v in (r, g, b))
    return f"#{r:02x}{g:02x}{b:02x}"
