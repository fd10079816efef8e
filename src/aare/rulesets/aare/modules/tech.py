"""AARe 5.0 weapons development (seed "WEAPONS DEVELOPMENT" 1-9): the six techs' AARe effects and AARe
research. The tech ids are LHTR's (`combined_bombardment` is Combined Arms).

- Jet fighters: defend at 5 (the `aare_combat` tech bonuses), AA against them -1 (`CombatRules.jet_aa_reduction`,
  also Combined Arms battleship AA), interceptors in raids, rocket strikes and at sea against Kamikazes.
- Rockets: the LHTR rocket with the target's interceptors (`aare.rulesets.aare.weapons.rockets`).
- Super subs: attack 3, defence 2 (`aare_combat`), detection -1 (`SubDetection`).
- Long range aircraft: fighters 6, bombers 8 (movement), detection +2 (`SubDetection`), escorts on raids.
- Combined Arms: destroyers bombard (LHTR `destroyer_bombard_tech`), detection +1, battleships fire AA.
- Heavy bombers: 2 dice that all count in attack, the sum of 2 dice in raids, 1 die in defence; air transport
  of infantry in non-combat move (`aare.rulesets.aare.weapons.air_transport`).
- Research: major 5 / minor 4 per roll, -1 when an ally has the tech, the 4:2 rule
  (`aare.rulesets.aare.weapons.research`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.combat import air_defence as ad
from aare.combat.rules import CombatRules
from aare.combat.sequences import Sequence
from aare.phases import raid_forces
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aare.weapons import board
from aare.rulesets.aare.weapons.air_transport import AIR_TRANSPORT
from aare.rulesets.aare.weapons.research import COST_EFFECTS, RESEARCH
from aare.rulesets.aare.weapons.rockets import ROCKETS_EXTENSION

EXTENSIONS = {ext.name: ext for ext in (RESEARCH, ROCKETS_EXTENSION, AIR_TRANSPORT)}


def _combat_rules(rules: CombatRules, **_: Any) -> CombatRules:
    """AA -1 against jets (AARE-TECH-jet-aa-reduction); heavy bombers as in out-of-box Revised
    (AARE-TECH-hb-two-dice): every die counts in attack, 1 die in defence, the sum of 2 dice in raids; raids admit
    escorts and interceptors."""
    return replace(
        rules,
        jet_aa_reduction=1,
        heavy_bomber_best_of=False,
        heavy_bombers_on_defense=False,
        heavy_bomber_sbr_bonus=0,
        heavy_bomber_sbr_best_of=False,
        sbr_escorts=True,
        sbr_interceptors=True,
    )


def _combat_sequence(seq: Sequence, kind: str, ruleset: Any, **_: Any) -> Sequence:
    """Interceptors (2a), battleship AA (2b) and the escorts' protection roll at the AARe anchors; with
    `interceptors_before_aa` off the interceptors roll after the AA fire (AARE-TECH-jet-intercept-timing)."""
    first = bool(ruleset.options.get("interceptors_before_aa", True))
    if kind == "bombing":
        surplus = ruleset.options.get("escort_protection", "all") == "surplus"
        seq = seq.replace("aa fire", ad.RAID_AA)
        seq = seq.insert_after("aa fire", ad.ESCORT_PROTECTION[surplus])
        seq = seq.insert_after(ad.PROTECTION_DIE, ad.ESCORT_PROTECTION_RESULT)
        seq = seq.replace("interceptors", ad.INTERCEPTORS)
        return seq if first else seq.remove("interceptors").insert_after("aa fire", ad.INTERCEPTORS)
    if kind == "sea":
        seq = seq.replace("interceptors", ad.INTERCEPTORS).replace("battleship aa", ad.BATTLESHIP_AA)
        return seq if first else seq.remove("interceptors").insert_after("battleship aa", ad.INTERCEPTORS)
    return seq


def _phase_actions(found: list[Any], phase: str, **_: Any) -> list[Any]:
    """AARe research (develop-weapons), rockets (conduct-combat), air transport (non-combat move)."""
    extension = EXTENSIONS.get(phase)
    return [*found, extension] if extension is not None else found


AARE_TECH = register_module(
    RuleModule(
        id="aare_tech",
        title="AARe 5.0 weapons development",
        rule_ids=(
            "AARE-TECH-jet-defense-5",
            "AARE-TECH-jet-aa-reduction",
            "AARE-TECH-jet-ca-bb-reduction",
            "AARE-TECH-jet-intercept-roll",
            "AARE-TECH-jet-intercept-timing",
            "AARE-TECH-jet-intercept-attackers-only",
            "AARE-TECH-jet-intercept-mixed-choice",
            "AARE-TECH-jet-still-defend",
            "AARE-TECH-rockets-strike",
            "AARE-TECH-rockets-one-gun-per-territory",
            "AARE-TECH-rockets-ic-once",
            "AARE-TECH-rockets-cap",
            "AARE-TECH-supersub-attack-3",
            "AARE-TECH-lra-movement",
            "AARE-TECH-lra-escort-neutralize",
            "AARE-TECH-lra-escort-partial-aa-protection",
            "AARE-TECH-lra-escort-aa-exempt",
            "AARE-TECH-ca-dd-bombard",
            "AARE-TECH-ca-bb-aa-attackers",
            "AARE-TECH-ca-bb-aa-flyover",
            "AARE-TECH-ca-bb-one-per-sz",
            "AARE-TECH-ca-bb-normal-roll-kept",
            "AARE-TECH-hb-two-dice",
            "AARE-TECH-hb-sbr-cap",
            "AARE-TECH-hb-air-transport",
            "AARE-TECH-hb-air-transport-movement",
            "AARE-TECH-hb-air-transport-drop",
            "AARE-TECH-hb-air-transport-landing",
            "AARE-TECH-hb-air-transport-no-overnight",
            "AARE-TECH-major-cost-5",
            "AARE-TECH-minor-cost-4",
            "AARE-TECH-42-first-attempt-min-4",
            "AARE-TECH-42-second-attempt-auto",
            "AARE-TECH-42-six-rolls-auto",
            "AARE-TECH-effective-at-mobilize",
            "AARE-TECH-shared-discount",
            "AARE-TECH-shared-discount-max-1",
            "AARE-TECH-shared-42-applies",
        ),
        hooks={
            "combat_rules": _combat_rules,
            "combat_sequence": _combat_sequence,
            "move_checks": board.move_checks,
            "battle_inputs": raid_forces.battle_inputs,
            "flyover_aa": board.flyover_aa,
            "phase_actions": _phase_actions,
        },
        effects=COST_EFFECTS,
        requires=("lhtr", "aare_combat"),
        options=(
            OptionSpec(
                key="interceptors_before_aa",
                type=bool,
                default=True,
                help="jet interceptors roll before AA fire (the combat sequences) rather than after it (the jet text)",
                rule_id="AARE-TECH-jet-intercept-timing",
            ),
            OptionSpec(
                key="battleship_aa_flyover",
                type=bool,
                default=True,
                help="Combined Arms battleships also fire at enemy aircraft flying over their sea zone in combat move",
                rule_id="AARE-TECH-ca-bb-aa-flyover",
            ),
            OptionSpec(
                key="escort_protection",
                type=str,
                default="all",
                choices=("all", "surplus"),
                help="escorts outnumbering interceptors protect every bomber of the raid hit by AA (all), or only "
                "as many as the surplus of escorts (surplus)",
                rule_id="AARE-TECH-lra-escort-partial-aa-protection",
            ),
        ),
    )
)
