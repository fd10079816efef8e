"""The planner at sea: ferries in the non-combat move and amphibious assaults in the combat move, built from the
engine-checked lifts of `aare.ai.amphibious` and judged with the threat map and exact odds.

- **Exposure.** A transport ends its move in a sea zone; the threat map says which enemy warships and aircraft
  can reach that zone next turn. A lift is worth making only if what it brings beats the expected loss of the
  ships left there (the threat's chance to win the sea battle times their value).
- **Ferries** (non-combat). Land units that stand far from enemy land (more than `FRONT_REACH` land steps: no
  land route worth taking) board and go ashore where they lower the expected loss to the threat most (a kept or
  allied territory in danger), else on the friendly coast nearest enemy land that they and the units there
  hold. Loaded transports that reach no such coast sail to the safe zone nearest one. Empty transports that
  carried nothing sail back towards cargo: the zones beside the power's land far from the front where land
  units wait or complexes place (`plan_returns`), through zones no more exposed than `RETURN_RISK` allows.
- **Assaults** (combat move). For each enemy coast the transports reach, the lifts' cargo plus the spare
  aircraft that reach it attack it when `combat_plan.attack_value` (exact odds, counter-attack included) is
  positive with at least `MIN_CAPTURE` to take it, and the ships' exposure does not eat the gain."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from aare.actions import Move
from aare.ai.amphibious import Lift, Sealift, scratch, transport_kinds, verified
from aare.ai.greedy import enemy_units, front_distance
from aare.ai.planner.combat_plan import MIN_CAPTURE, Reach, attack_value, flies_back
from aare.ai.planner.oracle import Oracle
from aare.ai.planner.purchase import FRONT_REACH
from aare.ai.planner.risk import expected_loss, exposure
from aare.ai.planner.value import territory_worth, units_value
from aare.board.notation import format_units
from aare.economy.production import producers
from aare.engine import Game
from aare.movement.graph import graph_of
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

Units = dict[str, int]
RETURN_RISK = 0.25  # an empty transport sails back into a zone where the threat may expect to win this share of it


def boat_of(lift: Lift, state: GameState, ruleset: Ruleset, me: str) -> Units:
    """The transport a lift moves, as units."""
    kinds = transport_kinds(ruleset)
    unit = next(s.unit for s in state.units.get(lift.start, ()) if s.owner == me and s.unit in kinds)
    return {unit: 1}


def plan_ferries(game: Game, spare: dict[str, Units], guarded: list[str], state: GameState, ruleset: Ruleset,
                 me: str, threat: Mapping[str, Units], oracle: Oracle,
                 here: Callable[[str], Units], reach: Reach | None = None) -> list[Any]:
    """The non-combat lifts (see the module docstring); `here(space)` is the planner's running count of the
    units gathered at a space, updated as cargo lands. The spare warships in a lift's zone that can reach where
    it ends sail with it as escorts (`reach`: the one-unit moves)."""
    board, units = ruleset.board, ruleset.units
    side = board.side_of(me)
    graph = graph_of(board)
    front = front_distance(state, ruleset, side)
    sealift = Sealift(game, combat=False)
    if not sealift.boats:
        return []
    routes = sealift.routes()
    voyages = sealift.voyages()
    committed: list[Lift] = []
    landings = {z for t, d in front.items() if d <= 1 for z in graph.coast.get(t, ())}
    towards = graph.distances_from(landings, lambda s: graph.sea_nbrs[s]) if landings else {}

    sent: dict[str, Units] = {}  # end zone -> ships sent there

    def escorts(lift: Lift) -> list[tuple[str, list[str]]]:
        """(warship, path) of the spare warships at the lift's zone that can reach where it ends."""
        if reach is None or len(lift.path) < 2:
            return []
        found: list[tuple[str, list[str]]] = []
        for (unit, start), dests in sorted(reach.items()):
            kind = units[unit]
            if start == lift.start and kind.domain == "sea" and kind.transport_capacity == 0 \
                    and lift.path[-1] in dests:
                found += [(unit, list(dests[lift.path[-1]]))] * spare.get(start, {}).get(unit, 0)
        return found

    def fleet(lift: Lift) -> Units:
        ships = dict(sent.get(lift.path[-1], {}))
        for unit, n in [*boat_of(lift, state, ruleset, me).items(), *((u, 1) for u, _ in escorts(lift))]:
            ships[unit] = ships.get(unit, 0) + n
        return ships

    def gain(lift: Lift) -> float:
        cargo = lift.units()
        target = lift.target
        risk = exposure(oracle, ruleset, state, side, lift.path[-1], threat, fleet(lift))
        if not target:  # a voyage: nearer a landing, worth part of the cargo
            return 0.1 * units_value(cargo, ruleset) - risk
        now = here(target)
        after = {u: now.get(u, 0) + cargo.get(u, 0) for u in {*now, *cargo}}
        danger = threat.get(target, {})
        if target in guarded and danger:
            saved = (expected_loss(oracle, ruleset, target, danger, now)
                     - expected_loss(oracle, ruleset, target, danger, after))
            if saved > 0:
                return saved - risk
        if front.get(target, 99) <= 1 and (not danger or oracle.capture(danger, after) <= 0.6):
            return 0.25 * units_value(cargo, ruleset) * (2 - front.get(target, 99)) - risk
        return -1.0

    boats = dict(sealift.boats)
    escort_moves: list[Any] = []
    for (zone, aboard), count in sorted(sealift.boats.items()):
        for _ in range(count):
            pool = {(u, t): min(n, spare.get(t, {}).get(u, 0)) for (u, t), n in sealift.loads.get(zone, {}).items()
                    if front.get(t, 99) > FRONT_REACH}
            trips = [r for r in routes if r.start == zone and r.aboard == aboard]
            trips += [v for v in voyages if v.start == zone and v.aboard == aboard
                      and towards.get(v.path[-1], 99) < towards.get(zone, 99)]
            best: tuple[float, Lift] | None = None
            for route in trips:
                if not oracle.budget.left():
                    break
                lift = sealift.lift(route, pool, lambda u: (-units[u].defense / max(1, units[u].cost), u))
                if lift is None or not lift.units():
                    continue
                value = gain(lift)
                if value > 0 and (best is None or value > best[0]):
                    best = (value, lift)
            if best is None or not verified(scratch(game), [*committed, best[1]]):
                break
            lift = best[1]
            committed.append(lift)
            boats[zone, aboard] -= 1
            end = sent.setdefault(lift.path[-1], {})
            for unit, n in boat_of(lift, state, ruleset, me).items():
                end[unit] = end.get(unit, 0) + n
            for unit, path in escorts(lift):
                spare[zone][unit] -= 1
                end[unit] = end.get(unit, 0) + 1
                escort_moves.append(Move(units=format_units({unit: 1}, units), path=path))
            for unit, where in lift.cargo:
                if where != zone:
                    spare[where][unit] -= 1
                    here(where)[unit] = here(where).get(unit, 0) - 1
            if lift.target:
                for unit, n in lift.units().items():
                    here(lift.target)[unit] = here(lift.target).get(unit, 0) + n
    returns = plan_returns(sealift, {key: n for key, n in boats.items() if not key[1] and n > 0}, spare, front,
                           state, ruleset, me, threat, oracle)
    return [action for lift in committed for action in lift.actions] + escort_moves + returns


def pickup_zones(spare: Mapping[str, Units], front: Mapping[str, int], state: GameState, ruleset: Ruleset,
                 me: str) -> set[str]:
    """The sea zones beside `me`'s territories far from the front (more than `FRONT_REACH` land steps) where
    land units of its wait or its complexes place new ones: where empty transports find cargo."""
    graph = graph_of(ruleset.board)
    units = ruleset.units
    waiting = {t for t, here in spare.items() if t in graph.land and front.get(t, 99) > FRONT_REACH
               and any(n > 0 and units[u].domain == "land" and units[u].transport_size > 0 for u, n in here.items())}
    waiting |= {t for t in producers(state, ruleset, me) if front.get(t, 99) > FRONT_REACH}
    return {z for t in waiting for z in graph.coast.get(t, ()) if z not in graph.land}


def plan_returns(sealift: Sealift, empty: Mapping[tuple[str, tuple[str, ...]], int], spare: Mapping[str, Units],
                 front: Mapping[str, int], state: GameState, ruleset: Ruleset, me: str,
                 threat: Mapping[str, Units], oracle: Oracle) -> list[Any]:
    """Empty transports that carried nothing this phase sail back towards cargo (`pickup_zones`): each group to
    the zone it reaches nearest one by sea, if nearer than where it is and no more exposed to the threat there
    (`risk.exposure`) than where it is, or than `RETURN_RISK` of their cost."""
    graph = graph_of(ruleset.board)
    side = ruleset.board.side_of(me)
    pickups = pickup_zones(spare, front, state, ruleset, me)
    if not pickups:
        return []
    towards = graph.distances_from(pickups, lambda s: graph.sea_nbrs[s])
    plan: list[Any] = []
    for (zone, aboard), count in sorted(empty.items()):
        if zone in pickups or zone not in towards:
            continue
        boat = next(s.unit for s in state.units.get(zone, ()) if s.owner == me and s.unit in transport_kinds(ruleset))
        group = {boat: count}
        allowed = max(exposure(oracle, ruleset, state, side, zone, threat, {}),
                      RETURN_RISK * units_value(group, ruleset))
        nearer = sorted((towards[d], d) for d in sealift.reach.get((zone, aboard), {})
                        if towards.get(d, 99) < towards[zone])
        for _, dest in nearer:
            if not oracle.budget.left():
                break
            if exposure(oracle, ruleset, state, side, dest, threat, group) <= allowed:
                path = list(sealift.reach[zone, aboard][dest])
                plan += [Move(units=format_units({boat: 1}, ruleset.units), path=path)] * count
                break
    return plan


def plan_assaults(game: Game, reach: Reach, spare: dict[str, Units], attacked: set[str], state: GameState,
                  ruleset: Ruleset, me: str, threat: Mapping[str, Units], oracle: Oracle) -> list[Any]:
    """The amphibious assaults of the combat move on enemy coasts not already attacked (see the module
    docstring)."""
    board, units = ruleset.board, ruleset.units
    side = board.side_of(me)
    sealift = Sealift(game, combat=True)
    if not sealift.boats:
        return []
    committed: list[Lift] = []
    plan: list[Any] = []
    back = flies_back(state, ruleset, side)
    used: dict[tuple[str, tuple[str, ...]], int] = {}
    routes = sealift.routes()
    targets = sorted({r.target for r in routes if r.target not in attacked},
                     key=lambda t: (-territory_worth(ruleset, t), t))
    for target in targets:
        if not oracle.budget.left():
            break
        defenders = enemy_units(state, board, side, target, ruleset)
        lifts: list[Lift] = []
        taken = dict(used)
        force: Units = {}
        for route in sorted((r for r in routes if r.target == target), key=lambda r: (len(r.path), r.path)):
            key = (route.start, route.aboard)
            if taken.get(key, 0) >= sealift.boats.get(key, 0):
                continue
            pool = {(u, t): min(n, spare.get(t, {}).get(u, 0))
                    for (u, t), n in sealift.loads.get(route.start, {}).items()}
            for lf in lifts:
                for unit, where in lf.cargo:
                    if (unit, where) in pool:
                        pool[unit, where] -= 1
            lift = sealift.lift(route, pool, lambda u: (-(units[u].attack + 1) / max(1, units[u].cost), u))
            if lift is None or not any(units[u].domain == "land" for u in lift.units()):
                continue
            taken[key] = taken.get(key, 0) + 1
            lifts.append(lift)
            for unit, n in lift.units().items():
                force[unit] = force.get(unit, 0) + n
        if not lifts:
            continue
        flyers = [(unit, start, list(dests[target])) for (unit, start), dests in sorted(reach.items())
                  if target in dests and units[unit].domain == "air" and spare.get(start, {}).get(unit, 0) > 0
                  and back(unit, list(dests[target]))]
        air: list[tuple[str, str, list[str]]] = []
        best = attack_value(oracle, force, defenders, territory_worth(ruleset, target), threat.get(target, {}),
                            ruleset) if defenders else (1.0, 1.0)
        for unit, start, path in flyers:
            for _ in range(spare[start][unit]):
                if best[1] >= 0.9 or not oracle.budget.left():
                    break
                trial = {**force, unit: force.get(unit, 0) + 1}
                value = attack_value(oracle, trial, defenders, territory_worth(ruleset, target),
                                     threat.get(target, {}), ruleset)
                if value[0] > best[0]:
                    force, best = trial, value
                    air.append((unit, start, path))
        risk = sum(exposure(oracle, ruleset, state, side, lf.path[-1], threat, boat_of(lf, state, ruleset, me))
                   for lf in lifts)
        if best[1] < MIN_CAPTURE or best[0] - risk <= 0:
            continue
        if not verified(scratch(game), [*committed, *lifts]):
            continue
        committed += lifts
        used = taken
        for lf in lifts:
            for unit, where in lf.cargo:
                if where != lf.start:
                    spare[where][unit] -= 1
            plan += lf.actions
        for unit, start, path in air:
            spare[start][unit] -= 1
            plan.append(Move(units=format_units({unit: 1}, units), path=path))
    return plan
