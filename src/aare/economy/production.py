"""Production: which complexes may mobilise this turn, how many units each takes, carrier room at sea.

A complex produces when its owner has held the territory since the start of the turn and the complex
was not placed this turn (new complexes carry the flag `turn:new`). Capacity is the territory's IPC value
(`production` effects may change it) less the damage points on the complex (`economy.complex_damage`).
Units placed in a sea zone count against any one adjacent producing complex; `fits` checks that some such
assignment exists.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from aare.economy.complex_damage import complex_damage, damage_rules
from aare.economy.turn import held_since_turn_start
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

NEW = "turn:new"
HOVER = "turn:hover"


def has_complex(state: GameState, ruleset: Ruleset, space: str, owner: str | None = None) -> bool:
    """Whether an industrial complex (of `owner`, or anyone's) stands in `space`."""
    units = ruleset.units
    return any(
        units[s.unit].has("factory") and (owner is None or s.owner == owner) for s in state.stacks(space)
    )


def producers(state: GameState, ruleset: Ruleset, power: str) -> dict[str, int]:
    """Territory -> production capacity, for each complex `power` may mobilise at this turn."""
    units = ruleset.units
    out: dict[str, int] = {}
    for space, stacks in state.units.items():
        if state.owners.get(space) != power:
            continue
        if not any(units[s.unit].has("factory") and s.owner == power and NEW not in s.flags for s in stacks):
            continue
        if not held_since_turn_start(state, power, space):
            continue
        out[space] = capacity(state, ruleset, power, space)
    return out


def capacity(state: GameState, ruleset: Ruleset, power: str, space: str) -> int:
    """The units the complex in `space` may mobilise this turn: the territory's IPC value as `production`
    effects change it, less the damage points on the complex (unless they are income losses), never below 0."""
    ipc = ruleset.board.spaces[space].ipc
    cap = ruleset.value("production", space, ipc, "LHTR-MOBILIZE-capacity-ipc-value", power=power, state=state,
                        territory=space)
    rules = damage_rules(ruleset, state)
    damage = 0 if rules.income_loss else complex_damage(state, ruleset, space)
    return max(0, cap.value - damage)


def sea_producers(ruleset: Ruleset, producing: Iterable[str], sea: str) -> list[str]:
    """The producing complexes adjacent to sea zone `sea`."""
    neighbours = ruleset.board.spaces[sea].neighbors
    return [p for p in producing if p in neighbours]


def fits(ruleset: Ruleset, capacity: Mapping[str, int], placed: Mapping[str, int]) -> bool:
    """Whether `placed` (space -> units counting against capacity) fits the complexes' capacities: land
    placements use their own complex, sea placements any adjacent one."""
    spaces = ruleset.board.spaces
    left = dict(capacity)
    demand: dict[str, int] = {}
    for space, n in placed.items():
        if n <= 0:
            continue
        if spaces[space].is_land:
            if left.get(space, 0) < n:
                return False
            left[space] -= n
        else:
            demand[space] = n
    edges = {sea: sea_producers(ruleset, capacity, sea) for sea in demand}
    assigned: dict[tuple[str, str], int] = {}

    def augment(sea: str, seen: set[str]) -> bool:
        for p in edges[sea]:
            if p in seen:
                continue
            seen.add(p)
            if left[p] > 0:
                left[p] -= 1
                assigned[sea, p] = assigned.get((sea, p), 0) + 1
                return True
            for (other, q), n in list(assigned.items()):
                if q == p and n > 0 and other != sea and augment(other, seen):
                    assigned[other, p] -= 1
                    assigned[sea, p] = assigned.get((sea, p), 0) + 1
                    return True
        return False

    return all(augment(sea, set()) for sea, n in demand.items() for _ in range(n))


def carrier_room(
    state: GameState, ruleset: Ruleset, sea: str, power: str, extra: Iterable[Stack] = (), hovering: bool = True
) -> int:
    """Free fighter slots on `power`'s own carriers in `sea` (with `extra` stacks added). Allied aircraft
    use allied carriers first; `hovering=False` leaves fighters waiting for a new carrier out of the count."""
    units, board = ruleset.units, ruleset.board
    side = board.side_of(power)
    own_room = own_air = ally_room = ally_air = 0
    for s in (*state.stacks(sea), *extra):
        unit = units[s.unit]
        if s.owner == power:
            own_room += unit.carrier_capacity * s.count
            if unit.domain == "air" and (hovering or HOVER not in s.flags):
                own_air += unit.carrier_size * s.count
        elif board.side_of(s.owner) == side:
            ally_room += unit.carrier_capacity * s.count
            if unit.domain == "air":
                ally_air += unit.carrier_size * s.count
    return own_room - own_air - max(0, ally_air - ally_room)


def total_capacity(state: GameState, ruleset: Ruleset, power: str) -> int:
    """All the units `power` could mobilise this turn (for bots sizing a purchase)."""
    return sum(producers(state, ruleset, power).values())


def coastal(ruleset: Ruleset, producing: Iterable[str]) -> bool:
    """Whether any of the complexes can build ships (borders a sea zone)."""
    spaces = ruleset.board.spaces
    return any(spaces[n].is_sea for p in producing for n in spaces[p].neighbors)
