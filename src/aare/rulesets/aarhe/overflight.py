"""AARHE fire at aircraft flying over enemy territory in combat move (AARHE-ID-overflight-fire,
AARHE-AIRMOVE-overflight-interception): the territory's deployed IDs, its built-in ones and the enemy's aircraft
there but bombers each run the ID search and attack once against each stack flying over. A destroyed aircraft is
lost; a repelled one aborts its mission: it takes no part in a battle that turn and lands in non-combat move.
"""

from __future__ import annotations

from typing import Any

from aare.combat import steps as s
from aare.combat.battle_state import UnitKey, make_stacks
from aare.combat.engine import start_battle
from aare.combat.rules import CombatRules
from aare.combat.sequences import Sequence
from aare.combat.setup import Battle
from aare.combat.steps import Step, StepResult
from aare.movement.battles import BattleSite
from aare.movement.situation import Situation
from aare.rules.ruleset import Ruleset
from aare.rulesets.aarhe import infrastructure as infra
from aare.rulesets.aarhe.build import ID, undeployed
from aare.rulesets.aarhe.victory import cities_on
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

R_ID_FIRE = "AARHE-ID-overflight-fire"
R_INTERCEPTION = "AARHE-AIRMOVE-overflight-interception"


def overflight_end(battle: Battle) -> StepResult:
    """The overflight's fire is over: destroyed aircraft go, repelled ones leave."""
    st, events = s.remove_opening(battle)
    if st.ended:
        return st, events
    st2, more = s.finish(battle.with_state(st), "attacker")
    return st2, events + more


FLYOVER = Sequence("land", (
    Step("id search", infra.search, infra.search_applies, rule=R_ID_FIRE),
    Step("id attack", infra.attack, infra.attack_applies, rule=R_ID_FIRE),
    Step("overflight ends", overflight_end, rule=R_ID_FIRE),
))


def defences(ruleset: Ruleset, state: GameState, space: str, power: str) -> tuple[int, int]:
    """(IDs, intercepting aircraft) of `power`'s enemies in the land territory `space`: deployed ID pieces and
    built-in ones of an enemy holder; aircraft but bombers."""
    board, units = ruleset.board, ruleset.units

    def enemy(owner: str) -> bool:
        return board.side_of(owner) != board.side_of(power)

    stacks = state.stacks(space)
    ids = sum(st.count for st in stacks if st.unit == ID and enemy(st.owner) and not undeployed(st))
    holder = state.owners.get(space)
    if holder is not None and enemy(holder):
        complexes = sum(st.count for st in stacks if units[st.unit].has("factory"))
        ids += infra.built_in(complexes, 1 if space in cities_on(ruleset.board) else 0)
    fighters = sum(st.count for st in stacks if enemy(st.owner) and units[st.unit].domain == "air"
                   and not units[st.unit].has("bomber"))
    return ids, fighters


def flyover_aa(found: dict[str, str], view: Situation | None = None, **_: Any) -> dict[str, str]:
    """The enemy territories whose IDs or aircraft fire at aircraft flying over (instead of LHTR's AA guns)."""
    if view is None:
        return found
    out: dict[str, str] = {}
    for space in sorted(view.graph.land):
        ids, fighters = defences(view.ruleset, view.state, space, view.power)
        if ids or fighters:
            out[space] = R_ID_FIRE if ids else R_INTERCEPTION
    return out


def flyover_battle(battle: Battle | None, ruleset: Ruleset, state: GameState, site: BattleSite, stack: Stack,
                   **_: Any) -> Battle | None:
    """The overflight fire of `site`'s territory against `stack`."""
    ids, fighters = defences(ruleset, state, site.space, stack.owner)
    holder = state.owners.get(site.space) or ""
    rules = ruleset.modify("combat_rules", CombatRules())
    attacker = make_stacks([(UnitKey(stack.unit, stack.owner), stack.count)])
    defender = make_stacks([(UnitKey(ID, holder, 0, (infra.BUILT_IN,)), ids + fighters)])
    return start_battle(attacker, defender, "land", units=ruleset.units, rules=rules, sequence=FLYOVER)
