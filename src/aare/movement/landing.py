"""Where aircraft can land: territories held since the turn began, friendly carriers (present, able to
come, or bought this turn for hovering fighters). Carrier room is counted per move, not across moves."""

from __future__ import annotations

from aare.board.units import UnitType
from aare.identity_cache import Worked
from aare.movement import flags
from aare.movement.pathing import remaining, sea_reach
from aare.movement.situation import Situation

CarrierGroup = tuple[str, frozenset[str], int]  # carriers' sea zone, where they can be, free fighter slots


def land_spots(view: Situation) -> frozenset[str]:
    """Land territories where aircraft may end the turn (LHTR-AIRMOVE-land-friendly-since-start)."""
    return _land_tables(view)[0]


def land_distance(view: Situation) -> dict[str, int]:
    """Air distance from every space to the nearest land spot."""
    return _land_tables(view)[1]


def _land_tables(view: Situation) -> tuple[frozenset[str], dict[str, int]]:
    """The land spots and the distances to them, kept per situation, and from one state to the next while what
    they are made of is the same: the owners now and when the turn began (the same mappings), the ruleset, the
    mover's side and the spaces closed to aircraft (between two moves only the units change)."""
    if "land_tables" in view.cache:
        known: tuple[frozenset[str], dict[str, int]] = view.cache["land_tables"]
        return known
    made_of = (view.state.owners, view.start_owners, view.ruleset, view.side, view.air_closed)
    kept = view.graph.derived.get("land_tables")
    if isinstance(kept, tuple) and all(a is b or a == b for a, b in zip(kept[0], made_of, strict=True)):
        found: tuple[frozenset[str], dict[str, int]] = kept[1]
    else:
        spots = frozenset(t for t in view.graph.land if view.held_since_start(t))
        found = (spots, view.graph.distances_from(spots, view.air_nbrs))
        view.graph.derived["land_tables"] = (made_of, found)
    view.cache["land_tables"] = found
    return found


def carrier_groups(view: Situation, combat: bool) -> list[CarrierGroup]:
    """Free carrier slots per sea zone of friendly carriers, with where they can be when aircraft land:
    the zone itself, or wherever the mover's carriers that may still move can reach
    (LHTR-AIRMOVE-carrier-pickup-ncm)."""
    key = ("carriers", combat)
    if key in view.cache:
        cached: list[CarrierGroup] = view.cache[key]
        return cached
    groups: list[CarrierGroup] = []
    for space in view.graph.sea:
        stacks = view.stacks(space)
        room = sum(view.unit(s).carrier_capacity * s.count for s in stacks if view.friend(s.owner))
        if not room:
            continue
        used = sum(view.unit(s).carrier_size * s.count for s in stacks if view.friend(s.owner))
        reach = {space}
        for stack in stacks:
            unit = view.unit(stack)
            if stack.owner != view.power or not unit.carrier_capacity or flags.has(stack, flags.COMBAT):
                continue
            left = remaining(view, stack)
            if left:
                reach |= sea_reach(view, space, left, end_hostile=combat)
        groups.append((space, frozenset(reach), room - used))
    view.cache[key] = groups
    return groups


def hover_spots(view: Situation) -> tuple[frozenset[str], int]:
    """Sea zones where fighters may wait for a carrier bought this turn, and the room those carriers bring
    (LHTR-MOBILIZE-hover-for-new-carrier): friendly zones next to a complex the power has held since the turn
    began."""
    if "hover" in view.cache:
        cached: tuple[frozenset[str], int] = view.cache["hover"]
        return cached
    bought = sum(n * view.unit(u).carrier_capacity for u, n in view.purchased().items() if u in view.units)
    spots: set[str] = set()
    if bought:
        for territory in view.graph.land:
            if view.state.owners.get(territory) != view.power or view.start_owners.get(territory) != view.power:
                continue
            if any(s.owner == view.power and view.unit(s).has("factory") for s in view.stacks(territory)):
                spots.update(z for z in view.graph.sea_nbrs[territory] if not view.hostile(z))
    view.cache["hover"] = (frozenset(spots), bought)
    return view.cache["hover"]  # type: ignore[no-any-return]


def can_land(
    view: Situation, unit: UnitType, where: str, left: int, count: int, combat: bool, origin: str = ""
) -> bool:
    """Whether `count` aircraft of `unit` at `where` with `left` movement can reach a landing spot; they
    leave `origin`, freeing the carrier room they used there."""
    if land_distance(view).get(where, left + 1) <= left:
        return True
    if not unit.carrier_size:
        return False
    near = _AIR_BALLS.find((view.graph, where, left, view.air_closed),
                           lambda: frozenset(view.graph.ball(where, left, view.air_nbrs)))
    need = unit.carrier_size * count
    room = 0
    for space, reach, free in carrier_groups(view, combat):
        if not reach.isdisjoint(near):
            room += max(0, free + (need if space == origin else 0))
    spots, bought = hover_spots(view)
    if not spots.isdisjoint(near):
        room += bought
    return room >= need


_AIR_BALLS: Worked[tuple[object, ...], frozenset[str]] = Worked(20_000)
"""The spaces within a flight of a space, per board, space, movement left and spaces closed to aircraft."""


def carrier_lost_spots(view: Situation, sea: str) -> tuple[str, ...]:
    """Where fighters of `view.power` that survive the sinking of their carrier in `sea` may go: one space,
    to a territory their side has held since the turn began or to a friendly carrier with room in an adjacent
    sea zone (LHTR-AIRMOVE-defending-carrier-lost)."""
    spots = [t for t in view.graph.land_nbrs[sea] if view.held_since_start(t)]
    for zone in view.graph.sea_nbrs[sea]:
        stacks = view.stacks(zone)
        room = sum(view.unit(s).carrier_capacity * s.count for s in stacks if view.friend(s.owner))
        used = sum(view.unit(s).carrier_size * s.count for s in stacks if view.friend(s.owner))
        if room > used:
            spots.append(zone)
    return tuple(sorted(spots))
