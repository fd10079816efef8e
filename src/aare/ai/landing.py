"""Where a bot's aircraft land: the engine's own end-of-move check says which would be lost, and each of those
flies to a legal destination where it survives.

At the end of the non-combat move the engine removes the mover's aircraft that are not on a legal landing spot
(`aare.movement.turn.landing_events`: a territory held since the turn began, or a carrier with room). A
territory captured this turn is friendly but no landing spot, so "land where the territory is friendly" is not
enough: this module asks the engine's check instead and sends each stranded aircraft to the destination, among
its legal moves, that the check would keep, as the bot's preference orders them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from aare.actions import Move
from aare.board.notation import format_units
from aare.events import UnitsRemoved
from aare.movement.situation import situation
from aare.movement.turn import landing_events
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

Units = dict[str, int]
Reach = Mapping[tuple[str, str], Mapping[str, list[str]]]


def stranded(state: GameState, ruleset: Ruleset, me: str) -> dict[str, Units]:
    """Space -> `me`'s aircraft there that would be lost if the non-combat move ended now."""
    found: dict[str, Units] = {}
    for event in landing_events(situation(state, ruleset, me)):
        if isinstance(event, UnitsRemoved) and event.stack.owner == me:
            here = found.setdefault(event.space, {})
            here[event.stack.unit] = here.get(event.stack.unit, 0) + event.stack.count
    return found


def landing_moves(reach: Reach, state: GameState, ruleset: Ruleset, me: str,
                  preference: Callable[[str], Any]) -> list[Move]:
    """One-unit moves that bring each stranded aircraft of `me` to a land territory held since the turn began:
    the nearest (aircraft of one kind in one space may have different moves left), then the one `preference`
    ranks lowest; an aircraft with no such destination is left where it is."""
    view = situation(state, ruleset, me)
    plan: list[Move] = []
    for space, units in sorted(stranded(state, ruleset, me).items()):
        for unit, count in sorted(units.items()):
            dests = reach.get((unit, space), {})
            safe = [d for d in dests if d != space and view.is_land(d) and view.held_since_start(d)]
            if not safe:
                continue
            best = min(safe, key=lambda d: (len(dests[d]), preference(d), d))  # aircraft with fewer moves left
            plan += [Move(units=format_units({unit: 1}, ruleset.units), path=list(dests[best]))] * count
    return plan
