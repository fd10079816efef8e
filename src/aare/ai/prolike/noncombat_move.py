"""Non-combat move: a defender on every border territory, the prioritised territories held where they can
be, the rest towards the best strategic value."""

from __future__ import annotations

from collections.abc import Mapping

from aare.actions import Load, Move
from aare.ai.amphibious import Lift, Sealift, scratch, transport_kinds, verified
from aare.ai.greedy import front_distance, own_units
from aare.ai.landing import landing_moves
from aare.ai.prolike.combat_move import Reach, capital_superiority, prioritised
from aare.ai.prolike.odds import Judge
from aare.ai.prolike.reading import Units, friendly, has_factory, strategic_values, threat, units_at
from aare.board.notation import format_units
from aare.movement.graph import graph_of
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState


def plan(judge: Judge, reach: Reach, state: GameState, ruleset: Ruleset, me: str, hold_at: float,
         sealift: Sealift | None = None) -> list[Move | Load]:
    """The non-combat moves, in the description's order (see the package docstring); land units that have no
    land route to the enemy are ferried by sea to a friendly coast that has one (`ferry`)."""
    board, units = ruleset.board, ruleset.units
    graph = graph_of(board)
    side = board.side_of(me)
    spare = {start: own_units(state, me, start) for _, start in reach}
    for zone in (sealift.loads if sealift else {}).values():
        for _, territory in zone:
            spare.setdefault(territory, own_units(state, me, territory))
    moves: list[Move | Load] = []
    placed: dict[str, Units] = {}

    def send(unit: str, start: str, dest: str) -> None:
        spare[start][unit] -= 1
        placed.setdefault(dest, {})[unit] = placed.get(dest, {}).get(unit, 0) + 1
        moves.append(Move(units=format_units({unit: 1}, units), path=list(reach[unit, start][dest])))

    def land_options(dest: str) -> list[tuple[str, str]]:
        found = [(u, s) for (u, s), dests in sorted(reach.items())
                 if dest in dests and s != dest and units[u].domain == "land" and spare[s].get(u, 0) > 0]
        return sorted(found, key=lambda o: (-units[o[0]].defense / max(1, units[o[0]].cost), o[1], o[0]))

    def defenders(space: str) -> Units:
        found = units_at(state, ruleset, space, side, ours=True)
        for unit, n in placed.get(space, {}).items():
            found[unit] = found.get(unit, 0) + n
        return found

    # 1. one defender on every own territory that borders the enemy
    enemy = {t for t, o in state.owners.items() if t in graph.land and board.side_of(o) != side}
    border = sorted(t for t, o in state.owners.items()
                    if o == me and t in graph.land and any(n in enemy for n in graph.land_nbrs[t]))
    for space in border:
        if any(units[u].domain == "land" for u in defenders(space)):
            continue
        options = [o for o in land_options(space) if o[1] not in border or spare[o[1]][o[0]] > 1]
        if options:
            send(options[0][0], options[0][1], space)
    # 2. hold the prioritised territories (capital, complexes, victory cities) where they can be held
    capital = board.capital_of(me)
    kept = prioritised(state, ruleset, me)
    for space in kept:
        danger = threat(state, ruleset, side, space)
        if not danger:
            continue
        options = land_options(space)
        whole = defenders(space)
        for unit, start in options:
            whole[unit] = whole.get(unit, 0) + spare[start][unit]
        if space != capital and judge.hold(whole, danger, ruleset) < hold_at:
            continue  # cannot be held: not worth the units
        # 4. the capital lacking local superiority takes whatever can reach it
        wanted = 1.0 if space == capital and not capital_superiority(state, ruleset, me) else hold_at
        for unit, start in options:
            while spare[start].get(unit, 0) > 0 and judge.hold(defenders(space), danger, ruleset) < wanted:
                send(unit, start, space)
    # ferrying by sea where no land route leads to the enemy
    value = strategic_values(state, ruleset, side)
    if sealift is not None:
        moves += ferry(judge, sealift, spare, value, state, ruleset, me, hold_at)
    # 3. the rest towards the best strategic value
    kinds = transport_kinds(ruleset)
    home = graph.distances_from([capital]) if capital is not None else {}
    for (unit, start), dests in sorted(reach.items()):
        kind = units[unit]
        for _ in range(spare[start].get(unit, 0) if unit not in kinds else 0):
            here = value.get(start, 0.0)
            if kind.domain == "air":
                break  # aircraft land below, where the engine keeps them
            else:
                good = [d for d in dests if (kind.domain == "land" and friendly(state, ruleset, side, d))
                        or (kind.domain == "sea" and board.spaces[d].is_sea)]
                if not good:
                    break
                best = max(good, key=lambda d: (value.get(d, 0.0), d))
                if value.get(best, 0.0) <= here or (start in kept and sum(spare[start].values()) <= 1):
                    break
            send(unit, start, best)
    return moves + landing_moves(reach, state, ruleset, me, lambda d: home.get(d, 99))



def leaving(judge: Judge, state: GameState, ruleset: Ruleset, me: str, space: str, spare: Units,
            hold_at: float) -> Units:
    """The land units of `spare` that may leave `space`: all of them, but from a prioritised territory under
    threat only while those staying still hold it (best defenders per cost stay)."""
    units = ruleset.units
    side = ruleset.board.side_of(me)
    free = {u: n for u, n in spare.items() if units[u].domain == "land" and n > 0}
    danger = threat(state, ruleset, side, space)
    if space not in prioritised(state, ruleset, me) or not danger:
        return free
    staying = units_at(state, ruleset, space, side, ours=True)
    going: Units = {}
    for unit in sorted(free, key=lambda u: (units[u].defense / max(1, units[u].cost), u)):
        for _ in range(free[unit]):
            staying[unit] -= 1
            if judge.hold(staying, danger, ruleset) < hold_at:
                staying[unit] += 1
                break
            going[unit] = going.get(unit, 0) + 1
    return going


def ferry(judge: Judge, sealift: Sealift, spare: dict[str, Units], value: Mapping[str, float], state: GameState,
          ruleset: Ruleset, me: str, hold_at: float) -> list[Move | Load]:
    """Land units with no land route to the enemy board transports and go ashore on a friendly coast that has
    one (nearest the enemy by land first, then by strategic value), else on a friendly coast nearer, by sea, to
    a zone beside such a coast or the enemy's land. When neither is in reach, they sail aboard to the safe zone
    (no enemy warship within two sea steps) nearest, by sea, to a zone beside the
    enemy's land or such a coast. Transports left empty wait beside a complex of the power with no land route,
    where new units will stand, or sail towards one."""
    board, units = ruleset.board, ruleset.units
    graph = graph_of(board)
    side = board.side_of(me)
    front = front_distance(state, ruleset, side)
    routes = sealift.routes()
    committed: list[Lift] = []
    moves: list[Move | Load] = []
    boats = dict(sealift.boats)
    landings = {z for t in front if friendly(state, ruleset, side, t) or front[t] == 0 for z in graph.coast.get(t, ())}
    towards = graph.distances_from(landings, lambda s: graph.sea_nbrs[s])

    def nearer(territory: str) -> int:
        return min((towards.get(z, 99) for z in graph.coast.get(territory, ())), default=99)

    voyages = [v for v in sealift.voyages() if v.path[-1] in towards
               and towards[v.path[-1]] < towards.get(v.start, 99) and safe(state, ruleset, side, v.path[-1])]
    for (zone, aboard), n in sorted(sealift.boats.items()):
        mine = [r for r in routes if r.start == zone and r.aboard == aboard]
        trips = sorted((r for r in mine if r.target in front),
                       key=lambda r: (front[r.target], -value.get(r.target, 0.0), len(r.path), r.path, r.target))
        trips += sorted((r for r in mine if r.target not in front and nearer(r.target) < towards.get(zone, 99)),
                        key=lambda r: (nearer(r.target), len(r.path), r.path, r.target))
        trips += sorted((v for v in voyages if v.start == zone and v.aboard == aboard),
                        key=lambda v: (towards[v.path[-1]], len(v.path), v.path))
        for _ in range(n):
            free = {t: leaving(judge, state, ruleset, me, t, spare.get(t, {}), hold_at)
                    for _, t in sealift.loads.get(zone, {}) if t not in front}
            pool = {(u, t): min(k, free.get(t, {}).get(u, 0)) for (u, t), k in sealift.loads.get(zone, {}).items()}
            for route in trips:
                lift = sealift.lift(route, pool, lambda u: (-units[u].transport_size, -units[u].attack, u))
                if lift is None or (not route.target and len(lift.cargo) < 2):
                    continue  # a voyage sails full
                if not verified(scratch(sealift.game), [*committed, lift]):
                    continue
                committed.append(lift)
                boats[zone, aboard] -= 1
                for unit, where in lift.cargo:
                    if where != zone:
                        spare[where][unit] -= 1
                moves += lift.actions
                break
    # empty transports wait beside a complex that has no land route to the enemy
    docks = {z for t, o in state.owners.items() if o == me and t not in front and has_factory(state, ruleset, t)
             for z in graph.coast.get(t, ())}
    home = graph.distances_from(docks, lambda s: graph.sea_nbrs[s])
    for (zone, aboard), n in sorted(boats.items()):
        dests = {d: p for d, p in sealift.reach.get((zone, aboard), {}).items()
                 if home.get(d, 99) < home.get(zone, 99) and not units_at(state, ruleset, d, side, ours=False)}
        if aboard or n <= 0 or not dests:
            continue
        dest = min(dests, key=lambda d: (home[d], len(dests[d]), d))
        kind = next(s.unit for s in state.units.get(zone, ()) if s.owner == me and s.unit in transport_kinds(ruleset))
        moves.append(Move(units=format_units({kind: n}, units), path=list(dests[dest])))
    return moves


def safe(state: GameState, ruleset: Ruleset, side: str, zone: str, radius: int = 2) -> bool:
    """No enemy warship within `radius` sea steps of `zone`."""
    graph = graph_of(ruleset.board)
    return not any(ruleset.units[u].attack > 0 for where in graph.ball(zone, radius, lambda s: graph.sea_nbrs[s])
                   for u in units_at(state, ruleset, where, side, ours=False))
