"""Combat move: value the enemy territories in reach, attack them in value order at the `min_win` bar."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from aare.actions import Load, Move
from aare.ai.amphibious import Lift, Sealift, scratch, transport_kinds, verified
from aare.ai.prolike.odds import Judge, estimate, strength
from aare.ai.prolike.reading import Units, add, friendly, has_factory, sea_threat, threat, units_at
from aare.board.notation import format_units
from aare.movement.graph import graph_of
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

Reach = Mapping[tuple[str, str], Mapping[str, list[str]]]
Option = tuple[str, str, list[str]]  # unit, from, path


def capital_superiority(state: GameState, ruleset: Ruleset, me: str, radius: int = 3) -> bool:
    """Whether `me`'s side has local land superiority around its capital: the defence strength of its land units
    within `radius` land steps at least the attack strength of the enemy's there (no capital: true)."""
    capital = ruleset.board.capital_of(me)
    if capital is None or state.owners.get(capital) != me:
        return True
    graph = graph_of(ruleset.board)
    side = ruleset.board.side_of(me)
    ours: Units = {}
    theirs: Units = {}
    for space in graph.ball(capital, radius, lambda s: graph.land_nbrs[s]):
        for unit, n in units_at(state, ruleset, space, side, ours=True).items():
            if ruleset.units[unit].domain == "land":
                ours[unit] = ours.get(unit, 0) + n
        for unit, n in units_at(state, ruleset, space, side, ours=False).items():
            if ruleset.units[unit].domain == "land":
                theirs[unit] = theirs.get(unit, 0) + n
    return strength(ours, ruleset, False) >= strength(theirs, ruleset, True)


def prioritised(state: GameState, ruleset: Ruleset, me: str) -> list[str]:
    """`me`'s capital, complexes and victory cities, the capital first, then by production."""
    capital = ruleset.board.capital_of(me)
    cities = ruleset.victory_cities()
    graph = graph_of(ruleset.board)
    return sorted((t for t, o in state.owners.items() if o == me and t in graph.land
                   and (t == capital or has_factory(state, ruleset, t) or t in cities)),
                  key=lambda t: (t != capital, -ruleset.board.spaces[t].ipc, t))


def spare_units(judge: Judge, state: GameState, ruleset: Ruleset, me: str, starts: set[str],
                hold_at: float) -> dict[str, Units]:
    """`me`'s units free to attack, by space. The defensive stance: a prioritised territory under threat keeps
    the land units it needs to hold with `hold_at` (best defence per cost first; all of them if that is not
    enough), and the capital keeps all its land units when it lacks local land superiority."""
    units = ruleset.units
    side = ruleset.board.side_of(me)
    capital = ruleset.board.capital_of(me)
    spare: dict[str, Units] = {}
    for start in starts | set(prioritised(state, ruleset, me)):
        spare[start] = {}
        for stack in state.units.get(start, ()):
            if stack.owner == me:
                spare[start][stack.unit] = spare[start].get(stack.unit, 0) + stack.count
    stance = not capital_superiority(state, ruleset, me)
    for space in prioritised(state, ruleset, me):
        danger = threat(state, ruleset, side, space)
        if not danger:
            continue
        guard = {u: n for u, n in units_at(state, ruleset, space, side, ours=True).items() if units[u].domain != "land"}
        for unit in sorted((u for u in spare[space] if units[u].domain == "land"),
                           key=lambda u: (-units[u].defense / max(1, units[u].cost), u)):
            while spare[space][unit] > 0 and (
                    (stance and space == capital) or judge.hold(guard, danger, ruleset) < hold_at):
                spare[space][unit] -= 1
                guard[unit] = guard.get(unit, 0) + 1
    return spare


def target_value(state: GameState, ruleset: Ruleset, me: str, target: str, swing: float, can_hold: bool,
                 amphibious: bool = False) -> float:
    """`(tuv_swing + territory_value) x (1 + 4 capital) x (1 + 2 next to my capital) x (1 - 0.9 neutral)`, with
    `territory_value = (1 + land + can_hold) x (1 + empty land) x (1 + factory) x (1 - 0.5 amphibious) x
    production`."""
    board = ruleset.board
    space = board.spaces[target]
    side = board.side_of(me)
    land = space.is_land
    empty = land and not units_at(state, ruleset, target, side, ours=False)
    worth = ((1 + land + can_hold) * (1 + empty) * (1 + has_factory(state, ruleset, target))
             * (1 - 0.5 * amphibious) * space.ipc)
    capital = board.capital_of(me)
    is_capital = target in board.capitals().values()
    beside = capital is not None and capital in space.neighbors
    return (swing + worth) * (1 + 4 * is_capital) * (1 + 2 * beside) * (1 - 0.9 * space.neutral)


def options_for(target: str, reach: Reach, spare: Mapping[str, Units]) -> list[Option]:
    """Every unit that can reach `target` (one entry per unit)."""
    found: list[Option] = []
    for (unit, start), dests in sorted(reach.items()):
        if target in dests:
            found += [(unit, start, list(dests[target]))] * spare.get(start, {}).get(unit, 0)
    return found


def count(options: list[Option]) -> Units:
    found: Units = {}
    for unit, _, _ in options:
        found[unit] = found.get(unit, 0) + 1
    return found


class Lifts:
    """The amphibious side of the combat move: the transports still free (`boats`), the land units that may
    board them (counted against `spare`), and the lifts committed so far (checked together on a copy of the
    game)."""

    def __init__(self, sealift: Sealift | None, spare: dict[str, Units],
                 exposed: Callable[[str, int], bool] | None = None) -> None:
        self.sealift = sealift
        self.spare = spare
        self.boats = dict(sealift.boats) if sealift else {}
        self.routes = sealift.routes() if sealift else []
        self.committed: list[Lift] = []
        self.exposed = exposed

    def available(self, zone: str) -> dict[tuple[str, str], int]:
        loads = self.sealift.loads.get(zone, {}) if self.sealift else {}
        return {k: min(n, self.spare.get(k[1], {}).get(k[0], 0)) for k, n in loads.items()}

    def to(self, target: str, ruleset: Ruleset, cheap: bool = False,
           besides: Iterable[Option] = ()) -> list[Lift]:
        """Lifts that could carry units into `target` now, one per free transport, each filled from what is
        left besides the units of `besides` (strongest attack per cost first; `cheap`: one cheapest unit).
        Nothing is reserved."""
        if self.sealift is None:
            return []
        units = ruleset.units
        boats = dict(self.boats)
        taken: dict[tuple[str, str], int] = {}
        for unit, start, _ in besides:
            taken[unit, start] = taken.get((unit, start), 0) + 1
        found: list[Lift] = []
        for route in sorted((r for r in self.routes if r.target == target),
                            key=lambda r: (len(r.path), r.start, r.path)):
            key = (route.start, route.aboard)
            if boats.get(key, 0) <= 0:
                continue
            there = sum(1 for lift in [*self.committed, *found] if lift.path[-1] == route.path[-1])
            if self.exposed is not None and self.exposed(route.path[-1], there + 1):
                continue
            pool = {k: max(0, n - taken.get(k, 0)) for k, n in self.available(route.start).items()}
            if cheap:
                best = min((k for k, n in pool.items() if n > 0), key=lambda k: (units[k[0]].cost, k), default=None)
                pool = {best: 1} if best else {}
            lift = self.sealift.lift(route, pool, lambda u: (-(units[u].attack + 1) / max(1, units[u].cost), u))
            if lift is None:
                continue
            boats[key] -= 1
            for unit, where in lift.cargo:
                if where != route.start:
                    taken[unit, where] = taken.get((unit, where), 0) + 1
            found.append(lift)
        return found

    def commit(self, lifts: list[Lift]) -> bool:
        """Reserve `lifts` (their transports and cargo) if the engine accepts them after those committed."""
        if self.sealift is None or not lifts:
            return not lifts
        if not verified(scratch(self.sealift.game), [*self.committed, *lifts]):
            return False
        for lift in lifts:
            route_key = next(k for k in self.boats if k[0] == lift.start
                             and tuple(sorted(u for u, w in lift.cargo if w == lift.start)) == k[1])
            self.boats[route_key] -= 1
            for unit, where in lift.cargo:
                if where != lift.start:
                    self.spare[where][unit] -= 1
        self.committed += lifts
        return True


def lift_units(lifts: list[Lift]) -> Units:
    found: Units = {}
    for lift in lifts:
        add(found, lift.units())
    return found


def plan(judge: Judge, reach: Reach, state: GameState, ruleset: Ruleset, me: str, min_win: float,
         hold_at: float, sealift: Sealift | None = None) -> list[Move | Load]:
    """The combat moves: targets valued with all that can reach them (overland, by air and by sea), then taken
    in value order, each with the fewest units (land first, best attack per cost first, then the lifts, then the
    rest) that reach `min_win`; an empty territory with its cheapest land unit. A target is dropped if even all
    that can reach it fall short, if no land unit can take it, or if it cannot be held next turn and the battle
    does not pay in unit value."""
    board, units = ruleset.board, ruleset.units
    side = board.side_of(me)
    loading = {t for zone in (sealift.loads if sealift else {}).values() for _, t in zone}
    spare = spare_units(judge, state, ruleset, me, {start for _, start in reach} | loading, hold_at)
    exposure: dict[tuple[str, int], bool] = {}

    def exposed(zone: str, boats: int) -> bool:
        """Whether `boats` transports left in `zone` (with the side's warships there) would be sunk: the enemy's
        possible attack next turn wins with `min_win`."""
        if (zone, boats) not in exposure:
            danger = sea_threat(state, ruleset, side, zone)
            kind = min(transport_kinds(ruleset))
            guard = add(units_at(state, ruleset, zone, side, ours=True), {kind: boats})
            exposure[zone, boats] = bool(danger) and judge.attack(danger, guard, ruleset, "sea").win >= min_win
        return exposure[zone, boats]

    lifts = Lifts(sealift, spare, exposed)
    targets = sorted({d for dests in reach.values() for d in dests
                      if board.spaces[d].is_land and state.owners.get(d) is not None
                      and not friendly(state, ruleset, side, d)} | {r.target for r in lifts.routes})
    valued: list[tuple[float, str]] = []
    for target in targets:
        everything = options_for(target, reach, spare)
        overland = any(units[u].domain == "land" for u, _, _ in everything)
        by_sea = lift_units(lifts.to(target, ruleset, besides=[o for o in everything if units[o[0]].domain == "land"]))
        if not overland and not by_sea:
            continue
        defenders = units_at(state, ruleset, target, side, ours=False)
        verdict = judge.attack(add(count(everything), by_sea), defenders, ruleset)
        if verdict.win < min_win:
            continue
        landers = add({u: n for u, n in count(everything).items() if units[u].domain == "land"}, by_sea)
        can_hold = judge.hold(landers, threat(state, ruleset, side, target), ruleset) >= min_win
        if not can_hold and verdict.swing <= 0 and defenders:
            continue
        valued.append((target_value(state, ruleset, me, target, verdict.swing, can_hold, not overland), target))
    moves: list[Move | Load] = []
    for value, target in sorted(valued, key=lambda v: (-v[0], v[1])):
        if value <= 0:
            continue
        chosen, sea = attackers(judge, target, reach, spare, state, ruleset, me, min_win, lifts)
        if sea and not lifts.commit(sea):
            continue
        for unit, start, path in chosen:
            spare[start][unit] -= 1
            moves.append(Move(units=format_units({unit: 1}, units), path=path))
        for lift in sea:
            moves += lift.actions
    return moves


def attackers(judge: Judge, target: str, reach: Reach, spare: Mapping[str, Units], state: GameState,
              ruleset: Ruleset, me: str, min_win: float, lifts: Lifts | None = None) -> tuple[list[Option], list[Lift]]:
    """The fewest units that take `target` with at least `min_win`: land units by attack efficiency, then the
    lifts that reach it by sea, then air and the rest; none if all of them fall short or none is a land unit."""
    units = ruleset.units
    side = ruleset.board.side_of(me)
    pool = options_for(target, reach, spare)
    pool.sort(key=lambda o: (units[o[0]].domain != "land", -(units[o[0]].attack + 1) / max(1, units[o[0]].cost),
                             len(o[2]), o[1], o[0]))
    land = [o for o in pool if units[o[0]].domain == "land"]
    defenders = units_at(state, ruleset, target, side, ours=False)
    if not defenders:
        if land:
            return [min(land, key=lambda o: (units[o[0]].cost, len(o[2]), o[1], o[0]))], []
        return [], (lifts.to(target, ruleset, cheap=True)[:1] if lifts else [])
    by_sea = lifts.to(target, ruleset, besides=land) if lifts else []
    if not land and not by_sea:
        return [], []
    pieces: list[Option | Lift] = [*land, *by_sea, *(o for o in pool if units[o[0]].domain != "land")]
    chosen: list[Option | Lift] = []
    for piece in pieces:
        chosen.append(piece)
        singles = [p for p in chosen if not isinstance(p, Lift)]
        sea = [p for p in chosen if isinstance(p, Lift)]
        army = add(count(singles), lift_units(sea))
        if estimate(army, defenders, ruleset) < 45:
            continue
        if judge.attack(army, defenders, ruleset).win >= min_win:
            return singles, sea
    return [], []
