"""Powers and sides, as listed in a board file's `[[power]]` tables."""

from __future__ import annotations

from dataclasses import dataclass

SIDES = ("Axis", "Allies")


@dataclass(frozen=True)
class Power:
    """A playing power: its side, capital territory, map colour and place in the turn order (0 = first)."""

    name: str
    side: str
    capital: str
    colour: str
    order: int
    aliases: tuple[str, ...] = ()
