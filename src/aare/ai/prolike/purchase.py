"""Purchase: defenders where a complex cannot be held, an AA gun against an air threat, then land units drawn
at random weighted by attack efficiency, warships when no enemy can be reached by land, the rest spent."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from aare.actions import Purchase, Repair
from aare.ai.greedy import Bulk, front_distance
from aare.ai.prolike.odds import Judge
from aare.ai.prolike.reading import Units, threat, units_at
from aare.board.notation import format_units, parse_units
from aare.board.units import UnitType
from aare.economy.pool import pool
from aare.economy.production import coastal, producers
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState


def efficiency(kind: UnitType, distance: int = 1) -> float:
    """Attack efficiency `(1 + hp) x (hp + attack + 0.5 x defence) / cost`, times the distance factor: the
    unit's move, up to the land distance to the enemy (fast units count when the enemy is far)."""
    hp = kind.hits
    base = (1 + hp) * (hp + kind.attack + 0.5 * kind.defense) / max(1, kind.cost)
    return base * max(1, min(kind.move, distance))


def fighting(kind: UnitType) -> bool:
    return kind.cost > 0 and (kind.attack > 0 or kind.defense > 0) and not kind.has("aa") and not kind.has("factory")


def ferry(state: GameState, ruleset: Ruleset, me: str, land: list[UnitType], boats: list[UnitType],
          sea: list[UnitType], buy: Callable[[UnitType], bool], rng: random.Random, front: Mapping[str, int]) -> None:
    """Transports for the land units with no land route to the enemy (those standing there and those bought),
    one escort (the warship with the best defence per cost) for every two transports, land units to fill them."""
    units = ruleset.units
    boat = min(boats, key=lambda k: (k.cost, k.id))
    room = boat.transport_capacity
    per_boat = max(1, room // max(1, min(k.transport_size for k in land)))
    have = sum(s.count for stacks in state.units.values() for s in stacks if s.owner == me and s.unit == boat.id)
    waiting = sum(s.count for t, stacks in state.units.items() if t not in front and ruleset.board.spaces[t].is_land
                  for s in stacks if s.owner == me and units[s.unit].domain == "land" and units[s.unit].cost > 0)
    escort = max((k for k in sea if k.defense > 0), key=lambda k: (k.defense / k.cost, -k.cost, k.id), default=None)
    weights = [efficiency(k) for k in land]
    bought_boats = cargo = 0
    while True:
        if (have + bought_boats) * per_boat < waiting + cargo + per_boat:
            if not buy(boat):
                break
            bought_boats += 1
            if escort is not None and bought_boats % 2 == 0:
                buy(escort)
            continue
        choice = rng.choices(land, weights=weights)[0]
        if not buy(choice) and not buy(min(land, key=lambda k: (k.cost, k.id))):
            break
        cargo += 1


def plan(judge: Judge, rng: random.Random, legal: list[Any], state: GameState, ruleset: Ruleset, me: str,
         hold_at: float) -> list[Any]:
    """What to buy, in the description's order; the steps are `Bulk` purchases of one unit type each."""
    units = ruleset.units
    side = ruleset.board.side_of(me)
    steps: list[Any] = sorted((a for a in legal if isinstance(a, Repair)), key=lambda a: -a.points)[:1]
    offered = sorted({u for a in legal if isinstance(a, Purchase) for u in parse_units(a.units, units)})
    land = [units[u] for u in offered if units[u].domain == "land" and fighting(units[u])]
    sea = [units[u] for u in offered if units[u].domain == "sea" and fighting(units[u]) and units[u].attack > 0]
    if not land:
        return steps
    producing = producers(state, ruleset, me)
    room = sum(producing.values()) - sum(pool(state, me).values())
    bank = state.banks.get(me, 0)
    bought: Units = {}

    def buy(kind: UnitType) -> bool:
        nonlocal room, bank
        if room <= 0 or kind.cost > bank:
            return False
        bought[kind.id] = bought.get(kind.id, 0) + 1
        room -= 1
        bank -= kind.cost
        return True

    # 1. defenders for complexes that cannot be held
    guard = max(land, key=lambda k: (k.defense / k.cost, -k.cost, k.id))
    for space in sorted(producing):
        danger = threat(state, ruleset, side, space)
        here = units_at(state, ruleset, space, side, ours=True)
        added = 0
        while (danger and added < producing[space] and judge.hold(here, danger, ruleset) < hold_at
               and buy(guard)):
            here[guard.id] = here.get(guard.id, 0) + 1
            added += 1
    # 2. an AA gun where enemy aircraft gather near the capital and none stands there
    capital = ruleset.board.capital_of(me)
    aa = [units[u] for u in offered if units[u].has("aa")]
    if aa and capital in producing:
        air = sum(n for u, n in threat(state, ruleset, side, capital).items() if units[u].domain == "air")
        if air >= 3 and not any(units[s.unit].has("aa") for s in state.units.get(capital, ())):
            buy(aa[0])
    # 3. land units by efficiency; 4. transports and their escort where no complex reaches the enemy by land
    front = front_distance(state, ruleset, side)
    distance = min((front[p] for p in producing if p in front), default=None)
    boats = [units[u] for u in offered if units[u].domain == "sea" and units[u].transport_capacity > 0]
    if distance is None and coastal(ruleset, producing) and (boats or sea):
        if boats:
            ferry(state, ruleset, me, land, boats, sea, buy, rng, front)
        else:  # "save up for a fleet": bought at once
            weights = [efficiency(k) for k in sea]
            while room > 0 and (affordable := [(k, w) for k, w in zip(sea, weights, strict=True) if k.cost <= bank]):
                buy(rng.choices([k for k, _ in affordable], weights=[w for _, w in affordable])[0])
    weights = [efficiency(k, distance or 1) for k in land]
    while room > 0:
        affordable = [(k, w) for k, w in zip(land, weights, strict=True) if k.cost <= bank]
        if not affordable:
            break
        buy(rng.choices([k for k, _ in affordable], weights=[w for _, w in affordable])[0])
    # 6. what is left: the cheapest land unit
    cheap = min(land, key=lambda k: (k.cost, k.id))
    while buy(cheap):
        pass
    for unit_id, n in bought.items():
        steps.append(Bulk(Purchase(units=format_units({unit_id: n}, units)),
                          Purchase(units=format_units({unit_id: 1}, units)), n))
    return steps
