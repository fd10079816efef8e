"""Seats: who may act for which power. A game is seated by nation (one seat per power) or by side (one seat
"Allies" and one "Axis", each covering its side's powers). A seat is held by a user, by a bot, or is open."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aare.rules.ruleset import load_ruleset
from aare.state.game_state import GameState

SEATINGS = ("nations", "sides")
BOTS = ("random", "pass")


@dataclass(frozen=True)
class Seat:
    name: str
    user_id: int | None = None
    username: str | None = None
    bot: str | None = None

    @property
    def holder(self) -> str:
        if self.bot:
            return f"bot:{self.bot}"
        return f"user:{self.username}" if self.user_id is not None else "open"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.name, "user": self.username, "bot": self.bot, "open": self.is_open}

    @property
    def is_open(self) -> bool:
        return self.user_id is None and self.bot is None


def seat_names(ruleset_id: str, options: Mapping[str, Any], seating: str) -> list[str]:
    """The seats of a game, in turn order (nations) or in order of each side's first power (sides)."""
    if seating not in SEATINGS:
        raise ValueError(f"seating must be one of {SEATINGS}")
    powers = sorted(load_ruleset(ruleset_id, options).board.powers, key=lambda p: p.order)
    names = [p.name if seating == "nations" else p.side for p in powers]
    return list(dict.fromkeys(names))


def seat_of(state: GameState, seating: str, power: str) -> str:
    """The seat that plays `power`."""
    if seating == "nations":
        return power
    side = {p.name: p.side for p in load_ruleset(state.ruleset, state.options).board.powers}
    return side.get(power, power)


def acting_power(state: GameState) -> str:
    """The power that must act now: the one a pending decision names (e.g. a defender choosing casualties),
    else the power whose turn it is."""
    pending = state.pending
    if pending is not None and isinstance(pending.get("power"), str):
        return str(pending["power"])
    return state.nation
