"""AARHE land combat (module `aarhe_combat`): the land sequence with its opening fire and main round, the
hit allocation, infrastructure defence, terrain and the retreats (AARHE-LANDSEQ-*, AARHE-AIRCOMBAT-*,
AARHE-LANDHIT-*, AARHE-ID-*, AARHE-TERRAIN-combat-modifier, AARHE-LANDRETREAT-*: `land_retreats`).

A cycle: (opening fire) IDs search and attack, attacking then defending aircraft fire, casualties removed;
(main round) attacking then defending land units fire, casualties removed; then the forced retreat, the
attacker's and the defender's retreats and the capture dice. An amphibious assault has its own first cycle
(module `aarhe_amphibious`) and this cycle after it. Sea battles: `aarhe_naval`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.combat import steps as s
from aare.combat.battle_state import Side, UnitKey, add_units, make_stacks
from aare.combat.rules import CombatRules
from aare.combat.sequences import Sequence
from aare.combat.setup import Battle
from aare.combat.steps import Step, StepResult, roll
from aare.movement.battles import BattleSite
from aare.rules.rule_module import RuleModule, register_module
from aare.rules.ruleset import Ruleset
from aare.rulesets.aarhe import combat_values as v
from aare.rulesets.aarhe import infrastructure as infra
from aare.rulesets.aarhe import land_retreats as retreats
from aare.rulesets.aarhe import overflight
from aare.rulesets.aarhe.build import ID
from aare.rulesets.aarhe.hooks import by_phase
from aare.rulesets.aarhe.terrain import terrain_of
from aare.rulesets.aarhe.victory import cities_on
from aare.state.game_state import GameState

R_OPENING_SEQ = "AARHE-LANDSEQ-opening-fire"
R_MAIN_SEQ = "AARHE-LANDSEQ-main-round"


def _air_fire(side: Side) -> Step:
    def run(battle: Battle) -> StepResult:
        return roll(battle, f"{side} air fire", v.air_groups(battle, side))

    return Step(f"{side} air fire", run, lambda b: bool(v.air(b, side)), rule=v.R_OPENING)


def _air_targets(side: Side) -> Step:
    def run(battle: Battle) -> StepResult:
        decision = v.target_choice(battle, side)
        return battle.state.evolve(pending=decision), []

    return Step(f"{side} air targets", run, lambda b: v.target_choice(b, side) is not None, rule=v.R_SELECTIVE)


def _mark_jets(battle: Battle) -> StepResult:
    """The aircraft of a power with Jet Plane are jets in this battle (AARHE-TECH-jet-plane)."""
    st = battle.state
    for side in ("attacker", "defender"):
        marked = [(k.with_flag(v.JET) if battle.setup.unit(k).domain == "air"
                   and v.JET_TECH in battle.setup.techs(side, k) else k, n) for k, n in st.units(side)]
        st = st.with_units(side, make_stacks(marked))
    return st, []


def _has_jets(battle: Battle) -> bool:
    return any(battle.setup.unit(k).domain == "air" and not k.has(v.JET) and v.JET_TECH in battle.setup.techs(side, k)
               for side in ("attacker", "defender") for k, _ in battle.state.units(side))


def _skip(side: Side) -> Step:
    """Jets that named an enemy land unit skip the dogfight: enemy aircraft cannot hit them this cycle."""

    def run(battle: Battle) -> StepResult:
        n = v.skipping(battle, side)
        out = []
        for key, count in battle.state.units(side):
            if n and key.has(v.JET) and key.present and not battle.setup.unit(key).has("bomber"):
                k = min(n, count)
                n -= k
                out += [(key.with_flag(v.SKIPS), k), (key, count - k)]
            else:
                out.append((key, count))
        return battle.state.with_units(side, make_stacks(out)), []

    return Step(f"{side} jets skip the dogfight", run, lambda b: v.skipping(b, side) > 0, rule=v.R_JET_SUPREMACY)


def _land_fire(side: Side) -> Step:
    def run(battle: Battle) -> StepResult:
        return roll(battle, f"{side} land fire", v.land_groups(battle, side))

    return Step(f"{side} land fire", run, rule=R_MAIN_SEQ)


def _remove_opening(battle: Battle) -> StepResult:
    """The opening fire's casualties go and repelled aircraft leave; detections and skipped dogfights last one
    cycle."""
    st, events = s.remove_opening(battle)
    for side in ("attacker", "defender"):
        st = st.with_units(side, make_stacks((k.without(infra.SPOTTED, v.SKIPS), n) for k, n in st.units(side)))
    return st, events


ID_SEARCH = Step("id search", infra.search, infra.search_applies, rule=infra.R_SEARCH)
ID_ATTACK = Step("id attack", infra.attack, infra.attack_applies, rule=infra.R_ATTACK)
REMOVE_OPENING = Step("remove opening fire casualties", _remove_opening, rule=R_OPENING_SEQ)

MARK_JETS = Step("jets", _mark_jets, _has_jets, cycles=1, rule=v.R_JET_PLANE)

LAND = Sequence("land", (
    MARK_JETS, ID_SEARCH, ID_ATTACK, _air_targets("attacker"), _air_targets("defender"), _skip("attacker"),
    _skip("defender"), _air_fire("attacker"), _air_fire("defender"), REMOVE_OPENING,
    _land_fire("attacker"), _land_fire("defender"), s.REMOVE_CASUALTIES, *retreats.STEPS,
))


def _sequence(sequence: Sequence, kind: str, **_: Any) -> Sequence:
    return LAND if kind == "land" else sequence


def _inputs(inputs: dict[str, Any], ruleset: Ruleset, state: GameState, site: BattleSite, **_: Any
            ) -> dict[str, Any]:
    """The battle's place: its terrain, and its built-in IDs (a complex 3, a victory city 1) for the territory's
    holder (`aarhe_build` leaves out the IDs still on their side)."""
    if site.kind not in ("land", "amphibious"):
        return inputs
    defender = inputs["defender"]
    holder = state.owners.get(site.space)
    complexes = sum(st.count for st in state.stacks(site.space) if st.unit == "factory")
    cities = 1 if site.space in cities_on(ruleset.board) else 0
    built = infra.built_in(complexes, cities)
    if holder and built and holder != site.attacker:
        defender = add_units(defender, UnitKey(ID, holder, 0, (infra.BUILT_IN,)), built)
    terrain = terrain_of(site.space)
    tags = frozenset({f"terrain:{terrain}"}) if terrain else frozenset()
    return retreats.battle_inputs({**inputs, "defender": defender, "site_tags": tags}, ruleset, state, site)


def _rules(rules: CombatRules, **_: Any) -> CombatRules:
    """Jet Plane's combat values (AARHE-TECH-jet-plane)."""
    kept = tuple(b for b in rules.tech_bonuses if b.tech != v.JET_TECH)  # LHTR's jet fighters' +1 gives way
    return replace(rules, tech_bonuses=(*kept, *v.JET_BONUSES))


def _units(catalogue: Any, **_: Any) -> Any:
    """Armour is a tank (AARHE-LANDHIT-tank-priority, AARHE-AIRCOMBAT-fighter-tank-bonus)."""
    armour = next(u for u in catalogue if u.has("blitz"))
    return catalogue.with_overrides({armour.id: {"tags": armour.tags | {v.TANK}}})


AARHE_COMBAT = register_module(
    RuleModule(
        id="aarhe_combat",
        title="AARHE land combat: opening fire, dogfights, hit allocation, infrastructure defence",
        rule_ids=(R_OPENING_SEQ, R_MAIN_SEQ, retreats.R_FORCED, retreats.R_ATTACKER, retreats.R_DEFENDER,
                  retreats.R_DESTINATIONS, retreats.R_LOST, retreats.R_CAPTURE, overflight.R_ID_FIRE,
                  overflight.R_INTERCEPTION,
                  v.R_OPENING, v.R_DOGFIGHT, v.R_AIR_FIRST, v.R_SUPREMACY, v.R_SELECTIVE, v.R_JETS_FIRST,
                  v.R_JET_SUPREMACY, v.R_JET_PLANE,
                  v.R_BOMBER_SHIPS, v.R_TANK_BONUS, v.R_LAND_ON_LAND, v.R_TANK_PRIORITY, v.R_TERRAIN,
                  infra.R_REPLACES, infra.R_LAND_FIRE, infra.R_NOT_CASUALTY, infra.R_SEARCH, infra.R_ATTACK,
                  infra.R_STACKING, infra.R_IMPLICIT),
        hooks={"combat_sequence": _sequence, "combat_rules": _rules, "battle_inputs": _inputs, "unit_catalogue": _units,
               "retreat_routes": retreats.retreat_routes, "phase_actions": by_phase(retreats.LOST_RETREATS),
               "flyover_aa": overflight.flyover_aa, "flyover_battle": overflight.flyover_battle},
    )
)
