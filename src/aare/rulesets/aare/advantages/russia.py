"""Russia's national advantages (seed NATIONAL ADVANTAGES / RUSSIA, ledger AARE-NA-RUS-*).

The larger ones live in their own modules: `russia_winter`, `russia_railway`, `russia_lend_lease`,
`russia_industry`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.combat.rules import CombatRules, TechBonus
from aare.movement.battles import BattleSite
from aare.rules.effects import Effect
from aare.rules.ruleset import Ruleset
from aare.rulesets.aare.advantages import russia_industry, russia_lend_lease, russia_railway, russia_winter
from aare.rulesets.aare.advantages.base import Advantage, FreeUnits, register
from aare.rulesets.aare.advantages.russia_common import RUSSIA, holds, red, tag_russia
from aare.state.game_state import GameState

SIBERIA = ("Yakut S.S.R.", "Soviet Far East", "Buryatia S.S.R.")
R_T34 = "AARE-NA-RUS-t34-defense-4"
R_TREATY = "AARE-NA-RUS-sib-treaty-six"

# Russian armour (the units that blitz) defending in a Red territory: 4
T34_BONUS = TechBonus("na:russian_t34s", "blitz", "defense", 1, R_T34)


def _t34_rules(rules: CombatRules, **_: Any) -> CombatRules:
    return replace(rules, tech_bonuses=(*rules.tech_bonuses, T34_BONUS))


def _t34_inputs(inputs: dict[str, Any], ruleset: Ruleset, state: GameState, site: BattleSite,
                **_: Any) -> dict[str, Any]:
    """Russian armour defending in a Red territory, whoever holds it (AARE-NA-RUS-t34-defense-4)."""
    if site.attacker == RUSSIA or site.space not in red(ruleset) or not holds(state, "russian_t34s"):
        return inputs
    return tag_russia(inputs, site, "russian_t34s", "defender")


ADVANTAGES = register(
    Advantage(
        "russian_winter", RUSSIA, 1, "Russian Winter", rule_ids=russia_winter.RULE_IDS, timing="one_off",
        hooks={"phase_actions": russia_winter.phase_actions, "combat_rules": russia_winter.combat_rules,
               "battle_inputs": russia_winter.battle_inputs},
    ),
    Advantage(
        "russian_railway", RUSSIA, 2, "Russian Railway", rule_ids=russia_railway.RULE_IDS,
        hooks={"movement_left": russia_railway.movement_left, "move_checks": russia_railway.move_checks},
    ),
    Advantage(
        "russian_t34s", RUSSIA, 3, "Russian T-34's", rule_ids=(R_T34,),
        hooks={"combat_rules": _t34_rules, "battle_inputs": _t34_inputs},
    ),
    Advantage(
        "russian_lend_lease", RUSSIA, 4, "Lend-Lease", rule_ids=russia_lend_lease.RULE_IDS,
        hooks={"phase_actions": russia_lend_lease.phase_actions}, on_declare=russia_lend_lease.on_declare,
    ),
    Advantage(
        "mobile_industry", RUSSIA, 5, "Mobile Industry", rule_ids=russia_industry.RULE_IDS,
        timing="mobilize",
        free_units=(FreeUnits((("factory", 1), ("infantry", 1)), (), russia_industry.R_FREE,
                              original_owner=RUSSIA),),
        hooks={"phase_actions": russia_industry.phase_actions},
    ),
    Advantage(
        "siberian_conscripts", RUSSIA, 6, "Siberian Conscripts", rule_ids=("AARE-NA-RUS-sib-free-inf", R_TREATY),
        timing="per_turn",
        free_units=(FreeUnits((("infantry", 1),), SIBERIA, "AARE-NA-RUS-sib-free-inf", every_turn=True),),
        # the treaty's free infantry: 6 instead of 4, broken or void (AARE-NA-RUS-sib-treaty-six)
        effects=(Effect("treaty_infantry", RUSSIA, "set", 6, R_TREATY, "Siberian Conscripts"),),
    ),
)
