"""Powers and sides, as listed in a board file's `[[power]]` tables."""

from __future__ import annotations

from dataclasses import dataclass

SIDES = ("Axis", "Allies")


@dataclass(frozen=True)
class Power:
    """A playing power: its side, capital territory, map colour and place in the board's order (0 = first);
    `played_by` names the power whose player plays it, when it has no player of its own."""

    name: str
    side: str
    capital: str
    colour: str
    order: int
    aliases: tuple[str, ...] = ()
    played_by: str | None = None
