"""AA50E submarine detection (module `aa50e_sub_detection`, seed 8): the core's `aare.combat.sub_detection` in the
Anniversary sea battle.

Every submarine starts a battle undetected. In the first cycle, before any other step (battleship AA included),
each destroyer facing enemy submarines rolls one die, each nation's destroyers apart; a die at or under the
destroyer-to-detect value detects every opposing submarine. The value is 2, +1 when an aircraft of the detecting
side is in the battle (+2 instead with Long Range Aircraft), +1 with Super Destroyers, -2 against submarines of a
power with Improved Shipyards (0 or less: no detection). Undetected submarines fire in opening fire even against a
destroyer, their hits removed at the end of it, and may submerge right after it; those that stay are detected.
Detected submarines follow the Anniversary rules (an enemy destroyer moves their fire to the main step).
"""

from __future__ import annotations

from aare.combat.rules import SubDetection
from aare.combat.sub_detection import detection_hooks
from aare.rules.rule_module import RuleModule, register_module

R = "AA50E-SUBDET-"

DETECTION = SubDetection(
    base=2,
    air_bonus=1,
    long_range_air_bonus=2,
    long_range_tech="long_range_aircraft",
    air_of_side=True,
    destroyer_tech="super_destroyers",
    destroyer_tech_bonus=1,
    destroyer_tech_label="super destroyers",
    sub_tech="improved_shipyards",
    sub_tech_penalty=2,
    sub_tech_label="improved shipyards",
    suicide_flag="",
    base_rule=R + "base-value",
    air_rule=R + "mod-airpower",
    long_range_rule=R + "mod-long-range-air",
    destroyer_tech_rule=R + "mod-super-destroyers",
    sub_tech_rule=R + "mod-improved-shipyards",
    suicide_rule="",
    flag_stayers=False,
    roll_rule=R + "roll-timing",
    result_rule=R + "group-result",
    strike_rule=R + "undetected-hits-removed",
    submerge_rule=R + "undetected-submerge",
)


MODULE = register_module(
    RuleModule(
        id="aa50e_sub_detection",
        title="Anniversary Edition - Enhanced: submarine detection",
        rule_ids=tuple(R + slug for slug in (
            "start-undetected", "base-value", "only-destroyers", "roll-timing", "group-result",
            "detected-normal-rules", "undetected-hits-removed", "undetected-submerge", "stay-becomes-detected",
            "modifier-table", "mod-airpower", "mod-long-range-air", "mod-improved-shipyards", "mod-super-destroyers",
            "multinational",
        )),
        hooks=detection_hooks(DETECTION),
        requires=("aa50_combat",),
    )
)
