"""Placement: each unit where it lowers the expected loss to the threat map most, else towards the front.

Land units are placed one at a time, best defenders first. For every complex with room left, the expected loss
there is the threat's exact chance to take the territory times what would be lost (the territory's worth and
the units defending it); a unit goes where adding it lowers that most, per unit, judged for it alone and for all
the units of its kind still waiting together (one defender may not change a lost cause, several may). When no
complex gains from it, it goes to the complex nearest the enemy that the units there would hold (the threat's
chance at most `SAFE`), among those first where transports wait with room for it, else to the capital. A
transport goes to the zone beside a complex with room left where land units wait for more room than the
transports there have, unless the threat may expect to win more than `DOCK_RISK` of its cost there; other ships
where they are least exposed (`risk.exposure`); a complex bought goes where `purchase.complex_site` says."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aare.actions import Place
from aare.ai.planner.oracle import Oracle
from aare.ai.planner.purchase import complex_site
from aare.ai.planner.risk import expected_loss, exposure
from aare.ai.planner.threat import defenders_at
from aare.board.notation import format_units, parse_units
from aare.economy.pool import pool
from aare.economy.production import producers
from aare.movement.graph import graph_of
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

Units = dict[str, int]
DOCK_RISK = 0.25  # a transport is placed beside waiting cargo if the threat may expect to win at most this share
SAFE = 0.6  # a complex is a place to build up when the threat would take it with at most this chance


def plan_placement(legal: list[Any], state: GameState, ruleset: Ruleset, me: str, front: Mapping[str, int],
                   threat: Mapping[str, Units], oracle: Oracle) -> list[Any]:
    """Place every unit waiting, one at a time, by the rule in the module docstring."""
    units = ruleset.units
    side = ruleset.board.side_of(me)
    capital = ruleset.board.capital_of(me)
    offered = {a.space for a in legal if isinstance(a, Place)}
    producers_ = producers(state, ruleset, me)
    room = {s: n for s, n in producers_.items() if s in offered}
    for space in offered - set(room):  # spaces offered for other reasons (sea zones): no known limit
        room[space] = 99
    defenders = {s: defenders_at(state, ruleset, side, s) for s in room}
    waiting = sorted(((u, n) for u, n in pool(state, me).items()),
                     key=lambda un: (units[un[0]].domain != "land", -units[un[0]].defense, units[un[0]].cost, un[0]))
    plan: list[Any] = []
    graph = graph_of(ruleset.board)
    boats: dict[str, int] = {}  # zone -> transport room placed there

    def dock_rank(zone: str, unit: str) -> tuple[Any, ...]:
        """A transport goes where land units wait for one (beside the zone, more than the transports there can
        carry), unless too exposed there; any other ship where it is least exposed."""
        risk = exposure(oracle, ruleset, state, side, zone, threat, {unit: 1})
        if units[unit].transport_capacity <= 0:
            return (round(risk, 1),)
        return (risk > DOCK_RISK * units[unit].cost, -min(cargo_waiting(zone), units[unit].transport_capacity),
                round(risk, 1))

    def cargo_waiting(zone: str) -> int:
        """Room the land units of `me` beside `zone` would take beyond its transports' (placed ones counted)."""
        land = sum(units[u].transport_size * n for t in graph.coast.get(zone, ()) if t in graph.land
                   for u, n in (defenders[t] if t in defenders else defenders_at(state, ruleset, side, t)).items()
                   if units[u].domain == "land" and units[u].transport_size > 0 and units[u].attack > 0)
        room_there = sum(units[s.unit].transport_capacity * s.count for s in state.units.get(zone, ())
                         if s.owner == me) + boats.get(zone, 0)
        return land - room_there

    def boarding(space: str, unit: str) -> bool:
        """Whether a land unit placed at `space` finds room on transports waiting beside it."""
        size = units[unit].transport_size
        return units[unit].domain == "land" and size > 0 and any(
            -cargo_waiting(z) >= size for z in graph.coast.get(space, ()) if z not in graph.land)

    for unit, count in waiting:
        allowed = {a.space for a in legal if isinstance(a, Place) and unit in parse_units(a.units, units)}
        for left in range(count, 0, -1):
            spaces = [s for s in sorted(room) if room[s] > 0 and s in allowed]
            if not spaces:
                break
            best, gain = spaces[0], 0.0
            if units[unit].domain == "sea":
                best = min(spaces, key=lambda z: (
                    not any(room.get(t, 0) > 0 for t in graph.coast.get(z, ()) if t in producers_),
                    *dock_rank(z, unit), z))
                if units[unit].transport_capacity > 0:
                    boats[best] = boats.get(best, 0) + units[unit].transport_capacity
                for territory in graph.coast.get(best, ()):
                    if territory in producers_ and room.get(territory, 0) > 0:
                        room[territory] -= 1
                        break
                gain = 1.0
            if units[unit].domain == "land":
                for space in spaces:
                    if not threat.get(space) or not oracle.budget.left() or not ruleset.board.spaces[space].is_land:
                        continue
                    before = expected_loss(oracle, ruleset, space, threat[space], defenders[space])
                    for k in sorted({1, min(left, room[space])}):  # one more, or all that are left together
                        after = expected_loss(oracle, ruleset, space, threat[space],
                                              {**defenders[space], unit: defenders[space].get(unit, 0) + k})
                        if (before - after) / k > gain:
                            best, gain = space, (before - after) / k
            site = complex_site(state, ruleset, me, threat, oracle) if units[unit].has("factory") else None
            if site in spaces:
                best, gain = str(site), 1.0
            if gain <= 0.5:
                best = min(spaces, key=lambda s: (0, front.get(s, 99), not boarding(s, unit), s != capital, s)
                           if holds(oracle, threat.get(s, {}), defenders[s])
                           else (1, s != capital, front.get(s, 99), s))
            room[best] -= 1
            defenders[best][unit] = defenders[best].get(unit, 0) + 1
            plan.append(Place(units=format_units({unit: 1}, units), space=best))
    return plan


def holds(oracle: Oracle, threat: Units, defenders: Units) -> bool:
    """Whether `defenders` hold against `threat` (its chance to take the territory at most SAFE)."""
    return not threat or not oracle.budget.left() or oracle.capture(threat, defenders) <= SAFE
