"""Germany's national advantages (seed NATIONAL ADVANTAGES / GERMANY, ledger AARE-NA-GER-*).

Free units and prices are here; battle effects in `germany_combat`, coastal defence in `germany_coastal`,
Panzerblitz in `germany_panzerblitz`, the Wolf Packs' convoy bonus in `germany_convoy`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aare.rules.effects import Effect
from aare.rules.options import OptionSpec
from aare.rulesets.aare.advantages import germany_coastal, germany_combat, germany_convoy, germany_panzerblitz
from aare.rulesets.aare.advantages.base import Advantage, FreeUnits, register
from aare.rulesets.aare.advantages.first_purchase import first_purchase_hooks

GERMANY = "Germany"
RUDEL_DISCOUNT = 5
R_RUDEL = "AARE-NA-GER-ldb-rudel"
LDB = "luftwaffe_dive_bombers"


# ---------------------------------------------------------------- the records

COMBAT_HOOKS: dict[str, Callable[..., Any]] = {
    "combat_rules": germany_combat.combat_rules,
    "combat_sequence": germany_combat.combat_sequence,
    "battle_inputs": germany_combat.tags,
}

ADVANTAGES = register(
    Advantage(
        "atlantic_wall", GERMANY, 1, "Atlantic Wall", timing="per_turn",
        rule_ids=("AARE-NA-GER-aw-free-inf", "AARE-NA-GER-aw-coastal-designate", "AARE-NA-GER-aw-coastal-shot",
                  "AARE-NA-GER-aw-coastal-timing", "AARE-NA-GER-aw-coastal-no-return-fire",
                  "AARE-NA-GER-aw-amphib-defense-3"),
        free_units=(FreeUnits((("infantry", 1),), ("Western Europe",), "AARE-NA-GER-aw-free-inf", every_turn=True),),
        hooks={**COMBAT_HOOKS, "phase_actions": germany_coastal.phase_actions},
        options=(
            OptionSpec(
                key="coastal_defence_alone",
                type=bool,
                default=True,
                help="Atlantic Wall: the coastal-defence shot may be fired with no German naval attack in its sea zone "
                "(resolved at once); off: only in the opening fire of such an attack",
                rule_id="AARE-NA-GER-aw-coastal-timing",
            ),
        ),
    ),
    Advantage(
        "german_88s", GERMANY, 2, "German 88's",
        rule_ids=("AARE-NA-GER-88-immediate-rtl", "AARE-NA-GER-88-mobilize-rtl", "AARE-NA-GER-88-opening-fire",
                  "AARE-NA-GER-88-inf-support"),
        free_units=(
            FreeUnits((("artillery", 1),), ("Eastern Europe",), "AARE-NA-GER-88-immediate-rtl", when="declaration"),
            FreeUnits((("artillery", 1),), (), "AARE-NA-GER-88-mobilize-rtl", original_owner=GERMANY),
        ),
        hooks=COMBAT_HOOKS,
    ),
    Advantage(
        "panzerblitz", GERMANY, 3, "Panzerblitz",
        rule_ids=("AARE-NA-GER-pb-bonus-move", "AARE-NA-GER-pb-after-full-move", "AARE-NA-GER-pb-empty-or-aa-ic",
                  "AARE-NA-GER-pb-amphibious"),
        hooks={"move_checks": germany_panzerblitz.move_checks, "movement_left": germany_panzerblitz.movement_left,
               "phase_actions": germany_panzerblitz.phase_actions},
    ),
    Advantage(
        "afrika_korps", GERMANY, 4, "Afrika Korps", timing="immediate",
        rule_ids=("AARE-NA-GER-ak-immediate-inf", "AARE-NA-GER-ak-mobilize-units"),
        free_units=(
            FreeUnits((("infantry", 1),), ("Libya",), "AARE-NA-GER-ak-immediate-inf", when="declaration"),
            FreeUnits((("infantry", 1), ("artillery", 1), ("armour", 1)), ("Libya",), "AARE-NA-GER-ak-mobilize-units"),
        ),
    ),
    Advantage(
        "wolf_packs", GERMANY, 5, "Wolf Packs",
        rule_ids=("AARE-NA-GER-wp-free-sub", "AARE-NA-GER-wp-attack-bonus", "AARE-NA-GER-wp-bonus-lost",
                  "AARE-NA-GER-wp-no-defense-bonus", "AARE-NA-GER-wp-cr-bonus", "AARE-NA-GER-wp-sub-discount"),
        effects=(Effect("cost", "submarine", "add", -1, "AARE-NA-GER-wp-sub-discount", "Wolf Packs"),),
        free_units=(FreeUnits((("submarine", 1),), ("SZ 5", "SZ 14"), "AARE-NA-GER-wp-free-sub", enemy_sea_ok=True),),
        hooks={**COMBAT_HOOKS, "phase_actions": germany_convoy.phase_actions},
    ),
    Advantage(
        "luftwaffe_dive_bombers", GERMANY, 6, "Luftwaffe Dive-Bombers",
        rule_ids=("AARE-NA-GER-ldb-first-cycle-4", "AARE-NA-GER-ldb-later-cycles", "AARE-NA-GER-ldb-cancel",
                  "AARE-NA-GER-ldb-land-and-naval", "AARE-NA-GER-ldb-aa", "AARE-NA-GER-ldb-ftr-discount",
                  "AARE-NA-GER-ldb-rudel"),
        effects=(Effect("cost", "fighter", "add", -1, "AARE-NA-GER-ldb-ftr-discount", "Luftwaffe Dive-Bombers"),),
        # AARE-COST-discount-stacking: the first fighter costs 10 - 1 - 5 = 4, once a game
        hooks={**COMBAT_HOOKS, **first_purchase_hooks(LDB, GERMANY, "fighter", RUDEL_DISCOUNT, R_RUDEL)},
    ),
)
