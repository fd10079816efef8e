"""Seats: who may act for which power. A game is seated by nation (one seat per power, a power that the board
says another power's player plays sitting with that player: China with the United States), by side (one seat
"Allies" and one "Axis", each covering its side's powers) or by power (every power a seat of its own). A seat is
held by a user, by a bot (any bot `aare.ai.bot_names()` offers), or is open; one user may hold several."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from aare.engine import Game
from aare.errors import AareError
from aare.game_log import GameLog
from aare.identity_cache import ByIdentity
from aare.rules.ruleset import load_ruleset
from aare.state.game_state import GameState

SEATINGS = ("nations", "sides", "powers")


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
    """The seats of a game, in turn order (nations, powers) or in order of each side's first power (sides)."""
    if seating not in SEATINGS:
        raise ValueError(f"seating must be one of {SEATINGS}")
    powers = sorted(load_ruleset(ruleset_id, options).board.powers, key=lambda p: p.order)
    if seating == "powers":
        return [p.name for p in powers]
    names = [p.name if seating == "nations" else p.side for p in powers if p.played_by is None]
    return list(dict.fromkeys(names))


def seat_of(state: GameState, seating: str, power: str) -> str:
    """The seat that plays `power` (a power played by another power's player sits with that player, unless
    every power has a seat of its own). Remembered per options mapping (by identity: a game's states share it,
    and a state's parts are never changed in place), ruleset, seating and power."""
    if seating == "powers":
        return power
    known = _SEATS.get(state.options)
    if known is None:
        known = _SEATS.put(state.options, {})
    key = (state.ruleset, seating, power)
    seat = known.get(key)
    if seat is None:
        seat = known[key] = _seat_of(state, seating, power)
    return seat


def _seat_of(state: GameState, seating: str, power: str) -> str:
    board = load_ruleset(state.ruleset, state.options).board
    try:
        player = board.player_of(power)
    except AareError:
        return power
    return player if seating == "nations" else board.side_of(player)


_SEATS: ByIdentity[dict[tuple[str, str, str], str]] = ByIdentity(10_000)
"""Per options mapping: {(ruleset, seating, power): seat}."""


def acting_powers(state: GameState) -> list[str]:
    """The powers that may act now, in turn order: the power whose turn it is, or the one a pending decision
    names (e.g. a defender choosing casualties); in a team turn every member still playing. Remembered for the
    states asked last (by identity: a state is a value), as the door asks it of each state twice."""
    known = _ACTING.get(state)
    if known is not None:
        return list(known)
    powers = Game(GameLog(state)).to_act()
    _ACTING.put(state, tuple(powers))
    return powers


_ACTING: ByIdentity[tuple[str, ...]] = ByIdentity(4_096)
"""The acting powers of the states asked last (one or two per game served; all dropped when full)."""


def acting_power(state: GameState) -> str:
    """The first power that may act now (the power whose turn it is once the game is over)."""
    return next(iter(acting_powers(state)), state.nation)


def seat_powers(state: GameState, seats: Iterable[str]) -> frozenset[str]:
    """The powers the holder of `seats` plays, whose view it gets: a nation seat its power and the powers its
    player plays (`played_by`), a side seat every power of the side (as `seat_of` seats them). A power's seat
    when every power has its own also gets the view of the powers it would play (its allies in a team turn)."""
    board = load_ruleset(state.ruleset, state.options).board
    names = set(seats)
    players = {p.name: board.player_of(p.name) for p in board.powers}
    return frozenset(p for p, player in players.items()
                     if p in names or player in names or board.side_of(player) in names)


def held_by(seats: Mapping[str, Seat], user_id: int | None) -> list[str]:
    """The names of the seats `user_id` holds (none for None: a spectator)."""
    return [s.name for s in seats.values() if user_id is not None and s.user_id == user_id]
