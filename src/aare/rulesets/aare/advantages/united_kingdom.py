"""The United Kingdom's national advantages (seed NATIONAL ADVANTAGES / UNITED KINGDOM, ledger AARE-NA-UK-*).

Free units and prices are here; Radar's battle and research effects in `uk_radar`, UK Lend-Lease's loans and
conversions in `uk_lend_lease`.
"""

from __future__ import annotations

from aare.rules.effects import Effect
from aare.rulesets.aare.advantages import uk_lend_lease, uk_radar
from aare.rulesets.aare.advantages.base import Advantage, FreeUnits, register

UK = "United Kingdom"
COLONIES = ("Eastern Canada", "Anglo Egypt", "Union of South Africa", "India", "Australia")
HOME_AND_COLONIES = ("United Kingdom", *COLONIES)
# the sea zones next to the six territories, each with the territory the UK must hold to use it
COAST = {
    **dict.fromkeys(("SZ 2", "SZ 3", "SZ 6", "SZ 7", "SZ 8"), "United Kingdom"),
    **dict.fromkeys(("SZ 1", "SZ 9"), "Eastern Canada"),
    **dict.fromkeys(("SZ 15", "SZ 34"), "Anglo Egypt"),
    **dict.fromkeys(("SZ 27", "SZ 28"), "Union of South Africa"),
    "SZ 35": "India",
    **dict.fromkeys(("SZ 38", "SZ 39", "SZ 40", "SZ 46"), "Australia"),
}

ADVANTAGES = register(
    Advantage(
        "colonial_garrison", UK, 1, "Colonial Garrison", timing="mobilize",
        rule_ids=("AARE-NA-UK-cg-free-ic-inf", "AARE-NA-UK-cg-new-ic-idle"),
        free_units=(FreeUnits((("factory", 1), ("infantry", 1)), COLONIES, "AARE-NA-UK-cg-free-ic-inf"),),
    ),
    Advantage(
        "commonwealth", UK, 2, "The Commonwealth", timing="per_turn", rule_ids=("AARE-NA-UK-cw-free-inf",),
        free_units=(FreeUnits((("infantry", 1),), COLONIES, "AARE-NA-UK-cw-free-inf", every_turn=True),),
    ),
    Advantage(
        "radar", UK, 3, "Radar", rule_ids=("AARE-NA-UK-radar-free-aa", *uk_radar.rule_ids()),
        free_units=(FreeUnits((("aa_gun", 1),), HOME_AND_COLONIES, "AARE-NA-UK-radar-free-aa"),),
        effects=uk_radar.EFFECTS,
        hooks={"combat_rules": uk_radar.combat_rules, "combat_sequence": uk_radar.combat_sequence,
               "battle_inputs": uk_radar.inputs, "phase_actions": uk_radar.phase_actions},
        on_declare=uk_radar.on_declare,
    ),
    Advantage(
        "royal_navy", UK, 4, "Royal Navy", rule_ids=("AARE-NA-UK-rn-free-dd", "AARE-NA-UK-rn-dd-discount"),
        effects=(Effect("cost", "destroyer", "add", -1, "AARE-NA-UK-rn-dd-discount", "Royal Navy"),),
        free_units=(FreeUnits((("destroyer", 1),), tuple(COAST), "AARE-NA-UK-rn-free-dd", coast=COAST,
                              enemy_sea_ok=True),),
    ),
    Advantage(
        "royal_air_force", UK, 5, "Royal Air Force",
        rule_ids=("AARE-NA-UK-raf-free-ftr", "AARE-NA-UK-raf-ftr-discount"),
        effects=(Effect("cost", "fighter", "add", -1, "AARE-NA-UK-raf-ftr-discount", "Royal Air Force"),),
        free_units=(FreeUnits((("fighter", 1),), (*HOME_AND_COLONIES, *COAST), "AARE-NA-UK-raf-free-ftr",
                              coast=COAST, on_carrier=True),),
    ),
    Advantage(
        "uk_lend_lease", UK, 6, "UK Lend-Lease", rule_ids=uk_lend_lease.RULE_IDS,
        hooks={"phase_actions": uk_lend_lease.phase_actions}, on_declare=uk_lend_lease.on_declare,
    ),
)
