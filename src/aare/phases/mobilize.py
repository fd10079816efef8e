"""Mobilize: place the purchase pool at complexes held since the start of the turn, ships in adjacent sea
zones, fighters onto own carriers, new complexes anywhere held since the start of the turn. At the end,
hovering fighters without carrier room are lost, and so are unplaced units unless the ruleset keeps them."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from aare.actions import Move, Place
from aare.board.notation import parse_units
from aare.economy.pool import pool, pool_event
from aare.economy.production import HOVER, NEW, carrier_room, fits, has_complex, producers, sea_producers
from aare.economy.tech import activation_events
from aare.economy.turn import held_since_turn_start, turn_record, turn_update
from aare.errors import IllegalAction
from aare.events import Event, UnitsAdded, UnitsChanged, UnitsRemoved
from aare.phases.base import PhaseHandler, TurnContext, register_phase
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

AT_COMPLEX = "LHTR-MOBILIZE-at-owned-complex"
AT_SEA = "LHTR-MOBILIZE-naval-adjacent-sz"
NEW_CARRIER = "LHTR-MOBILIZE-fighters-on-new-carrier"
OLD_CARRIER = "LHTR-MOBILIZE-fighters-on-existing-carrier"
NEW_COMPLEX = "LHTR-MOBILIZE-new-complex-placement"
# The rules under which mobilize creates units: each such unit leaves the purchase pool.
PLACEMENT_RULES = frozenset({AT_COMPLEX, AT_SEA, NEW_CARRIER, OLD_CARRIER, NEW_COMPLEX})


def complex_sites(state: GameState, ruleset: Ruleset, power: str) -> list[str]:
    """Territories where `power` may place a new complex now."""
    need_ipc = bool(ruleset.options.get("complex_needs_ipc", False))
    return [
        t
        for t, owner in state.owners.items()
        if owner == power
        and held_since_turn_start(state, power, t)
        and not has_complex(state, ruleset, t)
        and (not need_ipc or ruleset.board.spaces[t].ipc >= 1)
    ]


def placement_spaces(state: GameState, ruleset: Ruleset, power: str, unit: str, producing: Iterable[str]) -> list[str]:
    """Where one `unit` could go, before capacity: the candidates of the phase."""
    unit_type = ruleset.units[unit]
    if unit_type.domain == "building":
        return sorted(complex_sites(state, ruleset, power))
    producing = list(producing)
    seas = sorted({n for p in producing for n in ruleset.board.spaces[p].neighbors if ruleset.board.spaces[n].is_sea})
    if unit_type.domain == "land":
        return sorted(producing)
    if unit_type.domain == "sea":
        return seas
    return sorted(producing) + (seas if unit_type.carrier_size else [])


def _check_complex(state: GameState, ruleset: Ruleset, power: str, space: str, producing: Mapping[str, int]) -> None:
    """Raise the rule that keeps `power` from producing at `space`, if any."""
    if space in producing:
        return
    owner = state.owners.get(space)
    if owner != power:
        raise IllegalAction(f"{power} does not control {space}", AT_COMPLEX)
    if not has_complex(state, ruleset, space):
        raise IllegalAction(f"there is no industrial complex in {space}", AT_COMPLEX)
    if not has_complex(state, ruleset, space, power):
        raise IllegalAction(f"{power} cannot use another power's complex in {space}", "LHTR-TURN-no-shared-economy")
    if not held_since_turn_start(state, power, space):
        raise IllegalAction(f"{space} was captured this turn: its complex produces from the next turn",
                            "LHTR-MOBILIZE-not-captured-this-turn")
    raise IllegalAction(f"the complex in {space} was placed this turn: it produces from the next turn",
                        "LHTR-MOBILIZE-new-complex-idle-this-turn")


def placed_with(state: GameState, space: str, counted: int) -> dict[str, int]:
    """The units placed this turn against the complexes' capacity (space -> count), `counted` more in `space`."""
    placed: dict[str, int] = turn_record(state)["placed"]
    return {**placed, space: int(placed.get(space, 0)) + counted}


def one_placeable(state: GameState, ruleset: Ruleset, power: str,
                  producing: Mapping[str, int]) -> Callable[[str, str], bool]:
    """Whether one `unit` may be placed at a space `placement_spaces` lists for it (what `placement_events` asks
    there: the complexes can supply one more unit; aircraft at sea need carrier room)."""
    room: dict[str, bool] = {}

    def check(unit: str, space: str) -> bool:
        kind = ruleset.units[unit]
        if kind.domain == "building":
            return True
        if space not in room:
            room[space] = fits(ruleset, producing, placed_with(state, space, 1))
        if kind.domain == "air" and ruleset.board.spaces[space].is_sea:
            return room[space] and carrier_room(state, ruleset, space, power) >= kind.carrier_size
        return room[space]

    return check


def placement_events(state: GameState, ruleset: Ruleset, power: str, text: str, space: str) -> list[Event]:
    """The events of placing the units `text` from `power`'s pool in `space`; IllegalAction if not allowed."""
    board, catalogue = ruleset.board, ruleset.units
    space = board.resolve(space)
    where = board.spaces[space]
    units = parse_units(text, catalogue)
    if not units:
        raise IllegalAction("place at least one unit", "LHTR-PURCHASE-units-wait-for-mobilize")
    have = pool(state, power)
    for unit, n in units.items():
        if have.get(unit, 0) < n:
            raise IllegalAction(f"{power} has {have.get(unit, 0)} {unit} waiting to be placed, not {n}",
                                "LHTR-PURCHASE-units-wait-for-mobilize")
        have[unit] -= n
    producing = producers(state, ruleset, power)
    events: list[Event] = []
    ships: list[Stack] = []
    counted = 0
    air_at_sea = 0
    for unit, n in units.items():
        kind = catalogue[unit]
        stack = Stack(power, unit, n)
        if kind.domain == "building":
            if n > 1 or has_complex(state, ruleset, space):
                raise IllegalAction(f"{space} already has an industrial complex (one per territory)", NEW_COMPLEX)
            if space not in complex_sites(state, ruleset, power):
                rule = "LHTR-MOBILIZE-new-complex-zero-value" if where.is_land and where.ipc == 0 else NEW_COMPLEX
                raise IllegalAction(f"{power} cannot place a complex in {space}", rule)
            events.append(UnitsAdded(space, replace(stack, flags=(NEW,)), NEW_COMPLEX))
            continue
        counted += n
        if where.is_land:
            if kind.domain == "sea":
                raise IllegalAction(f"{kind.display_plural} are placed in a sea zone next to a complex", AT_SEA)
            _check_complex(state, ruleset, power, space, producing)
            events.append(UnitsAdded(space, stack, AT_COMPLEX))
            continue
        if kind.domain == "land":
            raise IllegalAction(f"{kind.display_plural} are placed in a territory with a complex", AT_COMPLEX)
        if not sea_producers(ruleset, producing, space):
            raise IllegalAction(f"{space} is not next to a complex {power} can produce at", AT_SEA)
        if kind.domain == "air":
            if not kind.carrier_size:
                raise IllegalAction(f"{kind.display_plural} cannot be placed at sea", NEW_CARRIER)
            air_at_sea += kind.carrier_size * n
            continue
        ships.append(stack)
        events.append(UnitsAdded(space, stack, AT_SEA))
    if air_at_sea:
        room = carrier_room(state, ruleset, space, power, ships)
        if air_at_sea > room:
            raise IllegalAction(f"{power}'s carriers in {space} have room for {max(room, 0)} more fighters",
                                NEW_CARRIER)
        rule = NEW_CARRIER if any(catalogue[s.unit].carrier_capacity for s in ships) else OLD_CARRIER
        for unit, n in units.items():
            if catalogue[unit].domain == "air":
                events.append(UnitsAdded(space, Stack(power, unit, n), rule))
    placed = placed_with(state, space, counted)
    if counted and not fits(ruleset, producing, placed):
        raise IllegalAction(f"the complexes that can supply {space} cannot take {counted} more units this turn",
                            "LHTR-MOBILIZE-capacity-ipc-value")
    events.append(pool_event(state, power, have, "LHTR-PURCHASE-units-wait-for-mobilize"))
    if counted:
        events.append(turn_update(state, "LHTR-MOBILIZE-capacity-ipc-value", placed=dict(sorted(placed.items()))))
    return events


def hover_events(state: GameState, ruleset: Ruleset, power: str) -> list[Event]:
    """Fighters that hovered for a new carrier land on it; those without room are lost."""
    events: list[Event] = []
    for space in sorted(state.units):
        hovering = [s for s in state.units[space] if s.owner == power and HOVER in s.flags]
        if not hovering:
            continue
        room = carrier_room(state, ruleset, space, power, hovering=False)
        for stack in hovering:
            size = ruleset.units[stack.unit].carrier_size or 1
            keep = max(0, min(stack.count, room // size))
            room -= keep * size
            if keep:
                landed = replace(stack, count=keep, flags=tuple(f for f in stack.flags if f != HOVER))
                events.append(UnitsChanged(space, stack.with_count(keep), landed))
            if stack.count > keep:
                events.append(UnitsRemoved(space, stack.with_count(stack.count - keep),
                                           "LHTR-MOBILIZE-hover-without-carrier-lost"))
    return events


def keeps_unplaced(state: GameState, ruleset: Ruleset, power: str) -> bool:
    """Whether units `power` leaves unplaced wait in its pool for a later turn (the `keep_unplaced` hook; by
    default they are lost, LHTR-PURCHASE-unplaced-lost)."""
    return bool(ruleset.modify("keep_unplaced", False, state=state, power=power))


class MobilizePhase(PhaseHandler):
    name = "mobilize"
    title = "Mobilize new units"
    _asked: tuple[GameState, Ruleset, Callable[[str, str], bool]] | None = None

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        """One unit of the pool at each place it could go, before capacity (`admits` asks that)."""
        state, ruleset, power = ctx.state, ctx.ruleset, ctx.power
        have = pool(state, power)
        if not have:
            return
        target = ruleset.board.resolve(space) if space is not None else None
        producing = producers(state, ruleset, power)
        for unit in ruleset.units:
            if have.get(unit.id):
                for where in placement_spaces(state, ruleset, power, unit.id, producing):
                    if target is None or where == target:
                        yield Place(units=f"1 {unit.display}", space=where)

    def admits(self, ctx: TurnContext, action: Any) -> bool:
        """A listed placement (one unit of the pool where it could go) is accepted when `one_placeable` says so;
        its answers are kept for the state last asked about (every placement of a listing asks)."""
        if not isinstance(action, Place):
            return True
        state, ruleset, asked = ctx.state, ctx.ruleset, self._asked
        if asked is None or asked[0] is not state or asked[1] is not ruleset:
            check = one_placeable(state, ruleset, ctx.power, producers(state, ruleset, ctx.power))
            asked = self._asked = (state, ruleset, check)
        (unit,) = parse_units(action.units, ruleset.units)
        return asked[2](unit, action.space)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if isinstance(action, Move):
            raise IllegalAction("units already on the board do not move during mobilize",
                                "LHTR-MOBILIZE-no-fighter-movement")
        if not isinstance(action, Place):
            super().events_for(ctx, action)
            return
        ctx.emit(*placement_events(ctx.state, ctx.ruleset, ctx.power, action.units, action.space))

    def on_enter(self, ctx: TurnContext) -> None:
        ctx.emit(*activation_events(ctx.state, ctx.power))

    def on_exit(self, ctx: TurnContext) -> None:
        ctx.emit(*hover_events(ctx.state, ctx.ruleset, ctx.power))
        if pool(ctx.state, ctx.power) and not keeps_unplaced(ctx.state, ctx.ruleset, ctx.power):
            ctx.emit(pool_event(ctx.state, ctx.power, {}, "LHTR-PURCHASE-unplaced-lost"))


MOBILIZE = register_phase(MobilizePhase())
