"""Shared pieces of the player-view tests: an AARe game whose first bid is in, and a search for bid values."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from aare.engine import Game
from aare.game_setup import new_game

RULES = "aare-5.0"
SEAL = "AARE-BID-submit-bids"
FIRST_BID = 7
ALLIES = ("Russia", "United Kingdom", "United States")
AXIS = ("Germany", "Japan")


def first_bid(amount: int = FIRST_BID, seed: int = 3) -> Game:
    """A new AARe game in which the Allies seat has bid `amount` (the first decision of the game)."""
    game = Game(new_game(RULES, {}, seed=seed))
    game.apply({"type": "bid", "amount": amount})
    return game


def both_bids(allies: int = FIRST_BID, axis: int = 5) -> Game:
    """Both seats have bid; the Axis seat has not ended its bidding yet."""
    game = first_bid(allies)
    game.apply({"type": "end_phase"})
    game.apply({"type": "bid", "amount": axis})
    return game


def bid_values(value: Any, under_bid: bool = False) -> Iterator[Any]:
    """Every leaf value found under a key that mentions a bid (`straight_bid`, `bids`, `bid`...), and every
    value of a bid action."""
    if isinstance(value, dict):
        inside = under_bid or value.get("type") in ("bid", "bid_cash")
        for key, inner in value.items():
            yield from bid_values(inner, inside or "bid" in str(key).lower())
    elif isinstance(value, list):
        for inner in value:
            yield from bid_values(inner, under_bid)
    elif under_bid and not isinstance(value, bool):
        yield value
