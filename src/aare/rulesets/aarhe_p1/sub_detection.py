"""AARHE Phase 1 submarine detection (module `aarhep1_sub_detection`, the game option `submarine_detection`): the
proposal's Radar speaks of a detection roll against submarines that LHTR has not. With the option on, the core's
detection (`aare.combat.sub_detection`) opens every sea battle: each surface ship and each fighter facing enemy
submarines rolls one die, each nation's apart; a die of 2 or less, 4 or less with the nation's Radar, detects the
enemy submarines (AARHEP1-OPT-radar-sub-detection). Undetected submarines strike first even against a destroyer
and may submerge after the opening fire; detected ones follow LHTR's rules. Without the option LHTR's destroyer
rule alone holds and Radar does nothing at sea."""

from __future__ import annotations

from aare.combat.rules import SubDetection
from aare.combat.sub_detection import detection_hooks
from aare.rules.rule_module import RuleModule, register_module

R_RADAR_SUBS = "AARHEP1-OPT-radar-sub-detection"
OPTION = "submarine_detection"

DETECTION = SubDetection(
    base=2, air_bonus=0, long_range_air_bonus=0,
    destroyer_tech="radar", destroyer_tech_bonus=2, destroyer_tech_label="radar",
    sub_tech="", sub_tech_penalty=0, sub_tech_label="", suicide_penalty=0, suicide_flag="",
    base_rule=R_RADAR_SUBS, air_rule=R_RADAR_SUBS, long_range_rule=R_RADAR_SUBS, destroyer_tech_rule=R_RADAR_SUBS,
    sub_tech_rule=R_RADAR_SUBS, suicide_rule="", roll_rule=R_RADAR_SUBS, result_rule=R_RADAR_SUBS,
    strike_rule=R_RADAR_SUBS, submerge_rule=R_RADAR_SUBS,
    detectors=("domain:sea", "fighter"), detector_label="ships and fighters",
)


AARHEP1_SUB_DETECTION = register_module(
    RuleModule(
        id="aarhep1_sub_detection",
        title="AARHE Phase 1 submarine detection by ships and fighters (2, 4 with Radar)",
        rule_ids=(R_RADAR_SUBS,),
        hooks=detection_hooks(DETECTION),
        option=OPTION,
    )
)
