""""The first X purchased costs N IPCs less": a discount on one unit of the first order with such a unit after
the NA is declared (the ``order_cost`` hook), spent by that purchase (an `after` step in the purchase phase).
Spent discounts are kept in ``extra["first_purchase"] = {advantage id: round spent}``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from aare.actions import Purchase
from aare.board.notation import parse_units
from aare.events import ExtraSet
from aare.phases.base import PhaseExtension, TurnContext
from aare.rulesets.aare.advantages.base import Advantage, in_force
from aare.state.game_state import GameState

KEY = "first_purchase"


def spent(state: GameState | None, adv_id: str) -> bool:
    return state is not None and adv_id in (state.extra.get(KEY) or {})


def available(state: GameState | None, adv: Advantage, power: str | None) -> bool:
    """Whether `power` may still have `adv`'s first-purchase discount."""
    return power == adv.nation and in_force(state, adv.nation, adv.id) and not spent(state, adv.id)


class _Spend(PhaseExtension):
    """After a purchase with the unit, the discount is spent."""

    name = "first-purchase"

    def __init__(self, adv_id: str, nation: str, unit: str, rule: str) -> None:
        self.adv_id, self.nation, self.unit, self.rule = adv_id, nation, unit, rule

    def after(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Purchase) or ctx.power != self.nation or spent(ctx.state, self.adv_id):
            return
        if parse_units(action.units, ctx.ruleset.units).get(self.unit):
            table = {**(ctx.state.extra.get(KEY) or {}), self.adv_id: ctx.state.round}
            ctx.emit(ExtraSet(KEY, dict(sorted(table.items())), self.rule))


def first_purchase_hooks(
    adv_id: str, nation: str, unit: str, discount: int, rule: str
) -> dict[str, Callable[..., Any]]:
    """The hooks of "the first `unit` `nation` buys costs `discount` less" (for `Advantage.hooks`)."""
    spend = _Spend(adv_id, nation, unit, rule)

    def order_cost(cost: int, advantage: Advantage, state: GameState | None = None, power: str | None = None,
                   units: Mapping[str, int] | None = None, **_: Any) -> int:
        if units and units.get(unit) and available(state, advantage, power):
            return max(0, cost - discount)
        return cost

    def phase_actions(found: list[Any], phase: str, state: GameState | None = None, **_: Any) -> list[Any]:
        if phase == "purchase" and state is not None and state.nation == nation and not spent(state, adv_id) \
                and in_force(state, nation, adv_id):
            return [*found, spend]
        return found

    return {"order_cost": order_cost, "phase_actions": phase_actions}
