"""What a strategic bombing raid is fought with on the board, where a ruleset's raids admit more than bombers
(`CombatRules.sbr_escorts`, `sbr_interceptors`): the enemy jet fighters standing by in the target territory, the
rockets launched to join the raid, and the fighters flying as escorts (with long range aircraft, in the bombers'
company). The battle steps are `aare.combat.air_defence`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aare.combat.air_defence import JETS, LONG_RANGE, ROCKET
from aare.combat.battle_state import Stacks, UnitKey, make_stacks
from aare.movement import flags
from aare.movement.battles import BattleSite
from aare.movement.move_checks import Leg, Violation, raid_target
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

JOINED = "joined"  # in the conduct-combat record: {territory: rockets that strike with its raid}


def interceptors(state: GameState, ruleset: Ruleset, territory: str, attacker: str) -> Stacks:
    """Fighters in `territory` of the attacker's enemies that have jet fighters: they stand by to intercept a
    raid or rocket there; fighters elsewhere never do."""
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
    """Rockets launched this turn at `territory` to strike with its raid."""
    from aare.phases.conduct_combat import combat_record

    joined = combat_record(state).get(JOINED) or {}
    return int(joined.get(territory, 0))


def battle_inputs(inputs: dict[str, Any], ruleset: Ruleset, state: GameState, site: BattleSite,
                  **_: Any) -> dict[str, Any]:
    """A raid is fought with the territory's jet fighters standing by and the rockets that join it; the
    attacking fighters flagged for the raid are its escorts (a `battle_inputs` hook)."""
    if site.kind != "bombing":
        return inputs
    defender = make_stacks((*inputs["defender"], *interceptors(state, ruleset, site.space, site.attacker)))
    attacker: Stacks = inputs["attacker"]
    rockets = joined_rockets(state, site.space)
    if rockets:
        attacker = make_stacks((*attacker, (rocket_key(ruleset, site.attacker), rockets)))
    return {**inputs, "attacker": attacker, "defender": defender}


def escort_check(rule: str, eligibility: str = "LHTR-SBR-eligibility") -> Callable[[Leg], Violation | None]:
    """The raid check extended to escorts: with long range aircraft, fighters may fly a raid as escorts of the
    bombers raiding that territory (moved first); bombers follow the raid check (`rule`: the escorts' rule,
    `eligibility`: the raid's)."""

    def escort_raid_target(leg: Leg) -> Violation | None:
        if not leg.raid or not leg.unit.has("fighter"):
            return raid_target(leg)
        view = leg.view
        if LONG_RANGE not in view.techs:
            return Violation("fighters escort bombing raids only with long range aircraft", rule)
        if not leg.combat:
            return Violation("bombing raids are declared in combat move", eligibility)
        if not (view.enemy_land(leg.end) and leg.end in view.enemy_factories):
            return Violation(f"{leg.end} has no enemy industrial complex to bomb", eligibility)
        raiders = [s for s in view.own(leg.end) if flags.value(s, flags.SBR) == leg.end]
        if not any(view.unit(s).has("strategic_bomber") for s in raiders):
            return Violation(f"escorts fly with bombers raiding {leg.end}: move the bombers first", rule)
        return None

    return escort_raid_target


def with_escorts(checks: list[Any], escort: Callable[[Leg], Violation | None]) -> list[Any]:
    """The movement checks with the raid check replaced by `escort` (a `move_checks` hook's body)."""
    return [escort if check is raid_target else check for check in checks]
