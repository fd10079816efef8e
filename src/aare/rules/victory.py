"""Victory by cities: the side holding its number of victory cities at the end of a round wins."""

from __future__ import annotations

from typing import Any

from aare.events import GameEnded

CITIES = ("victory cities", "LHTR-VICTORY-check-end-of-round")


def city_victory(ruleset: Any, state: Any) -> str | None:
    """The side that holds at least its `victory_thresholds` count of the ruleset's victory cities, or None."""
    needed: dict[str, int] = ruleset.modify("victory_thresholds", {})
    held: dict[str, int] = {}
    for territory in ruleset.victory_cities():
        owner = state.owners.get(territory)
        if owner is not None:
            side = ruleset.board.side_of(owner)
            held[side] = held.get(side, 0) + 1
    winners = [side for side, n in held.items() if side in needed and n >= needed[side]]
    return winners[0] if winners else None


def game_won(ruleset: Any, state: Any, winner: str) -> GameEnded:
    """The end of a game `winner` won by the ruleset's victory conditions, with the reason and rule the
    `victory_reason` hook gives (by default: victory cities)."""
    reason, rule = ruleset.modify("victory_reason", CITIES, state=state, winner=winner)
    return GameEnded(winner, str(reason), str(rule))
