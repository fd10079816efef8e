"""Atlantic Wall's coastal defence (seed NATIONAL ADVANTAGES / GERMANY 1; NAVAL COMBAT SEQUENCE 2c): the
`coastal_defence` action of Germany's conduct-combat phase.

Once a turn Germany designates one artillery in Western Europe or Norway that has not moved this turn; it fires
one die at 2 (3 with German 88's) at one enemy ship (not a submarine) of Germany's choice in an adjacent sea zone,
and may not move for the rest of the turn. While a German attack on that sea zone is still to be fought the shot
joins it, in its opening fire (`germany_combat.COASTAL`); otherwise it is resolved at once, with opening-fire
timing (option ``coastal_defence_alone``: off, the shot is only allowed with a German naval attack there).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from aare.actions import CoastalDefence
from aare.errors import IllegalAction
from aare.events import Event, ExtraSet, UnitsChanged, UnitsRemoved
from aare.movement import flags
from aare.phases.base import PhaseExtension, TurnContext
from aare.phases.conduct_combat import combat_record, open_battles
from aare.rulesets.aare.advantages.base import in_force
from aare.rulesets.aare.advantages.germany_combat import AW, G88, GERMANY, WALL, ability, coastal_value
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

KEY = "coastal_defence"  # state.extra: this turn's shot {"round", "territory", "sea_zone", "target", "owner", "joined"}
R_DESIGNATE = "AARE-NA-GER-aw-coastal-designate"
R_SHOT = "AARE-NA-GER-aw-coastal-shot"
R_TIMING = "AARE-NA-GER-aw-coastal-timing"


def shot_record(state: GameState) -> dict[str, Any] | None:
    """This German turn's coastal-defence shot, if one was designated."""
    raw = state.extra.get(KEY)
    if isinstance(raw, Mapping) and raw.get("round") == state.round and state.nation == GERMANY:
        return dict(raw)
    return None


def joined_shot(state: GameState, zone: str) -> tuple[str, str] | None:
    """(unit type, owner) of the shot that joins the German attack on `zone`, if any."""
    shot = shot_record(state)
    if shot is None or not shot.get("joined") or shot.get("sea_zone") != zone:
        return None
    return str(shot["target"]), str(shot.get("owner") or "")


def artillery(state: GameState, ruleset: Any, territory: str) -> Stack | None:
    """An artillery of Germany's in `territory` that has not moved this turn (it began the turn there)."""
    for stack in state.stacks(territory):
        if stack.owner == GERMANY and ruleset.units[stack.unit].has("artillery") and not stack.moved \
                and not flags.turn_flags(stack):
            return stack
    return None


def targets(state: GameState, ruleset: Any, zone: str) -> list[Stack]:
    """Enemy ships in `zone` the shot may aim at: no submarines."""
    board = ruleset.board
    return [s for s in state.stacks(zone) if board.side_of(s.owner) != board.side_of(GERMANY)
            and ruleset.units[s.unit].domain == "sea" and not ruleset.units[s.unit].has("submarine")
            and not flags.submerged(s)]


def _attack_pending(state: GameState, ruleset: Any, zone: str) -> bool:
    return any(s.space == zone and s.kind == "sea" for s in open_battles(state, ruleset))


def check(state: GameState, ruleset: Any, action: CoastalDefence) -> tuple[str, str, str, str, Stack]:
    """(territory, zone, unit, owner, artillery) of a legal shot, or IllegalAction naming the rule."""
    board, units = ruleset.board, ruleset.units
    if not in_force(state, GERMANY, AW) or state.nation != GERMANY:
        raise IllegalAction("coastal defence needs Germany's Atlantic Wall", R_DESIGNATE)
    if combat_record(state)["current"] is not None:
        raise IllegalAction(f"the battle in {combat_record(state)['current']['space']} is not over",
                            "LHTR-COMBAT-battle-order")
    if shot_record(state) is not None:
        raise IllegalAction("one artillery a turn fires a coastal-defence shot", R_DESIGNATE)
    territory, zone = board.resolve(action.territory), board.resolve(action.sea_zone)
    if territory not in WALL or state.owners.get(territory) != GERMANY:
        raise IllegalAction("the coastal-defence artillery stands in German Western Europe or Norway", R_DESIGNATE)
    gun = artillery(state, ruleset, territory)
    if gun is None:
        raise IllegalAction(f"no German artillery in {territory} that began the turn there and has not moved",
                            R_DESIGNATE)
    if zone not in board.spaces[territory].neighbors or not board.spaces[zone].is_sea:
        raise IllegalAction(f"{zone} is not a sea zone next to {territory}", R_SHOT)
    unit = units.resolve(action.target)
    owner = board.resolve_power(action.owner) if action.owner else ""
    if units[unit].has("submarine"):
        raise IllegalAction("submarines cannot be targeted by coastal defence", R_SHOT)
    aims = [s for s in targets(state, ruleset, zone) if s.unit == unit and (not owner or s.owner == owner)]
    if not aims:
        raise IllegalAction(f"no enemy {units[unit].display} in {zone} to aim at", R_SHOT)
    if not owner and len({s.owner for s in aims}) > 1:
        raise IllegalAction(f"say whose {units[unit].display} in {zone}: several powers have one there", R_SHOT)
    if not ruleset.options.get("coastal_defence_alone", True) and not _attack_pending(state, ruleset, zone):
        raise IllegalAction(f"coastal defence fires only with a German naval attack in {zone} (option "
                            "coastal_defence_alone)", R_TIMING)
    return territory, zone, unit, owner or aims[0].owner, gun


def hit_events(state: GameState, ruleset: Any, zone: str, unit: str, owner: str) -> list[Event]:
    """A hit on one ship of `owner`'s `unit` in `zone`: a whole multi-hit ship is damaged (as its owner would
    choose), else one is sunk; aircraft left without room on the carriers there are lost with it."""
    units = ruleset.units
    ships = sorted((s for s in targets(state, ruleset, zone) if s.unit == unit and s.owner == owner),
                   key=lambda s: s.damage)
    ship = ships[0]
    if ship.damage + 1 < units[unit].hits:
        return [UnitsChanged(zone, ship.with_count(1), replace(ship, damage=ship.damage + 1).with_count(1))]
    events: list[Event] = [UnitsRemoved(zone, ship.with_count(1), R_SHOT)]
    if units[unit].carrier_capacity:
        board = ruleset.board
        side = board.side_of(owner)
        room = sum(units[s.unit].carrier_capacity * s.count for s in state.stacks(zone)
                   if board.side_of(s.owner) == side) - units[unit].carrier_capacity
        for plane in (s for s in state.stacks(zone) if board.side_of(s.owner) == side and units[s.unit].carrier_size):
            size = units[plane.unit].carrier_size
            stay = min(plane.count, max(0, room) // size)
            room -= stay * size
            if plane.count - stay:
                events.append(UnitsRemoved(zone, plane.with_count(plane.count - stay), R_SHOT))
    return events


class CoastalDefenceAction(PhaseExtension):
    """The `coastal_defence` action of Germany's conduct-combat phase."""

    name = "conduct-combat"
    action_types = frozenset({"coastal_defence"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        state, ruleset = ctx.state, ctx.ruleset
        if shot_record(state) is not None or combat_record(state)["current"] is not None:
            return
        for territory in WALL:
            if artillery(state, ruleset, territory) is None or state.owners.get(territory) != GERMANY:
                continue
            for zone in ruleset.board.spaces[territory].neighbors:
                if space not in (None, territory, zone) or not ruleset.board.spaces[zone].is_sea:
                    continue
                seen = sorted({(s.unit, s.owner) for s in targets(state, ruleset, zone)})
                several = {u for u, _ in seen if sum(1 for v, _ in seen if v == u) > 1}
                for unit, owner in seen:
                    yield CoastalDefence(territory=territory, sea_zone=zone, target=unit,
                                         owner=owner if unit in several else "")

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, CoastalDefence):
            raise IllegalAction(f"{action.type} is not a coastal-defence shot", R_DESIGNATE)
        territory, zone, unit, owner, gun = check(ctx.state, ctx.ruleset, action)
        joined = _attack_pending(ctx.state, ctx.ruleset, zone)
        fired = flags.with_flags(gun.with_count(1), [flags.COMBAT])  # it may not move this turn
        ctx.emit(UnitsChanged(territory, gun.with_count(1), fired))
        record = {"round": ctx.state.round, "territory": territory, "sea_zone": zone, "target": unit, "owner": owner,
                  "joined": joined}
        ctx.emit(ExtraSet(KEY, record, R_DESIGNATE))
        if joined:
            return  # rolled in the opening fire of the German attack on the zone (AARE-NA-GER-aw-coastal-timing)
        value = coastal_value(_techs(ctx.state))
        [die] = ctx.roll(1, f"coastal defence from {territory} at {owner} {unit} in {zone} (hits on {value})")
        if die <= value:
            ctx.emit(*hit_events(ctx.state, ctx.ruleset, zone, unit, owner))


def _techs(state: GameState) -> frozenset[str]:
    """Germany's abilities that change the shot: German 88's."""
    return frozenset({ability(G88)}) if in_force(state, GERMANY, G88) else frozenset()


COASTAL_ACTION = CoastalDefenceAction()


def phase_actions(found: list[Any], phase: str, state: GameState, **_: Any) -> list[Any]:
    """Atlantic Wall adds coastal defence to Germany's conduct-combat phase."""
    if phase == "conduct-combat" and state.nation == GERMANY and in_force(state, GERMANY, AW):
        return [*found, COASTAL_ACTION]
    return found
