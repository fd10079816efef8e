"""AARe weapons development on the board: what a raid is fought with (interceptors standing by, escorts,
rockets joining it), Combined Arms battleships firing at aircraft flying over, and the escort leg of a raid.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aare.combat.air_defence import COMBINED_ARMS, JETS, LONG_RANGE, ROCKET
from aare.combat.battle_state import Stacks, UnitKey, make_stacks
from aare.movement import flags
from aare.movement.battles import BattleSite
from aare.movement.move_checks import Leg, Violation, raid_target
from aare.movement.situation import Situation
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

JOINED = "joined"  # in the conduct-combat record: {territory: rockets that strike with its raid}
FLYOVER_RULE = "AARE-TECH-ca-bb-aa-flyover"


def interceptors(state: GameState, ruleset: Ruleset, territory: str, attacker: str) -> Stacks:
    """Fighters in `territory` of the attacker's enemies that have jet fighters: they stand by to intercept
    a raid or rocket (AARE-TECH-jet-intercept-roll); fighters elsewhere never do
    (AARE-TECH-jet-intercept-attackers-only)."""
    board = ruleset.board
    side = board.side_of(attacker)
    return make_stacks(
        (UnitKey(s.unit, s.owner, s.damage), s.count)
        for s in state.stacks(territory)
        if ruleset.units[s.unit].has("fighter") and board.side_of(s.owner) != side
        and JETS in state.techs.get(s.owner, ())
    )  # fmt: skip


def rocket_key(ruleset: Ruleset, power: str) -> UnitKey:
    """A rocket in a raid: the AA gun that fires it, flagged ``rocket``."""
    gun = next(u.id for u in ruleset.units if u.has("aa"))
    return UnitKey(gun, power, flags=(ROCKET,))


def joined_rockets(state: GameState, territory: str) -> int:
    """Rockets launched this turn at `territory` to strike with its raid (AARE-TECH-jet-intercept-mixed-choice)."""
    from aare.phases.conduct_combat import combat_record

    joined = combat_record(state).get(JOINED) or {}
    return int(joined.get(territory, 0))


def battle_inputs(inputs: dict[str, Any], ruleset: Ruleset, state: GameState, site: BattleSite,
                  **_: Any) -> dict[str, Any]:
    """A raid is fought with the territory's jet fighters standing by and the rockets that join it; the
    attacking fighters flagged for the raid are its escorts."""
    if site.kind != "bombing":
        return inputs
    defender = make_stacks((*inputs["defender"], *interceptors(state, ruleset, site.space, site.attacker)))
    attacker: Stacks = inputs["attacker"]
    rockets = joined_rockets(state, site.space)
    if rockets:
        attacker = make_stacks((*attacker, (rocket_key(ruleset, site.attacker), rockets)))
    return {**inputs, "attacker": attacker, "defender": defender}


def flyover_aa(found: Mapping[str, str], ruleset: Ruleset, view: Situation, **_: Any) -> dict[str, str]:
    """Sea zones with an enemy battleship of a power with Combined Arms fire at aircraft flying over them in
    combat move, one die per aircraft however many battleships (AARE-TECH-ca-bb-aa-flyover, option
    `battleship_aa_flyover`)."""
    out = dict(found)
    if not ruleset.options.get("battleship_aa_flyover", True):
        return out
    for space in sorted(view.graph.sea):
        for stack in view.enemies(space):
            unit = view.unit(stack)
            if unit.has("bombard") and not flags.submerged(stack) and COMBINED_ARMS in view.state.techs.get(
                    stack.owner, ()):
                out[space] = FLYOVER_RULE
                break
    return out


def escort_raid_target(leg: Leg) -> Violation | None:
    """AARE-TECH-lra-escort-neutralize: with long range aircraft, fighters may fly a raid as escorts of the
    bombers raiding that territory (move the bombers first); bombers follow LHTR-SBR-eligibility."""
    if not leg.raid or not leg.unit.has("fighter"):
        return raid_target(leg)
    view, rule = leg.view, "AARE-TECH-lra-escort-neutralize"
    if LONG_RANGE not in view.techs:
        return Violation("fighters escort bombing raids only with long range aircraft", rule)
    if not leg.combat:
        return Violation("bombing raids are declared in combat move", "LHTR-SBR-eligibility")
    if not (view.enemy_land(leg.end) and leg.end in view.enemy_factories):
        return Violation(f"{leg.end} has no enemy industrial complex to bomb", "LHTR-SBR-eligibility")
    raiders = [s for s in view.own(leg.end) if flags.value(s, flags.SBR) == leg.end]
    if not any(view.unit(s).has("strategic_bomber") for s in raiders):
        return Violation(f"escorts fly with bombers raiding {leg.end}: move the bombers first", rule)
    return None


def move_checks(checks: list[Any], **_: Any) -> list[Any]:
    """The raid check, extended to escorts."""
    return [escort_raid_target if check is raid_target else check for check in checks]
