"""AA50E research (module `aa50e_research`, seed 9-12): the two charts of twelve technologies, rolls bought for
one named technology at 5 IPCs (major) or 4 (minor) each, 1 less when an ally has it, under the 4:2 rule (the
core's `aare.phases.research_attempts`); a tech is in force as soon as it is gained (AA50-RESEARCH-effective-
immediately) with the free units it grants (`aare.rulesets.aa50e.tech_grants`). War Bonds roll a second die on
a 6. The Anniversary tokens, chart rolls and one-die War Bonds are left out."""

from __future__ import annotations

from typing import Any

from aare.events import BankChanged
from aare.phases.base import TurnContext
from aare.phases.research_attempts import AttemptResearch, AttemptRules, ally_has_tech
from aare.rules.effects import Effect
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aa50.modules import CHART_1, CHART_2
from aare.rulesets.aa50.research import ChartChoice, TokenResearch, WarBonds, has_tech
from aare.rulesets.aa50e.tech_grants import grant_events
from aare.rulesets.aa50e.tech_grants import phase_actions as grant_actions

# AA50E-TECH-charts: the Anniversary ids where the tech keeps its name's idea (Jet Power: jet_fighters)
CHART_1E = ("advanced_artillery", "rockets", "paratroopers", "improved_factories", "war_bonds",
            "improved_mechanized_infantry")
CHART_2E = ("super_destroyers", "jet_fighters", "improved_shipyards", "radar", "long_range_aircraft",
            "heavy_bombers")
MAJOR = ("rockets", "improved_factories", "jet_fighters", "improved_shipyards", "long_range_aircraft",
         "heavy_bombers")  # AA50E-TECHCOST-major
MINOR = ("advanced_artillery", "paratroopers", "war_bonds", "improved_mechanized_infantry", "super_destroyers",
         "radar")  # AA50E-TECHCOST-minor
R_MAJOR, R_MINOR = "AA50E-TECHCOST-major", "AA50E-TECHCOST-minor"
R_FIRST = "AA50E-TECHRULE-first-attempt-four"
R_SECOND = "AA50E-TECHRULE-second-attempt-auto"
R_NAMED = "AA50E-TECHRULE-named-tech"
R_SHARED = "AA50E-TECHRULE-shared-discount"
R_BONDS, R_BONDS_SIX = "AA50E-TECH-war-bonds-roll", "AA50E-TECH-war-bonds-six"

COST_EFFECTS = (
    Effect("research_cost", "*", "set", 5, R_MAJOR, "major technology", lambda c: c.get("tech") in MAJOR),
    Effect("research_cost", "*", "set", 4, R_MINOR, "minor technology", lambda c: c.get("tech") in MINOR),
    # one effect: one discount however many allies have the tech (AA50E-TECHRULE-single-discount)
    Effect("research_cost", "*", "add", -1, R_SHARED, "an ally has it", ally_has_tech),
)


def _cost_rule(tech: str) -> str:
    return R_MAJOR if tech in MAJOR else R_MINOR


RULES = AttemptRules(
    first_rule=R_FIRST,
    second_rule=R_SECOND,
    auto_rule=R_NAMED,
    cost_rule=_cost_rule,
    second_exact=True,
    max_dice=None,
    auto_dice=0,  # no number of rolls succeeds by itself (the US Tech Investment sets 4)
    in_force_at_once=True,
    phase_rule="AA50-PHASES-sequence",
)


class EnhancedResearch(AttemptResearch):
    """Rolls for a named technology; a tech gained comes with its free units."""

    def gained(self, ctx: TurnContext, tech: str) -> None:
        ctx.emit(*grant_events(ctx.state, ctx.ruleset, ctx.power, tech))


class EnhancedWarBonds(WarBonds):
    """War Bonds: a die of IPCs at collect income, and a second die when the first shows 6, no third
    (AA50E-TECH-war-bonds-roll, -war-bonds-six)."""

    def on_enter(self, ctx: TurnContext) -> None:
        state, power, board = ctx.state, ctx.power, ctx.ruleset.board
        if not has_tech(state, power, "war_bonds") or not board.holds_capital(power, state.owners):
            return
        bonds = ctx.roll(1, "war bonds")[0]
        rule = R_BONDS
        if bonds == 6:
            bonds += ctx.roll(1, "war bonds: a second die after a 6")[0]
            rule = R_BONDS_SIX
        ctx.emit(BankChanged(power, bonds, "income", rule))


RESEARCH, WAR_BONDS = EnhancedResearch(RULES), EnhancedWarBonds()
REPLACED = (TokenResearch, ChartChoice, WarBonds)


def _phase_actions(found: list[Any], phase: str, **_: Any) -> list[Any]:
    """Named research instead of tokens and charts; War Bonds with the second die."""
    kept = [x for x in found if not isinstance(x, REPLACED)]
    if phase == "develop-weapons":
        kept.append(RESEARCH)
    if phase == "collect-income":
        kept.append(WAR_BONDS)
    return grant_actions(kept, phase)


def _technologies(techs: tuple[str, ...], **_: Any) -> tuple[str, ...]:
    """The twelve technologies of the AA50E charts in place of the Anniversary ones (AA50E-TECH-charts)."""
    base = set(CHART_1) | set(CHART_2)
    return (*(t for t in techs if t not in base), *CHART_1E, *CHART_2E)


MODULE = register_module(
    RuleModule(
        id="aa50e_research",
        title="Anniversary Edition - Enhanced: research",
        rule_ids=(
            "AA50E-TECH-charts", R_MAJOR, R_MINOR, "AA50E-TECHCOST-table", R_NAMED, R_FIRST, R_SECOND, R_SHARED,
            "AA50E-TECHRULE-single-discount", R_BONDS, R_BONDS_SIX,
        ),
        hooks={"phase_actions": _phase_actions, "technologies": _technologies},
        effects=COST_EFFECTS,
        requires=("aa50_research",),
    )
)
