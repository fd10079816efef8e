"""Purchase: candidate mixes of units, each judged with the exact odds of a cheap turn simulation.

The candidates mix the cheapest land unit with one other land unit in shares of 0, 1/4, 1/2 and all, filling
what the power's complexes can place with what it can pay (repairs first when offered). Each mix is judged as
the capital's extra defenders against what the threat map says the enemy can bring there (their chance to hold
it, weighted by what the capital is worth, when the capital is in danger) and, unless the power is island-bound
(its land units would not get there), as an attacking army against the strongest enemy stack near the power's
land (what it may expect to destroy minus what it may expect to lose). The best sum wins; ties go to the mix
with more units.

Complexes far from enemy land by land (more than `FRONT_REACH` steps) place land units that would not reach the
front by land: when the capital is not in danger, the mixes fill only the complexes near the front, and what the
far ones can place is bought by `far_purchase` (aircraft for a capital in danger, transports with their cargo,
the cheapest land unit). A power with no complex near the front first buys one (`complex_site`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from aare.actions import Purchase, Repair
from aare.ai.greedy import Bulk, enemy_units, front_distance
from aare.ai.planner.oracle import Oracle
from aare.ai.planner.risk import exposure
from aare.ai.planner.threat import defenders_at
from aare.ai.planner.value import territory_worth, units_value
from aare.board.notation import format_units, parse_units
from aare.economy.pool import pool
from aare.economy.production import producers
from aare.economy.turn import held_since_turn_start
from aare.movement.graph import graph_of
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

Units = dict[str, int]
SHARES = (0.0, 0.25, 0.5, 1.0)
DANGER = 0.2  # the capital is in danger when the threat would take it with more than this chance
SITE_RISK = 0.5  # a new complex's territory may be taken by the threat with at most this chance
FRONT_REACH = 2  # land steps from enemy land within which a complex serves the front


def fill(cheap: Any, other: Any, share: float, room: int, bank: int) -> Units:
    """Units bought: `other` for `share` of them, the rest `cheap`, while room and money last."""
    counts: Units = {}
    while room > 0 and bank >= cheap.cost:
        bought = sum(counts.values())
        unit = other if (bought + 1) * share >= counts.get(other.id, 0) + 1 and other.cost <= bank else cheap
        counts[unit.id] = counts.get(unit.id, 0) + 1
        bank -= unit.cost
        room -= 1
    return counts


def candidates(legal: list[Any], state: GameState, ruleset: Ruleset, me: str, room: int) -> list[Units]:
    """The mixes of land units the planner considers for `room` units (distinct, in a fixed order)."""
    offered = {u for a in legal if isinstance(a, Purchase) for u in parse_units(a.units, ruleset.units)}
    land = sorted((ruleset.units[u] for u in offered if ruleset.units[u].domain == "land"
                   and ruleset.units[u].cost > 0 and ruleset.units[u].defense > 0), key=lambda u: (u.cost, u.id))
    if not land:
        return []
    cheap = min(land, key=lambda u: (u.cost, -u.defense, u.id))
    bank = state.banks.get(me, 0)
    mixes: list[Units] = []
    for other in land:
        for share in SHARES:
            mix = fill(cheap, other, share, room, bank)
            if mix and mix not in mixes:
                mixes.append(mix)
    return mixes


def room_split(state: GameState, ruleset: Ruleset, me: str) -> tuple[int, int]:
    """(units the power's complexes within `FRONT_REACH` land steps of enemy land can place, those the others
    can), less what already waits to be placed (counted against the first)."""
    front = front_distance(state, ruleset, ruleset.board.side_of(me))
    near = far = 0
    for space, room in producers(state, ruleset, me).items():
        if front.get(space, 99) <= FRONT_REACH:
            near += room
        else:
            far += room
    waiting = sum(pool(state, me).values())
    return max(0, near - waiting), far - max(0, waiting - near)


def island_bound(state: GameState, ruleset: Ruleset, me: str) -> bool:
    """Whether none of the power's complexes is within `FRONT_REACH` land steps of enemy land."""
    front = front_distance(state, ruleset, ruleset.board.side_of(me))
    return not any(front.get(s, 99) <= FRONT_REACH for s in producers(state, ruleset, me))


def reference_stack(state: GameState, ruleset: Ruleset, me: str) -> Units:
    """The strongest enemy land stack (by value) on land next to the power's territories."""
    board = ruleset.board
    graph = graph_of(board)
    side = board.side_of(me)
    near = {n for t, o in state.owners.items() if o == me and t in graph.land for n in graph.land_nbrs[t]}
    best: tuple[float, str, Units] = (0.0, "", {})
    for space in sorted(near):
        units = {u: n for u, n in enemy_units(state, board, side, space, ruleset).items()
                 if ruleset.units[u].domain == "land"}
        value = units_value(units, ruleset)
        if value > best[0]:
            best = (value, space, units)
    return best[2]


def mix_score(mix: Units, state: GameState, ruleset: Ruleset, me: str, threat: Mapping[str, Units],
              oracle: Oracle, reference: Units) -> float:
    """What a mix is worth in IPCs: the capital held against the threat (when in danger), the exchange
    against the reference stack."""
    score = 0.0
    capital = ruleset.board.capital_of(me)
    if capital is not None and state.owners.get(capital) == me and threat.get(capital):
        defenders = defenders_at(state, ruleset, ruleset.board.side_of(me), capital)
        if oracle.capture(threat[capital], defenders) > DANGER:
            merged = {u: defenders.get(u, 0) + mix.get(u, 0) for u in {*defenders, *mix}}
            score += (1 - oracle.capture(threat[capital], merged)) * (territory_worth(ruleset, capital)
                                                                      + units_value(merged, ruleset))
    if reference:
        found = oracle.battle(mix, reference)
        if found is not None:
            score += found.defender_ipc_lost - found.attacker_ipc_lost
    return score


def complex_site(state: GameState, ruleset: Ruleset, me: str, threat: Mapping[str, Units],
                 oracle: Oracle) -> str | None:
    """Where a new complex would bring the power's production to the front: only when none of its complexes is
    within `FRONT_REACH` land steps of enemy land, the territory of its own, without a complex, at most that far
    from enemy land, that the units there hold against the threat (its chance at most `SITE_RISK`), producing
    most."""
    board, units = ruleset.board, ruleset.units
    graph = graph_of(board)
    side = board.side_of(me)
    front = front_distance(state, ruleset, side)
    if not island_bound(state, ruleset, me):
        return None
    built = {s for s, stacks in state.units.items() for st in stacks if units[st.unit].has("factory")}
    sites = sorted((t for t, o in state.owners.items() if o == me and t in graph.land and t not in built
                    and board.spaces[t].ipc >= 2 and front.get(t, 99) <= FRONT_REACH
                    and held_since_turn_start(state, me, t)),
                   key=lambda t: (-board.spaces[t].ipc, front.get(t, 99), t))
    for site in sites:
        danger = threat.get(site)
        if not danger or (oracle.budget.left()
                          and oracle.capture(danger, defenders_at(state, ruleset, side, site)) <= SITE_RISK):
            return site
    return None


def plan_purchase(legal: list[Any], state: GameState, ruleset: Ruleset, me: str, threat: Mapping[str, Units],
                  oracle: Oracle) -> list[Any]:
    """The purchase plan: a repair if one is offered, a complex where `complex_site` finds one (when the power
    can pay it and a unit more), then the best candidate mix."""
    plan: list[Any] = sorted((a for a in legal if isinstance(a, Repair)), key=lambda a: -a.points)[:1]
    factories = [a for a in legal if isinstance(a, Purchase) and parse_units(a.units, ruleset.units).keys()
                 and all(ruleset.units[u].has("factory") for u in parse_units(a.units, ruleset.units))
                 and sum(parse_units(a.units, ruleset.units).values()) == 1]
    if factories and complex_site(state, ruleset, me, threat, oracle) is not None:
        factory = factories[0]
        cost = sum(ruleset.units[u].cost for u in parse_units(factory.units, ruleset.units))
        if state.banks.get(me, 0) >= cost + 3:
            plan.append(factory)
            state = replace(state, banks={**state.banks, me: state.banks.get(me, 0) - cost})
    near, far = room_split(state, ruleset, me)
    offered = {u for a in legal if isinstance(a, Purchase) for u in parse_units(a.units, ruleset.units)}
    flyers = bool(far and not capital_in_danger(state, ruleset, me, threat, oracle))
    mixes = candidates(legal, state, ruleset, me, near if flyers else near + far)
    best: Units = {}
    if mixes:
        # an island-bound power's land units would not reach the enemy stack: no exchange is judged
        reference = {} if island_bound(state, ruleset, me) else reference_stack(state, ruleset, me)
        best = max(mixes, key=lambda m: (mix_score(m, state, ruleset, me, threat, oracle, reference)
                                         if oracle.budget.left() else 0.0, sum(m.values())))
    if flyers:
        bank = state.banks.get(me, 0) - int(units_value(best, ruleset))
        for unit, count in far_purchase(far, bank, offered, state, ruleset, me, threat, oracle).items():
            best[unit] = best.get(unit, 0) + count
    for unit_id, count in sorted(best.items()):
        plan.append(Bulk(Purchase(units=format_units({unit_id: count}, ruleset.units)),
                         Purchase(units=format_units({unit_id: 1}, ruleset.units)), count))
    return plan


def far_purchase(room: int, bank: int, offered: set[str], state: GameState, ruleset: Ruleset, me: str,
                 threat: Mapping[str, Units], oracle: Oracle) -> Units:
    """What the complexes far from the front place. Transports, with their cargo, while a safe landing is in
    their reach (`safe_landing`), with the fewest escorts (the warship with the best defence per cost, up to
    three) that make one safe if none is: enough transports at the far complexes' coasts to carry what those
    complexes place, counting each one there already, and the cheapest land units to fill every transport
    there beyond the land units already waiting at those complexes. Then aircraft (they fly to where they are
    needed), the cheapest land unit with what is left. (Aircraft bought to save a capital the threat may take
    would be placed after its enemy's next turn has begun: the mixes handle the power's own capital.)"""
    units = ruleset.units
    board = ruleset.board
    graph = graph_of(board)
    bought: Units = {}
    kinds = [units[u] for u in sorted(offered)]
    cheap = min((u for u in kinds if u.domain == "land" and u.cost > 0 and u.defense > 0),
                key=lambda u: (u.cost, -u.defense, u.id), default=None)
    air = min((u for u in kinds if u.domain == "air" and u.cost > 0), key=lambda u: (-u.defense / u.cost, u.id),
              default=None)
    boat = min((u for u in kinds if u.domain == "sea" and u.transport_capacity > 0 and u.cost > 0),
               key=lambda u: (u.cost, u.id), default=None)
    escort = min((u for u in kinds if u.domain == "sea" and u.transport_capacity == 0 and u.defense > 0
                  and u.cost > 0), key=lambda u: (-u.defense / u.cost, u.cost, u.id), default=None)
    guards = 0
    if boat is not None and cheap is not None and not safe_landing(state, ruleset, me, {boat.id: 1}, threat, oracle):
        guards = next((n for n in range(1, 4) if escort is not None and bank >= n * escort.cost + boat.cost
                       and safe_landing(state, ruleset, me, {boat.id: 2, escort.id: n}, threat, oracle)), 0)
        if escort is not None and guards and room > guards:
            bought[escort.id], room, bank = guards, room - guards, bank - guards * escort.cost
    if boat is not None and cheap is not None and (guards or safe_landing(state, ruleset, me, {boat.id: 1},
                                                                          threat, oracle)):
        load = max(1, boat.transport_capacity // max(1, cheap.transport_size))
        front = front_distance(state, ruleset, board.side_of(me))
        far = [s for s in producers(state, ruleset, me) if front.get(s, 99) > FRONT_REACH]
        docks = {z for s in far for z in graph.coast.get(s, ())}
        have = sum(s.count for z in docks for s in state.units.get(z, ()) if s.owner == me and s.unit == boat.id)
        waiting = sum(s.count for t in far for s in state.units.get(t, ())
                      if s.owner == me and units[s.unit].domain == "land" and units[s.unit].transport_size > 0
                      and units[s.unit].attack > 0)
        need = -(-room // (load + 1)) - have
        count = 0
        while count < need and room >= 1 + load and bank >= boat.cost + load * cheap.cost:
            count, room, bank = count + 1, room - 1 - load, bank - boat.cost - load * cheap.cost
        if count:
            bought[boat.id] = count
            bought[cheap.id] = count * load
        fill = min(room, bank // cheap.cost, max(0, have * load - waiting))
        if fill > 0:
            bought[cheap.id], room, bank = bought.get(cheap.id, 0) + fill, room - fill, bank - fill * cheap.cost
    if air is not None and room > 0 and bank >= air.cost:
        count = min(room, bank // air.cost)
        bought[air.id], room, bank = bought.get(air.id, 0) + count, room - count, bank - count * air.cost
    if cheap is not None and room > 0 and bank >= cheap.cost:
        bought[cheap.id] = bought.get(cheap.id, 0) + min(room, bank // cheap.cost)
    return {u: n for u, n in bought.items() if n}


def safe_landing(state: GameState, ruleset: Ruleset, me: str, fleet: Units, threat: Mapping[str, Units],
                 oracle: Oracle) -> bool:
    """Whether `fleet` (transports, escorts) from the power's far complexes could reach, within two moves of its
    slowest ship, a sea zone beside land at most one step from enemy land where an attack on it would win the
    threat nothing (`risk.exposure`)."""
    board = ruleset.board
    graph = graph_of(board)
    side = board.side_of(me)
    front = front_distance(state, ruleset, side)
    docks = {z for s in producers(state, ruleset, me) if front.get(s, 99) > FRONT_REACH for z in graph.coast.get(s, ())}
    if not docks:
        return False
    sail = graph.distances_from(docks, lambda s: graph.sea_nbrs[s])
    steps = 2 * min(ruleset.units[u].move for u in fleet)
    zones = sorted({z for t, d in front.items() if d <= 1 for z in graph.coast.get(t, ()) if sail.get(z, 99) <= steps})
    return any(exposure(oracle, ruleset, state, side, z, threat, fleet) <= 0.0 for z in zones)


def capital_in_danger(state: GameState, ruleset: Ruleset, me: str, threat: Mapping[str, Units],
                      oracle: Oracle) -> bool:
    """Whether the threat would take the power's capital with more than `DANGER`."""
    capital = ruleset.board.capital_of(me)
    if capital is None or state.owners.get(capital) != me or not threat.get(capital):
        return False
    return oracle.capture(threat[capital], defenders_at(state, ruleset, ruleset.board.side_of(me), capital)) > DANGER
