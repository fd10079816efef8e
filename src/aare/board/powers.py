"""Powers and sides, as listed in a board file's `[[power]]` tables, and the colour checks of those tables."""

from __future__ import annotations

import re
from dataclasses import dataclass

SIDES = ("Axis", "Allies")
WHITE = "#ffffff"
# WCAG AA for normal text: a power's name written in its `text` colour on its `ink` must reach this ratio.
MIN_CONTRAST = 4.5
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


@dataclass(frozen=True)
class Power:
    """A playing power: its side, capital territory (None for a power without one), colours and place in the
    board's order (0 = first); `played_by` names the power whose player plays it, when it has no player of its own.

    `colour` fills the territories it controls on the map; `ink` is its strong colour (unit chips on the map,
    name badges in the browser) and `text` the colour written on the ink.
    """

    name: str
    side: str
    capital: str | None
    colour: str
    order: int
    aliases: tuple[str, ...] = ()
    played_by: str | None = None
    ink: str = "#555555"
    text: str = WHITE


def is_colour(value: str) -> bool:
    """Whether `value` is a colour of the form `#rrggbb`."""
    return bool(_COLOUR.match(value))


def luminance(colour: str) -> float:
    """The relative luminance of a `#rrggbb` colour (WCAG 2)."""

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(colour[i : i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two `#rrggbb` colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
