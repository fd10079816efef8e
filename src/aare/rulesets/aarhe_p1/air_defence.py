"""AARHE Phase 1 AA fire at aircraft flying over (module `aarhep1_air_defence`): where LHTR's AA gun fires one die
at each aircraft passing over it in combat move, here the territory's enemy AA guns, at most 3, first try to
detect each aircraft, one die each, and fire only at those detected (one die each: 1 hits, 1 or 2 with the guns'
owner's Jet Fighters).

Detection is on 2 or less, on 4 or less with the guns' owner's Radar (AARHEP1-OPT-radar-aa-detection); fighters of
a nation with Jet Fighters and bombers of one with Heavy Bombers are detected at half that: on 1, on 2 with Radar
(AARHEP1-OPT-jet-stealth, AARHEP1-OPT-heavy-bomber-stealth). AA fire at aircraft attacking the territory stays
LHTR's (no detection roll)."""

from __future__ import annotations

from typing import Any

from aare.combat import steps as s
from aare.combat.battle_state import MARK, DiceGroup, Target, UnitKey, make_stacks
from aare.combat.engine import start_battle
from aare.combat.rules import CombatRules
from aare.combat.sequences import Sequence
from aare.combat.setup import Battle
from aare.combat.steps import Step, StepResult
from aare.combat.values import present
from aare.movement.battles import BattleSite
from aare.rules.rule_module import RuleModule, register_module
from aare.rules.ruleset import Ruleset
from aare.rulesets.aarhe.overflight import overflight_end
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

R_DETECT = "AARHEP1-OPT-radar-aa-detection"
R_JET_STEALTH = "AARHEP1-OPT-jet-stealth"
R_HEAVY_STEALTH = "AARHEP1-OPT-heavy-bomber-stealth"
R_FIRE = "LHTR-AA-flyover"

RADAR, JETS, HEAVY = "radar", "jet_fighters", "heavy_bombers"
MAX_GUNS = 3
DETECT_ON, RADAR_DETECT_ON = 2, 4
DETECTED = "aa-detected"  # the battle flag of an aircraft the guns detected


def guns(battle: Battle) -> int:
    """The AA guns that fire: at most 3 a territory."""
    return min(MAX_GUNS, sum(n for k, n in present(battle, "defender") if battle.setup.unit(k).has("aa")))


def _defender_has(battle: Battle, tech: str) -> bool:
    return any(tech in battle.setup.techs("defender", k) for k, _ in present(battle, "defender"))


def stealth(battle: Battle, key: UnitKey) -> str:
    """The rule under which `key` is detected at half: a jet fighter, a heavy bomber; "" for none."""
    unit, techs = battle.setup.unit(key), battle.setup.techs("attacker", key)
    if unit.has("fighter") and JETS in techs:
        return R_JET_STEALTH
    if unit.has("bomber") and HEAVY in techs:
        return R_HEAVY_STEALTH
    return ""


def detect_on(battle: Battle, key: UnitKey) -> tuple[int, str]:
    """The number at or under which a gun's die detects `key`, and the rule that sets it."""
    base = RADAR_DETECT_ON if _defender_has(battle, RADAR) else DETECT_ON
    rule = stealth(battle, key)
    return (base // 2, rule) if rule else (base, R_DETECT)


def _aircraft(battle: Battle, detected: bool) -> list[tuple[UnitKey, int]]:
    return [(k, n) for k, n in present(battle, "attacker")
            if battle.setup.unit(k).domain == "air" and not k.marked and k.has(DETECTED) == detected]


def detection(battle: Battle) -> StepResult:
    """Each gun rolls a die at each aircraft; one at or under the detection number detects it."""
    groups = []
    for key, n in _aircraft(battle, False):
        value, rule = detect_on(battle, key)
        target = Target(types=(key.type,), owners=(key.owner,), rule=rule, exclude_flags=(DETECTED,), one_each=True)
        groups.append(DiceGroup("defender", key.type, n, value, target, MARK + DETECTED, dice_per_unit=guns(battle),
                                best_of=True))
    return s.roll(battle, "aa detection", groups)


def fire(battle: Battle) -> StepResult:
    """One die at each detected aircraft: 1 hits, 1 or 2 with the guns' owner's Jet Fighters."""
    hit_on = battle.setup.rules.aa_hit_on + (1 if _defender_has(battle, JETS) else 0)
    groups = [DiceGroup("defender", key.type, n, hit_on,
                        Target(types=(key.type,), owners=(key.owner,), rule=R_FIRE, flags=(DETECTED,), one_each=True),
                        "opening")
              for key, n in _aircraft(battle, True)]
    return s.roll(battle, "aa fire", groups)


FLYOVER = Sequence("land", (
    Step("aa detection", detection, lambda b: guns(b) > 0 and bool(_aircraft(b, False)), rule=R_DETECT),
    Step("aa fire", fire, lambda b: guns(b) > 0 and bool(_aircraft(b, True)), rule=R_FIRE),
    Step("overflight ends", overflight_end, rule=R_FIRE),
))


def flyover_battle(battle: Battle | None, ruleset: Ruleset, state: GameState, site: BattleSite, stack: Stack,
                   **_: Any) -> Battle | None:
    """The enemy AA guns of `site`'s territory against the aircraft of `stack` flying over it."""
    board = ruleset.board
    enemy = [st for st in state.stacks(site.space)
             if ruleset.units[st.unit].has("aa") and board.side_of(st.owner) != board.side_of(stack.owner)]
    if not enemy:
        return battle
    holder = state.owners.get(site.space) or enemy[0].owner
    owner = holder if any(st.owner == holder for st in enemy) else enemy[0].owner
    rules = ruleset.modify("combat_rules", CombatRules())
    attacker = make_stacks([(UnitKey(stack.unit, stack.owner), stack.count)])
    defender = make_stacks([(UnitKey(enemy[0].unit, owner), sum(st.count for st in enemy))])
    return start_battle(attacker, defender, "land", units=ruleset.units, rules=rules, sequence=FLYOVER,
                        attacker_techs=frozenset(state.techs.get(stack.owner, ())),
                        defender_techs=frozenset(state.techs.get(owner, ())))


AARHEP1_AIR_DEFENCE = register_module(
    RuleModule(
        id="aarhep1_air_defence",
        title="AARHE Phase 1 AA guns: detection of overflying aircraft (Radar), jets' and heavy bombers' stealth",
        rule_ids=(R_DETECT, R_JET_STEALTH, R_HEAVY_STEALTH),
        hooks={"flyover_battle": flyover_battle},
    )
)
