"""The Anniversary combat rules (module `aa50_combat`): the combat switches, the combat technologies and the
submarines' choice to submerge before a sea battle's first fire."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.combat import steps as s
from aare.combat.rules import CombatRules, TechBonus
from aare.combat.sequences import Sequence
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aa50.aa_guns import ONE_AA_GUN, phase_actions

AA50_TECH_BONUSES = (
    TechBonus("jet_fighters", "fighter", "attack", 1, "AA50-RESEARCH-jet-fighters"),
    TechBonus("super_submarines", "submarine", "attack", 1, "AA50-RESEARCH-super-submarines"),
    TechBonus("radar", "aa", "aa", 1, "AA50-RESEARCH-radar"),
    TechBonus("advanced_artillery", "artillery", "support", 1, "AA50-RESEARCH-advanced-artillery"),
)
HEAVY_BEST_OF = OptionSpec(
    "heavy_bombers_best_of", bool, False,
    "Heavy Bombers roll two dice in combat and keep the better one (the TripleA 'LHTR Heavy Bombers' reading) "
    "instead of counting both", "AA50-RESEARCH-heavy-bombers",
)
SUBMERGE_RULE = "AA50-NAVALCOMBAT-submerge"
ATTACKER_SUBMERGE_FIRST = s.Step("attacker submerge before fire", s.submerge_step(
    "attacker", SUBMERGE_RULE, s.START_OF_BATTLE), cycles=1, rule=SUBMERGE_RULE)
DEFENDER_SUBMERGE_FIRST = s.Step("defender submerge before fire", s.submerge_step(
    "defender", SUBMERGE_RULE, s.START_OF_BATTLE), cycles=1, rule=SUBMERGE_RULE)


def _combat_rules(rules: CombatRules, ruleset: Any = None, **_: Any) -> CombatRules:
    """The Anniversary switches: a destroyer cancels the enemy subs' surprise strike (they fire with the main
    group) and lets its side's aircraft hit subs (AA50-NAVALCOMBAT-surprise-strike, -subs-vs-air); subs may
    submerge whenever no enemy destroyer is present (AA50-NAVALCOMBAT-submerge); transports are chosen last and
    are lost without rolls once alone (AA50-NAVALCOMBAT-transports-last, AA50-COMBAT-defenceless-units-removed);
    bombardment casualties fire back and no more ships bombard than land units land (AA50-BOMBARD-*); each
    heavy-bomber die counts in attack, one die in defence (AA50-RESEARCH-heavy-bombers); the combat
    technologies (jets and super subs attack +1, radar AA +1, advanced artillery supports two infantry)."""
    best_of = bool(ruleset.options.get(HEAVY_BEST_OF.key, False)) if ruleset is not None else False
    return replace(
        rules,
        destroyer_moves_sub_fire_to_main_step=True,
        air_hits_subs_without_destroyer=False,
        submerge_blocked_by_destroyer_lost=False,
        last_casualty_tags=("transport",),
        last_casualty_rule="AA50-NAVALCOMBAT-transports-last",
        lone_defenceless_removed=True,
        bombard_casualties_fire_back=True,
        bombard_per_landing_unit=1,
        bombard_limit_rule="AA50-BOMBARD-per-land-unit",
        heavy_bomber_best_of=best_of,
        heavy_bombers_best_of_on_defense=False,
        heavy_bombers_on_defense=False,
        heavy_bomber_sbr_bonus=0,
        heavy_bomber_sbr_best_of=False,
        tech_bonuses=AA50_TECH_BONUSES,
    )


def _combat_sequence(seq: Sequence, kind: str, **_: Any) -> Sequence:
    """Sea battles: before the first fire each side's subs may submerge (attacker first), as at the start of
    every later round (AA50-NAVALCOMBAT-submerge)."""
    if kind != "sea":
        return seq
    first = seq.steps[0].name
    return seq.insert_before(first, ATTACKER_SUBMERGE_FIRST).insert_before(first, DEFENDER_SUBMERGE_FIRST)


def _flyover_aa(found: dict[str, str], **_: Any) -> dict[str, str]:
    """AA guns fire only at aircraft attacking their own territory, never at aircraft flying over
    (AA50-AA-only-own-territory)."""
    return {}


AA50_COMBAT = register_module(
    RuleModule(
        id="aa50_combat",
        title="Anniversary Edition combat",
        rule_ids=(
            "AA50-COMBAT-sequence",
            "AA50-NAVALCOMBAT-surprise-strike",
            "AA50-NAVALCOMBAT-submerge",
            "AA50-NAVALCOMBAT-subs-vs-air",
            "AA50-NAVALCOMBAT-transports-last",
            "AA50-COMBAT-defenceless-units-removed",
            "AA50-BOMBARD-casualties-fire-back",
            "AA50-BOMBARD-per-land-unit",
            "AA50-RESEARCH-heavy-bombers",
            "AA50-RESEARCH-jet-fighters",
            "AA50-RESEARCH-super-submarines",
            "AA50-RESEARCH-radar",
            "AA50-RESEARCH-advanced-artillery",
            "AA50-AA-only-own-territory",
            "AA50-AA-one-per-territory",
        ),
        hooks={"combat_rules": _combat_rules, "combat_sequence": _combat_sequence, "flyover_aa": _flyover_aa,
               "phase_actions": phase_actions},
        options=(HEAVY_BEST_OF, ONE_AA_GUN),
    )
)
