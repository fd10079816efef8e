"""AARHE rockets (module `aarhe_rockets`, AARHE-TECH-rockets): with Rockets each of the power's deployed IDs fires
once a turn, in conduct combat, at a hostile industrial complex within 3 spaces (`rocket FROM -> TO`); the rocket
strikes as a strategic bombing raid with no defence against it: one die of damage on the complex, taken off the
owner's next income (`aarhe_economy`). Several rockets may strike the same complex; only ID pieces fire (not the
IDs a complex or a victory city holds). In place of LHTR's one launch per territory and one rocket per target."""

from __future__ import annotations

from typing import Any

from aare.actions import Rocket
from aare.economy.damage import bombing_damage_events
from aare.economy.turn import turn_start_owners
from aare.errors import IllegalAction
from aare.events import UnitsChanged
from aare.movement import flags
from aare.phases.base import PhaseExtension, TurnContext
from aare.phases.conduct_combat import rocket_targets
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe.build import UNDEPLOYED
from aare.rulesets.aarhe.hooks import by_phase
from aare.rulesets.aarhe.research import ROCKETS, has_tech
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

R_ROCKETS = "AARHE-TECH-rockets"


def ready(state: GameState, ruleset: Any, power: str, space: str) -> Stack | None:
    """A deployed ID of `power` in `space` that has not fired this turn, in a territory it held as the turn began."""
    if state.owners.get(space) != power or turn_start_owners(state).get(space) != power:
        return None
    return next((s for s in state.stacks(space) if s.owner == power and ruleset.units[s.unit].has("aa")
                 and UNDEPLOYED not in s.flags and not flags.turn_flags(s)), None)


class RocketFire(PhaseExtension):
    """Conduct combat: a deployed ID's rocket at a hostile complex within 3 spaces, undefended."""

    name = "conduct-combat"
    action_types = frozenset({"rocket"})

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Rocket):
            raise IllegalAction(f"{action.type} is not a rocket", R_ROCKETS)
        state, ruleset, power = ctx.state, ctx.ruleset, ctx.power
        if not has_tech(state, power, ROCKETS):
            raise IllegalAction(f"{power} has not developed Rockets", R_ROCKETS)
        launcher, target = ruleset.board.resolve(action.launcher), ruleset.board.resolve(action.target)
        gun = ready(state, ruleset, power, launcher)
        if gun is None:
            raise IllegalAction(f"{launcher} has no deployed ID of {power} that may fire a rocket this turn (one "
                                "each, in a territory held since the turn began)", R_ROCKETS)
        if target not in rocket_targets(state, ruleset, launcher):
            raise IllegalAction(f"{target} is no rocket target from {launcher}: a hostile industrial complex within "
                                "3 spaces", R_ROCKETS)
        [roll] = ctx.roll(1, f"rocket from {launcher} at {target}")
        ctx.emit(*bombing_damage_events(state, ruleset, target, roll, "rocket"))
        ctx.emit(UnitsChanged(launcher, gun.with_count(1), flags.with_flags(gun.with_count(1), [flags.COMBAT])))


AARHE_ROCKETS = register_module(
    RuleModule(
        id="aarhe_rockets",
        title="AARHE rockets: each deployed ID fires at a complex within 3, undefended",
        rule_ids=(R_ROCKETS,),
        hooks={"phase_actions": by_phase(RocketFire())},
        requires=("aarhe_research",),
    )
)
