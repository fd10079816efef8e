"""The threat map: what the enemy can bring to each space on its next turn.

A land unit threatens every land territory within its move in land steps; an aircraft every space within half
its move (it must fly back to land), rounded up; a warship every sea zone within its move in sea steps (its own
included). Transports and amphibious assaults are left out, so are blocking and canals (a first approximation)."""

from __future__ import annotations

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
    return found


def defenders_at(state: GameState, ruleset: Ruleset, side: str, space: str) -> Units:
    """The units of `side` at `space` that fight (buildings left out)."""
    board, units = ruleset.board, ruleset.units
    found: Units = {}
    for stack in state.units.get(space, ()):
        if board.side_of(stack.owner) == side and units[stack.unit].domain != "building":
            found[stack.unit] = found.get(stack.unit, 0) + stack.count
    return found
