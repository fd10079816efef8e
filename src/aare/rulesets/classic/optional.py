"""The printed optional rules of the Classic rulebook that the engine plays (part of module `classic`), all off by
default (CL-TURN-printed-optional-rules): Restricted Attack (no combat movement for the first power in round 1,
CL-TURN-no-first-round-restrictions), No New Complexes, and the tournament bid (CL-TURN-no-bid-in-printed-rules);
and a reading players may prefer: the income of a power whose capital is lost goes to the capital's holder
(CL-ECON-no-income-without-capital). Placing new ships in enemy-occupied sea zones is in `production.py`."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.actions import Purchase
from aare.board.notation import parse_units
from aare.economy.bids import BID, bid_funds, bidders
from aare.economy.summary import base_income
from aare.errors import IllegalAction
from aare.events import BankChanged
from aare.phases.base import PhaseExtension, TurnContext
from aare.phases.setup_bid import PHASE as BID_PHASE

R_OPTIONAL = "CL-TURN-printed-optional-rules"
R_FIRST_ROUND = "CL-TURN-no-first-round-restrictions"
R_BID = "CL-TURN-no-bid-in-printed-rules"
RESTRICTED_ATTACK = "restricted_attack"
NO_NEW_COMPLEXES = "no_new_complexes"
CAPITAL_INCOME = "income_to_capital_holder"
R_CAPITAL = "CL-ECON-no-income-without-capital"


class RestrictedAttack(PhaseExtension):
    """Restricted Attack: the first power of the turn order makes no combat movement in round 1."""

    name = "restricted-attack"

    def before(self, ctx: TurnContext, action: Any) -> None:
        first = ctx.ruleset.board.powers[0].name
        if ctx.state.round == 1 and ctx.power == first:  # moves, loads: every combat-move action
            raise IllegalAction(f"Restricted Attack: {first} makes no combat movement in the first round",
                                R_OPTIONAL)


class NoNewComplexes(PhaseExtension):
    """No New Complexes: industrial complexes cannot be bought (refused with `reason` under `rule_id`)."""

    name = "no-new-complexes"

    def __init__(self, rule_id: str = R_OPTIONAL,
                 reason: str = "No New Complexes: industrial complexes cannot be bought") -> None:
        self.rule_id, self.reason = rule_id, reason

    def before(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Purchase):
            return
        units = ctx.ruleset.units
        if any(units[u].has("factory") for u in parse_units(action.units, units)):
            raise IllegalAction(self.reason, self.rule_id)


class IncomeToCapitalHolder(PhaseExtension):
    """At the collect income of a power whose capital is enemy-held, its territories' value goes to the power
    holding the capital."""

    name = "income-to-capital-holder"

    def on_enter(self, ctx: TurnContext) -> None:
        board, state, power = ctx.ruleset.board, ctx.state, ctx.power
        capital = board.capital_of(power)
        holder = state.owners.get(capital) if capital is not None else None
        if holder is None or board.side_of(holder) == board.side_of(power):
            return
        amount = base_income(state, ctx.ruleset, power)
        if amount > 0:
            ctx.emit(BankChanged(holder, amount, f"income of {power}, whose capital it holds", R_CAPITAL))


RESTRICTED, NO_COMPLEXES, CAPITAL_HOLDER = RestrictedAttack(), NoNewComplexes(), IncomeToCapitalHolder()


def optional_actions(phase: str, ruleset: Any) -> list[PhaseExtension]:
    """The extensions of the optional rules in play for `phase`."""
    options = ruleset.options
    if phase == "combat-move" and options.get(RESTRICTED_ATTACK, False):
        return [RESTRICTED]
    if phase == "purchase" and options.get(NO_NEW_COMPLEXES, False):
        return [NO_COMPLEXES]
    if phase == "collect-income" and options.get(CAPITAL_INCOME, False):
        return [CAPITAL_HOLDER]
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
