"""Sea lifts for the bots: which land units a power's transports can carry where this phase.

A **lift** is one transport's trip: the land units it takes on (from coastal territories next to the sea zone
where it stands, plus any already aboard), the sea path it moves along and the coastal territory it unloads into
(an enemy one in the combat move: an amphibious assault; a friendly one in the non-combat move: a ferry). It holds
the ordered actions (`Load`s, the transport's `Move`, the unloading `Move`) a bot plays as they are.

Nothing here is a heuristic of a bot, nor names a ruleset, power, territory or unit: capacities come from the
ruleset's unit data, and what may move where from the engine itself (`Game.legal_actions` for a sea zone gives
the transports' legal moves and the legal loads; `verified` plays lifts on a copy of the game through
`Game.apply`), so enemy fleets that block or stop a transport, hostile zones and the rules on loading and
unloading are judged as the engine judges them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from aare.actions import Load, Move
from aare.board.notation import format_units, parse_units
from aare.engine import Acting, Game
from aare.errors import AareError
from aare.game_log import GameLog
from aare.movement import flags
from aare.movement.graph import graph_of
from aare.rules.ruleset import Ruleset

Units = dict[str, int]


@dataclass(frozen=True)
class Route:
    """Where one transport can carry cargo: from `start` along `path` (`path[0] == start`; one space: it
    unloads where it stands) to unload into `target` (empty: the cargo stays aboard at the end of the path).
    `aboard`: the units it already carries."""

    start: str
    path: tuple[str, ...]
    target: str
    aboard: tuple[str, ...] = ()


@dataclass(frozen=True)
class Lift:
    """One transport's trip: `cargo` is (unit, where it boards: a territory, or the start zone when already
    aboard) per unit; `actions` are played in order."""

    start: str
    cargo: tuple[tuple[str, str], ...]
    path: tuple[str, ...]
    target: str
    actions: tuple[Load | Move, ...]

    def units(self) -> Units:
        """The units it puts ashore, by type."""
        found: Units = {}
        for unit, _ in self.cargo:
            found[unit] = found.get(unit, 0) + 1
        return found

    def boarding(self) -> Units:
        """How many of each (unit, territory) it takes on, as `"unit@territory"` keys."""
        found: Units = {}
        for unit, where in self.cargo:
            if where != self.start:
                found[f"{unit}@{where}"] = found.get(f"{unit}@{where}", 0) + 1
        return found


@dataclass
class Sealift:
    """The lookups of one phase for the power acting in `game`: its transports that can still act, the zones
    they can reach, the land units that can board them. `combat`: the combat move (targets are enemy coasts),
    else the non-combat move (friendly coasts)."""

    game: Game
    combat: bool
    boats: dict[tuple[str, tuple[str, ...]], int] = field(default_factory=dict)  # (zone, aboard) -> how many
    reach: dict[tuple[str, tuple[str, ...]], dict[str, tuple[str, ...]]] = field(default_factory=dict)
    loads: dict[str, dict[tuple[str, str], int]] = field(default_factory=dict)  # zone -> (unit, territory) -> n

    def __post_init__(self) -> None:
        game = self.game
        ruleset = game.ruleset
        state = game.state
        me = acting_power(game)
        kinds = transport_kinds(ruleset)
        zones = sorted(z for z, stacks in state.units.items()
                       if any(s.owner == me and s.unit in kinds for s in stacks))
        for zone in zones:
            legal = game.legal_actions(space=zone)
            ready: dict[tuple[str, ...], dict[str, tuple[str, ...]]] = {}
            for action in legal:
                if isinstance(action, Move) and action.path[0] == zone and not action.raid:
                    aboard = _aboard(action.units, ruleset, kinds)
                    if aboard is not None:
                        ready.setdefault(aboard, {}).setdefault(action.path[-1], tuple(action.path))
                elif isinstance(action, Load) and action.sea_zone == zone:
                    unit = next(iter(parse_units(action.units, ruleset.units)))
                    have = sum(s.count for s in state.units.get(action.territory, ())
                               if s.owner == me and s.unit == unit and s.moved == 0)
                    self.loads.setdefault(zone, {})[unit, action.territory] = have
            if self.combat and self.loads.get(zone):
                # an empty transport moves in the combat move only into a battle: its reach loaded is asked
                # of the engine with one unit aboard
                ready[()] = self._loaded_reach(zone, kinds)
            for stack in state.units.get(zone, ()):
                if stack.owner != me or stack.unit not in kinds or flags.value(stack, flags.UNLOADED):
                    continue
                aboard = tuple(sorted(u for _, u in flags.cargo(stack)))
                if aboard in ready or aboard or self.loads.get(zone):
                    key = (zone, aboard)
                    self.boats[key] = self.boats.get(key, 0) + stack.count
                    self.reach[key] = {zone: (zone,), **ready.get(aboard, {})}

    def _loaded_reach(self, zone: str, kinds: set[str]) -> dict[str, tuple[str, ...]]:
        """Where a transport in `zone` may move once a unit has boarded it (tried on a copy of the game)."""
        units = self.game.ruleset.units
        unit, territory = min(self.loads[zone], key=lambda k: (units[k[0]].transport_size, k))
        trial = scratch(self.game)
        try:
            trial.apply(Load(units=format_units({unit: 1}, units), territory=territory, sea_zone=zone))
        except AareError:
            return {}
        found: dict[str, tuple[str, ...]] = {}
        for action in trial.legal_actions(space=zone):
            if (isinstance(action, Move) and action.path[0] == zone and not action.raid
                    and _aboard(action.units, self.game.ruleset, kinds) == (unit,)):
                found.setdefault(action.path[-1], tuple(action.path))
        return found

    def routes(self, wanted: Callable[[str], bool] | None = None) -> list[Route]:
        """Every (transport group, path, target) trip this phase: the targets are the coastal territories of each
        zone it can reach that the phase allows unloading into (enemy land in the combat move, friendly land
        otherwise; `wanted` narrows them), from a zone holding no enemy unit."""
        game = self.game
        ruleset = game.ruleset
        state = game.state
        graph = graph_of(ruleset.board)
        side = ruleset.board.side_of(acting_power(game))
        found: list[Route] = []
        for (zone, aboard), dests in sorted(self.reach.items()):
            for dest, path in sorted(dests.items()):
                if any(ruleset.board.side_of(s.owner) != side for s in state.units.get(dest, ())):
                    continue
                for target in graph.coast[dest]:
                    owner = state.owners.get(target)
                    if owner is None or (ruleset.board.side_of(owner) != side) != self.combat:
                        continue
                    if (wanted is None or wanted(target)) and (aboard or self.loads.get(zone)):
                        found.append(Route(zone, path, target, aboard))
        return found

    def voyages(self) -> list[Route]:
        """Every (transport group, path) trip that ends at sea with the cargo aboard (a zone holding no enemy
        unit; the transport's own zone left out)."""
        game = self.game
        ruleset = game.ruleset
        side = ruleset.board.side_of(acting_power(game))
        return [Route(zone, path, "", aboard) for (zone, aboard), dests in sorted(self.reach.items())
                for dest, path in sorted(dests.items())
                if dest != zone and not any(ruleset.board.side_of(s.owner) != side
                                            for s in game.state.units.get(dest, ()))]

    def reachable(self) -> dict[str, set[str]]:
        """Transport group start zone -> the coastal territories its transports can unload into this phase."""
        found: dict[str, set[str]] = {}
        for route in self.routes():
            found.setdefault(route.start, set()).add(route.target)
        return found

    def lift(self, route: Route, available: Mapping[tuple[str, str], int] | None = None,
             prefer: Callable[[str], Any] | None = None) -> Lift | None:
        """One transport on `route`, its room filled from the land units that may board at its start zone
        (`available`: (unit, territory) -> how many may still go, default all), `prefer`red first (default:
        the largest first); None if it would carry nothing. The lift is not yet checked: see `verified`."""
        ruleset = self.game.ruleset
        units = ruleset.units
        kinds = transport_kinds(ruleset)
        zone = route.start
        me = acting_power(self.game)
        boat = next(s for s in self.game.state.units.get(zone, ()) if s.owner == me and s.unit in kinds)
        room = units[boat.unit].transport_capacity - sum(units[u].transport_size for u in route.aboard)
        cargo = [(u, zone) for u in route.aboard]
        pool = dict(self.loads.get(zone, {}) if available is None else available)
        order = sorted(pool, key=lambda k: (prefer(k[0]) if prefer else -units[k[0]].transport_size, k))
        boarding: list[tuple[str, str]] = []
        for key in order:
            size = units[key[0]].transport_size
            while pool[key] > 0 and 0 < size <= room:
                boarding.append(key)
                pool[key] -= 1
                room -= size
        if not cargo and not boarding:
            return None
        cargo += boarding
        by_territory: dict[str, Units] = {}
        for unit, territory in boarding:
            by_territory.setdefault(territory, {})[unit] = by_territory.setdefault(territory, {}).get(unit, 0) + 1
        # one Load per territory: the units of one action board one transport together
        actions: list[Load | Move] = [
            Load(units=format_units(found, units), territory=territory, sea_zone=zone)
            for territory, found in sorted(by_territory.items(),
                                           key=lambda kv: (-max(units[u].transport_size for u in kv[1]), kv[0]))]
        carried: Units = {}
        for unit, _ in cargo:
            carried[unit] = carried.get(unit, 0) + 1
        if len(route.path) > 1:
            actions.append(Move(units=format_units({boat.unit: 1, **carried}, units), path=list(route.path)))
        if route.target:
            actions.append(Move(units=format_units(carried, units), path=[route.path[-1], route.target]))
        return Lift(zone, tuple(cargo), route.path, route.target, tuple(actions))


def transport_kinds(ruleset: Ruleset) -> set[str]:
    """The sea units that carry land units (a transport capacity in the unit data)."""
    return {u.id for u in ruleset.units if u.domain == "sea" and u.transport_capacity > 0}


def acting_power(game: Game) -> str:
    """The power acting in `game` (an `Acting` game's power, else the first to act)."""
    if isinstance(game, Acting):
        return game.power
    return next(iter(game.to_act()), game.state.nation)


def _aboard(text: str, ruleset: Ruleset, kinds: set[str]) -> tuple[str, ...] | None:
    """For a move of one transport with its cargo, the cargo's units (sorted); None for any other move."""
    try:
        moved = parse_units(text, ruleset.units)
    except AareError:
        return None
    boats = {u: n for u, n in moved.items() if u in kinds}
    if sum(boats.values()) != 1 or any(ruleset.units[u].domain != "land" for u in moved if u not in kinds):
        return None
    return tuple(sorted(u for u, n in moved.items() if u not in kinds for _ in range(n)))


def scratch(game: Game) -> Game:
    """A copy of `game` to try actions on (no dice: moves roll none)."""
    log = GameLog(game.log.state)
    return Acting(log, None, game.power) if isinstance(game, Acting) else Game(log)


def verified(game: Game, lifts: Iterable[Lift]) -> bool:
    """Whether `game` accepts every action of `lifts`, in order (tried on `game` itself: use a `scratch`);
    on failure `game` is left where the first refused action stopped it."""
    try:
        for lift in lifts:
            for action in lift.actions:
                game.apply(action)
    except AareError:
        return False
    return True
