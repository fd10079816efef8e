"""AARHE national attacks (module `aarhe_national_attacks`, option `national_attacks`; AARHE-NATATTACK-*): each
power's battle ability, put into its units' techs in a battle as ``na:<name>`` (the `battle_inputs` hook on
the board; ``--attacker-advantage blitzkrieg`` in the calculator, `battle_abilities`), where `TechBonus` records
change the values:

- Germany, blitzkrieg: with no enemy fighter in the battle, its fighters attack at +1 and each lifts one tank +1
  (the lift of air supremacy, never twice: `combat_values.land_groups`).
- Italy, home defence: Italian and German infantry defend at +1 in the first cycle in a territory Italy held at
  the start of the game (the board's original owner "Italy": the Italy player's map).
- Japan, lance torpedo: its fighters attack at +1 in sea battles, and its destroyers fire in the opening fire
  (with the battleships) in the first cycle of a sea battle, not in the main round.
- the Soviet Union, shock troops: in the first cycle of up to 3 of its attacks a turn (the first it fights), one
  infantry attacks at +1 in the opening fire (after the aircraft), not in the main round.
- the United Kingdom, radar: its fighters defend at +1 (combat and dogfight values) in the United Kingdom,
  Canada, India and Australia.
- the United States, marine: its infantry attack at +1 in the first cycle of an amphibious assault."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from functools import cache
from typing import Any

from aare.combat.battle_state import DiceGroup, Side, Target, UnitKey, make_stacks, other
from aare.combat.board_battle import with_tag
from aare.combat.rules import CombatRules, TechBonus
from aare.combat.sequences import Sequence
from aare.combat.setup import Battle
from aare.combat.steps import Step, StepResult, roll
from aare.combat.values import base_value, present
from aare.errors import UnknownName
from aare.movement.battles import BattleSite
from aare.phases.conduct_combat import combat_record
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe import naval_values as nv

R_BLITZ = "AARHE-NATATTACK-germany-blitzkrieg"
R_HOME = "AARHE-NATATTACK-italy-home-defence"
R_LANCE = "AARHE-NATATTACK-japan-lance-torpedo"
R_SHOCK = "AARHE-NATATTACK-ussr-shock-troops"
R_RADAR = "AARHE-NATATTACK-uk-radar"
R_MARINE = "AARHE-NATATTACK-us-marine"
OPTION = "national_attacks"

PREFIX = "na:"  # a national ability in a battle, as the calculator knows them
NAMES = ("blitzkrieg", "home-defence", "lance-torpedo", "shock-troops", "radar", "marine")
BLITZKRIEG, HOME_DEFENCE, LANCE_TORPEDO, SHOCK_TROOPS, RADAR, MARINE = (PREFIX + n for n in NAMES)
# the powers (the board's names) whose units have each ability
HOLDERS: dict[str, tuple[str, ...]] = {
    BLITZKRIEG: ("Germany",), HOME_DEFENCE: ("Italy", "Germany"), LANCE_TORPEDO: ("Japan",),
    SHOCK_TROOPS: ("Russia",), RADAR: ("United Kingdom",), MARINE: ("United States",),
}
HOME_OWNER = "Italy"  # home defence: territories whose original owner is Italy
RADAR_HOMES = frozenset({"United Kingdom", "Eastern Canada", "Western Canada", "India", "Australia"})
SHOCK_PER_TURN = 3


def no_enemy_fighters(battle: Battle, side: Side, key: UnitKey | None = None) -> bool:
    return not any(battle.setup.unit(k).has("fighter") for k, _ in present(battle, other(side)))


def blitzkrieg(battle: Battle, side: Side) -> bool:
    """Germany's blitzkrieg holds for `side`: it attacks with the ability and meets no enemy fighter."""
    return side == "attacker" and BLITZKRIEG in battle.setup.techs(side) and no_enemy_fighters(battle, side)


def radar(battle: Battle, side: Side, key: UnitKey) -> int:
    """The radar's +1 to a defending fighter's values."""
    return int(side == "defender" and RADAR in battle.setup.techs(side, key)
               and battle.setup.unit(key).has("fighter"))


def _at_sea(battle: Battle, side: Side, key: UnitKey) -> bool:
    return battle.state.kind == "sea"


def _amphibious(battle: Battle, side: Side, key: UnitKey) -> bool:
    return battle.state.kind == "amphibious"


def _one_unit(battle: Battle, side: Side, key: UnitKey) -> bool:
    """Shock troops: one infantry of the stack (the first unit key of its type gets it, as a group of one)."""
    return SHOCK_TROOPS in battle.setup.techs(side, key) and key.has(SHOCK_FLAG)


SHOCK_FLAG = "shock-troop"

BONUSES = (
    TechBonus(BLITZKRIEG, "fighter", "attack", 1, R_BLITZ, when=no_enemy_fighters),
    TechBonus(HOME_DEFENCE, "infantry", "defense", 1, R_HOME, cycles=1),
    TechBonus(LANCE_TORPEDO, "fighter", "attack", 1, R_LANCE, when=_at_sea),
    TechBonus(SHOCK_TROOPS, "infantry", "attack", 1, R_SHOCK, cycles=1, when=_one_unit),
    TechBonus(RADAR, "fighter", "defense", 1, R_RADAR),
    TechBonus(MARINE, "infantry", "attack", 1, R_MARINE, cycles=1, when=_amphibious),
)


def shock_battles(state: Any, ruleset: Any) -> list[str]:
    """The land territories the power to act fought in this turn (the shock troops' first three)."""
    spaces = ruleset.board.spaces
    return [f for f in combat_record(state)["fought"] if f in spaces and spaces[f].is_land]


def applies(tag: str, ruleset: Any, state: Any, site: BattleSite) -> bool:
    """Whether the ability counts in the battle at `site`."""
    if tag == RADAR:
        return site.space in RADAR_HOMES
    if tag == HOME_DEFENCE:
        return bool(ruleset.board.spaces[site.space].owner == HOME_OWNER)
    if tag == SHOCK_TROOPS:
        done = shock_battles(state, ruleset)
        return site.space in done or len(done) < SHOCK_PER_TURN
    return True


def _inputs(inputs: dict[str, Any], ruleset: Any, state: Any, site: BattleSite, **_: Any) -> dict[str, Any]:
    if site.kind not in ("land", "amphibious", "sea"):
        return inputs
    out = dict(inputs)
    for tag, powers in HOLDERS.items():
        if applies(tag, ruleset, state, site):
            for power in powers:
                out = with_tag(out, site.attacker, power, tag)
    return out


def _unmarked_shock_troops(battle: Battle) -> bool:
    return SHOCK_TROOPS in battle.setup.techs("attacker") and not any(
        k.has(SHOCK_FLAG) for k, _ in battle.state.units("attacker"))


def mark_shock_troop(battle: Battle) -> StepResult:
    """One attacking infantry is the shock troop (the first infantry of the attack)."""
    out: list[tuple[UnitKey, int]] = []
    done = False
    for key, n in battle.state.units("attacker"):
        if not done and key.present and battle.setup.unit(key).has("infantry"):
            out += [(key.with_flag(SHOCK_FLAG), 1), (key, n - 1)]
            done = True
        else:
            out.append((key, n))
    return battle.state.with_units("attacker", make_stacks(out)), []


SHOCK_STEP = Step("shock troops", mark_shock_troop, _unmarked_shock_troops, cycles=1, rule=R_SHOCK)


def shock_troop_early(battle: Battle, side: Side, key: UnitKey) -> bool:
    """The shock troop fires in the first cycle's opening fire, not in its main round."""
    return side == "attacker" and battle.state.cycle == 1 and key.has(SHOCK_FLAG) \
        and SHOCK_TROOPS in battle.setup.techs(side, key)


def _shock_fire(battle: Battle) -> StepResult:
    """The shock troop's die at its value (+1), its hit on a land unit, removed with the opening fire's."""
    found = [(k, n) for k, n in present(battle, "attacker") if shock_troop_early(battle, "attacker", k)]
    groups = [DiceGroup("attacker", k.type, n, base_value(battle, "attacker", k), SHOCK_HITS, "opening")
              for k, n in found]
    return roll(battle, "shock troop fire", groups)


SHOCK_HITS = Target(exclude_domains=("air", "sea"), rule=R_SHOCK)
SHOCK_FIRE = Step("shock troop fire", _shock_fire, lambda b: any(
    shock_troop_early(b, "attacker", k) for k, _ in present(b, "attacker")), cycles=1, rule=R_SHOCK)


DESTROYER = ("destroyer",)
MAIN_ROUND = ("carrier", *nv.ESCORT, *nv.TRANSPORT)  # the ships of the sea battle's main round


def lance_destroyers(battle: Battle, side: Side) -> bool:
    """Japan's destroyers fire in the opening fire: the first cycle of a sea battle, `side` with the ability."""
    return battle.state.kind == "sea" and battle.state.cycle == 1 and any(
        LANCE_TORPEDO in battle.setup.techs(side, k) for k, _ in nv.units_of(battle, side, DESTROYER))


def _lance_fire(side: Side) -> Step:
    name = f"{side} lance torpedo fire"

    def run(battle: Battle) -> StepResult:
        return roll(battle, name, nv.fire_groups(battle, side, DESTROYER, "opening"))

    return Step(name, run, lambda b: lance_destroyers(b, side), cycles=1, rule=R_LANCE)


LANCE_FIRE: dict[Side, Step] = {"attacker": _lance_fire("attacker"), "defender": _lance_fire("defender")}


@cache
def _main_fire(step: Step, side: Side) -> Step:
    """The main round without the destroyers that fired in the opening fire (one step per step wrapped)."""

    def run(battle: Battle) -> StepResult:
        if not lance_destroyers(battle, side):
            return step.run(battle)
        tags = tuple(t for t in MAIN_ROUND if t not in DESTROYER)
        return roll(battle, step.name, nv.fire_groups(battle, side, tags, "cycle"))

    return replace(step, run=run)


def _sequence(sequence: Sequence, kind: str, **_: Any) -> Sequence:
    """The shock troop is chosen as a land battle or amphibious assault starts; in a sea battle Japan's
    destroyers fire with the battleships in the first cycle."""
    if kind in ("land", "amphibious") and "jets" in sequence.names:
        sequence = sequence.insert_after("jets", SHOCK_STEP)
        return sequence.insert_before("remove opening fire casualties", SHOCK_FIRE)
    if kind == "sea" and "defender battleship fire" in sequence.names and "attacker sea fire" in sequence.names:
        mains: dict[str, Side] = {"attacker sea fire": "attacker", "defender sea fire": "defender"}
        steps = tuple(_main_fire(st, mains[st.name]) if st.name in mains else st for st in sequence.steps)
        sequence = Sequence(sequence.kind, steps).insert_after("defender battleship fire", LANCE_FIRE["defender"])
        return sequence.insert_after("defender battleship fire", LANCE_FIRE["attacker"])
    return sequence


def _rules(rules: CombatRules, **_: Any) -> CombatRules:
    return replace(rules, tech_bonuses=(*rules.tech_bonuses, *BONUSES))


def _battle_abilities(tags: frozenset[str], names: Iterable[str] = (), **_: Any) -> frozenset[str]:
    """The national attacks named for a calculated battle (``blitzkrieg``, ...), as if their conditions held."""
    found = set(tags)
    for name in names:
        if name not in NAMES:
            raise UnknownName(f"no national attack {name!r}; known: {', '.join(NAMES)}")
        found.add(PREFIX + name)
    return frozenset(found)


AARHE_NATIONAL_ATTACKS = register_module(
    RuleModule(
        id="aarhe_national_attacks",
        title="AARHE national attacks (option)",
        rule_ids=(R_BLITZ, R_HOME, R_LANCE, R_SHOCK, R_RADAR, R_MARINE),
        option=OPTION,
        hooks={"battle_inputs": _inputs, "combat_rules": _rules, "combat_sequence": _sequence,
               "battle_abilities": _battle_abilities},
        options=(OptionSpec(OPTION, bool, False, "national attacks: blitzkrieg, home defence, lance torpedo, shock "
                            "troops, radar, marine", R_BLITZ),),
    )
)
