"""Reading the board for the bot: units by side, the enemy's reach, territory and strategic values."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from aare.board.units import UnitType
from aare.economy.summary import income
from aare.movement.graph import Graph, graph_of
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

Units = dict[str, int]


def units_at(state: GameState, ruleset: Ruleset, space: str, side: str, ours: bool) -> Units:
    """The fighting units (buildings left out) at `space` on `side` (`ours`) or against it."""
    board = ruleset.board
    found: Units = {}
    for stack in state.units.get(space, ()):
        if (board.side_of(stack.owner) == side) != ours or ruleset.units[stack.unit].domain == "building":
            continue
        found[stack.unit] = found.get(stack.unit, 0) + stack.count
    return found


def add(total: Units, more: Mapping[str, int]) -> Units:
    """`total` with `more` added (in place; returned)."""
    for unit, n in more.items():
        total[unit] = total.get(unit, 0) + n
    return total


def friendly(state: GameState, ruleset: Ruleset, side: str, space: str) -> bool:
    owner = state.owners.get(space)
    return owner is not None and ruleset.board.side_of(owner) == side


def enemy_land(state: GameState, ruleset: Ruleset, side: str) -> list[str]:
    """The land territories held by the other side."""
    graph = graph_of(ruleset.board)
    return sorted(t for t, o in state.owners.items() if t in graph.land and ruleset.board.side_of(o) != side)


def _enemy_near(state: GameState, ruleset: Ruleset, side: str, space: str,
                near: Callable[[UnitType, str, int], bool]) -> Units:
    """The enemy's attacking units within 5 air steps of `space` (itself left out) that `near(kind, where, air
    distance)` accepts."""
    graph = graph_of(ruleset.board)
    found: Units = {}
    air = graph.ball(space, 5)
    for where in air:
        if where == space:
            continue
        for unit, n in units_at(state, ruleset, where, side, ours=False).items():
            kind = ruleset.units[unit]
            if kind.attack > 0 and near(kind, where, air[where]):
                found[unit] = found.get(unit, 0) + n
    return found


def threat(state: GameState, ruleset: Ruleset, side: str, space: str) -> Units:
    """What the enemy could bring against `space` next turn: land units within two land steps and aircraft
    that can reach it with a step to spare (at most 5 steps away)."""
    graph = graph_of(ruleset.board)
    land = graph.ball(space, 2, lambda s: graph.land_nbrs[s])
    return _enemy_near(state, ruleset, side, space, lambda kind, where, dist: (
        where in land if kind.domain == "land" else kind.domain == "air" and dist < kind.move))


def sea_threat(state: GameState, ruleset: Ruleset, side: str, zone: str) -> Units:
    """What the enemy could bring against the sea zone `zone` next turn: warships within their move in sea steps
    and aircraft that can reach it with a step to spare."""
    graph = graph_of(ruleset.board)
    by_sea = graph.ball(zone, 3, lambda s: graph.sea_nbrs[s])
    return _enemy_near(state, ruleset, side, zone, lambda kind, where, dist: (
        by_sea.get(where, 99) <= kind.move if kind.domain == "sea" else kind.domain == "air" and dist < kind.move))


def has_factory(state: GameState, ruleset: Ruleset, space: str) -> bool:
    return any(ruleset.units[s.unit].has("factory") for s in state.units.get(space, ()))


def landmasses(graph: Graph) -> dict[str, int]:
    """Land territory -> the number of land territories of its land-connected landmass."""
    size: dict[str, int] = {}
    for start in sorted(graph.land):
        if start in size:
            continue
        mass = graph.distances_from([start], lambda s: graph.land_nbrs[s])
        for t in mass:
            size[t] = len(mass)
    return size


def strategic_values(state: GameState, ruleset: Ruleset, side: str) -> dict[str, float]:
    """Land value: for each enemy capital and complex, `sqrt(factory production + sqrt(player production)) x 32
    x landmass / max landmass`, decaying as `2^-distance` (land steps). Sea zones (the intended valuation, not
    the original's zero): half the best value of the land they touch plus `2^-distance` times the value of the
    enemy units that distance away by sea."""
    board = ruleset.board
    graph = graph_of(board)
    mass = landmasses(graph)
    biggest = max(mass.values(), default=1)
    production = {p.name: income(state, ruleset, p.name) for p in board.powers if board.side_of(p.name) != side}
    capitals = set(board.capitals().values())
    values: dict[str, float] = {}
    for target in enemy_land(state, ruleset, side):
        if target not in capitals and not has_factory(state, ruleset, target):
            continue
        owner = state.owners[target]
        base = math.sqrt(board.spaces[target].ipc + math.sqrt(max(0, production.get(owner, 0))))
        base *= 32 * mass.get(target, 1) / biggest
        for space, dist in graph.distances_from([target], lambda s: graph.land_nbrs[s]).items():
            values[space] = values.get(space, 0.0) + base * 2.0**-dist
    for target in enemy_land(state, ruleset, side):  # every enemy territory is worth a little
        values[target] = values.get(target, 0.0) + board.spaces[target].ipc
    for sea in sorted(graph.sea):
        near = max((values.get(t, 0.0) for t in graph.coast[sea]), default=0.0) / 2
        ships = 0.0
        for where, dist in graph.ball(sea, 3, lambda s: graph.sea_nbrs[s]).items():
            enemy = units_at(state, ruleset, where, side, ours=False)
            ships += sum(ruleset.units[u].cost * n for u, n in enemy.items()) * 2.0**-dist
        values[sea] = near + ships
    return values


def cheapest(units: Iterable[str], ruleset: Ruleset) -> list[str]:
    """`units` cheapest first."""
    return sorted(units, key=lambda u: (ruleset.units[u].cost, u))


def value_of(units: Mapping[str, int], ruleset: Ruleset) -> int:
    return sum(ruleset.units[u].cost * n for u, n in units.items())


def power_of(game: Any) -> str:
    """The power the bot answers for in `game` (an `Acting` game's power, else the first to act)."""
    power = getattr(game, "power", None)
    return str(power) if power else next(iter(game.to_act()), game.state.nation)
