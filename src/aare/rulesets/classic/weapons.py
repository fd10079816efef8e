"""Classic weapons development (module `classic_weapons`): research dice and the six developments.

- Dice: in the develop-weapons phase a power buys research dice at 5 IPCs each (`research N`, no technology
  named); they wait in ``extra["research_dice"] = {power: n}`` and are all rolled together when the power ends
  the phase. Each 6 is one breakthrough: a roll on the development chart (`CHART`), rerolling a development the
  power already has. The development is in force at once (TechGained), before any unit is bought.
- Effects: Industrial Technology takes 1 IPC off every unit (`cost` effects); Long-Range Aircraft is the core's
  +2 for aircraft (fighter 6, bomber 8); Rockets are the core's rocket launch from an AA gun (range 3, the
  treasury of the target's owner pays); Jet Power, Super Submarines and Heavy Bombers act in combat.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from aare.actions import Research
from aare.economy.complex_damage import DamageRules
from aare.economy.tech import held, held_event
from aare.errors import IllegalAction
from aare.events import TechGained
from aare.phases.base import PhaseExtension, TurnContext
from aare.phases.develop_weapons import buy_research
from aare.rules.effects import Context, Effect
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.classic.modules import CHART
from aare.state.game_state import GameState

DICE = "research_dice"
MAX_REROLLS = 100  # chart rerolls before the first missing development is taken (never with real dice)

R_OPTIONAL = "CL-WEAPONS-optional-phase"
R_DICE = "CL-WEAPONS-die-cost"
R_SIX = "CL-WEAPONS-six-succeeds"
R_AT_ONCE = "CL-WEAPONS-immediate-effect"
R_ROCKETS = "CL-WEAPONS-rockets"
R_LONG_RANGE = "CL-WEAPONS-long-range-aircraft"
R_INDUSTRY = "CL-WEAPONS-industrial-technology"
R_PRICES = "CL-PURCHASE-industrial-technology-prices"
INDUSTRY = "industrial_technology"

# The core's research and rocket rules under their Classic ids.
RULE_IDS = {
    "LHTR-TECH-research-dice": R_DICE,
    "LHTR-TECH-choose-target": R_SIX,
    "LHTR-TECH-breakthrough-on-6": R_SIX,
    "LHTR-TECH-list": R_SIX,
    "LHTR-TECH-rockets-launchers": R_ROCKETS,
    "LHTR-TECH-rockets-target": R_ROCKETS,
    "LHTR-TECH-rockets-damage": R_ROCKETS,
    "LHTR-TECH-long-range-aircraft": R_LONG_RANGE,
    "LHTR-TECH-timing": R_AT_ONCE,
    "LHTR-TURN-research-optional-phase": R_OPTIONAL,
}


def dice_held(state: GameState, power: str) -> int:
    """The research dice `power` has bought this phase and not yet rolled."""
    return held(state, DICE, power)


class ChartResearch(PhaseExtension):
    """Buying research dice, and rolling them all when the phase ends; each 6 a roll on the chart."""

    name = "classic-research"
    action_types = frozenset({"research"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        if space is None and set(CHART) - set(ctx.state.techs.get(ctx.power, ())):
            yield Research(dice=1)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Research):
            raise IllegalAction(f"{action.type} is not research", R_DICE)
        if action.tech:
            raise IllegalAction("research dice are bought for the development chart, not for a named development: "
                                "'research N'", R_SIX)
        buy_research(ctx, action.dice, DICE, R_DICE)

    def on_exit(self, ctx: TurnContext) -> None:
        """All the dice bought are rolled at once (CL-WEAPONS-die-cost); each 6 is a roll on the chart, rerolled
        while it names a development the power has (CL-WEAPONS-six-succeeds), in force at once
        (CL-WEAPONS-immediate-effect)."""
        power = ctx.power
        held = dice_held(ctx.state, power)
        if not held:
            return
        ctx.emit(held_event(ctx.state, DICE, power, 0, R_DICE))
        sixes = ctx.roll(held, f"research: {held} dice").count(6)
        for _ in range(sixes):
            have = set(ctx.state.techs.get(power, ()))
            if set(CHART) <= have:
                return
            tech = ""
            for _ in range(MAX_REROLLS):
                rolled = CHART[ctx.roll(1, "weapons development chart")[0] - 1]
                if rolled not in have:
                    tech = rolled
                    break
            ctx.emit(TechGained(power, tech or next(t for t in CHART if t not in have), R_AT_ONCE))


CHART_RESEARCH = ChartResearch()


def _phase_actions(found: list[Any], phase: str, **_: Any) -> list[Any]:
    return [*found, CHART_RESEARCH] if phase == "develop-weapons" else found


def _rule_ids(names: dict[str, str], **_: Any) -> dict[str, str]:
    return {**names, **RULE_IDS}


def _damage_rules(rules: DamageRules, **_: Any) -> DamageRules:
    """A rocket's die is taken from the treasury of the target's owner (CL-WEAPONS-rockets)."""
    return replace(rules, rocket_rule=R_ROCKETS)


def _industrial(context: Context) -> bool:
    state = context.get("state")
    return state is not None and INDUSTRY in state.techs.get(str(context.get("power", "")), ())


EFFECTS = (Effect("cost", "*", "add", -1, R_INDUSTRY, "Industrial Technology", _industrial),)

MODULE = register_module(
    RuleModule(
        id="classic_weapons",
        title="Classic weapons development",
        rule_ids=(R_OPTIONAL, R_DICE, R_SIX, R_AT_ONCE, R_ROCKETS, R_LONG_RANGE, R_INDUSTRY, R_PRICES),
        hooks={"phase_actions": _phase_actions, "rule_ids": _rule_ids, "damage_rules": _damage_rules},
        effects=EFFECTS,
    )
)
