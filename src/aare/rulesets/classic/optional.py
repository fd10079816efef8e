"""The printed optional rules of the Classic rulebook that the engine plays (part of module `classic`), all off by
default (CL-TURN-printed-optional-rules): Restricted Attack (no combat movement for the first power in round 1,
CL-TURN-no-first-round-restrictions), No New Complexes, and the tournament bid (CL-TURN-no-bid-in-printed-rules).
Placing new ships in enemy-occupied sea zones is in `production.py`."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.actions import Move, Purchase
from aare.board.notation import parse_units
from aare.economy.bids import BID, bid_funds, bidders
from aare.errors import IllegalAction
from aare.phases.base import PhaseExtension, TurnContext
from aare.phases.setup_bid import PHASE as BID_PHASE

R_OPTIONAL = "CL-TURN-printed-optional-rules"
R_FIRST_ROUND = "CL-TURN-no-first-round-restrictions"
R_BID = "CL-TURN-no-bid-in-printed-rules"
RESTRICTED_ATTACK = "restricted_attack"
NO_NEW_COMPLEXES = "no_new_complexes"


class RestrictedAttack(PhaseExtension):
    """Restricted Attack: the first power of the turn order makes no combat movement in round 1."""

    name = "restricted-attack"

    def before(self, ctx: TurnContext, action: Any) -> None:
        first = ctx.ruleset.board.powers[0].name
        if isinstance(action, Move) and ctx.state.round == 1 and ctx.power == first:
            raise IllegalAction(f"Restricted Attack: {first} makes no combat movement in the first round",
                                R_OPTIONAL)


class NoNewComplexes(PhaseExtension):
    """No New Complexes: industrial complexes cannot be bought."""

    name = "no-new-complexes"

    def before(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Purchase):
            return
        units = ctx.ruleset.units
        if any(units[u].has("factory") for u in parse_units(action.units, units)):
            raise IllegalAction("No New Complexes: industrial complexes cannot be bought", R_OPTIONAL)


RESTRICTED, NO_COMPLEXES = RestrictedAttack(), NoNewComplexes()


def optional_actions(phase: str, ruleset: Any) -> list[PhaseExtension]:
    """The extensions of the optional rules in play for `phase`."""
    options = ruleset.options
    if phase == "combat-move" and options.get(RESTRICTED_ATTACK, False):
        return [RESTRICTED]
    if phase == "purchase" and options.get(NO_NEW_COMPLEXES, False):
        return [NO_COMPLEXES]
    return []


def classic_bid_funds(funds: dict[str, int], ruleset: Any, **_: Any) -> dict[str, int]:
    """Each side's bid: the options `bid_axis` and `bid_allies` (0, the printed rules: none)."""
    chosen = {"Axis": int(ruleset.options.get("bid_axis", 0)), "Allies": int(ruleset.options.get("bid_allies", 0))}
    return {**funds, **{side: n for side, n in chosen.items() if n > 0}}


def bid_start(state: Any, ruleset: Any, **_: Any) -> Any:
    """With a bid, play starts in the bid placement of round 0 with the first bidder in turn order."""
    order = bidders(ruleset)
    if not order:
        return state
    return replace(state, round=0, nation=order[0], phase=BID_PHASE, extra={**state.extra, BID: bid_funds(ruleset)})
