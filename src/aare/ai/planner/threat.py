"""The threat map: what the enemy can bring to each space on its next turn.

A land unit threatens every land territory within its move in land steps; an aircraft every space within half
its move (it must fly back to land), rounded up; a warship every sea zone within its move in sea steps (its own
included); an enemy transport threatens the coasts of every zone within its move with what it carries, or could
take on beside its zone (`amphibious`). Blocking and canals are left out (a first approximation)."""

from __future__ import annotations

from aare.movement import flags
from aare.movement.graph import graph_of
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

Units = dict[str, int]


def threat_map(state: GameState, ruleset: Ruleset, side: str) -> dict[str, Units]:
    """Space -> the attacking units of the powers not on `side` that can reach it next turn (land units and
    aircraft for a territory, warships and aircraft for a sea zone)."""
    board, units = ruleset.board, ruleset.units
    graph = graph_of(board)
    found: dict[str, Units] = {}
    for space, stacks in state.units.items():
        for stack in stacks:
            unit = units[stack.unit]
            if board.side_of(stack.owner) == side or unit.attack <= 0 or unit.move <= 0:
                continue
            if unit.domain == "land" and space in graph.land:
                reach = graph.ball(space, unit.move, lambda s: graph.land_nbrs[s])
            elif unit.domain == "air":
                reach = graph.ball(space, (unit.move + 1) // 2)
            elif unit.domain == "sea" and space not in graph.land:
                reach = {z: 0 for z in graph.ball(space, unit.move, lambda s: graph.sea_nbrs[s])
                         if z not in graph.land}
                reach[space] = 0
            else:
                continue
            for target in reach:
                if (target in graph.land) == (unit.domain != "sea") and (target != space or unit.domain == "sea"):
                    here = found.setdefault(target, {})
                    here[stack.unit] = here.get(stack.unit, 0) + stack.count
    for target, cargo in amphibious(state, ruleset, side).items():
        here = found.setdefault(target, {})
        for unit_id, n in cargo.items():
            here[unit_id] = here.get(unit_id, 0) + n
    return found


def amphibious(state: GameState, ruleset: Ruleset, side: str) -> dict[str, Units]:
    """Coastal territory -> the land units enemy transports could put ashore there next turn: what they carry,
    and for the empty ones the attacking land units of their power beside their zone, up to their capacity;
    on the coasts of every zone within their move."""
    board, units = ruleset.board, ruleset.units
    graph = graph_of(board)
    found: dict[str, Units] = {}
    for space, stacks in sorted(state.units.items()):
        if space in graph.land:
            continue
        for owner in sorted({s.owner for s in stacks if board.side_of(s.owner) != side}):
            boats = [s for s in stacks if s.owner == owner and units[s.unit].transport_capacity > 0]
            if not boats:
                continue
            cargo: Units = {}
            room = 0
            for stack in boats:
                aboard = [u for _, u in flags.cargo(stack)]
                for unit_id in aboard:
                    cargo[unit_id] = cargo.get(unit_id, 0) + stack.count
                if not aboard:
                    room += units[stack.unit].transport_capacity * stack.count
            ashore = sorted(((s.unit, s.count) for t in graph.coast.get(space, ()) for s in state.units.get(t, ())
                             if s.owner == owner and units[s.unit].domain == "land" and units[s.unit].attack > 0
                             and units[s.unit].transport_size > 0), key=lambda un: (-units[un[0]].attack, un[0]))
            for unit_id, count in ashore:
                take = min(count, room // units[unit_id].transport_size)
                if take > 0:
                    cargo[unit_id] = cargo.get(unit_id, 0) + take
                    room -= take * units[unit_id].transport_size
            if not cargo:
                continue
            move = min(units[s.unit].move for s in boats)
            zones = [z for z in graph.ball(space, move, lambda s: graph.sea_nbrs[s]) if z not in graph.land]
            for target in {t for z in [space, *zones] for t in graph.coast.get(z, ()) if t in graph.land}:
                here = found.setdefault(target, {})
                for unit_id, n in cargo.items():
                    here[unit_id] = here.get(unit_id, 0) + n
    return found


def defenders_at(state: GameState, ruleset: Ruleset, side: str, space: str) -> Units:
    """The units of `side` at `space` that fight (buildings left out)."""
    board, units = ruleset.board, ruleset.units
    found: Units = {}
    for stack in state.units.get(space, ()):
        if board.side_of(stack.owner) == side and units[stack.unit].domain != "building":
            found[stack.unit] = found.get(stack.unit, 0) + stack.count
    return found
