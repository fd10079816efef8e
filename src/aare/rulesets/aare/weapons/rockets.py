"""AARe rockets (seed "WEAPONS DEVELOPMENT" 2, with the jet interceptors of 1): the `rocket` action of
conduct-combat. As in LHTR an unmoved AA gun of a power with Rockets, one per territory, fires at an enemy
industrial complex within 3 spaces, each complex once a turn, and the damage counts toward the territory's
per-turn cap shared with raids. New: the target's jet fighters intercept the rocket first.

A rocket is fought as a small raid in the combat engine: the rocket is the AA gun that fires it, flagged
``rocket``. Launched at a territory whose raid is still to be fought this turn, it strikes with that raid
(nothing is rolled at launch): the interceptors roll once against bombers and rockets together and the
attacker chooses which are lost (AARE-TECH-jet-intercept-mixed-choice).
"""

from __future__ import annotations

from typing import Any

from aare.actions import Rocket
from aare.combat.battle_state import UnitKey, make_stacks
from aare.combat.board_battle import combat_setup
from aare.combat.engine import advance, start_battle
from aare.economy.damage import damage_cap_remaining, economic_damage_events
from aare.errors import IllegalAction
from aare.events import ExtraSet, UnitsChanged
from aare.movement import flags
from aare.movement.battles import BattleSite
from aare.phases.base import PhaseExtension, TurnContext
from aare.phases.conduct_combat import (
    KEY,
    ROCKETS,
    _BattleDice,
    combat_record,
    open_battles,
    rocket_launchers,
    rocket_targets,
)
from aare.phases.raid_forces import JOINED, interceptors, rocket_key

STRIKE_RULE = "AARE-TECH-rockets-strike"


def _check(ctx: TurnContext, launcher: str, target: str) -> None:
    """AARE-TECH-rockets-strike, -one-gun-per-territory, -ic-once."""
    if ROCKETS not in ctx.state.techs.get(ctx.power, ()):
        raise IllegalAction(f"{ctx.power} has not developed Rockets", STRIKE_RULE)
    if launcher not in rocket_launchers(ctx.state, ctx.ruleset):
        used = launcher in (combat_record(ctx.state).get("rockets") or {})
        if used:
            raise IllegalAction(f"a rocket was already fired from {launcher} this turn",
                                "AARE-TECH-rockets-one-gun-per-territory")
        reason = f"{launcher} cannot launch a rocket: it needs an unmoved AA gun of {ctx.power} in a territory "
        raise IllegalAction(reason + "held since the turn began", STRIKE_RULE)
    if target not in rocket_targets(ctx.state, ctx.ruleset, launcher):
        if target in (combat_record(ctx.state).get("rockets") or {}).values():
            raise IllegalAction(f"{target} was already the target of a rocket this turn", "AARE-TECH-rockets-ic-once")
        reason = f"{target} is no rocket target from {launcher}: an enemy industrial complex within 3 spaces"
        raise IllegalAction(reason, STRIKE_RULE)


def raid_pending(ctx: TurnContext, target: str) -> bool:
    """A raid on `target` is still to be fought this turn."""
    return any(s.space == target and s.kind == "bombing" for s in open_battles(ctx.state, ctx.ruleset))


class AareRockets(PhaseExtension):
    """The `rocket` action of conduct-combat under the AARe rules."""

    name = "conduct-combat"
    action_types = frozenset({"rocket"})

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Rocket):
            raise IllegalAction(f"{action.type} is not a rocket", STRIKE_RULE)
        record = combat_record(ctx.state)
        if record["current"] is not None:
            raise IllegalAction(f"the battle in {record['current']['space']} is not over", "LHTR-COMBAT-battle-order")
        board = ctx.ruleset.board
        launcher, target = board.resolve(action.launcher), board.resolve(action.target)
        _check(ctx, launcher, target)
        self._fire(ctx, launcher)
        record = combat_record(ctx.state)
        rockets = {**(record.get("rockets") or {}), launcher: target}
        if raid_pending(ctx, target):
            joined = {**(record.get(JOINED) or {})}
            joined[target] = int(joined.get(target, 0)) + 1
            value = {**record, "rockets": rockets, JOINED: joined}
            ctx.emit(ExtraSet(KEY, value, "AARE-TECH-jet-intercept-mixed-choice"))
            return
        ctx.emit(ExtraSet(KEY, {**record, "rockets": rockets}, "AARE-TECH-rockets-ic-once"))
        self._strike(ctx, target)

    @staticmethod
    def _fire(ctx: TurnContext, launcher: str) -> None:
        """The launching gun has fought: it does not move this turn."""
        units = ctx.ruleset.units
        gun = next(s for s in ctx.state.stacks(launcher) if s.owner == ctx.power and units[s.unit].has("aa")
                   and not s.moved and not flags.turn_flags(s))
        ctx.emit(UnitsChanged(launcher, gun.with_count(1), flags.with_flags(gun.with_count(1), [flags.COMBAT])))

    @staticmethod
    def _strike(ctx: TurnContext, target: str) -> None:
        """A rocket alone: the target's interceptors roll, then a surviving rocket rolls its damage, capped
        (AARE-TECH-rockets-cap)."""
        state, ruleset = ctx.state, ctx.ruleset
        rules, sequence = combat_setup(ruleset, "bombing")
        owner = state.owners.get(target)
        works = [s for s in state.stacks(target) if ruleset.units[s.unit].has("not_casualty") and s.owner != ctx.power]
        defender = make_stacks((*((UnitKey(s.unit, s.owner), s.count) for s in works),
                                *interceptors(state, ruleset, target, ctx.power)))
        techs = {o: frozenset(state.techs.get(o, ())) for o in {k.owner for k, _ in defender}}
        inputs: dict[str, Any] = {
            "attacker": ((rocket_key(ruleset, ctx.power), 1),), "defender": defender, "kind": "bombing",
            "units": ruleset.units, "rules": rules, "sequence": sequence, "owner_techs": techs,
            "territory_value": damage_cap_remaining(state, ruleset, target),
            "treasury": state.banks.get(owner, 0) if owner else 0,
        }  # fmt: skip
        # the defenders' own abilities count (e.g. a national advantage's AA guns): the hook, as for a board battle
        site = BattleSite(target, "rocket", ctx.power, defenders={o: tuple(s for s in works if s.owner == o)
                                                                   for o in sorted({s.owner for s in works})})
        battle = start_battle(**ruleset.modify("battle_inputs", inputs, state=state, site=site))
        dice = _BattleDice(ctx, f"rocket at {target}", [], {"attacker": ctx.power, "defender": owner or "defender"})
        battle, events = advance(battle, dice)
        dice.flush(events)
        if battle.state.damage:
            ctx.emit(*economic_damage_events(ctx.state, ruleset, target, battle.state.damage, "AARE-TECH-rockets-cap"))


ROCKETS_EXTENSION = AareRockets()
