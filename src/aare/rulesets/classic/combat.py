"""Classic combat (module `classic_combat`): the combat switches of the 2nd-edition rules, the sea battle's cycle
(attacking submarines strike first every round, defending ones fire with the other defenders, either side's
submarines may withdraw into a neighbouring sea zone, `withdrawal.py`), AA guns, shore bombardment, strategic
bombing out of the treasury and the combat effects of Jet Power, Super Submarines and Heavy Bombers."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.combat import steps as s
from aare.combat.rules import CombatRules, TechBonus
from aare.combat.sequences import Sequence
from aare.movement.situation import Situation
from aare.rules.effects import Effect
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.classic.withdrawal import WITHDRAW_RULE, battle_inputs, retreat_routes

SNEAK_RULE = "CL-NAVALCOMBAT-sub-sneak-attack"
BLITZ_RULE = "CL-LANDMOVE-blitz-blockers"
NO_TERRITORY_CAP = 1_000_000  # CL-SBR-no-territory-cap: more than any treasury holds

CLASSIC_TECH_BONUSES = (
    TechBonus("jet_fighters", "fighter", "defense", 1, "CL-WEAPONS-jet-power"),
    TechBonus("super_submarines", "submarine", "attack", 1, "CL-WEAPONS-super-subs"),
)
# The core's combat rules (illegal answers, the battles' events and decisions) under their Classic ids.
CLASSIC_RULE_IDS = {
    "LHTR-COMBAT-retreat-destination": "CL-COMBAT-attacker-retreat",
    "LHTR-COMBAT-attacker-retreat": "CL-COMBAT-attacker-retreat",
    "LHTR-COMBAT-air-retreat": "CL-TRANSPORT-unloaded-units-no-retreat",
    "LHTR-LANDCOMBAT-no-retreat-amphibious": "CL-TRANSPORT-unloaded-units-no-retreat",
    "LHTR-COMBAT-hit-eligibility": "CL-COMBAT-owner-chooses-casualties",
    "LHTR-COMBAT-owner-chooses-casualties": "CL-COMBAT-owner-chooses-casualties",
    "LHTR-SBR-eligibility": "CL-SBR-declare",
    "LHTR-BOMBARD-no-sea-battle": "CL-BOMBARD-no-sea-battle",
    "LHTR-BOMBARD-who-and-when": "CL-BOMBARD-not-a-move",
    "LHTR-NAVALCOMBAT-attacker-subs-submerge": WITHDRAW_RULE,
    "LHTR-NAVALCOMBAT-defender-subs-submerge": WITHDRAW_RULE,
    "LHTR-NAVALCOMBAT-sub-surprise-strike": SNEAK_RULE,
    "LHTR-NAVALCOMBAT-subs-cannot-hit-air": "CL-NAVALCOMBAT-sub-no-air-hits",
    "LHTR-NAVALCOMBAT-air-can-hit-subs": "CL-NAVALCOMBAT-sub-no-air-hits",
    "LHTR-NAVALCOMBAT-carrier-fighters-defend": "CL-AIRMOVE-defend-on-carrier",
    "LHTR-AIRMOVE-defending-carrier-lost": "CL-AIRMOVE-defend-on-carrier",
    "LHTR-COMBAT-battle-order": "CL-COMBAT-attacker-orders-battles",
    "LHTR-COMBAT-land-sequence": "CL-COMBAT-round-sequence",
    "LHTR-COMBAT-naval-sequence": "CL-COMBAT-round-sequence",
    "LHTR-COMBAT-simultaneous-fire": "CL-COMBAT-defender-casualties-fire-back",
    "LHTR-COMBAT-end-conditions": "CL-COMBAT-continue-until",
    "LHTR-COMBAT-capture": "CL-COMBAT-capture-on-win",
    "LHTR-COMBAT-no-joint-attacks": "CL-TURN-allied-units-share-spaces",
    "LHTR-TRANSPORT-sea-battle-lost": "CL-TRANSPORT-amphibious-assault",
    "LHTR-AA-battle-fire": "CL-AA-attacked-territory",
    "LHTR-AA-rolled-per-aircraft": "CL-AA-attacked-territory",
    "LHTR-AA-flyover": "CL-AA-flyover",
    "LHTR-AA-sbr-fire": "CL-SBR-aa-then-damage",
    "LHTR-SBR-damage-roll": "CL-SBR-aa-then-damage",
    "LHTR-ECON-economic-damage-from-treasury": "CL-SBR-aa-then-damage",
    "LHTR-SBR-turn-cap": "CL-SBR-no-territory-cap",
    "LHTR-ECON-damage-cap-per-turn": "CL-SBR-no-territory-cap",
    "LHTR-BOMBARD-casualties-no-return-fire": "CL-BOMBARD-casualties-fire-back",
    "LHTR-TECH-jet-fighters": "CL-WEAPONS-jet-power",
    "LHTR-TECH-super-subs": "CL-WEAPONS-super-subs",
}

ATTACKER_SUBS_WITHDRAW = OptionSpec(
    "attacking_subs_withdraw", bool, True,
    "attacking submarines may withdraw from a sea battle after any round while the rest fight on",
    WITHDRAW_RULE,
)
DEFENDING_SUBS_WITHDRAW = OptionSpec(
    "defending_subs_withdraw", bool, True,
    "defending submarines may withdraw from a sea battle after any round while the rest fight on",
    WITHDRAW_RULE,
)
AMPHIBIOUS_AIR_RETREAT = OptionSpec(
    "amphibious_air_retreat", bool, False,
    "the aircraft of an amphibious assault may retreat alone (off: no attacking unit retreats once land units "
    "came ashore from the sea)", "CL-TRANSPORT-unloaded-units-no-retreat",
)

SNEAK_ATTACK = replace(s.ATTACKER_SUBS, rule=SNEAK_RULE, model=s.ATTACKER_SUBS.name)
ATTACKER_WITHDRAW = replace(s.ATTACKER_SUBMERGE, run=s.submerge_step("attacker", WITHDRAW_RULE, withdraw=True),
                            rule=WITHDRAW_RULE, model=s.ATTACKER_SUBMERGE.name)
DEFENDER_WITHDRAW = replace(s.DEFENDER_SUBMERGE, run=s.submerge_step("defender", WITHDRAW_RULE, withdraw=True),
                            rule=WITHDRAW_RULE, model=s.DEFENDER_SUBMERGE.name)


def _option(ruleset: Any, spec: OptionSpec) -> bool:
    return bool(ruleset.options.get(spec.key, spec.default)) if ruleset is not None else bool(spec.default)


def _combat_rules(rules: CombatRules, ruleset: Any = None, **_: Any) -> CombatRules:
    """Only attacking subs strike first, defending subs roll with the other defenders
    (CL-NAVALCOMBAT-sub-sneak-attack, -defending-subs-normal); aircraft may hit subs, sub hits never aircraft
    (CL-NAVALCOMBAT-sub-no-air-hits); either side's subs may withdraw after a round
    (CL-NAVALCOMBAT-sub-withdraw); transports are ordinary casualties (CL-UNITS-transport); bombardment
    casualties fire back (CL-BOMBARD-casualties-fire-back); no retreat from an amphibious assault
    (CL-TRANSPORT-unloaded-units-no-retreat); raids by bombers alone with no territory cap (CL-SBR-declare,
    CL-SBR-no-territory-cap); Heavy Bombers roll three dice that all count, summed in a raid, one die in defence
    (CL-WEAPONS-heavy-bombers); Jet Power and Super Submarines (CL-WEAPONS-jet-power, -super-subs)."""
    return replace(
        rules,
        defender_subs_fire_first=False,
        destroyer_moves_sub_fire_to_main_step=False,
        air_hits_subs_without_destroyer=True,
        attacker_subs_may_submerge=_option(ruleset, ATTACKER_SUBS_WITHDRAW),
        defender_subs_may_submerge=_option(ruleset, DEFENDING_SUBS_WITHDRAW),
        aa_hit_on=1,
        heavy_bomber_dice=3,
        heavy_bomber_best_of=False,
        heavy_bombers_on_defense=False,
        heavy_bomber_sbr_bonus=0,
        heavy_bomber_sbr_best_of=False,
        sbr_escorts=False,
        sbr_interceptors=False,
        sbr_turn_cap=False,
        bombard_casualties_fire_back=True,
        amphibious_air_retreat=_option(ruleset, AMPHIBIOUS_AIR_RETREAT),
        last_casualty_tags=(),
        lone_defenceless_removed=False,
        tech_bonuses=CLASSIC_TECH_BONUSES,
    )


def _combat_sequence(seq: Sequence, kind: str, **_: Any) -> Sequence:
    """Sea battles: the attacking subs' sneak attack opens every round, the defending subs have no step of their
    own (they fire in the defender's main step), and the submarines' submerge steps are their withdrawal
    (CL-COMBAT-round-sequence, CL-NAVALCOMBAT-sub-sneak-attack, CL-NAVALCOMBAT-sub-withdraw)."""
    if kind != "sea":
        return seq
    return (
        seq.replace(s.ATTACKER_SUBS.name, SNEAK_ATTACK)
        .remove(s.DEFENDER_SUBS.name)
        .replace(s.ATTACKER_SUBMERGE.name, ATTACKER_WITHDRAW)
        .replace(s.DEFENDER_SUBMERGE.name, DEFENDER_WITHDRAW)
    )


def _flyover_aa(found: dict[str, str], view: Situation | None = None, **_: Any) -> dict[str, str]:
    """AA guns fire at enemy aircraft flying over them in combat movement (CL-AA-flyover), also an AA gun the
    mover took by blitz earlier in the same combat movement (CL-LANDMOVE-blitz-blockers)."""
    out = {space: "CL-AA-flyover" for space in found}
    if view is not None:
        out |= {space: BLITZ_RULE for space in blitz_taken_aa(view) if space not in out}
    return out


def blitz_taken_aa(view: Situation) -> list[str]:
    """Territories an enemy of the mover held when the turn began that the mover's side holds now (only a blitz
    takes a territory before combat) with an AA gun of the mover's side in them: the gun taken with the
    territory."""
    out = []
    for space in sorted(view.graph.land):
        start = view.start_owners.get(space)
        if start is None or view.friend(start) or not view.friend(view.state.owners.get(space)):
            continue
        if any(view.friend(s.owner) and view.unit(s).has("aa") for s in view.stacks(space)):
            out.append(space)
    return out


def _rule_ids(names: dict[str, str], **_: Any) -> dict[str, str]:
    return {**names, **CLASSIC_RULE_IDS}


MODULE = register_module(
    RuleModule(
        id="classic_combat",
        title="Classic combat",
        rule_ids=(
            "CL-COMBAT-round-sequence",
            "CL-COMBAT-attacker-retreat",
            "CL-NAVALCOMBAT-sub-sneak-attack",
            "CL-NAVALCOMBAT-defending-subs-normal",
            "CL-NAVALCOMBAT-sub-no-air-hits",
            "CL-NAVALCOMBAT-sub-withdraw",
            "CL-AA-flyover",
            "CL-BOMBARD-casualties-fire-back",
            "CL-SBR-declare",
            "CL-SBR-no-territory-cap",
            "CL-WEAPONS-jet-power",
            "CL-WEAPONS-super-subs",
            "CL-WEAPONS-heavy-bombers",
        ),
        hooks={"combat_rules": _combat_rules, "combat_sequence": _combat_sequence, "flyover_aa": _flyover_aa,
               "rule_ids": _rule_ids, "battle_inputs": battle_inputs, "retreat_routes": retreat_routes},
        effects=(Effect("damage_cap", "*", "set", NO_TERRITORY_CAP, "CL-SBR-no-territory-cap",
                        "raid losses are capped only by the treasury"),),
        options=(ATTACKER_SUBS_WITHDRAW, DEFENDING_SUBS_WITHDRAW, AMPHIBIOUS_AIR_RETREAT),
    )
)
