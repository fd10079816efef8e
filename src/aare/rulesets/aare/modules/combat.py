"""AARe 5.0 combat: the land and naval combat sequences with submarine detection, the air/sub attack rule
and AARe's combat values (seed "BASE GAME" 9 and 10, "LAND COMBAT SEQUENCE", "NAVAL COMBAT SEQUENCE").

The opening-fire sub-steps that techs and national advantages use (interceptors, battleship AA, coastal
defence, German 88s, Kaitens, Kamikazes) are empty anchors here; the modules of those rules fill them with
`Sequence.replace`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.board.units import UnitCatalogue
from aare.combat.battle_state import Stacks, UnitKey
from aare.combat.rules import CombatRules, SubDetection, TechBonus
from aare.combat.sequences import Sequence
from aare.combat.steps import anchor
from aare.combat.sub_detection import steps
from aare.errors import IllegalAction
from aare.movement import flags
from aare.movement.move_checks import Check, Leg, Violation
from aare.movement.situation import Situation
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module

# AARE-NAVALSEQ-regular-sub-values: super subs attack at 3, defence stays 2; jets defend at 5.
AARE_TECH_BONUSES = (
    TechBonus("jet_fighters", "fighter", "defense", 1, "AARE-TECH-jet-defense-5"),
    TechBonus("super_submarines", "submarine", "attack", 1, "AARE-TECH-supersub-attack-3"),
)

# Land: 2a interceptors, 2b AA guns, 2c bombardment, 2d German 88s (AARE-LANDSEQ-step-order).
LAND_INTERCEPTORS = anchor("interceptors", "AARE-LANDSEQ-interceptors-sbr-rocket-only")
GERMAN_88S = anchor("german 88s", "AARE-LANDSEQ-step-order")
BOMBING_INTERCEPTORS = anchor("interceptors", "AARE-LANDSEQ-interceptors-sbr-rocket-only")
DETECTION = steps(SubDetection())
# Sea: 1a targets, 1b detection, 2a interceptors, 2b CA battleship AA, 2c coastal defence, 2d Kaitens,
# 2e Kamikazes, 2f regular subs, 3 removal, 3a undetected subs submerge (AARE-NAVALSEQ-step-order).
NAVAL_OPENING = (
    anchor("declare suicide targets", "AARE-NAVALSEQ-targets-before-detection"),
    DETECTION.detection,
    DETECTION.result,
    anchor("interceptors", "AARE-NAVALSEQ-interceptors-kami-only"),
    anchor("battleship aa", "AARE-NAVALSEQ-step-order"),
    anchor("coastal defence", "AARE-NAVALSEQ-step-order"),
    anchor("kaitens", "AARE-NAVALSEQ-step-order"),
    anchor("kamikazes", "AARE-NAVALSEQ-step-order"),
)


def aare_sequence(seq: Sequence, kind: str) -> Sequence:
    """The AARe sequence of `kind`, built at the LHTR anchors."""
    if kind in ("land", "amphibious"):
        return seq.insert_before("aa fire", LAND_INTERCEPTORS).insert_after("bombardment", GERMAN_88S)
    if kind == "bombing":
        return seq.insert_before("aa fire", BOMBING_INTERCEPTORS)
    if kind != "sea":
        return seq
    for step in NAVAL_OPENING:
        seq = seq.insert_before("attacker sub first strike", step)
    seq = seq.replace("attacker sub first strike", DETECTION.attacker_subs)
    seq = seq.replace("defender sub first strike", DETECTION.defender_subs)
    seq = seq.insert_after("remove opening fire casualties", DETECTION.attacker_submerge)
    return seq.insert_after(DETECTION.attacker_submerge.name, DETECTION.defender_submerge)


def surface_ships(stacks: Stacks, catalogue: UnitCatalogue, transports_count: bool = True) -> int:
    """Ships other than submarines (transports only when `transports_count`)."""
    return sum(
        n
        for k, n in stacks
        if catalogue[k.type].domain == "sea"
        and not catalogue[k.type].has("submarine")
        and (transports_count or not catalogue[k.type].has("transport"))
    )


def air_attack_refused(
    kind: str, attacker: Stacks, defender: Stacks, catalogue: UnitCatalogue, transports_count: bool = True
) -> IllegalAction | None:
    """AARE-AIRSUB-air-only-vs-subs-only: aircraft alone may not attack a sea zone whose enemy ships are all
    submarines; a surface ship there (AARE-AIRSUB-air-only-vs-subs-and-surface) or any own ship attacking
    with them (AARE-AIRSUB-air-with-naval-vs-subs-only) allows it."""
    if kind != "sea" or not attacker or any(catalogue[k.type].domain != "air" for k, _ in attacker):
        return None
    subs = any(catalogue[k.type].has("submarine") for k, _ in defender)
    if not subs or surface_ships(defender, catalogue, transports_count):
        return None
    return IllegalAction(
        "aircraft alone cannot attack a sea zone holding only submarines", "AARE-AIRSUB-air-only-vs-subs-only"
    )


def _air_attack_transports_count(kind: str, a: Stacks, d: Stacks, cat: UnitCatalogue) -> IllegalAction | None:
    return air_attack_refused(kind, a, d, cat, True)


def _air_attack_transports_ignored(kind: str, a: Stacks, d: Stacks, cat: UnitCatalogue) -> IllegalAction | None:
    return air_attack_refused(kind, a, d, cat, False)


def _enemy_ships(view: Situation, space: str) -> Stacks:
    """The enemy sea units in `space` that can be attacked (submerged subs left out)."""
    ships = [s for s in view.enemies(space) if view.unit(s).domain == "sea" and not flags.submerged(s)]
    return tuple((UnitKey(s.unit, s.owner), s.count) for s in ships)


def air_alone_vs_subs(leg: Leg, transports_count: bool) -> Violation | None:
    """An aircraft's combat move into a zone of only enemy submarines needs an own ship there or moving with it."""
    if not leg.combat or leg.raid or leg.domain != "air" or "sea" in leg.others:
        return None
    view, end = leg.view, leg.end
    if not view.is_sea(end) or any(view.unit(s).domain == "sea" for s in view.own(end)):
        return None
    aircraft = ((UnitKey(leg.stack.unit), 1),)
    refused = air_attack_refused("sea", aircraft, _enemy_ships(view, end), view.units, transports_count)
    if refused is None:
        return None
    reason = f"{end} holds only enemy submarines: aircraft need an own ship in the attack (move it first)"
    return Violation(reason, refused.rule_id)


def ships_leaving(leg: Leg) -> int:
    """How many sea units leave `leg.start` in the leg's action (the ships named with it included)."""
    named = sum(n for u, n in leg.company if leg.view.units[u].domain == "sea")
    return max(named, leg.stack.count)


def ships_stay_with_aircraft(leg: Leg, transports_count: bool) -> Violation | None:
    """The last own ships in a zone of only enemy submarines may not leave in combat move once aircraft have
    flown in to attack it with them."""
    view, start = leg.view, leg.start
    if not leg.combat or leg.domain != "sea" or not leg.cost or not view.hostile(start):
        return None
    own = view.own(start)
    flown_in = [s for s in own if view.unit(s).domain == "air" and flags.has(s, flags.COMBAT)]
    aircraft = tuple((UnitKey(s.unit), s.count) for s in flown_in)
    if not aircraft or sum(s.count for s in own if view.unit(s).domain == "sea") > ships_leaving(leg):
        return None
    refused = air_attack_refused("sea", aircraft, _enemy_ships(view, start), view.units, transports_count)
    if refused is None:
        return None
    reason = f"aircraft attack the submarines in {start} and need an own ship there: {leg.where} cannot leave"
    return Violation(reason, refused.rule_id)


def _move_checks(checks: list[Check], ruleset: Any, **_: Any) -> list[Check]:
    """AARE-AIRSUB-*, in combat move: an aircraft may fly into a sea zone whose enemy ships are all subs only
    with own ships moving with it or already there (move the ships first), and the last of those ships may not
    leave once it has; the restriction applies to combat move only (AARE-AIRSUB-combat-move-only)."""
    transports_count = bool(ruleset.options.get("air_attack_transports_are_surface", True))

    def entering(leg: Leg) -> Violation | None:
        return air_alone_vs_subs(leg, transports_count)

    def leaving(leg: Leg) -> Violation | None:
        return ships_stay_with_aircraft(leg, transports_count)

    return [*checks, entering, leaving]


def _combat_rules(rules: CombatRules, ruleset: Any, **_: Any) -> CombatRules:
    """Sub detection at base 3 (AARE-SUBDET-baseline-value-3), AARe tech values, the air/sub check."""
    check = (
        _air_attack_transports_count
        if ruleset.options.get("air_attack_transports_are_surface", True)
        else _air_attack_transports_ignored
    )
    return replace(
        rules,
        sub_detection=SubDetection(),
        tech_bonuses=AARE_TECH_BONUSES,
        declaration_checks=(*rules.declaration_checks, check),
    )


def _combat_sequence(seq: Sequence, kind: str, **_: Any) -> Sequence:
    return aare_sequence(seq, kind)


AARE_COMBAT = register_module(
    RuleModule(
        id="aare_combat",
        title="AARe 5.0 combat sequences, submarine detection and air/sub interaction",
        rule_ids=(
            "AARE-SUBDET-start-undetected",
            "AARE-SUBDET-baseline-value-3",
            "AARE-SUBDET-only-dds-roll",
            "AARE-SUBDET-one-roll-per-dd",
            "AARE-SUBDET-roll-threshold",
            "AARE-SUBDET-sides",
            "AARE-SUBDET-no-opposing-dd",
            "AARE-SUBDET-detected-normal",
            "AARE-SUBDET-undetected-hits-stick",
            "AARE-SUBDET-undetected-submerge",
            "AARE-SUBDET-decline-becomes-detected",
            "AARE-SUBDET-air-modifier",
            "AARE-SUBDET-lra-modifier",
            "AARE-SUBDET-ca-modifier",
            "AARE-SUBDET-supersub-modifier",
            "AARE-SUBDET-kaiten-modifier",
            "AARE-SUBDET-modifiers-sum",
            "AARE-SUBDET-split-dd-groups",
            "AARE-SUBDET-split-sub-groups",
            "AARE-AIRSUB-air-only-vs-subs-only",
            "AARE-AIRSUB-air-only-vs-subs-and-surface",
            "AARE-AIRSUB-air-with-naval-vs-subs-only",
            "AARE-AIRSUB-combat-move-only",
            "AARE-LANDSEQ-step-order",
            "AARE-NAVALSEQ-step-order",
            "AARE-NAVALSEQ-regular-sub-values",
            "AARE-NAVALSEQ-opening-casualty-removal",
            "AARE-NAVALSEQ-press-retreat-submerge",
        ),
        hooks={"combat_rules": _combat_rules, "combat_sequence": _combat_sequence, "move_checks": _move_checks},
        requires=("lhtr",),
        options=(
            OptionSpec(
                key="air_attack_transports_are_surface",
                type=bool,
                default=True,
                help="a transport counts as a surface ship, so aircraft alone may attack subs escorting it",
                rule_id="AARE-AIRSUB-air-only-vs-subs-and-surface",
            ),
        ),
    )
)
