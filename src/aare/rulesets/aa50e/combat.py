"""AA50E combat (module `aa50e_combat`): every battleship carries an AA gun (seed 6c). When enemy aircraft attack a
sea zone holding a defending battleship, one die is rolled per attacking aircraft before the first round, at the
value of its nation's AA guns (Radar included), hits removed at once; several battleships in the zone fire as one
gun, as several AA guns in a territory do (AA50E-UNIT-battleship-aa). There is no Combined Arms technology: the
ability is the battleship's own from the start (AA50E-UNIT-no-combined-arms)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.combat.battle_state import UnitKey
from aare.combat.rules import CombatRules, TechBonus
from aare.combat.sequences import Sequence
from aare.combat.setup import Battle
from aare.combat.steps import Step, StepResult, aa_groups, aa_value, roll
from aare.combat.values import present
from aare.rules.rule_module import RuleModule, register_module

RULE = "AA50E-UNIT-battleship-aa"
STEP = "battleship aa"
RADAR = TechBonus("radar", "battleship", "aa", 1, "AA50-RESEARCH-radar")  # as the nation's AA guns


def _air(battle: Battle, key: UnitKey) -> bool:
    return battle.setup.unit(key).domain == "air"


def battleship_aa(battle: Battle) -> StepResult:
    """One die per attacking aircraft at the AA value, hits removed at once."""
    return roll(battle, STEP, aa_groups(battle, lambda k: _air(battle, k), lambda k: aa_value(battle, k), "now", RULE))


def battleship_aa_applies(battle: Battle) -> bool:
    """A defending battleship in the zone and attacking aircraft."""
    setup = battle.setup
    guns = any(setup.unit(k).has("battleship") and setup.unit(k).domain == "sea"
               for k, _ in present(battle, "defender"))
    return guns and any(_air(battle, k) for k, _ in present(battle, "attacker"))


BATTLESHIP_AA = Step(STEP, battleship_aa, battleship_aa_applies, cycles=1, rule=RULE)


def _combat_sequence(seq: Sequence, kind: str, **_: Any) -> Sequence:
    """Sea battles open with the battleships' AA fire, before the submarines' choice to submerge."""
    return seq.insert_before(seq.steps[0].name, BATTLESHIP_AA) if kind == "sea" else seq


def _combat_rules(rules: CombatRules, **_: Any) -> CombatRules:
    """Radar makes battleships hit aircraft on 2 as it does AA guns."""
    return replace(rules, tech_bonuses=(*rules.tech_bonuses, RADAR))


MODULE = register_module(
    RuleModule(
        id="aa50e_combat",
        title="Anniversary Edition - Enhanced: battleships with AA guns",
        rule_ids=(RULE, "AA50E-UNIT-no-combined-arms"),
        hooks={"combat_sequence": _combat_sequence, "combat_rules": _combat_rules},
        requires=("aa50_combat",),
    )
)
