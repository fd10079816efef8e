"""Victory by cities: the side holding its number of victory cities at the end of a round wins."""

from __future__ import annotations

from collections.abc import Callable
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


VictoryBy = Callable[[Any, Any], "tuple[str, str, str] | None"]


def victory_hooks(victory_by: VictoryBy) -> dict[str, Callable[..., Any]]:
    """The `victory` and `victory_reason` hooks of a ruleset whose `victory_by(ruleset, state)` gives the side
    that has won with its reason and rule, or None; a winner found before stands."""

    def victory(winner: str | None, ruleset: Any, state: Any, **_: Any) -> str | None:
        if winner is not None:
            return winner
        found = victory_by(ruleset, state)
        return found[0] if found is not None else None

    def victory_reason(reason: tuple[str, str], ruleset: Any, state: Any, winner: str, **_: Any) -> tuple[str, str]:
        found = victory_by(ruleset, state)
        return (found[1], found[2]) if found is not None and found[0] == winner else reason

    return {"victory": victory, "victory_reason": victory_reason}
