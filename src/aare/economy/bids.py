"""Bids: extra IPCs a side receives to balance the game, spent on units placed before round 1.

Reading (LHTR-SETUP-bid-for-sides, LHTR-SETUP-bid-placement): the options `bid_axis` and `bid_allies`
give each side a bid fund. In the `setup-bid` phase of round 0 the powers of each side with a fund take
turns in turn order; each buys and places units in one step (`place`), paid from its side's fund, free of
production limits: land and air units in a territory the power controls (with the `bid_needs_own_unit`
option: only where it already has a unit), ships and carrier-borne fighters in a sea zone holding one of
its own units and no enemy unit, a complex where none stands. What the last power of a side leaves unspent
goes to its treasury.
"""

from __future__ import annotations

from collections.abc import Mapping

from aare.errors import IllegalAction
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

BID = "bid"
RULE = "LHTR-SETUP-bid-placement"


def side_for_lowest_bid(bids: Mapping[str, int]) -> tuple[str, int]:
    """Who plays the side being bid for: the lowest bid wins (the first listed on a tie); returns
    (bidder, bid) (LHTR-SETUP-bid-for-sides)."""
    if not bids:
        raise IllegalAction("nobody has bid", "LHTR-SETUP-bid-for-sides")
    for bidder, amount in bids.items():
        if amount < 0:
            raise IllegalAction(f"{bidder}'s bid {amount} is negative", "LHTR-SETUP-bid-for-sides")
    bidder = min(bids, key=lambda b: bids[b])
    return bidder, bids[bidder]


def funds(state: GameState) -> dict[str, int]:
    """Side -> unspent bid IPCs."""
    return dict(state.extra.get(BID) or {})


def bid_funds(ruleset: Ruleset, state: GameState | None = None) -> dict[str, int]:
    """Side -> the bid IPCs it was granted before the game (the `bid_funds` hook; LHTR: the options `bid_axis`
    and `bid_allies`; a straight bid: what the bidding settled)."""
    granted: dict[str, int] = ruleset.modify("bid_funds", {}, state=state)
    return {side: int(n) for side, n in granted.items()}


def bidders(ruleset: Ruleset, state: GameState | None = None) -> list[str]:
    """The powers that place bid units, in turn order; a power played by another power's player (`played_by`)
    takes no part: it has no treasury of its own to keep what is left."""
    granted = bid_funds(ruleset, state)
    return [p.name for p in ruleset.board.powers if granted.get(p.side, 0) > 0 and not p.played_by]


def last_of_side(ruleset: Ruleset, power: str, state: GameState | None = None) -> bool:
    """Whether `power` is its side's last bidder."""
    side = ruleset.board.side_of(power)
    order = [p for p in bidders(ruleset, state) if ruleset.board.side_of(p) == side]
    return bool(order) and order[-1] == power
