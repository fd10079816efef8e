"""Movement allowances and routes: land and sea paths up to a unit's remaining movement, best air paths."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from aare.board.units import UnitType
from aare.identity_cache import Worked
from aare.movement import flags
from aare.movement.situation import Situation
from aare.state.unit_stacks import Stack

LONG_RANGE = "long_range_aircraft"
STOPPED = (flags.LANDED, flags.AMPHIBIOUS, flags.HOVER)
_STOPPED_VALUES = tuple(s + "=" for s in STOPPED)  # a flag with a value: "amphibious=<sea zone>"


def allowance(view: Situation, unit: UnitType, owner: str | None = None) -> int:
    """Movement points per turn of `owner`'s (default: the mover's) `unit`: the printed value, +2 for aircraft
    with Long-Range Aircraft (LHTR-TECH-long-range-aircraft), then any rule module's "movement" effects."""
    owner = owner or view.power
    key = ("allowance", unit.id, owner)
    if key not in view.cache:
        techs = view.techs if owner == view.power else frozenset(view.state.techs.get(owner, ()))
        base = unit.move + (2 if unit.domain == "air" and LONG_RANGE in techs else 0)
        view.cache[key] = view.ruleset.value("movement", unit.id, base, unit.rule, power=owner,
                                             state=view.state).value
    result: int = view.cache[key]
    return result


def remaining(view: Situation, stack: Stack, space: str | None = None) -> int:
    """Movement points `stack` (standing in `space`, when known) has left this turn; units put ashore have none
    (LHTR-TRANSPORT-offloaded-units-stop). Rule modules may change it (the ``movement_left`` hook)."""
    key = ("remaining", stack, space)
    known: int | None = view.cache.get(key)
    if known is not None:
        return known
    if any(f in STOPPED or f.startswith(_STOPPED_VALUES) for f in stack.flags):
        found = 0
    else:
        left = max(0, allowance(view, view.unit(stack), stack.owner) - stack.moved)
        found = view.ruleset.modify("movement_left", left, view=view, stack=stack, space=space)
    view.cache[key] = found
    return found


def simple_paths(start: str, steps: int, nbrs: dict[str, tuple[str, ...]]) -> Iterator[tuple[str, ...]]:
    """Every path of 1..`steps` moves from `start` that visits no space twice, shortest first."""
    layer: list[tuple[str, ...]] = [(start,)]
    for _ in range(steps):
        layer = [(*p, n) for p in layer for n in nbrs[p[-1]] if n not in p]
        yield from layer


def air_routes(view: Situation, start: str, steps: int, avoid_aa: bool) -> dict[str, tuple[str, ...]]:
    """The best air path to every space within `steps`: fewest moves, then (in combat move) fewest
    enemy AA guns flown over. Worked out once per board, start, steps, spaces closed to aircraft and (avoiding
    them) spaces with fire at aircraft flying over: the caller must not change the mapping."""
    aa = view.cache.get("flyover_spaces")
    if aa is None:
        aa = view.cache["flyover_spaces"] = frozenset(view.flyover_aa)
    key = (view.graph, start, steps, view.air_closed, aa if avoid_aa else None)
    return _ROUTES.find(key, lambda: _air_routes(view, start, steps, avoid_aa))


_ROUTES: Worked[tuple[object, ...], dict[str, tuple[str, ...]]] = Worked(20_000)


def _air_routes(view: Situation, start: str, steps: int, avoid_aa: bool) -> dict[str, tuple[str, ...]]:
    best: dict[str, tuple[int, int, str | None]] = {start: (0, 0, None)}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        dist, aa, _ = best[here]
        if dist == steps:
            continue
        over = aa + (1 if avoid_aa and here != start and here in view.flyover_aa else 0)
        for nxt in view.air_nbrs(here):
            seen = best.get(nxt)
            if seen is None:
                best[nxt] = (dist + 1, over, here)
                queue.append(nxt)
            elif seen[0] == dist + 1 and over < seen[1]:
                best[nxt] = (dist + 1, over, here)
    routes: dict[str, tuple[str, ...]] = {}
    for space in best:
        if space == start:
            continue
        path = [space]
        parent = best[space][2]
        while parent is not None:
            path.append(parent)
            parent = best[parent][2]
        routes[space] = tuple(reversed(path))
    return routes


def flown_over(view: Situation, path: tuple[str, ...]) -> tuple[str, ...]:
    """Spaces whose enemy fire meets aircraft that `path` passes over without ending there: land territories
    with an enemy AA gun (LHTR-AA-flyover) and what rule modules add (`Situation.flyover_aa`)."""
    return tuple(s for s in path[1:-1] if s in view.flyover_aa)


def blitzed(view: Situation, path: tuple[str, ...]) -> tuple[str, ...]:
    """Enemy territories a land path passes through (only an armour blitz may)."""
    return tuple(s for s in path[1:-1] if view.enemy_land(s))


def sea_reach(view: Situation, start: str, steps: int, end_hostile: bool) -> frozenset[str]:
    """Sea zones a ship can reach in `steps`, never through a zone whose enemy ships block it, through a canal
    only when open; such zones count as ends only if `end_hostile`. A sealed zone (`Situation.sealed_seas`) is
    never entered, and a ship in one goes nowhere. Worked out once per board, start, steps, blocking and sealed
    zones and open canals."""
    opened = view.cache.get("canals_open")
    if opened is None:
        opened = view.cache["canals_open"] = tuple(view.canal_open(c) for c in view.board.canals)
    key = (view.graph, start, steps, end_hostile, view.blocking_seas, view.sealed_seas, opened)
    return _SEA_REACH.find(key, lambda: _sea_reach(view, start, steps, end_hostile))


_SEA_REACH: Worked[tuple[object, ...], frozenset[str]] = Worked(20_000)


def _sea_reach(view: Situation, start: str, steps: int, end_hostile: bool) -> frozenset[str]:
    graph = view.graph
    seen = {start}
    if start in view.sealed_seas:
        return frozenset(seen)
    seen |= view.sealed_seas  # never entered (taken out again below)
    frontier = _joined(view, [start], seen, start, end_hostile)
    for _ in range(steps):
        nxt_frontier = []
        for here in frontier:
            if here != start and view.blocks(here):
                continue
            for nxt in graph.sea_nbrs[here]:
                canal = graph.canal(here, nxt)
                if nxt in seen or (canal is not None and canal.bars(here, nxt) and not view.canal_open(canal)):
                    continue
                if view.blocks(nxt) and not end_hostile:
                    continue
                seen.add(nxt)
                nxt_frontier.append(nxt)
        frontier = _joined(view, nxt_frontier, seen, start, end_hostile)
    return frozenset(seen - view.sealed_seas)


def _joined(view: Situation, zones: list[str], seen: set[str], start: str, end_hostile: bool) -> list[str]:
    """`zones` with the sea zones that open joining canals make one with them (`Canal.joins`), added to `seen`."""
    out = list(zones)
    for here in out:
        if here != start and view.blocks(here):
            continue
        for nxt in view.graph.sea_nbrs[here]:
            canal = view.graph.canal(here, nxt)
            if canal is None or not canal.joins or nxt in seen or not view.canal_open(canal):
                continue
            if view.blocks(nxt) and not end_hostile:
                continue
            seen.add(nxt)
            out.append(nxt)
    return out
