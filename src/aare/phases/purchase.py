"""Purchase: buy units into the power's pool (`extra["purchased"]`); they are placed in mobilize. Where the
ruleset puts raid damage on industrial complexes, the power may also pay to repair its damaged complexes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from aare.actions import Purchase, Repair
from aare.board.notation import format_units, parse_units
from aare.economy.complex_damage import damage_rules, damaged_complexes, repair_cost, repair_events
from aare.economy.pool import pool, pool_event
from aare.economy.turn import start_turn_event
from aare.errors import IllegalAction
from aare.events import BankChanged
from aare.phases.base import PhaseHandler, TurnContext, register_phase
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState


def order_cost(state: GameState, ruleset: Ruleset, power: str, units: Mapping[str, int]) -> int:
    """What `power` pays for `units` (LHTR-PURCHASE-price-list, as rule modules' `cost` effects change it; the
    ``order_cost`` hook may change the order's total, e.g. a discount on one unit)."""
    cost = sum(ruleset.unit_cost(u, power=power, state=state).value * n for u, n in units.items())
    total: int = ruleset.modify("order_cost", cost, state=state, power=power, units=units)
    return total


def purchase_refusal(state: GameState, ruleset: Ruleset, power: str) -> tuple[str, str] | None:
    """Why the rules forbid `power` to buy now (reason, rule), if they do: by default while its capital is
    enemy-held (the ``purchase_refusal`` hook may lift or replace that)."""
    capital = ruleset.board.capital_of(power)
    refusal: tuple[str, str] | None = None
    if capital is not None and state.owners.get(capital) != power:
        refusal = (f"{power} cannot buy units while {capital} is held by the enemy", "LHTR-PURCHASE-needs-capital")
    found: tuple[str, str] | None = ruleset.modify("purchase_refusal", refusal, state=state, power=power)
    return found


def check_capital(state: GameState, ruleset: Ruleset, power: str) -> None:
    """Refuse a purchase the rules forbid now (`purchase_refusal`)."""
    refusal = purchase_refusal(state, ruleset, power)
    if refusal is not None:
        raise IllegalAction(*refusal)


def repair_candidates(state: GameState, ruleset: Ruleset, power: str) -> list[Repair]:
    """Repairs `power` can afford: one point, and as many as it can pay for, at each damaged complex."""
    rules = damage_rules(ruleset, state)
    if not rules.on_complex or rules.income_loss:
        return []
    bank = state.banks.get(power, 0)
    out = []
    for space, damage in damaged_complexes(state, ruleset, power).items():
        most = max((n for n in range(1, damage + 1) if repair_cost(state, ruleset, power, n) <= bank), default=0)
        out += [Repair(space=space, points=n) for n in sorted({1, most}) if 0 < n <= most]
    return out


class PurchasePhase(PhaseHandler):
    name = "purchase"
    title = "Purchase units"

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        if space is not None:
            return
        bank = ctx.state.banks.get(ctx.power, 0)
        for unit in ctx.ruleset.units:
            if order_cost(ctx.state, ctx.ruleset, ctx.power, {unit.id: 1}) <= bank:
                yield Purchase(units=f"1 {unit.display}")
        yield from repair_candidates(ctx.state, ctx.ruleset, ctx.power)

    def admits(self, ctx: TurnContext, action: Any) -> bool:
        """A listed purchase (one unit the power can pay for) is accepted unless the rules refuse it purchases."""
        return not isinstance(action, Purchase) or purchase_refusal(ctx.state, ctx.ruleset, ctx.power) is None

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if isinstance(action, Repair):
            ctx.emit(*repair_events(ctx.state, ctx.ruleset, ctx.power, action.space, action.points))
            return
        if not isinstance(action, Purchase):
            super().events_for(ctx, action)
            return
        state, ruleset, power = ctx.state, ctx.ruleset, ctx.power
        if action.at:
            raise IllegalAction("units are bought without naming a place in this game", "LHTR-PURCHASE-budget")
        units = parse_units(action.units, ruleset.units)
        if not units:
            raise IllegalAction("a purchase needs at least one unit", "LHTR-PURCHASE-budget")
        check_capital(state, ruleset, power)
        cost = order_cost(state, ruleset, power, units)
        bank = state.banks.get(power, 0)
        if cost > bank:
            text = format_units(units, ruleset.units)
            raise IllegalAction(f"{text} cost {cost} IPCs; {power} has {bank}", "LHTR-PURCHASE-budget")
        have = pool(state, power)
        for unit, n in units.items():
            have[unit] = have.get(unit, 0) + n
        ctx.emit(
            BankChanged(power, -cost, "purchase", "LHTR-PURCHASE-budget"),
            pool_event(state, power, have, "LHTR-PURCHASE-units-wait-for-mobilize"),
        )

    def on_enter(self, ctx: TurnContext) -> None:
        event = start_turn_event(ctx.state)
        if event is not None:
            ctx.emit(event)


PURCHASE = register_phase(PurchasePhase())
