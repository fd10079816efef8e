"""Develop weapons: buy research dice for one named technology and roll them; any 6 develops it, in
force from this turn's mobilize phase (LHTR-TECH-timing)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from aare.actions import Research
from aare.economy.tech import held, held_event, pending, pending_event, research_cost, resolve_tech, technologies
from aare.economy.turn import start_turn_event
from aare.errors import IllegalAction
from aare.events import BankChanged
from aare.phases.base import PhaseHandler, TurnContext, register_phase


class DevelopWeaponsPhase(PhaseHandler):
    name = "develop-weapons"
    title = "Develop weapons"

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        if space is not None:
            return
        have = set(ctx.state.techs.get(ctx.power, ())) | set(pending(ctx.state, ctx.power))
        for tech in technologies(ctx.ruleset):
            if tech not in have:
                yield Research(dice=1, tech=tech)

    def admits(self, ctx: TurnContext, action: Any) -> bool:
        """A listed research die (a technology the power lacks) is accepted when the power can pay for it."""
        if not isinstance(action, Research):
            return True
        cost = action.dice * research_cost(ctx.state, ctx.ruleset, ctx.power, action.tech)
        return cost <= ctx.state.banks.get(ctx.power, 0)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Research):
            super().events_for(ctx, action)
            return
        state, power = ctx.state, ctx.power
        if not action.tech:
            raise IllegalAction("name the technology the dice are for", "LHTR-TECH-choose-target")
        tech = resolve_tech(ctx.ruleset, action.tech)
        developing = pending(state, power)
        if tech in state.techs.get(power, ()) or tech in developing:
            raise IllegalAction(f"{power} already has {tech}", "LHTR-TECH-choose-target")
        cost = action.dice * research_cost(state, ctx.ruleset, power, tech)
        bank = state.banks.get(power, 0)
        if cost > bank:
            raise IllegalAction(f"{action.dice} research dice cost {cost} IPCs; {power} has {bank}",
                                "LHTR-TECH-research-dice")
        ctx.emit(BankChanged(power, -cost, "research", "LHTR-TECH-research-dice"))
        if 6 in ctx.roll(action.dice, f"research {tech}"):
            ctx.emit(pending_event(ctx.state, power, [*developing, tech], "LHTR-TECH-breakthrough-on-6"))

    def on_enter(self, ctx: TurnContext) -> None:
        event = start_turn_event(ctx.state)
        if event is not None:
            ctx.emit(event)


DEVELOP_WEAPONS = register_phase(DevelopWeaponsPhase())


def buy_research(ctx: TurnContext, dice: int, key: str, rule_id: str, noun: str = "research dice") -> None:
    """The power to move pays for `dice` research dice (or tokens) and holds them in the per-power table
    `extra[key]` until they are rolled; IllegalAction under `rule_id` when its treasury is short."""
    state, power = ctx.state, ctx.power
    cost = dice * research_cost(state, ctx.ruleset, power)
    bank = state.banks.get(power, 0)
    if cost > bank:
        raise IllegalAction(f"{dice} {noun} cost {cost} IPCs; {power} has {bank}", rule_id)
    ctx.emit(BankChanged(power, -cost, "research", rule_id))
    ctx.emit(held_event(ctx.state, key, power, held(ctx.state, key, power) + dice, rule_id))
