"""Straight bid (AARe): before the game each of the two players bids the IPCs he would need to play the Axis;
the lower bid plays the Axis and receives that many IPCs (AARE-BID-*).

The engine knows powers, not people: a player bids for the seat he holds when the game is set up, through the
first power of that side in turn order (Russia for the Allies seat, Germany for the Axis seat), one after the
other. When both have bid, the lower bid wins the Axis; a tie is settled by a die (1-3: the Allies seat,
4-6: the Axis seat). When the winner sat with the Allies, the record says the players change sides
(`swap`). The Axis then spends the bid in the setup-bid phase (`aare.phases.setup_bid`): units under the
placement restriction, cash (`bid_cash`), or both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from aare.actions import Bid
from aare.economy.bids import BID
from aare.errors import IllegalAction
from aare.events import ExtraSet, PhaseEntered
from aare.phases.base import PhaseHandler, TurnContext, register_phase
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

PHASE = "straight-bid"
KEY = "straight_bid"
AXIS, ALLIES = "Axis", "Allies"
SEATS = (ALLIES, AXIS)
BID_CHOICES = range(0, 13)
R_SUBMIT = "AARE-BID-submit-bids"
R_LOWER = "AARE-BID-lower-bid-plays-axis"
R_TIE = "AARE-BID-tie-coin-flip"


def record(state: GameState) -> dict[str, Any]:
    """The bidding record: `bids` by seat, then `axis` (the seat that plays the Axis), `amount`, `swap`."""
    raw = state.extra.get(KEY)
    base: dict[str, Any] = {"bids": {}, "axis": None, "amount": None, "swap": False}
    return {**base, **raw} if isinstance(raw, Mapping) else base


def seat_bidder(ruleset: Ruleset, seat: str) -> str:
    """The power that bids for `seat`: the side's first power in turn order."""
    return next(p.name for p in ruleset.board.powers if p.side == seat)


def settled_amount(state: GameState | None) -> int:
    """The IPCs the Axis received from the bidding (0 before it is settled)."""
    if state is None:
        return 0
    return int(record(state)["amount"] or 0)


def winner(bids: Mapping[str, int], flip: int | None) -> str:
    """The seat that plays the Axis: the lower bid, or on a tie the die (1-3 Allies seat, 4-6 Axis seat)."""
    if bids[ALLIES] != bids[AXIS]:
        return ALLIES if bids[ALLIES] < bids[AXIS] else AXIS
    return ALLIES if flip is not None and flip <= 3 else AXIS


class StraightBidPhase(PhaseHandler):
    """Round 0: each seat's bid, then the outcome."""

    name = PHASE
    title = "Bid for the Axis"

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        if space is None:
            yield from (Bid(amount=n) for n in BID_CHOICES)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Bid):
            super().events_for(ctx, action)
            return
        seat = ctx.ruleset.board.side_of(ctx.power)
        rec = record(ctx.state)
        if seat in rec["bids"]:
            raise IllegalAction(f"the {seat} seat has already bid {rec['bids'][seat]}", R_SUBMIT)
        ctx.emit(ExtraSet(KEY, {**rec, "bids": {**rec["bids"], seat: action.amount}}, R_SUBMIT))

    def can_end(self, ctx: TurnContext) -> None:
        seat = ctx.ruleset.board.side_of(ctx.power)
        if seat not in record(ctx.state)["bids"]:
            raise IllegalAction(f"the player seated with the {seat} bids first ('bid N')", R_SUBMIT)

    def on_exit(self, ctx: TurnContext) -> None:
        ruleset = ctx.ruleset
        rec = record(ctx.state)
        missing = [seat for seat in SEATS if seat not in rec["bids"]]
        if missing:
            ctx.emit(PhaseEntered(0, seat_bidder(ruleset, missing[0]), PHASE))
            return
        bids = {seat: int(rec["bids"][seat]) for seat in SEATS}
        flip = None
        if bids[ALLIES] == bids[AXIS]:
            [flip] = ctx.roll(1, "coin flip for the Axis (1-3: the player seated with the Allies, 4-6: the Axis)")
        axis = winner(bids, flip)
        amount = bids[axis]
        outcome = {**rec, "axis": axis, "amount": amount, "swap": axis != AXIS}
        ctx.emit(ExtraSet(KEY, outcome, R_TIE if flip is not None else R_LOWER))
        if amount > 0:
            ctx.emit(ExtraSet(BID, {AXIS: amount}, R_LOWER))
            ctx.emit(PhaseEntered(0, seat_bidder(ruleset, AXIS), "setup-bid"))
        else:
            ctx.emit(PhaseEntered(1, ruleset.turn_order(1).turns[0].powers[0], ruleset.phase_table()[0].name))


STRAIGHT_BID = register_phase(StraightBidPhase())
