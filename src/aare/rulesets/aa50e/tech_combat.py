"""AA50E technologies in battle, raids, rockets and production (module `aa50e_tech`, seed 9):

- Advanced Artillery: attacking artillery hit on 3 in the first cycle (AA50E-TECH-adv-artillery-attack-3); each
  supports two infantry (the Anniversary bonus, AA50E-TECH-adv-artillery-support-two).
- Super Destroyers: destroyers attack at 3 (AA50E-TECH-super-destroyers-attack); no tech raises submarines.
- Jet Power: fighters attack at 4 (the Anniversary bonus; option `jet_defence_5` adds the Anniversary defence
  of 5), AA guns and battleships hit them 1 lower (AA50E-TECH-jet-aa-minus-one), and the jets in a territory
  raided or struck by a rocket roll a die each at 1 after the AA fire (AA50E-TECH-jet-intercept-*).
- Long Range Aircraft: fighters may escort raids, each neutralising an interceptor; escorts beyond the
  interceptors give each a protection roll to a bomber hit by AA (1-3 lost, 4-6 home), escorts are not fired on
  (AA50E-TECH-lra-escort-*). The steps and the raid's forces are the core's (`aare.combat.air_defence`,
  `aare.phases.raid_forces`).
- Radar: AA guns hit on 2 (Anniversary; battleships `aa50e_combat`), and shoot at a rocket aimed at their
  territory, hitting on 2 (AA50E-TECH-radar-rocket-defence).
- Paratroopers: the Anniversary drop in combat move (the carrying bomber attacks where it drops, in the first
  enemy land territory it enters, and raids nothing), and the core's air transport in non-combat move
  (AA50E-TECH-paratroopers-*).
- Improved Factories: every complex produces 2 more (option `improved_factories_min_value` keeps the Anniversary
  floor of 3), repairs cost half, rounded up (AA50E-TECH-improved-factories-*).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.combat import air_defence as ad
from aare.combat.rules import CombatRules, TechBonus
from aare.combat.sequences import Sequence
from aare.phases.air_transport import AirLift, NonCombatAirTransport
from aare.phases.raid_forces import battle_inputs, escort_check, interceptors, with_escorts
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aa50.bombing import factory_effects
from aare.rulesets.aa50.research import has_tech

IF = "improved_factories"
R_ART3 = "AA50E-TECH-adv-artillery-attack-3"
R_SUPER_DD = "AA50E-TECH-super-destroyers-attack"
R_JET = "AA50E-TECH-jet-attack"
R_JET_AA = "AA50E-TECH-jet-aa-minus-one"
R_INTERCEPT = "AA50E-TECH-jet-intercept-roll"
R_ESCORT = "AA50E-TECH-lra-escort-neutralize"
R_RADAR_ROCKET = "AA50E-TECH-radar-rocket-defence"
R_IF_CAP, R_IF_REPAIR = "AA50E-TECH-improved-factories-cap", "AA50E-TECH-improved-factories-repair"
RADAR_ROCKET_HIT = 2
JET_DEFENCE = OptionSpec(
    "jet_defence_5", bool, False,
    "Jet Power fighters also defend at 5, as the Anniversary Jet Fighters do (off: the variant's list is the whole "
    "technology)", R_JET,
)
IF_MIN_VALUE = OptionSpec(
    "improved_factories_min_value", int, 0,
    "Improved Factories add 2 units only at complexes in territories worth this much or more (0: every complex; "
    "3: the Anniversary Increased Factory Production floor)", R_IF_CAP, choices=(0, 3),
)
BONUSES = (
    TechBonus("advanced_artillery", "artillery", "attack", 1, R_ART3, cycles=1),
    TechBonus("super_destroyers", "destroyer", "attack", 1, R_SUPER_DD),
)
ESCORTS = escort_check(R_ESCORT, "AA50-SBR-declare")
R_PARA = "AA50E-TECH-paratroopers-carry"
PARATROOPERS_NCM = NonCombatAirTransport(AirLift("paratroopers", R_PARA, R_PARA, R_PARA, R_PARA, R_PARA, "bombers"))


def _combat_rules(rules: CombatRules, ruleset: Any = None, **_: Any) -> CombatRules:
    """The AA50E tech bonuses in place of Super Submarines; AA 1 lower against jets; raids admit escorts and
    interceptors."""
    kept = tuple(b for b in rules.tech_bonuses if b.tech != "super_submarines")
    extra: tuple[TechBonus, ...] = BONUSES
    if ruleset is not None and ruleset.options.get(JET_DEFENCE.key, False):
        extra += (TechBonus("jet_fighters", "fighter", "defense", 1, R_JET),)
    return replace(rules, tech_bonuses=(*kept, *extra), jet_aa_reduction=1, sbr_escorts=True, sbr_interceptors=True)


def _combat_sequence(seq: Sequence, kind: str, **_: Any) -> Sequence:
    """Raids: AA fire at the bombers only, the escorts' protection roll for the surplus escorts, then the
    interceptors (after the AA fire, AA50E-TECH-jet-intercept-timing)."""
    if kind != "bombing":
        return seq
    seq = seq.replace("aa fire", ad.RAID_AA).insert_after("aa fire", ad.ESCORT_PROTECTION[True])
    seq = seq.insert_after(ad.PROTECTION_DIE, ad.ESCORT_PROTECTION_RESULT)
    return seq.insert_after(ad.ESCORT_PROTECTION_RESULT.name, ad.INTERCEPTORS)


def _rocket_defence(found: list[Any], ruleset: Any, state: Any, power: str, target: str,
                    **_: Any) -> list[Any]:
    """A rocket meets the target's AA gun of a power with Radar (one die at 2), then each jet fighter there
    (a die at 1), AA50E-TECH-radar-rocket-defence, -jet-intercept-roll."""
    board, units = ruleset.board, ruleset.units
    side = board.side_of(power)
    out = list(found)
    guns = [s for s in state.stacks(target)
            if units[s.unit].has("aa") and board.side_of(s.owner) != side and has_tech(state, s.owner, "radar")]
    if guns:
        out.append(("radar AA at a rocket", 1, RADAR_ROCKET_HIT, R_RADAR_ROCKET))
    jets = sum(n for _, n in interceptors(state, ruleset, target, power))
    if jets:
        out.append(("jets intercepting a rocket", jets, ad.INTERCEPT_ON, R_INTERCEPT))
    return out


def _phase_actions(found: list[Any], phase: str, **_: Any) -> list[Any]:
    """Paratroopers also in non-combat move."""
    return [*found, PARATROOPERS_NCM] if phase == "non-combat-move" else found


def _move_checks(checks: list[Any], **_: Any) -> list[Any]:
    """Fighters with Long Range Aircraft may fly a raid as escorts."""
    return with_escorts(checks, ESCORTS)


EFFECTS = factory_effects(IF, (R_IF_CAP, R_IF_REPAIR),
                          ("Improved Factories", "Improved Factories: half price, rounded up"),
                          lambda ruleset: int(ruleset.options.get(IF_MIN_VALUE.key, 0)))

MODULE = register_module(
    RuleModule(
        id="aa50e_tech",
        title="Anniversary Edition - Enhanced: technologies",
        rule_ids=(
            R_ART3, "AA50E-TECH-adv-artillery-support-two", R_SUPER_DD, R_JET, R_JET_AA, R_INTERCEPT,
            "AA50E-TECH-jet-intercept-timing", "AA50E-TECH-jet-intercept-scope", R_ESCORT,
            "AA50E-TECH-lra-escort-aa-protection", "AA50E-TECH-lra-escort-aa-immune", "AA50E-TECH-lra-range",
            "AA50E-TECH-radar-aa-2", R_RADAR_ROCKET, "AA50E-TECH-heavy-bombers-dice", "AA50E-TECH-heavy-bombers-cap",
            "AA50E-TECH-improved-shipyards-costs", R_IF_CAP, R_IF_REPAIR, "AA50E-TECH-improved-factories-no-crd-effect",
            "AA50E-TECH-rockets-enable", "AA50E-TECH-rockets-one-per-territory", "AA50E-TECH-rockets-range-3",
            "AA50E-TECH-rockets-target-once", "AA50E-TECH-rockets-damage-cap", "AA50E-TECH-rockets-no-ncm",
            R_PARA, "AA50E-TECH-paratroopers-combat-same-territory", "AA50E-TECH-paratroopers-first-hostile-land",
            "AA50E-TECH-paratroopers-no-sbr",
        ),
        hooks={
            "combat_rules": _combat_rules,
            "combat_sequence": _combat_sequence,
            "battle_inputs": battle_inputs,
            "move_checks": _move_checks,
            "rocket_defence": _rocket_defence,
            "phase_actions": _phase_actions,
        },
        effects=EFFECTS,
        requires=("aa50_combat", "aa50_bombing", "aa50e_research"),
        options=(JET_DEFENCE, IF_MIN_VALUE),
    )
)
