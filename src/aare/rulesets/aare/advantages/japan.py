"""Japan's national advantages (seed NATIONAL ADVANTAGES / JAPAN, ledger AARE-NA-JPN-*).

Free units and prices are here (first-unit discounts: `first_purchase`; the Tech Advantage grant:
`research_funds`); battle effects in `japan_combat`, Kaiten and Kamikaze designation and flight in
`japan_suicide`, Tokyo Express in `japan_tokyo`; Japan's record (``extra["na_japan"]``) in `japan_record`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aare.rules.effects import Effect
from aare.rules.options import OptionSpec
from aare.rulesets.aare.advantages import japan_combat, japan_suicide, japan_tokyo
from aare.rulesets.aare.advantages.base import Advantage, FreeUnits, register
from aare.rulesets.aare.advantages.first_purchase import first_purchase_hooks
from aare.rulesets.aare.advantages.japan_record import JAPAN
from aare.rulesets.aare.advantages.research_funds import research_funds
from aare.rulesets.aare.weapons.research import MINOR

BANZAI_SPACES = ("Manchuria", "Kwangtung", "French Indochina")
KAITEN_SEAS = ("SZ 60", "SZ 61")

FIRST_DISCOUNT = 5  # AARE-NA-JPN-yamato-first-bb, AARE-NA-JPN-kami-first-ftr
GRANT = 16  # AARE-NA-JPN-ta-grant-16
FIRST_BB = first_purchase_hooks("yamato", JAPAN, "battleship", FIRST_DISCOUNT, "AARE-NA-JPN-yamato-first-bb")
FIRST_FTR = first_purchase_hooks("kamikaze_attacks", JAPAN, "fighter", FIRST_DISCOUNT, "AARE-NA-JPN-kami-first-ftr")
GRANT_HOOKS, GRANT_ON_DECLARE = research_funds("tech_advantage", JAPAN, GRANT, MINOR, "AARE-NA-JPN-ta-grant-16")

BATTLE: dict[str, Callable[..., Any]] = {
    "combat_rules": japan_combat.combat_rules,
    "battle_inputs": japan_combat.battle_inputs,
}


def _kamikaze_actions(found: list[Any], **context: Any) -> list[Any]:
    """Kamikaze Attacks: the first-fighter discount in purchase, designation in combat move."""
    return japan_suicide.phase_actions(FIRST_FTR["phase_actions"](found, **context), **context)


ADVANTAGES = register(
    Advantage(
        "banzai_attacks", JAPAN, 1, "Banzai Attacks", timing="mobilize",
        rule_ids=("AARE-NA-JPN-banzai-free-inf", "AARE-NA-JPN-banzai-attack-2", "AARE-NA-JPN-banzai-artillery-3"),
        free_units=(FreeUnits((("infantry", 1),), BANZAI_SPACES, "AARE-NA-JPN-banzai-free-inf"),),
        hooks=BATTLE,
    ),
    Advantage(
        "tokyo_express", JAPAN, 2, "Tokyo Express",
        rule_ids=japan_tokyo.RULE_IDS,
        hooks=japan_tokyo.HOOKS,
    ),
    Advantage(
        "yamato", JAPAN, 3, "Yamato Class Battleships",
        rule_ids=("AARE-NA-JPN-yamato-5", "AARE-NA-JPN-yamato-first-bb"),
        hooks={**BATTLE, **FIRST_BB},
    ),
    Advantage(
        "tech_advantage", JAPAN, 4, "Tech Advantage", timing="one_off",
        rule_ids=("AARE-NA-JPN-ta-grant-16", "AARE-NA-JPN-ta-grant-carryover"),
        on_declare=GRANT_ON_DECLARE,
        hooks=GRANT_HOOKS,
    ),
    Advantage(
        "kaiten_torpedoes", JAPAN, 5, "Kaiten Torpedoes",
        rule_ids=("AARE-NA-JPN-kaiten-free-sub", "AARE-NA-JPN-kaiten-designation", "AARE-NA-JPN-kaiten-attack-only",
                  "AARE-NA-JPN-kaiten-targets", "AARE-NA-JPN-kaiten-undetected-order",
                  "AARE-NA-JPN-kaiten-detected-dd-first", "AARE-NA-JPN-kaiten-hit-3", "AARE-NA-JPN-kaiten-expended",
                  "AARE-NA-JPN-kaiten-casualties", "AARE-NA-JPN-kaiten-sub-discount"),
        effects=(Effect("cost", "submarine", "add", -1, "AARE-NA-JPN-kaiten-sub-discount", "Kaiten Torpedoes"),),
        free_units=(FreeUnits((("submarine", 1),), KAITEN_SEAS, "AARE-NA-JPN-kaiten-free-sub", enemy_sea_ok=True),),
        hooks={**BATTLE, "combat_sequence": japan_combat.combat_sequence, "phase_actions": japan_suicide.phase_actions,
               "move_checks": japan_suicide.move_checks},
        options=(
            OptionSpec(
                key="suicide_target_order",
                type=str,
                default=japan_combat.AFLOAT,
                choices=(japan_combat.AFLOAT, japan_combat.PER_HIT),
                help="Kaitens and Kamikazes roll at the first declared target still afloat, moving on only when it "
                "sinks (afloat); or every hit uses up one declared target (per_hit)",
                rule_id="AARE-NA-JPN-kami-with-kaitens",
            ),
        ),
    ),
    Advantage(
        "kamikaze_attacks", JAPAN, 6, "Kamikaze Attacks",
        rule_ids=("AARE-NA-JPN-kami-designation", "AARE-NA-JPN-kami-naval-only", "AARE-NA-JPN-kami-one-way",
                  "AARE-NA-JPN-kami-targets", "AARE-NA-JPN-kami-with-kaitens", "AARE-NA-JPN-kami-no-dd-first",
                  "AARE-NA-JPN-kami-aa-interceptors", "AARE-NA-JPN-kami-jets-lower-aa", "AARE-NA-JPN-kami-hit-4",
                  "AARE-NA-JPN-kami-expended", "AARE-NA-JPN-kami-ftr-discount", "AARE-NA-JPN-kami-first-ftr"),
        effects=(Effect("cost", "fighter", "add", -1, "AARE-NA-JPN-kami-ftr-discount", "Kamikaze Attacks"),),
        hooks={"battle_inputs": japan_combat.battle_inputs, "order_cost": FIRST_FTR["order_cost"],
               "phase_actions": _kamikaze_actions, "move_checks": japan_suicide.move_checks},
    ),
)
