"""AARe 5.0 straight bid (seed "BASE GAME" 3): both players bid for the Axis, the lower bid plays it and spends
the bid on units placed before the game, on first-turn cash, or on both.

The bidding is the `straight-bid` phase of round 0 (`aare.rulesets.aare.straight_bid`); the Axis then places its bid
units with the LHTR `setup-bid` machinery (`aare.economy.bids`, `aare.phases.setup_bid`), only where the
nation controls the territory (or zone) and already has a unit, and may take bid IPCs as cash (`bid_cash`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from aare.actions import BidCash
from aare.economy.bids import BID, funds
from aare.errors import IllegalAction
from aare.events import BankChanged, ExtraSet
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.hidden import Hidden
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aare.straight_bid import AXIS, KEY, PHASE, R_SUBMIT, SEATS, record, seat_bidder, settled_amount

R_CASH = "AARE-BID-spend-as-cash"


def _start(state: Any, ruleset: Any, **_: Any) -> Any:
    """Play starts with the bidding in round 0 (AARE-BID-submit-bids)."""
    if not ruleset.options.get("straight_bid", True):
        return state
    extra = {**state.extra, KEY: record(state)}
    first = seat_bidder(ruleset, ruleset.board.powers[0].side)
    return replace(state, round=0, nation=first, phase=PHASE, extra=extra)


def _bid_funds(granted: dict[str, int], state: Any = None, **_: Any) -> dict[str, int]:
    """The Axis receives the winning (lower) bid (AARE-BID-lower-bid-plays-axis)."""
    amount = settled_amount(state)
    return {**granted, AXIS: amount} if amount > 0 else granted


def _sealed_bids(found: list[Hidden], ruleset: Any, state: Any, **_: Any) -> list[Hidden]:
    """A bid is sealed: only its own side sees it until both seats have bid, then both are revealed together
    (AARE-BID-submit-bids)."""
    if KEY not in state.extra:
        return found
    bids = record(state)["bids"]
    if all(seat in bids for seat in SEATS):
        return found
    sealed = [
        Hidden(("extra", KEY, "bids", seat), frozenset(p.name for p in ruleset.board.powers if p.side == seat),
               R_SUBMIT)
        for seat in SEATS if seat in bids
    ]
    return [*found, *sealed]


class BidCashExtension(PhaseExtension):
    """Setup-bid: a power of the bidding side takes bid IPCs as first-turn cash (AARE-BID-spend-as-cash)."""

    name = "bid-cash"
    action_types = frozenset({"bid_cash"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        left = funds(ctx.state).get(ctx.ruleset.board.side_of(ctx.power), 0)
        if space is None and left > 0:
            yield from (BidCash(amount=n) for n in sorted({1, left}))

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        side = ctx.ruleset.board.side_of(ctx.power)
        fund = funds(ctx.state)
        if action.amount > fund.get(side, 0):
            raise IllegalAction(f"the {side} bid has {fund.get(side, 0)} IPCs left, not {action.amount}", R_CASH)
        ctx.emit(
            BankChanged(ctx.power, action.amount, "bid", R_CASH),
            ExtraSet(BID, {**fund, side: fund[side] - action.amount}, R_CASH),
        )


BID_CASH = BidCashExtension()


def _phase_actions(found: list[Any], ruleset: Any, phase: str, state: Any, **_: Any) -> list[Any]:
    if phase == "setup-bid" and ruleset.options.get("straight_bid", True):
        return [*found, BID_CASH]
    return found


def _summary_records(keys: list[str], **_: Any) -> list[str]:
    """The straight bid record is shown in a game's summary."""
    return [*keys, KEY]


AARE_BID = register_module(
    RuleModule(
        id="aare_bid",
        title="AARe 5.0 straight bid for the Axis",
        rule_ids=(
            "AARE-BID-submit-bids",
            "AARE-BID-lower-bid-plays-axis",
            "AARE-BID-tie-coin-flip",
            "AARE-BID-spend-as-units",
            "AARE-BID-spend-as-cash",
            "AARE-BID-placement-restriction",
        ),
        hooks={"initial_state": _start, "bid_funds": _bid_funds, "phase_actions": _phase_actions,
               "hidden_fields": _sealed_bids, "summary_records": _summary_records},
        requires=("lhtr",),
        replaces_options=("bid_axis", "bid_allies"),
        options=(
            OptionSpec(
                key="straight_bid",
                type=bool,
                default=True,
                help="the players bid for the Axis before the game; the lower bid plays the Axis and spends it",
                rule_id="AARE-BID-submit-bids",
            ),
            OptionSpec(
                key="bid_needs_own_unit",
                type=bool,
                default=True,
                help="bid units only go where the nation controls the space and already has a unit",
                rule_id="AARE-BID-placement-restriction",
            ),
        ),
    )
)
