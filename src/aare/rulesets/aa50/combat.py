"""The Anniversary combat rules (module `aa50_combat`): the combat switches and the combat technologies."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.combat.rules import CombatRules, TechBonus
from aare.rules.rule_module import RuleModule, register_module

AA50_TECH_BONUSES = (
    TechBonus("jet_fighters", "fighter", "attack", 1, "AA50-RESEARCH-jet-fighters"),
    TechBonus("super_submarines", "submarine", "attack", 1, "AA50-RESEARCH-super-submarines"),
)


def _combat_rules(rules: CombatRules, **_: Any) -> CombatRules:
    """The Anniversary combat switches: a destroyer cancels the enemy subs' surprise strike (they fire with the
    main group) and lets its side's aircraft hit subs (AA50-NAVALCOMBAT-surprise-strike, -subs-vs-air);
    bombardment casualties fire back (AA50-BOMBARD-casualties-fire-back); every heavy-bomber die counts
    (AA50-RESEARCH-heavy-bombers); jets and super subs raise attack (AA50-RESEARCH-jet-fighters,
    -super-submarines)."""
    return replace(
        rules,
        destroyer_moves_sub_fire_to_main_step=True,
        air_hits_subs_without_destroyer=False,
        bombard_casualties_fire_back=True,
        heavy_bomber_best_of=False,
        heavy_bombers_best_of_on_defense=False,
        heavy_bombers_on_defense=False,
        heavy_bomber_sbr_bonus=0,
        heavy_bomber_sbr_best_of=False,
        tech_bonuses=AA50_TECH_BONUSES,
    )


AA50_COMBAT = register_module(
    RuleModule(
        id="aa50_combat",
        title="Anniversary Edition combat",
        rule_ids=("AA50-COMBAT-sequence",),
        hooks={"combat_rules": _combat_rules},
    )
)
