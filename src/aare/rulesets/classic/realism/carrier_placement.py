"""Enhanced Realism '98 placement of fighters and carriers (part of module `realism_air`).

New fighters may be placed on new carriers built at the same complex (REAL98-CARRIER-place-new-on-new) and on
the power's existing carriers in sea zones next to the complex that built them (REAL98-CARRIER-place-new-on-
existing): the core's placement of fighters at sea, which the Classic base rules forbid; the ban is lifted here.
Fighters already at a complex that did not fight this turn may board the carriers built there
(REAL98-CARRIER-place-existing-on-new): a `move` of mobilize from the complex's territory into the adjacent sea
zone where the new carriers were placed. The turn record keeps the room the new carriers brought
(`NEW_ROOM`, sea zone -> free places)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from aare.actions import Move, Place
from aare.board.notation import format_units, parse_units
from aare.economy.production import producers
from aare.economy.turn import turn_record, turn_update
from aare.errors import IllegalAction
from aare.events import UnitsChanged
from aare.movement import flags
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

NEW_ROOM = "new_carrier_room"
CLASSIC_BAN = "CL-MOBILIZE-new-fighters-not-on-carriers"
EXISTING_ON_NEW = "REAL98-CARRIER-place-existing-on-new"


def new_room(state: GameState) -> dict[str, int]:
    """Sea zone -> fighter places the carriers placed there this turn still offer to fighters already on the
    board."""
    found = turn_record(state).get(NEW_ROOM, {})
    return dict(found) if isinstance(found, dict) else {}


def free_room(state: GameState, ruleset: Ruleset, sea: str, power: str) -> int:
    """Free fighter places on `power`'s own carriers in `sea`."""
    units = ruleset.units
    return sum((units[s.unit].carrier_capacity - units[s.unit].carrier_size) * s.count
               for s in state.stacks(sea) if s.owner == power)


def boarding_events(ctx: TurnContext, action: Move) -> None:
    """Fighters at a complex board the new carriers placed next to it (REAL98-CARRIER-place-existing-on-new)."""
    state, ruleset, power = ctx.state, ctx.ruleset, ctx.power
    board, units = ruleset.board, ruleset.units
    path = [board.resolve(p) for p in action.path]
    want = parse_units(action.units, units)
    if len(path) != 2 or not board.spaces[path[1]].is_sea or not board.spaces[path[0]].is_land:
        raise IllegalAction("during mobilize only fighters at a complex move, onto new carriers in a sea zone next "
                            "to it", EXISTING_ON_NEW)
    territory, sea = path
    if any(not units[u].carrier_size for u in want):
        raise IllegalAction("only fighters board carriers", EXISTING_ON_NEW)
    if territory not in producers(state, ruleset, power) or sea not in board.spaces[territory].neighbors:
        raise IllegalAction(f"fighters board new carriers from the territory of the complex that built them; "
                            f"{territory} has no complex of {power} next to {sea}", EXISTING_ON_NEW)
    need = sum(units[u].carrier_size * n for u, n in want.items())
    room = min(new_room(state).get(sea, 0), free_room(state, ruleset, sea, power))
    if need > room:
        raise IllegalAction(f"the carriers placed in {sea} this turn have room for {room} more fighters",
                            EXISTING_ON_NEW)
    events = []
    for unit, count in want.items():
        ready = [s for s in state.stacks(territory) if s.owner == power and s.unit == unit
                 and not flags.has(s, flags.COMBAT)]
        if sum(s.count for s in ready) < count:
            raise IllegalAction(f"{power} has fewer than {count} {units[unit].display_plural} in {territory} that "
                                f"did not fight this turn", EXISTING_ON_NEW)
        for stack in ready:
            take = min(stack.count, count)
            if take:
                events.append(UnitsChanged(territory, stack.with_count(take), stack.with_count(take), sea))
                count -= take
    ctx.emit(*events)
    ctx.emit(turn_update(ctx.state, EXISTING_ON_NEW, **{NEW_ROOM: {**new_room(ctx.state), sea: room - need}}))


class CarrierPlacement(PhaseExtension):
    """Mobilize: record the room of new carriers, and let fighters at the complex board them."""

    name = "realism-carrier-placement"
    action_types = frozenset({"move"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        state, ruleset, power = ctx.state, ctx.ruleset, ctx.power
        board = ruleset.board
        for sea, room in sorted(new_room(state).items()):
            if room <= 0 or free_room(state, ruleset, sea, power) <= 0:
                continue
            for territory in sorted(producers(state, ruleset, power)):
                if sea not in board.spaces[territory].neighbors or space not in (None, sea, territory):
                    continue
                ready = {s.unit for s in state.stacks(territory) if s.owner == power
                         and ruleset.units[s.unit].carrier_size and not flags.has(s, flags.COMBAT)}
                for unit in sorted(ready):
                    yield Move(units=format_units({unit: 1}, ruleset.units), path=[territory, sea])

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        boarding_events(ctx, action)

    def before(self, ctx: TurnContext, action: Any) -> None:
        """New fighters go to sea only next to a complex that builds them (REAL98-CARRIER-place-new-on-existing)."""
        if not isinstance(action, Place):
            return
        ruleset = ctx.ruleset
        sea = ruleset.board.resolve(action.space)
        units = parse_units(action.units, ruleset.units)
        if not ruleset.board.spaces[sea].is_sea or not any(ruleset.units[u].domain == "air" for u in units):
            return
        near = ruleset.board.spaces[sea].neighbors
        if not any(p in near for p in producers(ctx.state, ruleset, ctx.power)):
            raise IllegalAction(f"new fighters go onto carriers in a sea zone next to the complex that builds them; "
                                f"{sea} is next to none of {ctx.power}'s", "REAL98-CARRIER-place-new-on-existing")
        need = sum(ruleset.units[u].carrier_size * n for u, n in units.items())
        room = free_room(ctx.state, ruleset, sea, ctx.power) + sum(ruleset.units[u].carrier_capacity * n
                                                                   for u, n in units.items())
        allied = any(s.owner != ctx.power and ruleset.units[s.unit].carrier_capacity for s in ctx.state.stacks(sea))
        if need > room and allied:
            raise IllegalAction(f"carriers carry only fighters of their own nation: {ctx.power}'s carriers in {sea} "
                                f"have room for {max(0, room)}", "REAL98-CARRIER-own-nation")

    def after(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Place):
            return
        ruleset = ctx.ruleset
        sea = ruleset.board.resolve(action.space)
        if not ruleset.board.spaces[sea].is_sea:
            return
        placed = parse_units(action.units, ruleset.units)
        room = sum(ruleset.units[u].carrier_capacity * n for u, n in placed.items())
        fighters = sum(ruleset.units[u].carrier_size * n for u, n in placed.items())
        if room:
            rooms = new_room(ctx.state)
            rooms[sea] = rooms.get(sea, 0) + max(0, room - fighters)
            rooms = dict(sorted(rooms.items()))
            ctx.emit(turn_update(ctx.state, "REAL98-CARRIER-place-new-on-new", **{NEW_ROOM: rooms}))


class WithoutFighterBan(PhaseExtension):
    """An earlier module's mobilize extension, less the Classic ban on new fighters at sea
    (CL-MOBILIZE-new-fighters-not-on-carriers): its other checks of the same placement still apply."""

    def __init__(self, inner: PhaseExtension) -> None:
        self.inner = inner
        self.name = inner.name
        self.title = inner.title
        self.action_types = inner.action_types
        self.answers = inner.answers

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        return self.inner.candidates(ctx, space)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        self.inner.events_for(ctx, action)

    def can_end(self, ctx: TurnContext) -> None:
        self.inner.can_end(ctx)

    def on_enter(self, ctx: TurnContext) -> None:
        self.inner.on_enter(ctx)

    def on_exit(self, ctx: TurnContext) -> None:
        self.inner.on_exit(ctx)

    def after(self, ctx: TurnContext, action: Any) -> None:
        self.inner.after(ctx, action)

    def before(self, ctx: TurnContext, action: Any) -> None:
        try:
            self.inner.before(ctx, action)
        except IllegalAction as err:
            if err.rule_id != CLASSIC_BAN or not isinstance(action, Place):
                raise
            units = ctx.ruleset.units
            rest = {u: n for u, n in parse_units(action.units, units).items() if units[u].domain != "air"}
            if rest:
                self.inner.before(ctx, Place(units=format_units(rest, units), space=action.space))


PLACEMENT = CarrierPlacement()


def phase_actions(found: list[PhaseExtension], phase: str, **_: Any) -> list[PhaseExtension]:
    """Mobilize: the earlier modules' extensions without the Classic fighter ban, and the boarding of new
    carriers."""
    if phase != "mobilize":
        return found
    return [WithoutFighterBan(e) for e in found] + [PLACEMENT]
