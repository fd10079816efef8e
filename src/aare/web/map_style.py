"""Colours, unit abbreviations and text sizing for the SVG map."""

from __future__ import annotations

import re
from dataclasses import dataclass

from aare.board.board import Board
from aare.board.powers import WHITE


@dataclass(frozen=True)
class PowerStyle:
    """`fill` for territories a power controls, `ink` for its unit chips and marks, `text` written on the ink."""

    fill: str
    ink: str
    text: str = WHITE


NEUTRAL = PowerStyle("#ece5d3", "#6e6655")
UNKNOWN = PowerStyle("#aaaaaa", "#555555")  # a name the board does not know (e.g. a side)
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
    "heavy_artillery": "h.art",
    "armour": "arm",
    "heavy_tank": "h.arm",
    "fighter": "ftr",
    "naval_fighter": "nav",
    "bomber": "bmb",
    "dive_bomber": "div",
    "transport": "trn",
    "submarine": "sub",
    "destroyer": "dd",
    "cruiser": "ca",
    "carrier": "cv",
    "battleship": "bb",
    "aa_gun": "aa",
    "factory": "ic",
}

CSS = f"""
.land path.shape {{ stroke: none; }}
.sea path.shape {{ fill: {SEA}; stroke: none; }}
.space:hover path.shape {{ filter: brightness(1.07); }}
.hatch {{ pointer-events: none; }}
.lines path {{ fill: none; pointer-events: none; stroke-linejoin: round; stroke-linecap: round; }}
.lines .sea {{ stroke: #ffffff; stroke-opacity: 0.75; stroke-width: 0.9; stroke-dasharray: 3 2.5; }}
.lines .border {{ stroke: #6b5f4c; stroke-width: 0.7; stroke-opacity: 0.85; }}
.lines .coast {{ stroke: #41617b; stroke-width: 1.1; }}
.lines .crossing {{ stroke: #3a3226; stroke-width: 2.2; stroke-dasharray: 5 3; stroke-opacity: 0.9; }}
.tokens {{ pointer-events: none; }}
text {{ fill: {TEXT}; }}
.name {{ font-weight: 600; letter-spacing: 0.02em; paint-order: stroke; stroke: #ffffff; stroke-opacity: 0.55;
        stroke-width: 2; stroke-linejoin: round; }}
.zone {{ fill: {SEA_TEXT}; font-weight: 700; }}
.ipc {{ font-weight: 700; }}
.chip text {{ fill: {WHITE}; font-weight: 600; }}
.legend text {{ font-size: 11px; }}
"""


def slug(name: str) -> str:
    """An id-safe form of a space name: "North S.S.R." -> "north-s-s-r"."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def text_width(text: str, size: float) -> float:
    """Rough width of text in a sans-serif font of `size` units."""
    return sum(0.36 if c in "il.:,' " else 0.62 if c.isupper() else 0.55 for c in text) * size


def power_styles(board: Board) -> dict[str, PowerStyle]:
    """The colours of each power of `board`, from its board file."""
    return {p.name: PowerStyle(p.colour, p.ink, p.text) for p in board.powers}


def power_style(power: str | None, board: Board) -> PowerStyle:
    """The colours of `power` on `board` (None: neutral)."""
    if power is None:
        return NEUTRAL
    return power_styles(board).get(power, UNKNOWN)
